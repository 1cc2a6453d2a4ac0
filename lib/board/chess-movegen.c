/*
 * libgamedb - chess rules: the position's bitboards, attack tables and attacks, legal move
 * generation, make, checking one given move (move_complete, move_play), perft. SAN is in
 * chess-san.c, FEN in chess-fen.c, the SCID piece slots in chess-slots.c; what they share
 * with this file is in chess-internal.h.
 *
 * Representation: the 64-byte mailbox of struct gamedb__pos (a1 = 0 ... h8 = 63) plus
 * bitboards per colour and per piece type. Attack tests work on the bitboards: the men that
 * could attack a square are picked out with the constant tables below (knight, king and pawn
 * steps, the lines through a square), and a slider only needs its in-between squares checked
 * for emptiness. Move generation walks the mailbox in 0x88 coordinates (X88/S64 convert, so
 * an off-board test is one mask).
 *
 * Legality needs no board copy: a move is legal when, with the board's occupancy changed as
 * the move changes it, no enemy man (the captured one left out) attacks the mover's king.
 * Legal move generation knows checks and pins up front. A dedicated test tells whether the
 * side to move has any legal move (for mate), and SAN needs no full generation either:
 * disambiguation only looks at men of the same type that reach the same square.
 */
#include <stdint.h>
#include <string.h>

#include "chess-internal.h"

#define X88(s) ((s) + ((s) & ~7))
#define S64(x) (((x) + ((x) & 7)) >> 1)
#define OFFBOARD(x) ((x) & 0x88)

/* 0x88 steps: the first four are orthogonal (rook lines), the last four diagonal. */
static const int8_t dir_d[8] = {1, -1, 16, -16, 15, 17, -15, -17};
static const int8_t knight_d[8] = {33, 31, 18, 14, -14, -18, -31, -33};

/* ------------------------------------------------------------------------------------------ */
/* Attack tables */

/*
 * The constant tables are written as expressions of the square, expanded for all 64 squares
 * by SQ64, so the compiler builds them and nothing is set up at run time.
 */
#define SQ8(M, r) M(8 * (r) + 0), M(8 * (r) + 1), M(8 * (r) + 2), M(8 * (r) + 3), \
	M(8 * (r) + 4), M(8 * (r) + 5), M(8 * (r) + 6), M(8 * (r) + 7)
#define SQ64(M) SQ8(M, 0), SQ8(M, 1), SQ8(M, 2), SQ8(M, 3), SQ8(M, 4), SQ8(M, 5), SQ8(M, 6), \
	SQ8(M, 7)

/*
 * The diagonal (file - rank constant) and anti-diagonal (file + rank constant) through s: the
 * long diagonal moved up or down by whole ranks. The "& 63" only keeps the branch not taken
 * from holding a negative shift count (compilers warn about it even there).
 */
#define DIAG_BB(s) (FILE_OF(s) >= RANK_OF(s)                                                   \
			    ? BB_DIAG_A1H8 >> ((8 * (FILE_OF(s) - RANK_OF(s))) & 63)            \
			    : BB_DIAG_A1H8 << ((8 * (RANK_OF(s) - FILE_OF(s))) & 63))
#define ANTI_BB(s) (FILE_OF(s) + RANK_OF(s) <= 7                                               \
			    ? BB_DIAG_H1A8 >> ((8 * (7 - FILE_OF(s) - RANK_OF(s))) & 63)        \
			    : BB_DIAG_H1A8 << ((8 * (FILE_OF(s) + RANK_OF(s) - 7)) & 63))
#define ROOK_RAYS_BB(s) ((RANK_BB(s) | FILE_BB(s)) & ~BIT(s))
#define BISHOP_RAYS_BB(s) ((DIAG_BB(s) | ANTI_BB(s)) & ~BIT(s))
#define KNIGHT_BB(s)                                                                            \
	(((BIT(s) << 17) & ~BB_FILE_A) | ((BIT(s) << 15) & ~BB_FILE_H) |                        \
	 ((BIT(s) << 10) & ~(BB_FILE_A | BB_FILE_B)) | ((BIT(s) << 6) & ~(BB_FILE_G | BB_FILE_H)) | \
	 ((BIT(s) >> 17) & ~BB_FILE_H) | ((BIT(s) >> 15) & ~BB_FILE_A) |                        \
	 ((BIT(s) >> 10) & ~(BB_FILE_G | BB_FILE_H)) | ((BIT(s) >> 6) & ~(BB_FILE_A | BB_FILE_B)))
#define KING_BB(s)                                                                              \
	((BIT(s) << 8) | (BIT(s) >> 8) |                                                        \
	 (((BIT(s) << 1) | (BIT(s) << 9) | (BIT(s) >> 7)) & ~BB_FILE_A) |                       \
	 (((BIT(s) >> 1) | (BIT(s) >> 9) | (BIT(s) << 7)) & ~BB_FILE_H))
/* Squares a white (black) pawn on s attacks. */
#define WPAWN_BB(s) (((BIT(s) << 9) & ~BB_FILE_A) | ((BIT(s) << 7) & ~BB_FILE_H))
#define BPAWN_BB(s) (((BIT(s) >> 7) & ~BB_FILE_A) | ((BIT(s) >> 9) & ~BB_FILE_H))

/* Declared in chess-internal.h, whose macros give these the gamedb__chess_ prefix. */
const uint64_t diag_bb[64] = {SQ64(DIAG_BB)};
const uint64_t anti_bb[64] = {SQ64(ANTI_BB)};
const uint64_t rook_rays[64] = {SQ64(ROOK_RAYS_BB)};
const uint64_t bishop_rays[64] = {SQ64(BISHOP_RAYS_BB)};
const uint64_t knight_bb[64] = {SQ64(KNIGHT_BB)};
const uint64_t king_bb[64] = {SQ64(KING_BB)};
/* pawn_bb[c][s]: the squares a pawn of colour c on s attacks. */
const uint64_t pawn_bb[2][64] = {{SQ64(WPAWN_BB)}, {SQ64(BPAWN_BB)}};
#define NO_BB(s) ((uint64_t)0)
#define QUEEN_BB(s) (ROOK_RAYS_BB(s) | BISHOP_RAYS_BB(s))
#define MEN_BB(PAWN_BB)                                                                         \
	{SQ64(NO_BB)}, {SQ64(PAWN_BB)}, {SQ64(KNIGHT_BB)}, {SQ64(BISHOP_RAYS_BB)},               \
		{SQ64(ROOK_RAYS_BB)}, {SQ64(QUEEN_BB)}, {SQ64(KING_BB)}, {SQ64(NO_BB)}
/* man_bb[pc][s]: indexed by GAMEDB__PC(type, colour), white's men first. */
const uint64_t man_bb[16][64] = {MEN_BB(WPAWN_BB), MEN_BB(BPAWN_BB)};

/*
 * line_tab and between_tab (chess-internal.h): for each a, a row expanded over all b. On a
 * diagonal file - rank is constant, on an anti-diagonal file + rank.
 */
#define PAIR8(M, a, r) M(a, 8 * (r) + 0), M(a, 8 * (r) + 1), M(a, 8 * (r) + 2), \
	M(a, 8 * (r) + 3), M(a, 8 * (r) + 4), M(a, 8 * (r) + 5), M(a, 8 * (r) + 6), M(a, 8 * (r) + 7)
#define PAIR64(M, a) PAIR8(M, a, 0), PAIR8(M, a, 1), PAIR8(M, a, 2), PAIR8(M, a, 3), \
	PAIR8(M, a, 4), PAIR8(M, a, 5), PAIR8(M, a, 6), PAIR8(M, a, 7)
