/*
 * libgamedb - the Polyglot opening-book builder (gamedb_book_*). Public API only: the positions
 * come from the move iterator and their keys from gamedb_event_get_key().
 *
 * What goes into the book is what PolyGlot's own `make-book` puts there (PolyGlot 2.0.4 is the
 * oracle of tests/test-book.py), so that a book built here and one built by PolyGlot from the
 * PGN of the same games are the same bytes:
 * - each position of a game's main line before ply max-ply gives the entry (key, move) one more
 *   game (n) and adds to its sum 2 for a win of the side to move, 1 for a draw or an unknown
 *   result, 0 for a loss (the game's Result tag);
 * - when an entry's n reaches 16,384, every entry of its position has n and sum halved
 *   (rounding up), which keeps the proportions and keeps sums within the 16 bits of a weight;
 * - an entry is written when n >= min-game, its sum is not 0, its score (sum / 2n) is at least
 *   min-score, and its side to move is not left out by only-white / only-black; its weight is
 *   its sum (1 with uniform), its learn field 0;
 * - entries are sorted by key, then by weight (highest first), then in the order the games
 *   first gave them.
 * Moves are written as the format asks: from and to squares, a promotion as 1 knight .. 4
 * queen, castling as the king taking its own rook.
 *
 * Memory: the entries live in one hash table (24 bytes an entry, plus 8 of index). When it
 * reaches the memory limit, the entries seen fewer than SPILL_BELOW times are written, sorted,
 * to a temporary file (a run) and dropped; gamedb_book_write() merges the runs with what is
 * left. An entry in a run has not been halved, so a position whose entries pass 16,384 games
 * after some of them went to a run can differ from PolyGlot's (which holds all in memory).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#include "util/polyglot.h"

#define BOOK_MAGIC 0x424f4f4bu /* "BOOK" */
#define COUNT_MAX 16384         /* PolyGlot's halving point */
#define SPILL_BELOW 64          /* entries seen this often stay in memory when the table spills */
#define NIL UINT32_MAX
/* Entries one position may have in the book (the legal moves are at most 218; more can only
 * come from positions whose keys collide, and those beyond this are left out). */
#define GROUP_MAX 512

struct entry {
	uint64_t key;
	uint64_t seq;   /* when the entry was first made: orders entries of equal weight */
	uint16_t move;  /* Polyglot move */
	uint16_t n;     /* games (< COUNT_MAX) */
	uint16_t sum;   /* 2 per win, 1 per draw (< 2 * COUNT_MAX) */
	uint8_t colour; /* side to move: 0 white, 1 black */
	uint8_t pad;
};

/* A sorted run of entries spilled to a temporary file. */
struct run {
	FILE *f;
	size_t left;          /* entries not yet read */
	struct entry cur;     /* the current entry, valid while have */
	int have;
};

struct gamedb_book {
	uint32_t magic;
	/* options */
	uint32_t max_ply, min_game;
	double min_score;
	int only_white, only_black, uniform, standard_start;
	size_t memory;        /* bytes the table may use */
	/* the table */
	struct entry *e;
	size_t n, cap;        /* entries used / allocated */
	uint32_t *hash;       /* 2 * cap slots: index into e, or NIL */
	uint64_t seq;
	/* spilled runs */
	struct run *runs;
	size_t nruns;
	/* one game's positions, collected before any is counted */
	struct { uint64_t key; uint16_t move; uint8_t colour; } *ply;
	size_t nply, capply;
	int written;
	/* The caller's progress callback (gamedb_book_set_progress()): games added, the count of
	 * the next report (UINT64_MAX: none), and a cancel, after which the book refuses work. */
	gamedb_progress_fn progress;
	void *progress_data;
	uint64_t games, progress_at;
	int cancelled;
	char errmsg[256];
};

static int32_t fail(struct gamedb_book *b, int32_t st, const char *msg)
{
	snprintf(b->errmsg, sizeof b->errmsg, "%s", msg);
	return st;
}

