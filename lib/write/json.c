/*
 * libgamedb - the JSON Lines writer: one object per game per line. Public API only.
 *
 * The event stream is flat (a variation follows the move it replaces); JSON wants a tree
 * (a move holds its variations). The writer first collects the game's events, then writes
 * the tree by recursive descent over that list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamedb-private.h"

struct jev {
	int32_t type;
	int32_t nag;
	uint32_t a, b; /* MOVE: offsets of SAN and UCI in text; COMMENT: offset of the text */
};

struct jw {
	struct gamedb__buf out;
	struct gamedb__buf text;
	struct jev *ev;
	size_t n, cap;
	int err;
};

static void put(struct jw *w, const char *s, size_t len)
{
	if (gamedb__buf_append(&w->out, s, len) != 0)
		w->err = 1;
}

static void puts_(struct jw *w, const char *s)
{
	put(w, s, strlen(s));
}

/* A JSON string: runs of bytes that need no escape are copied in one go. */
static void jstr(struct jw *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[8];

	put(w, "\"", 1);
	for (;;) {
		const unsigned char *run = p;
		while (*p >= 0x20 && *p != '"' && *p != '\\')
			p++;
		if (p > run)
			put(w, (const char *)run, (size_t)(p - run));
		if (!*p)
			break;
		switch (*p) {
		case '"': put(w, "\\\"", 2); break;
		case '\\': put(w, "\\\\", 2); break;
		case '\n': put(w, "\\n", 2); break;
		case '\r': put(w, "\\r", 2); break;
		case '\t': put(w, "\\t", 2); break;
		default:
			snprintf(esc, sizeof esc, "\\u%04x", *p);
			put(w, esc, 6);
		}
		p++;
	}
	put(w, "\"", 1);
}

static uint32_t save_text(struct jw *w, const char *s)
{
	uint32_t off = (uint32_t)w->text.len;

	if (gamedb__buf_append(&w->text, s, strlen(s) + 1) != 0)
		w->err = 1;
	return off;
}

static void add(struct jw *w, int32_t type, int32_t nag, uint32_t a, uint32_t b)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 256;
		struct jev *p = realloc(w->ev, cap * sizeof *p);
		if (!p) {
			w->err = 1;
			return;
		}
		w->ev = p;
		w->cap = cap;
	}
	w->ev[w->n].type = type;
	w->ev[w->n].nag = nag;
	w->ev[w->n].a = a;
	w->ev[w->n].b = b;
	w->n++;
}

/* The state of one open line (the main line or a variation) while writing. */
struct jline {
	const char *before; /* a comment waiting for the next move */
	int open, first, nags_open, vars_open;
};

/* Closes what a line has open and the line's array. */
static void line_close(struct jw *w, const struct jline *l)
{
	if (l->nags_open)
		put(w, "]", 1);
	if (l->vars_open)
		put(w, "]", 1);
	if (l->open)
		put(w, "}", 1);
	put(w, "]", 1);
}

/*
 * Writes the events from i on as a JSON array of moves, each variation nested in the move it
 * replaces. *orphan receives a comment of the main line that no move follows.
 *
 * Variations are kept on an explicit stack, not by recursion: a hostile database can nest
 * them tens of thousands deep, which would overflow the C stack.
 */
static void line(struct jw *w, size_t i, const char **orphan)
{
	struct jline *stack = NULL, *l;
	size_t depth = 0, cap = 16;

	*orphan = NULL;
	stack = calloc(cap, sizeof *stack);
	if (!stack) {
		w->err = 1;
		return;
	}
	stack[0].first = 1;
	put(w, "[", 1);
	for (;;) {
		struct jev *e;
		l = &stack[depth];
		if (i >= w->n || w->ev[i].type == GAMEDB_EVENT_VARIATION_END) {
			line_close(w, l);
			if (depth == 0) {
				*orphan = l->before;
				break;
			}
			/* a comment before the end of a variation is lost, as before */
			depth--;
			if (i < w->n)
				i++; /* the VARIATION_END */
			continue;
		}
		e = &w->ev[i];
		switch (e->type) {
		case GAMEDB_EVENT_MOVE:
			if (l->nags_open)
				put(w, "]", 1);
			if (l->vars_open)
				put(w, "]", 1);
			if (l->open)
				put(w, "}", 1);
			l->nags_open = l->vars_open = 0;
			if (!l->first)
				put(w, ", ", 2);
			l->first = 0;
			puts_(w, "{\"san\": ");
			jstr(w, w->text.p + e->a);
			puts_(w, ", \"uci\": ");
			jstr(w, w->text.p + e->b);
			if (l->before) {
				puts_(w, ", \"comment_before\": ");
				jstr(w, l->before);
				l->before = NULL;
			}
			l->open = 1;
			i++;
			break;
		case GAMEDB_EVENT_NAG:
			if (l->open && !l->vars_open) {
				if (!l->nags_open) {
					puts_(w, ", \"nags\": [");
					l->nags_open = 1;
				} else {
					put(w, ", ", 2);
				}
				{
					char num[16];
					int k = snprintf(num, sizeof num, "%d", (int)e->nag);
					put(w, num, (size_t)k);
				}
			}
			i++;
			break;
		case GAMEDB_EVENT_COMMENT_BEFORE:
			l->before = w->text.p + e->a;
			i++;
			break;
		case GAMEDB_EVENT_COMMENT_AFTER:
			if (l->nags_open) {
				put(w, "]", 1);
				l->nags_open = 0;
			}
			if (l->open) {
				if (l->vars_open) { /* a comment after the variations: close them first */
					put(w, "]", 1);
					l->vars_open = 0;
				}
				puts_(w, ", \"comment\": ");
				jstr(w, w->text.p + e->a);
			} else {
				l->before = w->text.p + e->a;
			}
			i++;
			break;
		case GAMEDB_EVENT_VARIATION_BEGIN:
			if (l->nags_open) {
				put(w, "]", 1);
				l->nags_open = 0;
			}
			if (!l->open) { /* cannot happen in a well-formed stream: skip the variation */
				size_t nest = 1;
				for (i++; i < w->n && nest; i++) {
					if (w->ev[i].type == GAMEDB_EVENT_VARIATION_BEGIN)
						nest++;
					else if (w->ev[i].type == GAMEDB_EVENT_VARIATION_END)
						nest--;
				}
				break;
			}
			if (!l->vars_open) {
				puts_(w, ", \"variations\": [");
				l->vars_open = 1;
			} else {
				put(w, ", ", 2);
			}
			if (depth + 1 == cap) {
				struct jline *ns = realloc(stack, cap * 2 * sizeof *ns);
				if (!ns) {
					w->err = 1;
					free(stack);
					return;
				}
				stack = ns;
				cap *= 2;
			}
			depth++;
			memset(&stack[depth], 0, sizeof stack[depth]);
			stack[depth].first = 1;
			put(w, "[", 1);
			i++;
			break;
		default:
			i++;
			break;
		}
	}
	free(stack);
}

