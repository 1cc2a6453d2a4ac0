/*
 * libgamedb - what the benchmark programs read of a game (bench/rate.c, bench/walk.c,
 * bench/cbh-walk.c), in one place so that their walks differ only where they say so, and the
 * CPU clock they time it by.
 */
#ifndef GAMEDB_BENCH_WALK_GAME_H
#define GAMEDB_BENCH_WALK_GAME_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <gamedb/gamedb.h>

/*
 * What bench_walk_game() reads besides the tags and each move's squares. BENCH_TEXT: each
 * comment's text and its length (strlen()), as a program that goes through the text does;
 * BENCH_TEXT_N: each comment's text by its pointer and length (gamedb_event_get_text_n(), no
 * scan), as a program that hands it on does.
 */
enum { BENCH_SAN = 1, BENCH_UCI = 2, BENCH_TEXT = 4, BENCH_TEXT_N = 8 };

/* The CPU time of the process (user + system), in seconds. */
static double bench_cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * One game as a program reading it would: every tag's value, every event of the move iterator
 * made with flags 0, each move's squares, and what `what` asks (BENCH_*): a move's SAN, its
 * UCI, each comment's text (BENCH_TEXT or BENCH_TEXT_N). *sum takes the lengths read, so that
 * nothing is optimised away.
 * Returns the game's moves (MOVE events, main line and variations).
 */
static uint64_t bench_walk_game(struct gamedb_game *g, unsigned what, uint64_t *sum)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	size_t i, n = gamedb_game_get_tag_count(g);
	uint64_t moves = 0;
	int32_t rc;

	for (i = 0; i < n; i++) {
		const char *name, *value;
		if (gamedb_game_get_tag_at(g, i, &name, &value) == GAMEDB_OK)
			*sum += strlen(value);
	}
	rc = gamedb_move_iter_new(g, 0, &it);
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) { /* a warning: its moves are there */
		gamedb_move_iter_free(it);
		return 0;
	}
	while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
		int32_t type = gamedb_event_get_type(ev), from, to, promo;
		if (type == GAMEDB_EVENT_MOVE) {
			moves++;
			if (what & BENCH_SAN)
				*sum += strlen(gamedb_event_get_san(ev));
			if (what & BENCH_UCI)
				*sum += strlen(gamedb_event_get_uci(ev));
			if (gamedb_event_get_move(ev, &from, &to, &promo) == GAMEDB_OK)
				*sum += (uint64_t)(from + to + promo);
		} else if ((what & (BENCH_TEXT | BENCH_TEXT_N)) &&
			   (type == GAMEDB_EVENT_COMMENT_BEFORE || type == GAMEDB_EVENT_COMMENT_AFTER)) {
			size_t len = 0;
			if (what & BENCH_TEXT_N) {
				gamedb_event_get_text_n(ev, &len);
			} else {
				const char *t = gamedb_event_get_text(ev);
				len = t ? strlen(t) : 0;
			}
			*sum += len;
		}
	}
	gamedb_move_iter_free(it);
	return moves;
}

/*
 * The games of r, whose open gave open_rc, up to max_games of them: each(g, ctx) for every
 * game read (its moves added to *moves; a failed game is counted in *games, not passed).
 * Frees r. 0, or 1 after a message on stderr that starts with prog. The loop every benchmark
 * program runs, whatever it does with a game and however it opened the base.
 */
static inline int bench_each_game(const char *prog, struct gamedb_reader *r, int32_t open_rc,
				  uint64_t max_games, uint64_t (*each)(struct gamedb_game *g, void *ctx),
				  void *ctx, uint64_t *games, uint64_t *moves)
{
	struct gamedb_game *g;
	int32_t rc;

	*games = *moves = 0;
	if (open_rc != GAMEDB_OK && open_rc != GAMEDB_WARN) {
		fprintf(stderr, "%s: %s\n", prog, gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return 1;
	}
	while (*games < max_games &&
	       (rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
		if (rc != GAMEDB_FAILED)
			*moves += each(g, ctx);
		++*games;
	}
	gamedb_reader_free(r);
	return 0;
}

/* bench_walk_file()'s game: bench_walk_game() with what it asks. */
struct bench_walk_ctx {
	unsigned what;
	uint64_t *sum;
};
static inline uint64_t bench_walk_each(struct gamedb_game *g, void *ctx)
{
	const struct bench_walk_ctx *w = ctx;

	return bench_walk_game(g, w->what, w->sum);
}

/*
 * A database opened by its file name (every format), and its first max_games games walked as
 * bench_walk_game() walks them with `what`: the games in *games (failed ones too), the moves
 * in *moves, *sum as bench_walk_game() keeps it. 0, or 1 after a message on stderr that starts
 * with prog.
 */
static inline int bench_walk_file(const char *prog, const char *db, uint64_t max_games,
				  unsigned what, uint64_t *games, uint64_t *moves, uint64_t *sum)
{
	struct gamedb_reader *r = gamedb_reader_new();
	struct bench_walk_ctx w = { what, sum };

	*games = *moves = 0;
	if (!r)
		return 1;
	gamedb_reader_support_format_all(r);
	return bench_each_game(prog, r, gamedb_reader_open_filename(r, db), max_games, bench_walk_each,
			       &w, games, moves);
}

#endif /* GAMEDB_BENCH_WALK_GAME_H */
