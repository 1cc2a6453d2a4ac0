/*
 * libgamedb - the opening tree (gamedb_tree_*): the moves played from a position, counted as
 * Scid's tree counts them (scidBaseT::getTreeStat() and TreeNode of Scid 4.7): each game once,
 * with its result, both Elos when both are known, and its year when known. Whoever finds the
 * hits (the scan in query.c, an index later) hands them to gamedb__tree_add_hit().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "query/index.h"
#include "query/query.h"

struct row {
	char san[24], uci[8];
	int colour;           /* the mover */
	uint64_t seq;         /* when the move was first seen */
	uint64_t games, res[4]; /* res[1] White won, res[2] draws, res[3] Black won */
	uint64_t elo_n, welo, belo, year_n, year_sum;
	int64_t last_year;
};

struct gamedb_tree {
	uint32_t magic;
	struct row *rows;
	size_t n, cap;
	uint64_t seq;
	int sorted;
	struct row total;
};

static int tree_ok(const struct gamedb_tree *t)
{
	return t && t->magic == GAMEDB__TREE_MAGIC;
}

GAMEDB_EXPORT int32_t gamedb_tree_new(struct gamedb_tree **out)
{
	struct gamedb_tree *t;

	if (!out)
		return GAMEDB_FATAL;
	t = calloc(1, sizeof *t);
	*out = t;
	if (!t)
		return GAMEDB_FATAL;
	t->magic = GAMEDB__TREE_MAGIC;
	t->sorted = 1;
	return GAMEDB_OK;
}

GAMEDB_EXPORT void gamedb_tree_free(struct gamedb_tree *t)
{
	if (!tree_ok(t))
		return;
	free(t->rows);
	t->magic = 0;
	free(t);
}

/* The row of the move uci (found or added); NULL when memory ran out. */
static struct row *row_for(struct gamedb_tree *t, const char *uci, const char *san, int colour)
{
	size_t i;
	struct row *r;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->rows[i].uci, uci) == 0)
			return &t->rows[i];
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct row *nr = realloc(t->rows, cap * sizeof *nr);
		if (!nr)
			return NULL;
		t->rows = nr;
		t->cap = cap;
	}
	r = &t->rows[t->n++];
	memset(r, 0, sizeof *r);
	snprintf(r->uci, sizeof r->uci, "%s", uci);
	snprintf(r->san, sizeof r->san, "%s", san);
	r->colour = colour;
	r->seq = t->seq++;
	t->sorted = 0;
	return r;
}

static void row_add(struct row *r, const struct row *o)
{
	int k;

	r->games += o->games;
	for (k = 1; k < 4; k++)
		r->res[k] += o->res[k];
	r->elo_n += o->elo_n;
	r->welo += o->welo;
	r->belo += o->belo;
	r->year_n += o->year_n;
	r->year_sum += o->year_sum;
	if (o->last_year > r->last_year)
		r->last_year = o->last_year;
}

int gamedb__tree_add_hit(struct gamedb_tree *t, const struct gamedb__hit *hit,
			 const struct gamedb__gamestat *st)
{
	struct row one, *r;

	r = row_for(t, hit->has_move ? hit->uci : "", hit->has_move ? hit->san : "[end]", hit->colour);
	if (!r)
		return -1;
	memset(&one, 0, sizeof one);
	one.games = 1;
	if (st->result >= 1 && st->result <= 3)
		one.res[st->result] = 1;
	if (st->white_elo > 0 && st->black_elo > 0) { /* Scid: both, or neither */
		one.elo_n = 1;
		one.welo = (uint64_t)st->white_elo;
		one.belo = (uint64_t)st->black_elo;
	}
	if (st->year > 0) {
		one.year_n = 1;
		one.year_sum = (uint64_t)st->year;
		one.last_year = st->year;
	}
	row_add(r, &one);
	row_add(&t->total, &one);
	t->total.colour = hit->colour;
	t->sorted = 0;
	return 0;
}

