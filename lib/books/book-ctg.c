/*
 * libgamedb - ChessBase's opening books (.ctg, with .ctb and .cto beside it).
 *
 * Facts (the "unofficial CTG specification" of 2007 and the readers that follow it; every one
 * checked here on sshivaji/ctgexporter's simple.ctg and on books written by tests/make-ctg.py):
 * - A position is stored with White to move: a position with Black to move is looked up
 *   mirrored (ranks flipped, colours swapped, castling rights and en-passant square with them);
 *   a position where neither side may castle and the white king stands on files a-d is
 *   mirrored left-right as well. Moves found are mirrored back.
 * - The key is the board coded bit by bit, squares a1, a2, ..., a8, b1, ... h8: an empty square
 *   0, a pawn 11c, a knight 1001c, a bishop 1010c, a rook 1011c, a queen 10001c, a king 10000c
 *   (c: 0 white, 1 black); then at least one 0 bit when there is neither en passant nor
 *   castling, and 0 bits until what follows ends a byte: the en-passant file (3 bits, only when
 *   an en-passant capture is legal) and the castling rights (4 bits: h8 a8 h1 a1). The first
 *   byte is the length in bytes, plus 0x20 with en passant, 0x40 with castling.
 * - The .cto is a hash table (16 bytes of header, then big-endian 4-byte page numbers, -1 for
 *   none); a position's hash (below) gives candidate slots (hash & n) + n for n = 0, 1, 3, 7,
 *   ..., those below the .ctb's lower bound skipped, the list ending at the first not below its
 *   upper bound (.ctb bytes 4-7 and 8-11, big-endian).
 * - The .ctg is 4 KiB pages, page p of the .cto at byte (p + 1) * 4096: 2 bytes positions,
 *   2 bytes bytes used, then entries: the key (its length in its first byte's low 5 bits), a
 *   byte giving the length of the moves (itself included), 2 bytes a move (a code: the moving
 *   piece's kind, its ordinal among its kind counted in the key's square order, and a step
 *   dx, dy taken modulo 8; a pawn reaching the last rank becomes a queen; then an annotation:
 *   0 none, 1 !, 2 ?, 3 !!, 4 ??, 5 !?, 6 ?!, 8 only move), then 33 bytes of statistics:
 *   games, wins, losses, draws (3 bytes each, for the side to move), 4 unknown bytes, rated
 *   games (3) and the sum of their ratings (4), games (3) and the sum of performances (4),
 *   the recommendation (1: 0x40 "do not play", 0x80 "main line"), 1 unknown, 1 commentary.
 *
 * A position's own statistics are given as stored (for its side to move); a move's are those
 * of the position it leads to, seen from the mover's side (that position's losses are the
 * mover's wins). Weight (the Polyglot conversion): 0 for a move
 * annotated ?, ?? or ?!; else 2 per win and 1 per draw of the mover (PolyGlot's own sum), at
 * least 1 (a move whose position has no games, or is not in the book, stays in play), at most
 * 65,535.
 *
 * Hostile files: a page past the end of the .ctg, an entry or a key that runs past the bytes
 * its page says it uses, a move code of no piece: the position (or the move) is reported, not
 * guessed; nothing is read outside what was checked, and a probe reads at most 32 slots.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "books/books.h"
#include "util/buf.h"

#define PAGE 4096
#define INFO 33
#define MOVES_MAX 128 /* a moves block is at most 255 bytes: 127 moves */

enum { S_WEIGHT, S_ANNOTATION, S_GAMES, S_WINS, S_DRAWS, S_LOSSES, S_ELO, S_PERF, S_RECOMMEND };
static const char *const ctg_stats[] = { "weight", "annotation", "games", "wins", "draws",
					 "losses", "elo", "performance", "recommendation", NULL };
/* The position's own numbers, for its side to move (stored as they are). */
enum { P_GAMES, P_WINS, P_DRAWS, P_LOSSES, P_ELO, P_PERF, P_RECOMMEND, P_COMMENTARY };
static const char *const ctg_pstats[] = { "games", "wins", "draws", "losses", "elo",
					  "performance", "recommendation", "commentary", NULL };

