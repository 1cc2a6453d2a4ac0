/*
 * libgamedb - the format toolkit (lib/formats/toolkit.h): the parts that are not inline.
 */
#include <stdio.h>

#include "formats/toolkit.h"

/* ---- the byte cursor ----------------------------------------------------------------------- */

char *gamedb__cur_message(const struct gamedb__cur *c, char *buf, size_t cap, const char *fmt, ...)
{
	const size_t at = c->short_need ? c->short_at : c->pos;
	const size_t need = c->short_need ? c->short_need : 1;
	const size_t left = c->len - at;
	va_list ap;
	int n;

	if (cap == 0)
		return buf;
	n = snprintf(buf, cap, "%s: offset %llu: ", c->name ? c->name : "?",
		     (unsigned long long)(c->base + at));
	if (n >= 0 && (size_t)n < cap) {
		va_start(ap, fmt);
		n += vsnprintf(buf + n, cap - (size_t)n, fmt, ap);
		va_end(ap);
	}
	if (n >= 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, ": need %zu byte%s, %zu left", need,
			 need == 1 ? "" : "s", left);
	return buf;
}

/* ---- the stack of lines -------------------------------------------------------------------- */

void *gamedb__stack_grow_push(struct gamedb__stack *st)
{
	if (st->n >= st->max || gamedb__grow(&st->v, &st->cap, st->n + 1, st->size) != 0)
		return NULL;
	return (char *)st->v + st->n++ * st->size;
}

void *gamedb__var_begin(struct gamedb__stack *st, struct gamedb__movebuf *mb)
{
	void *rec = gamedb__stack_push(st);

	if (!rec)
		return NULL;
	if (gamedb__mb_event(mb, GAMEDB_EVENT_VARIATION_BEGIN, 0) != 0) {
		st->n--;
		return NULL;
	}
	return rec;
}

void *gamedb__var_end(struct gamedb__stack *st, struct gamedb__movebuf *mb)
{
	if (st->n < 2 || gamedb__mb_event(mb, GAMEDB_EVENT_VARIATION_END, 0) != 0)
		return NULL;
	st->n--;
	return gamedb__stack_top(st);
}

int gamedb__var_close_open(struct gamedb__movebuf *mb)
{
	size_t i, depth = 0;

	for (i = 0; i < mb->n; i++) {
		if (mb->nodes[i].type == GAMEDB_EVENT_VARIATION_BEGIN)
			depth++;
		else if (mb->nodes[i].type == GAMEDB_EVENT_VARIATION_END && depth > 0)
			depth--;
	}
	for (; depth > 0; depth--)
		if (gamedb__mb_event(mb, GAMEDB_EVENT_VARIATION_END, 0) != 0)
			return -1;
	return 0;
}

/*
 * PGN's Date from a free-text date in an ASCII-compatible charset, as XQF and CCBridge store
 * them ("1997年11月16日", "1999.1.12", "2010-05-27 15:", "20140422"): the first three runs of
 * digits as year, month, day when the year has four digits; "??" for what is missing or out of
 * range. Two-digit years ("94-5-19") are left
 * unknown: the order of the parts is not certain.
 */
void gamedb__date_from_text(const uint8_t *p, size_t n, char out[11])
{
	unsigned v[3] = { 0, 0, 0 }, len[3] = { 0, 0, 0 };
	uint32_t month = 0, day = 0;
	size_t i = 0;
	int k = 0;

	while (i < n && k < 3) {
		if (p[i] < '0' || p[i] > '9') {
			i++;
			continue;
		}
		while (i < n && p[i] >= '0' && p[i] <= '9') {
			if (len[k] < 9)
				v[k] = v[k] * 10 + (unsigned)(p[i] - '0');
			len[k]++;
			i++;
		}
		k++;
	}
	if (len[0] == 8) { /* YYYYMMDD */
		v[2] = v[0] % 100;
		v[1] = v[0] / 100 % 100;
		v[0] /= 10000;
		len[0] = 4;
		len[1] = len[2] = 2;
	}
	if (len[0] != 4 || v[0] < 1000) {
		gamedb__pgn_date(out, 0, 0, 0);
		return;
	}
	if (len[1] && len[1] <= 2 && v[1] >= 1 && v[1] <= 12) {
		month = v[1];
		if (len[2] && len[2] <= 2 && v[2] >= 1 && v[2] <= 31)
			day = v[2];
	}
	gamedb__pgn_date(out, v[0], month, day);
}

/*
 * A comment typed in a Windows memo box (XQStudio's, CCBridge's): CR LF line breaks, often a
 * trailing (or leading) blank line. The UTF-8 text from off on becomes LF-separated lines (the
 * text layer's line breaks) without blanks at either end.
 */
