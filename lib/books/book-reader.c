/*
 * libgamedb - opening books read: the public gamedb_book_reader_* (include/gamedb/gamedb.h).
 *
 * The formats (books.h) find the moves a book stores for a position; here each is checked legal
 * (an illegal one is left out and reported as a warning of its position), written as UCI and
 * SAN by the board engine, and the book is walked: a breadth-first search from the standard
 * start over book moves, a position (by its Polyglot key) given once, at its least ply, with
 * the FEN of the first shortest path. The Polyglot conversion is an unlimited walk whose moves
 * are written as entries (key, move, weight), sorted as Polyglot asks.
 *
 * Bounds: the walk holds one queued position per position of the book that it has seen, and a
 * key set of them; both grow with the book, not with the paths to a position.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#include "books/books.h"
#include "util/buf.h"
#include "util/polyglot.h"

#define BR_MAGIC 0x424b5244u /* "BKRD" */
/* Moves one position may have: the legal moves are at most 218. */
#define MOVES_MAX 256

struct cur_move {
	struct gamedb__move m;
	char uci[8];
	char san[16];
	int64_t st[GAMEDB__BOOK_NSTAT];
};

struct qitem {
	struct gamedb__pos pos;
	int32_t ply;
};

struct gamedb_book_reader {
	uint32_t magic;
	const struct gamedb__book_format *fmt;
	void *state;
	struct gamedb__src src;
	int open_failed;
	/* the current position */
	int have;
	struct gamedb__pos pos;
	char fen[128];
	int32_t ply;
	struct cur_move mv[MOVES_MAX];
	int32_t nmv;
	int found;                         /* the book has the position (moves or not) */
	int64_t pst[GAMEDB__BOOK_NSTAT];   /* its own statistics (fmt->pstats) */
	/* the walk */
	int walking;
	int32_t max_ply;
	struct qitem *q;
	size_t qhead, qn, qcap;
	uint64_t *seen;        /* open addressing, 0 = empty (a key 0 is kept aside) */
	size_t nseen, capseen;
	int seen_zero;
	char errmsg[512];
};

static int ok(const struct gamedb_book_reader *br)
{
	return br && br->magic == BR_MAGIC;
}

GAMEDB_EXPORT int32_t gamedb_book_reader_new(struct gamedb_book_reader **out)
{
	struct gamedb_book_reader *br;

	if (!out)
		return GAMEDB_FATAL;
	*out = NULL;
	br = calloc(1, sizeof *br);
	if (!br)
		return GAMEDB_FATAL;
	br->magic = BR_MAGIC;
	br->ply = -1;
	*out = br;
	return GAMEDB_OK;
}

static int32_t say(struct gamedb_book_reader *br, int32_t st, const char *msg)
{
	snprintf(br->errmsg, sizeof br->errmsg, "%s", msg);
	return st;
}

GAMEDB_EXPORT int32_t gamedb_book_reader_open_filename(struct gamedb_book_reader *br,
							const char *path)
{
	const char *dot;
	char msg[512] = "";
	int rc;

	if (!ok(br))
		return GAMEDB_FATAL;
	if (br->fmt || br->open_failed)
		return say(br, GAMEDB_FATAL, "gamedb_book_reader_open_filename: a book was opened "
			   "already");
	if (!path)
		return say(br, GAMEDB_FATAL, "gamedb_book_reader_open_filename: no path");
	dot = strrchr(path, '.');
	br->open_failed = 1;
	if (dot && (!strcmp(dot, ".abk") || !strcmp(dot, ".ABK")))
		br->fmt = &gamedb__book_abk;
	else if (dot && (!strcmp(dot, ".ctg") || !strcmp(dot, ".CTG")))
		br->fmt = &gamedb__book_ctg;
	else {
		snprintf(br->errmsg, sizeof br->errmsg, "%s: not an opening book this library "
			 "reads (.abk, .ctg)", path);
		br->fmt = NULL;
		return GAMEDB_FATAL;
	}
	br->src.kind = GAMEDB__SRC_PATH;
	br->src.primary = gamedb__strdup(path);
	if (!br->src.primary) {
		br->fmt = NULL;
		return say(br, GAMEDB_FATAL, "out of memory");
	}
	rc = br->fmt->open(&br->state, &br->src, msg, sizeof msg);
	say(br, GAMEDB_OK, msg);
	if (rc < 0) {
		br->fmt = NULL;
		gamedb__src_close(&br->src);
		return GAMEDB_FATAL;
	}
	br->open_failed = 0;
	return rc ? GAMEDB_WARN : GAMEDB_OK;
}