#define LINE_AB(a, b)                                                                           \
	(RANK_OF(a) == RANK_OF(b)                           ? RANK_BB(a)                        \
	 : FILE_OF(a) == FILE_OF(b)                         ? FILE_BB(a)                        \
	 : FILE_OF(a) - RANK_OF(a) == FILE_OF(b) - RANK_OF(b) ? DIAG_BB(a)                      \
	 : FILE_OF(a) + RANK_OF(a) == FILE_OF(b) + RANK_OF(b) ? ANTI_BB(a)                      \
							      : (uint64_t)0)
#define BETWEEN_AB(a, b)                                                                        \
	(LINE_AB(a, b) & ((~(uint64_t)1) << ((a) < (b) ? (a) : (b))) &                          \
	 (BIT((a) < (b) ? (b) : (a)) - 1))
#define LINE_ROW(a) {PAIR64(LINE_AB, a)}
#define BETWEEN_ROW(a) {PAIR64(BETWEEN_AB, a)}
const uint64_t line_tab[64][64] = {SQ64(LINE_ROW)};
const uint64_t between_tab[64][64] = {SQ64(BETWEEN_ROW)};

/* ------------------------------------------------------------------------------------------ */
/* Position */

/* Puts the man pc on (or takes it off) square s in the bitboards. */
static void bb_flip(struct gamedb__pos *pos, int s, uint8_t pc)
{
	pos->by_colour[COLOUR(pc)] ^= BIT(s);
	pos->by_type[TYPE(pc)] ^= BIT(s);
}

void gamedb__pos_sync(struct gamedb__pos *pos)
{
	int s;

	memset(pos->by_colour, 0, sizeof pos->by_colour);
	memset(pos->by_type, 0, sizeof pos->by_type);
	pos->king[0] = pos->king[1] = GAMEDB__NO_SQ;
	for (s = 0; s < 64; s++) {
		const uint8_t pc = pos->sq[s];
		if (pc == GAMEDB__EMPTY)
			continue;
		bb_flip(pos, s, pc);
		if (TYPE(pc) == GAMEDB__KING)
			pos->king[COLOUR(pc)] = (uint8_t)s;
	}
}

/* ------------------------------------------------------------------------------------------ */
/* Attacks */

/*
 * The men among `att` (squares of men of colour `by`; their types are read from pos) that
 * attack square s when the board's occupancy is `occ`. With att and occ differing from the
 * position's own, this asks about the board after a move without making it: leave the
 * captured man out of att, and change occ as the move changes it.
 */
static uint64_t attackers(const struct gamedb__pos *pos, int s, int by, uint64_t att,
			  uint64_t occ)
{
	const uint64_t *t = pos->by_type;
	uint64_t a = ((knight_bb[s] & t[GAMEDB__KNIGHT]) | (king_bb[s] & t[GAMEDB__KING]) |
		      (pawn_bb[by ^ 1][s] & t[GAMEDB__PAWN])) & att;
	uint64_t sl = att & (t[GAMEDB__ROOK] | t[GAMEDB__QUEEN]) & rook_rays[s];

	while (sl) {
		const int c = LSB(sl);
		if (!(between_bb(s, c) & occ))
			a |= BIT(c);
		sl &= sl - 1;
	}
	sl = att & (t[GAMEDB__BISHOP] | t[GAMEDB__QUEEN]) & bishop_rays[s];
	while (sl) {
		const int c = LSB(sl);
		if (!(between_bb(s, c) & occ))
			a |= BIT(c);
		sl &= sl - 1;
	}
	return a;
}

int gamedb__in_check(const struct gamedb__pos *pos)
{
	const int us = pos->stm, k = pos->king[us];
	if (k >= 64)
		return 0;
	return attacked(pos, k, us ^ 1, pos->by_colour[us ^ 1], occupied(pos));
}

/*
 * The men of the side to move pinned to their king (by an enemy slider with just that man in
 * between). With pin_line set, pin_line[s] receives the line a pinned man on s may move along.
 */
static uint64_t pinned_men(const struct gamedb__pos *pos, uint64_t *pin_line)
{
	const int us = pos->stm, them = us ^ 1, k = pos->king[us];
	const uint64_t *t = pos->by_type, occ = occupied(pos);
	uint64_t snipers, pinned = 0;

	snipers = ((rook_rays[k] & (t[GAMEDB__ROOK] | t[GAMEDB__QUEEN])) |
		   (bishop_rays[k] & (t[GAMEDB__BISHOP] | t[GAMEDB__QUEEN]))) &
		  pos->by_colour[them];
	while (snipers) {
		const int c = LSB(snipers);
		const uint64_t line = line_bb(k, c);
		const uint64_t b = between_bb(k, c) & occ;
		if (b && !SEVERAL(b) && (b & pos->by_colour[us])) {
			pinned |= b;
			if (pin_line)
				pin_line[LSB(b)] = line;
		}
		snipers &= snipers - 1;
	}
	return pinned;
}

/* ------------------------------------------------------------------------------------------ */
/* Moves */

static void set_move(struct gamedb__move *m, int from, int to, int promo, int flags, int piece,
		     int captured)
{
	m->from = (uint8_t)from;
	m->to = (uint8_t)to;
	m->promo = (uint8_t)promo;
	m->flags = (uint8_t)flags;
	m->piece = (uint8_t)piece;
	m->captured = (uint8_t)captured;
	m->rook_from = GAMEDB__NO_SQ;
	m->check = GAMEDB__CHECK_UNKNOWN;
}

/*
 * Crazyhouse and bughouse bookkeeping for the usual move m (not castling, null or drop) of
 * colour us, before the board changes: the captured man goes to the mover's hand (a promoted
 * one as a pawn; in bughouse it leaves for the partner's board), and the promoted marks follow
 * the men.
 */
static COLD_PATH void zh_move(struct gamedb__pos *pos, const struct gamedb__move *m, int us)
{
	const uint64_t fb = BIT(m->from), tb = BIT(m->to);

	if (pos->zh == GAMEDB__ZH_CRAZYHOUSE) {
		int got = 0;
		if (m->flags & GAMEDB__MF_EP)
			got = GAMEDB__PAWN;
		else if (pos->sq[m->to] != GAMEDB__EMPTY)
			got = (pos->promoted & tb) ? GAMEDB__PAWN : TYPE(pos->sq[m->to]);
		if (got)
			gamedb__hand_add(pos, us, got);
	}
	pos->promoted &= ~tb;
	if (pos->promoted & fb)
		pos->promoted ^= fb | tb;
	else if (m->promo)
		pos->promoted |= tb;
}

/* The clocks and the side to move as every move changes them (reset: a capture or pawn move). */
static HOT_INLINE void clocks(struct gamedb__pos *pos, unsigned us, int reset)
{
	pos->ep = GAMEDB__NO_SQ;
	pos->stm = (uint8_t)(us ^ 1);
	/* Without a branch: which way they go changes from move to move. */
	pos->halfmove = (uint16_t)((pos->halfmove + (pos->halfmove != UINT16_MAX)) & (reset ? 0u : 0xFFFFu));
	pos->fullmove += us & (pos->fullmove < GAMEDB__MOVENO_MAX);
}

/*
 * The make of a usual move (not castling, null or drop) of the side to move us: the man pc
 * from `from` to `to`, where it takes cap (GAMEDB__EMPTY if none, and for en passant) and
 * becomes put (pc, or what it promotes to); flags as move_complete() leaves them
 * (GAMEDB__MF_EP and GAMEDB__MF_DOUBLE are read).
 */
