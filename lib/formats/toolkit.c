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
