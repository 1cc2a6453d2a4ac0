/*
 * libgamedb - fuzz target for the position index reader (gamedb_index_*, gamedb_query_set_index(),
 * gamedb_query_next_hit(), gamedb_tree_add_hit()).
 *
 * Input: a 4-byte little-endian length, a style 12 log of that length (the base), then an
 * index file (made by `gamedb index` of that log: fuzz/index/make-corpus.py). The log is written
 * to a folder of its own as base.log; the index's first base file record gets the log's size,
 * time and hash (so that the index is not refused as stale before it is read), and the index is
 * opened from memory and asked for the start position and two others: every hit through
 * gamedb_query_next_hit() and gamedb_tree_add_hit(), every game of the base through
 * gamedb_query_match() and gamedb_tree_add_game(). Checked: never a crash, a hang or an
 * unbounded allocation; a refused index has a message; a tree's rows add up to its totals.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _WIN32 /* the replay runs under Wine too: MinGW's mkdir() takes no mode */
#include <direct.h>
#define mkdir(path, mode) _mkdir(path)
#endif

#include <gamedb/gamedb.h>

#define REQUIRE(cond)           \
	do {                    \
		if (!(cond))    \
			abort(); \
	} while (0)

static char dir[64], logpath[96];

/* The index's base file hash (lib/query/index-write.c): FNV-1a 64 of the first 64 KiB, and the
 * last 64 KiB of a file over 128 KiB (a log here never is). */
static uint64_t hash_of(const uint8_t *p, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	if (n > 65536)
		n = 65536;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void check_tree(struct gamedb_tree *t)
{
	size_t n = gamedb_tree_get_count(t), i;
	int64_t sum = 0;

	for (i = 0; i < n; i++) {
		REQUIRE(gamedb_tree_get_san(t, i) && gamedb_tree_get_uci(t, i));
		sum += gamedb_tree_get_stat(t, i, GAMEDB_TREE_GAMES);
	}
	REQUIRE(sum == gamedb_tree_get_stat(t, n, GAMEDB_TREE_GAMES));
}

static void ask(struct gamedb_index *ix, struct gamedb_reader *r, const char *moves)
{
	struct gamedb_query *q = NULL;
	struct gamedb_tree *t = NULL, *t2 = NULL;
	struct gamedb_game *g;
	uint64_t game;
	uint32_t flags;
	int32_t rc;
	int n = 0;

	REQUIRE(gamedb_query_new(&q) == GAMEDB_OK && gamedb_tree_new(&t) == GAMEDB_OK &&
		gamedb_tree_new(&t2) == GAMEDB_OK);
	REQUIRE(gamedb_query_set_position(q, NULL, moves) == GAMEDB_OK);
	rc = gamedb_query_set_index(q, ix, r);
	if (rc == GAMEDB_OK) {
		while (gamedb_query_next_hit(q, &game, &flags) == GAMEDB_OK && n++ < 100000)
			rc = gamedb_tree_add_hit(t, q);
		check_tree(t);
		REQUIRE(gamedb_reader_seek_game(r, 0) == GAMEDB_OK ||
			(gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK) == 0);
		while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
			if (!g)
				continue;
			gamedb_query_match(q, g);
			gamedb_tree_add_game(t2, q, g);
		}
		check_tree(t2);
	} else {
		REQUIRE(gamedb_query_errmsg(q)[0]);
	}
	gamedb_tree_free(t);
	gamedb_tree_free(t2);
	gamedb_query_free(q);
}

/* libFuzzer calls it; declared for -Wmissing-prototypes, as fuzz-walk.h does for the others. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gamedb_index *ix = NULL;
	struct gamedb_reader *r;
	struct stat st;
	uint8_t *copy;
	uint32_t loglen;
	int32_t rc;
	FILE *f;

	if (size < 4)
		return 0;
	loglen = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
		 (uint32_t)data[3] << 24;
	if (loglen > size - 4 || loglen > 65536)
		return 0;
	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");
#ifdef _WIN32
		if (!tmp || !*tmp)
			tmp = getenv("TEMP");
#endif
		snprintf(dir, sizeof dir, "%s/gamedb-fuzz-index-%ld", tmp && *tmp ? tmp : "/tmp",
			 (long)getpid());
		mkdir(dir, 0700);
		snprintf(logpath, sizeof logpath, "%s/base.log", dir);
	}
	f = fopen(logpath, "wb");
	REQUIRE(f);
	REQUIRE(fwrite(data + 4, 1, loglen, f) == loglen || loglen == 0);
	REQUIRE(fclose(f) == 0);
	REQUIRE(stat(logpath, &st) == 0);
	size -= 4 + (size_t)loglen;
	copy = malloc(size ? size : 1);
	REQUIRE(copy);
	memcpy(copy, data + 4 + loglen, size);
	/* the first base's first file: the log as it is now */
	if (size >= 64 + 128) {
		uint64_t at = get64(copy + 64);
		if (at <= size && size - at >= 24 + 28) {
			put64(copy + at + 24, (uint64_t)st.st_size);
			put64(copy + at + 32, (uint64_t)st.st_mtime);
			put64(copy + at + 40, hash_of(data + 4, loglen));
		}
	}
	if (gamedb_index_open_memory(&ix, copy, size) == GAMEDB_OK) {
		(void)gamedb_index_get_count(ix, GAMEDB_INDEX_POSITIONS);
		r = gamedb_reader_new();
		REQUIRE(r);
		if (gamedb_reader_support_format(r, "style12") == GAMEDB_OK &&
		    ((rc = gamedb_reader_open_filename(r, logpath)) == GAMEDB_OK || rc == GAMEDB_WARN)) {
			ask(ix, r, "");
			ask(ix, r, "e4");
			ask(ix, r, "e4 e5 Nf3");
		}
		gamedb_reader_free(r);
	} else {
		REQUIRE(!ix || gamedb_index_errmsg(ix)[0]);
	}
	gamedb_index_free(ix);
	free(copy);
	return 0;
}