static HOT_INLINE void make_usual(struct gamedb__pos *pos, unsigned us, unsigned from, unsigned to,
				  unsigned pc, unsigned type, unsigned cap, unsigned put,
				  unsigned flags)
{
	uint8_t *b = pos->sq;
	const unsigned them = us ^ 1;
	const uint64_t fb = BIT(from), tb = BIT(to);
	uint32_t rights;

	/* type is TYPE(pc), passed in: the fast path knows it as a constant or a range. */
	clocks(pos, us, type == GAMEDB__PAWN || cap != GAMEDB__EMPTY);
	{
		/* The man taken, if any, without a branch (by_type[0] of GAMEDB__EMPTY is 0). */
		const uint64_t taken = tb & (0 - (uint64_t)(cap != GAMEDB__EMPTY));
		pos->by_colour[them] ^= taken;
		pos->by_type[TYPE(cap)] ^= taken;
	}
	pos->by_colour[us] ^= fb | tb;
	if (put == pc) {
		pos->by_type[type] ^= fb | tb;
	} else {
		pos->by_type[type] ^= fb;
		pos->by_type[TYPE(put)] ^= tb;
	}
	b[to] = (uint8_t)put;
	b[from] = GAMEDB__EMPTY;
	if (flags & (GAMEDB__MF_EP | GAMEDB__MF_DOUBLE)) {
		const unsigned cs = us ? to + 8 : to - 8; /* the pawn taken, or the square passed */
		if (flags & GAMEDB__MF_EP) {
			pos->by_colour[them] ^= BIT(cs);
			pos->by_type[GAMEDB__PAWN] ^= BIT(cs);
			b[cs] = GAMEDB__EMPTY;
		} else if (man_bb[pc][cs] & pos->by_type[GAMEDB__PAWN] & pos->by_colour[them]) {
			/*
			 * The ep square is recorded after every double push that has an enemy pawn
			 * beside the destination (one our pawn on the passed square would attack: a
			 * pseudo-legal en-passant capture), whether or not the capture would
			 * actually be legal. This is what Scid's DoSimpleMove does, so our FENs
			 * match Scid's.
			 */
			pos->ep = (uint8_t)cs;
		}
	}
	memcpy(&rights, pos->castle_rook, sizeof rights); /* the four rook squares at once */
	if (rights != UINT32_MAX) {
		/* Rights left (after the first moves of most games, none are). */
		if (cap != GAMEDB__EMPTY) {
			if (to == pos->castle_rook[them][0])
				pos->castle_rook[them][0] = GAMEDB__NO_SQ;
			if (to == pos->castle_rook[them][1])
				pos->castle_rook[them][1] = GAMEDB__NO_SQ;
		}
		if (type == GAMEDB__KING) {
			pos->castle_rook[us][0] = pos->castle_rook[us][1] = GAMEDB__NO_SQ;
		} else if (type != GAMEDB__PAWN) {
			if (from == pos->castle_rook[us][0])
				pos->castle_rook[us][0] = GAMEDB__NO_SQ;
			if (from == pos->castle_rook[us][1])
				pos->castle_rook[us][1] = GAMEDB__NO_SQ;
		}
	}
	if (type == GAMEDB__KING)
		pos->king[us] = (uint8_t)to;
}

/* pos_make() of chess: all of it but the crazyhouse bookkeeping (see zh_make()). */
static HOT_INLINE void make_chess(struct gamedb__pos *pos, const struct gamedb__move *m)
{
	const unsigned us = pos->stm;
	uint8_t *b = pos->sq;

	if (!(m->flags & (GAMEDB__MF_NULL | GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q))) {
		const unsigned pc = b[m->from];
		make_usual(pos, us, m->from, m->to, pc, TYPE(pc), b[m->to],
			   m->promo ? PC(m->promo, us) : pc,
			   m->flags);
		return;
	}
	clocks(pos, us, 0);
	if (m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) {
		const int side = (m->flags & GAMEDB__MF_CASTLE_K) ? 1 : 0;
		const int base = us ? 56 : 0;
		const int rto = base + (side ? 5 : 3);
		const uint8_t king = PC(GAMEDB__KING, us), rook = PC(GAMEDB__ROOK, us);
		b[m->from] = GAMEDB__EMPTY;
		b[m->rook_from] = GAMEDB__EMPTY;
		b[m->to] = king;
		b[rto] = rook;
		bb_flip(pos, m->from, king);
		bb_flip(pos, m->rook_from, rook);
		bb_flip(pos, m->to, king);
		bb_flip(pos, rto, rook);
		pos->king[us] = m->to;
		pos->castle_rook[us][0] = pos->castle_rook[us][1] = GAMEDB__NO_SQ;
	}
	/* A null move: as Scid does, the clocks run and the ep square goes; the board stays. */
}

/*
 * pos_make() of a crazyhouse or bughouse position: a drop puts the man from the hand on its
 * square (the clocks run as for a move; a pawn drop resets the half-move clock, as
 * fairy-stockfish does); any other move gets its hand and promoted-men bookkeeping first and
 * is then made as in chess.
 */
static COLD_PATH void zh_make(struct gamedb__pos *pos, const struct gamedb__move *m)
{
	const int us = pos->stm;

	if (m->flags & GAMEDB__MF_DROP) {
		const int type = m->piece & 7;
		const uint8_t pc = PC(type, us);
		clocks(pos, (unsigned)us, 0);
		if (m->to < 64 && pos->sq[m->to] == GAMEDB__EMPTY && type >= GAMEDB__PAWN &&
		    type <= GAMEDB__QUEEN) {
			pos->sq[m->to] = pc;
			bb_flip(pos, m->to, pc);
			gamedb__hand_take(pos, us, type);
			if (type == GAMEDB__PAWN)
				pos->halfmove = 0;
		}
		return;
	}
	if (!(m->flags & (GAMEDB__MF_NULL | GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)))
		zh_move(pos, m, us);
	make_chess(pos, m);
}

/* Chess pays one test for crazyhouse here, and no call: zh_make() is a tail call. */
void gamedb__pos_make(struct gamedb__pos *pos, const struct gamedb__move *m)
{
	if (pos->zh)
		zh_make(pos, m);
	else
		make_chess(pos, m);
}

/*
 * 1 if the usual move from -> to (not castling, not null; ep: en passant) leaves the mover's
 * king, then on k, safe. No copy: the attack test runs on the occupancy after the move, with
 * the captured man left out.
 */
static int king_safe_after(const struct gamedb__pos *pos, int k, int from, int to, int ep)
{
	const int us = pos->stm, them = us ^ 1;
	uint64_t occ = (occupied(pos) & ~BIT(from)) | BIT(to);
	uint64_t att = pos->by_colour[them] & ~BIT(to);

	if (k >= 64)
		return 1;
	if (ep) {
		const int cap = us ? to + 8 : to - 8;
		occ &= ~BIT(cap);
		att &= ~BIT(cap);
	}
	return !attacked(pos, k, them, att, occ);
}

/* 1 if the completed move m (not castling, not null) leaves the mover's king safe. */
static int leaves_king_safe(const struct gamedb__pos *pos, const struct gamedb__move *m)
{
	return king_safe_after(pos, m->piece == GAMEDB__KING ? m->to : pos->king[pos->stm], m->from,
			       m->to, m->flags & GAMEDB__MF_EP);
}

/*
 * Castling for the side to move on `side` (0 queen side, 1 king side), Chess960 rules: every
 * square between the king and its destination and between the rook and its destination must
 * be empty apart from the king and that rook, and no square from the king's square to its
 * destination (both included) may be attacked. The attack test runs with king and rook lifted,
 * so a rook that shields its own king (Chess960) is handled too.
 */
