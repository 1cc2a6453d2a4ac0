/*
 * libgamedb - Arena's opening books (.abk).
 *
 * The file is an array of 28-byte little-endian records; records 0..899 are the header (its
 * settings at 0xde..0xfd, which only Arena's move choice uses), the tree's root is record 900.
 * A record: from, to (squares, a1 = 0), promotion (signed: 0 none, +-1 rook, +-2 knight, +-3
 * bishop, +-4 queen; the sign is the colour), priority (0 bad .. 9 best), games, white's wins,
 * white's losses, flags (0x01000000: deleted), the first move after it (the other side's), the
 * next move in its place (same side); a negative index ends a list.
 *
 * ABK is a tree of move sequences, not a table of positions, so a position reached by several
 * paths is stored once per path. open() walks the whole tree once from the standard start,
 * checking each move legal, and builds a table: Polyglot key -> the moves of every path that
 * reaches the position (the same move twice: games, wins and losses added up, the highest
 * priority kept). Probing is then a table look-up.
 *
 * Weight (the Polyglot conversion): 0 for a move of priority 0 (Arena's "bad": out of play),
 * else its games, at least 1, at most 65,535.
 *
 * Hostile files: every record is read at most once (a bitmap), so a loop or a record shared by
 * two parents ends that list (reported); an index that is not a record (below 900 or past the
 * end) ends it too (reported); an illegal move or promotion code is left out with the records
 * under it (reported). Deleted records are left out with the records under them, as Arena
 * does, and are not a loss. Memory is bounded by the file: a table entry per record at most.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "books/books.h"
#include "util/buf.h"
#include "util/bytes.h"

#define ABK_REC 28
#define ABK_ROOT 900
#define ABK_DELETED 0x01000000
#define NIL UINT32_MAX

/* The numbers a record stores, wins and losses turned to the side to move's (the file has
 * White's; a book may leave both 0, as libra8.abk does: then they say nothing). No draws: the
 * file does not store them, and games - wins - losses is not them when wins are not kept. */
enum { S_WEIGHT, S_PRIORITY, S_GAMES, S_WINS, S_LOSSES };
static const char *const abk_stats[] = { "weight", "priority", "games", "wins", "losses", NULL };
/* A position has no numbers of its own: the tree has moves only. */
static const char *const abk_pstats[] = { NULL };

struct amove {
	struct gamedb__book_move m;
	uint32_t next;  /* the position's next move, or NIL */
};

struct apos {
	uint64_t key;
	uint32_t first, last;  /* its moves, or NIL */
	uint32_t warn;         /* index + 1 into the messages of its first problem, or 0 */
	uint32_t nmoves;
};

struct abk {
	struct apos *pos;
	size_t npos, cappos;
	uint32_t *hash;        /* 2^hbits slots: position index, or NIL */
	unsigned hbits;
	struct amove *mv;
	size_t nmv, capmv;
	char **msgs;           /* problems of positions, each naming its record */
	size_t nmsgs;
	struct gamedb__book_move *out;  /* probe's answer */
	size_t capout;
	char firstmsg[256];
	unsigned long problems;
};

struct frame {
	uint32_t rec, from;
	struct gamedb__pos pos;
};

static size_t slot(const struct abk *a, uint64_t key)
{
	return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - a->hbits));
}

static uint32_t find_pos(const struct abk *a, uint64_t key)
{
	size_t mask = ((size_t)1 << a->hbits) - 1, i;

	if (!a->hash)
		return NIL;
	for (i = slot(a, key); a->hash[i] != NIL; i = (i + 1) & mask)
		if (a->pos[a->hash[i]].key == key)
			return a->hash[i];
	return NIL;
}

