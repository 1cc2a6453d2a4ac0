/*
 * libgamedb - conversion rate in memory: games per second from a database to PGN.
 *
 *   bench-rate SECONDS DB...
 *
 * Each DB (a .cbh, .si4 or .xqf file) is loaded into memory with its sibling files (every file
 * of the folder with the same stem), then opened from memory and converted to PGN (public API,
 * gamedb_game_write_pgn, into a sink that only counts bytes) again and again for at least
 * SECONDS of CPU time. Small real bases are thus measured without disk or page-cache effects
 * and without the noise of a single short run. One line per DB:
 *
 *   <db>: <games> games x <passes> passes in <cpu> s: <rate> games/s, <MB/s> MB/s of PGN
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gamedb/gamedb.h>

#include "load-file.h"

#define MAX_FILES 32

static int32_t count_sink(void *ud, const char *data, size_t len)
{
	(void)data;
	*(uint64_t *)ud += len;
	return 0;
}

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int bench(const char *db, double seconds)
{
	char dir[1024], stem[512];
	const char *slash = strrchr(db, '/'), *dot;
	char *names[MAX_FILES];
	const void *data[MAX_FILES];
	size_t sizes[MAX_FILES], n = 0, k;
	struct dirent **ents;
	uint64_t games = 0, bytes = 0, passes = 0, per_pass = 0;
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

	t0 = cpu_now();
	do {
		struct gamedb_reader *r = gamedb_reader_new();
		struct gamedb_game *g;
		int32_t rc;

		gamedb_reader_support_format_all(r);
		rc = gamedb_reader_open_memory_set(r, (const char *const *)names, data, sizes, n);
		if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
			fprintf(stderr, "bench-rate: %s\n", gamedb_reader_errmsg(r));
			gamedb_reader_free(r);
			status = 1;
			break;
		}
		per_pass = 0;
		while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
			if (rc != GAMEDB_FAILED)
				gamedb_game_write_pgn(g, 0, count_sink, &bytes);
			per_pass++;
		}
		games += per_pass;
		passes++;
		gamedb_reader_free(r);
		t = cpu_now() - t0;
	} while (t < seconds);
	if (!status)
		printf("%s: %llu games x %llu passes in %.2f s: %.0f games/s, %.1f MB/s of PGN\n", db,
		       (unsigned long long)per_pass, (unsigned long long)passes, t, (double)games / t,
		       (double)bytes / t / 1e6);
	for (k = 0; k < n; k++) {
		free(names[k]);
		free((void *)data[k]);
	}
	return status;
}

int main(int argc, char **argv)
{
	double seconds;
	int i, status = 0;

	if (argc < 3 || (seconds = atof(argv[1])) <= 0) {
		fprintf(stderr, "usage: bench-rate SECONDS DB...\n");
		return 2;
	}
	for (i = 2; i < argc; i++)
		status |= bench(argv[i], seconds);
	return status;
}
