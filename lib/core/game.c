/*
 * libgamedb - games: tags, start position, lazy move decoding, copies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/reader.h"
#include "formats/format.h"

/* ---- move buffer ---------------------------------------------------------------------- */

/* A game record is at most a few hundred KiB; no decoded game may hold more nodes than this. */
#define GAMEDB__MAX_NODES ((size_t)1 << 22)

int gamedb__mb_grow(struct gamedb__movebuf *mb)
{
	size_t cap;
	struct gamedb__node *p;

	if (mb->n < mb->cap)
		return 0;
	if (mb->cap >= GAMEDB__MAX_NODES)
		return -1;
	cap = mb->cap ? mb->cap * 2 : 256;
	p = realloc(mb->nodes, cap * sizeof *p);
	if (!p)
		return -1;
	mb->nodes = p;
	mb->cap = cap;
	return 0;
}

int gamedb__mb_move(struct gamedb__movebuf *mb, const struct gamedb__move *m)
{
	struct gamedb__node *nd;

	if (gamedb__mb_grow(mb) != 0)
		return -1;
	nd = &mb->nodes[mb->n++];
	memset(nd, 0, sizeof *nd);
	nd->m = *m;
	nd->type = GAMEDB_EVENT_MOVE;
	return 0;
}

int gamedb__mb_move_hand(struct gamedb__movebuf *mb, const struct gamedb__move *m, uint64_t hand)
{
	size_t off = mb->text.len;

	if (off > UINT32_MAX - 8 || gamedb__buf_append(&mb->text, &hand, 8) != 0 ||
	    gamedb__mb_move(mb, m) != 0)
		return -1;
	mb->nodes[mb->n - 1].kind = GAMEDB__NODE_HAND;
	mb->nodes[mb->n - 1].val = (uint32_t)off;
	return 0;
}

int gamedb__mb_comment(struct gamedb__movebuf *mb, int type, const char *utf8, size_t len)
{
	size_t off = mb->text.len;

	if (off > UINT32_MAX - len - 1 || gamedb__buf_append(&mb->text, utf8, len) != 0)
		return -1;
	return gamedb__mb_text_end(mb, type, off);
}

int gamedb__mb_raw(struct gamedb__movebuf *mb, const void *raw, size_t len)
{
	const struct gamedb__node *nd = mb->n ? &mb->nodes[mb->n - 1] : NULL;
	const size_t off = mb->text.len;

	/* A comment whose stored bytes are its UTF-8 text (the usual case) keeps them once. */
	if (nd && (nd->type == GAMEDB_EVENT_COMMENT_BEFORE || nd->type == GAMEDB_EVENT_COMMENT_AFTER) &&
	    (size_t)nd->val + len < mb->text.len && mb->text.p[nd->val + len] == 0 &&
	    memcmp(mb->text.p + nd->val, raw, len) == 0 && memchr(raw, 0, len) == NULL)
		return 0;
	if (mb->n == 0 || mb->text.len > UINT32_MAX - len - 1 ||
	    gamedb__buf_append(&mb->text, raw, len) != 0 || gamedb__buf_putc(&mb->text, 0) != 0)
		return -1;
	gamedb__node_set_raw(&mb->nodes[mb->n - 1], (uint32_t)off);
	return 0;
}

void gamedb__mb_reset(struct gamedb__movebuf *mb)
{
	mb->n = 0;
	gamedb__buf_clear(&mb->text);
	mb->status = GAMEDB_OK;
	mb->have_final = 0;
}

void gamedb__mb_free(struct gamedb__movebuf *mb)
{
	free(mb->nodes);
	mb->nodes = NULL;
	mb->n = mb->cap = 0;
	gamedb__buf_free(&mb->text);
}

/* ---- tags ----------------------------------------------------------------------------- */

static void tagset_reset(struct gamedb__tagset *ts)
{
	ts->n = 0;
	ts->charset_have = 0;
	gamedb__buf_clear(&ts->pool);
}

static void tagset_free(struct gamedb__tagset *ts)
{
	free(ts->v);
	ts->v = NULL;
	ts->n = ts->cap = 0;
	ts->charset_have = 0;
	gamedb__buf_free(&ts->pool);
}