/* The move codes: code, piece, its ordinal, step (dx, dy). */
static const struct code {
	uint8_t code;
	char piece;
	uint8_t nth;
	int8_t dx, dy;
} codes[] = {
	{ 0x00, 'P', 4,  1,  1 }, { 0x01, 'N', 1, -2, -1 }, { 0x03, 'Q', 1,  2,  0 },
	{ 0x04, 'P', 1,  0,  1 }, { 0x05, 'Q', 0,  0,  1 }, { 0x06, 'P', 3, -1,  1 },
	{ 0x08, 'Q', 1,  4,  0 }, { 0x09, 'B', 1,  6,  6 }, { 0x0a, 'K', 0,  0, -1 },
	{ 0x0c, 'P', 0, -1,  1 }, { 0x0d, 'B', 0,  3,  3 }, { 0x0e, 'R', 1,  3,  0 },
	{ 0x0f, 'N', 0, -2, -1 }, { 0x12, 'B', 0,  7,  7 }, { 0x13, 'K', 0,  0,  1 },
	{ 0x14, 'P', 7,  1,  1 }, { 0x15, 'B', 0,  5,  5 }, { 0x18, 'P', 6,  0,  1 },
	{ 0x1a, 'Q', 1,  0,  6 }, { 0x1b, 'B', 0, -1,  1 }, { 0x1d, 'B', 1,  7,  7 },
	{ 0x21, 'R', 1,  7,  0 }, { 0x22, 'B', 1, -2,  2 }, { 0x23, 'Q', 1,  6,  6 },
	{ 0x24, 'P', 7, -1,  1 }, { 0x26, 'B', 0, -7,  7 }, { 0x27, 'P', 2, -1,  1 },
	{ 0x28, 'Q', 0,  5,  5 }, { 0x29, 'Q', 0,  6,  0 }, { 0x2a, 'N', 1,  1, -2 },
	{ 0x2d, 'P', 5,  1,  1 }, { 0x2e, 'B', 0,  1,  1 }, { 0x2f, 'Q', 0,  1,  0 },
	{ 0x30, 'N', 1, -1, -2 }, { 0x31, 'Q', 0,  3,  0 }, { 0x32, 'B', 1,  5,  5 },
	{ 0x34, 'N', 0,  1,  2 }, { 0x36, 'N', 0,  2,  1 }, { 0x37, 'Q', 0,  0,  4 },
	{ 0x38, 'Q', 1, -4,  4 }, { 0x39, 'Q', 0,  5,  0 }, { 0x3a, 'B', 0,  6,  6 },
	{ 0x3b, 'Q', 1, -5,  5 }, { 0x3c, 'B', 0, -5,  5 }, { 0x41, 'Q', 1,  5,  5 },
	{ 0x42, 'Q', 0, -7,  7 }, { 0x44, 'K', 0,  1, -1 }, { 0x45, 'Q', 0,  3,  3 },
	{ 0x4a, 'P', 7,  0,  2 }, { 0x4b, 'Q', 0, -5,  5 }, { 0x4c, 'N', 1,  1,  2 },
	{ 0x4d, 'Q', 1,  0,  1 }, { 0x50, 'R', 0,  0,  6 }, { 0x52, 'R', 0,  6,  0 },
	{ 0x54, 'B', 1, -1,  1 }, { 0x55, 'P', 2,  0,  1 }, { 0x5c, 'P', 6,  1,  1 },
	{ 0x5f, 'P', 4,  0,  2 }, { 0x61, 'Q', 0,  6,  6 }, { 0x62, 'P', 1,  0,  2 },
	{ 0x63, 'Q', 1, -7,  7 }, { 0x66, 'B', 0, -3,  3 }, { 0x67, 'K', 0,  1,  1 },
	{ 0x69, 'R', 1,  0,  7 }, { 0x6a, 'B', 0,  4,  4 }, { 0x6b, 'K', 0,  2,  0 },
	{ 0x6e, 'R', 0,  5,  0 }, { 0x6f, 'Q', 1,  7,  7 }, { 0x72, 'B', 1, -7,  7 },
	{ 0x74, 'Q', 0,  2,  0 }, { 0x79, 'B', 1, -6,  6 }, { 0x7a, 'R', 0,  0,  3 },
	{ 0x7b, 'R', 1,  0,  6 }, { 0x7c, 'P', 2,  1,  1 }, { 0x7d, 'R', 1,  0,  1 },
	{ 0x7e, 'Q', 0, -3,  3 }, { 0x7f, 'R', 0,  1,  0 }, { 0x80, 'Q', 0, -6,  6 },
	{ 0x81, 'R', 0,  0,  1 }, { 0x82, 'P', 5, -1,  1 }, { 0x85, 'N', 0, -1,  2 },
	{ 0x86, 'R', 0,  7,  0 }, { 0x87, 'R', 0,  0,  5 }, { 0x8a, 'N', 0,  1, -2 },
	{ 0x8b, 'P', 0,  1,  1 }, { 0x8c, 'K', 0, -1, -1 }, { 0x8e, 'Q', 1, -2,  2 },
	{ 0x8f, 'Q', 0,  7,  0 }, { 0x92, 'Q', 1,  1,  1 }, { 0x94, 'Q', 0,  0,  3 },
	{ 0x96, 'P', 1,  1,  1 }, { 0x97, 'K', 0, -1,  0 }, { 0x98, 'R', 0,  3,  0 },
	{ 0x99, 'R', 0,  0,  4 }, { 0x9a, 'Q', 0,  0,  6 }, { 0x9b, 'P', 2,  0,  2 },
	{ 0x9d, 'Q', 0,  0,  2 }, { 0x9f, 'B', 1, -4,  4 }, { 0xa0, 'Q', 1,  0,  3 },
	{ 0xa2, 'Q', 0,  2,  2 }, { 0xa3, 'P', 7,  0,  1 }, { 0xa5, 'R', 1,  0,  5 },
	{ 0xa9, 'R', 1,  2,  0 }, { 0xab, 'Q', 1, -6,  6 }, { 0xad, 'R', 1,  4,  0 },
	{ 0xae, 'Q', 1,  3,  3 }, { 0xb0, 'Q', 1,  0,  4 }, { 0xb1, 'P', 5,  0,  2 },
	{ 0xb2, 'B', 0, -6,  6 }, { 0xb5, 'R', 1,  5,  0 }, { 0xb7, 'Q', 0,  0,  5 },
	{ 0xb9, 'B', 1,  3,  3 }, { 0xbb, 'P', 4,  0,  1 }, { 0xbc, 'Q', 1,  5,  0 },
	{ 0xbd, 'Q', 1,  0,  2 }, { 0xbe, 'K', 0,  1,  0 }, { 0xc1, 'B', 0,  2,  2 },
	{ 0xc2, 'B', 1,  2,  2 }, { 0xc3, 'B', 0, -2,  2 }, { 0xc4, 'R', 1,  1,  0 },
	{ 0xc5, 'R', 1,  0,  4 }, { 0xc6, 'Q', 1,  0,  5 }, { 0xc7, 'P', 6, -1,  1 },
	{ 0xc8, 'P', 6,  0,  2 }, { 0xc9, 'Q', 1,  0,  7 }, { 0xca, 'B', 1, -3,  3 },
	{ 0xcb, 'P', 5,  0,  1 }, { 0xcc, 'B', 1, -5,  5 }, { 0xcd, 'R', 0,  2,  0 },
	{ 0xcf, 'P', 3,  0,  1 }, { 0xd1, 'P', 1, -1,  1 }, { 0xd2, 'N', 1,  2,  1 },
	{ 0xd3, 'N', 1, -2,  1 }, { 0xd7, 'Q', 0, -1,  1 }, { 0xd8, 'R', 1,  6,  0 },
	{ 0xd9, 'Q', 0, -2,  2 }, { 0xda, 'N', 0, -1, -2 }, { 0xdb, 'P', 0,  0,  2 },
	{ 0xde, 'P', 4, -1,  1 }, { 0xdf, 'K', 0, -1,  1 }, { 0xe0, 'N', 1,  2, -1 },
	{ 0xe1, 'R', 0,  0,  7 }, { 0xe3, 'R', 1,  0,  3 }, { 0xe5, 'Q', 0,  4,  0 },
	{ 0xe6, 'P', 3,  0,  2 }, { 0xe7, 'Q', 0,  4,  4 }, { 0xe8, 'R', 0,  0,  2 },
	{ 0xe9, 'N', 0,  2, -1 }, { 0xeb, 'P', 3,  1,  1 }, { 0xec, 'P', 0,  0,  1 },
	{ 0xed, 'Q', 0,  7,  7 }, { 0xee, 'Q', 1, -1,  1 }, { 0xef, 'R', 0,  4,  0 },
	{ 0xf0, 'Q', 1,  7,  0 }, { 0xf1, 'Q', 0,  1,  1 }, { 0xf3, 'N', 1, -1,  2 },
	{ 0xf4, 'R', 1,  0,  2 }, { 0xf5, 'B', 1,  1,  1 }, { 0xf6, 'K', 0, -2,  0 },
	{ 0xf7, 'N', 0, -2,  1 }, { 0xf8, 'Q', 1,  1,  0 }, { 0xf9, 'Q', 1,  0,  6 },
	{ 0xfa, 'Q', 1,  3,  0 }, { 0xfb, 'Q', 1,  2,  2 }, { 0xfd, 'Q', 0,  0,  7 },
	{ 0xfe, 'Q', 1, -3,  3 },
};