/* The position of key, made if new; NIL when out of memory. */
static uint32_t get_pos(struct abk *a, uint64_t key)
{
	uint32_t k = find_pos(a, key);
	size_t mask, i;

	if (k != NIL)
		return k;
	if (a->npos == a->cappos) {
		size_t cap = a->cappos ? a->cappos * 2 : 1024;
		void *p = realloc(a->pos, cap * sizeof *a->pos);
		if (!p)
			return NIL;
		a->pos = p;
		a->cappos = cap;
	}
	if (!a->hash || 2 * (a->npos + 1) > ((size_t)1 << a->hbits)) {
		unsigned bits = a->hash ? a->hbits + 1 : 12;
		uint32_t *h = malloc(((size_t)1 << bits) * sizeof *h);
		if (!h)
			return NIL;
		memset(h, 0xff, ((size_t)1 << bits) * sizeof *h);
		free(a->hash);
		a->hash = h;
		a->hbits = bits;
		for (k = 0; k < a->npos; k++) {
			for (i = slot(a, a->pos[k].key); h[i] != NIL; i = (i + 1) & (((size_t)1 << bits) - 1))
				;
			h[i] = k;
		}
	}
	mask = ((size_t)1 << a->hbits) - 1;
	for (i = slot(a, key); a->hash[i] != NIL; i = (i + 1) & mask)
		;
	k = (uint32_t)a->npos++;
	a->hash[i] = k;
	a->pos[k].key = key;
	a->pos[k].first = a->pos[k].last = NIL;
	a->pos[k].warn = 0;
	a->pos[k].nmoves = 0;
	return k;
}

/* Records a problem of position k (NIL: of no position); -1 when out of memory. */
static int problem(struct abk *a, uint32_t k, const char *text)
{
	if (!a->problems++)
		snprintf(a->firstmsg, sizeof a->firstmsg, "%s", text);
	if (k == NIL || a->pos[k].warn)
		return 0;
	if ((a->nmsgs & (a->nmsgs - 1)) == 0) {
		void *p = realloc(a->msgs, (a->nmsgs ? a->nmsgs * 2 : 1) * sizeof *a->msgs);
		if (!p)
			return -1;
		a->msgs = p;
	}
	if (!(a->msgs[a->nmsgs] = gamedb__strdup(text)))
		return -1;
	a->pos[k].warn = (uint32_t)++a->nmsgs;
	return 0;
}

/* Adds a move to position k (merging it with the same move of another path); -1 on ENOMEM. */
static int add_move(struct abk *a, uint32_t k, const struct gamedb__book_move *m)
{
	uint32_t j;

	for (j = a->pos[k].first; j != NIL; j = a->mv[j].next) {
		struct gamedb__book_move *o = &a->mv[j].m;
		if (o->from == m->from && o->to == m->to && o->promo == m->promo) {
			int s;
			for (s = S_GAMES; s <= S_LOSSES; s++)
				o->st[s] += m->st[s];
			if (m->st[S_PRIORITY] > o->st[S_PRIORITY])
				o->st[S_PRIORITY] = m->st[S_PRIORITY];
			o->st[S_WEIGHT] = o->st[S_PRIORITY] == 0 ? 0
				: gamedb__book_weight(o->st[S_GAMES] > 0 ? o->st[S_GAMES] : 1);
			return 0;
		}
	}
	if (a->nmv == a->capmv) {
		size_t cap = a->capmv ? a->capmv * 2 : 4096;
		void *p = realloc(a->mv, cap * sizeof *a->mv);
		if (!p)
			return -1;
		a->mv = p;
		a->capmv = cap;
	}
	j = (uint32_t)a->nmv++;
	a->mv[j].m = *m;
	a->mv[j].next = NIL;
	if (a->pos[k].last == NIL)
		a->pos[k].first = j;
	else
		a->mv[a->pos[k].last].next = j;
	a->pos[k].last = j;
	a->pos[k].nmoves++;
	return 0;
}

static void abk_close(void *state)
{
	struct abk *a = state;
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->nmsgs; i++)
		free(a->msgs[i]);
	free(a->msgs);
	free(a->pos);
	free(a->hash);
	free(a->mv);
	free(a->out);
	free(a);
}

static const char *sq_name(int sq, char *buf)
{
	buf[0] = (char)('a' + (sq & 7));
	buf[1] = (char)('1' + (sq >> 3));
	buf[2] = 0;
	return buf;
}

/*
 * Reads the list that starts at record rec (reached from record from) in position pos: each
 * record a move of that position, its follow-ups pushed on the stack. 0, or -1 (out of memory
 * or I/O: msg).
 */