static int castle_check(const struct gamedb__pos *pos, int side, struct gamedb__move *m)
{
	const int us = pos->stm, them = us ^ 1;
	const int base = us ? 56 : 0;
	const int k = pos->king[us], r = pos->castle_rook[us][side];
	const int kto = base + (side ? 6 : 2), rto = base + (side ? 5 : 3);
	uint64_t occ;
	int lo, hi, s;

	if (r >= 64 || k >= 64 || RANK_OF(k) != RANK_OF(base) || RANK_OF(r) != RANK_OF(base))
		return -1;
	if (pos->sq[r] != PC(GAMEDB__ROOK, us))
		return -1;
	/* The squares from lo to hi (one rank) empty but for king and rook: one mask. */
	lo = imin(imin(k, kto), imin(r, rto));
	hi = imax(imax(k, kto), imax(r, rto));
	occ = occupied(pos) & ~BIT(k) & ~BIT(r);
	if ((between_bb(lo, hi) | BIT(lo) | BIT(hi)) & occ)
		return -1;
	for (s = imin(k, kto); s <= imax(k, kto); s++)
		if (attacked(pos, s, them, pos->by_colour[them], occ))
			return -1;
	set_move(m, k, kto, 0, side ? GAMEDB__MF_CASTLE_K : GAMEDB__MF_CASTLE_Q, GAMEDB__KING, 0);
	m->rook_from = (uint8_t)r;
	return 0;
}

int gamedb__move_castle(const struct gamedb__pos *pos, int side, struct gamedb__move *m)
{
	if (side != 0 && side != 1)
		return -1;
	return castle_check(pos, side, m);
}

int gamedb__move_null(const struct gamedb__pos *pos, struct gamedb__move *m)
{
	const int k = pos->king[pos->stm];
	if (gamedb__in_check(pos))
		return -1;
	set_move(m, k, k, 0, GAMEDB__MF_NULL, GAMEDB__KING, 0);
	return 0;
}

/* The en-passant target square if the side to move has a real en-passant capture there, else -1. */
static int ep_target(const struct gamedb__pos *pos)
{
	const int us = pos->stm, t = pos->ep;
	if (t >= 64 || RANK_OF(t) != (us ? 2 : 5))
		return -1;
	if (pos->sq[us ? t + 8 : t - 8] != PC(GAMEDB__PAWN, us ^ 1))
		return -1;
	return t;
}

/* 1 if the pawn of the side to move on s may capture en passant on t (legality included). */
static int ep_legal(const struct gamedb__pos *pos, int s, int t)
{
	const int us = pos->stm, them = us ^ 1, k = pos->king[us];
	const int cap = us ? t + 8 : t - 8;
	const uint64_t occ = (occupied(pos) & ~BIT(s) & ~BIT(cap)) | BIT(t);

	if (k >= 64)
		return 1;
	return !attacked(pos, k, them, pos->by_colour[them] & ~BIT(cap), occ);
}

/* ------------------------------------------------------------------------------------------ */
/* Legal move generation */

/*
 * The cap can only bite in artificial FEN positions (say a king and 15 queens): no reachable
 * position has more than 218 legal moves. It keeps such input from overrunning `out`.
 */
#define EMIT(from_, to_, promo_, flags_, piece_, cap_)                                        \
	do {                                                                                   \
		set_move(&out[n++], (from_), (to_), (promo_), (flags_), (piece_), (cap_));     \
		if (n >= GAMEDB__MAX_MOVES)                                                    \
			return n;                                                              \
	} while (0)

/*
 * Generates the legal moves of pos into out (room for GAMEDB__MAX_MOVES). Order: king moves,
 * castling, then the other men by square.
 */
static int gen(const struct gamedb__pos *pos, struct gamedb__move *out)
{
	const uint8_t *b = pos->sq;
	const int us = pos->stm, them = us ^ 1;
	const int k = pos->king[us];
	const int kx = X88(k);
	const uint64_t occ = occupied(pos), enemy = pos->by_colour[them];
	uint64_t checkers, pinned, block = ~(uint64_t)0;
	uint64_t pin_line[64];
	int n = 0, i, s, ept;

	if (k >= 64)
		return 0;
	checkers = attackers(pos, k, them, enemy, occ);
	pinned = pinned_men(pos, pin_line);
	if (checkers) {
		const int c = LSB(checkers);
		block = SEVERAL(checkers) ? 0 : between_bb(k, c) | BIT(c);
	}

	/* King moves, tested with the king lifted so that it cannot hide behind itself. */
	for (i = 0; i < 8; i++) {
		const int y = kx + dir_d[i];
		int t;
		uint8_t p;
		if (OFFBOARD(y))
			continue;
		t = S64(y);
		p = b[t];
		if (p != GAMEDB__EMPTY && COLOUR(p) == us)
			continue;
		if (attacked(pos, t, them, enemy, occ & ~BIT(k)))
			continue;
		EMIT(k, t, 0, p ? GAMEDB__MF_CAPTURE : 0, GAMEDB__KING, TYPE(p));
	}
	if (!checkers) {
		int side;
		for (side = 1; side >= 0; side--) {
			if (pos->castle_rook[us][side] == GAMEDB__NO_SQ)
				continue;
			if (castle_check(pos, side, &out[n]) == 0) {
				n++;
				if (n >= GAMEDB__MAX_MOVES)
					return n;
			}
		}
	}
	if (!block)
		return n;

	ept = ep_target(pos);
	for (s = 0; s < 64; s++) {
		const uint8_t pc = b[s];
		const int x = X88(s);
		const uint64_t ok = (pinned & BIT(s)) ? block & pin_line[s] : block;
		int type;

		if (pc == GAMEDB__EMPTY || COLOUR(pc) != us)
			continue;
		type = TYPE(pc);
		switch (type) {
		case GAMEDB__PAWN: {
			const int fwd = us ? -16 : 16;
			const int start_rank = us ? 6 : 1;
			const int last_rank = us ? 0 : 7;
			int y = x + fwd, c;
			if (b[S64(y)] == GAMEDB__EMPTY) {
				const int t = S64(y);
				if (ok & BIT(t)) {
					if (RANK_OF(t) == last_rank) {
						int pr;
						for (pr = GAMEDB__QUEEN; pr >= GAMEDB__KNIGHT; pr--)
							EMIT(s, t, pr, 0, GAMEDB__PAWN, 0);
					} else {
						EMIT(s, t, 0, 0, GAMEDB__PAWN, 0);
					}
				}
				if (RANK_OF(s) == start_rank) {
					const int t2 = S64(y + fwd);
					if (b[t2] == GAMEDB__EMPTY && (ok & BIT(t2)))
						EMIT(s, t2, 0, GAMEDB__MF_DOUBLE, GAMEDB__PAWN, 0);
				}
			}
			for (c = 0; c < 2; c++) {
				const int dc = fwd + (c ? 1 : -1);
				uint8_t p;
				int t;
				y = x + dc;
				if (OFFBOARD(y))
					continue;
				t = S64(y);
				p = b[t];
				if (p != GAMEDB__EMPTY) {
					if (COLOUR(p) == us || !(ok & BIT(t)))
						continue;
					if (RANK_OF(t) == last_rank) {
						int pr;
						for (pr = GAMEDB__QUEEN; pr >= GAMEDB__KNIGHT; pr--)
							EMIT(s, t, pr, GAMEDB__MF_CAPTURE, GAMEDB__PAWN,
							     TYPE(p));
					} else {
						EMIT(s, t, 0, GAMEDB__MF_CAPTURE, GAMEDB__PAWN, TYPE(p));
					}
				} else if (t == ept && ep_legal(pos, s, t)) {
					/* Rare: tested on its own (covers the two-pawn rank pin too).
					 * A FEN ep square that means nothing is never a target. */
					EMIT(s, t, 0, GAMEDB__MF_CAPTURE | GAMEDB__MF_EP, GAMEDB__PAWN,
					     GAMEDB__PAWN);
				}
			}
			break;
		}
		case GAMEDB__KNIGHT:
			for (i = 0; i < 8; i++) {
				const int y = x + knight_d[i];
				uint8_t p;
				int t;
				if (OFFBOARD(y))
					continue;
				t = S64(y);
				p = b[t];
				if ((p != GAMEDB__EMPTY && COLOUR(p) == us) || !(ok & BIT(t)))
					continue;
				EMIT(s, t, 0, p ? GAMEDB__MF_CAPTURE : 0, GAMEDB__KNIGHT, TYPE(p));
			}
			break;
		case GAMEDB__BISHOP:
		case GAMEDB__ROOK:
		case GAMEDB__QUEEN: {
			const int d0 = type == GAMEDB__BISHOP ? 4 : 0;
			const int d1 = type == GAMEDB__ROOK ? 4 : 8;
			for (i = d0; i < d1; i++) {
				const int d = dir_d[i];
				int y;
				for (y = x + d; !OFFBOARD(y); y += d) {
					const int t = S64(y);
					const uint8_t p = b[t];
					if (p == GAMEDB__EMPTY) {
						if (ok & BIT(t))
							EMIT(s, t, 0, 0, type, 0);
						continue;
					}
					if (COLOUR(p) != us && (ok & BIT(t)))
						EMIT(s, t, 0, GAMEDB__MF_CAPTURE, type, TYPE(p));
					break;
				}
			}
			break;
		}
		default:
			break;
		}
	}
	if (pos->zh) {
		/* Drops: any empty square (between king and checker when in check); a drop moves no
		 * man, so it cannot expose the king. No pawn on the first or last rank. */
		uint64_t tg = ~occ & block;
		int type, h[GAMEDB__KING];
		for (type = GAMEDB__PAWN; type <= GAMEDB__QUEEN; type++)
			h[type] = gamedb__hand(pos, us, type);
		for (; tg; tg &= tg - 1) {
			const int t = LSB(tg);
			for (type = GAMEDB__PAWN; type <= GAMEDB__QUEEN; type++) {
				if (!h[type] || (type == GAMEDB__PAWN && (RANK_OF(t) == 0 || RANK_OF(t) == 7)))
					continue;
				EMIT(GAMEDB__NO_SQ, t, 0, GAMEDB__MF_DROP, type, 0);
			}
		}
	}
	return n;
}