GAMEDB_EXPORT const char *gamedb_book_reader_get_format(const struct gamedb_book_reader *br)
{
	return ok(br) && br->fmt ? br->fmt->name : NULL;
}

/*
 * Makes pos the current position: the book's moves for it, each checked legal. Returns
 * GAMEDB_OK, GAMEDB_WARN (moves left out, errmsg says which), GAMEDB_END (no moves), or
 * GAMEDB_FAILED (its record unreadable, errmsg says why).
 */
static int32_t load(struct gamedb_book_reader *br, const struct gamedb__pos *pos, int32_t ply)
{
	const struct gamedb__book_move *bm;
	char msg[256] = "", first[256] = "";
	int warn = 0, n, i;
	unsigned dropped = 0;

	br->have = 1;
	br->pos = *pos;
	br->ply = ply;
	br->nmv = 0;
	br->found = 0;
	memset(br->pst, 0, sizeof br->pst);
	br->errmsg[0] = 0;
	gamedb__pos_to_fen(pos, br->fen, sizeof br->fen);
	n = br->fmt->probe(br->state, pos, gamedb__pos_key(pos), &bm, br->pst, &br->found, &warn,
			   msg, sizeof msg);
	if (n < 0) {
		snprintf(br->errmsg, sizeof br->errmsg, "%s: %s", br->fen, msg);
		return GAMEDB_FAILED;
	}
	for (i = 0; i < n; i++) {
		struct cur_move *c = &br->mv[br->nmv];
		int32_t k, dup = 0;
		memset(&c->m, 0, sizeof c->m);
		c->m.from = bm[i].from;
		c->m.to = bm[i].to;
		c->m.promo = bm[i].promo;
		if (bm[i].from > 63 || bm[i].to > 63 || gamedb__move_complete(pos, &c->m) != 0) {
			if (!dropped++)
				snprintf(first, sizeof first, "book move %d is not legal", i + 1);
			continue;
		}
		for (k = 0; k < br->nmv; k++)
			dup |= br->mv[k].m.from == c->m.from && br->mv[k].m.to == c->m.to &&
			       br->mv[k].m.promo == c->m.promo;
		if (dup || br->nmv == MOVES_MAX) {
			if (!dropped++)
				snprintf(first, sizeof first, "book move %d is given twice", i + 1);
			continue;
		}
		gamedb__move_uci(&c->m, c->uci);
		gamedb__move_san(pos, &c->m, c->san);
		memcpy(c->st, bm[i].st, sizeof c->st);
		br->nmv++;
	}
	if (warn || dropped) {
		if (warn && dropped)
			snprintf(br->errmsg, sizeof br->errmsg, "%s: %s; and %u book move%s left out "
				 "(%s)", br->fen, msg, dropped, dropped == 1 ? "" : "s", first);
		else if (warn)
			snprintf(br->errmsg, sizeof br->errmsg, "%s: %s", br->fen, msg);
		else
			snprintf(br->errmsg, sizeof br->errmsg, "%s: %u book move%s left out (%s)",
				 br->fen, dropped, dropped == 1 ? "" : "s", first);
		return GAMEDB_WARN;
	}
	return br->nmv ? GAMEDB_OK : GAMEDB_END;
}

static void walk_end(struct gamedb_book_reader *br)
{
	free(br->q);
	free(br->seen);
	br->q = NULL;
	br->seen = NULL;
	br->qhead = br->qn = br->qcap = 0;
	br->nseen = br->capseen = 0;
	br->seen_zero = 0;
	br->walking = 0;
}