GAMEDB_EXPORT int32_t gamedb_book_new(struct gamedb_book **out)
{
	struct gamedb_book *b;

	if (!out)
		return GAMEDB_FAILED;
	*out = NULL;
	b = calloc(1, sizeof *b);
	if (!b)
		return GAMEDB_FAILED;
	b->magic = BOOK_MAGIC;
	b->max_ply = 1024;
	b->min_game = 3;
	b->memory = (size_t)256 << 20;
	b->progress_at = UINT64_MAX;
	*out = b;
	return GAMEDB_OK;
}

static int book_ok(const struct gamedb_book *b)
{
	return b && b->magic == BOOK_MAGIC;
}

#define CANCELLED "cancelled by the progress callback"

GAMEDB_EXPORT int32_t gamedb_book_set_progress(struct gamedb_book *b, gamedb_progress_fn fn,
					       void *user_data)
{
	if (!book_ok(b))
		return GAMEDB_FAILED;
	b->progress = fn;
	b->progress_data = user_data;
	b->progress_at = fn ? (b->games / GAMEDB_PROGRESS_GAMES_STEP + 1) * GAMEDB_PROGRESS_GAMES_STEP
			    : UINT64_MAX;
	return GAMEDB_OK;
}

/* Reports progress to the book's callback: 0 to go on, -1 when it asked to stop (noted). */
static int book_progress(struct gamedb_book *b, int32_t unit, uint64_t done, uint64_t total)
{
	if (!b->progress || b->progress(unit, done, total, b->progress_data) == 0)
		return 0;
	b->cancelled = 1;
	fail(b, GAMEDB_FATAL, CANCELLED);
	return -1;
}

/* A whole decimal number in [0, max], or -1. */
static long long parse_uint(const char *s, long long max)
{
	long long v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > max)
			return -1;
	}
	return v;
}

static int parse_bool(const char *s)
{
	if (!s)
		return -1;
	if (!strcmp(s, "1") || !strcmp(s, "true") || !strcmp(s, "yes"))
		return 1;
	if (!strcmp(s, "0") || !strcmp(s, "false") || !strcmp(s, "no"))
		return 0;
	return -1;
}

GAMEDB_EXPORT int32_t gamedb_book_set_option(struct gamedb_book *b, const char *key,
					     const char *value)
{
	long long v;
	int f;

	if (!book_ok(b) || !key || !value)
		return GAMEDB_FAILED;
	if (b->n || b->nruns || b->written)
		return fail(b, GAMEDB_FAILED, "options must be set before the first game");
	if (!strcmp(key, "max-ply") || !strcmp(key, "min-game")) {
		v = parse_uint(value, 1000000);
		if (v < 0)
			return fail(b, GAMEDB_FAILED, "max-ply and min-game take a number");
		if (key[1] == 'a')
			b->max_ply = (uint32_t)v;
		else
			b->min_game = (uint32_t)v;
		return GAMEDB_OK;
	}
	if (!strcmp(key, "min-score")) {
		v = parse_uint(value, 100);
		if (v < 0)
			return fail(b, GAMEDB_FAILED, "min-score takes a percentage, 0 to 100");
		b->min_score = (double)v / 100.0;
		return GAMEDB_OK;
	}
	if (!strcmp(key, "memory")) {
		v = parse_uint(value, (long long)(SIZE_MAX >> 21));
		if (v < 1)
			return fail(b, GAMEDB_FAILED, "memory takes a number of MiB, at least 1");
		b->memory = (size_t)v << 20;
		return GAMEDB_OK;
	}
	f = parse_bool(value);
	if (!strcmp(key, "only-white") || !strcmp(key, "only-black") || !strcmp(key, "uniform") ||
	    !strcmp(key, "standard-start")) {
		if (f < 0)
			return fail(b, GAMEDB_FAILED,
				    "only-white, only-black, uniform and standard-start take 0 or 1");
		if (!strcmp(key, "uniform"))
			b->uniform = f;
		else if (!strcmp(key, "standard-start"))
			b->standard_start = f;
		else if (!strcmp(key, "only-white"))
			b->only_white = f, b->only_black = 0;
		else
			b->only_black = f, b->only_white = 0;
		return GAMEDB_OK;
	}
	return fail(b, GAMEDB_FAILED, "unknown book option");
}