/* The .cto hash's 64 numbers. */
static const uint32_t hash_tbl[64] = {
	0x3100d2bf, 0x3118e3de, 0x34ab1372, 0x2807a847, 0x1633f566, 0x2143b359,
	0x26d56488, 0x3b9e6f59, 0x37755656, 0x3089ca7b, 0x18e92d85, 0x0cd0e9d8,
	0x1a9e3b54, 0x3eaa902f, 0x0d9bfaae, 0x2f32b45b, 0x31ed6102, 0x3d3c8398,
	0x146660e3, 0x0f8d4b76, 0x02c77a5f, 0x146c8799, 0x1c47f51f, 0x249f8f36,
	0x24772043, 0x1fbc1e4d, 0x1e86b3fa, 0x37df36a6, 0x16ed30e4, 0x02c3148e,
	0x216e5929, 0x0636b34e, 0x317f9f56, 0x15f09d70, 0x131026fb, 0x38c784b1,
	0x29ac3305, 0x2b485dc5, 0x3c049ddc, 0x35a9fbcd, 0x31d5373b, 0x2b246799,
	0x0a2923d3, 0x08a96e9d, 0x30031a9f, 0x08f525b5, 0x33611c06, 0x2409db98,
	0x0ca4feb2, 0x1000b71e, 0x30566e32, 0x39447d31, 0x194e3752, 0x08233a95,
	0x0f38fe36, 0x29c7cd57, 0x0f7b3a39, 0x328e8a16, 0x1e7d1388, 0x0fba78f5,
	0x274c7e7c, 0x1e8be65c, 0x2fa0b0bb, 0x1eb6c371,
};