GAMEDB_EXPORT int32_t gamedb_book_reader_probe(struct gamedb_book_reader *br, const char *fen)
{
	struct gamedb__pos pos;
	const char *why = NULL;
	int32_t st;

	if (!ok(br))
		return GAMEDB_FAILED;
	if (!br->fmt)
		return say(br, GAMEDB_FAILED, "gamedb_book_reader_probe: no book is open");
	walk_end(br);
	if (!fen || gamedb__pos_from_fen(&pos, fen, &why) != 0 || pos.zh) {
		br->have = 0;
		snprintf(br->errmsg, sizeof br->errmsg, "not a FEN of chess: %s",
			 why ? why : fen ? "crazyhouse" : "NULL");
		return GAMEDB_FAILED;
	}
	st = load(br, &pos, -1);
	return st == GAMEDB_WARN && br->nmv == 0 ? GAMEDB_WARN : st;
}

/* Adds key to the walk's set: 1 if it is new, 0 if seen, -1 when out of memory. */
static int see(struct gamedb_book_reader *br, uint64_t key)
{
	size_t i, mask;

	if (key == 0) {
		if (br->seen_zero)
			return 0;
		return br->seen_zero = 1;
	}
	if (2 * (br->nseen + 1) > br->capseen) {
		size_t cap = br->capseen ? br->capseen * 2 : 4096, k;
		uint64_t *h = calloc(cap, sizeof *h);
		if (!h)
			return -1;
		for (k = 0; k < br->capseen; k++) {
			if (!br->seen[k])
				continue;
			for (i = (size_t)(br->seen[k] * UINT64_C(0x9E3779B97F4A7C15) >> 20) & (cap - 1);
			     h[i]; i = (i + 1) & (cap - 1))
				;
			h[i] = br->seen[k];
		}
		free(br->seen);
		br->seen = h;
		br->capseen = cap;
	}
	mask = br->capseen - 1;
	for (i = (size_t)(key * UINT64_C(0x9E3779B97F4A7C15) >> 20) & mask; br->seen[i];
	     i = (i + 1) & mask)
		if (br->seen[i] == key)
			return 0;
	br->seen[i] = key;
	br->nseen++;
	return 1;
}

static int push(struct gamedb_book_reader *br, const struct gamedb__pos *pos, int32_t ply)
{
	if (br->qhead > 0 && br->qhead == br->qn) {
		br->qhead = br->qn = 0;
	}
	if (br->qn == br->qcap) {
		size_t cap;
		void *p;
		/* Drop what was taken before growing. */
		if (br->qhead > br->qcap / 2) {
			memmove(br->q, br->q + br->qhead, (br->qn - br->qhead) * sizeof *br->q);
			br->qn -= br->qhead;
			br->qhead = 0;
		}
		if (br->qn == br->qcap) {
			cap = br->qcap ? br->qcap * 2 : 256;
			p = realloc(br->q, cap * sizeof *br->q);
			if (!p)
				return -1;
			br->q = p;
			br->qcap = cap;
		}
	}
	br->q[br->qn].pos = *pos;
	br->q[br->qn].ply = ply;
	br->qn++;
	return 0;
}

