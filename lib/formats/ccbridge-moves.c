/*
 * libgamedb - the CCBridge move stream (format-ccbridge.c reads the rest; facts in
 * doc/formats/ccbridge.md). From offset 2214 of a record: 4-byte move records in pre-order,
 * byte 0 flags (0x01 the line ends after this move, 0x02 an alternative to this move follows
 * this move's subtree, 0x04 a comment follows), byte 1 unused, bytes 2 and 3 the from and to
 * board indexes; a comment is a 4-byte length in bytes and that much UTF-16LE text. The first
 * record is the root: its squares mean nothing; its 0x01 says the game has no move at all (a
 * section heading in a library), its comment is the one before the first move.
 *
 * The stream has no pointers, so it cannot loop: every record takes at least 4 of the record's
 * bytes, which bounds the tree. As in the XQF reader, the tree is parsed with an explicit stack
 * into nodes, then written out in PGN's order with a second stack of lines.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ccbridge.h"

struct crec {
	uint8_t flags, from, to;
	uint32_t com, clen;
	size_t next; /* offset after the record */
};

/* The record at offset p of the game's bytes. 0; -1 with *why when they end inside it. */
static int read_record(const struct ccb *s, size_t p, struct crec *rc, const char **why)
{
	const uint8_t *b;
	uint64_t clen;

	if (p > s->rec_len || s->rec_len - p < 4) {
		*why = "the record ends inside a move";
		return -1;
	}
	b = s->rec + p;
	rc->flags = b[0];
	rc->from = b[2];
	rc->to = b[3];
	rc->com = (uint32_t)(p + 4);
	rc->clen = 0;
	if (rc->flags & 4) {
		if (s->rec_len - p < 8) {
			*why = "the record ends inside a comment length";
			return -1;
		}
		clen = gamedb__le32(b + 4);
		rc->com += 4;
		if (clen > s->rec_len - p - 8) {
			*why = "a comment longer than the rest of the record";
			return -1;
		}
		rc->clen = (uint32_t)clen;
	}
	rc->next = (size_t)rc->com + rc->clen;
	return 0;
}

void gamedb__ccb_problem(struct ccb_problems *pb, struct gamedb_game *g, int32_t status,
			 const char *fmt, ...)
{
	va_list ap;

	if (status >= pb->status && pb->status != GAMEDB_OK) {
		pb->more++;
		return;
	}
	if (pb->status != GAMEDB_OK)
		pb->more++;
	pb->status = status;
	va_start(ap, fmt);
	vsnprintf(g->errmsg, sizeof g->errmsg, fmt, ap);
	va_end(ap);
}

/* A node at record offset p with rc's contents. 0, or -1 out of memory. */
static int new_node(struct ccb *s, size_t *n, size_t p, const struct crec *rc, uint32_t *id)
{
	struct gamedb__xq_node *nd;

	if (*n >= UINT32_MAX - 1 ||
	    gamedb__grow((void **)&s->nodes, &s->nodes_cap, *n + 1, sizeof *s->nodes) != 0)
		return -1;
	*id = (uint32_t)(*n)++;
	nd = &s->nodes[*id];
	memset(nd, 0, sizeof *nd);
	nd->off = (uint32_t)p;
	nd->child = nd->sib = CCB_NONE;
	nd->com = rc->com;
	nd->clen = rc->clen;
	nd->from = rc->from;
	nd->to = rc->to;
	return 0;
}

