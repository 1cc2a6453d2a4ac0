/*
 * libgamedb - the walk of bench/python-walk.py done in C, for its ratios: the first N games of
 * a database opened from its file, for each game every tag (name and value), and every event
 * of the move iterator (flags 0) with what the Python binding hands out for it: a move's SAN,
 * UCI and squares, a comment's text. One line per round, CPU time of the process:
 *
 *   bench-walk [--games N] [--rounds R] DB
 *   round 1: 0.0153 s, 1500 games, 123849 moves
 *
 * The reader is opened again for every round, as the Python walk opens it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gamedb/gamedb.h>

#include "walk-game.h"

int main(int argc, char **argv)
{
	uint64_t max_games = UINT64_MAX;
	long rounds = 1, k;
	int i = 1;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--games"))
			max_games = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--rounds"))
			rounds = strtol(argv[i + 1], NULL, 10);
		else
			break;
	}
	if (i + 1 != argc || rounds < 1) {
		fprintf(stderr, "usage: bench-walk [--games N] [--rounds R] DB\n");
		return 2;
	}
	for (k = 1; k <= rounds; k++) {
		uint64_t games = 0, moves = 0, sum = 0;
		double t0 = bench_cpu_now();

		if (bench_walk_file("bench-walk", argv[i], max_games, BENCH_SAN | BENCH_UCI | BENCH_TEXT,
				    &games, &moves, &sum) != 0)
			return 1;
		printf("round %ld: %.6f s, %llu games, %llu moves (%llu)\n", k, bench_cpu_now() - t0,
		       (unsigned long long)games, (unsigned long long)moves,
		       (unsigned long long)(sum & 1));
	}
	return 0;
}