#undef EMIT

int gamedb__gen_legal(const struct gamedb__pos *pos, struct gamedb__move *out)
{
	return gen(pos, out);
}

/*
 * 1 if a man among `movers` (of the side to move, no king, no pawn captures) can step onto the
 * empty square t: a pawn push, or a knight or slider move.
 */
static int can_reach_empty(const struct gamedb__pos *pos, int t, uint64_t movers, uint64_t occ)
{
	const int us = pos->stm;
	const uint64_t pawns = movers & pos->by_type[GAMEDB__PAWN];

	if (attackers(pos, t, us, movers & ~pawns, occ))
		return 1;
	if (us == 0) {
		if (t >= 8 && (pawns & BIT(t - 8)))
			return 1;
		if (RANK_OF(t) == 3 && !(occ & BIT(t - 8)) && (pawns & BIT(t - 16)))
			return 1;
	} else {
		if (t < 56 && (pawns & BIT(t + 8)))
			return 1;
		if (RANK_OF(t) == 4 && !(occ & BIT(t + 8)) && (pawns & BIT(t + 16)))
			return 1;
	}
	return 0;
}

/* 1 if the side to move has a man in hand that may be dropped on one of the empty squares `sqs`. */
static COLD_PATH int zh_can_drop(const struct gamedb__pos *pos, uint64_t sqs)
{
	const int us = pos->stm;

	if (!sqs)
		return 0;
	if (gamedb__hand(pos, us, GAMEDB__KNIGHT) | gamedb__hand(pos, us, GAMEDB__BISHOP) |
	    gamedb__hand(pos, us, GAMEDB__ROOK) | gamedb__hand(pos, us, GAMEDB__QUEEN))
		return 1;
	return gamedb__hand(pos, us, GAMEDB__PAWN) && (sqs & ~(RANK_BB(0) | RANK_BB(56)));
}

int gamedb__has_legal_move(const struct gamedb__pos *pos)
{
	const int us = pos->stm, them = us ^ 1, k = pos->king[us];
	const uint64_t occ = occupied(pos), own = pos->by_colour[us], enemy = pos->by_colour[them];
	const uint64_t *t = pos->by_type;
	uint64_t tg, checkers, pinned, movers, pin_line[64];
	int ept;

	if (k >= 64)
		return 0;
	/* King steps first: they are the likely way out of a check. */
	for (tg = king_bb[k] & ~own; tg; tg &= tg - 1)
		if (!attacked(pos, LSB(tg), them, enemy, occ & ~BIT(k)))
			return 1;
	checkers = attackers(pos, k, them, enemy, occ);
	if (SEVERAL(checkers))
		return 0; /* double check: only the king may move */
	pinned = pinned_men(pos, pin_line);
	movers = own & ~BIT(k) & ~pinned;
	ept = ep_target(pos);
	if (ept >= 0) {
		for (tg = pawn_bb[them][ept] & own & t[GAMEDB__PAWN]; tg; tg &= tg - 1)
			if (ep_legal(pos, LSB(tg), ept))
				return 1;
	}
	if (checkers) {
		/* One checker: take it, or step in between (a pinned man can do neither). */
		const int c = LSB(checkers);
		if (attackers(pos, c, us, movers, occ))
			return 1;
		for (tg = between_bb(k, c); tg; tg &= tg - 1)
			if (can_reach_empty(pos, LSB(tg), movers, occ))
				return 1;
		return pos->zh ? zh_can_drop(pos, between_bb(k, c)) : 0;
	}
	/* Not in check: any man with a pseudo-legal move has a legal one, if it is not pinned or
	 * moves along its pin line. For a slider the first square of each of its lines tells. */
	for (tg = own & ~BIT(k); tg; tg &= tg - 1) {
		const int s = LSB(tg);
		const uint64_t bs = BIT(s);
		uint64_t to;
		if (bs & t[GAMEDB__PAWN]) {
			const int ahead = us ? s - 8 : s + 8;
			to = pawn_bb[us][s] & enemy;
			if (!(occ & BIT(ahead)))
				to |= BIT(ahead);
		} else if (bs & t[GAMEDB__KNIGHT]) {
			to = knight_bb[s] & ~own;
		} else if (bs & t[GAMEDB__BISHOP]) {
			to = king_bb[s] & bishop_rays[s] & ~own;
		} else if (bs & t[GAMEDB__ROOK]) {
			to = king_bb[s] & rook_rays[s] & ~own;
		} else {
			to = king_bb[s] & ~own;
		}
		if (pinned & bs)
			to &= pin_line[s];
		if (to)
			return 1;
	}
	{
		struct gamedb__move m;
		int side;
		for (side = 1; side >= 0; side--)
			if (pos->castle_rook[us][side] != GAMEDB__NO_SQ && castle_check(pos, side, &m) == 0)
				return 1;
	}
	return pos->zh ? zh_can_drop(pos, ~occ) : 0;
}

uint64_t gamedb__perft(const struct gamedb__pos *pos, int depth)
{
	struct gamedb__move moves[GAMEDB__MAX_MOVES];
	uint64_t total = 0;
	int n, i;

	if (depth <= 0)
		return 1;
	n = gen(pos, moves);
	if (depth == 1)
		return (uint64_t)n;
	for (i = 0; i < n; i++) {
		struct gamedb__pos next = *pos;
		gamedb__pos_make(&next, &moves[i]);
		total += gamedb__perft(&next, depth - 1);
	}
	return total;
}
/* ------------------------------------------------------------------------------------------ */
/* Checking one given move */