/* ---- the table -------------------------------------------------------------------------- */

static size_t slot_of(const struct gamedb_book *b, uint64_t key)
{
	/* By key only, as PolyGlot: the entries of one position share a probe chain. */
	return (size_t)(key ^ key >> 32) & (2 * b->cap - 1);
}

static void rehash(struct gamedb_book *b)
{
	size_t i, s;

	for (i = 0; i < 2 * b->cap; i++)
		b->hash[i] = NIL;
	for (i = 0; i < b->n; i++) {
		for (s = slot_of(b, b->e[i].key); b->hash[s] != NIL; s = (s + 1) & (2 * b->cap - 1))
			;
		b->hash[s] = (uint32_t)i;
	}
}

static int grow(struct gamedb_book *b)
{
	size_t cap = b->cap ? b->cap * 2 : 4096;
	struct entry *e;
	uint32_t *h;

	if (cap > UINT32_MAX / 2 || cap > SIZE_MAX / (2 * sizeof *h) / 2)
		return -1;
	e = realloc(b->e, cap * sizeof *e);
	if (!e)
		return -1;
	b->e = e;
	h = realloc(b->hash, 2 * cap * sizeof *h);
	if (!h)
		return -1;
	b->hash = h;
	b->cap = cap;
	rehash(b);
	return 0;
}

static int cmp_key_move(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->move < b->move ? -1 : a->move > b->move;
}

/* Writes the entries seen fewer than SPILL_BELOW times to a new run and drops them. */
static int spill(struct gamedb_book *b)
{
	struct run *runs;
	struct entry *cold;
	size_t i, ncold = 0, nhot = 0;
	FILE *f;

	for (i = 0; i < b->n; i++)
		ncold += b->e[i].n < SPILL_BELOW;
	if (ncold < b->n / 4)
		return 1; /* mostly hot: spilling would not help; let the table grow */
	runs = realloc(b->runs, (b->nruns + 1) * sizeof *runs);
	if (!runs)
		return -1;
	b->runs = runs;
	cold = malloc(ncold * sizeof *cold);
	f = tmpfile();
	if (!cold || !f) {
		free(cold);
		if (f)
			fclose(f);
		return -1;
	}
	ncold = 0;
	for (i = 0; i < b->n; i++) {
		if (b->e[i].n < SPILL_BELOW)
			cold[ncold++] = b->e[i];
		else
			b->e[nhot++] = b->e[i];
	}
	qsort(cold, ncold, sizeof *cold, cmp_key_move);
	if (fwrite(cold, sizeof *cold, ncold, f) != ncold || fflush(f) != 0 || fseek(f, 0, SEEK_SET)) {
		free(cold);
		fclose(f);
		return -1;
	}
	free(cold);
	memset(&b->runs[b->nruns], 0, sizeof b->runs[0]);
	b->runs[b->nruns].f = f;
	b->runs[b->nruns].left = ncold;
	b->nruns++;
	b->n = nhot;
	rehash(b);
	return 0;
}

static void halve(struct gamedb_book *b, uint64_t key)
{
	size_t s;
	uint32_t i;

	for (s = slot_of(b, key); (i = b->hash[s]) != NIL; s = (s + 1) & (2 * b->cap - 1)) {
		if (b->e[i].key == key) {
			b->e[i].n = (uint16_t)((b->e[i].n + 1) / 2);
			b->e[i].sum = (uint16_t)((b->e[i].sum + 1) / 2);
		}
	}
}