GAMEDB_EXPORT int32_t gamedb_book_reader_walk(struct gamedb_book_reader *br, int32_t max_ply)
{
	struct gamedb__pos start;

	if (!ok(br))
		return GAMEDB_FAILED;
	if (!br->fmt)
		return say(br, GAMEDB_FAILED, "gamedb_book_reader_walk: no book is open");
	walk_end(br);
	br->have = 0;
	br->walking = 1;
	br->max_ply = max_ply < 0 ? INT32_MAX : max_ply;
	gamedb__pos_startpos(&start);
	if (see(br, gamedb__pos_key(&start)) < 0 || push(br, &start, 0) != 0) {
		walk_end(br);
		return say(br, GAMEDB_FAILED, "out of memory");
	}
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_book_reader_next_position(struct gamedb_book_reader *br)
{
	if (!ok(br))
		return GAMEDB_FATAL;
	if (!br->walking) {
		br->have = 0;
		return GAMEDB_END;
	}
	while (br->qhead < br->qn) {
		struct qitem it = br->q[br->qhead++];
		int32_t st = load(br, &it.pos, it.ply), i;
		if (st == GAMEDB_END)
			continue; /* a position after the book's last move: not in the book */
		for (i = 0; it.ply < br->max_ply && i < br->nmv; i++) {
			struct gamedb__pos child = it.pos;
			int r;
			gamedb__pos_make(&child, &br->mv[i].m);
			r = see(br, gamedb__pos_key(&child));
			if (r < 0 || (r > 0 && push(br, &child, it.ply + 1) != 0)) {
				walk_end(br);
				br->have = 0;
				return say(br, GAMEDB_FATAL, "out of memory");
			}
		}
		return st;
	}
	walk_end(br);
	br->have = 0;
	return GAMEDB_END;
}

GAMEDB_EXPORT const char *gamedb_book_reader_get_fen(const struct gamedb_book_reader *br)
{
	return ok(br) && br->have ? br->fen : NULL;
}

GAMEDB_EXPORT int32_t gamedb_book_reader_get_ply(const struct gamedb_book_reader *br)
{
	return ok(br) && br->have ? br->ply : -1;
}

GAMEDB_EXPORT int32_t gamedb_book_reader_move_count(const struct gamedb_book_reader *br)
{
	return ok(br) && br->have ? br->nmv : 0;
}

GAMEDB_EXPORT const char *gamedb_book_reader_move_get_uci(const struct gamedb_book_reader *br,
							   int32_t i)
{
	return ok(br) && br->have && i >= 0 && i < br->nmv ? br->mv[i].uci : NULL;
}

GAMEDB_EXPORT const char *gamedb_book_reader_move_get_san(const struct gamedb_book_reader *br,
							   int32_t i)
{
	return ok(br) && br->have && i >= 0 && i < br->nmv ? br->mv[i].san : NULL;
}

GAMEDB_EXPORT const char *gamedb_book_reader_stat_name(const struct gamedb_book_reader *br,
							int32_t k)
{
	int32_t i;

	if (!ok(br) || !br->fmt || k < 0)
		return NULL;
	for (i = 0; i < k; i++)
		if (!br->fmt->stats[i])
			return NULL;
	return br->fmt->stats[k];
}

GAMEDB_EXPORT int32_t gamedb_book_reader_move_get_stat(const struct gamedb_book_reader *br,
							int32_t i, const char *name, int64_t *out)
{
	int k;

	if (!ok(br) || !br->have || i < 0 || i >= br->nmv || !name || !out)
		return GAMEDB_FAILED;
	for (k = 0; k < GAMEDB__BOOK_NSTAT && br->fmt->stats[k]; k++)
		if (!strcmp(br->fmt->stats[k], name)) {
			*out = br->mv[i].st[k];
			return GAMEDB_OK;
		}
	return GAMEDB_FAILED;
}

GAMEDB_EXPORT const char *
gamedb_book_reader_position_stat_name(const struct gamedb_book_reader *br, int32_t k)
{
	int32_t i;

	if (!ok(br) || !br->fmt || k < 0)
		return NULL;
	for (i = 0; i < k; i++)
		if (!br->fmt->pstats[i])
			return NULL;
	return br->fmt->pstats[k];
}

GAMEDB_EXPORT int32_t gamedb_book_reader_get_stat(const struct gamedb_book_reader *br,
						   const char *name, int64_t *out)
{
	int k;

	if (!ok(br) || !br->have || !br->found || !name || !out)
		return GAMEDB_FAILED;
	for (k = 0; k < GAMEDB__BOOK_NSTAT && br->fmt->pstats[k]; k++)
		if (!strcmp(br->fmt->pstats[k], name)) {
			*out = br->pst[k];
			return GAMEDB_OK;
		}
	return GAMEDB_FAILED;
}

/* ---- conversion to Polyglot ---------------------------------------------------------------- */

struct pg_entry {
	uint64_t key;
	uint32_t seq;
	uint16_t move, weight;
};

/* The Polyglot move: from, to, promotion 1 knight .. 4 queen, castling as king takes rook. */
static uint16_t pg_move(const struct gamedb__move *m)
{
	int to = m->to, from = m->from;

	if (m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q))
		to = m->rook_from;
	return gamedb__pg_move(from, to, m->promo);
}