int gamedb__tree_add_ixhit(struct gamedb_tree *t, const struct gamedb_query *q,
			   const struct gamedb__ixhit *h)
{
	const int xq = (h->rec & GAMEDB__G_XIANGQI) != 0;
	struct gamedb__hit hit;
	struct gamedb__gamestat st;

	if (!tree_ok(t))
		return -1;
	memset(&hit, 0, sizeof hit);
	hit.colour = xq ? q->xq.x.stm : q->chess.c.stm;
	if (h->move) {
		const char *m = q->ix->moves[h->move - 1];
		hit.has_move = 1;
		snprintf(hit.uci, sizeof hit.uci, "%s", m);
		snprintf(hit.san, sizeof hit.san, "%s", m + 8);
	}
	st.result = GAMEDB__G_RESULT(h->rec);
	st.white_elo = GAMEDB__G_WELO(h->rec);
	st.black_elo = GAMEDB__G_BELO(h->rec);
	st.year = GAMEDB__G_YEAR(h->rec);
	return gamedb__tree_add_hit(t, &hit, &st);
}

GAMEDB_EXPORT int32_t gamedb_tree_add_game(struct gamedb_tree *t, struct gamedb_query *q,
					   struct gamedb_game *g)
{
	struct gamedb__hit hit;
	struct gamedb__gamestat st;
	int32_t rc;

	if (!tree_ok(t) || !q || q->magic != GAMEDB__QUERY_MAGIC)
		return GAMEDB_FATAL;
	if (!q->have_pos) {
		snprintf(q->errmsg, sizeof q->errmsg, "a tree needs a position (gamedb_query_set_position())");
		return GAMEDB_FAILED;
	}
	if (!g) {
		snprintf(q->errmsg, sizeof q->errmsg, "gamedb_tree_add_game: no game (NULL)");
		return GAMEDB_FAILED;
	}
	for (size_t i = 0; i < q->nwhere; i++)
		if (!gamedb__where_test(&q->where[i], g))
			return 0;
	if (q->ix) {
		const struct gamedb__ixhit *h = gamedb__query_hit_of(q, g->index);
		if (!h)
			return 0;
		if (!(h->rec & GAMEDB__G_FAILED)) { /* counted from the index: no decoding */
			if (gamedb__tree_add_ixhit(t, q, h) != 0) {
				snprintf(q->errmsg, sizeof q->errmsg, "out of memory");
				return GAMEDB_FATAL;
			}
			return 1;
		}
	}
	rc = gamedb__query_locate(q, g, &hit);
	if (rc != 1)
		return rc;
	gamedb__gamestat(g, &st);
	if (gamedb__tree_add_hit(t, &hit, &st) != 0) {
		snprintf(q->errmsg, sizeof q->errmsg, "out of memory");
		return GAMEDB_FATAL;
	}
	return 1;
}

