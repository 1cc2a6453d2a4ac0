/*
 * libgamedb - conversion rate in memory: games per second from a database to PGN, or through
 * a lower layer only.
 *
 *   bench-rate [--mode pgn|san|decode] [--layout scid] [--games N] SECONDS DB...
 *
 * --mode pgn (the default): the games written as PGN (gamedb_game_write_pgn).
 * --mode san: every tag read, every event of the move iterator (moves, variations, comments,
 *   NAGs, ...) walked, with each move's SAN and each comment's text: all that PGN needs, but no
 *   PGN text is laid out.
 * --mode decode: every tag read and every event walked (a move's squares, no SAN, no text):
 *   the decoder alone (headers, tags, all events).
 * --layout scid: PGN as Scid lays it out (as `gamedb pgn --layout scid`).
 * --games N: only the first N games of each database (a slice of a large base).
 * SECONDS 0: one pass.
 *
 * Each DB (a .cbh, .si4 or .xqf file) is loaded into memory with its sibling files (every file
 * of the folder with the same stem), then opened from memory and converted to PGN (public API,
 * gamedb_game_write_pgn, into a sink that only counts bytes) again and again for at least
 * SECONDS of CPU time. Small real bases are thus measured without disk or page-cache effects
 * and without the noise of a single short run. One line per DB:
 *
 *   <db>: <games> games x <passes> passes in <cpu> s: <rate> games/s, <MB/s> MB/s of PGN
 *   (--mode san, decode: ... <rate> games/s, <moves> moves/s, <moves per pass> moves a pass)
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gamedb/gamedb.h>

#include "walk-game.h"

#include "load-file.h"

#define MAX_FILES 32

static int32_t count_sink(void *ud, const char *data, size_t len)
{
	(void)data;
	*(uint64_t *)ud += len;
	return 0;
}

enum { MODE_PGN, MODE_SAN, MODE_DECODE };

static int mode = MODE_PGN;
static uint64_t max_games = UINT64_MAX;
static uint32_t write_flags; /* --layout scid: GAMEDB_WRITE_LAYOUT_SCID */

/* What a pass does with a game, by --mode: its PGN (counted in *bytes), or its walk. */
static uint64_t rate_game(struct gamedb_game *g, void *bytes)
{
	if (mode == MODE_PGN) {
		gamedb_game_write_pgn(g, write_flags, count_sink, bytes);
		return 0;
	}
	return bench_walk_game(g, mode == MODE_SAN ? BENCH_SAN | BENCH_TEXT : 0, bytes);
}

/*
 * One pass over a database in memory: open, every game (up to --games), close. Not inlined,
 * so that `valgrind --tool=callgrind --toggle-collect=measured_pass` counts only this, not
 * the loading of the files. 0, or 1 after a message.
 */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int measured_pass(const char *const *names, const void *const *data, const size_t *sizes,
			 size_t n, uint64_t *games, uint64_t *moves, uint64_t *bytes)
{
	struct gamedb_reader *r = gamedb_reader_new();

	*games = *moves = 0;
	if (!r)
		return 1;
	gamedb_reader_support_format_all(r);
	return bench_each_game("bench-rate", r, gamedb_reader_open_memory_set(r, names, data, sizes, n),
			       max_games, rate_game, bytes, games, moves);
}

static int bench(const char *db, double seconds)
{
	char dir[1024], stem[512];
	const char *slash = strrchr(db, '/'), *dot;
	char *names[MAX_FILES];
	const void *data[MAX_FILES];
	size_t sizes[MAX_FILES], n = 0, k;
	struct dirent **ents;
	uint64_t games = 0, bytes = 0, passes = 0, per_pass = 0, moves = 0, pass_moves = 0;
	double t0, t;
	int ne, i, status = 0;

	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - db) : 1, slash ? db : ".");
	snprintf(stem, sizeof stem, "%s", slash ? slash + 1 : db);
	dot = strrchr(stem, '.');
	if (!dot) {
		fprintf(stderr, "bench-rate: %s: give the index file (.cbh, .si4, .xqf)\n", db);
		return 1;
	}
	/* The primary file first, then its siblings. */
	names[n] = strdup(stem);
	data[n] = load_file(db, &sizes[n]);
	if (!data[n]) {
		fprintf(stderr, "bench-rate: cannot read %s\n", db);
		return 1;
	}
	n++;
	ne = scandir(dir, &ents, NULL, alphasort);
	for (i = 0; i < ne; i++) {
		const char *e = ents[i]->d_name;
		size_t sl = (size_t)(dot - stem);
		if (n < MAX_FILES && strncmp(e, stem, sl) == 0 && e[sl] == '.' && strcmp(e, stem) != 0) {
			char path[2048];
			snprintf(path, sizeof path, "%s/%s", dir, e);
			data[n] = load_file(path, &sizes[n]);
			if (data[n])
				names[n++] = strdup(e);
		}
		free(ents[i]);
	}
	free(ents);

	t0 = bench_cpu_now();
	do {
		status = measured_pass((const char *const *)names, data, sizes, n, &per_pass,
				       &pass_moves, &bytes);
		moves += pass_moves;
		games += per_pass;
		passes++;
		t = bench_cpu_now() - t0;
	} while (t < seconds && !status);
	if (!status && mode == MODE_PGN)
		printf("%s: %llu games x %llu passes in %.2f s: %.0f games/s, %.1f MB/s of PGN\n", db,
		       (unsigned long long)per_pass, (unsigned long long)passes, t, (double)games / t,
		       (double)bytes / t / 1e6);
	else if (!status)
		printf("%s: %llu games x %llu passes in %.2f s: %.0f games/s, %.0f moves/s, "
		       "%llu moves a pass (%s)\n", db, (unsigned long long)per_pass,
		       (unsigned long long)passes, t, (double)games / t, (double)moves / t,
		       (unsigned long long)pass_moves, mode == MODE_SAN ? "san" : "decode");
	for (k = 0; k < n; k++) {
		free(names[k]);
		free((void *)data[k]);
	}
	return status;
}

int main(int argc, char **argv)
{
	double seconds;
	int i = 1, status = 0;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "--mode") == 0 && strcmp(argv[i + 1], "pgn") == 0)
			mode = MODE_PGN;
		else if (strcmp(argv[i], "--mode") == 0 && strcmp(argv[i + 1], "san") == 0)
			mode = MODE_SAN;
		else if (strcmp(argv[i], "--mode") == 0 && strcmp(argv[i + 1], "decode") == 0)
			mode = MODE_DECODE;
		else if (strcmp(argv[i], "--layout") == 0 && strcmp(argv[i + 1], "scid") == 0)
			write_flags = GAMEDB_WRITE_LAYOUT_SCID;
		else if (strcmp(argv[i], "--games") == 0 && atoll(argv[i + 1]) > 0)
			max_games = (uint64_t)atoll(argv[i + 1]);
		else
			break;
	}
	if (argc - i < 2 || (seconds = atof(argv[i])) < 0) {
		fprintf(stderr, "usage: bench-rate [--mode pgn|san|decode] [--layout scid] [--games N] SECONDS DB...\n");
		return 2;
	}
	for (i++; i < argc; i++)
		status |= bench(argv[i], seconds);
	return status;
}