static int cmp_pg(const void *pa, const void *pb)
{
	const struct pg_entry *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

GAMEDB_EXPORT int32_t gamedb_book_reader_write_polyglot(struct gamedb_book_reader *br,
							 gamedb_write_fn sink, void *user_data)
{
	struct pg_entry *e = NULL;
	size_t n = 0, cap = 0, i;
	unsigned long warned = 0;
	char firstwarn[512] = "";
	unsigned char out[16384];
	size_t used = 0;
	int32_t st;

	if (!ok(br) || !sink)
		return GAMEDB_FAILED;
	if (gamedb_book_reader_walk(br, -1) != GAMEDB_OK)
		return GAMEDB_FAILED;
	while ((st = gamedb_book_reader_next_position(br)) != GAMEDB_END) {
		uint64_t key;
		int32_t k;
		if (st == GAMEDB_FATAL) {
			free(e);
			return GAMEDB_FAILED;
		}
		if (st == GAMEDB_WARN || st == GAMEDB_FAILED) {
			if (!warned++)
				snprintf(firstwarn, sizeof firstwarn, "%s", br->errmsg);
		}
		key = gamedb__pos_key(&br->pos);
		for (k = 0; k < br->nmv; k++) {
			if (n == cap) {
				size_t c = cap ? cap * 2 : 4096;
				void *p = realloc(e, c * sizeof *e);
				if (!p) {
					free(e);
					walk_end(br);
					return say(br, GAMEDB_FAILED, "out of memory");
				}
				e = p;
				cap = c;
			}
			e[n].key = key;
			e[n].seq = (uint32_t)n;
			e[n].move = pg_move(&br->mv[k].m);
			e[n].weight = (uint16_t)gamedb__book_weight(br->mv[k].st[0]);
			n++;
		}
	}
	br->have = 0;
	if (n > 1)
		qsort(e, n, sizeof *e, cmp_pg);
	for (i = 0; i < n; i++) {
		unsigned char *p;
		int b;
		if (used + 16 > sizeof out) {
			if (sink(user_data, (const char *)out, used) != 0)
				break;
			used = 0;
		}
		p = out + used;
		for (b = 0; b < 8; b++)
			p[b] = (unsigned char)(e[i].key >> (56 - 8 * b));
		p[8] = (unsigned char)(e[i].move >> 8);
		p[9] = (unsigned char)e[i].move;
		p[10] = (unsigned char)(e[i].weight >> 8);
		p[11] = (unsigned char)e[i].weight;
		memset(p + 12, 0, 4);
		used += 16;
	}
	free(e);
	if (i < n || (used && sink(user_data, (const char *)out, used) != 0))
		return say(br, GAMEDB_FAILED, "the sink stopped");
	if (warned) {
		snprintf(br->errmsg, sizeof br->errmsg, "%lu position%s with moves left out (the "
			 "first: %s)", warned, warned == 1 ? "" : "s", firstwarn);
		return GAMEDB_WARN;
	}
	br->errmsg[0] = 0;
	return GAMEDB_OK;
}

GAMEDB_EXPORT const char *gamedb_book_reader_errmsg(const struct gamedb_book_reader *br)
{
	return ok(br) ? br->errmsg : "invalid book reader handle";
}

GAMEDB_EXPORT void gamedb_book_reader_free(struct gamedb_book_reader *br)
{
	if (!ok(br))
		return;
	walk_end(br);
	if (br->fmt)
		br->fmt->close(br->state);
	gamedb__src_close(&br->src);
	br->magic = 0;
	free(br);
}
