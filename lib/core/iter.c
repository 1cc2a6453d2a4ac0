/*
 * libgamedb - the move iterator and its events.
 *
 * A decoded game is a flat list of nodes (moves already checked legal by the format's decoder
 * through the board engine). A move node carries its SAN, move number and colour, put there by
 * the decoder that played it, so the iterator hands moves out without playing them again (or
 * its number and colour only: GAMEDB__NODE_NUM, a decoder told that no SAN is wanted). Only
 * what needs the position (FEN, key, Chinese notation, the SAN of a node that lacks it) makes
 * the iterator replay the nodes on a stack of positions, one level per open variation, up to
 * the current event, and only when asked: catch_up().
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"

#define GAMEDB__ITER_MAGIC 0x49544552u /* "ITER" */

struct gamedb_event {
	const struct gamedb__node *nd;
	struct gamedb_move_iter *it;
	int32_t depth;
	const char *text; /* the result's text (the end's event; other events' are their node's) */
};

struct level {
	union gamedb__anypos cur;  /* position after the last move of this line */
	union gamedb__anypos prev; /* position before it */
};

struct gamedb_move_iter {
	uint32_t magic;
	uint32_t flags;
	struct gamedb_game *g;
	size_t i;
	/*
	 * &g->mb.nodes[i], kept as the steps go: the next step's node is then one load from the
	 * iterator, not three (the game, its nodes, the place), on the path every event waits on.
	 */
	const struct gamedb__node *next;
	int result_done;
	struct level *stack;   /* stack0, or the heap once variations nest deeper */
	size_t depth;          /* of the current event's line */
	size_t cap;
	size_t sync;           /* nodes before this one are played on the stack (catch_up()) */
	size_t pdepth;         /* the stack's top level, as of node `sync` */
	/*
	 * No allocation for the stack in the usual game (variations nest once or twice at most);
	 * small, so that the iterator itself comes from the allocator's fast per-size caches.
	 */
	struct level stack0[2];
	struct gamedb_event ev;
	int32_t variant;
	char san[16];   /* SAN (at most GAMEDB__SAN_MAX), or for xiangqi WXF (4 characters) */
	char uci[8];    /* UCI, or for xiangqi ICCS */
	char other[40]; /* the last other notation asked for */
	char fen[128];
	/*
	 * Which event the strings above were made for: the iterator's place (i) then (0: none;
	 * the current event's node is always nodes[i - 1], and a game has fewer than 2^32
	 * nodes). A step resets nothing: the getters compare.
	 */
	uint32_t san_at, uci_at, fen_at;
};

/*
 * Kept under 1032 bytes, glibc's largest size served from its per-thread cache (tcache): above
 * it every iterator (one per game converted) costs a slower malloc and free.
 */
_Static_assert(sizeof(struct gamedb_move_iter) <= 1032, "move iterator outgrew the malloc fast path");

GAMEDB_EXPORT int32_t gamedb_move_iter_new(struct gamedb_game *g, uint32_t flags,
					   struct gamedb_move_iter **out)
{
	struct gamedb_move_iter *it;
	const char *why = NULL;
	int32_t st;

