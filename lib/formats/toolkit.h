/*
 * libgamedb - the format toolkit: what every decoder in lib/formats needs and none should write
 * again. Private to lib/formats; never installed.
 *
 *   - byte readers: gamedb__be16 ... gamedb__le64 on `const uint8_t *` (no bounds check);
 *   - a bounds-checked cursor over a view of a file (struct gamedb__cur), whose first read
 *     that falls short is kept, so that a record can be walked with one check at the end and
 *     reported with one text: "base.cbg: offset 1234: guiding text 3: title: need 8 bytes,
 *     3 left";
 *   - the PGN date text ("YYYY.MM.DD", "??" for what is unknown): gamedb__pgn_date();
 *   - the stack of lines a move decoder keeps while it opens and closes variations
 *     (struct gamedb__stack), with VARIATION_BEGIN / VARIATION_END written into the move
 *     buffer as lines are opened and closed (gamedb__var_begin(), gamedb__var_end()), and
 *     the closing of what a failed decode left open (gamedb__var_close_open());
 *   - xiangqi: a move added with its WXF (gamedb__xq_add_move()), and the walk of a tree of
 *     moves as XQF and CCBridge store it (struct gamedb__xq_node, gamedb__xq_walk_tree()).
 *
 * Hot loops index the cursor's bytes (p, pos, len) directly where a call per byte would cost;
 * the inline readers compile to the same code.
 */
#ifndef GAMEDB_FORMATS_TOOLKIT_H
#define GAMEDB_FORMATS_TOOLKIT_H

#include "core/reader.h"
#include "util/bytes.h"

/* ---- byte readers: util/bytes.h (gamedb__be16 ... gamedb__le64) ---------------------------- */

/* ---- the byte cursor ----------------------------------------------------------------------- */

/*
 * len bytes at p (a view of the file `name`, whose first byte is at file offset base), read
 * from pos on. A read that finds too few bytes returns 0 (or NULL), leaves pos where it was
 * and, if it is the first to fall short, is kept (short_at, short_need) for
 * gamedb__cur_message(); later reads go on normally. So a caller may read a run of fields and
 * ask gamedb__cur_failed() once, or test each read.
 */
struct gamedb__cur {
	const uint8_t *p;
	size_t len;
	size_t pos;
	const char *name;  /* the file's name, for messages (not owned) */
	uint64_t base;     /* file offset of p[0] */
	size_t short_at;   /* where the first read that fell short started */
	size_t short_need; /* how many bytes it wanted; 0 = no read fell short */
};

static inline void gamedb__cur_init(struct gamedb__cur *c, const char *name, uint64_t base,
				    const uint8_t *p, size_t len)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
	c->name = name;
	c->base = base;
	c->short_at = 0;
	c->short_need = 0;
}

/*
 * A cursor over len bytes of f at off: as many as the file holds (fewer at its end). Returns
 * what gamedb__file_view() returns: the bytes available, or -1 on an I/O error (the reader's
 * error set, naming the file and the offset; the cursor is then empty).
 */
static inline int64_t gamedb__cur_view(struct gamedb__cur *c, struct gamedb__file *f, uint64_t off,
				       size_t len)
{
	const uint8_t *p = NULL;
	int64_t got = gamedb__file_view(f, off, len, &p);

	gamedb__cur_init(c, f->name, off, p, got > 0 ? (size_t)got : 0);
	return got;
}

static inline size_t gamedb__cur_left(const struct gamedb__cur *c)
{
	return c->len - c->pos;
}

/* The file offset of the next byte. */
static inline uint64_t gamedb__cur_off(const struct gamedb__cur *c)
{
	return c->base + c->pos;
}

/* 1 if a read fell short since the cursor was set up. */
static inline int gamedb__cur_failed(const struct gamedb__cur *c)
{
	return c->short_need != 0;
}

/* 0 if n more bytes are there; else -1, and the shortfall is kept (if it is the first). */
static inline int gamedb__cur_need(struct gamedb__cur *c, size_t n)
{
	if (c->len - c->pos >= n)
		return 0;
	if (!c->short_need) {
		c->short_at = c->pos;
		c->short_need = n;
	}
	return -1;
}

/* The next n bytes (pos moves past them), or NULL when fewer are left. */
static inline const uint8_t *gamedb__cur_take(struct gamedb__cur *c, size_t n)
{
	const uint8_t *q;

	if (gamedb__cur_need(c, n) != 0)
		return NULL;
	q = c->p + c->pos;
	c->pos += n;
	return q;
}