static int by_seq(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Most games first; as many games: first seen first (stable, as Scid's short lists come out). */
static int by_games(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->games != y->games)
		return x->games > y->games ? -1 : 1;
	return by_seq(a, b);
}

GAMEDB_EXPORT int32_t gamedb_tree_merge(struct gamedb_tree *t, const struct gamedb_tree *other)
{
	struct row *copy;
	size_t i;

	if (!tree_ok(t) || !tree_ok(other))
		return GAMEDB_FATAL;
	if (other->n == 0)
		return GAMEDB_OK;
	copy = malloc(other->n * sizeof *copy);
	if (!copy)
		return GAMEDB_FATAL;
	memcpy(copy, other->rows, other->n * sizeof *copy);
	qsort(copy, other->n, sizeof *copy, by_seq);
	for (i = 0; i < other->n; i++) {
		struct row *r = row_for(t, copy[i].uci, copy[i].san, copy[i].colour);
		if (!r) {
			free(copy);
			return GAMEDB_FATAL;
		}
		row_add(r, &copy[i]);
	}
	row_add(&t->total, &other->total);
	t->total.colour = other->total.colour;
	t->sorted = 0;
	free(copy);
	return GAMEDB_OK;
}

GAMEDB_EXPORT size_t gamedb_tree_get_count(struct gamedb_tree *t)
{
	if (!tree_ok(t))
		return 0;
	if (!t->sorted) {
		qsort(t->rows, t->n, sizeof *t->rows, by_games);
		t->sorted = 1;
	}
	return t->n;
}

static const struct row *row_at(struct gamedb_tree *t, size_t i)
{
	size_t n = gamedb_tree_get_count(t);

	if (!tree_ok(t) || i > n)
		return NULL;
	return i == n ? &t->total : &t->rows[i];
}

GAMEDB_EXPORT const char *gamedb_tree_get_san(struct gamedb_tree *t, size_t i)
{
	const struct row *r = row_at(t, i);

	return r && r != &t->total ? r->san : NULL;
}

GAMEDB_EXPORT const char *gamedb_tree_get_uci(struct gamedb_tree *t, size_t i)
{
	const struct row *r = row_at(t, i);

	return r && r != &t->total ? r->uci : NULL;
}

/* FIDE table 8.1a: the rating difference of a score of 0 %, 1 %, ... 100 % (public data). */
static const short fide_dp[101] = {
	-800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309,
	-296, -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,
	-149, -141, -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29,
	-21, -14, -7, 0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133,
	141, 149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309,
	322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800
};

static int64_t score_of(const struct row *r)
{
	uint64_t n = r->res[1] + r->res[2] + r->res[3];

	return n ? (int64_t)((1000 * r->res[1] + 500 * r->res[2]) / n) : 500;
}

GAMEDB_EXPORT int64_t gamedb_tree_get_stat(struct gamedb_tree *t, size_t i, int32_t stat)
{
	const struct row *r = row_at(t, i);
	int64_t pct;

	if (!r)
		return 0;
	switch (stat) {
	case GAMEDB_TREE_GAMES: return (int64_t)r->games;
	case GAMEDB_TREE_WHITE_WINS: return (int64_t)r->res[1];
	case GAMEDB_TREE_DRAWS: return (int64_t)r->res[2];
	case GAMEDB_TREE_BLACK_WINS: return (int64_t)r->res[3];
	case GAMEDB_TREE_SCORE: return score_of(r);
	case GAMEDB_TREE_ELO_GAMES: return (int64_t)r->elo_n;
	case GAMEDB_TREE_WHITE_ELO: return r->elo_n ? (int64_t)(r->welo / r->elo_n) : 0;
	case GAMEDB_TREE_BLACK_ELO: return r->elo_n ? (int64_t)(r->belo / r->elo_n) : 0;
	case GAMEDB_TREE_PERFORMANCE:
		if (!r->elo_n)
			return 0;
		pct = (score_of(r) + 5) / 10;
		if (r->colour)
			pct = 100 - pct;
		return (int64_t)((r->colour ? r->welo : r->belo) / r->elo_n) + fide_dp[pct];
	case GAMEDB_TREE_YEAR_GAMES: return (int64_t)r->year_n;
	case GAMEDB_TREE_AVG_YEAR: return r->year_n ? (int64_t)(r->year_sum / r->year_n) : 0;
	case GAMEDB_TREE_LAST_YEAR: return r->last_year;
	case GAMEDB_TREE_MOVER: return r->colour;
	default: return 0;
	}
}

GAMEDB_EXPORT int32_t gamedb_query_tree(struct gamedb_query *q, struct gamedb_reader *r,
					struct gamedb_tree **out, uint64_t *failed)
{
	struct gamedb_tree *t;
	int32_t rc;

	if (!out)
		return GAMEDB_FATAL;
	*out = NULL;
	if (!q || q->magic != GAMEDB__QUERY_MAGIC)
		return GAMEDB_FATAL;
	if (!q->have_pos) {
		snprintf(q->errmsg, sizeof q->errmsg, "a tree needs a position (gamedb_query_set_position())");
		return GAMEDB_FAILED;
	}
	if (gamedb_tree_new(&t) != GAMEDB_OK)
		return GAMEDB_FATAL;
	for (;;) {
		struct gamedb_game *g = NULL;
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END)
			break;
		if (rc == GAMEDB_FATAL) {
			snprintf(q->errmsg, sizeof q->errmsg, "%s", gamedb_reader_errmsg(r));
			gamedb_tree_free(t);
			return GAMEDB_FATAL;
		}
		if (rc != GAMEDB_FAILED)
			rc = gamedb_tree_add_game(t, q, g);
		if (rc == GAMEDB_FATAL) {
			gamedb_tree_free(t);
			return GAMEDB_FATAL;
		}
		if (rc == GAMEDB_FAILED && failed)
			++*failed;
	}
	*out = t;
	return GAMEDB_OK;
}