	if (out)
		*out = NULL;
	if (!g || g->magic != GAMEDB__GAME_MAGIC || !out)
		return GAMEDB_FAILED;
	st = gamedb__game_decode(g);
	if (st == GAMEDB_FAILED && !(flags & GAMEDB_ITER_PARTIAL))
		return GAMEDB_FAILED;
	/* Not calloc: the position stack is large and only its first level is used at once. */
	it = malloc(sizeof *it);
	if (!it)
		return GAMEDB_FAILED;
	it->i = 0;
	it->next = g->mb.nodes;
	it->result_done = 0;
	it->depth = 0;
	it->sync = 0;
	it->pdepth = 0;
	it->san_at = it->uci_at = it->fen_at = 0;
	memset(&it->ev, 0, sizeof it->ev);
	it->variant = g->variant;
	it->cap = sizeof it->stack0 / sizeof it->stack0[0];
	it->stack = it->stack0;
	if (gamedb__game_start_pos(g, &it->stack[0].cur, &why) != 0) {
		/* A failed decode already said why, naming file and offset: keep that. */
		if (st != GAMEDB_FAILED)
			gamedb__game_seterr(g, "game %llu: bad start position \"%s\": %s",
					    (unsigned long long)g->index + 1, g->fen, why ? why : "");
		free(it);
		return GAMEDB_FAILED;
	}
	it->stack[0].prev = it->stack[0].cur;
	it->magic = GAMEDB__ITER_MAGIC;
	it->flags = flags;
	it->g = g;
	it->ev.it = it;
	*out = it;
	return st == GAMEDB_FAILED ? GAMEDB_WARN : GAMEDB_OK;
}

GAMEDB_EXPORT void gamedb_move_iter_free(struct gamedb_move_iter *it)
{
	if (!it || it->magic != GAMEDB__ITER_MAGIC)
		return;
	it->magic = 0;
	if (it->stack != it->stack0)
		free(it->stack);
	free(it);
}

/* Skips from a VARIATION_BEGIN at node i to just past its VARIATION_END. */
static size_t skip_variation(const struct gamedb__movebuf *mb, size_t i)
{
	size_t depth = 0;

	for (; i < mb->n; i++) {
		if (mb->nodes[i].type == GAMEDB_EVENT_VARIATION_BEGIN)
			depth++;
		else if (mb->nodes[i].type == GAMEDB_EVENT_VARIATION_END && --depth == 0)
			return i + 1;
	}
	return i;
}

/*
 * Plays the nodes up to the current event (it->i - 1) on the position stack, from where the
 * last call left off: then stack[it->depth] holds the position before (prev) and after (cur)
 * the current move. The stack has room: the iterator grew it for every variation it opened
 * (variations it skipped are skipped here too, and leave the positions of their line as they
 * were).
 */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void catch_up(struct gamedb_move_iter *it)
{
	const struct gamedb__movebuf *mb = &it->g->mb;

	while (it->sync < it->i) {
		const struct gamedb__node *nd = &mb->nodes[it->sync];
		struct level *lv = &it->stack[it->pdepth];
		switch (nd->type) {
		case GAMEDB_EVENT_MOVE:
			if (it->variant != GAMEDB_VARIANT_XIANGQI)
				gamedb__node_hand(mb, nd, &lv->cur.c); /* bughouse: hands from outside */
			lv->prev = lv->cur;
			gamedb__any_make(it->variant, &lv->cur, &nd->m);
			break;
		case GAMEDB_EVENT_VARIATION_BEGIN:
			if (it->flags & GAMEDB_ITER_MAINLINE_ONLY) {
				it->sync = skip_variation(mb, it->sync);
				continue;
			}
			/* The variation replaces the move just played on the enclosing line. */
			lv[1].cur = lv[1].prev = lv->prev;
			it->pdepth++;
			break;
		case GAMEDB_EVENT_VARIATION_END:
			if (it->pdepth > 0)
				it->pdepth--;
			break;
		default:
			break;
		}
		it->sync++;
	}
}

/*
 * Twice the room on the position stack; 0, or -1 if out of memory. Out of line: rare, and it
 * would cost gamedb_move_iter_next() registers on every call.
 */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static int grow_stack(struct gamedb_move_iter *it)
{
	return gamedb__grow_fixed((void **)&it->stack, &it->cap, it->cap + 1, sizeof *it->stack,
				  it->stack0);
}

/* The level of the current move, its positions played (see catch_up()). */
static struct level *current(struct gamedb_move_iter *it)
{
	catch_up(it);
	return &it->stack[it->pdepth];
}