struct ctg {
	struct gamedb__file *ctg, *cto;
	uint32_t lower, upper;
	uint64_t npages;
	int16_t code_of[256];  /* index into codes[], or -1 */
	struct gamedb__book_move out[MOVES_MAX];
	uint8_t page[PAGE];
};

/* A position's entry: its moves and statistics, copied out of its page. */
struct entry {
	uint8_t moves[256];
	int nmoves;
	uint8_t info[INFO];
};

static uint32_t be(const uint8_t *p, int n)
{
	uint32_t v = 0;

	while (n-- > 0)
		v = v << 8 | *p++;
	return v;
}

static void ctg_close(void *state)
{
	free(state);
}

static int ctg_open(void **state, struct gamedb__src *src, char *msg, size_t cap)
{
	struct gamedb__file *f, *b, *o;
	const uint8_t *p;
	struct ctg *c;
	size_t i;

	*state = NULL;
	if (gamedb__src_open(src, NULL, 0, &f) != 0 || gamedb__src_open(src, ".ctb", 0, &b) != 0 ||
	    gamedb__src_open(src, ".cto", 0, &o) != 0)
		return snprintf(msg, cap, "%s", src->err.message), -1;
	if (gamedb__file_view(b, 0, 12, &p) != 12)
		return snprintf(msg, cap, "%s: %llu bytes: too short for a .ctb (12 at least)",
				b->name, (unsigned long long)b->size), -1;
	if (f->size < 2 * PAGE)
		return snprintf(msg, cap, "%s: %llu bytes: too short for a .ctg (a header page and "
				"a page of positions)", f->name, (unsigned long long)f->size), -1;
	c = calloc(1, sizeof *c);
	if (!c)
		return snprintf(msg, cap, "out of memory"), -1;
	c->lower = be(p + 4, 4);
	c->upper = be(p + 8, 4);
	c->ctg = f;
	c->cto = o;
	c->npages = f->size / PAGE - 1;
	memset(c->code_of, 0xff, sizeof c->code_of);
	for (i = 0; i < sizeof codes / sizeof codes[0]; i++)
		c->code_of[codes[i].code] = (int16_t)i;
	if (f->size % PAGE)
		snprintf(msg, cap, "%s: %llu bytes, not whole pages: the last %llu are not read",
			 f->name, (unsigned long long)f->size,
			 (unsigned long long)(f->size % PAGE));
	*state = c;
	return f->size % PAGE ? 1 : 0;
}

