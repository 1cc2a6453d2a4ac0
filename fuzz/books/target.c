/*
 * libgamedb - fuzz target for the opening-book readers (gamedb_book_reader_*: Arena .abk,
 * ChessBase .ctg with .ctb and .cto).
 *
 * Input: a first byte choosing the format (even: ABK, odd: CTG), then for ABK the file as it
 * is; for CTG three big-endian 4-byte lengths (of the .ctb, the .cto, the .ctg, each cut to
 * what is there) and the three files. The reader opens files by name only, so they are
 * written to a folder of the process's own under $TMPDIR (/tmp), and removed after. Each
 * input is opened, walked to its end (every position's moves and statistics read), probed for
 * a few positions and converted to Polyglot; every status must be one the API documents, every
 * move have its UCI, SAN and statistics, the Polyglot book whole entries. Seeds: fuzz/books/corpus (fuzz/books/make-corpus.py).
 */
#define _POSIX_C_SOURCE 200809L
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

#define REQUIRE(c) do { if (!(c)) { fprintf(stderr, "fuzz: %s:%d: %s\n", __FILE__, __LINE__, \
	#c); abort(); } } while (0)

static int32_t null_sink(void *ud, const char *data, size_t len)
{
	(void)data;
	*(size_t *)ud += len;
	return 0;
}

static void put(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	REQUIRE(f != NULL);
	REQUIRE(len == 0 || fwrite(data, 1, len, f) == len);
	REQUIRE(fclose(f) == 0);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void exercise(const char *path)
{
	static const char *const fens[] = {
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"8/4P3/8/8/8/8/2K5/6k1 w - - 0 1",
		"6k1/8/8/8/8/8/p7/2K5 b - - 0 1",
	};
	struct gamedb_book_reader *br;
	size_t i, n = 0, written = 0;
	int32_t st;

	REQUIRE(gamedb_book_reader_new(&br) == GAMEDB_OK);
	st = gamedb_book_reader_open_filename(br, path);
	REQUIRE(gamedb_book_reader_errmsg(br) != NULL);
	if (st == GAMEDB_FATAL) {
		gamedb_book_reader_free(br);
		return;
	}
	REQUIRE(st == GAMEDB_OK || st == GAMEDB_WARN);
	REQUIRE(gamedb_book_reader_walk(br, -1) == GAMEDB_OK);
	while ((st = gamedb_book_reader_next_position(br)) != GAMEDB_END) {
		int32_t k, j;
		const char *name;
		REQUIRE(st == GAMEDB_OK || st == GAMEDB_WARN || st == GAMEDB_FAILED);
		REQUIRE(st != GAMEDB_FAILED || *gamedb_book_reader_errmsg(br));
		REQUIRE(++n < 1000000);
		if (st == GAMEDB_FAILED)
			continue;
		REQUIRE(gamedb_book_reader_get_fen(br) != NULL);
		for (j = 0; (name = gamedb_book_reader_position_stat_name(br, j)) != NULL; j++) {
			int64_t v;
			REQUIRE(gamedb_book_reader_get_stat(br, name, &v) == GAMEDB_OK);
		}
		REQUIRE(gamedb_book_reader_get_ply(br) >= 0);
		for (k = 0; k < gamedb_book_reader_move_count(br); k++) {
			const char *uci = gamedb_book_reader_move_get_uci(br, k);
			REQUIRE(uci && strlen(uci) >= 4 && gamedb_book_reader_move_get_san(br, k));
			for (j = 0; (name = gamedb_book_reader_stat_name(br, j)) != NULL; j++) {
				int64_t v;
				REQUIRE(gamedb_book_reader_move_get_stat(br, k, name, &v) == GAMEDB_OK);
			}
			REQUIRE(gamedb_book_reader_move_get_stat(br, k, "no such", NULL) == GAMEDB_FAILED);
		}
		REQUIRE(gamedb_book_reader_move_get_uci(br, gamedb_book_reader_move_count(br)) == NULL);
	}
	for (i = 0; i < sizeof fens / sizeof fens[0]; i++) {
		st = gamedb_book_reader_probe(br, fens[i]);
		REQUIRE(st == GAMEDB_OK || st == GAMEDB_WARN || st == GAMEDB_END ||
			st == GAMEDB_FAILED);
	}
	st = gamedb_book_reader_write_polyglot(br, null_sink, &written);
	REQUIRE(st == GAMEDB_OK || st == GAMEDB_WARN || st == GAMEDB_FAILED);
	REQUIRE(written % 16 == 0);
	gamedb_book_reader_free(br);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *tmp = getenv("TMPDIR");
#ifdef _WIN32
	if (!tmp || !*tmp)
		tmp = getenv("TEMP");
#endif
	char dir[512], p[600];
	static int made;

	if (size < 1)
		return 0;
	snprintf(dir, sizeof dir, "%s/gamedb-fuzz-books-%ld", tmp && *tmp ? tmp : "/tmp",
		 (long)getpid());
	if (!made++)
		(void)mkdir(dir, 0700); /* (a folder left by an earlier run of this pid is used) */
	if (!(data[0] & 1)) {
		snprintf(p, sizeof p, "%s/b.abk", dir);
		put(p, data + 1, size - 1);
		exercise(p);
		remove(p);
	} else {
		const uint8_t *q = data + 1, *end = data + size;
		size_t len[3] = { 0, 0, 0 }, k;
		static const char *const ext[3] = { "ctb", "cto", "ctg" };
		if (end - q >= 12) {
			for (k = 0; k < 3; k++)
				len[k] = be32(q + 4 * k);
			q += 12;
		}
		for (k = 0; k < 3; k++) {
			size_t l = len[k] < (size_t)(end - q) ? len[k] : (size_t)(end - q);
			if (k == 2)
				l = (size_t)(end - q);
			snprintf(p, sizeof p, "%s/b.%s", dir, ext[k]);
			put(p, q, l);
			q += l;
		}
		snprintf(p, sizeof p, "%s/b.ctg", dir);
		exercise(p);
		for (k = 0; k < 3; k++) {
			snprintf(p, sizeof p, "%s/b.%s", dir, ext[k]);
			remove(p);
		}
	}
	return 0;
}