/*
 * Makes nd, the node at the iterator's place, its current event: the event is the node (what
 * a getter asks is read from there) and its depth. A variation's start opens a level and
 * reports the depth it opens, its end closes one and reports the depth it closes; computed,
 * not branched on (the nodes of a game mix moves, texts and variations). begin: whether nd
 * starts a variation (the caller has asked, to see that the stack has room for its level).
 */
static inline void take_node(struct gamedb_move_iter *it, const struct gamedb__node *nd,
			     size_t begin)
{
	const size_t depth = it->depth, end = nd->type == GAMEDB_EVENT_VARIATION_END;

	it->depth = depth + begin - (end & (depth > 0));
	it->i++;
	it->next = nd + 1;
	it->ev.nd = nd;
	it->ev.depth = (int32_t)(it->depth + end);
}

/*
 * gamedb_move_iter_next() but for its fast path: the end, the flags that skip nodes, a
 * variation with no room left on the position stack. Out of line, so that the fast path
 * keeps few registers to save.
 */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int32_t next_slow(struct gamedb_move_iter *it, const struct gamedb_event **out)
{
	const struct gamedb__movebuf *mb;
	const struct gamedb__node *nd;
	struct gamedb_event *ev;

	if (out)
		*out = NULL;
	if (!it || it->magic != GAMEDB__ITER_MAGIC || !out)
		return GAMEDB_FAILED;
	mb = &it->g->mb;
	ev = &it->ev;
	for (;;) {
		if (it->i >= mb->n) {
			const char *res;
			if (it->result_done)
				return GAMEDB_END;
			it->result_done = 1;
			res = gamedb_game_get_tag(it->g, "Result");
			ev->nd = NULL;
			ev->depth = 0;
			ev->text = res ? res : "*";
			*out = ev;
			return GAMEDB_OK;
		}
		nd = &mb->nodes[it->i];
		if (nd->type == GAMEDB_EVENT_VARIATION_BEGIN && (it->flags & GAMEDB_ITER_MAINLINE_ONLY)) {
			it->i = skip_variation(mb, it->i);
			it->next = mb->nodes + it->i;
			continue;
		}
		if ((nd->type == GAMEDB_EVENT_COMMENT_BEFORE || nd->type == GAMEDB_EVENT_COMMENT_AFTER) &&
		    (it->flags & GAMEDB_ITER_SKIP_COMMENTS)) {
			it->i++;
			it->next = mb->nodes + it->i;
			continue;
		}
		break;
	}
	/* A variation's positions are set when they are needed (catch_up()): room only. */
	if (nd->type == GAMEDB_EVENT_VARIATION_BEGIN && it->depth + 1 == it->cap &&
	    grow_stack(it) != 0)
		return GAMEDB_FAILED;
	take_node(it, nd, nd->type == GAMEDB_EVENT_VARIATION_BEGIN);
	*out = ev;
	return GAMEDB_OK;
}

/*
 * The iterator passes n nodes from its place on that open or close no line (the writers'
 * runs of moves: gamedb__cursor_next()), the last of them at nd: that is its current event.
 */
static inline void pass_run(struct gamedb_move_iter *it, const struct gamedb__node *nd,
			      size_t n)
{
	struct gamedb_event *ev = &it->ev;

	/* What the getters give is read from the node: nothing more to set. */
	it->i += n;
	it->next = nd + 1;
	ev->nd = nd;
	ev->depth = (int32_t)it->depth;
}

/* Whether it and out are an iterator and a place for its event (else next_slow() says no). */
static inline int iter_valid(const struct gamedb_move_iter *it, const struct gamedb_event **out)
{
	return it && out && it->magic == GAMEDB__ITER_MAGIC;
}

/*
 * gamedb_move_iter_next() on an iterator iter_valid() took, inline here for the writers' step
 * too (gamedb__cursor_next()).
 */