/* ---- the key ----------------------------------------------------------------------------- */

struct bits {
	uint8_t b[40];
	int n;
};

static void put(struct bits *w, unsigned v, int n)
{
	while (n-- > 0) {
		if ((v >> n) & 1)
			w->b[w->n >> 3] |= (uint8_t)(0x80 >> (w->n & 7));
		w->n++;
	}
}

/*
 * The position as the book stores it: White to move (mirrored when Black is), and mirrored
 * left-right when nobody may castle and the white king is on files a-d. *flip_ranks and
 * *flip_files say what was done (the moves found are mirrored back); *ep_file is the file of a
 * legal en-passant capture in the stored position, or -1.
 */
static void normalise(const struct gamedb__pos *pos, struct gamedb__pos *out, int *flip_ranks,
		      int *flip_files, int *ep_file)
{
	struct gamedb__move legal[GAMEDB__MAX_MOVES];
	int sq, n, i, ep = -1;

	n = gamedb__gen_legal(pos, legal);
	for (i = 0; i < n; i++)
		if (legal[i].flags & GAMEDB__MF_EP)
			ep = legal[i].to & 7;
	*out = *pos;
	*flip_ranks = pos->stm == 1;
	if (*flip_ranks) {
		for (sq = 0; sq < 64; sq++) {
			uint8_t pc = pos->sq[sq ^ 56];
			out->sq[sq] = pc ? GAMEDB__PC(GAMEDB__PC_TYPE(pc), !GAMEDB__PC_COLOUR(pc)) : 0;
		}
		for (i = 0; i < 2; i++) {
			out->castle_rook[0][i] = pos->castle_rook[1][i] == GAMEDB__NO_SQ ? GAMEDB__NO_SQ
				: (uint8_t)(pos->castle_rook[1][i] ^ 56);
			out->castle_rook[1][i] = pos->castle_rook[0][i] == GAMEDB__NO_SQ ? GAMEDB__NO_SQ
				: (uint8_t)(pos->castle_rook[0][i] ^ 56);
		}
		out->stm = 0;
	}
	*flip_files = 0;
	if (out->castle_rook[0][0] == GAMEDB__NO_SQ && out->castle_rook[0][1] == GAMEDB__NO_SQ &&
	    out->castle_rook[1][0] == GAMEDB__NO_SQ && out->castle_rook[1][1] == GAMEDB__NO_SQ) {
		int ksq = -1;
		for (sq = 0; sq < 64; sq++)
			if (out->sq[sq] == GAMEDB__PC(GAMEDB__KING, 0))
				ksq = sq;
		if (ksq >= 0 && (ksq & 7) < 4) {
			struct gamedb__pos t = *out;
			for (sq = 0; sq < 64; sq++)
				out->sq[sq] = t.sq[sq ^ 7];
			*flip_files = 1;
			if (ep >= 0)
				ep = 7 - ep;
		}
	}
	*ep_file = ep;
}