int gamedb__tags_room(struct gamedb__tagset *ts, size_t n, size_t bytes)
{
	struct gamedb__buf *pool = &ts->pool;

	/* At most 65,536 tags a game. */
	if (ts->cap - ts->n < n &&
	    (n > 65536 - ts->n || gamedb__grow((void **)&ts->v, &ts->cap, ts->n + n, sizeof *ts->v) != 0))
		return -1;
	if (pool->len > UINT32_MAX || bytes > UINT32_MAX - pool->len ||
	    gamedb__buf_room(pool, bytes) != 0)
		return -1;
	return 0;
}

int gamedb__tags_charset(struct gamedb__tagset *ts, const char *charset, uint32_t *cs)
{
	struct gamedb__buf *pool = &ts->pool;

	/*
	 * The charset name is copied into the pool (once per pool while it stays the same), never
	 * pointed at: it may be the reader's option, which a copy of the game outlives and which
	 * gamedb_reader_set_option() may change while the game is still handed out.
	 * A tag set is filled by one call of the format (next_game, load_tags), during which the
	 * charset name cannot change: the same pointer as the last tag's is the same name.
	 */
	if (ts->charset_have && (charset == ts->charset_ptr ||
				 strcmp(pool->p + ts->charset_last, charset) == 0)) {
		*cs = ts->charset_last;
	} else {
		const size_t cslen = strlen(charset) + 1;
		if (cslen > 256 || pool->len > UINT32_MAX - cslen || gamedb__buf_room(pool, cslen) != 0)
			return -1;
		*cs = (uint32_t)pool->len;
		memcpy(pool->p + *cs, charset, cslen);
		pool->len += cslen;
		pool->p[pool->len] = 0;
		ts->charset_last = *cs;
		ts->charset_have = 1;
	}
	ts->charset_ptr = charset;
	return 0;
}

int gamedb__tags_add_full(struct gamedb__tagset *ts, const char *name, size_t nlen,
			  const char *value, size_t vlen, const char *raw, size_t raw_len,
			  const char *charset)
{
	uint32_t cs = GAMEDB__TAG_NO_CHARSET;

	if (nlen > UINT32_MAX / 4 || vlen > UINT32_MAX / 4 || (raw && raw_len > UINT32_MAX / 4))
		return -1;
	if (charset && gamedb__tags_charset(ts, charset, &cs) != 0)
		return -1;
	/* Name, value and raw bytes go into the pool, each NUL-terminated, with one reservation. */
	if (gamedb__tags_room(ts, 1, nlen + 1 + vlen + 1 + (raw ? raw_len + 1 : 0)) != 0)
		return -1;
	gamedb__tags_put(ts, name, nlen, value, vlen, raw, raw_len, cs);
	return 0;
}

int32_t gamedb__game_add_tag_raw(struct gamedb_game *g, struct gamedb__tagset *ts,
				 const char *name, const char *raw, size_t raw_len,
				 const char *charset)
{
	struct gamedb_reader *r = g->reader;
	struct gamedb__buf tmp = { 0 };
	const char *value;
	size_t vlen;
	int32_t rc = GAMEDB_OK;
	int same;

	/* Text the text layer would pass through unchanged needs no temporary copy. */
	if (gamedb__text_is_plain(raw, raw_len)) {
		value = raw_len ? raw : "";
		vlen = raw_len;
		same = 1;
	} else {
		rc = gamedb__text_to_utf8(&r->text, charset, gamedb__reader_fallback(r), raw,
					  raw_len, &tmp);
		if (rc == GAMEDB_FAILED) {
			gamedb__buf_free(&tmp);
			return GAMEDB_FAILED;
		}
		if (rc == GAMEDB_WARN) {
			g->text_status = GAMEDB_WARN;
			gamedb__game_seterr(g, "tag %s could not be converted from %s without loss",
					    name, charset);
		}
		value = tmp.p ? tmp.p : "";
		vlen = tmp.len;
		same = tmp.len == raw_len && (raw_len == 0 || memcmp(tmp.p, raw, raw_len) == 0);
	}
	{
		/* A repeated name keeps its first place and takes the last value. */
		size_t i, n = ts->n;
		for (i = 0; i < ts->n; i++) {
			const char *t = ts->pool.p + ts->v[i].name;
			if (t[0] == name[0] && strcmp(t, name) == 0)
				break;
		}
		if (gamedb__tags_add(ts, name, value, vlen, same ? NULL : raw, raw_len, charset) != 0) {
			rc = GAMEDB_FAILED;
		} else if (i < n) {
			/* The same name; the new copy's offset keeps name and value adjacent in the
			 * pool, as gamedb__game_tag_at() counts on. */
			ts->v[i].name = ts->v[n].name;
			ts->v[i].value = ts->v[n].value;
			ts->v[i].raw = ts->v[n].raw;
			ts->v[i].raw_len = ts->v[n].raw_len;
			ts->v[i].charset = ts->v[n].charset;
			ts->n--;
		}
	}
	if (tmp.p)
		gamedb__buf_free(&tmp);
	return rc;
}