static inline int32_t iter_step(struct gamedb_move_iter *it, const struct gamedb_event **out)
{
	/*
	 * Every node, with no test of its type that could go either way (take_node()); next_slow()
	 * takes the end, the flags that skip nodes, and a variation's start with no room left on
	 * the position stack (it grows it).
	 */
	if (it->i < it->g->mb.n &&
	    !(it->flags & (GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS))) {
		const struct gamedb__node *nd = it->next;
		const size_t begin = nd->type == GAMEDB_EVENT_VARIATION_BEGIN;
		if (it->depth + begin < it->cap) {
			take_node(it, nd, begin);
			*out = &it->ev;
			return GAMEDB_OK;
		}
	}
	return next_slow(it, out);
}

GAMEDB_EXPORT int32_t gamedb_move_iter_next(struct gamedb_move_iter *it,
					    const struct gamedb_event **out)
{
	return iter_valid(it, out) ? iter_step(it, out) : next_slow(it, out);
}

/* The UCI (xiangqi: ICCS) of a move node as gamedb_event_get_uci() gives it; its length. */
static size_t move_uci(const struct gamedb_move_iter *it, const struct gamedb__node *nd, char *buf)
{
	if (it->variant == GAMEDB_VARIANT_XIANGQI)
		return gamedb__xq_move_iccs(&nd->m, buf);
	if ((it->variant == GAMEDB_VARIANT_CHESS960 || (it->flags & GAMEDB_ITER_UCI_KING_TAKES_ROOK)) &&
	    (nd->m.flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) && nd->m.rook_from < 64) {
		/* Castling as UCI_Chess960 engines write it, the king taking its rook: always in
		 * Chess960, on request in standard chess (the engine's UCI does it by itself when
		 * the king stays on its square). */
		struct gamedb__move km = nd->m;
		km.to = km.rook_from;
		return gamedb__move_uci(&km, buf);
	}
	return gamedb__move_uci(&nd->m, buf);
}

/*
 * A run (core/cursor.h) is a view of the nodes: each holds a struct gamedb__ply's bytes from
 * its type on. The layouts must agree field by field.
 */
#define PLY_AT offsetof(struct gamedb__node, type)
_Static_assert(offsetof(struct gamedb__node, kind) - PLY_AT == offsetof(struct gamedb__ply, kind) &&
	       offsetof(struct gamedb__node, aux) - PLY_AT == offsetof(struct gamedb__ply, colour) &&
	       offsetof(struct gamedb__node, san_len) - PLY_AT == offsetof(struct gamedb__ply, san_len) &&
	       offsetof(struct gamedb__node, val) - PLY_AT == offsetof(struct gamedb__ply, num) &&
	       offsetof(struct gamedb__node, san) - PLY_AT == offsetof(struct gamedb__ply, san) &&
	       sizeof(struct gamedb__ply) == offsetof(struct gamedb__node, san) + GAMEDB__SAN_MAX - PLY_AT &&
	       PLY_AT + sizeof(struct gamedb__ply) <= sizeof(struct gamedb__node) &&
	       GAMEDB__PLY_SAN == GAMEDB__SAN_MAX && GAMEDB__PLY_SAN_SET == GAMEDB__NODE_SAN,
	       "a ply is not a node's view");

/*
 * The writers' step (core/cursor.h): a run of the plain nodes from the iterator's place on,
 * which the writer passes (gamedb__cursor_pass(): pass_run(), as gamedb_move_iter_next()
 * passes each) once it has written them, else the next event as gamedb_move_iter_next()
 * gives it. A writer formats a run of moves in one loop, with no call and no event per move,
 * and never sees a node.
 */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((always_inline)) inline
