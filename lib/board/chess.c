/*
 * libgamedb - chess rules: positions, FEN, legal moves, SAN, SCID piece slots.
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

#include "board.h"

#define X88(s) ((s) + ((s) & ~7))
#define S64(x) (((x) + ((x) & 7)) >> 1)
#define OFFBOARD(x) ((x) & 0x88)
#define FILE_OF(s) ((s) & 7)
#define RANK_OF(s) ((s) >> 3)
#define BIT(s) ((uint64_t)1 << (s))

#define PC GAMEDB__PC
#define TYPE GAMEDB__PC_TYPE
#define COLOUR GAMEDB__PC_COLOUR

/* 0x88 steps: the first four are orthogonal (rook lines), the last four diagonal. */
static const int8_t dir_d[8] = {1, -1, 16, -16, 15, 17, -15, -17};
static const int8_t knight_d[8] = {33, 31, 18, 14, -14, -18, -31, -33};

static const char piece_upper[8] = {'?', 'P', 'N', 'B', 'R', 'Q', 'K', '?'};

static int imin(int a, int b)
{
	return a < b ? a : b;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

/* ------------------------------------------------------------------------------------------ */
/* Bitboards */

/* Index of the lowest set bit of a non-zero b. */
#if defined(__GNUC__) || defined(__clang__)
#define LSB(b) __builtin_ctzll(b)
#else
static int lsb_portable(uint64_t b)
{
	int n = 0;
	while (!(b & 1)) {
		b >>= 1;
		n++;
	}
	return n;
}
#define LSB(b) lsb_portable(b)
#endif

/* For the few small functions on the hottest paths. */
#if defined(__GNUC__) || defined(__clang__)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

/* Nonzero when b has more than one bit set. */
#define SEVERAL(b) ((b) & ((b) - 1))

#define BB_FILE_A UINT64_C(0x0101010101010101)
#define BB_FILE_B (BB_FILE_A << 1)
#define BB_FILE_G (BB_FILE_A << 6)
#define BB_FILE_H (BB_FILE_A << 7)
#define BB_RANK_1 UINT64_C(0xFF)
#define BB_DIAG_A1H8 UINT64_C(0x8040201008040201)
#define BB_DIAG_H1A8 UINT64_C(0x0102040810204080)

/*
 * The constant tables are written as expressions of the square, expanded for all 64 squares
 * by SQ64, so the compiler builds them and nothing is set up at run time.
 */
#define SQ8(M, r) M(8 * (r) + 0), M(8 * (r) + 1), M(8 * (r) + 2), M(8 * (r) + 3), \
	M(8 * (r) + 4), M(8 * (r) + 5), M(8 * (r) + 6), M(8 * (r) + 7)
#define SQ64(M) SQ8(M, 0), SQ8(M, 1), SQ8(M, 2), SQ8(M, 3), SQ8(M, 4), SQ8(M, 5), SQ8(M, 6), \
	SQ8(M, 7)

#define RANK_BB(s) (BB_RANK_1 << ((s) & 56))
#define FILE_BB(s) (BB_FILE_A << ((s) & 7))
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

static const uint64_t diag_bb[64] = {SQ64(DIAG_BB)};
static const uint64_t anti_bb[64] = {SQ64(ANTI_BB)};
static const uint64_t rook_rays[64] = {SQ64(ROOK_RAYS_BB)};
static const uint64_t bishop_rays[64] = {SQ64(BISHOP_RAYS_BB)};
static const uint64_t knight_bb[64] = {SQ64(KNIGHT_BB)};
static const uint64_t king_bb[64] = {SQ64(KING_BB)};
/* pawn_bb[c][s]: the squares a pawn of colour c on s attacks. */
static const uint64_t pawn_bb[2][64] = {{SQ64(WPAWN_BB)}, {SQ64(BPAWN_BB)}};

/* The whole line (rank, file or diagonal) through a and b, or 0 if they share none. */
static uint64_t line_bb(int a, int b)
{
	if (RANK_OF(a) == RANK_OF(b))
		return RANK_BB(a);
	if (FILE_OF(a) == FILE_OF(b))
		return FILE_BB(a);
	if (diag_bb[a] & BIT(b))
		return diag_bb[a];
	if (anti_bb[a] & BIT(b))
		return anti_bb[a];
	return 0;
}

/* The squares strictly between a and b on `line` (a line through both). */
static uint64_t span_bb(int a, int b, uint64_t line)
{
	const int lo = imin(a, b), hi = imax(a, b);
	return line & ((~(uint64_t)1) << lo) & (BIT(hi) - 1);
}

/* The squares strictly between a and b when they share a line, else 0. */
static uint64_t between_bb(int a, int b)
{
	return span_bb(a, b, line_bb(a, b));
}

static uint64_t occupied(const struct gamedb__pos *pos)
{
	return pos->by_colour[0] | pos->by_colour[1];
}

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
		if (!(span_bb(s, c, RANK_OF(s) == RANK_OF(c) ? RANK_BB(s) : FILE_BB(s)) & occ))
			a |= BIT(c);
		sl &= sl - 1;
	}
	sl = att & (t[GAMEDB__BISHOP] | t[GAMEDB__QUEEN]) & bishop_rays[s];
	while (sl) {
		const int c = LSB(sl);
		if (!(span_bb(s, c, (diag_bb[s] & BIT(c)) ? diag_bb[s] : anti_bb[s]) & occ))
			a |= BIT(c);
		sl &= sl - 1;
	}
	return a;
}