GAMEDB_EXPORT int32_t gamedb_game_write_json(struct gamedb_game *g, uint32_t flags,
					     gamedb_write_fn sink, void *user_data)
{
	struct jw w;
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	uint32_t iflags = 0;
	const char *final_fen = NULL, *orphan = NULL;
	size_t i, n;
	int32_t rc;
	char num[32];

	if (!g || !sink)
		return GAMEDB_FAILED;
	memset(&w, 0, sizeof w);
	if (flags & GAMEDB_WRITE_NO_COMMENTS)
		iflags |= GAMEDB_ITER_SKIP_COMMENTS;
	if (flags & GAMEDB_WRITE_NO_VARIATIONS)
		iflags |= GAMEDB_ITER_MAINLINE_ONLY;
	if (gamedb_move_iter_new(g, iflags, &it) != GAMEDB_OK)
		return GAMEDB_FAILED;
	while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
		int32_t type = gamedb_event_get_type(ev);
		switch (type) {
		case GAMEDB_EVENT_MOVE:
			add(&w, type, 0, save_text(&w, gamedb_event_get_san(ev)),
			    save_text(&w, gamedb_event_get_uci(ev)));
			break;
		case GAMEDB_EVENT_NAG:
			if (!(flags & GAMEDB_WRITE_NO_NAGS))
				add(&w, type, gamedb_event_get_nag(ev), 0, 0);
			break;
		case GAMEDB_EVENT_COMMENT_BEFORE:
		case GAMEDB_EVENT_COMMENT_AFTER:
			add(&w, type, 0, save_text(&w, gamedb_event_get_text(ev)), 0);
			break;
		case GAMEDB_EVENT_VARIATION_BEGIN:
		case GAMEDB_EVENT_VARIATION_END:
			add(&w, type, 0, 0, 0);
			break;
		default:
			break;
		}
	}
	gamedb_move_iter_free(it);
	final_fen = gamedb_game_get_final_fen(g);

	snprintf(num, sizeof num, "%llu", (unsigned long long)gamedb_game_get_index(g));
	puts_(&w, "{\"index\": ");
	puts_(&w, num);
	puts_(&w, ", \"tags\": {");
	n = gamedb_game_get_tag_count(g);
	for (i = 0; i < n; i++) {
		const char *name, *value;
		if (gamedb_game_get_tag_at(g, i, &name, &value) != GAMEDB_OK)
			continue;
		if (i)
			put(&w, ", ", 2);
		jstr(&w, name);
		put(&w, ": ", 2);
		jstr(&w, value);
	}
	puts_(&w, "}, \"variant\": ");
	switch (gamedb_game_get_variant(g)) {
	case GAMEDB_VARIANT_CHESS960: jstr(&w, "chess960"); break;
	case GAMEDB_VARIANT_XIANGQI: jstr(&w, "xiangqi"); break;
	case GAMEDB_VARIANT_BUGHOUSE: jstr(&w, "bughouse"); break;
	default: jstr(&w, "chess"); break;
	}
	puts_(&w, ", \"fen\": ");
	jstr(&w, gamedb_game_get_fen(g));
	puts_(&w, ", \"final_fen\": ");
	jstr(&w, final_fen ? final_fen : "");
	puts_(&w, gamedb_game_is_deleted(g) ? ", \"deleted\": true" : ", \"deleted\": false");
	puts_(&w, ", \"moves\": ");
	if (!w.err)
		line(&w, 0, &orphan);
	if (orphan) {
		puts_(&w, ", \"comment\": ");
		jstr(&w, orphan);
	}
	puts_(&w, "}\n");

	rc = GAMEDB_OK;
	if (w.err || sink(user_data, w.out.p, w.out.len) != 0)
		rc = GAMEDB_FAILED;
	else if (g->text_status == GAMEDB_WARN)
		rc = GAMEDB_WARN;
	gamedb__buf_free(&w.out);
	gamedb__buf_free(&w.text);
	free(w.ev);
	return rc;
}