#endif
int32_t gamedb__cursor_next(struct gamedb_move_iter *it, unsigned what, struct gamedb__run *r,
			    const struct gamedb_event **out)
{
	r->n = 0;
	if (!iter_valid(it, out))
		return next_slow(it, out);
	if ((what & GAMEDB__RUN_MOVES) && it->i < it->g->mb.n) {
		const struct gamedb__node *first = &it->g->mb.nodes[it->i];
		/* Only moves with their SAN make a run: one without (GAMEDB__NODE_NUM, a game
		 * decoded for a caller that asked none) ends it (gamedb__ply_plain()) and comes
		 * as an event, its SAN made on demand (gamedb__event_san()). */
		if (first->type == GAMEDB_EVENT_MOVE && first->kind == GAMEDB__NODE_SAN) {
			r->at = (const unsigned char *)first + PLY_AT;
			r->n = it->g->mb.n - it->i;
			r->stride = sizeof *first;
			r->first = it->i;
			r->what = what;
			r->depth = (int32_t)it->depth; /* as pass_run() sets it */
			*out = NULL;
			return GAMEDB_OK;
		}
	}
	return iter_step(it, out);
}

void gamedb__cursor_pass(struct gamedb_move_iter *it, const struct gamedb__run *r, size_t k)
{
	/* Only the run the last step gave, from where it starts, within it. */
	if (k == 0 || k > r->n || r->first != it->i)
		return;
	pass_run(it, &it->g->mb.nodes[r->first + k - 1], k);
}

size_t gamedb__cursor_uci(const struct gamedb_move_iter *it, const struct gamedb__run *r,
			  size_t k, char *buf)
{
	/* The node whose bytes item k is (a run is a view of the nodes from PLY_AT on). */
	return move_uci(it, (const struct gamedb__node *)(const void *)(r->at + k * r->stride - PLY_AT),
			buf);
}

/*
 * A move node's squares, promotion and piece as the public getters give them: a drop comes
 * from no square (-1), a null move moves no piece (0). gamedb_event_get_move(),
 * gamedb_event_get_piece() and the writers' runs (gamedb__cursor_move()) read them here.
 */
static inline struct gamedb__run_move node_move(const struct gamedb__node *nd)
{
	struct gamedb__run_move m;

	m.from = nd->m.from == GAMEDB__NO_SQ ? -1 : nd->m.from;
	m.to = nd->m.to;
	m.promo = nd->m.promo;
	m.piece = nd->m.flags & GAMEDB__MF_NULL ? 0 : nd->m.piece;
	return m;
}

void gamedb__cursor_move(const struct gamedb__run *r, size_t k, struct gamedb__run_move *m)
{
	*m = node_move((const struct gamedb__node *)(const void *)(r->at + k * r->stride - PLY_AT));
}

GAMEDB_EXPORT int32_t gamedb_event_get_type(const struct gamedb_event *ev)
{
	if (!ev)
		return 0;
	return ev->nd ? ev->nd->type : GAMEDB_EVENT_RESULT;
}

static int is_move(const struct gamedb_event *ev)
{
	return ev && ev->nd && ev->nd->type == GAMEDB_EVENT_MOVE;
}