/* Skips n bytes: 0, or -1 when fewer are left (pos stays). */
static inline int gamedb__cur_skip(struct gamedb__cur *c, size_t n)
{
	return gamedb__cur_take(c, n) ? 0 : -1;
}

#define GAMEDB__CUR_GET(fn, type, n, rd)                                                  \
	static inline type fn(struct gamedb__cur *c)                                       \
	{                                                                                  \
		const uint8_t *q = gamedb__cur_take(c, n);                                 \
		return q ? rd(q) : 0;                                                      \
	}

static inline uint32_t gamedb__u8(const uint8_t *p)
{
	return p[0];
}

GAMEDB__CUR_GET(gamedb__cur_u8, uint32_t, 1, gamedb__u8)
GAMEDB__CUR_GET(gamedb__cur_be16, uint32_t, 2, gamedb__be16)
GAMEDB__CUR_GET(gamedb__cur_be24, uint32_t, 3, gamedb__be24)
GAMEDB__CUR_GET(gamedb__cur_be32, uint32_t, 4, gamedb__be32)
GAMEDB__CUR_GET(gamedb__cur_be64, uint64_t, 8, gamedb__be64)
GAMEDB__CUR_GET(gamedb__cur_le16, uint32_t, 2, gamedb__le16)
GAMEDB__CUR_GET(gamedb__cur_le24, uint32_t, 3, gamedb__le24)
GAMEDB__CUR_GET(gamedb__cur_le32, uint32_t, 4, gamedb__le32)
GAMEDB__CUR_GET(gamedb__cur_le64, uint64_t, 8, gamedb__le64)

#undef GAMEDB__CUR_GET

/*
 * The one message of a read that fell short, into buf (cap bytes), with the context in
 * between (printf-style, e.g. "game %llu: tag section"):
 *   "base.sg4: offset 1234: game 7: tag section: need 8 bytes, 3 left"
 * The offset is the file offset where that read started (for a cursor with no shortfall: its
 * position, as if one more byte were wanted). Returns buf.
 */
char *gamedb__cur_message(const struct gamedb__cur *c, char *buf, size_t cap, const char *fmt, ...)
	GAMEDB__PRINTF(4, 5);

/* ---- PGN dates ----------------------------------------------------------------------------- */

/*
 * PGN's Date from free text (XQF's, CCBridge's): the first three runs of ASCII digits as year,
 * month, day when the year has four digits ("1997年11月16日", "2010-05-27 15:", "20140422");
 * "??" for what is missing or out of range (toolkit.c).
 */
void gamedb__date_from_text(const uint8_t *p, size_t n, char out[11]);
/*
 * A comment typed in a Windows memo box (XQF's, CCBridge's): the UTF-8 text of b from off on
 * becomes LF-separated lines without blanks at either end (toolkit.c).
 */
void gamedb__tidy_comment(struct gamedb__buf *b, size_t off);

/*
 * The PGN Date (or EventDate) text of year, month, day into out: "YYYY.MM.DD", NUL-terminated,
 * each part "????" or "??" when it is 0 (unknown) or more than the field holds (a month or day
 * over 99); a year over 9999 is written 9999. Month and day are not checked against the
 * calendar: the formats' own range rules (XQF keeps 1-12 and 1-31 only) stay with them.
 * Whether an all-unknown date is written at all is the caller's rule.
 */
static inline void gamedb__pgn_date(char out[11], uint32_t year, uint32_t month, uint32_t day)
{
	/* By hand rather than printf: SCID and ChessBase write one for every game listed. */
	memcpy(out, "????.??.??", 11);
	if (year) {
		if (year > 9999)
			year = 9999;
		out[0] = (char)('0' + year / 1000);
		out[1] = (char)('0' + year / 100 % 10);
		out[2] = (char)('0' + year / 10 % 10);
		out[3] = (char)('0' + year % 10);
	}
	if (month && month <= 99) {
		out[5] = (char)('0' + month / 10);
		out[6] = (char)('0' + month % 10);
	}
	if (day && day <= 99) {
		out[8] = (char)('0' + day / 10);
		out[9] = (char)('0' + day % 10);
	}
}

/* ---- the stack of lines (variations) ------------------------------------------------------- */