/* The key of a normalised position into k (room for 40 bytes); its length. */
static int encode(const struct gamedb__pos *pos, int ep, uint8_t *k)
{
	/* per piece type: the code's bits before the colour bit */
	static const struct { unsigned v; int n; } piece[7] = {
		{ 0, 1 }, { 0x3, 2 }, { 0x9, 4 }, { 0xa, 4 }, { 0xb, 4 }, { 0x11, 5 }, { 0x10, 5 },
	};
	int cs, x, y, special;
	struct bits w;

	memset(&w, 0, sizeof w);
	w.n = 8;
	for (x = 0; x < 8; x++)
		for (y = 0; y < 8; y++) {
			uint8_t pc = pos->sq[y * 8 + x];
			int t = GAMEDB__PC_TYPE(pc);
			put(&w, piece[t].v, piece[t].n);
			if (t)
				put(&w, GAMEDB__PC_COLOUR(pc), 1);
		}
	cs = (pos->castle_rook[1][1] != GAMEDB__NO_SQ) << 3 |
	     (pos->castle_rook[1][0] != GAMEDB__NO_SQ) << 2 |
	     (pos->castle_rook[0][1] != GAMEDB__NO_SQ) << 1 | (pos->castle_rook[0][0] != GAMEDB__NO_SQ);
	if (ep < 0 && !cs)
		put(&w, 0, 1);
	special = (ep >= 0 ? 3 : 0) + (cs ? 4 : 0);
	while (((8 - (w.n & 7)) & 7) != special)
		put(&w, 0, 1);
	if (ep >= 0)
		put(&w, (unsigned)ep, 3);
	if (cs)
		put(&w, (unsigned)cs, 4);
	w.b[0] = (uint8_t)((w.n >> 3) | (ep >= 0 ? 0x20 : 0) | (cs ? 0x40 : 0));
	memcpy(k, w.b, (size_t)(w.n >> 3));
	return w.n >> 3;
}

static uint32_t hash_of(const uint8_t *k, int len)
{
	uint32_t h = 0, t = 0;
	int i;

	for (i = 0; i < len; i++) {
		t += ((0x0fu - (k[i] & 0x0fu)) << 2) + 1;
		h += hash_tbl[t & 0x3f];
		t += ((0xf0u - (k[i] & 0xf0u)) >> 2) + 1;
		h += hash_tbl[t & 0x3f];
	}
	return h;
}

/*
 * Finds the entry of key k. 1 found (e filled), 0 not in the book, -1 when a page it must read
 * is bad (msg says why).
 */