void gamedb__game_fallback_warning(struct gamedb_game *g)
{
	struct gamedb_reader *r = g->reader;

	if (g->fallback)
		return; /* once per game */
	g->fallback = 1;
	g->text_status = GAMEDB_WARN;
	if (!g->errmsg[0]) {
		char where[64] = "";
		if (r->text.fallback_file)
			snprintf(where, sizeof where, "offset %llu: ",
				 (unsigned long long)r->text.fallback_off);
		gamedb__game_seterr(g, "%s: %sgame %llu: text not %s, read as %s (the fallback "
				    "charset): \"%s\"",
				    r->text.fallback_file ? r->text.fallback_file :
				    r->src.primary ? r->src.primary : "the database", where,
				    (unsigned long long)g->index + 1, gamedb__reader_charset(r),
				    gamedb__reader_fallback(r), r->text.fallback_sample);
	}
	r->text.fallback_sample[0] = 0;
}

/* Appends s to the message at dst (cap bytes), cut at a UTF-8 character's start if need be. */
static void msg_append(char *dst, size_t cap, const char *s)
{
	size_t len = strlen(dst), n = strlen(s);

	if (len + 1 >= cap)
		return;
	if (n > cap - len - 1) {
		n = cap - len - 1;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(dst + len, s, n);
	dst[len + n] = 0;
}

void gamedb__game_add_warning(struct gamedb_game *g, const char *note)
{
	const char *file = g->reader && g->reader->src.primary ? g->reader->src.primary : NULL;
	char num[48];

	if (strstr(g->errmsg, note))
		return;
	if (g->errmsg[0]) {
		msg_append(g->errmsg, sizeof g->errmsg, "; ");
	} else {
		/* Where, as the reader's messages say it: "FILE: game N: ". */
		if (file) {
			msg_append(g->errmsg, sizeof g->errmsg, file);
			msg_append(g->errmsg, sizeof g->errmsg, ": ");
		}
		snprintf(num, sizeof num, "game %llu: ", (unsigned long long)g->index + 1);
		msg_append(g->errmsg, sizeof g->errmsg, num);
	}
	msg_append(g->errmsg, sizeof g->errmsg, note);
}

void gamedb__game_seterr(struct gamedb_game *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->errmsg, sizeof g->errmsg, fmt, ap);
	va_end(ap);
}

void gamedb__game_reset(struct gamedb_game *g)
{
	g->index = 0;
	g->variant = GAMEDB_VARIANT_CHESS;
	g->deleted = 0;
	g->fmt_flags = 0;
	g->loc[0] = g->loc[1] = g->loc[2] = 0;
	strcpy(g->fen, GAMEDB__START_FEN);
	g->have_start = 0;
	tagset_reset(&g->head);
	tagset_reset(&g->extra);
	g->extra_loaded = 0;
	g->fen_pending = 0;
	g->final_fen[0] = 0;
	g->moves_state = GAMEDB__MOVES_NONE;
	gamedb__mb_reset(&g->mb);
	g->text_status = GAMEDB_OK;
	g->fallback = 0;
	g->errmsg[0] = 0;
}

void gamedb__game_release(struct gamedb_game *g)
{
	tagset_free(&g->head);
	tagset_free(&g->extra);
	gamedb__mb_free(&g->mb);
}

static int game_ok(const struct gamedb_game *g)
{
	return g && g->magic == GAMEDB__GAME_MAGIC;
}

/* Loads the tags the format keeps outside its index (load_extra()'s first call). */
static void load_extra_now(struct gamedb_game *g)
{
	struct gamedb_reader *r = g->reader;
	int32_t rc;

	g->extra_loaded = 1;
	if (!r || !r->fmt || !r->fmt->load_tags || r->state != GAMEDB__RS_OPEN)
		return;
	{
		uint64_t before = r->text.fallback_texts;
		r->text.fallback_sample[0] = 0;
		rc = r->fmt->load_tags(r->fmt_state, g);
		gamedb__text_at(&r->text, NULL, 0);
		if (r->text.fallback_texts != before)
			gamedb__game_fallback_warning(g);
	}
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		/* The game is handed out without them: lossy, not silent (the format's message). */
		g->extra_loaded = -1;
		g->text_status = GAMEDB_WARN;
	}
}