/* Reads the tree into s->nodes (node 0 the root). Returns the node count, 0 out of memory. */
static size_t parse_tree(struct ccb *s, struct gamedb_game *g, struct ccb_problems *pb)
{
	size_t n = 0, p;
	struct crec rc;
	struct gamedb__xq_pending *top;
	const char *why = NULL;
	uint32_t id;

	if (read_record(s, CCB_REC_MOVES, &rc, &why) != 0) {
		/* The start record itself is cut: no move can be found after it. */
		gamedb__ccb_problem(pb, g, GAMEDB_FAILED, "%s: offset %llu: game %llu: the start record: %s",
				    s->f->name, (unsigned long long)(s->rec_off + CCB_REC_MOVES),
				    (unsigned long long)g->index + 1, why);
		memset(&rc, 0, sizeof rc);
		rc.flags = 1;
		return new_node(s, &n, CCB_REC_MOVES, &rc, &id) == 0 ? n : 0;
	}
	if (new_node(s, &n, CCB_REC_MOVES, &rc, &id) != 0)
		return 0;
	s->nodes[0].main = 1;
	p = rc.next;
	gamedb__stack_clear(&s->pend);
	if (!(rc.flags & 1) && gamedb__xq_promise(&s->pend, 0, CCB_NONE) != 0)
		return 0;
	/* Pre-order: a move, then its continuation's subtree, then its alternative's. */
	while ((top = gamedb__stack_pop(&s->pend)) != NULL) {
		const struct gamedb__xq_pending pd = *top;
		struct gamedb__xq_node *par = &s->nodes[pd.parent];

		if (read_record(s, p, &rc, &why) != 0) {
			const int on_main = par->main && pd.prev == CCB_NONE;
			const uint32_t of = pd.prev == CCB_NONE ? par->off : s->nodes[pd.prev].off;
			gamedb__ccb_problem(pb, g, on_main ? GAMEDB_FAILED : GAMEDB_WARN,
					    "%s: offset %llu: game %llu: the %s promised by the move record at offset %llu is missing: %s",
					    s->f->name, (unsigned long long)(s->rec_off + p),
					    (unsigned long long)g->index + 1,
					    pd.prev == CCB_NONE ? "next move" : "alternative move",
					    (unsigned long long)(s->rec_off + of), why);
			break;
		}
		if (new_node(s, &n, p, &rc, &id) != 0)
			return 0;
		p = rc.next;
		/* Flag 1: the line ends after this move; flag 2: an alternative to it follows. */
		if (gamedb__xq_link(s->nodes, &pd, id, !(rc.flags & 1), (rc.flags & 2) != 0,
				    &s->pend) != 0)
			return 0;
	}
	/* The tree ended before the bytes the index gives the record: said, not read. */
	if (!top && gamedb__xq_unread_after(s->rec, p, s->rec_len))
		gamedb__ccb_problem(pb, g, GAMEDB_WARN,
				    "%s: offset %llu: game %llu: %llu bytes after the end of the move tree are not read",
				    s->f->name, (unsigned long long)(s->rec_off + p),
				    (unsigned long long)g->index + 1, (unsigned long long)(s->rec_len - p));
	return n;
}

/* Adds a node's comment: its UTF-8 text, then the stored bytes. 0, or -1 out of memory. */
static int add_comment(struct ccb *s, struct gamedb_game *g, struct gamedb__movebuf *mb,
		       const struct gamedb__xq_node *nd, int type, struct ccb_problems *tp)
{
	const uint8_t *raw = s->rec + nd->com;
	size_t off = mb->text.len;
	const char *note;
	int32_t rc;

	if (nd->clen == 0)
		return 0;
	if (off > UINT32_MAX / 2)
		return -1;
	rc = gamedb__ccb_text(s, raw, nd->clen, &mb->text, &note);
	if (rc == GAMEDB_FAILED)
		return -1;
	if (rc == GAMEDB_WARN)
		gamedb__ccb_problem(tp, g, GAMEDB_WARN, "%s: offset %llu: game %llu: a comment: %s",
				    s->f->name, (unsigned long long)(s->rec_off + nd->com),
				    (unsigned long long)g->index + 1, note ? note : "text replaced");
	gamedb__tidy_comment(&mb->text, off);
	if (mb->text.len == off)
		return 0;
	if (gamedb__mb_text_end(mb, type, off) != 0 ||
	    gamedb__mb_raw(mb, (const char *)raw, nd->clen) != 0)
		return -1;
	return 0;
}