static int read_list(struct abk *a, struct gamedb__file *f, uint64_t nrec, uint8_t *seen,
		     struct frame **stack, size_t *nstack, size_t *capstack, int64_t rec,
		     int64_t from, const struct gamedb__pos *pos, char *msg, size_t cap)
{
	char text[256], s1[3], s2[3];
	uint32_t k = get_pos(a, gamedb__pos_key(pos));

	if (k == NIL)
		return snprintf(msg, cap, "out of memory"), -1;
	while (rec >= 0) {
		const uint8_t *p;
		struct gamedb__book_move bm;
		struct gamedb__move m;
		struct gamedb__pos child = *pos;
		int32_t next, sib, won, lost;
		int promo;
		if (rec < ABK_ROOT || (uint64_t)rec >= nrec) {
			snprintf(text, sizeof text, "record %lld: record %lld, which it names, is not "
				 "a record of the tree", (long long)from, (long long)rec);
			if (problem(a, k, text) != 0)
				return snprintf(msg, cap, "out of memory"), -1;
			break;
		}
		if (seen[rec >> 3] & (1u << (rec & 7))) {
			snprintf(text, sizeof text, "record %lld: record %lld, which it names, was "
				 "reached before (a loop or a shared branch); not read again",
				 (long long)from, (long long)rec);
			if (problem(a, k, text) != 0)
				return snprintf(msg, cap, "out of memory"), -1;
			break;
		}
		seen[rec >> 3] |= (uint8_t)(1u << (rec & 7));
		if (gamedb__file_view(f, (uint64_t)rec * ABK_REC, ABK_REC, &p) != ABK_REC)
			return snprintf(msg, cap, "record %lld cannot be read", (long long)rec), -1;
		next = (int32_t)gamedb__le32(p + 20);
		sib = (int32_t)gamedb__le32(p + 24);
		from = rec;
		rec = sib;
		if ((int32_t)gamedb__le32(p + 16) == ABK_DELETED)
			continue;
		memset(&bm, 0, sizeof bm);
		promo = (int8_t)p[2];
		promo = promo < 0 ? -promo : promo;
		won = (int32_t)gamedb__le32(p + 8);
		lost = (int32_t)gamedb__le32(p + 12);
		bm.from = p[0];
		bm.to = p[1];
		bm.promo = promo == 1 ? GAMEDB__ROOK : promo == 2 ? GAMEDB__KNIGHT
			   : promo == 3 ? GAMEDB__BISHOP : promo == 4 ? GAMEDB__QUEEN : 0;
		bm.st[S_PRIORITY] = (int8_t)p[3];
		bm.st[S_GAMES] = (int32_t)gamedb__le32(p + 4);
		bm.st[S_WINS] = pos->stm ? lost : won;
		bm.st[S_LOSSES] = pos->stm ? won : lost;
		bm.st[S_WEIGHT] = bm.st[S_PRIORITY] <= 0 ? 0
			: gamedb__book_weight(bm.st[S_GAMES] > 0 ? bm.st[S_GAMES] : 1);
		memset(&m, 0, sizeof m);
		m.from = bm.from;
		m.to = bm.to;
		m.promo = bm.promo;
		if (bm.from > 63 || bm.to > 63 || promo > 4 || gamedb__move_play(&child, &m) != 0) {
			snprintf(text, sizeof text, "record %lld: the move %s%s (promotion code %d) is "
				 "not legal here; left out with the moves after it", (long long)from,
				 bm.from > 63 ? "??" : sq_name(bm.from, s1),
				 bm.to > 63 ? "??" : sq_name(bm.to, s2), (int8_t)p[2]);
			if (problem(a, k, text) != 0)
				return snprintf(msg, cap, "out of memory"), -1;
			continue;
		}
		if (add_move(a, k, &bm) != 0)
			return snprintf(msg, cap, "out of memory"), -1;
		if (next < 0)
			continue;
		if (*nstack == *capstack) {
			size_t c = *capstack ? *capstack * 2 : 256;
			void *q = realloc(*stack, c * sizeof **stack);
			if (!q)
				return snprintf(msg, cap, "out of memory"), -1;
			*stack = q;
			*capstack = c;
		}
		(*stack)[*nstack].rec = (uint32_t)next;
		(*stack)[*nstack].from = (uint32_t)from;
		(*stack)[*nstack].pos = child;
		(*nstack)++;
	}
	return 0;
}

