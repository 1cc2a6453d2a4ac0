/*
 * libgamedb - chess rules: positions, FEN, legal moves, SAN, SCID piece slots.
 *
 * Representation: the 64-byte mailbox of struct gamedb__pos (a1 = 0 ... h8 = 63). Geometry is
 * done in 0x88 coordinates (X88/S64 convert), so off-board tests are a single mask and no
 * direction tables beyond the const offset lists below are needed.
 *
 * Legal move generation is pin- and check-aware (no make/test per move), except for the rare
 * en-passant captures and castling, which are verified on a copy of the board. SAN needs no
 * full generation: disambiguation only looks at pieces of the same type that reach the same
 * square, and check / mate are found by making the move on a copy.
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
/* Attacks */

/* 1 if square s is attacked by a piece of colour `by` on board b. */
static int attacked(const uint8_t *b, int s, int by)
{
	const int x = X88(s);
	const int pd = by ? 1 : -1; /* where an attacking pawn stands, relative to s */
	const uint8_t pawn = PC(GAMEDB__PAWN, by), knight = PC(GAMEDB__KNIGHT, by);
	const uint8_t bishop = PC(GAMEDB__BISHOP, by), rook = PC(GAMEDB__ROOK, by);
	const uint8_t queen = PC(GAMEDB__QUEEN, by), king = PC(GAMEDB__KING, by);
	int i, y;

	y = x + pd * 15;
	if (!OFFBOARD(y) && b[S64(y)] == pawn)
		return 1;
	y = x + pd * 17;
	if (!OFFBOARD(y) && b[S64(y)] == pawn)
		return 1;
	for (i = 0; i < 8; i++) {
		y = x + knight_d[i];
		if (!OFFBOARD(y) && b[S64(y)] == knight)
			return 1;
	}
	for (i = 0; i < 8; i++) {
		const int d = dir_d[i];
		const uint8_t slider = i < 4 ? rook : bishop;
		y = x + d;
		if (OFFBOARD(y))
			continue;
		if (b[S64(y)] == king)
			return 1;
		for (; !OFFBOARD(y); y += d) {
			const uint8_t p = b[S64(y)];
			if (p == GAMEDB__EMPTY)
				continue;
			if (p == slider || p == queen)
				return 1;
			break;
		}
	}
	return 0;
}

int gamedb__in_check(const struct gamedb__pos *pos)
{
	const int k = pos->king[pos->stm];
	if (k >= 64)
		return 0;
	return attacked(pos->sq, k, pos->stm ^ 1);
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
	m->reserved = 0;
}

