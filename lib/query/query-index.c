/*
 * libgamedb - a query with a position index (gamedb_query_set_index()): the games of the
 * reader's base that reach the position, read from the index instead of decoded. The index's
 * hits stand in for gamedb__query_locate(): gamedb_query_match() decodes only the games the
 * index names, gamedb_tree_add_game() none, and gamedb_query_next_hit() hands the hits out
 * without reading a game at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "query/index.h"
#include "query/query.h"

int gamedb__query_load_hits(struct gamedb_query *q)
{
	struct gamedb__ixhit *a = NULL, *b = NULL, *m;
	size_t na = 0, nb = 0, i = 0, k = 0, n = 0;

	free(q->hits);
	q->hits = NULL;
	q->nhits = q->next = 0;
	if (!q->have_pos)
		return 0;
	if (gamedb__ix_hits(q->ix, (size_t)q->ixbase, q->chess.valid ? q->chess.key : 0, 0, 1, &a, &na) != 0 ||
	    gamedb__ix_hits(q->ix, (size_t)q->ixbase, q->xq.valid ? q->xq.key : 0, 1, 0, &b, &nb) != 0) {
		snprintf(q->errmsg, sizeof q->errmsg, "%s", gamedb_index_errmsg(q->ix));
		free(a);
		return -1;
	}
	/* chess hits (and the failures) and xiangqi hits, in game order: a game is of one kind */
	m = malloc((na + nb + 1) * sizeof *m);
	if (!m) {
		free(a);
		free(b);
		snprintf(q->errmsg, sizeof q->errmsg, "out of memory");
		return -1;
	}
	while (i < na || k < nb) {
		if (k >= nb || (i < na && a[i].game <= b[k].game))
			m[n++] = a[i++];
		else
			m[n++] = b[k++];
	}
	free(a);
	free(b);
	q->hits = m;
	q->nhits = n;
	return 0;
}

const struct gamedb__ixhit *gamedb__query_hit_of(const struct gamedb_query *q, uint64_t idx)
{
	size_t lo = 0, hi = q->nhits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (q->hits[mid].game < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* a place where the base failed to deliver a game may share the number of the next game */
	while (lo < q->nhits && q->hits[lo].game == idx && q->hits[lo].kind == GAMEDB__IXF_UNREAD)
		lo++;
	return lo < q->nhits && q->hits[lo].game == idx ? &q->hits[lo] : NULL;
}

GAMEDB_EXPORT int32_t gamedb_query_set_index(struct gamedb_query *q, struct gamedb_index *ix,
					     struct gamedb_reader *r)
{
	long b;

	if (!q || q->magic != GAMEDB__QUERY_MAGIC)
		return GAMEDB_FATAL;
	free(q->hits);
	q->hits = NULL;
	q->nhits = q->next = 0;
	q->ix = NULL;
	if (!ix)
		return GAMEDB_OK;
	if (ix->magic != GAMEDB__INDEX_MAGIC || !r) {
		snprintf(q->errmsg, sizeof q->errmsg, "gamedb_query_set_index: no index or no reader");
		return GAMEDB_FATAL;
	}
	b = gamedb__ix_base_of(ix, r);
	if (b < 0) {
		snprintf(q->errmsg, sizeof q->errmsg, "%.390s", ix->errmsg);
		return GAMEDB_FAILED;
	}
	q->ix = ix;
	q->ixbase = b;
	if (gamedb__query_load_hits(q) != 0) {
		q->ix = NULL;
		return GAMEDB_FAILED;
	}
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_query_next_hit(struct gamedb_query *q, uint64_t *game, uint32_t *flags)
{
	const struct gamedb__ixhit *h;

	if (!q || q->magic != GAMEDB__QUERY_MAGIC || !game || !flags)
		return GAMEDB_FATAL;
	if (!q->ix) {
		snprintf(q->errmsg, sizeof q->errmsg, "gamedb_query_next_hit: the query has no index");
		return GAMEDB_FATAL;
	}
	if (q->next >= q->nhits)
		return GAMEDB_END;
	h = &q->hits[q->next++];
	*game = h->game;
	*flags = (h->rec & GAMEDB__G_DELETED ? GAMEDB_HIT_DELETED : 0) |
		 (h->kind == GAMEDB__IXF_DECODE ? GAMEDB_HIT_FAILED : 0) |
		 (h->kind == GAMEDB__IXF_UNREAD ? GAMEDB_HIT_UNREAD : 0);
	if (h->msg)
		snprintf(q->errmsg, sizeof q->errmsg, "%s", h->msg);
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_tree_add_hit(struct gamedb_tree *t, struct gamedb_query *q)
{
	const struct gamedb__ixhit *h;

	if (!t || !q || q->magic != GAMEDB__QUERY_MAGIC || !q->ix || q->next == 0)
		return GAMEDB_FATAL;
	h = &q->hits[q->next - 1];
	if (h->rec & GAMEDB__G_FAILED)
		return GAMEDB_FAILED;
	if (gamedb__tree_add_ixhit(t, q, h) != 0) {
		snprintf(q->errmsg, sizeof q->errmsg, "out of memory");
		return GAMEDB_FATAL;
	}
	return GAMEDB_OK;
}