/* Loads the tags the format keeps outside its index, once (the writers ask for every tag). */
static inline void load_extra(struct gamedb_game *g)
{
	if (!g->extra_loaded)
		load_extra_now(g);
}

int32_t gamedb__game_decode(struct gamedb_game *g)
{
	struct gamedb_reader *r = g->reader;

	if (g->moves_state == GAMEDB__MOVES_DONE)
		return g->mb.status;
	load_extra(g);
	gamedb__mb_reset(&g->mb);
	if (!r || !r->fmt || r->state != GAMEDB__RS_OPEN) {
		g->mb.status = GAMEDB_FAILED;
		gamedb__game_seterr(g, "game %llu: the reader is closed",
				    (unsigned long long)g->index + 1);
	} else {
		uint64_t before = r->text.fallback_texts;
		r->text.fallback_sample[0] = 0;
		g->mb.status = r->fmt->decode_moves(r->fmt_state, g, &g->mb);
		gamedb__text_at(&r->text, NULL, 0);
		if (g->mb.status == GAMEDB_FAILED && r)
			gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "%s", g->errmsg);
		else if (r->text.fallback_texts != before && !g->fallback) {
			gamedb__game_fallback_warning(g);
			g->mb.status = GAMEDB_WARN;
		}
	}
	g->moves_state = GAMEDB__MOVES_DONE;
	return g->mb.status;
}

void gamedb__game_want_san(struct gamedb_game *g)
{
	if (game_ok(g) && g->reader && g->reader->magic == GAMEDB__READER_MAGIC)
		g->reader->want_san = 1;
}

GAMEDB_EXPORT uint64_t gamedb_game_get_index(const struct gamedb_game *g)
{
	return game_ok(g) ? g->index : 0;
}

GAMEDB_EXPORT size_t gamedb_game_get_tag_count(struct gamedb_game *g)
{
	if (!game_ok(g))
		return 0;
	load_extra(g);
	return g->head.n + g->extra.n;
}

static const struct gamedb__tag *tag_at(const struct gamedb_game *g, size_t i,
					const struct gamedb__tagset **ts)
{
	if (i < g->head.n) {
		*ts = &g->head;
		return &g->head.v[i];
	}
	i -= g->head.n;
	if (i < g->extra.n) {
		*ts = &g->extra;
		return &g->extra.v[i];
	}
	return NULL;
}

int gamedb__game_tag_at(struct gamedb_game *g, size_t i, const char **name, size_t *nlen,
			const char **value, size_t *vlen)
{
	const struct gamedb__tagset *ts;
	const struct gamedb__tag *t;

	load_extra(g);
	t = tag_at(g, i, &ts);
	if (!t)
		return -1;
	/* gamedb__tags_add() lays out name, value and raw bytes one after the other, each ended
	 * by a NUL (raw only when it differs from the value). */
	*name = ts->pool.p + t->name;
	*nlen = t->value - t->name - 1;
	*value = ts->pool.p + t->value;
	*vlen = t->raw != t->value ? t->raw - t->value - 1 : t->raw_len;
	return 0;
}

GAMEDB_EXPORT int32_t gamedb_game_get_tag_at(struct gamedb_game *g, size_t i, const char **name,
					     const char **value)
{
	const struct gamedb__tagset *ts;
	const struct gamedb__tag *t;

	if (!game_ok(g))
		return GAMEDB_FAILED;
	load_extra(g);
	t = tag_at(g, i, &ts);
	if (!t)
		return GAMEDB_FAILED;
	if (name)
		*name = ts->pool.p + t->name;
	if (value)
		*value = ts->pool.p + t->value;
	return GAMEDB_OK;
}