void gamedb__pos_make(struct gamedb__pos *pos, const struct gamedb__move *m)
{
	const int us = pos->stm, them = us ^ 1;
	uint8_t *b = pos->sq;

	pos->ep = GAMEDB__NO_SQ;
	if (pos->halfmove < UINT16_MAX)
		pos->halfmove++;
	if (m->flags & GAMEDB__MF_NULL) {
		/* As Scid does: the clock runs and the ep square goes; the board is untouched. */
	} else if (m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) {
		const int side = (m->flags & GAMEDB__MF_CASTLE_K) ? 1 : 0;
		const int base = us ? 56 : 0;
		b[m->from] = GAMEDB__EMPTY;
		b[m->rook_from] = GAMEDB__EMPTY;
		b[m->to] = PC(GAMEDB__KING, us);
		b[base + (side ? 5 : 3)] = PC(GAMEDB__ROOK, us);
		pos->king[us] = m->to;
		pos->castle_rook[us][0] = pos->castle_rook[us][1] = GAMEDB__NO_SQ;
	} else {
		const int from = m->from, to = m->to;
		const uint8_t pc = b[from];
		const int type = TYPE(pc);

		if (m->flags & GAMEDB__MF_EP) {
			b[us ? to + 8 : to - 8] = GAMEDB__EMPTY;
			pos->halfmove = 0;
		} else if (b[to] != GAMEDB__EMPTY) {
			pos->halfmove = 0;
			if (to == pos->castle_rook[them][0])
				pos->castle_rook[them][0] = GAMEDB__NO_SQ;
			if (to == pos->castle_rook[them][1])
				pos->castle_rook[them][1] = GAMEDB__NO_SQ;
		}
		b[to] = m->promo ? PC(m->promo, us) : pc;
		b[from] = GAMEDB__EMPTY;
		if (type == GAMEDB__KING) {
			pos->king[us] = (uint8_t)to;
			pos->castle_rook[us][0] = pos->castle_rook[us][1] = GAMEDB__NO_SQ;
		} else if (type == GAMEDB__PAWN) {
			pos->halfmove = 0;
			/*
			 * The ep square is recorded after every double push that has an enemy pawn
			 * beside the destination (a pseudo-legal en-passant capture), whether or not
			 * the capture would actually be legal. This is what Scid's DoSimpleMove does,
			 * so our FENs match Scid's.
			 */
			if (to - from == 16 || from - to == 16) {
				const uint8_t enemy_pawn = PC(GAMEDB__PAWN, them);
				if ((FILE_OF(to) > 0 && b[to - 1] == enemy_pawn) ||
				    (FILE_OF(to) < 7 && b[to + 1] == enemy_pawn))
					pos->ep = (uint8_t)((from + to) / 2);
			}
		} else {
			if (from == pos->castle_rook[us][0])
				pos->castle_rook[us][0] = GAMEDB__NO_SQ;
			if (from == pos->castle_rook[us][1])
				pos->castle_rook[us][1] = GAMEDB__NO_SQ;
		}
	}
	if (us == 1 && pos->fullmove < UINT32_MAX)
		pos->fullmove++;
	pos->stm = (uint8_t)them;
}