static int find(struct ctg *c, const uint8_t *k, int klen, struct entry *e, char *msg, size_t cap)
{
	uint32_t h = hash_of(k, klen), n;
	int tries;

	for (n = 0, tries = 0; tries < 32; n = 2 * n + 1, tries++) {
		uint32_t slot = (h & n) + n, page, npos, used, off, i;
		const uint8_t *p;
		if (slot < c->lower)
			continue;
		if (gamedb__file_view(c->cto, 16 + 4 * (uint64_t)slot, 4, &p) == 4 &&
		    (page = be(p, 4)) < 0x80000000u) {
			if (page >= c->npages)
				return snprintf(msg, cap, "%s: slot %u names page %u, past the last page "
						"(%llu) of %s", c->cto->name, slot, page,
						(unsigned long long)c->npages, c->ctg->name), -1;
			if (gamedb__file_view(c->ctg, ((uint64_t)page + 1) * PAGE, PAGE, &p) != PAGE)
				return snprintf(msg, cap, "%s: page %u cannot be read", c->ctg->name,
						page), -1;
			memcpy(c->page, p, PAGE);
			npos = be(c->page, 2);
			used = be(c->page + 2, 2);
			if (used > PAGE)
				return snprintf(msg, cap, "%s: page %u says it uses %u bytes of %d",
						c->ctg->name, page, used, PAGE), -1;
			for (off = 4, i = 0; i < npos; i++) {
				uint32_t len, mlen;
				if (off >= used)
					return snprintf(msg, cap, "%s: page %u: position %u of %u starts "
							"past the page's %u bytes", c->ctg->name, page,
							i + 1, npos, used), -1;
				len = c->page[off] & 0x1fu;
				if (len == 0 || off + len >= used)
					return snprintf(msg, cap, "%s: page %u: the key of position %u runs "
							"off the page", c->ctg->name, page, i + 1), -1;
				mlen = c->page[off + len];
				if (mlen == 0 || off + len + mlen + INFO > used)
					return snprintf(msg, cap, "%s: page %u: the moves of position %u run "
							"off the page", c->ctg->name, page, i + 1), -1;
				if ((int)len == klen && !memcmp(c->page + off, k, len)) {
					e->nmoves = (int)(mlen - 1) / 2;
					memcpy(e->moves, c->page + off + len + 1, (size_t)e->nmoves * 2);
					memcpy(e->info, c->page + off + len + mlen, INFO);
					return 1;
				}
				off += len + mlen + INFO;
			}
		}
		if (slot >= c->upper)
			break;
	}
	return 0;
}

/* Looks pos up: 1 with e, 0, -1 (msg). */
static int lookup(struct ctg *c, const struct gamedb__pos *pos, struct gamedb__pos *norm,
		  int *fr, int *ff, struct entry *e, char *msg, size_t cap)
{
	uint8_t k[40];
	int ep, klen;

	normalise(pos, norm, fr, ff, &ep);
	klen = encode(norm, ep, k);
	return find(c, k, klen, e, msg, cap);
}

/* Move i of entry e, in pos (norm: as stored, fr/ff its mirrors), into bm; 0, or -1 (msg). */
static int decode(const struct ctg *c, const struct entry *e, int i, const struct gamedb__pos *norm,
		  int fr, int ff, struct gamedb__book_move *bm, char *msg, size_t cap)
{
	int code = c->code_of[e->moves[2 * i]], sq, from = -1, k;
	const struct code *cd;

	if (code < 0)
		return snprintf(msg, cap, "move %d: code 0x%02x is no move", i + 1, e->moves[2 * i]),
		       -1;
	cd = &codes[code];
	/* the nth man of the kind, squares in the key's order (a1, a2, ..., h8) */
	for (k = cd->nth, sq = 0; sq < 64 && from < 0; sq++) {
		int s = (sq & 7) * 8 + (sq >> 3);
		uint8_t pc = norm->sq[s];
		if (pc && !GAMEDB__PC_COLOUR(pc) && "?PNBRQK"[GAMEDB__PC_TYPE(pc)] == cd->piece &&
		    k-- == 0)
			from = s;
	}
	if (from < 0)
		return snprintf(msg, cap, "move %d: code 0x%02x moves a man the position does not "
				"have", i + 1, e->moves[2 * i]), -1;
	memset(bm, 0, sizeof *bm);
	bm->from = (uint8_t)from;
	bm->to = (uint8_t)((((from >> 3) + cd->dy) & 7) * 8 + (((from & 7) + cd->dx) & 7));
	bm->promo = cd->piece == 'P' && (bm->to >> 3) == 7 ? GAMEDB__QUEEN : 0;
	if (ff) {
		bm->from ^= 7;
		bm->to ^= 7;
	}
	if (fr) {
		bm->from ^= 56;
		bm->to ^= 56;
	}
	return 0;
}