/* move_complete() for a drop: m->piece the type, m->to the square. */
static COLD_PATH int drop_complete(const struct gamedb__pos *pos, struct gamedb__move *m)
{
	const int us = pos->stm, them = us ^ 1, k = pos->king[us], to = m->to, type = m->piece;

	if (!pos->zh || to >= 64 || type < GAMEDB__PAWN || type > GAMEDB__QUEEN || m->promo ||
	    !gamedb__hand(pos, us, type) || pos->sq[to] != GAMEDB__EMPTY)
		return -1;
	if (type == GAMEDB__PAWN && (RANK_OF(to) == 0 || RANK_OF(to) == 7))
		return -1;
	if (k < 64 && attacked(pos, k, them, pos->by_colour[them], occupied(pos) | BIT(to)))
		return -1;
	set_move(m, GAMEDB__NO_SQ, to, 0, GAMEDB__MF_DROP, type, 0);
	return 0;
}

/*
 * move_complete() (see board.h); checked: 1 if the side to move is in check in pos, 0 if not,
 * -1 if not known. Known not to be in check, a usual move needs no attack test (pin_safe()).
 */
static HOT_INLINE int complete(const struct gamedb__pos *pos, struct gamedb__move *m, int checked)
{
	const uint8_t *b = pos->sq;
	const int us = pos->stm, them = us ^ 1;
	const int from = m->from, to = m->to, promo = m->promo;
	int type, flags = 0, captured = 0, maybe_castle = -1;
	uint8_t pc, target;

	if (from >= 64 || to >= 64)
		return (m->flags & GAMEDB__MF_DROP) ? drop_complete(pos, m) : -1;
	pc = b[from];
	if (pc == GAMEDB__EMPTY || COLOUR(pc) != us)
		return -1;
	type = TYPE(pc);

	if (type == GAMEDB__KING && promo == 0) {
		const int base = us ? 56 : 0;
		int side;
		for (side = 0; side < 2; side++) {
			const int r = pos->castle_rook[us][side];
			const int kto = base + (side ? 6 : 2);
			int df;
			if (r == GAMEDB__NO_SQ)
				continue;
			if (to == r)
				return castle_check(pos, side, m);
			if (to != kto)
				continue;
			df = FILE_OF(to) - FILE_OF(from);
			if (df >= 2 || df <= -2 || from == to)
				return castle_check(pos, side, m);
			/* One step: an ordinary king move first, castling if that is illegal. */
			maybe_castle = side;
		}
	}

	if (from == to)
		return -1;
	target = b[to];
	if (target != GAMEDB__EMPTY) {
		if (COLOUR(target) == us || TYPE(target) == GAMEDB__KING)
			goto try_castle;
		flags |= GAMEDB__MF_CAPTURE;
		captured = TYPE(target);
	}

	if (type == GAMEDB__PAWN) {
		const int fwd = us ? -8 : 8;
		const int last_rank = us ? 0 : 7;
		const int start_rank = us ? 6 : 1;
		const int df = FILE_OF(to) - FILE_OF(from);
		if (df == 0) {
			if (target != GAMEDB__EMPTY)
				return -1;
			if (to == from + fwd) {
				/* single push */
			} else if (to == from + 2 * fwd && RANK_OF(from) == start_rank &&
				   b[from + fwd] == GAMEDB__EMPTY) {
				flags |= GAMEDB__MF_DOUBLE;
			} else {
				return -1;
			}
		} else if ((df == 1 || df == -1) && to == from + fwd + df) {
			if (target == GAMEDB__EMPTY) {
				const int cap = to - fwd;
				if (to != pos->ep || RANK_OF(to) != (us ? 2 : 5) ||
				    b[cap] != PC(GAMEDB__PAWN, them))
					return -1;
				flags |= GAMEDB__MF_CAPTURE | GAMEDB__MF_EP;
				captured = GAMEDB__PAWN;
			}
		} else {
			return -1;
		}
		if (RANK_OF(to) == last_rank) {
			if (promo < GAMEDB__KNIGHT || promo > GAMEDB__QUEEN)
				return -1;
		} else if (promo != 0) {
			return -1;
		}
	} else {
		if (promo != 0)
			return -1;
		switch (type) {
		case GAMEDB__KNIGHT:
			if (!(knight_bb[from] & BIT(to)))
				return -1;
			break;
		case GAMEDB__KING:
			if (!(king_bb[from] & BIT(to)))
				goto try_castle;
			break;
		default: {
			const uint64_t rays = type == GAMEDB__ROOK ? rook_rays[from]
					      : type == GAMEDB__BISHOP ? bishop_rays[from]
								     : rook_rays[from] | bishop_rays[from];
			if (!(rays & BIT(to)) || (between_bb(from, to) & occupied(pos)))
				return -1;
			break;
		}
		}
	}

	set_move(m, from, to, promo, flags, type, captured);
	if (checked == 0 && type != GAMEDB__KING && !(flags & GAMEDB__MF_EP)
		    ? pin_safe(pos, (unsigned)from, (unsigned)to)
		    : leaves_king_safe(pos, m))
		return 0;
try_castle:
	if (maybe_castle >= 0)
		return castle_check(pos, maybe_castle, m);
	return -1;
}

/*
 * 1 if the usual move from -> to of colour us just made in pos (not en passant), which put the
 * man `put` on `to`, gives check: with that man's own attack, or by opening the one line from the enemy
 * king through `from` (a discovered check; the mover staying on that line still shuts it).
 * Not a full attack test.
 */
static HOT_INLINE int gives_check(const struct gamedb__pos *pos, unsigned us, unsigned from,
				  unsigned to, unsigned put)
{
	const unsigned k = pos->king[us ^ 1];
	uint64_t occ, line;

	if (k >= 64)
		return 0;
	occ = occupied(pos);
	/* Each a single test, seldom passed (see leaves_king_line()). */
	if (((man_bb[put][to] & BIT(k)) != 0) & !(between_tab[to][k] & occ))
		return 1;
	line = line_tab[k][from];
	if (!leaves_king_line(line, k, from, to, occ))
		return 0;
	return slider_on_line(pos, k, line, us, occ);
}

/*
 * 1 if the completed move m, just made in pos, gives check (mate or not), else 0. A usual
 * move: gives_check(). Castling, en passant, null moves and drops, which move or lift more
 * than one man, take the full test.
 */
static HOT_INLINE int gave_check(const struct gamedb__pos *pos, const struct gamedb__move *m)
{
	const unsigned us = pos->stm ^ 1;

	if (m->flags & (GAMEDB__MF_NULL | GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q |
			GAMEDB__MF_EP | GAMEDB__MF_DROP))
		return gamedb__in_check(pos);
	return gives_check(pos, us, m->from, m->to, m->promo ? PC(m->promo, us) : PC(m->piece, us));
}

/*
 * What the completed move m, just made in pos, did to the side now to move: GAMEDB__CHECK_NONE,
 * _CHECK or _MATE (gave_check(), then the mate test).
 */
static HOT_INLINE uint8_t after_check(const struct gamedb__pos *pos, const struct gamedb__move *m)
{
	if (!gave_check(pos, m))
		return GAMEDB__CHECK_NONE;
	return gamedb__has_legal_move(pos) ? GAMEDB__CHECK_CHECK : GAMEDB__CHECK_MATE;
}

int gamedb__move_complete(const struct gamedb__pos *pos, struct gamedb__move *m)
{
	return complete(pos, m, -1);
}

/*
 * Checks and completes m as move_play() takes it (see board.h), checked as complete() takes
 * it; 0, or -1 if illegal.
 */
static HOT_INLINE int play_check(const struct gamedb__pos *pos, struct gamedb__move *m, int checked)
{
	if (m->flags & GAMEDB__MF_NULL)
		return checked == 1 ? -1 : gamedb__move_null(pos, m);
	if (m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q))
		return castle_check(pos, (m->flags & GAMEDB__MF_CASTLE_K) ? 1 : 0, m);
	return complete(pos, m, checked);
}

int gamedb__move_play(struct gamedb__pos *pos, struct gamedb__move *m)
{
	if (play_check(pos, m, -1) != 0)
		return -1;
	gamedb__pos_make(pos, m);
	m->check = after_check(pos, m);
	return 0;
}