static const struct gamedb__tag *find_tag(struct gamedb_game *g, const char *name,
					  const struct gamedb__tagset **ts)
{
	size_t i;

	/* The first letters are compared inline: most names differ there. */
	for (i = 0; i < g->head.n; i++) {
		const char *t = g->head.pool.p + g->head.v[i].name;
		if (t[0] == name[0] && strcmp(t, name) == 0) {
			*ts = &g->head;
			return &g->head.v[i];
		}
	}
	/* A tag the format knows is not among its extra tags needs no read of them. */
	if (!g->extra_loaded && g->reader && g->reader->fmt && g->reader->state == GAMEDB__RS_OPEN &&
	    g->reader->fmt->tag_surely_absent &&
	    g->reader->fmt->tag_surely_absent(g->reader->fmt_state, g, name))
		return NULL;
	load_extra(g);
	for (i = 0; i < g->extra.n; i++) {
		const char *t = g->extra.pool.p + g->extra.v[i].name;
		if (t[0] == name[0] && strcmp(t, name) == 0) {
			*ts = &g->extra;
			return &g->extra.v[i];
		}
	}
	return NULL;
}

GAMEDB_EXPORT const char *gamedb_game_get_tag(struct gamedb_game *g, const char *name)
{
	const struct gamedb__tagset *ts;
	const struct gamedb__tag *t;

	if (!game_ok(g) || !name)
		return NULL;
	t = find_tag(g, name, &ts);
	return t ? ts->pool.p + t->value : NULL;
}

GAMEDB_EXPORT const char *gamedb_game_get_tag_raw(struct gamedb_game *g, const char *name,
						  size_t *len, const char **charset)
{
	const struct gamedb__tagset *ts;
	const struct gamedb__tag *t;

	if (len)
		*len = 0;
	if (charset)
		*charset = NULL;
	if (!game_ok(g) || !name)
		return NULL;
	t = find_tag(g, name, &ts);
	if (!t)
		return NULL;
	if (len)
		*len = t->raw_len;
	if (charset)
		*charset = t->charset == GAMEDB__TAG_NO_CHARSET ? NULL : ts->pool.p + t->charset;
	return ts->pool.p + t->raw;
}

GAMEDB_EXPORT const char *gamedb_game_get_fen(struct gamedb_game *g)
{
	if (!game_ok(g))
		return NULL;
	if (g->fen_pending) {
		load_extra(g);
		g->fen_pending = 0;
	}
	return g->fen;
}

int gamedb__game_start_pos(struct gamedb_game *g, union gamedb__anypos *pos, const char **why)
{
	const char *fen;

	if (g->variant == GAMEDB_VARIANT_XIANGQI) {
		if (g->have_start) {
			pos->x = g->xqstart;
			return 0;
		}
		return gamedb__xq_from_fen(&pos->x, gamedb_game_get_fen(g), why);
	}
	if (g->have_start) {
		pos->c = g->start;
		return 0;
	}
	fen = gamedb_game_get_fen(g);
	if (strcmp(fen, GAMEDB__START_FEN) == 0) { /* most games: nothing to parse */
		gamedb__pos_startpos(&pos->c);
		return 0;
	}
	return gamedb__pos_from_fen(&pos->c, fen, why);
}

GAMEDB_EXPORT int32_t gamedb_game_get_start_key(struct gamedb_game *g, uint64_t *key)
{
	union gamedb__anypos pos;
	const char *why = NULL;

	if (!game_ok(g) || !key)
		return GAMEDB_FAILED;
	if (gamedb__game_start_pos(g, &pos, &why) != 0) {
		gamedb__game_seterr(g, "game %llu: bad start position \"%s\": %s",
				    (unsigned long long)g->index + 1, g->fen, why ? why : "");
		return GAMEDB_FAILED;
	}
	*key = g->variant == GAMEDB_VARIANT_XIANGQI ? gamedb__xq_key(&pos.x) : gamedb__pos_key(&pos.c);
	return GAMEDB_OK;
}