/* Counts one game's position (key, move) with score 0, 1 or 2 for the side to move. */
static int count(struct gamedb_book *b, uint64_t key, uint16_t move, int colour, int score)
{
	size_t s;
	uint32_t i;
	struct entry *e;

	if (b->cap) {
		for (s = slot_of(b, key); (i = b->hash[s]) != NIL; s = (s + 1) & (2 * b->cap - 1))
			if (b->e[i].key == key && b->e[i].move == move)
				goto found;
	}
	if (b->n == b->cap) {
		int sp = 1;
		if (b->cap && (b->cap * 2) * (sizeof *b->e + 2 * sizeof *b->hash) > b->memory)
			sp = spill(b);
		if (sp < 0 || (sp > 0 && grow(b) != 0))
			return -1;
	}
	for (s = slot_of(b, key); b->hash[s] != NIL; s = (s + 1) & (2 * b->cap - 1))
		;
	i = (uint32_t)b->n++;
	b->hash[s] = i;
	e = &b->e[i];
	memset(e, 0, sizeof *e);
	e->key = key;
	e->move = move;
	e->colour = (uint8_t)colour;
	e->seq = b->seq++;
found:
	e = &b->e[i];
	e->n++;
	e->sum = (uint16_t)(e->sum + score);
	if (e->n >= COUNT_MAX)
		halve(b, key);
	return 0;
}

/* The Polyglot move of a chess move (squares 0..63 from a1; promo a piece type or 0). */
static uint16_t pg_move(int from, int to, int promo, int piece)
{
	/* Castling (the king's two-square step) is written as the king taking its own rook. */
	if (piece == GAMEDB_PIECE_KING && (from == 4 || from == 60) && (to - from == 2 || from - to == 2))
		to = to > from ? from + 3 : from - 4;
	return gamedb__pg_move(from, to, promo);
}

GAMEDB_EXPORT int32_t gamedb_book_add_game(struct gamedb_book *b, struct gamedb_game *g)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	const char *res;
	uint64_t key;
	int32_t st;
	int white_score;
	size_t i;

	if (!book_ok(b) || !g)
		return GAMEDB_FAILED;
	if (b->cancelled)
		return fail(b, GAMEDB_FATAL, CANCELLED);
	if (b->written)
		return fail(b, GAMEDB_FAILED, "the book was written already");
	/* The progress callback's games: a counter compared, the report once a step. */
	if (b->games++ >= b->progress_at) {
		b->progress_at += GAMEDB_PROGRESS_GAMES_STEP;
		if (book_progress(b, GAMEDB_PROGRESS_GAMES, b->games - 1, 0) != 0) {
			b->games--;
			return GAMEDB_FATAL;
		}
	}
	if (gamedb_game_get_variant(g) != GAMEDB_VARIANT_CHESS)
		return fail(b, GAMEDB_WARN, "not a game of standard chess: left out");
	if (b->standard_start && gamedb_game_get_start_key(g, &key) == GAMEDB_OK &&
	    key != UINT64_C(0x463b96181691fc9c))
		return fail(b, GAMEDB_WARN, "not from the standard start: left out");
	if (gamedb_game_get_start_key(g, &key) != GAMEDB_OK ||
	    gamedb_move_iter_new(g, GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS, &it) !=
		    GAMEDB_OK)
		return fail(b, GAMEDB_FAILED, gamedb_game_errmsg(g));
	res = gamedb_game_get_tag(g, "Result");
	white_score = !res ? 1 : !strcmp(res, "1-0") ? 2 : !strcmp(res, "0-1") ? 0 : 1;
	/* The whole game first: a game whose moves fail gives nothing. */
	b->nply = 0;
	st = GAMEDB_OK;
	while (b->nply < b->max_ply && gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
		int32_t from, to, promo, colour;
		if (gamedb_event_get_type(ev) != GAMEDB_EVENT_MOVE)
			continue;
		if (gamedb_event_get_piece(ev) == 0)
			break; /* a null move: PolyGlot's books have none; the line ends here */
		gamedb_event_get_move(ev, &from, &to, &promo);
		gamedb_event_get_move_number(ev, &colour);
		if (b->nply == b->capply) {
			size_t cap = b->capply ? b->capply * 2 : 256;
			void *p = realloc(b->ply, cap * sizeof *b->ply);
			if (!p) {
				st = fail(b, GAMEDB_FAILED, "out of memory");
				break;
			}
			b->ply = p;
			b->capply = cap;
		}
		b->ply[b->nply].key = key;
		b->ply[b->nply].move = pg_move(from, to, promo, gamedb_event_get_piece(ev));
		b->ply[b->nply].colour = (uint8_t)colour;
		b->nply++;
		if (gamedb_event_get_key(ev, &key) != GAMEDB_OK) {
			st = fail(b, GAMEDB_FAILED, "no key for a move");
			break;
		}
	}
	gamedb_move_iter_free(it);
	if (st != GAMEDB_OK)
		return st;
	for (i = 0; i < b->nply; i++) {
		int score = b->ply[i].colour ? 2 - white_score : white_score;
		if (count(b, b->ply[i].key, b->ply[i].move, b->ply[i].colour, score) != 0)
			return fail(b, GAMEDB_FATAL, "out of memory or temporary file space");
	}
	return GAMEDB_OK;
}