/*
 * gamedb__move_play_san() and gamedb__move_play_fast() for what play_san_fast() leaves:
 * castling, null moves, king moves while castling rights remain, drops and the crazyhouse
 * bookkeeping. san NULL: no SAN (gamedb__move_play_fast()), m->check UNKNOWN or NONE.
 */
static COLD_PATH int play_san_general(struct gamedb__pos *pos, struct gamedb__move *m, char *san,
				      size_t *len, int checked)
{
	size_t n = 0;

	if (play_check(pos, m, checked) != 0)
		return -1;
	/* SAN from the position before the move; its check mark once the move is made. */
	if (!san) {
		/* no SAN */
	} else if (m->flags & GAMEDB__MF_NULL) {
		memcpy(san, "--", 2);
		n = 2;
	} else {
		n = san_body(pos, m, san);
	}
	if (pos->zh)
		zh_make(pos, m);
	else
		make_chess(pos, m);
	if (!san) {
		m->check = gave_check(pos, m) ? GAMEDB__CHECK_UNKNOWN : GAMEDB__CHECK_NONE;
		return 0;
	}
	m->check = after_check(pos, m);
	n = san_mark(san, n, m->check);
	if (len)
		*len = n;
	return 0;
}

/*
 * The end of play_san_fast() when the move gives check, or is en passant: m->check (the mate
 * test, or for en passant the whole check test), the check mark, the NUL and the length.
 */
static NO_INLINE int finish_check(const struct gamedb__pos *pos, struct gamedb__move *m, char *san,
				  size_t n, size_t *len)
{
	if (m->flags & GAMEDB__MF_EP)
		m->check = check_state(pos);
	else
		m->check = gamedb__has_legal_move(pos) ? GAMEDB__CHECK_CHECK : GAMEDB__CHECK_MATE;
	n = san_mark(san, n, m->check);
	if (len)
		*len = n;
	return 0;
}

/*
 * play_san_fast()'s instances but the FAST_FULL ones (which also take `checked`), each out of
 * line (see play_san_fast()): declared and defined by this one signature; those with SAN
 * (play_san_*) and those without (play_fast_*, for gamedb__move_play_fast()).
 */
#define PLAY_SAN_INSTANCE(name)                                                                \
	static NO_INLINE int name(struct gamedb__pos *pos, struct gamedb__move *m, char *san,  \
				  size_t *len)
#define PLAY_FAST_INSTANCE(name) static NO_INLINE int name(struct gamedb__pos *pos, struct gamedb__move *m)
static NO_INLINE int play_san_full(struct gamedb__pos *pos, struct gamedb__move *m, char *san,
				   size_t *len, int checked);
static NO_INLINE int play_fast_full(struct gamedb__pos *pos, struct gamedb__move *m, int checked);
PLAY_SAN_INSTANCE(play_san_king);
PLAY_SAN_INSTANCE(play_san_dis);
PLAY_SAN_INSTANCE(play_san_pawn);
PLAY_SAN_INSTANCE(play_san_usual);
PLAY_FAST_INSTANCE(play_fast_king);
PLAY_FAST_INSTANCE(play_fast_pawn);
PLAY_FAST_INSTANCE(play_fast_usual);

/* play_san_fast()'s instances: what the caller knows of the move. */
enum {
	FAST_USUAL, /* most moves (see play_san_fast()) */
	FAST_PAWN,  /* a pawn move, not in check */
	FAST_KING,  /* a king move, its side no castling rights left (in check or not) */
	FAST_DIS,   /* not in check, a man of the same type on a line through `to` (SAN only) */
	FAST_FULL   /* any other usual move */
};

/*
 * gamedb__move_play_san() for the usual chess move, from and to on the board (the caller
 * tests that, and that pos is not crazyhouse and m no castling or null move): the checks of
 * complete(), written once more for this one case so that what the move is (the man, the
 * captured man, the promotion, the flags) is worked out once, then m completed and the SAN
 * written (san_write()), the make (make_usual()) and the check test (gives_check()). Returns
 * 0, or -1 if the move is illegal (pos and m unchanged).
 *
 * One body, instances by `mode` (a constant, so each instance keeps only its own tests, and
 * the compiler keeps the move in registers), each out of line; gamedb__move_play_san() picks
 * one by the man on `from` and `checked` and jumps to it. FAST_USUAL takes most moves: the
 * side to move not in check, a knight, bishop, rook or queen, no other man of its type that
 * reaches `to` (no disambiguation to look for); its only loops are the pin test's and the
 * discovered check's, and it calls nothing but in tail position (finish_check() after a
 * check, play_san_dis() before anything changes). FAST_PAWN: pawn steps (en passant goes on
 * to FAST_FULL); FAST_KING: the king's attack test, its side without castling rights (with
 * rights the move may be castling: play_san_general()), in check or not; FAST_DIS: the
 * disambiguation; FAST_FULL: in check, en passant (attack tests).
 *
 * want_san (a constant too): 0 for gamedb__move_play_fast()'s instances, which leave out all
 * that only SAN needs: the disambiguation (so FAST_USUAL takes FAST_DIS's moves), the SAN's
 * writing and the mate test (m->check UNKNOWN for a check, or NONE). The rules are the same
 * code.
 */
