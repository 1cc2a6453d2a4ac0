/*
 * libgamedb - fuzz target for search and the opening tree (gamedb_query_*, gamedb_tree_*).
 *
 * Input: a FEN, NUL, moves, NUL, header filters one a line, NUL, then a style 12 session log
 * (a text base, so that the games matched are fuzzed too). The FEN and the moves go to
 * gamedb_query_set_position(), each filter to gamedb_query_add_where(); the log is opened from
 * memory (style12 only) and the tree counted over it, then the games found again with
 * gamedb_query_next(). Checked: a bad position or filter is refused with a message, never a
 * crash; the rows of a tree add up to its totals; every row has its SAN and UCI; the games
 * gamedb_query_next() finds are the games the tree counted. Seeds: fuzz/query/corpus (written
 * by hand, see its README.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#define REQUIRE(cond)           \
	do {                    \
		if (!(cond))    \
			abort(); \
	} while (0)

/* The next NUL-terminated part of [*p, end), copied (NULL when there is no NUL left). */
static char *part(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *nul = memchr(*p, 0, (size_t)(end - *p));
	char *s;

	if (!nul)
		return NULL;
	s = malloc((size_t)(nul - *p) + 1);
	REQUIRE(s);
	memcpy(s, *p, (size_t)(nul - *p) + 1);
	*p = nul + 1;
	return s;
}

static struct gamedb_reader *open_log(const uint8_t *data, size_t size)
{
	struct gamedb_reader *r = gamedb_reader_new();

	REQUIRE(r);
	REQUIRE(gamedb_reader_support_format(r, "style12") == GAMEDB_OK);
	if (gamedb_reader_open_memory(r, "fuzz.log", data, size) != GAMEDB_OK) {
		gamedb_reader_free(r);
		return NULL;
	}
	return r;
}

/* libFuzzer calls it; declared for -Wmissing-prototypes, as fuzz-walk.h does for the others. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	char *fen, *moves, *where, *line;
	struct gamedb_query *q = NULL;
	struct gamedb_reader *r;
	struct gamedb_tree *t = NULL;
	uint64_t failed = 0, found = 0;
	int have_pos;

	if (size > (1u << 16))
		return 0;
	fen = part(&p, end);
	moves = part(&p, end);
	where = part(&p, end);
	REQUIRE(gamedb_query_new(&q) == GAMEDB_OK);
	have_pos = (fen && *fen) || (moves && *moves);
	if (have_pos) {
		int32_t rc = gamedb_query_set_position(q, fen && *fen ? fen : NULL, moves);
		REQUIRE(rc == GAMEDB_OK || (rc == GAMEDB_FAILED && gamedb_query_errmsg(q)[0]));
		have_pos = rc == GAMEDB_OK;
	}
	for (line = where; line && *line;) {
		char *nl = strchr(line, '\n');
		int32_t rc;
		if (nl)
			*nl = 0;
		rc = gamedb_query_add_where(q, line);
		REQUIRE(rc == GAMEDB_OK || (rc == GAMEDB_FAILED && gamedb_query_errmsg(q)[0]));
		line = nl ? nl + 1 : NULL;
	}
	if (have_pos && (r = open_log(p, (size_t)(end - p))) != NULL) {
		int32_t rc = gamedb_query_tree(q, r, &t, &failed);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_FATAL);
		if (rc == GAMEDB_OK) {
			size_t n = gamedb_tree_get_count(t), i;
			int64_t sum = 0;
			for (i = 0; i < n; i++) {
				REQUIRE(gamedb_tree_get_san(t, i) && gamedb_tree_get_uci(t, i));
				REQUIRE(gamedb_tree_get_stat(t, i, GAMEDB_TREE_GAMES) > 0);
				sum += gamedb_tree_get_stat(t, i, GAMEDB_TREE_GAMES);
				(void)gamedb_tree_get_stat(t, i, GAMEDB_TREE_PERFORMANCE);
			}
			REQUIRE(sum == gamedb_tree_get_stat(t, n, GAMEDB_TREE_GAMES));
		}
		gamedb_reader_free(r);
		r = open_log(p, (size_t)(end - p));
		REQUIRE(r);
		for (;;) {
			struct gamedb_game *g;
			rc = gamedb_query_next(q, r, &g);
			if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
				break;
			if (rc == GAMEDB_FAILED)
				continue;
			REQUIRE(gamedb_query_get_ply(q) >= 0);
			found++;
		}
		if (t)
			REQUIRE(found == (uint64_t)gamedb_tree_get_stat(t, gamedb_tree_get_count(t),
								 GAMEDB_TREE_GAMES));
		gamedb_reader_free(r);
	}
	gamedb_tree_free(t);
	gamedb_query_free(q);
	free(fen);
	free(moves);
	free(where);
	return 0;
}