/* ---- writing ---------------------------------------------------------------------------- */

static int run_next(struct run *r)
{
	r->have = r->left > 0 && fread(&r->cur, sizeof r->cur, 1, r->f) == 1;
	if (r->have)
		r->left--;
	return r->have;
}

static int keep(const struct gamedb_book *b, const struct entry *e)
{
	if (e->n < b->min_game || e->sum == 0)
		return 0;
	if ((double)e->sum / (double)e->n / 2.0 < b->min_score)
		return 0;
	if ((b->only_white && e->colour) || (b->only_black && !e->colour))
		return 0;
	return 1;
}

static unsigned weight(const struct gamedb_book *b, const struct entry *e)
{
	return b->uniform ? 1 : e->sum;
}

/* The order within a position: weight, highest first, then first sighting. */
static int before(const struct gamedb_book *bk, const struct entry *a, const struct entry *b)
{
	unsigned wa = weight(bk, a), wb = weight(bk, b);

	return wa != wb ? wa > wb : a->seq < b->seq;
}

static void put_be(unsigned char *p, uint64_t v, int n)
{
	while (n-- > 0) {
		p[n] = (unsigned char)v;
		v >>= 8;
	}
}

/* Sorts one position's entries and sends them. 0, or -1 when the sink stops. */
static int emit_group(const struct gamedb_book *b, struct entry *g, size_t n, gamedb_write_fn sink,
		      void *user, unsigned char *out, size_t *used, size_t cap)
{
	size_t i;

	/* Few entries per position (the legal moves at most): an insertion sort, stable, no
	 * global state. */
	for (i = 1; i < n; i++) {
		struct entry t = g[i];
		size_t j = i;
		while (j > 0 && before(b, &t, &g[j - 1])) {
			g[j] = g[j - 1];
			j--;
		}
		g[j] = t;
	}
	for (i = 0; i < n; i++) {
		unsigned char *p;
		if (*used + 16 > cap) {
			if (sink(user, (const char *)out, *used) != 0)
				return -1;
			*used = 0;
		}
		p = out + *used;
		put_be(p, g[i].key, 8);
		put_be(p + 8, g[i].move, 2);
		put_be(p + 10, weight(b, &g[i]), 2);
		put_be(p + 12, 0, 4);
		*used += 16;
	}
	return 0;
}