GAMEDB_EXPORT int32_t gamedb_event_get_move(const struct gamedb_event *ev, int32_t *from,
					    int32_t *to, int32_t *promo)
{
	struct gamedb__run_move m;

	if (!is_move(ev))
		return GAMEDB_FAILED;
	/* Read first: the build does not let the compiler assume that the stores below leave
	 * the node alone (-fno-strict-aliasing), so it would load it again for each. */
	m = node_move(ev->nd);
	if (from)
		*from = m.from;
	if (to)
		*to = m.to;
	if (promo)
		*promo = m.promo;
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_event_get_piece(const struct gamedb_event *ev)
{
	return is_move(ev) ? node_move(ev->nd).piece : 0;
}

GAMEDB_EXPORT const char *gamedb_event_get_san(const struct gamedb_event *ev)
{
	struct gamedb_move_iter *it;

	if (!is_move(ev))
		return NULL;
	if (ev->nd->kind == GAMEDB__NODE_SAN)
		return ev->nd->san;
	it = ev->it;
	if (it->san_at != (uint32_t)it->i) {
		const struct level *lv = current(it);
		/* Decoded without SAN for a caller that asked none: the next games get it from
		 * their decoder (gamedb__game_want_san()), this one from the replay. */
		if (ev->nd->kind == GAMEDB__NODE_NUM)
			gamedb__game_want_san(it->g);
		if (it->variant == GAMEDB_VARIANT_XIANGQI)
			gamedb__xq_move_wxf(&lv->prev.x, &ev->nd->m, it->san);
		else
			gamedb__move_san(&lv->prev.c, &ev->nd->m, it->san);
		it->san_at = (uint32_t)it->i;
	}
	return it->san;
}

/* gamedb__event_san() of a node without its SAN: kept out of line, so the usual case is short. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static const char *event_san_slow(const struct gamedb_event *ev, size_t *len)
{
	const char *san = gamedb_event_get_san(ev);

	*len = san ? strlen(san) : 0;
	return san;
}

const char *gamedb__event_san(const struct gamedb_event *ev, size_t *len)
{
	if (ev && ev->nd && ev->nd->type == GAMEDB_EVENT_MOVE &&
	    ev->nd->kind == GAMEDB__NODE_SAN) {
		*len = ev->nd->san_len;
		return ev->nd->san;
	}
	return event_san_slow(ev, len);
}

GAMEDB_EXPORT const char *gamedb_event_get_uci(const struct gamedb_event *ev)
{
	struct gamedb_move_iter *it;

	if (!is_move(ev))
		return NULL;
	it = ev->it;
	if (it->uci_at != (uint32_t)it->i) {
		move_uci(it, ev->nd, it->uci);
		it->uci_at = (uint32_t)it->i;
	}
	return it->uci;
}

GAMEDB_EXPORT const char *gamedb_event_get_fen(const struct gamedb_event *ev)
{
	struct gamedb_move_iter *it;

	if (!is_move(ev) || !(ev->it->flags & GAMEDB_ITER_FEN))
		return NULL;
	it = ev->it;
	if (it->fen_at != (uint32_t)it->i) {
		gamedb__any_to_fen(it->variant, &current(it)->cur, it->fen, sizeof it->fen);
		it->fen_at = (uint32_t)it->i;
	}
	return it->fen;
}

GAMEDB_EXPORT int32_t gamedb_event_get_key(const struct gamedb_event *ev, uint64_t *key)
{
	const union gamedb__anypos *cur;

	if (!is_move(ev) || !key)
		return GAMEDB_FAILED;
	cur = &current(ev->it)->cur;
	*key = ev->it->variant == GAMEDB_VARIANT_XIANGQI ? gamedb__xq_key(&cur->x)
							 : gamedb__pos_key(&cur->c);
	return GAMEDB_OK;
}

GAMEDB_EXPORT const char *gamedb_event_get_notation(const struct gamedb_event *ev,
						    int32_t notation)
{
	struct gamedb_move_iter *it;

	if (!is_move(ev))
		return NULL;
	it = ev->it;
	switch (notation) {
	case GAMEDB_NOTATION_SAN:
		return gamedb_event_get_san(ev);
	case GAMEDB_NOTATION_UCI:
	case GAMEDB_NOTATION_ICCS:
		return gamedb_event_get_uci(ev);
	case GAMEDB_NOTATION_WXF:
		return it->variant == GAMEDB_VARIANT_XIANGQI ? gamedb_event_get_san(ev) : NULL;
	case GAMEDB_NOTATION_CHINESE:
		if (it->variant != GAMEDB_VARIANT_XIANGQI)
			return NULL;
		gamedb__xq_move_chinese(&current(it)->prev.x, &ev->nd->m, it->other);
		return it->other;
	default:
		return NULL;
	}
}

GAMEDB_EXPORT int32_t gamedb_event_get_move_number(const struct gamedb_event *ev,
						   int32_t *colour)
{
	const struct level *lv;

	if (colour)
		*colour = 0;
	if (!is_move(ev))
		return 0;
	if (ev->nd->kind == GAMEDB__NODE_SAN || ev->nd->kind == GAMEDB__NODE_NUM) {
		/* The node's own. */
		if (colour)
			*colour = ev->nd->aux;
		return (int32_t)ev->nd->val;
	}
	/* Else the position before the move, played when first asked for (catch_up()). */
	lv = current(ev->it);
	if (ev->it->variant == GAMEDB_VARIANT_XIANGQI) {
		if (colour)
			*colour = lv->prev.x.stm;
		return (int32_t)lv->prev.x.fullmove;
	}
	if (colour)
		*colour = lv->prev.c.stm;
	return (int32_t)lv->prev.c.fullmove;
}