/* 1 if the completed move m leaves the mover's king safe (checked on a copy). */
static int leaves_king_safe(const struct gamedb__pos *pos, const struct gamedb__move *m)
{
	struct gamedb__pos next = *pos;
	const int us = pos->stm;
	gamedb__pos_make(&next, m);
	return !attacked(next.sq, next.king[us], us ^ 1);
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
	uint8_t bb[64];
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
	memcpy(bb, pos->sq, 64);
	bb[k] = GAMEDB__EMPTY;
	bb[r] = GAMEDB__EMPTY;
	for (s = imin(k, kto); s <= imax(k, kto); s++)
		if (attacked(bb, s, them))
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

/* ------------------------------------------------------------------------------------------ */
/* Legal move generation */

/*
 * The cap can only bite in artificial FEN positions (say a king and 15 queens): no reachable
 * position has more than 218 legal moves. It keeps such input from overrunning `out`.
 */
#define EMIT(from_, to_, promo_, flags_, piece_, cap_)                                        \
	do {                                                                                   \
		set_move(&out[n++], (from_), (to_), (promo_), (flags_), (piece_), (cap_));     \
		if (first_only || n >= GAMEDB__MAX_MOVES)                                      \
			return n;                                                              \
	} while (0)

/*
 * Generates the legal moves of pos into out (room for GAMEDB__MAX_MOVES); with first_only it
 * stops at the first one (a cheap "has a legal move" test; king moves come first since they
 * are the likely evasions).
 */
static int gen(const struct gamedb__pos *pos, struct gamedb__move *out, int first_only)
{
	const uint8_t *b = pos->sq;
	const int us = pos->stm, them = us ^ 1;
	const int k = pos->king[us];
	const int kx = X88(k);
	uint64_t pinned = 0, block = ~(uint64_t)0;
	int8_t pindir[64];
	int nchk = 0, n = 0, i, s;

	if (k >= 64)
		return 0;

	/* Checks by pawns and knights. */
	{
		const int pd = us ? -1 : 1; /* enemy pawns attack the king from ahead of it */
		const uint8_t pawn = PC(GAMEDB__PAWN, them), knight = PC(GAMEDB__KNIGHT, them);
		int y = kx + pd * 15;
		if (!OFFBOARD(y) && b[S64(y)] == pawn) {
			nchk++;
			block = BIT(S64(y));
		}
		y = kx + pd * 17;
		if (!OFFBOARD(y) && b[S64(y)] == pawn) {
			nchk++;
			block = BIT(S64(y));
		}
		for (i = 0; i < 8; i++) {
			y = kx + knight_d[i];
			if (!OFFBOARD(y) && b[S64(y)] == knight) {
				nchk++;
				block = BIT(S64(y));
			}
		}
	}
	/* Checks and pins by sliders. */
	for (i = 0; i < 8; i++) {
		const int d = dir_d[i];
		const int slider = i < 4 ? GAMEDB__ROOK : GAMEDB__BISHOP;
		int own = -1, y;
		for (y = kx + d; !OFFBOARD(y); y += d) {
			const uint8_t p = b[S64(y)];
			int t;
			if (p == GAMEDB__EMPTY)
				continue;
			if (COLOUR(p) == us) {
				if (own >= 0)
					break;
				own = S64(y);
				continue;
			}
			t = TYPE(p);
			if (t == slider || t == GAMEDB__QUEEN) {
				if (own < 0) {
					uint64_t mask = 0;
					int z;
					for (z = kx + d; z != y; z += d)
						mask |= BIT(S64(z));
					mask |= BIT(S64(y));
					nchk++;
					block = mask;
				} else {
					pinned |= BIT(own);
					pindir[own] = (int8_t)d;
				}
			}
			break;
		}
	}
	if (nchk >= 2)
		block = 0;

	/* King moves. When in check, test with the king lifted so it cannot hide behind itself. */
	{
		uint8_t bk[64];
		const uint8_t *bt = b;
		if (nchk) {
			memcpy(bk, b, 64);
			bk[k] = GAMEDB__EMPTY;
			bt = bk;
		}
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
			if (attacked(bt, t, them))
				continue;
			EMIT(k, t, 0, p ? GAMEDB__MF_CAPTURE : 0, GAMEDB__KING, TYPE(p));
		}
	}
	if (nchk == 0) {
		int side;
		for (side = 1; side >= 0; side--) {
			if (pos->castle_rook[us][side] == GAMEDB__NO_SQ)
				continue;
			if (castle_check(pos, side, &out[n]) == 0) {
				n++;
				if (first_only || n >= GAMEDB__MAX_MOVES)
					return n;
			}
		}
	}
	if (nchk >= 2)
		return n;

	for (s = 0; s < 64; s++) {
		const uint8_t pc = b[s];
		const int x = X88(s);
		int type, pin = 0;

		if (pc == GAMEDB__EMPTY || COLOUR(pc) != us)
			continue;
		type = TYPE(pc);
		if (pinned & BIT(s))
			pin = pindir[s];
		switch (type) {
		case GAMEDB__PAWN: {
			const int fwd = us ? -16 : 16;
			const int start_rank = us ? 6 : 1;
			const int last_rank = us ? 0 : 7;
			int y = x + fwd, c;
			if (b[S64(y)] == GAMEDB__EMPTY && (!pin || pin == fwd || pin == -fwd)) {
				const int t = S64(y);
				if (block & BIT(t)) {
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
					if (b[t2] == GAMEDB__EMPTY && (block & BIT(t2)))
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
				if (pin && pin != dc && pin != -dc)
					continue;
				t = S64(y);
				p = b[t];
				if (p != GAMEDB__EMPTY) {
					if (COLOUR(p) == us || !(block & BIT(t)))
						continue;
					if (RANK_OF(t) == last_rank) {
						int pr;
						for (pr = GAMEDB__QUEEN; pr >= GAMEDB__KNIGHT; pr--)
							EMIT(s, t, pr, GAMEDB__MF_CAPTURE, GAMEDB__PAWN,
							     TYPE(p));
					} else {
						EMIT(s, t, 0, GAMEDB__MF_CAPTURE, GAMEDB__PAWN, TYPE(p));
					}
				} else if (t == pos->ep && RANK_OF(t) == (us ? 2 : 5) &&
					   b[us ? t + 8 : t - 8] == PC(GAMEDB__PAWN, them)) {
					/* Rare: verify on a copy (covers the two-pawn rank pin too).
					 * The checks above ignore a FEN ep square that means nothing. */
					uint8_t be[64];
					memcpy(be, b, 64);
					be[t] = pc;
					be[s] = GAMEDB__EMPTY;
					be[us ? t + 8 : t - 8] = GAMEDB__EMPTY;
					if (!attacked(be, k, them))
						EMIT(s, t, 0, GAMEDB__MF_CAPTURE | GAMEDB__MF_EP,
						     GAMEDB__PAWN, GAMEDB__PAWN);
				}
			}
			break;
		}
		case GAMEDB__KNIGHT:
			if (pin)
				break;
			for (i = 0; i < 8; i++) {
				const int y = x + knight_d[i];
				uint8_t p;
				int t;
				if (OFFBOARD(y))
					continue;
				t = S64(y);
				p = b[t];
				if ((p != GAMEDB__EMPTY && COLOUR(p) == us) || !(block & BIT(t)))
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
				if (pin && pin != d && pin != -d)
					continue;
				for (y = x + d; !OFFBOARD(y); y += d) {
					const int t = S64(y);
					const uint8_t p = b[t];
					if (p == GAMEDB__EMPTY) {
						if (block & BIT(t))
							EMIT(s, t, 0, 0, type, 0);
						continue;
					}
					if (COLOUR(p) != us && (block & BIT(t)))
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
	return gen(pos, out, 0);
}

static int has_legal_move(const struct gamedb__pos *pos)
{
	struct gamedb__move tmp[GAMEDB__MAX_MOVES];
	return gen(pos, tmp, 1) > 0;
}

uint64_t gamedb__perft(const struct gamedb__pos *pos, int depth)
{
	struct gamedb__move moves[GAMEDB__MAX_MOVES];
	uint64_t total = 0;
	int n, i;

	if (depth <= 0)
		return 1;
	n = gen(pos, moves, 0);
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

/* 1 if the squares strictly between from and to (on a common line) are empty. */
static int path_clear(const uint8_t *b, int from, int to, int d)
{
	int y;
	for (y = X88(from) + d; y != X88(to); y += d)
		if (b[S64(y)] != GAMEDB__EMPTY)
			return 0;
	return 1;
}

/* 0x88 step from `from` towards `to` if they share a rank, file or diagonal, else 0. */
static int line_step(int from, int to)
{
	const int df = FILE_OF(to) - FILE_OF(from), dr = RANK_OF(to) - RANK_OF(from);
	const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
	if (from == to)
		return 0;
	if (df != 0 && dr != 0 && df != dr && df != -dr)
		return 0;
	return sr * 16 + sf;
}

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
		const int dx = X88(to) - X88(from);
		if (promo != 0)
			return -1;
		switch (type) {
		case GAMEDB__KNIGHT: {
			int i, ok = 0;
			for (i = 0; i < 8; i++)
				ok |= dx == knight_d[i];
			if (!ok)
				return -1;
			break;
		}
		case GAMEDB__KING: {
			int i, ok = 0;
			for (i = 0; i < 8; i++)
				ok |= dx == dir_d[i];
			if (!ok)
				goto try_castle;
			break;
		}
		default: {
			const int d = line_step(from, to);
			const int diag = d != 0 && d != 1 && d != -1 && d != 16 && d != -16;
			if (d == 0)
				return -1;
			if (type == GAMEDB__ROOK && diag)
				return -1;
			if (type == GAMEDB__BISHOP && !diag)
				return -1;
			if (!path_clear(b, from, to, d))
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
static int other_can_go(const struct gamedb__pos *pos, int c, int to)
{
	uint8_t bb[64];
	const int us = pos->stm;
	memcpy(bb, pos->sq, 64);
	bb[to] = bb[c];
	bb[c] = GAMEDB__EMPTY;
	return !attacked(bb, pos->king[us], us ^ 1);
}

size_t gamedb__move_san(const struct gamedb__pos *pos, const struct gamedb__move *m, char *buf)
{
	const uint8_t *b = pos->sq;
	const int from = m->from, to = m->to, type = m->piece;
	size_t n = 0;

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
			const uint8_t pc = b[from];
			const int tx = X88(to);
			int others = 0, same_file = 0, same_rank = 0, i;
			int cand[16], nc = 0;

			if (type == GAMEDB__KNIGHT) {
				for (i = 0; i < 8; i++) {
					const int y = tx + knight_d[i];
					if (!OFFBOARD(y) && S64(y) != from && b[S64(y)] == pc)
						cand[nc++] = S64(y);
				}
			} else {
				const int d0 = type == GAMEDB__BISHOP ? 4 : 0;
				const int d1 = type == GAMEDB__ROOK ? 4 : 8;
				for (i = d0; i < d1; i++) {
					const int d = dir_d[i];
					int y;
					for (y = tx + d; !OFFBOARD(y); y += d) {
						const uint8_t p = b[S64(y)];
						if (p == GAMEDB__EMPTY)
							continue;
						if (p == pc && S64(y) != from)
							cand[nc++] = S64(y);
						break;
					}
				}
			}
			for (i = 0; i < nc; i++) {
				const int c = cand[i];
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

	{
		struct gamedb__pos next = *pos;
		gamedb__pos_make(&next, m);
		if (gamedb__in_check(&next))
			buf[n++] = has_legal_move(&next) ? '+' : '#';
	}
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

	n = gen(pos, moves, 0);
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
	pos->king[0] = 4;
	pos->king[1] = 60;
	pos->castle_rook[0][0] = 0;
	pos->castle_rook[0][1] = 7;
	pos->castle_rook[1][0] = 56;
	pos->castle_rook[1][1] = 63;
}

static int piece_of_char(char c)
{
	switch (c) {
	case 'P': return PC(GAMEDB__PAWN, 0);
	case 'N': return PC(GAMEDB__KNIGHT, 0);
	case 'B': return PC(GAMEDB__BISHOP, 0);
	case 'R': return PC(GAMEDB__ROOK, 0);
	case 'Q': return PC(GAMEDB__QUEEN, 0);
	case 'K': return PC(GAMEDB__KING, 0);
	case 'p': return PC(GAMEDB__PAWN, 1);
	case 'n': return PC(GAMEDB__KNIGHT, 1);
	case 'b': return PC(GAMEDB__BISHOP, 1);
	case 'r': return PC(GAMEDB__ROOK, 1);
	case 'q': return PC(GAMEDB__QUEEN, 1);
	case 'k': return PC(GAMEDB__KING, 1);
	default: return 0;
	}
}

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

int gamedb__pos_from_fen(struct gamedb__pos *pos, const char *fen, const char **why)
{
	const char *p, *dummy;
	int rank = 7, file = 0, kings[2] = {0, 0}, pieces[2] = {0, 0};

	if (!why)
		why = &dummy;
	*why = NULL;
	pos_clear(pos);
	if (!fen) {
		*why = "no FEN";
		return -1;
	}
	p = skip_ws(fen);

	/* Piece placement. */
	for (;;) {
		const char c = *p;
		if (c >= '1' && c <= '8') {
			file += c - '0';
			if (file > 8) {
				*why = "rank has more than 8 squares";
				return -1;
			}
		} else if (c == '/') {
			if (file != 8) {
				*why = "rank has fewer than 8 squares";
				return -1;
			}
			if (rank == 0) { /* tolerate a trailing '/' after the first rank */
				p++;
				break;
			}
			rank--;
			file = 0;
		} else if (piece_of_char(c)) {
			const int pc = piece_of_char(c);
			const int sq = rank * 8 + file;
			if (file >= 8) {
				*why = "rank has more than 8 squares";
				return -1;
			}
			if (TYPE(pc) == GAMEDB__PAWN && (rank == 0 || rank == 7)) {
				*why = "pawn on the first or last rank";
				return -1;
			}
			if (TYPE(pc) == GAMEDB__KING) {
				kings[COLOUR(pc)]++;
				pos->king[COLOUR(pc)] = (uint8_t)sq;
			}
			if (++pieces[COLOUR(pc)] > 16) {
				/* as Scid: a side never has more than its 16 men */
				*why = "more than 16 pieces of one colour";
				return -1;
			}
			pos->sq[sq] = (uint8_t)pc;
			file++;
		} else {
			break;
		}
		p++;
	}
	if (rank != 0 || file != 8) {
		*why = "board description incomplete";
		return -1;
	}
	if (kings[0] != 1 || kings[1] != 1) {
		*why = "each side needs exactly one king";
		return -1;
	}

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
	if (attacked(pos->sq, pos->king[pos->stm ^ 1], pos->stm)) {
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

size_t gamedb__pos_to_fen(const struct gamedb__pos *pos, char *buf, size_t cap)
{
	char t[128];
	size_t n = 0;
	int rank, file, c, side, any = 0;

	for (rank = 7; rank >= 0; rank--) {
		int empty = 0;
		for (file = 0; file < 8; file++) {
			const uint8_t pc = pos->sq[rank * 8 + file];
			if (pc == GAMEDB__EMPTY) {
				empty++;
				continue;
			}
			if (empty)
				t[n++] = (char)('0' + empty);
			empty = 0;
			t[n++] = COLOUR(pc) ? (char)(piece_upper[TYPE(pc)] - 'A' + 'a')
					    : piece_upper[TYPE(pc)];
		}
		if (empty)
			t[n++] = (char)('0' + empty);
		if (rank)
			t[n++] = '/';
	}
	t[n++] = ' ';
	t[n++] = pos->stm ? 'b' : 'w';
	t[n++] = ' ';
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
			t[n++] = c ? (char)(ch - 'A' + 'a') : ch;
			any = 1;
		}
	if (!any)
		t[n++] = '-';
	t[n++] = ' ';
	/* En passant: written whenever pos->ep is set; see pos_make for when that is. */
	if (pos->ep < 64) {
		t[n++] = file_char(pos->ep);
		t[n++] = rank_char(pos->ep);
	} else {
		t[n++] = '-';
	}
	{
		char num[24];
		int k = 0;
		uint32_t v;
		t[n++] = ' ';
		v = pos->halfmove;
		do {
			num[k++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		while (k)
			t[n++] = num[--k];
		t[n++] = ' ';
		v = pos->fullmove;
		do {
			num[k++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		while (k)
			t[n++] = num[--k];
	}
	t[n] = '\0';
	if (cap) {
		const size_t w = n < cap - 1 ? n : cap - 1;
		memcpy(buf, t, w);
		buf[w] = '\0';
	}
	return n;
}

/* ------------------------------------------------------------------------------------------ */
/* SCID piece slots */

static int slots_fen_order(struct gamedb__slots *s, const struct gamedb__pos *pos)
{
	int rank, file, c, king_seen[2] = {0, 0};

	memset(s->sq, GAMEDB__NO_SQ, sizeof s->sq);
	memset(s->slot, 0xFF, sizeof s->slot);
	s->count[0] = s->count[1] = 0;
	for (rank = 7; rank >= 0; rank--)
		for (file = 0; file < 8; file++) {
			const int sq = rank * 8 + file;
			const uint8_t pc = pos->sq[sq];
			int i;
			if (pc == GAMEDB__EMPTY)
				continue;
			c = COLOUR(pc);
			if (s->count[c] >= 16)
				return -1;
			i = s->count[c]++;
			s->sq[c][i] = (uint8_t)sq;
			s->slot[sq] = (uint8_t)i;
			if (TYPE(pc) == GAMEDB__KING) {
				/* Swap the king into slot 0. */
				const uint8_t old = s->sq[c][0];
				s->sq[c][i] = old;
				s->slot[old] = (uint8_t)i;
				s->sq[c][0] = (uint8_t)sq;
				s->slot[sq] = 0;
				king_seen[c]++;
			}
		}
	if (king_seen[0] != 1 || king_seen[1] != 1)
		return -1;
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