/*
 * A stack of records of one size (a decoder's own struct: a position, piece slots, a node id),
 * grown on demand and kept between games, with a bound on its height. Record i is at
 * (char *)v + i * size; records are contiguous, so the one below the top record t is t - 1 in
 * the decoder's own type. Pointers into the stack stay valid until the next push.
 *
 * For variations: record 0 is the main line, record k the k-th variation opened inside it and
 * still open; gamedb__var_begin() and gamedb__var_end() push and pop a record and write
 * VARIATION_BEGIN or VARIATION_END into the move buffer, both or neither.
 */
struct gamedb__stack {
	void *v;
	size_t size; /* bytes of one record */
	size_t n;    /* records in use */
	size_t cap;  /* records allocated */
	size_t max;  /* records at most (SIZE_MAX: only memory bounds it) */
};

static inline void gamedb__stack_init(struct gamedb__stack *st, size_t size, size_t max)
{
	st->v = NULL;
	st->size = size;
	st->n = st->cap = 0;
	st->max = max;
}

/* Empties the stack (keeps its memory). */
static inline void gamedb__stack_clear(struct gamedb__stack *st)
{
	st->n = 0;
}

static inline void gamedb__stack_free(struct gamedb__stack *st)
{
	free(st->v);
	st->v = NULL;
	st->n = st->cap = 0;
}

/* 1 if a push would exceed the bound. */
static inline int gamedb__stack_full(const struct gamedb__stack *st)
{
	return st->n >= st->max;
}

/* The top record, or NULL when the stack is empty. */
static inline void *gamedb__stack_top(const struct gamedb__stack *st)
{
	return st->n ? (char *)st->v + (st->n - 1) * st->size : NULL;
}

void *gamedb__stack_grow_push(struct gamedb__stack *st);

/*
 * A new top record (its bytes undefined), or NULL when out of memory or the stack is full
 * (gamedb__stack_full() tells which).
 */
static inline void *gamedb__stack_push(struct gamedb__stack *st)
{
	if (st->n < st->cap && st->n < st->max)
		return (char *)st->v + st->n++ * st->size;
	return gamedb__stack_grow_push(st);
}

/* Removes the top record and returns it (valid until the next push); NULL when empty. */
static inline void *gamedb__stack_pop(struct gamedb__stack *st)
{
	return st->n ? (char *)st->v + --st->n * st->size : NULL;
}

/* Variations open: records above the main line's. */
static inline size_t gamedb__var_depth(const struct gamedb__stack *st)
{
	return st->n ? st->n - 1 : 0;
}

/*
 * Opens a variation: pushes a record (its bytes undefined; the line it leaves is the record
 * below it) and writes VARIATION_BEGIN. The new record, or NULL with nothing done when out of
 * memory or the stack is full (gamedb__stack_full() tells which).
 */
void *gamedb__var_begin(struct gamedb__stack *st, struct gamedb__movebuf *mb);

/*
 * Closes the innermost variation: pops its record and writes VARIATION_END. The record of the
 * line it returns to, or NULL with nothing done when no variation is open or out of memory.
 */
void *gamedb__var_end(struct gamedb__stack *st, struct gamedb__movebuf *mb);

/*
 * After a failed decode: writes VARIATION_END for each variation mb leaves open, so that the
 * legal part stays a well-formed stream. Reads the buffer, not a stack, so it holds whatever
 * the decoder dropped from the buffer since. 0, or -1 when out of memory.
 */
int gamedb__var_close_open(struct gamedb__movebuf *mb);

/*
 * Adds the xiangqi move m, played from `before`, with its WXF, move number and colour (XQF,
 * CCBridge), so that the iterator need not play it again. 0, or -1 when out of memory.
 */
int gamedb__xq_add_move(struct gamedb__movebuf *mb, const struct gamedb__xqpos *before,
			const struct gamedb__move *m);

/*
 * A xiangqi game as a tree of moves, as XQF and CCBridge store it: node 0 is the start (no
 * move), a node's first child the move that follows it on its line (the main line: the first
 * children from the root), its siblings the alternatives to it. The format reads its records
 * into these nodes; gamedb__xq_walk_tree() writes them out.
 */