GAMEDB_EXPORT int32_t gamedb_book_write(struct gamedb_book *b, gamedb_write_fn sink, void *user_data)
{
	unsigned char out[16384];
	struct entry group[GROUP_MAX];
	size_t used = 0, ng = 0, mem = 0, i;
	uint64_t gkey = 0, merged = 0, total, report_at = GAMEDB_PROGRESS_ENTRIES_STEP;
	int32_t st = GAMEDB_OK;

	if (!book_ok(b) || !sink)
		return GAMEDB_FAILED;
	if (b->cancelled)
		return fail(b, GAMEDB_FAILED, CANCELLED);
	if (b->written)
		return fail(b, GAMEDB_FAILED, "the book was written already");
	b->written = 1;
	/* The table, sorted like the runs; then a merge of all by (key, move). A book of no
	 * position has no table at all (b->e NULL), which qsort() must not be given. */
	if (b->n > 1)
		qsort(b->e, b->n, sizeof *b->e, cmp_key_move);
	/* The progress callback's entries: those in memory and in the runs, each merged once. */
	total = b->n;
	for (i = 0; i < b->nruns; i++)
		total += b->runs[i].left;
	for (i = 0; i < b->nruns; i++)
		if (fseek(b->runs[i].f, 0, SEEK_SET) == 0)
			run_next(&b->runs[i]);
	for (;;) {
		const struct entry *best = NULL;
		struct entry e;
		size_t r;
		if (merged >= report_at) {
			report_at = merged + GAMEDB_PROGRESS_ENTRIES_STEP;
			if (book_progress(b, GAMEDB_PROGRESS_ENTRIES, merged, total) != 0)
				return GAMEDB_FAILED;
		}
		if (mem < b->n)
			best = &b->e[mem];
		for (r = 0; r < b->nruns; r++)
			if (b->runs[r].have && (!best || cmp_key_move(&b->runs[r].cur, best) < 0))
				best = &b->runs[r].cur;
		if (!best)
			break;
		/* Every piece of this (key, move), added up; the first sighting orders it. */
		e = *best;
		e.n = 0;
		e.sum = 0;
		{
			uint32_t n = 0, sum = 0;
			if (mem < b->n && cmp_key_move(&b->e[mem], &e) == 0) {
				n += b->e[mem].n, sum += b->e[mem].sum;
				if (b->e[mem].seq < e.seq)
					e.seq = b->e[mem].seq;
				mem++;
				merged++;
			}
			for (r = 0; r < b->nruns; r++) {
				while (b->runs[r].have && cmp_key_move(&b->runs[r].cur, &e) == 0) {
					n += b->runs[r].cur.n, sum += b->runs[r].cur.sum;
					if (b->runs[r].cur.seq < e.seq)
						e.seq = b->runs[r].cur.seq;
					run_next(&b->runs[r]);
					merged++;
				}
			}
			/* Pieces from runs were never halved together: keep the sum in 16 bits the
			 * way PolyGlot does, by halving. */
			while (n >= COUNT_MAX || sum > UINT16_MAX) {
				n = (n + 1) / 2;
				sum = (sum + 1) / 2;
			}
			e.n = (uint16_t)n;
			e.sum = (uint16_t)sum;
		}
		if (ng && e.key != gkey) {
			if (emit_group(b, group, ng, sink, user_data, out, &used, sizeof out) != 0) {
				st = fail(b, GAMEDB_FAILED, "the sink stopped");
				break;
			}
			ng = 0;
		}
		gkey = e.key;
		if (keep(b, &e) && ng < GROUP_MAX)
			group[ng++] = e;
	}
	if (st == GAMEDB_OK && ng && emit_group(b, group, ng, sink, user_data, out, &used, sizeof out) != 0)
		st = fail(b, GAMEDB_FAILED, "the sink stopped");
	if (st == GAMEDB_OK && used && sink(user_data, (const char *)out, used) != 0)
		st = fail(b, GAMEDB_FAILED, "the sink stopped");
	for (i = 0; i < b->nruns; i++)
		if (b->runs[i].left || ferror(b->runs[i].f))
			st = fail(b, GAMEDB_FAILED, "a temporary file could not be read back");
	/* The last report: every entry merged, done equal to the total. */
	if (st == GAMEDB_OK && b->progress && book_progress(b, GAMEDB_PROGRESS_ENTRIES, total, total))
		st = GAMEDB_FAILED;
	return st;
}

GAMEDB_EXPORT const char *gamedb_book_errmsg(const struct gamedb_book *b)
{
	return book_ok(b) ? b->errmsg : "invalid book handle";
}

GAMEDB_EXPORT void gamedb_book_free(struct gamedb_book *b)
{
	size_t i;

	if (!book_ok(b))
		return;
	for (i = 0; i < b->nruns; i++)
		fclose(b->runs[i].f);
	free(b->runs);
	free(b->e);
	free(b->hash);
	free(b->ply);
	b->magic = 0;
	free(b);
}