static HOT_INLINE int play_san_fast(struct gamedb__pos *pos, struct gamedb__move *m, char *san,
				    size_t *len, int checked, const int mode, const int want_san)
{
	const uint8_t *b = pos->sq;
	const unsigned us = pos->stm;
	const unsigned from = m->from, to = m->to, promo = m->promo;
	const unsigned pc = b[from], target = b[to];
	unsigned type, flags = 0, put = pc, dis = 0;
	size_t n = 0;

	/* The man: ours, and of the types this instance takes (type and colour in one test). The
	 * type is then a constant, or of a range the compiler knows, in each instance. */
	if (mode == FAST_USUAL || mode == FAST_DIS) {
		type = pc ^ (us << 3);
		if (type - GAMEDB__KNIGHT > GAMEDB__QUEEN - GAMEDB__KNIGHT)
			return -1;
	} else if (mode == FAST_PAWN || mode == FAST_KING) {
		type = mode == FAST_PAWN ? GAMEDB__PAWN : GAMEDB__KING;
		if (pc != PC(type, us))
			return -1;
	} else {
		type = pc ^ (us << 3);
		if (type - 1 > GAMEDB__KING - 1)
			return -1;
	}
	if (mode == FAST_FULL && type == GAMEDB__KING &&
	    (pos->castle_rook[us][0] != GAMEDB__NO_SQ || pos->castle_rook[us][1] != GAMEDB__NO_SQ))
		return play_san_general(pos, m, want_san ? san : NULL, len, checked);
	/* The man taken, if any: theirs, not the king (one test, seldom passed: whether a move
	 * takes goes either way from move to move). */
	{
		const unsigned takes = target != GAMEDB__EMPTY;
		if (takes & ((target ^ ((us ^ 1) << 3)) - 1 > GAMEDB__QUEEN - 1))
			return -1;
		flags = takes ? GAMEDB__MF_CAPTURE : 0;
	}

	/* Geometry and occupancy: a pawn's steps by hand, the other men's from the tables. */
	if (mode == FAST_PAWN || (mode == FAST_FULL && type == GAMEDB__PAWN)) {
		const unsigned ahead = us ? from - 8 : from + 8;
		if (!(man_bb[pc][from] & BIT(to))) {
			if (target != GAMEDB__EMPTY)
				return -1;
			if (to == ahead) {
				/* single push */
			} else if (to == (us ? from - 16 : from + 16) && RANK_OF(from) == (us ? 6u : 1u) &&
				   b[ahead] == GAMEDB__EMPTY) {
				flags = GAMEDB__MF_DOUBLE;
			} else {
				return -1;
			}
		} else if (target == GAMEDB__EMPTY) {
			if (to != pos->ep || RANK_OF(to) != (us ? 2u : 5u) ||
			    b[us ? to + 8 : to - 8] != PC(GAMEDB__PAWN, us ^ 1))
				return -1;
			if (mode != FAST_FULL)
				return want_san ? play_san_full(pos, m, san, len, checked)
						: play_fast_full(pos, m, checked);
			flags = GAMEDB__MF_CAPTURE | GAMEDB__MF_EP;
		}
		if (RANK_OF(to) == (us ? 0u : 7u)) {
			if (promo - GAMEDB__KNIGHT > GAMEDB__QUEEN - GAMEDB__KNIGHT)
				return -1;
			put = PC(promo, us);
		} else if (promo != 0) {
			return -1;
		}
	} else if (promo != 0 || !(man_bb[pc][from] & BIT(to)) ||
		   (between_tab[from][to] & occupied(pos))) {
		return -1;
	}

	/*
	 * King safety. Known not to be in check, a man other than the king can only expose its
	 * king by leaving a pin (pin_safe()). Else one attack test on the board after the move.
	 */
	if (mode == FAST_KING ||
	    (mode == FAST_FULL && (type == GAMEDB__KING || checked != 0 || (flags & GAMEDB__MF_EP)))) {
		const unsigned ks = type == GAMEDB__KING ? to : pos->king[us];
		const uint64_t lift = (flags & GAMEDB__MF_EP) ? BIT(us ? to + 8 : to - 8) : 0;
		if (ks < 64 && attacked(pos, (int)ks, (int)us ^ 1,
					pos->by_colour[us ^ 1] & ~BIT(to) & ~lift,
					((occupied(pos) & ~BIT(from)) | BIT(to)) & ~lift))
			return -1;
	} else if (!pin_safe(pos, from, to)) {
		return -1;
	}
	/* Disambiguation: only with another man of the type on a line (or step) through `to`. */
	if (!want_san) {
		/* none: no SAN */
	} else if (mode == FAST_FULL || mode == FAST_DIS) {
		dis = san_disambig(pos, (uint8_t)pc, (int)from, (int)to, checked);
	} else if (mode == FAST_USUAL && type != GAMEDB__PAWN) {
		/* Another man of the type that reaches `to` (a slider: nothing between). */
		uint64_t cand = pos->by_type[type] & pos->by_colour[us] & ~BIT(from) & man_bb[pc][to];
		for (; cand; cand &= cand - 1)
			if (!(between_tab[to][LSB(cand)] & occupied(pos)))
				return play_san_dis(pos, m, san, len);
	}

	/* The move is legal: m completed and the SAN written now, before the make. */
	m->flags = (uint8_t)flags;
	m->piece = (uint8_t)type;
	m->captured = (uint8_t)((flags & GAMEDB__MF_EP) ? GAMEDB__PAWN : TYPE(target));
	m->rook_from = GAMEDB__NO_SQ;
	m->check = GAMEDB__CHECK_NONE;
	if (want_san) {
		n = san_write(san, (int)from, (int)to, (int)type, (int)promo,
			      flags & GAMEDB__MF_CAPTURE, dis);
		if (len)
			*len = n;
	}

	make_usual(pos, us, from, to, pc, type, target, put, flags);
	/* A check (or en passant, which lifts two men: the full test) calls, in tail position. */
	if (!want_san) {
		if ((flags & GAMEDB__MF_EP) ? gamedb__in_check(pos) : gives_check(pos, us, from, to, put))
			m->check = GAMEDB__CHECK_UNKNOWN; /* check; mate not known */
		return 0;
	}
	if ((flags & GAMEDB__MF_EP) || gives_check(pos, us, from, to, put))
		return finish_check(pos, m, san, n, len);
	return 0;
}

/* Out of line (not cold: a sixth of the moves come here), so that its attack tests' register
 * needs do not weigh on play_san_fast()'s usual instances. */
static NO_INLINE int play_san_full(struct gamedb__pos *pos, struct gamedb__move *m, char *san,
				   size_t *len, int checked)
{
	return play_san_fast(pos, m, san, len, checked, FAST_FULL, 1);
}
static NO_INLINE int play_fast_full(struct gamedb__pos *pos, struct gamedb__move *m, int checked)
{
	return play_san_fast(pos, m, NULL, NULL, checked, FAST_FULL, 0);
}

/*
 * Out of line, each with only what it needs: FAST_KING the king's attack test, FAST_DIS the
 * disambiguation; FAST_PAWN a quarter of the moves, so that the piece moves keep FAST_USUAL to
 * themselves; FAST_USUAL too, so that the dispatch below stays a leaf that saves no register
 * and the moves of the other instances do not pay this one's prologue first.
 */
PLAY_SAN_INSTANCE(play_san_king) { return play_san_fast(pos, m, san, len, 0, FAST_KING, 1); }
PLAY_SAN_INSTANCE(play_san_dis) { return play_san_fast(pos, m, san, len, 0, FAST_DIS, 1); }
PLAY_SAN_INSTANCE(play_san_pawn) { return play_san_fast(pos, m, san, len, 0, FAST_PAWN, 1); }
PLAY_SAN_INSTANCE(play_san_usual) { return play_san_fast(pos, m, san, len, 0, FAST_USUAL, 1); }
PLAY_FAST_INSTANCE(play_fast_king) { return play_san_fast(pos, m, NULL, NULL, 0, FAST_KING, 0); }
PLAY_FAST_INSTANCE(play_fast_pawn) { return play_san_fast(pos, m, NULL, NULL, 0, FAST_PAWN, 0); }
PLAY_FAST_INSTANCE(play_fast_usual) { return play_san_fast(pos, m, NULL, NULL, 0, FAST_USUAL, 0); }

/*
 * Picks the instance by what one look at the board says (the man on `from`'s type, whether
 * the side to move is in check); each instance tests the man again (colour, type) itself.
 * want_san a constant: gamedb__move_play_san() (1) and gamedb__move_play_fast() (0) each
 * stay a leaf that jumps to its own instances.
 */
static HOT_INLINE int play_pick(struct gamedb__pos *pos, struct gamedb__move *m, char *san,
				size_t *len, int checked, const int want_san)
{
	unsigned type, us;

	if (pos->zh || (m->flags & (GAMEDB__MF_NULL | GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) ||
	    m->from >= 64 || m->to >= 64)
		return play_san_general(pos, m, want_san ? san : NULL, len, checked);
	type = TYPE(pos->sq[m->from]);
	if (type == GAMEDB__KING) {
		/* In check or not: FAST_KING's attack test does not ask (two thirds of the moves
		 * out of a check are the king's). */
		us = pos->stm;
		if (pos->castle_rook[us][0] != GAMEDB__NO_SQ || pos->castle_rook[us][1] != GAMEDB__NO_SQ)
			return play_san_general(pos, m, want_san ? san : NULL, len, checked);
		return want_san ? play_san_king(pos, m, san, len) : play_fast_king(pos, m);
	}
	if (checked != 0)
		return want_san ? play_san_full(pos, m, san, len, checked)
				: play_fast_full(pos, m, checked);
	if (type == GAMEDB__PAWN)
		return want_san ? play_san_pawn(pos, m, san, len) : play_fast_pawn(pos, m);
	return want_san ? play_san_usual(pos, m, san, len) : play_fast_usual(pos, m);
}

int gamedb__move_play_san(struct gamedb__pos *pos, struct gamedb__move *m, char *san,
			  size_t *len, int checked)
{
	return play_pick(pos, m, san, len, checked, 1);
}

int gamedb__move_play_fast(struct gamedb__pos *pos, struct gamedb__move *m, int checked)
{
	return play_pick(pos, m, NULL, NULL, checked, 0);
}