void gamedb__tidy_comment(struct gamedb__buf *b, size_t off)
{
	size_t start = off, end;

	gamedb__text_newlines(b, off);
	while (start < b->len && (b->p[start] == ' ' || b->p[start] == '\t' || b->p[start] == '\n'))
		start++;
	end = b->len;
	while (end > start && (b->p[end - 1] == ' ' || b->p[end - 1] == '\t' || b->p[end - 1] == '\n'))
		end--;
	memmove(b->p + off, b->p + start, end - start);
	b->len = off + (end - start);
	b->p[b->len] = 0;
}

int gamedb__xq_add_move(struct gamedb__movebuf *mb, const struct gamedb__xqpos *before,
			const struct gamedb__move *m)
{
	char wxf[GAMEDB__SAN_MAX] = { 0 };
	const size_t n = gamedb__xq_move_wxf(before, m, wxf);

	return gamedb__mb_move_san(mb, m, before->fullmove, before->stm, wxf, n);
}

int gamedb__xq_link(struct gamedb__xq_node *nodes, const struct gamedb__xq_pending *pd,
		    uint32_t id, int has_child, int has_sib, struct gamedb__stack *pend)
{
	nodes[id].main = nodes[pd->parent].main && pd->prev == GAMEDB__XQ_NONE;
	if (pd->prev == GAMEDB__XQ_NONE)
		nodes[pd->parent].child = id;
	else
		nodes[pd->prev].sib = id;
	if (has_sib && gamedb__xq_promise(pend, pd->parent, id) != 0)
		return -1;
	if (has_child && gamedb__xq_promise(pend, id, GAMEDB__XQ_NONE) != 0)
		return -1;
	return 0;
}

int gamedb__xq_walk_tree(const struct gamedb__xq_walk *w, const struct gamedb__xqpos *start,
			 struct gamedb__movebuf *mb)
{
	const struct gamedb__xq_node *const nodes = w->nodes;
	struct gamedb__xq_frame *fr;
	struct gamedb__move m;
	struct gamedb__xqpos after;
	char why[96];

	gamedb__stack_clear(w->frames);
	fr = gamedb__stack_push(w->frames);
	if (!fr)
		return -1;
	fr->pos = fr->before = *start;
	fr->node = 0;
	fr->alt = GAMEDB__XQ_NONE;
	while ((fr = gamedb__stack_top(w->frames)) != NULL) {
		uint32_t c;

		if (fr->alt != GAMEDB__XQ_NONE) {
			/* The next alternative to the line's last move: a variation. */
			const uint32_t a = fr->alt;
			struct gamedb__xq_frame *nf;
			fr->alt = nodes[a].sib;
			if (gamedb__xq_move_try(&fr->before, w->square(nodes[a].from),
						w->square(nodes[a].to), &m, &after, why, sizeof why) != 0) {
				w->bad_move(w->ctx, GAMEDB_WARN, &fr->before, &nodes[a], why);
				continue;
			}
			if (gamedb__stack_full(w->frames)) {
				w->too_deep(w->ctx, &nodes[a]);
				continue;
			}
			nf = gamedb__var_begin(w->frames, mb);
			if (!nf)
				return -1;
			nf->before = nf[-1].before; /* the line it leaves */
			nf->pos = after;
			nf->node = a;
			nf->alt = GAMEDB__XQ_NONE; /* its own alternatives are the enclosing line's */
			if (gamedb__xq_add_move(mb, &nf->before, &m) != 0 || w->comment(w->ctx, &nodes[a]) != 0)
				return -1;
			continue;
		}
		/* The line goes on with the first child whose move is legal. */
		for (c = nodes[fr->node].child; c != GAMEDB__XQ_NONE; c = nodes[c].sib) {
			if (gamedb__xq_move_try(&fr->pos, w->square(nodes[c].from), w->square(nodes[c].to),
						&m, &after, why, sizeof why) == 0)
				break;
			if (gamedb__var_depth(w->frames) == 0) {
				/* On the main line: the game stops here (the legal part stays). */
				w->bad_move(w->ctx, GAMEDB_FAILED, &fr->pos, &nodes[c], why);
				return 0;
			}
			w->bad_move(w->ctx, GAMEDB_WARN, &fr->pos, &nodes[c], why);
		}
		if (c == GAMEDB__XQ_NONE) {
			/* The line ends: the game's, or a variation's (back to the line it left). */
			if (gamedb__var_depth(w->frames) == 0)
				return 0;
			if (!gamedb__var_end(w->frames, mb))
				return -1;
			continue;
		}
		fr->before = fr->pos;
		fr->pos = after;
		fr->node = c;
		fr->alt = nodes[c].sib;
		if (gamedb__xq_add_move(mb, &fr->before, &m) != 0 || w->comment(w->ctx, &nodes[c]) != 0)
			return -1;
	}
	return 0;
}
