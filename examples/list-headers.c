/*
 * list-headers: print one line per game (number, White, Black, Result, Date, Event).
 * Reads only the index: no move is decoded.
 *
 *   list-headers base.si4
 */
#include <inttypes.h>
#include <stdio.h>

#include <gamedb/gamedb.h>

static const char *tag(struct gamedb_game *g, const char *name)
{
	const char *v = gamedb_game_get_tag(g, name);
	return v ? v : "";
}

int main(int argc, char **argv)
{
	struct gamedb_reader *r;
	struct gamedb_game *g;
	int32_t rc;
	int status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DATABASE\n", argv[0]);
		return 2;
	}
	r = gamedb_reader_new();
	if (!r)
		return 2;
	gamedb_reader_support_format_all(r);
	rc = gamedb_reader_open_filename(r, argv[1]);
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		fprintf(stderr, "%s\n", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return 2;
	}
	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		if (rc == GAMEDB_FAILED) {
			fprintf(stderr, "%s\n", gamedb_reader_errmsg(r));
			status = 1;
			continue;
		}
		printf("%" PRIu64 "\t%s\t%s\t%s\t%s\t%s%s\n", gamedb_game_get_index(g) + 1,
		       tag(g, "White"), tag(g, "Black"), tag(g, "Result"), tag(g, "Date"),
		       tag(g, "Event"), gamedb_game_is_deleted(g) ? "\t(deleted)" : "");
	}
	if (rc == GAMEDB_FATAL) {
		fprintf(stderr, "%s\n", gamedb_reader_errmsg(r));
		status = 2;
	}
	gamedb_reader_free(r);
	return status;
}
