/*
 * libgamedb - the libgamedb side of bench/cbh-vs-libcbh.sh (issue 32): a ChessBase base walked
 * through the public API the way a program reading its games does, again and again for at
 * least SECONDS of CPU time.
 *
 *   bench-cbh-walk SECONDS DB.cbh
 *
 * One pass: open the base by its file name, then for every game (gamedb_reader_next_game)
 * every tag's value (gamedb_game_get_tag_at), every event of the move iterator made with flags
 * 0, the squares of each move (gamedb_event_get_move) and the text of each comment with its
 * length (gamedb_event_get_text_n); then close. No SAN, no PGN: what bench/libcbh-walk.cpp
 * reads of libcbh's parseNext (squares, each comment's text and size, each tag's value and
 * size). One line on stdout:
 *
 *   games G moves M passes P cpu S
 *
 * G and M are those of one pass (M counts the moves of the main line and of every variation),
 * S the CPU time (user + system of this process) of all P passes.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gamedb/gamedb.h>

#include "walk-game.h"

/* One pass; not inlined, so that callgrind --toggle-collect=measured_pass counts only this. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int measured_pass(const char *db, uint64_t *games, uint64_t *moves, uint64_t *sum)
{
	return bench_walk_file("bench-cbh-walk", db, UINT64_MAX, BENCH_TEXT_N, games, moves,
			       sum);
}

int main(int argc, char **argv)
{
	uint64_t games = 0, moves = 0, sum = 0, passes = 0;
	double seconds, t0, t;

	if (argc != 3) {
		fprintf(stderr, "usage: bench-cbh-walk SECONDS DB.cbh\n");
		return 2;
	}
	seconds = atof(argv[1]);
	t0 = bench_cpu_now();
	do {
		if (measured_pass(argv[2], &games, &moves, &sum))
			return 1;
		passes++;
		t = bench_cpu_now() - t0;
	} while (t < seconds);
	printf("games %llu moves %llu passes %llu cpu %.4f\n", (unsigned long long)games,
	       (unsigned long long)moves, (unsigned long long)passes, t);
	/* The sum keeps the compiler from dropping what is read; it means nothing. */
	fprintf(stderr, "checksum %llu\n", (unsigned long long)sum);
	return 0;
}