#define GAMEDB__XQ_NONE UINT32_MAX
struct gamedb__xq_node {
	uint32_t off;   /* where the record is stored (for messages; the format's own offset) */
	uint32_t child; /* first child: the next move, or GAMEDB__XQ_NONE */
	uint32_t sib;   /* next sibling: an alternative to this move, or GAMEDB__XQ_NONE */
	uint32_t com;   /* where its comment's bytes are (the format's own offset) */
	uint32_t clen;  /* their length (0: none) */
	uint8_t from;   /* the squares as stored, in the format's numbering (struct */
	uint8_t to;     /* gamedb__xq_walk's square() turns them into the board's) */
	uint8_t main;   /* on the main line */
	uint8_t reserved;
};
/* A record not yet read: the next child of parent, after the sibling prev (GAMEDB__XQ_NONE:
 * its first child). The records come in pre-order; the format keeps these on a stack. */
struct gamedb__xq_pending {
	uint32_t parent;
	uint32_t prev;
};
/* Pushes the promise of a record onto pend (struct gamedb__xq_pending): 0, or -1. */
static inline int gamedb__xq_promise(struct gamedb__stack *pend, uint32_t parent, uint32_t prev)
{
	struct gamedb__xq_pending *top = gamedb__stack_push(pend);

	if (!top)
		return -1;
	top->parent = parent;
	top->prev = prev;
	return 0;
}
/*
 * Node id, read where pd promised it, linked into the tree: its parent's first child, or
 * prev's next sibling; on the main line when its parent is and it is a first child. Then
 * what its record promises goes onto pend: the alternative first (it comes after the whole
 * subtree of the continuation), then the continuation. 0, or -1 when out of memory.
 */
int gamedb__xq_link(struct gamedb__xq_node *nodes, const struct gamedb__xq_pending *pd,
		    uint32_t id, int has_child, int has_sib, struct gamedb__stack *pend);
/*
 * Whether the bytes from p to len of a record, after the tree ended with no record promised
 * missing, hold more than zero padding: records no child or sibling flag leads to (a damaged
 * flag), which the format says it does not read. No real file has any.
 */
static inline int gamedb__xq_unread_after(const uint8_t *b, size_t p, size_t len)
{
	while (p < len && b[p] == 0)
		p++;
	return p < len;
}
/* A line being written (gamedb__xq_walk_tree(); the frames' stack holds these). */
struct gamedb__xq_frame {
	struct gamedb__xqpos pos;    /* after the last move of the line */
	struct gamedb__xqpos before; /* before it: where its alternatives start */
	uint32_t node;               /* the last move's node (the root at the start) */
	uint32_t alt;                /* the next alternative to that move still to write, or NONE */
};
/* What gamedb__xq_walk_tree() needs of the format: its nodes, its stack of frames (struct
 * gamedb__xq_frame), its squares, and what it says and writes besides the moves. */
struct gamedb__xq_walk {
	const struct gamedb__xq_node *nodes;
	struct gamedb__stack *frames;
	int (*square)(unsigned v); /* a stored square as the board's (0-89), -1 if none */
	/* A move of node that is not legal from pos (why): status GAMEDB_WARN, the variation from
	 * there is left out; GAMEDB_FAILED, on the main line, the game stops there. */
	void (*bad_move)(void *ctx, int32_t status, const struct gamedb__xqpos *pos,
			 const struct gamedb__xq_node *nd, const char *why);
	/* The variation that starts at node nd is nested too deep for the frames: left out. */
	void (*too_deep)(void *ctx, const struct gamedb__xq_node *nd);
	/* Node nd's comment written after its move: 0, or -1 when out of memory. */
	int (*comment)(void *ctx, const struct gamedb__xq_node *nd);
	void *ctx;
};
/*
 * The tree of w->nodes from its root into mb in reading order, from start (the root's comment
 * is the caller's): each move played by the board engine (gamedb__xq_move_try()), the first
 * legal child of a node continuing its line and each other legal one a variation after it.
 * An illegal move leaves its variation out (w->bad_move(), GAMEDB_WARN) or, on the main line,
 * ends the game there (GAMEDB_FAILED). 0, or -1 when out of memory (mb may have variations
 * open: the caller's failure path closes them, gamedb__var_close_open(), as for any failure).
 */
int gamedb__xq_walk_tree(const struct gamedb__xq_walk *w, const struct gamedb__xqpos *start,
			 struct gamedb__movebuf *mb);

#endif /* GAMEDB_FORMATS_TOOLKIT_H */