GAMEDB_EXPORT const char *gamedb_game_get_final_fen(struct gamedb_game *g)
{
	union gamedb__anypos pos;
	const char *why;
	size_t i, depth = 0;

	if (!game_ok(g) || gamedb__game_decode(g) == GAMEDB_FAILED)
		return NULL;
	if (g->final_fen[0])
		return g->final_fen;
	if (g->mb.have_final) {
		gamedb__any_to_fen(g->variant, &g->mb.final, g->final_fen, sizeof g->final_fen);
		return g->final_fen;
	}
	if (gamedb__game_start_pos(g, &pos, &why) != 0)
		return NULL;
	/* Replay the main line: the decoder checked every move already. */
	for (i = 0; i < g->mb.n; i++) {
		const struct gamedb__node *nd = &g->mb.nodes[i];
		if (nd->type == GAMEDB_EVENT_VARIATION_BEGIN)
			depth++;
		else if (nd->type == GAMEDB_EVENT_VARIATION_END)
			depth--;
		else if (nd->type == GAMEDB_EVENT_MOVE && depth == 0) {
			if (g->variant != GAMEDB_VARIANT_XIANGQI)
				gamedb__node_hand(&g->mb, nd, &pos.c);
			gamedb__any_make(g->variant, &pos, &nd->m);
		}
	}
	gamedb__any_to_fen(g->variant, &pos, g->final_fen, sizeof g->final_fen);
	return g->final_fen;
}

GAMEDB_EXPORT int32_t gamedb_game_get_variant(const struct gamedb_game *g)
{
	return game_ok(g) ? g->variant : 0;
}

GAMEDB_EXPORT int32_t gamedb_game_is_deleted(const struct gamedb_game *g)
{
	return game_ok(g) ? (g->deleted ? 1 : 0) : 0;
}

GAMEDB_EXPORT int32_t gamedb_game_get_status(const struct gamedb_game *g)
{
	if (!game_ok(g))
		return GAMEDB_FAILED;
	if (g->text_status == GAMEDB_WARN ||
	    (g->moves_state == GAMEDB__MOVES_DONE && g->mb.status == GAMEDB_WARN))
		return GAMEDB_WARN;
	return GAMEDB_OK;
}

GAMEDB_EXPORT const char *gamedb_game_errmsg(const struct gamedb_game *g)
{
	return game_ok(g) ? g->errmsg : "invalid game handle";
}

static int tagset_copy(struct gamedb__tagset *dst, const struct gamedb__tagset *src)
{
	if (src->n) {
		dst->v = malloc(src->n * sizeof *dst->v);
		if (!dst->v)
			return -1;
		memcpy(dst->v, src->v, src->n * sizeof *dst->v);
		dst->n = dst->cap = src->n;
	}
	if (src->pool.len && gamedb__buf_append(&dst->pool, src->pool.p, src->pool.len) != 0)
		return -1;
	/* Offsets, charset names included, stay valid in the copied pool. */
	dst->charset_last = src->charset_last;
	dst->charset_ptr = NULL; /* the source's pointer says nothing about what fills dst */
	dst->charset_have = src->charset_have;
	return 0;
}

GAMEDB_EXPORT int32_t gamedb_game_dup(struct gamedb_game *g, struct gamedb_game **out)
{
	struct gamedb_game *c;
	int32_t st;

	if (out)
		*out = NULL;
	if (!game_ok(g) || !out)
		return GAMEDB_FAILED;
	load_extra(g);
	st = gamedb__game_decode(g);
	c = calloc(1, sizeof *c);
	if (!c)
		return GAMEDB_FAILED;
	*c = *g;
	c->reader = NULL;
	memset(&c->head, 0, sizeof c->head);
	memset(&c->extra, 0, sizeof c->extra);
	memset(&c->mb, 0, sizeof c->mb);
	c->mb.status = g->mb.status;
	c->mb.have_final = g->mb.have_final;
	c->mb.final = g->mb.final;
	if (tagset_copy(&c->head, &g->head) != 0 || tagset_copy(&c->extra, &g->extra) != 0)
		goto nomem;
	if (g->mb.n) {
		c->mb.nodes = malloc(g->mb.n * sizeof *c->mb.nodes);
		if (!c->mb.nodes)
			goto nomem;
		memcpy(c->mb.nodes, g->mb.nodes, g->mb.n * sizeof *c->mb.nodes);
		c->mb.n = c->mb.cap = g->mb.n;
	}
	if (g->mb.text.len && gamedb__buf_append(&c->mb.text, g->mb.text.p, g->mb.text.len) != 0)
		goto nomem;
	*out = c;
	return st == GAMEDB_FAILED ? GAMEDB_WARN : GAMEDB_OK;
nomem:
	gamedb__game_release(c);
	free(c);
	return GAMEDB_FAILED;
}

GAMEDB_EXPORT void gamedb_game_free(struct gamedb_game *g)
{
	if (!game_ok(g) || g->reader)
		return; /* NULL, or a game that belongs to a reader */
	gamedb__game_release(g);
	g->magic = 0;
	free(g);
}