static int abk_open(void **state, struct gamedb__src *src, char *msg, size_t cap)
{
	struct gamedb__file *f;
	struct frame *stack = NULL;
	size_t nstack = 0, capstack = 0;
	struct gamedb__pos start;
	uint64_t nrec;
	uint8_t *seen;
	struct abk *a;
	int rc = 0;

	*state = NULL;
	if (gamedb__src_open(src, NULL, 0, &f) != 0)
		return snprintf(msg, cap, "%s", src->err.message), -1;
	nrec = f->size / ABK_REC;
	if (nrec <= ABK_ROOT)
		return snprintf(msg, cap, "%s: %llu bytes: too short for an Arena book (its tree "
				"starts at byte %d)", f->name, (unsigned long long)f->size,
				ABK_ROOT * ABK_REC), -1;
	if (nrec > INT32_MAX)
		return snprintf(msg, cap, "%s: too large for an Arena book", f->name), -1;
	a = calloc(1, sizeof *a);
	seen = calloc((size_t)(nrec + 7) / 8, 1);
	if (!a || !seen) {
		free(a);
		free(seen);
		return snprintf(msg, cap, "out of memory"), -1;
	}
	gamedb__pos_startpos(&start);
	rc = read_list(a, f, nrec, seen, &stack, &nstack, &capstack, ABK_ROOT, -1, &start, msg, cap);
	while (rc == 0 && nstack > 0) {
		struct frame fr = stack[--nstack];
		rc = read_list(a, f, nrec, seen, &stack, &nstack, &capstack, fr.rec, fr.from, &fr.pos,
			       msg, cap);
	}
	free(stack);
	if (rc == 0) {
		uint64_t i, unread = 0;
		for (i = ABK_ROOT; i < nrec; i++)
			unread += !(seen[i >> 3] & (1u << (i & 7)));
		if (a->problems)
			snprintf(msg, cap, "%s: %lu record%s of the tree cannot be used (the first: %s)"
				 "; %llu of %llu records are not reached from the root", f->name,
				 a->problems, a->problems == 1 ? "" : "s", a->firstmsg,
				 (unsigned long long)unread, (unsigned long long)(nrec - ABK_ROOT));
		else if (unread)
			snprintf(msg, cap, "%s: %llu of %llu records are not reached from the root "
				 "(not part of the tree)", f->name, (unsigned long long)unread,
				 (unsigned long long)(nrec - ABK_ROOT));
		rc = a->problems ? 1 : 0;
	}
	free(seen);
	if (rc < 0) {
		abk_close(a);
		return -1;
	}
	*state = a;
	return rc;
}

static int abk_probe(void *state, const struct gamedb__pos *pos, uint64_t key,
		     const struct gamedb__book_move **out, int64_t *pst, int *found, int *warn,
		     char *msg, size_t cap)
{
	struct abk *a = state;
	uint32_t k = find_pos(a, key), j;
	size_t n = 0;

	(void)pos;
	(void)pst;
	*out = NULL;
	*warn = 0;
	*found = k != NIL;
	if (k == NIL)
		return 0;
	if (a->pos[k].nmoves > a->capout) {
		void *p = realloc(a->out, a->pos[k].nmoves * sizeof *a->out);
		if (!p)
			return snprintf(msg, cap, "out of memory"), -1;
		a->out = p;
		a->capout = a->pos[k].nmoves;
	}
	for (j = a->pos[k].first; j != NIL; j = a->mv[j].next)
		a->out[n++] = a->mv[j].m;
	if (a->pos[k].warn) {
		*warn = 1;
		snprintf(msg, cap, "%s", a->msgs[a->pos[k].warn - 1]);
	}
	*out = a->out;
	return (int)n;
}

const struct gamedb__book_format gamedb__book_abk = {
	"abk", abk_stats, abk_pstats, abk_open, abk_probe, abk_close,
};