static void square_name(uint8_t v, char out[4])
{
	if (v > 89) {
		snprintf(out, 4, "%u", v);
		return;
	}
	out[0] = (char)('a' + v % 9);
	out[1] = (char)('0' + 9 - v / 9);
	out[2] = 0;
}

/* What gamedb__xq_walk_tree() calls back with: the base, the game and its problems. */
struct ccb_walk {
	struct ccb *s;
	struct gamedb_game *g;
	struct gamedb__movebuf *mb;
	struct ccb_problems *pb;
};

static void bad_move(void *ctx, int32_t status, const struct gamedb__xqpos *pos,
		     const struct gamedb__xq_node *nd, const char *why)
{
	const struct ccb_walk *w = ctx;
	struct ccb *s = w->s;
	struct gamedb_game *g = w->g;
	char a[4], b[4];

	square_name(nd->from, a);
	square_name(nd->to, b);
	gamedb__ccb_problem(w->pb, g, status, "%s: offset %llu: game %llu: move %u%s %s%s: %s%s",
			    s->f->name, (unsigned long long)(s->rec_off + nd->off),
			    (unsigned long long)g->index + 1, (unsigned)pos->fullmove,
			    pos->stm ? "..." : ".", a, b, why,
			    status == GAMEDB_FAILED ? "" : " (the variation from there is left out)");
}

static void walk_too_deep(void *ctx, const struct gamedb__xq_node *nd)
{
	struct ccb_walk *w = ctx;

	gamedb__ccb_problem(w->pb, w->g, GAMEDB_WARN,
			    "%s: offset %llu: game %llu: variations nested deeper than %u are left out",
			    w->s->f->name, (unsigned long long)(w->s->rec_off + nd->off),
			    (unsigned long long)w->g->index + 1, CCB_MAX_DEPTH);
}

static int walk_comment(void *ctx, const struct gamedb__xq_node *nd)
{
	struct ccb_walk *w = ctx;

	return add_comment(w->s, w->g, w->mb, nd, GAMEDB_EVENT_COMMENT_AFTER, w->pb);
}

int32_t gamedb__ccb_decode(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb)
{
	struct ccb *s = state;
	struct ccb_problems pb = { GAMEDB_OK, 0 };
	struct ccb_walk cw = { s, g, mb, &pb };
	struct gamedb__xq_walk w = { NULL,          &s->frames,   gamedb__ccb_square, bad_move,
				     walk_too_deep, walk_comment, &cw };

	if (!s->have_rec || !g->have_start) {
		gamedb__game_seterr(g, "%s: offset %llu: game %llu: the start board is not a playable position: %s",
				    s->f->name, (unsigned long long)(s->rec_off + CCB_REC_BOARD),
				    (unsigned long long)g->index + 1, s->table_why ? s->table_why : "");
		return GAMEDB_FAILED;
	}
	if (parse_tree(s, g, &pb) == 0)
		goto nomem;
	if (add_comment(s, g, mb, &s->nodes[0], GAMEDB_EVENT_COMMENT_BEFORE, &pb) != 0)
		goto nomem;
	w.nodes = s->nodes; /* as parse_tree() left them (it may move them) */
	if (gamedb__xq_walk_tree(&w, &g->xqstart, mb) != 0)
		goto nomem;
	if (pb.more) {
		size_t len = strlen(g->errmsg);
		snprintf(g->errmsg + len, sizeof g->errmsg - len, " (and %u more problem%s)", pb.more,
			 pb.more == 1 ? "" : "s");
	}
	return pb.status;
nomem:
	gamedb__game_seterr(g, "%s: out of memory decoding the moves", s->f->name);
	gamedb__var_close_open(mb);
	return GAMEDB_FAILED;
}