static int ctg_probe(void *state, const struct gamedb__pos *pos, uint64_t key,
		     const struct gamedb__book_move **out, int64_t *pst, int *found, int *warn,
		     char *msg, size_t cap)
{
	struct ctg *c = state;
	struct gamedb__pos norm;
	struct entry e;
	int fr, ff, r, i, n = 0, bad = 0;
	uint32_t prated, pperf;

	(void)key;
	*out = c->out;
	*warn = 0;
	r = lookup(c, pos, &norm, &fr, &ff, &e, msg, cap);
	*found = r > 0;
	if (r <= 0)
		return r;
	prated = be(e.info + 16, 3);
	pperf = be(e.info + 23, 3);
	pst[P_GAMES] = be(e.info, 3);
	pst[P_WINS] = be(e.info + 3, 3);
	pst[P_LOSSES] = be(e.info + 6, 3);
	pst[P_DRAWS] = be(e.info + 9, 3);
	pst[P_ELO] = prated ? be(e.info + 19, 4) / prated : 0;
	pst[P_PERF] = pperf ? be(e.info + 26, 4) / pperf : 0;
	pst[P_RECOMMEND] = e.info[30];
	pst[P_COMMENTARY] = e.info[32];
	for (i = 0; i < e.nmoves; i++) {
		struct gamedb__book_move *bm = &c->out[n];
		struct gamedb__pos child = *pos, cn;
		struct gamedb__move m;
		struct entry ce;
		int ann = e.moves[2 * i + 1], cfr, cff;
		char cmsg[256];
		if (decode(c, &e, i, &norm, fr, ff, bm, bad ? cmsg : msg, bad ? sizeof cmsg : cap)) {
			bad++;
			continue;
		}
		bm->st[S_ANNOTATION] = ann;
		/* the statistics of the position the move leads to, for the mover */
		memset(&m, 0, sizeof m);
		m.from = bm->from;
		m.to = bm->to;
		m.promo = bm->promo;
		r = 0;
		if (gamedb__move_play(&child, &m) == 0)
			r = lookup(c, &child, &cn, &cfr, &cff, &ce, cmsg, sizeof cmsg);
		if (r > 0) {
			uint32_t rated = be(ce.info + 16, 3), perfn = be(ce.info + 23, 3);
			bm->st[S_GAMES] = be(ce.info, 3);
			bm->st[S_WINS] = be(ce.info + 6, 3);
			bm->st[S_LOSSES] = be(ce.info + 3, 3);
			bm->st[S_DRAWS] = be(ce.info + 9, 3);
			bm->st[S_ELO] = rated ? be(ce.info + 19, 4) / rated : 0;
			bm->st[S_PERF] = perfn ? be(ce.info + 26, 4) / perfn : 0;
			bm->st[S_RECOMMEND] = ce.info[30];
		}
		bm->st[S_WEIGHT] = ann == 2 || ann == 4 || ann == 6 ? 0
			: gamedb__book_weight(2 * bm->st[S_WINS] + bm->st[S_DRAWS] > 0
					      ? 2 * bm->st[S_WINS] + bm->st[S_DRAWS] : 1);
		n++;
	}
	if (bad) {
		size_t l = strlen(msg);
		*warn = 1;
		if (bad > 1)
			snprintf(msg + l, cap - l, " (and %d more moves left out)", bad - 1);
	}
	return n;
}

const struct gamedb__book_format gamedb__book_ctg = {
	"ctg", ctg_stats, ctg_pstats, ctg_open, ctg_probe, ctg_close,
};