GAMEDB_EXPORT int32_t gamedb_event_get_depth(const struct gamedb_event *ev)
{
	return ev ? ev->depth : 0;
}

/*
 * The text of an event: a node's in the text pool, for the types that have one (the iterator
 * sets no field for it); the end's, the result, in ev->text.
 */
#define TEXT_TYPES                                                                                 \
	(1u << GAMEDB_EVENT_COMMENT_BEFORE | 1u << GAMEDB_EVENT_COMMENT_AFTER |                    \
	 1u << GAMEDB_EVENT_CLOCK | 1u << GAMEDB_EVENT_COMMAND | 1u << GAMEDB_EVENT_ANNOTATION)
static inline const char *event_text(const struct gamedb_event *ev)
{
	if (!ev->nd)
		return ev->text;
	return (TEXT_TYPES >> (ev->nd->type & 31) & 1) ? ev->it->g->mb.text.p + ev->nd->val : NULL;
}

GAMEDB_EXPORT const char *gamedb_event_get_text(const struct gamedb_event *ev)
{
	return ev ? event_text(ev) : NULL;
}

GAMEDB_EXPORT const char *gamedb_event_get_text_n(const struct gamedb_event *ev, size_t *len)
{
	const char *t = ev ? event_text(ev) : NULL;

	if (len) /* a text node that was added knowing its length keeps it: no scan */
		*len = !t ? 0 : ev->nd && ev->nd->text_size ? ev->nd->text_size - 1 : strlen(t);
	return t;
}

GAMEDB_EXPORT const char *gamedb_event_get_text_raw(const struct gamedb_event *ev, size_t *len)
{
	const char *pool, *raw;

	if (len)
		*len = 0;
	if (!ev || !ev->nd || (ev->nd->type != GAMEDB_EVENT_COMMENT_BEFORE &&
			       ev->nd->type != GAMEDB_EVENT_COMMENT_AFTER &&
			       ev->nd->type != GAMEDB_EVENT_ANNOTATION))
		return NULL;
	pool = ev->it->g->mb.text.p;
	/* Its stored bytes where they are kept apart, else its very text. */
	raw = pool + (ev->nd->kind == GAMEDB__NODE_RAW ? gamedb__node_raw(ev->nd) : ev->nd->val);
	if (len) /* an annotation's bytes may hold NULs: its hex text gives their number */
		*len = ev->nd->type == GAMEDB_EVENT_ANNOTATION ? strlen(pool + ev->nd->val) / 2
							       : strlen(raw);
	return raw;
}

GAMEDB_EXPORT int32_t gamedb_event_get_nag(const struct gamedb_event *ev)
{
	if (!ev || !ev->nd || ev->nd->type != GAMEDB_EVENT_NAG)
		return -1;
	return (int32_t)ev->nd->val;
}

GAMEDB_EXPORT const char *gamedb_event_get_language(const struct gamedb_event *ev)
{
	if (!ev || !ev->nd || (ev->nd->type != GAMEDB_EVENT_COMMENT_BEFORE &&
			       ev->nd->type != GAMEDB_EVENT_COMMENT_AFTER))
		return NULL;
	return gamedb__language_iso(ev->nd->aux);
}

GAMEDB_EXPORT int32_t gamedb_event_get_annotation_type(const struct gamedb_event *ev)
{
	if (!ev || !ev->nd || ev->nd->type != GAMEDB_EVENT_ANNOTATION)
		return -1;
	return ev->nd->aux;
}
