/*
 * libgamedb - compile test of the public header in strict C (C99 and C11, -pedantic -Werror).
 * It is also run, so that the few calls below link and behave.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gamedb/gamedb.h>
#include <gamedb/gamedb.h> /* the include guard works */

#include <stdio.h>
#include <string.h>

static int32_t sink(void *user_data, const char *data, size_t len)
{
	(void)user_data;
	(void)data;
	(void)len;
	return 0;
}

int main(void)
{
	struct gamedb_reader *r = gamedb_reader_new();
	struct gamedb_game *g = NULL;
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev = NULL;
	struct gamedb_io io;
	gamedb_write_fn w = sink;
	enum gamedb_status st = GAMEDB_OK;
	enum gamedb_error e = GAMEDB_E_NONE;
	uint32_t flags = GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_FEN;
	int failed = 0;

	if (!r)
		return 1;
	if (gamedb_version_number() != GAMEDB_VERSION_NUMBER)
		failed = 1;
	if (strcmp(gamedb_version_string(), GAMEDB_VERSION_STRING) != 0)
		failed = 1;
	if (gamedb_io_init(&io, sizeof io) != GAMEDB_OK || io.size != sizeof io)
		failed = 1;
	if (gamedb_reader_support_format_all(r) != GAMEDB_OK)
		failed = 1;
	if (gamedb_reader_next_game(r, &g) != GAMEDB_FATAL || g != NULL)
		failed = 1;
	if (gamedb_move_iter_new(g, flags, &it) != GAMEDB_FAILED || it != NULL)
		failed = 1;
	if (gamedb_move_iter_next(it, &ev) == GAMEDB_OK)
		failed = 1;
	if (gamedb_game_write_pgn(g, GAMEDB_WRITE_NO_COMMENTS, w, NULL) == GAMEDB_OK)
		failed = 1;
	printf("%s / %s / %d %d\n", gamedb_strerror(st), gamedb_strerror(e),
	       (int)GAMEDB_EVENT_RESULT, (int)GAMEDB_PIECE_KING);
	gamedb_move_iter_free(it);
	gamedb_reader_free(r);
	return failed;
}