/* 1 if one of the men `att` of colour `by` attacks s with occupancy occ (see attackers()). */
static HOT_INLINE int attacked(const struct gamedb__pos *pos, int s, int by, uint64_t att, uint64_t occ)
{
	const uint64_t *t = pos->by_type;
	uint64_t sl;

	if (((knight_bb[s] & t[GAMEDB__KNIGHT]) | (king_bb[s] & t[GAMEDB__KING]) |
	     (pawn_bb[by ^ 1][s] & t[GAMEDB__PAWN])) & att)
		return 1;
	sl = att & (t[GAMEDB__ROOK] | t[GAMEDB__QUEEN]) & rook_rays[s];
	while (sl) {
		const int c = LSB(sl);
		if (!(span_bb(s, c, RANK_OF(s) == RANK_OF(c) ? RANK_BB(s) : FILE_BB(s)) & occ))
			return 1;
		sl &= sl - 1;
	}
	sl = att & (t[GAMEDB__BISHOP] | t[GAMEDB__QUEEN]) & bishop_rays[s];
	while (sl) {
		const int c = LSB(sl);
		if (!(span_bb(s, c, (diag_bb[s] & BIT(c)) ? diag_bb[s] : anti_bb[s]) & occ))
			return 1;
		sl &= sl - 1;
	}
	return 0;
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
		const uint64_t b = span_bb(k, c, line) & occ;
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

/* 1 if a side still has a castling right (the four rook squares are not all GAMEDB__NO_SQ). */
static int any_castling(const struct gamedb__pos *pos)
{
	return (pos->castle_rook[0][0] & pos->castle_rook[0][1] & pos->castle_rook[1][0] &
		pos->castle_rook[1][1]) != GAMEDB__NO_SQ;
}

void gamedb__pos_make(struct gamedb__pos *pos, const struct gamedb__move *m)
{
	const int us = pos->stm, them = us ^ 1;
	uint8_t *b = pos->sq;

	pos->ep = GAMEDB__NO_SQ;
	if (pos->halfmove < UINT16_MAX)
		pos->halfmove++;
	if (us == 1 && pos->fullmove < UINT32_MAX)
		pos->fullmove++;
	pos->stm = (uint8_t)them;

	if (!(m->flags & (GAMEDB__MF_NULL | GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q))) {
		/* The usual move; the clause after the board update handles en passant's pawn. */
		const int from = m->from, to = m->to;
		const uint8_t pc = b[from], cap = b[to];
		const uint8_t put = m->promo ? PC(m->promo, us) : pc;
		const int type = TYPE(pc);
		const uint64_t fb = BIT(from), tb = BIT(to);

		if (cap != GAMEDB__EMPTY) {
			pos->by_colour[them] ^= tb;
			pos->by_type[TYPE(cap)] ^= tb;
			pos->halfmove = 0;
			if (any_castling(pos)) {
				if (to == pos->castle_rook[them][0])
					pos->castle_rook[them][0] = GAMEDB__NO_SQ;
				if (to == pos->castle_rook[them][1])
					pos->castle_rook[them][1] = GAMEDB__NO_SQ;
			}
		}
		pos->by_colour[us] ^= fb | tb;
		pos->by_type[type] ^= fb;
		pos->by_type[TYPE(put)] ^= tb;
		b[to] = put;
		b[from] = GAMEDB__EMPTY;
		if (type == GAMEDB__PAWN) {
			pos->halfmove = 0;
			if (m->flags & GAMEDB__MF_EP) {
				const int cs = us ? to + 8 : to - 8;
				bb_flip(pos, cs, b[cs]);
				b[cs] = GAMEDB__EMPTY;
			} else if (to - from == 16 || from - to == 16) {
				/*
				 * The ep square is recorded after every double push that has an enemy
				 * pawn beside the destination (a pseudo-legal en-passant capture),
				 * whether or not the capture would actually be legal. This is what
				 * Scid's DoSimpleMove does, so our FENs match Scid's.
				 */
				const uint8_t enemy_pawn = PC(GAMEDB__PAWN, them);
				if ((FILE_OF(to) > 0 && b[to - 1] == enemy_pawn) ||
				    (FILE_OF(to) < 7 && b[to + 1] == enemy_pawn))
					pos->ep = (uint8_t)((from + to) / 2);
			}
		} else if (any_castling(pos)) {
			if (type == GAMEDB__KING) {
				pos->castle_rook[us][0] = pos->castle_rook[us][1] = GAMEDB__NO_SQ;
			} else {
				if (from == pos->castle_rook[us][0])
					pos->castle_rook[us][0] = GAMEDB__NO_SQ;
				if (from == pos->castle_rook[us][1])
					pos->castle_rook[us][1] = GAMEDB__NO_SQ;
			}
		}
		if (type == GAMEDB__KING)
			pos->king[us] = (uint8_t)to;
	} else if (m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) {
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
 * 1 if the completed move m (not castling, not null) leaves the mover's king safe. No copy:
 * the attack test runs on the occupancy after the move, with the captured man left out.
 */
static int leaves_king_safe(const struct gamedb__pos *pos, const struct gamedb__move *m)
{
	const int us = pos->stm, them = us ^ 1;
	const int k = m->piece == GAMEDB__KING ? m->to : pos->king[us];
	uint64_t occ = (occupied(pos) & ~BIT(m->from)) | BIT(m->to);
	uint64_t att = pos->by_colour[them] & ~BIT(m->to);

	if (k >= 64)
		return 1;
	if (m->flags & GAMEDB__MF_EP) {
		const int cap = us ? m->to + 8 : m->to - 8;
		occ &= ~BIT(cap);
		att &= ~BIT(cap);
	}
	return !attacked(pos, k, them, att, occ);
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
	lo = imin(imin(k, kto), imin(r, rto));
	hi = imax(imax(k, kto), imax(r, rto));
	for (s = lo; s <= hi; s++)
		if (s != k && s != r && pos->sq[s] != GAMEDB__EMPTY)
			return -1;
	occ = occupied(pos) & ~BIT(k) & ~BIT(r);
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
		return 0;
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
	return 0;
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

int gamedb__move_complete(const struct gamedb__pos *pos, struct gamedb__move *m)
{
	const uint8_t *b = pos->sq;
	const int us = pos->stm, them = us ^ 1;
	const int from = m->from, to = m->to, promo = m->promo;
	int type, flags = 0, captured = 0, maybe_castle = -1;
	uint8_t pc, target;

	if (from >= 64 || to >= 64)
		return -1;
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
	if (leaves_king_safe(pos, m))
		return 0;
try_castle:
	if (maybe_castle >= 0)
		return castle_check(pos, maybe_castle, m);
	return -1;
}

/*
 * What the move just made in pos did to the side now to move: GAMEDB__CHECK_NONE, _CHECK or
 * _MATE.
 */
static uint8_t check_state(const struct gamedb__pos *pos)
{
	if (!gamedb__in_check(pos))
		return GAMEDB__CHECK_NONE;
	return gamedb__has_legal_move(pos) ? GAMEDB__CHECK_CHECK : GAMEDB__CHECK_MATE;
}

int gamedb__move_play(struct gamedb__pos *pos, struct gamedb__move *m)
{
	int rc;

	if (m->flags & GAMEDB__MF_NULL)
		rc = gamedb__move_null(pos, m);
	else if (m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q))
		rc = castle_check(pos, (m->flags & GAMEDB__MF_CASTLE_K) ? 1 : 0, m);
	else
		rc = gamedb__move_complete(pos, m);
	if (rc != 0)
		return -1;
	gamedb__pos_make(pos, m);
	m->check = check_state(pos);
	return 0;
}
/* ------------------------------------------------------------------------------------------ */
/* Notation */

static char file_char(int s)
{
	return (char)('a' + FILE_OF(s));
}

static char rank_char(int s)
{
	return (char)('1' + RANK_OF(s));
}

size_t gamedb__move_uci(const struct gamedb__move *m, char *buf)
{
	size_t n = 0;
	if (m->flags & GAMEDB__MF_NULL) {
		memcpy(buf, "0000", 5);
		return 4;
	}
	buf[n++] = file_char(m->from);
	buf[n++] = rank_char(m->from);
	buf[n++] = file_char(m->to);
	buf[n++] = rank_char(m->to);
	if (m->promo)
		buf[n++] = (char)(piece_upper[m->promo & 7] - 'A' + 'a');
	buf[n] = '\0';
	return n;
}

/*
 * 1 if the piece `pc` (same type and colour as the mover) standing on c may legally go to `to`
 * as well. Only N, B, R, Q reach here, so no en passant or castling to care about; the king
 * does not move, so one attack test on a board copy settles pins.
 */

/*
 * 1 if the man on c (same type and colour as the mover) may legally go to `to` as well. Only
 * N, B, R, Q reach here, so no en passant or castling to care about; the king does not move,
 * so one attack test with c moved (and the man on `to` taken) settles pins.
 */
static int other_can_go(const struct gamedb__pos *pos, int c, int to)
{
	const int us = pos->stm, them = us ^ 1, k = pos->king[us];
	const uint64_t occ = (occupied(pos) & ~BIT(c)) | BIT(to);

	if (k >= 64)
		return 1;
	return !attacked(pos, k, them, pos->by_colour[them] & ~BIT(to), occ);
}

size_t gamedb__move_san(const struct gamedb__pos *pos, const struct gamedb__move *m, char *buf)
{
	const int from = m->from, to = m->to, type = m->piece;
	size_t n = 0;
	uint8_t check = m->check;

	if (m->flags & GAMEDB__MF_NULL) {
		memcpy(buf, "--", 3);
		return 2;
	}
	if (m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) {
		const char *s = (m->flags & GAMEDB__MF_CASTLE_K) ? "O-O" : "O-O-O";
		n = strlen(s);
		memcpy(buf, s, n);
	} else if (type == GAMEDB__PAWN) {
		if (m->flags & GAMEDB__MF_CAPTURE) {
			buf[n++] = file_char(from);
			buf[n++] = 'x';
		}
		buf[n++] = file_char(to);
		buf[n++] = rank_char(to);
		if (m->promo) {
			buf[n++] = '=';
			buf[n++] = piece_upper[m->promo & 7];
		}
	} else {
		buf[n++] = piece_upper[type & 7];
		if (type != GAMEDB__KING) {
			/* The other men of the same type and colour that reach `to`. */
			const uint64_t occ = occupied(pos);
			const uint64_t same = pos->by_type[type & 7] & pos->by_colour[pos->stm] & ~BIT(from);
			uint64_t cand;
			int others = 0, same_file = 0, same_rank = 0;

			if (type == GAMEDB__KNIGHT) {
				cand = knight_bb[to] & same;
			} else {
				uint64_t sl = 0;
				if (type != GAMEDB__BISHOP)
					sl |= rook_rays[to] & same;
				if (type != GAMEDB__ROOK)
					sl |= bishop_rays[to] & same;
				for (cand = 0; sl; sl &= sl - 1)
					if (!(between_bb(to, LSB(sl)) & occ))
						cand |= BIT(LSB(sl));
			}
			for (; cand; cand &= cand - 1) {
				const int c = LSB(cand);
				if (!other_can_go(pos, c, to))
					continue;
				others++;
				same_file |= FILE_OF(c) == FILE_OF(from);
				same_rank |= RANK_OF(c) == RANK_OF(from);
			}
			if (others) {
				if (!same_file) {
					buf[n++] = file_char(from);
				} else if (!same_rank) {
					buf[n++] = rank_char(from);
				} else {
					buf[n++] = file_char(from);
					buf[n++] = rank_char(from);
				}
			}
		}
		if (m->flags & GAMEDB__MF_CAPTURE)
			buf[n++] = 'x';
		buf[n++] = file_char(to);
		buf[n++] = rank_char(to);
	}

	if (check == GAMEDB__CHECK_UNKNOWN) {
		struct gamedb__pos next = *pos;
		gamedb__pos_make(&next, m);
		check = check_state(&next);
	}
	if (check == GAMEDB__CHECK_CHECK)
		buf[n++] = '+';
	else if (check == GAMEDB__CHECK_MATE)
		buf[n++] = '#';
	buf[n] = '\0';
	return n;
}
static int is_file_ch(char c)
{
	return c >= 'a' && c <= 'h';
}

static int is_rank_ch(char c)
{
	return c >= '1' && c <= '8';
}

static int promo_of_char(char c)
{
	switch (c) {
	case 'Q': case 'q': return GAMEDB__QUEEN;
	case 'R': case 'r': return GAMEDB__ROOK;
	case 'B': case 'b': return GAMEDB__BISHOP;
	case 'N': case 'n': return GAMEDB__KNIGHT;
	default: return 0;
	}
}

/* "O-O", "0-0", "o-o" (and the three-letter queen-side forms): 1 king side, 0 queen side, -1. */
static int castle_token(const char *s, size_t len)
{
	size_t i, os = 0;
	for (i = 0; i < len; i++) {
		const char c = s[i];
		if (c == 'O' || c == 'o' || c == '0') {
			os++;
			if (i + 1 < len && s[i + 1] != '-')
				return -1;
		} else if (c != '-' || i == 0 || i + 1 == len) {
			return -1;
		}
	}
	if (os == 2)
		return 1;
	if (os == 3)
		return 0;
	return -1;
}

int gamedb__parse_san(const struct gamedb__pos *pos, const char *san, struct gamedb__move *m)
{
	struct gamedb__move moves[GAMEDB__MAX_MOVES];
	char s[24];
	size_t len = 0, i;
	int type = GAMEDB__PAWN, promo = 0, to, from_file = -1, from_rank = -1, n, found = -1;
	int side;

	while (*san == ' ' || *san == '\t')
		san++;
	while (san[len] && san[len] != ' ' && san[len] != '\t' && len < sizeof s - 1) {
		s[len] = san[len];
		len++;
	}
	if (san[len] && san[len] != ' ' && san[len] != '\t')
		return -1; /* too long to be a move */
	s[len] = '\0';
	/* Annotation suffixes, and an optional "e.p." / "ep". */
	while (len > 0 && (s[len - 1] == '+' || s[len - 1] == '#' || s[len - 1] == '!' ||
			   s[len - 1] == '?'))
		len--;
	if (len > 4 && memcmp(s + len - 4, "e.p.", 4) == 0)
		len -= 4;
	else if (len > 4 && memcmp(s + len - 2, "ep", 2) == 0 && is_rank_ch(s[len - 3]))
		len -= 2;
	s[len] = '\0';
	if (len == 0)
		return -1;

	if (strcmp(s, "--") == 0 || strcmp(s, "Z0") == 0 || strcmp(s, "z0") == 0 ||
	    strcmp(s, "0000") == 0 || strcmp(s, "@@@@") == 0)
		return gamedb__move_null(pos, m);
	side = castle_token(s, len);
	if (side >= 0)
		return gamedb__move_castle(pos, side, m);

	/* Promotion: "e8=Q", "e8Q", "e8q", "e8(Q)", "e8/Q". */
	if (len >= 3 && s[len - 1] == ')' && s[len - 3] == '(') {
		promo = promo_of_char(s[len - 2]);
		if (!promo)
			return -1;
		len -= 3;
	} else if (len >= 3 && promo_of_char(s[len - 1]) &&
		   (is_rank_ch(s[len - 2]) || s[len - 2] == '=' || s[len - 2] == '/')) {
		promo = promo_of_char(s[len - 1]);
		len--;
		if (s[len - 1] == '=' || s[len - 1] == '/')
			len--;
	}
	if (len < 2 || !is_file_ch(s[len - 2]) || !is_rank_ch(s[len - 1]))
		return -1;
	to = (s[len - 2] - 'a') + 8 * (s[len - 1] - '1');
	len -= 2;

	i = 0;
	if (len > 0) {
		switch (s[0]) {
		case 'K': type = GAMEDB__KING; i = 1; break;
		case 'Q': type = GAMEDB__QUEEN; i = 1; break;
		case 'R': type = GAMEDB__ROOK; i = 1; break;
		case 'B': type = GAMEDB__BISHOP; i = 1; break;
		case 'N': type = GAMEDB__KNIGHT; i = 1; break;
		case 'P': type = GAMEDB__PAWN; i = 1; break;
		default: break;
		}
	}
	for (; i < len; i++) {
		const char c = s[i];
		if (c == 'x' || c == 'X' || c == ':' || c == '-')
			continue;
		if (is_file_ch(c) && from_file < 0 && from_rank < 0)
			from_file = c - 'a';
		else if (is_rank_ch(c) && from_rank < 0)
			from_rank = c - '1';
		else
			return -1;
	}

	n = gen(pos, moves);
	for (i = 0; i < (size_t)n; i++) {
		const struct gamedb__move *c = &moves[i];
		if (c->piece != type || c->to != to || c->promo != promo)
			continue;
		if (c->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q))
			continue;
		if (from_file >= 0 && FILE_OF(c->from) != from_file)
			continue;
		if (from_rank >= 0 && RANK_OF(c->from) != from_rank)
			continue;
		if (found >= 0)
			return -1; /* ambiguous */
		found = (int)i;
	}
	if (found >= 0) {
		*m = moves[found];
		return 0;
	}
	/* Coordinate notation with a full from square ("e1g1", "e7e8q"): let move_complete judge. */
	if (from_file >= 0 && from_rank >= 0) {
		struct gamedb__move t;
		memset(&t, 0, sizeof t);
		t.from = (uint8_t)(from_file + 8 * from_rank);
		t.to = (uint8_t)to;
		t.promo = (uint8_t)promo;
		if (gamedb__move_complete(pos, &t) == 0 && (type == GAMEDB__PAWN || t.piece == type)) {
			*m = t;
			return 0;
		}
	}
	return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* ------------------------------------------------------------------------------------------ */
/* Positions and FEN */

static const uint8_t start_back[8] = {GAMEDB__ROOK, GAMEDB__KNIGHT, GAMEDB__BISHOP, GAMEDB__QUEEN,
				      GAMEDB__KING, GAMEDB__BISHOP, GAMEDB__KNIGHT, GAMEDB__ROOK};

static void pos_clear(struct gamedb__pos *pos)
{
	memset(pos, 0, sizeof *pos);
	pos->king[0] = pos->king[1] = GAMEDB__NO_SQ;
	pos->ep = GAMEDB__NO_SQ;
	pos->castle_rook[0][0] = pos->castle_rook[0][1] = GAMEDB__NO_SQ;
	pos->castle_rook[1][0] = pos->castle_rook[1][1] = GAMEDB__NO_SQ;
	pos->fullmove = 1;
}

void gamedb__pos_startpos(struct gamedb__pos *pos)
{
	int f;
	pos_clear(pos);
	for (f = 0; f < 8; f++) {
		pos->sq[f] = PC(start_back[f], 0);
		pos->sq[8 + f] = PC(GAMEDB__PAWN, 0);
		pos->sq[48 + f] = PC(GAMEDB__PAWN, 1);
		pos->sq[56 + f] = PC(start_back[f], 1);
	}
	pos->by_colour[0] = UINT64_C(0xFFFF);
	pos->by_colour[1] = UINT64_C(0xFFFF) << 48;
	pos->by_type[GAMEDB__PAWN] = UINT64_C(0x00FF00000000FF00);
	pos->by_type[GAMEDB__KNIGHT] = BIT(1) | BIT(6) | BIT(57) | BIT(62);
	pos->by_type[GAMEDB__BISHOP] = BIT(2) | BIT(5) | BIT(58) | BIT(61);
	pos->by_type[GAMEDB__ROOK] = BIT(0) | BIT(7) | BIT(56) | BIT(63);
	pos->by_type[GAMEDB__QUEEN] = BIT(3) | BIT(59);
	pos->by_type[GAMEDB__KING] = BIT(4) | BIT(60);
	pos->king[0] = 4;
	pos->king[1] = 60;
	pos->castle_rook[0][0] = 0;
	pos->castle_rook[0][1] = 7;
	pos->castle_rook[1][0] = 56;
	pos->castle_rook[1][1] = 63;
}

/* FEN letters: the man, or 0. */
static const uint8_t piece_of_char[256] = {
	['P'] = PC(GAMEDB__PAWN, 0),   ['N'] = PC(GAMEDB__KNIGHT, 0), ['B'] = PC(GAMEDB__BISHOP, 0),
	['R'] = PC(GAMEDB__ROOK, 0),   ['Q'] = PC(GAMEDB__QUEEN, 0),  ['K'] = PC(GAMEDB__KING, 0),
	['p'] = PC(GAMEDB__PAWN, 1),   ['n'] = PC(GAMEDB__KNIGHT, 1), ['b'] = PC(GAMEDB__BISHOP, 1),
	['r'] = PC(GAMEDB__ROOK, 1),   ['q'] = PC(GAMEDB__QUEEN, 1),  ['k'] = PC(GAMEDB__KING, 1),
};

/* The FEN letter of each man (index GAMEDB__PC(type, colour)). */
static const char fen_char[16] = {'?', 'P', 'N', 'B', 'R', 'Q', 'K', '?',
				  '?', 'p', 'n', 'b', 'r', 'q', 'k', '?'};

/*
 * Grants one castling right from a FEN letter. `file` is the rook's file for X-FEN/Shredder
 * letters, or -1 for K/Q meaning the outermost rook on that side. Rights that don't match the
 * board (no king on its back rank, no such rook) are dropped rather than rejected.
 */
static void grant_castle(struct gamedb__pos *pos, int c, int side, int file)
{
	const int base = c ? 56 : 0;
	const int k = pos->king[c];
	const uint8_t rook = PC(GAMEDB__ROOK, c);
	int kf, f;

	if (k >= 64 || RANK_OF(k) != RANK_OF(base))
		return;
	kf = FILE_OF(k);
	if (file < 0) {
		for (f = side ? 7 : 0; f != kf; f += side ? -1 : 1)
			if (pos->sq[base + f] == rook)
				break;
		if (f == kf)
			return;
	} else {
		f = file;
		if (f == kf || pos->sq[base + f] != rook)
			return;
		side = f > kf;
	}
	pos->castle_rook[c][side] = (uint8_t)(base + f);
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static int is_ws_or_end(char c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Number of set bits (by hand: without a popcnt instruction the builtin is a library call). */
static int popcount(uint64_t b)
{
	b = b - ((b >> 1) & UINT64_C(0x5555555555555555));
	b = (b & UINT64_C(0x3333333333333333)) + ((b >> 2) & UINT64_C(0x3333333333333333));
	b = (b + (b >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
	return (int)((b * UINT64_C(0x0101010101010101)) >> 56);
}

/*
 * The first fault among the men placed so far, in FEN order, or NULL: what a test of each man
 * as it is placed would have met first. Only called once something is wrong, so that the
 * reason given does not depend on the order of the tests.
 */
static const char *placed_men_fault(const struct gamedb__pos *pos)
{
	int count[2] = {0, 0}, rank, file;

	for (rank = 7; rank >= 0; rank--)
		for (file = 0; file < 8; file++) {
			const uint8_t pc = pos->sq[rank * 8 + file];
			if (pc == GAMEDB__EMPTY)
				continue;
			if (TYPE(pc) == GAMEDB__PAWN && (rank == 0 || rank == 7))
				return "pawn on the first or last rank";
			if (++count[COLOUR(pc)] > 16)
				return "more than 16 pieces of one colour"; /* as Scid: 16 men at most */
		}
	return NULL;
}

/* gamedb__pos_from_fen(); also gives where the board field starts and its length. */
static int parse_fen(struct gamedb__pos *pos, const char *fen, const char **why,
		     const char **board, size_t *board_len)
{
	const char *p, *dummy;
	int rank = 7, file = 0, colour;

	if (!why)
		why = &dummy;
	*why = NULL;
	pos_clear(pos);
	if (!fen) {
		*why = "no FEN";
		return -1;
	}
	p = skip_ws(fen);
	*board = p;

	/* Piece placement: the men go on the board here, the checks on them follow. */
	for (;; p++) {
		const unsigned char ch = (unsigned char)*p;
		const uint8_t pc = piece_of_char[ch];
		if (pc) {
			const int sq = rank * 8 + file;
			if (file >= 8)
				goto too_many_squares;
			pos->sq[sq] = pc;
			pos->by_colour[COLOUR(pc)] |= BIT(sq);
			pos->by_type[TYPE(pc)] |= BIT(sq);
			file++;
		} else if (ch >= '1' && ch <= '8') {
			file += ch - '0';
			if (file > 8)
				goto too_many_squares;
		} else if (ch == '/') {
			if (file != 8) {
				*why = placed_men_fault(pos);
				if (!*why)
					*why = "rank has fewer than 8 squares";
				return -1;
			}
			if (rank == 0) { /* tolerate a trailing '/' after the first rank */
				p++;
				break;
			}
			rank--;
			file = 0;
		} else {
			break;
		}
	}
	if ((pos->by_type[GAMEDB__PAWN] & (RANK_BB(0) | RANK_BB(56))) ||
	    popcount(pos->by_colour[0]) > 16 || popcount(pos->by_colour[1]) > 16) {
		*why = placed_men_fault(pos);
		return -1;
	}
	if (rank != 0 || file != 8) {
		*why = "board description incomplete";
		return -1;
	}
	for (colour = 0; colour < 2; colour++) {
		const uint64_t k = pos->by_type[GAMEDB__KING] & pos->by_colour[colour];
		if (!k || SEVERAL(k)) {
			*why = "each side needs exactly one king";
			return -1;
		}
		pos->king[colour] = (uint8_t)LSB(k);
	}
	*board_len = (size_t)(p - *board);

	/* Side to move. */
	if (!is_ws_or_end(*p)) {
		*why = "bad board description";
		return -1;
	}
	p = skip_ws(p);
	if (*p == 'w' || *p == 'W') {
		pos->stm = 0;
	} else if (*p == 'b' || *p == 'B') {
		pos->stm = 1;
	} else {
		*why = "bad side to move";
		return -1;
	}
	p++;
	if (!is_ws_or_end(*p)) {
		*why = "bad side to move";
		return -1;
	}
	if (attacked(pos, pos->king[pos->stm ^ 1], pos->stm, pos->by_colour[pos->stm],
		     occupied(pos))) {
		*why = "side not to move is in check";
		return -1;
	}

	/* Castling. A missing field means: guess from kings and rooks on their home squares. */
	p = skip_ws(p);
	if (*p == '\0') {
		int c;
		for (c = 0; c < 2; c++) {
			const int base = c ? 56 : 0;
			if (pos->king[c] != base + 4)
				continue;
			if (pos->sq[base] == PC(GAMEDB__ROOK, c))
				pos->castle_rook[c][0] = (uint8_t)base;
			if (pos->sq[base + 7] == PC(GAMEDB__ROOK, c))
				pos->castle_rook[c][1] = (uint8_t)(base + 7);
		}
	} else if (*p == '-') {
		p++;
	} else {
		for (; !is_ws_or_end(*p); p++) {
			const char c = *p;
			if (c == 'K')
				grant_castle(pos, 0, 1, -1);
			else if (c == 'Q')
				grant_castle(pos, 0, 0, -1);
			else if (c == 'k')
				grant_castle(pos, 1, 1, -1);
			else if (c == 'q')
				grant_castle(pos, 1, 0, -1);
			else if (c >= 'A' && c <= 'H')
				grant_castle(pos, 0, 0, c - 'A');
			else if (c >= 'a' && c <= 'h')
				grant_castle(pos, 1, 0, c - 'a');
			else {
				*why = "bad castling field";
				return -1;
			}
		}
	}
	if (!is_ws_or_end(*p)) {
		*why = "bad castling field";
		return -1;
	}
	{
		/* Chess960-style FEN is needed when a castling king or rook is not on its classical
		 * square (Scid's rule for its variant flag). */
		int c, side;
		for (c = 0; c < 2; c++)
			for (side = 0; side < 2; side++) {
				const int r = pos->castle_rook[c][side];
				if (r == GAMEDB__NO_SQ)
					continue;
				if (FILE_OF(pos->king[c]) != 4 || FILE_OF(r) != (side ? 7 : 0))
					pos->chess960 = 1;
			}
	}

	/*
	 * En passant. Like Scid's ReadFromFEN: any square of the third or sixth rank is kept as
	 * written (so the FEN writes back the same), other squares are an error. Move generation
	 * only uses it when it is a real en-passant square for the side to move. A digit here
	 * means the field was left out and the clocks follow.
	 */
	p = skip_ws(p);
	if (*p == '-') {
		p++;
	} else if (is_file_ch(*p) && (p[1] == '3' || p[1] == '6')) {
		pos->ep = (uint8_t)((p[0] - 'a') + 8 * (p[1] - '1'));
		p += 2;
	} else if (*p != '\0' && !(*p >= '0' && *p <= '9')) {
		*why = "bad en-passant square";
		return -1;
	}
	if (!is_ws_or_end(*p)) {
		*why = "bad en-passant square";
		return -1;
	}

	/* Half-move clock and full-move number, both optional. */
	p = skip_ws(p);
	if (*p >= '0' && *p <= '9') {
		uint32_t v = 0;
		for (; *p >= '0' && *p <= '9'; p++)
			if (v < UINT16_MAX)
				v = v * 10 + (uint32_t)(*p - '0');
		pos->halfmove = (uint16_t)(v > UINT16_MAX ? UINT16_MAX : v);
		p = skip_ws(p);
		if (*p >= '0' && *p <= '9') {
			uint64_t w = 0;
			for (; *p >= '0' && *p <= '9'; p++)
				if (w < UINT32_MAX)
					w = w * 10 + (uint64_t)(*p - '0');
			pos->fullmove = (uint32_t)(w > UINT32_MAX ? UINT32_MAX : (w ? w : 1));
		}
	}
	/* Anything after (EPD operations, comments) is ignored. */
	return 0;

too_many_squares:
	*why = placed_men_fault(pos);
	if (!*why)
		*why = "rank has more than 8 squares";
	return -1;
}

int gamedb__pos_from_fen(struct gamedb__pos *pos, const char *fen, const char **why)
{
	const char *board;
	size_t board_len;

	return parse_fen(pos, fen, why, &board, &board_len);
}

/* 1 if the rook on r is the outermost rook of colour c between the king and that edge. */
static int outermost_rook(const struct gamedb__pos *pos, int c, int side, int r)
{
	const int base = c ? 56 : 0;
	const int kf = FILE_OF(pos->king[c]);
	int f;
	for (f = side ? 7 : 0; f != kf; f += side ? -1 : 1)
		if (pos->sq[base + f] == PC(GAMEDB__ROOK, c))
			return base + f == r;
	return 0;
}

/* Writes v in decimal at d; returns the end. */
static char *put_decimal(char *d, uint32_t v)
{
	char num[10];
	int k = 0;
	do {
		num[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		*d++ = num[--k];
	return d;
}

/* Writes the board field of pos at d; returns the end. */
static char *fen_board(const struct gamedb__pos *pos, char *d)
{
	const uint64_t occ = occupied(pos);
	int rank;

	for (rank = 7; rank >= 0; rank--) {
		uint64_t row = (occ >> (8 * rank)) & 0xFF;
		int file = 0;
		for (; row; row &= row - 1) {
			const int f = LSB(row);
			if (f > file)
				*d++ = (char)('0' + f - file);
			*d++ = fen_char[pos->sq[8 * rank + f] & 15];
			file = f + 1;
		}
		if (file < 8)
			*d++ = (char)('0' + 8 - file);
		if (rank)
			*d++ = '/';
	}
	return d;
}

/* Writes the fields after the board (" w KQkq - 0 1") at d and a NUL; returns the end. */
static char *fen_tail(const struct gamedb__pos *pos, char *d)
{
	int c, side, any = 0;

	*d++ = ' ';
	*d++ = pos->stm ? 'b' : 'w';
	*d++ = ' ';
	/*
	 * Castling: K/Q/k/q when the castling rook is the outermost rook on its side of the king
	 * (always so in classical chess), else the rook's file letter (X-FEN). This is the rule of
	 * Scid's PrintFEN; order white king side, white queen side, black king side, black queen
	 * side.
	 */
	for (c = 0; c < 2; c++)
		for (side = 1; side >= 0; side--) {
			const int r = pos->castle_rook[c][side];
			char ch;
			if (r == GAMEDB__NO_SQ)
				continue;
			if (outermost_rook(pos, c, side, r))
				ch = side ? 'K' : 'Q';
			else
				ch = (char)('A' + FILE_OF(r));
			*d++ = c ? (char)(ch - 'A' + 'a') : ch;
			any = 1;
		}
	if (!any)
		*d++ = '-';
	*d++ = ' ';
	/* En passant: written whenever pos->ep is set; see pos_make for when that is. */
	if (pos->ep < 64) {
		*d++ = file_char(pos->ep);
		*d++ = rank_char(pos->ep);
	} else {
		*d++ = '-';
	}
	*d++ = ' ';
	d = put_decimal(d, pos->halfmove);
	*d++ = ' ';
	d = put_decimal(d, pos->fullmove);
	*d = '\0';
	return d;
}

/* Copies the FEN in t (n bytes) into buf as far as cap allows; returns n. */
static size_t fen_out(const char *t, size_t n, char *buf, size_t cap)
{
	if (cap) {
		const size_t w = n < cap - 1 ? n : cap - 1;
		memcpy(buf, t, w);
		buf[w] = '\0';
	}
	return n;
}

size_t gamedb__pos_to_fen(const struct gamedb__pos *pos, char *buf, size_t cap)
{
	char t[128];
	char *end;

	/* The longest FEN is well under 100 bytes: write straight into a buffer that big. */
	if (cap >= 100)
		return (size_t)(fen_tail(pos, fen_board(pos, buf)) - buf);
	end = fen_tail(pos, fen_board(pos, t));
	return fen_out(t, (size_t)(end - t), buf, cap);
}

int gamedb__pos_from_fen_normal(struct gamedb__pos *pos, const char *fen, char *buf, size_t cap,
				size_t *len, const char **why)
{
	char t[128];
	const char *board;
	size_t board_len, n;
	char *d;

	if (parse_fen(pos, fen, why, &board, &board_len) != 0)
		return -1;
	/*
	 * The board field has one normal form, the shortest: a piece letter per man and one digit
	 * per run of empty squares, seven '/' and no more. Any other spelling of the same board
	 * (split digits, a trailing '/') is longer, so the length tells whether to copy it.
	 */
	{
		const uint64_t occ = occupied(pos), empty = ~occ;
		const uint64_t run_starts = empty & ~((empty << 1) & ~BB_FILE_A);
		if (board_len == (size_t)(popcount(occ) + popcount(run_starts) + 7)) {
			memcpy(t, board, board_len);
			d = t + board_len;
		} else {
			d = fen_board(pos, t);
		}
	}
	n = (size_t)(fen_tail(pos, d) - t);
	if (len)
		*len = n;
	fen_out(t, n, buf, cap);
	return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* SCID piece slots */

static int slots_fen_order(struct gamedb__slots *s, const struct gamedb__pos *pos)
{
	int c;

	memset(s->sq, GAMEDB__NO_SQ, sizeof s->sq);
	memset(s->slot, 0xFF, sizeof s->slot);
	s->count[0] = s->count[1] = 0;
	for (c = 0; c < 2; c++) {
		const uint64_t men = pos->by_colour[c], king = men & pos->by_type[GAMEDB__KING];
		int rank, i = 0, k, ks;
		uint8_t first;

		if (!king || SEVERAL(king) || popcount(men) > 16)
			return -1;
		/* The men of colour c in FEN order (a8..h8, a7.., ..h1)... */
		for (rank = 7; rank >= 0; rank--) {
			uint64_t row = (men >> (8 * rank)) & 0xFF;
			for (; row; row &= row - 1) {
				const int sq = 8 * rank + LSB(row);
				s->sq[c][i] = (uint8_t)sq;
				s->slot[sq] = (uint8_t)i++;
			}
		}
		/* ...then the king and the man in slot 0 change places. */
		k = LSB(king);
		ks = s->slot[k];
		first = s->sq[c][0];
		s->sq[c][ks] = first;
		s->slot[first] = (uint8_t)ks;
		s->sq[c][0] = (uint8_t)k;
		s->slot[k] = 0;
		s->count[c] = (uint8_t)i;
	}
	return 0;
}

int gamedb__slots_init_scid_fen(struct gamedb__slots *s, const struct gamedb__pos *pos)
{
	return slots_fen_order(s, pos);
}

int gamedb__slots_init_scid(struct gamedb__slots *s, const struct gamedb__pos *pos)
{
	/* Slot of each back-rank file in the standard numbering (0 K, 1 a-rook, ..., 7 h-rook). */
	static const uint8_t back_slot[8] = {1, 2, 3, 4, 0, 5, 6, 7};
	struct gamedb__pos start;
	int f, c;

	gamedb__pos_startpos(&start);
	if (memcmp(start.sq, pos->sq, 64) != 0)
		return slots_fen_order(s, pos);
	memset(s->sq, GAMEDB__NO_SQ, sizeof s->sq);
	memset(s->slot, 0xFF, sizeof s->slot);
	for (c = 0; c < 2; c++) {
		const int back = c ? 56 : 0, pawns = c ? 48 : 8;
		for (f = 0; f < 8; f++) {
			s->sq[c][back_slot[f]] = (uint8_t)(back + f);
			s->slot[back + f] = back_slot[f];
			s->sq[c][8 + f] = (uint8_t)(pawns + f);
			s->slot[pawns + f] = (uint8_t)(8 + f);
		}
		s->count[c] = 16;
	}
	return 0;
}

void gamedb__slots_move_scid(struct gamedb__slots *s, const struct gamedb__pos *pos,
			     const struct gamedb__move *m)
{
	const int us = pos->stm, them = us ^ 1;

	if (m->flags & GAMEDB__MF_NULL)
		return;
	if (m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) {
		const int base = us ? 56 : 0;
		const int rto = base + ((m->flags & GAMEDB__MF_CASTLE_K) ? 5 : 3);
		const uint8_t ks = s->slot[m->from], rs = s->slot[m->rook_from];
		s->slot[m->from] = 0xFF;
		s->slot[m->rook_from] = 0xFF;
		if (ks < 16) {
			s->sq[us][ks] = m->to;
			s->slot[m->to] = ks;
		}
		if (rs < 16) {
			s->sq[us][rs] = (uint8_t)rto;
			s->slot[rto] = rs;
		}
		return;
	}
	if (m->flags & GAMEDB__MF_CAPTURE) {
		const int csq = (m->flags & GAMEDB__MF_EP) ? (us ? m->to + 8 : m->to - 8) : m->to;
		const uint8_t cs = s->slot[csq];
		if (cs < 16 && s->count[them] > 0) {
			const int last = --s->count[them];
			if (cs != last) {
				const uint8_t moved = s->sq[them][last];
				s->sq[them][cs] = moved;
				s->slot[moved] = cs;
			}
			s->sq[them][last] = GAMEDB__NO_SQ;
		}
		s->slot[csq] = 0xFF;
	}
	{
		const uint8_t ms = s->slot[m->from];
		s->slot[m->from] = 0xFF;
		if (ms < 16) {
			s->sq[us][ms] = m->to;
			s->slot[m->to] = ms;
		}
	}
}
