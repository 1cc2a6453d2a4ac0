/*
 * libgamedb - xiangqi rules: positions, FEN, legal moves, ICCS / WXF / Chinese notation, perft.
 *
 * Representation: the 90-byte mailbox of struct gamedb__xqpos (sq = rank * 9 + file, Red at
 * the bottom). Every step a piece can take from a square is looked up in constant tables built
 * at compile time by the R90() macro below (one initialiser per square), so the generator
 * never does coordinate arithmetic or bounds tests of its own; GAMEDB__NO_SQ marks a step off
 * the board or out of the piece's area (palace, own half for elephants).
 *
 * Legality: a pseudo-legal move is played on the mailbox, the mover's general is tested for
 * attack (chariot, cannon over one screen, horse with a free leg, soldier, and the other
 * general on an open file, which is how the flying-general rule becomes "check"), and the move
 * is taken back. Most moves cannot expose the general at all, and skip the test (see
 * may_expose()).
 *
 * Nothing here keeps state between calls; the tables are const.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "xiangqi.h"

#define NOSQ GAMEDB__NO_SQ
#define XQPC GAMEDB__XQPC
#define TYPE GAMEDB__XQPC_TYPE
#define COLOUR GAMEDB__XQPC_COLOUR

#define FILE_OF(s) ((s) % 9)
#define RANK_OF(s) ((s) / 9)

/* ------------------------------------------------------------------------------------------ */
/* Constant step tables */

#define ONB(f, r) ((f) >= 0 && (f) < 9 && (r) >= 0 && (r) < 10)
#define AT(s, df, dr)                                                                          \
	(ONB(FILE_OF(s) + (df), RANK_OF(s) + (dr)) ? (uint8_t)((s) + (dr) * 9 + (df)) : NOSQ)
#define IN_PALACE(f, r) ((f) >= 3 && (f) <= 5 && ((r) <= 2 || (r) >= 7))
#define PAL_AT(s, df, dr)                                                                      \
	(ONB(FILE_OF(s) + (df), RANK_OF(s) + (dr)) &&                                          \
			 IN_PALACE(FILE_OF(s) + (df), RANK_OF(s) + (dr))                       \
		 ? (uint8_t)((s) + (dr) * 9 + (df))                                            \
		 : NOSQ)
/* Elephants stay in the half of the board they stand in (they never cross the river). */
#define SAME_HALF(s, dr) ((RANK_OF(s) >= 5) == (RANK_OF(s) + (dr) >= 5))

#define R9(M, b)                                                                               \
	M((b) + 0), M((b) + 1), M((b) + 2), M((b) + 3), M((b) + 4), M((b) + 5), M((b) + 6),    \
		M((b) + 7), M((b) + 8)
#define R90(M)                                                                                 \
	R9(M, 0), R9(M, 9), R9(M, 18), R9(M, 27), R9(M, 36), R9(M, 45), R9(M, 54), R9(M, 63),  \
		R9(M, 72), R9(M, 81)

/* A step that can be blocked: the destination and the square that must be empty. */
struct step {
	uint8_t to;
	uint8_t block;
};

/* Orthogonal neighbours: 0 up (towards Black), 1 down, 2 right (towards file i), 3 left. */
#define ORTH_ROW(s) {AT(s, 0, 1), AT(s, 0, -1), AT(s, 1, 0), AT(s, -1, 0)}
static const uint8_t orth[GAMEDB__XQ_SQUARES][4] = {R90(ORTH_ROW)};

/* Horse moves from a square: destination and leg (the orthogonal neighbour on the way). */
#define HM(s, df, dr, lf, lr) {AT(s, df, dr), AT(s, lf, lr)}
#define HORSE_ROW(s)                                                                           \
	{HM(s, 1, 2, 0, 1),   HM(s, -1, 2, 0, 1),  HM(s, 1, -2, 0, -1), HM(s, -1, -2, 0, -1),  \
	 HM(s, 2, 1, 1, 0),   HM(s, 2, -1, 1, 0),  HM(s, -2, 1, -1, 0), HM(s, -2, -1, -1, 0)}
static const struct step horse_moves[GAMEDB__XQ_SQUARES][8] = {R90(HORSE_ROW)};

/*
 * Horses that attack a square: where such a horse stands (to) and its leg (block). The leg of
 * a horse attacking s is always a diagonal neighbour of s.
 */
#define HA(s, df, dr, lf, lr) {AT(s, -(df), -(dr)), AT(s, (lf) - (df), (lr) - (dr))}
#define HATT_ROW(s)                                                                            \
	{HA(s, 1, 2, 0, 1),   HA(s, -1, 2, 0, 1),  HA(s, 1, -2, 0, -1), HA(s, -1, -2, 0, -1),  \
	 HA(s, 2, 1, 1, 0),   HA(s, 2, -1, 1, 0),  HA(s, -2, 1, -1, 0), HA(s, -2, -1, -1, 0)}
static const struct step horse_attackers[GAMEDB__XQ_SQUARES][8] = {R90(HATT_ROW)};

/* Elephant moves: destination (same half only) and the eye. */
#define EM(s, df, dr) {SAME_HALF(s, dr) ? AT(s, df, dr) : NOSQ, AT(s, (df) / 2, (dr) / 2)}
#define ELE_ROW(s) {EM(s, 2, 2), EM(s, 2, -2), EM(s, -2, 2), EM(s, -2, -2)}
static const struct step elephant_moves[GAMEDB__XQ_SQUARES][4] = {R90(ELE_ROW)};

/* Advisor and general steps, inside a palace only. */
#define ADV_ROW(s) {PAL_AT(s, 1, 1), PAL_AT(s, 1, -1), PAL_AT(s, -1, 1), PAL_AT(s, -1, -1)}
static const uint8_t advisor_moves[GAMEDB__XQ_SQUARES][4] = {R90(ADV_ROW)};
#define GEN_ROW(s) {PAL_AT(s, 0, 1), PAL_AT(s, 0, -1), PAL_AT(s, 1, 0), PAL_AT(s, -1, 0)}
static const uint8_t general_moves[GAMEDB__XQ_SQUARES][4] = {R90(GEN_ROW)};

/* Soldier steps per colour: forward, and sideways once across the river (never backwards). */
#define PAWN_R(s)                                                                              \
	{AT(s, 0, 1), RANK_OF(s) >= 5 ? AT(s, 1, 0) : NOSQ, RANK_OF(s) >= 5 ? AT(s, -1, 0) : NOSQ}
#define PAWN_B(s)                                                                              \
	{AT(s, 0, -1), RANK_OF(s) <= 4 ? AT(s, 1, 0) : NOSQ, RANK_OF(s) <= 4 ? AT(s, -1, 0) : NOSQ}
static const uint8_t pawn_moves[2][GAMEDB__XQ_SQUARES][3] = {{R90(PAWN_R)}, {R90(PAWN_B)}};

/* Diagonal neighbours (the possible horse legs of a general standing here). */
#define DIAG_ROW(s) {AT(s, 1, 1), AT(s, 1, -1), AT(s, -1, 1), AT(s, -1, -1)}
static const uint8_t diag[GAMEDB__XQ_SQUARES][4] = {R90(DIAG_ROW)};

/* ------------------------------------------------------------------------------------------ */
/* Attacks */

static int valid_pc(uint8_t pc)
{
	switch (pc & ~0x10) {
	case GAMEDB__XQ_PAWN:
	case GAMEDB__XQ_HORSE:
	case GAMEDB__XQ_CHARIOT:
	case GAMEDB__XQ_GENERAL:
	case GAMEDB__XQ_ADVISOR:
	case GAMEDB__XQ_ELEPHANT:
	case GAMEDB__XQ_CANNON:
		return 1;
	default:
		return 0;
	}
}

/*
 * 1 if colour c attacks square k on board b; an own general of c on the same file with nothing
 * between counts (the flying-general rule). Advisors and elephants never leave their own half,
 * so they never attack a general and are not looked at.
 */
static int attacked(const uint8_t *b, int k, int c)
{
	const uint8_t chariot = XQPC(GAMEDB__XQ_CHARIOT, c), cannon = XQPC(GAMEDB__XQ_CANNON, c);
	const uint8_t horse = XQPC(GAMEDB__XQ_HORSE, c), pawn = XQPC(GAMEDB__XQ_PAWN, c);
	const int f = FILE_OF(k), r = RANK_OF(k);
	int d, i;

	for (d = 0; d < 4; d++) {
		int s = orth[k][d];
		while (s != NOSQ && !b[s])
			s = orth[s][d];
		if (s == NOSQ)
			continue;
		if (b[s] == chariot || (d < 2 && b[s] == XQPC(GAMEDB__XQ_GENERAL, c)))
			return 1;
		/* b[s] is a screen: the next man beyond it is hit by a cannon. */
		s = orth[s][d];
		while (s != NOSQ && !b[s])
			s = orth[s][d];
		if (s != NOSQ && b[s] == cannon)
			return 1;
	}
	for (i = 0; i < 8; i++) {
		const struct step *h = &horse_attackers[k][i];
		if (h->to != NOSQ && b[h->to] == horse && !b[h->block])
			return 1;
	}
	/* Soldiers: one in front of k (from c's side), or beside k once c's soldiers have crossed. */
	if (c == 0) {
		if (r > 0 && b[k - 9] == pawn)
			return 1;
		if (r >= 5 && ((f > 0 && b[k - 1] == pawn) || (f < 8 && b[k + 1] == pawn)))
			return 1;
	} else {
		if (r < 9 && b[k + 9] == pawn)
			return 1;
		if (r <= 4 && ((f > 0 && b[k - 1] == pawn) || (f < 8 && b[k + 1] == pawn)))
			return 1;
	}
	return 0;
}

int gamedb__xq_in_check(const struct gamedb__xqpos *pos)
{
	const int k = pos->king[pos->stm & 1];
	return k < GAMEDB__XQ_SQUARES && attacked(pos->sq, k, (pos->stm & 1) ^ 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Move generation */

static void set_move(struct gamedb__move *m, int from, int to, int piece, int captured)
{
	m->from = (uint8_t)from;
	m->to = (uint8_t)to;
	m->promo = 0;
	m->flags = captured ? GAMEDB__MF_CAPTURE : 0;
	m->piece = (uint8_t)piece;
	m->captured = (uint8_t)captured;
	m->rook_from = NOSQ;
	m->check = GAMEDB__CHECK_UNKNOWN;
}

/* Adds from -> to unless to holds a man of the mover (colour us). */
static int add_if_not_own(const uint8_t *b, struct gamedb__move *out, int n, int from, int to,
			  int us)
{
	const uint8_t t = b[to];
	if (t && COLOUR(t) == us)
		return n;
	set_move(&out[n], from, to, TYPE(b[from]), t ? TYPE(t) : 0);
	return n + 1;
}

/* Pseudo-legal moves of the man on from (of colour us) into out; returns the new count n. */
static int gen_piece(const uint8_t *b, int from, int us, struct gamedb__move *out, int n)
{
	const int type = TYPE(b[from]);
	int d, i, s;

	switch (type) {
	case GAMEDB__XQ_CHARIOT:
		for (d = 0; d < 4; d++) {
			for (s = orth[from][d]; s != NOSQ && !b[s]; s = orth[s][d])
				set_move(&out[n++], from, s, type, 0);
			if (s != NOSQ)
				n = add_if_not_own(b, out, n, from, s, us);
		}
		break;
	case GAMEDB__XQ_CANNON:
		for (d = 0; d < 4; d++) {
			for (s = orth[from][d]; s != NOSQ && !b[s]; s = orth[s][d])
				set_move(&out[n++], from, s, type, 0);
			if (s == NOSQ)
				continue;
			/* Jump the screen; capture exactly the next man if it is the enemy's. */
			for (s = orth[s][d]; s != NOSQ && !b[s]; s = orth[s][d])
				;
			if (s != NOSQ && COLOUR(b[s]) != us)
				set_move(&out[n++], from, s, type, TYPE(b[s]));
		}
		break;
	case GAMEDB__XQ_HORSE:
		for (i = 0; i < 8; i++) {
			const struct step *h = &horse_moves[from][i];
			if (h->to != NOSQ && !b[h->block])
				n = add_if_not_own(b, out, n, from, h->to, us);
		}
		break;
	case GAMEDB__XQ_ELEPHANT:
		for (i = 0; i < 4; i++) {
			const struct step *e = &elephant_moves[from][i];
			if (e->to != NOSQ && !b[e->block])
				n = add_if_not_own(b, out, n, from, e->to, us);
		}
		break;
	case GAMEDB__XQ_ADVISOR:
		for (i = 0; i < 4; i++)
			if (advisor_moves[from][i] != NOSQ)
				n = add_if_not_own(b, out, n, from, advisor_moves[from][i], us);
		break;
	case GAMEDB__XQ_GENERAL:
		for (i = 0; i < 4; i++)
			if (general_moves[from][i] != NOSQ)
				n = add_if_not_own(b, out, n, from, general_moves[from][i], us);
		break;
	case GAMEDB__XQ_PAWN:
		for (i = 0; i < 3; i++)
			if (pawn_moves[us][from][i] != NOSQ)
				n = add_if_not_own(b, out, n, from, pawn_moves[us][from][i], us);
		break;
	default:
		break; /* not a xiangqi man: it does not move */
	}
	return n;
}

/* One man has at most 17 moves (a chariot or cannon on an open board). */
#define MAX_PIECE_MOVES 17

/*
 * All pseudo-legal moves of the side to move, by square. A side with the standard men has at
 * most 119, so out (GAMEDB__XQ_MAX_MOVES) has room; a board written by hand with more men
 * than that (which gamedb__xq_validate() rejects) gets a truncated list, never an overflow.
 */
static int gen_pseudo(const struct gamedb__xqpos *pos, struct gamedb__move *out)
{
	const int us = pos->stm & 1;
	int s, n = 0;

	for (s = 0; s < GAMEDB__XQ_SQUARES && n <= GAMEDB__XQ_MAX_MOVES - MAX_PIECE_MOVES; s++) {
		const uint8_t pc = pos->sq[s];
		if (pc && COLOUR(pc) == us && valid_pc(pc))
			n = gen_piece(pos->sq, s, us, out, n);
	}
	return n;
}

/*
 * 0 when the move of a man other than the general, from a side not in check, cannot leave its
 * general attacked: only a man leaving the general's file or rank (a line opens for a chariot,
 * a cannon screen changes, the generals come to face each other) or one of its horse-leg
 * squares, or a man arriving on the general's file or rank (a new cannon screen), can do that.
 */
static int may_expose(int k, int from, int to)
{
	int i;
	if (FILE_OF(from) == FILE_OF(k) || RANK_OF(from) == RANK_OF(k) ||
	    FILE_OF(to) == FILE_OF(k) || RANK_OF(to) == RANK_OF(k))
		return 1;
	for (i = 0; i < 4; i++)
		if (diag[k][i] == from)
			return 1;
	return 0;
}

/*
 * 1 if the pseudo-legal move m leaves the mover's general safe. b is changed and restored.
 * in_check: whether the mover is in check now (when not, most moves need no test).
 */
static int leaves_safe(uint8_t *b, int king, int us, int in_check, const struct gamedb__move *m)
{
	uint8_t cap;
	int k = king, safe;

	if (m->piece == GAMEDB__XQ_GENERAL)
		k = m->to;
	else if (k >= GAMEDB__XQ_SQUARES)
		return 1; /* no general to protect (only in hand-made boards) */
	else if (!in_check && !may_expose(k, m->from, m->to))
		return 1;
	cap = b[m->to];
	b[m->to] = b[m->from];
	b[m->from] = 0;
	safe = !attacked(b, k, us ^ 1);
	b[m->from] = b[m->to];
	b[m->to] = cap;
	return safe;
}

int gamedb__xq_gen_legal(const struct gamedb__xqpos *pos, struct gamedb__move *out)
{
	struct gamedb__xqpos work = *pos;
	const int us = pos->stm & 1, chk = gamedb__xq_in_check(pos);
	int n = gen_pseudo(pos, out), i, j = 0;

	for (i = 0; i < n; i++)
		if (leaves_safe(work.sq, pos->king[us], us, chk, &out[i]))
			out[j++] = out[i];
	return j;
}

int gamedb__xq_has_legal_move(const struct gamedb__xqpos *pos)
{
	struct gamedb__move moves[MAX_PIECE_MOVES];
	struct gamedb__xqpos work = *pos;
	const int us = pos->stm & 1, chk = gamedb__xq_in_check(pos);
	int s, i, n;

	/* Piece by piece, so the search stops at the first legal move. */
	for (s = 0; s < GAMEDB__XQ_SQUARES; s++) {
		const uint8_t pc = pos->sq[s];
		if (!pc || COLOUR(pc) != us || !valid_pc(pc))
			continue;
		n = gen_piece(pos->sq, s, us, moves, 0);
		for (i = 0; i < n; i++)
			if (leaves_safe(work.sq, pos->king[us], us, chk, &moves[i]))
				return 1;
	}
	return 0;
}

void gamedb__xq_make(struct gamedb__xqpos *pos, const struct gamedb__move *m)
{
	if (!(m->flags & GAMEDB__MF_NULL)) {
		const uint8_t pc = pos->sq[m->from];
		if (pos->sq[m->to]) {
			const uint8_t t = pos->sq[m->to];
			if (TYPE(t) == GAMEDB__XQ_GENERAL && pos->king[COLOUR(t)] == m->to)
				pos->king[COLOUR(t)] = NOSQ;
			pos->halfmove = 0;
		} else if (pos->halfmove < UINT16_MAX) {
			pos->halfmove++;
		}
		pos->sq[m->to] = pc;
		pos->sq[m->from] = 0;
		if (TYPE(pc) == GAMEDB__XQ_GENERAL)
			pos->king[COLOUR(pc)] = m->to;
	} else if (pos->halfmove < UINT16_MAX) {
		pos->halfmove++;
	}
	if (pos->stm & 1) {
		if (pos->fullmove < GAMEDB__MOVENO_MAX)
			pos->fullmove++;
	}
	pos->stm = (uint8_t)((pos->stm & 1) ^ 1);
}

/* Checks m (from, to) in pos and completes it; 0 or -1. Null moves are handled by the caller. */
static int complete(const struct gamedb__xqpos *pos, struct gamedb__move *m)
{
	struct gamedb__move moves[MAX_PIECE_MOVES];
	struct gamedb__xqpos work;
	const int us = pos->stm & 1;
	uint8_t pc;
	int n, i;

	if (m->from >= GAMEDB__XQ_SQUARES || m->to >= GAMEDB__XQ_SQUARES)
		return -1;
	pc = pos->sq[m->from];
	if (!pc || COLOUR(pc) != us || !valid_pc(pc))
		return -1;
	n = gen_piece(pos->sq, m->from, us, moves, 0);
	for (i = 0; i < n; i++)
		if (moves[i].to == m->to)
			break;
	if (i == n)
		return -1;
	work = *pos;
	if (!leaves_safe(work.sq, pos->king[us], us, gamedb__xq_in_check(pos), &moves[i]))
		return -1;
	*m = moves[i];
	return 0;
}

int gamedb__xq_move_try(const struct gamedb__xqpos *pos, int from, int to, struct gamedb__move *m,
			struct gamedb__xqpos *after, char *why, size_t why_cap)
{
	if (from < 0 || from > 89 || to < 0 || to > 89) {
		snprintf(why, why_cap, "a square outside the board");
		return -1;
	}
	if (!pos->sq[from] || GAMEDB__XQPC_COLOUR(pos->sq[from]) != pos->stm) {
		char a[3] = { (char)('a' + from % 9), (char)('0' + from / 9), 0 };
		if (!pos->sq[from])
			snprintf(why, why_cap, "no piece on %s", a);
		else
			snprintf(why, why_cap, "the piece on %s is %s's, but %s is to move", a,
				 pos->stm ? "Red" : "Black", pos->stm ? "Black" : "Red");
		return -1;
	}
	memset(m, 0, sizeof *m);
	m->from = (uint8_t)from;
	m->to = (uint8_t)to;
	m->rook_from = GAMEDB__NO_SQ;
	*after = *pos;
	if (gamedb__xq_move_play(after, m) != 0) {
		snprintf(why, why_cap, "not a legal move");
		return -1;
	}
	return 0;
}

int gamedb__xq_move_play(struct gamedb__xqpos *pos, struct gamedb__move *m)
{
	if (m->flags & GAMEDB__MF_NULL) {
		/* A pass: allowed when not in check (the board is unchanged). */
		const int k = pos->king[pos->stm & 1];
		if (gamedb__xq_in_check(pos))
			return -1;
		m->from = m->to = (uint8_t)(k < GAMEDB__XQ_SQUARES ? k : 0);
		m->promo = 0;
		m->flags = GAMEDB__MF_NULL;
		m->piece = GAMEDB__XQ_GENERAL;
		m->captured = 0;
		m->rook_from = NOSQ;
	} else if (complete(pos, m) != 0) {
		return -1;
	}
	gamedb__xq_make(pos, m);
	if (!gamedb__xq_has_legal_move(pos))
		m->check = GAMEDB__CHECK_MATE;
	else if (gamedb__xq_in_check(pos))
		m->check = GAMEDB__CHECK_CHECK;
	else
		m->check = GAMEDB__CHECK_NONE;
	return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Perft */

/* Leaves below pos (work is changed and restored). depth >= 1. */
static uint64_t perft_rec(struct gamedb__xqpos *work, int depth)
{
	struct gamedb__move moves[GAMEDB__XQ_MAX_MOVES];
	const int us = work->stm & 1;
	const int chk = gamedb__xq_in_check(work);
	uint64_t total = 0;
	int n = gen_pseudo(work, moves), i;

	for (i = 0; i < n; i++) {
		const struct gamedb__move *m = &moves[i];
		uint8_t cap;
		if (!leaves_safe(work->sq, work->king[us], us, chk, m))
			continue;
		if (depth == 1) {
			total++;
			continue;
		}
		cap = work->sq[m->to];
		work->sq[m->to] = work->sq[m->from];
		work->sq[m->from] = 0;
		if (m->piece == GAMEDB__XQ_GENERAL)
			work->king[us] = m->to;
		work->stm = (uint8_t)(us ^ 1);
		total += perft_rec(work, depth - 1);
		work->stm = (uint8_t)us;
		if (m->piece == GAMEDB__XQ_GENERAL)
			work->king[us] = m->from;
		work->sq[m->from] = work->sq[m->to];
		work->sq[m->to] = cap;
	}
	return total;
}

uint64_t gamedb__xq_perft(const struct gamedb__xqpos *pos, int depth)
{
	struct gamedb__xqpos work = *pos;

	if (depth <= 0)
		return 1;
	/* The recursion is as deep as depth; anything past 32 could never finish anyway. */
	if (depth > 32)
		return 0;
	return perft_rec(&work, depth);
}

/* ------------------------------------------------------------------------------------------ */
/* Positions, validation, FEN */

void gamedb__xq_sync(struct gamedb__xqpos *pos)
{
	int s;

	pos->king[0] = pos->king[1] = NOSQ;
	for (s = 0; s < GAMEDB__XQ_SQUARES; s++) {
		const uint8_t pc = pos->sq[s];
		if (pc && valid_pc(pc) && TYPE(pc) == GAMEDB__XQ_GENERAL &&
		    pos->king[COLOUR(pc)] == NOSQ)
			pos->king[COLOUR(pc)] = (uint8_t)s;
	}
}

/* FEN letters by type (index = type); '?' for values that are not xiangqi men. */
static const char fen_letter[16] = {'?', 'P', 'N', '?', 'R', '?', 'K', 'A',
				    'B', 'C', '?', '?', '?', '?', '?', '?'};

static int type_of_letter(char ch)
{
	switch (ch | 0x20) {
	case 'p':
		return GAMEDB__XQ_PAWN;
	case 'n':
	case 'h':
		return GAMEDB__XQ_HORSE;
	case 'b':
	case 'e':
		return GAMEDB__XQ_ELEPHANT;
	case 'a':
		return GAMEDB__XQ_ADVISOR;
	case 'k':
		return GAMEDB__XQ_GENERAL;
	case 'r':
		return GAMEDB__XQ_CHARIOT;
	case 'c':
		return GAMEDB__XQ_CANNON;
	default:
		return 0;
	}
}

void gamedb__xq_startpos(struct gamedb__xqpos *pos)
{
	const char *why;
	/* The start FEN is a constant known to parse. */
	(void)gamedb__xq_from_fen(pos, GAMEDB__XQ_START_FEN, &why);
}

int gamedb__xq_validate(const struct gamedb__xqpos *pos, const char **why)
{
	static const uint8_t max_count[16] = {0, 5, 2, 0, 2, 0, 1, 2, 2, 2, 0, 0, 0, 0, 0, 0};
	uint8_t count[2][16];
	int king[2] = {-1, -1};
	const char *dummy;
	int s;

	if (!why)
		why = &dummy;
	*why = NULL;
	memset(count, 0, sizeof count);
	for (s = 0; s < GAMEDB__XQ_SQUARES; s++) {
		const uint8_t pc = pos->sq[s];
		int c, t, f, rr;
		if (!pc)
			continue;
		if (!valid_pc(pc)) {
			*why = "unknown piece value on the board";
			return -1;
		}
		c = COLOUR(pc);
		t = TYPE(pc);
		f = FILE_OF(s);
		rr = c ? 9 - RANK_OF(s) : RANK_OF(s); /* rank from the owner's side */
		if (++count[c][t] > max_count[t]) {
			*why = t == GAMEDB__XQ_GENERAL ? "more than one general of a side"
						      : "more men of a kind than a side has";
			return -1;
		}
		switch (t) {
		case GAMEDB__XQ_GENERAL:
			if (!(f >= 3 && f <= 5 && rr <= 2)) {
				*why = "general outside its palace";
				return -1;
			}
			king[c] = s;
			break;
		case GAMEDB__XQ_ADVISOR:
			if (!(((f == 3 || f == 5) && (rr == 0 || rr == 2)) || (f == 4 && rr == 1))) {
				*why = "advisor off its points";
				return -1;
			}
			break;
		case GAMEDB__XQ_ELEPHANT:
			if (!(((f == 0 || f == 4 || f == 8) && rr == 2) ||
			      ((f == 2 || f == 6) && (rr == 0 || rr == 4)))) {
				*why = "elephant off its points";
				return -1;
			}
			break;
		case GAMEDB__XQ_PAWN:
			if (rr < 3) {
				*why = "soldier behind its start rank";
				return -1;
			}
			break;
		default:
			break;
		}
	}
	if (king[0] < 0 || king[1] < 0) {
		*why = "each side needs exactly one general";
		return -1;
	}
	if (FILE_OF(king[0]) == FILE_OF(king[1])) {
		int t = king[0] + 9;
		while (t < king[1] && !pos->sq[t])
			t += 9;
		if (t == king[1]) {
			*why = "generals face each other";
			return -1;
		}
	}
	if (attacked(pos->sq, king[(pos->stm & 1) ^ 1], pos->stm & 1)) {
		*why = "side not to move is in check";
		return -1;
	}
	return 0;
}

static int is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static const char *skip_ws(const char *p)
{
	while (is_ws(*p))
		p++;
	return p;
}

/* Reads a decimal field (saturating at max); p must point at a digit. */
static const char *read_number(const char *p, uint32_t max, uint32_t *out)
{
	uint32_t v = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v > (max - (uint32_t)(*p - '0')) / 10 ? max : v * 10 + (uint32_t)(*p - '0');
	*out = v;
	return p;
}

int gamedb__xq_from_fen(struct gamedb__xqpos *pos, const char *fen, const char **why)
{
	struct gamedb__xqpos p;
	const char *s, *dummy;
	int rank = 9, file = 0, dashes = 0;

	if (!why)
		why = &dummy;
	*why = NULL;
	if (!fen) {
		*why = "no FEN";
		return -1;
	}
	memset(&p, 0, sizeof p);
	p.fullmove = 1;
	s = skip_ws(fen);
	for (;; s++) {
		const char ch = *s;
		if (ch >= '1' && ch <= '9') {
			file += ch - '0';
			if (file > 9) {
				*why = "rank has more than 9 points";
				return -1;
			}
		} else if (ch == '/') {
			if (file != 9) {
				*why = "rank has fewer than 9 points";
				return -1;
			}
			if (rank == 0) {
				*why = "more than 10 ranks";
				return -1;
			}
			rank--;
			file = 0;
		} else if (type_of_letter(ch)) {
			if (file >= 9) {
				*why = "rank has more than 9 points";
				return -1;
			}
			p.sq[rank * 9 + file] =
				XQPC(type_of_letter(ch), (ch >= 'a' && ch <= 'z') ? 1 : 0);
			file++;
		} else if (ch == '\0' || is_ws(ch)) {
			break;
		} else {
			*why = "bad character in the board description";
			return -1;
		}
	}
	if (rank != 0 || file != 9) {
		*why = "board description incomplete";
		return -1;
	}

	/* Side to move: w or r for Red, b for Black. */
	s = skip_ws(s);
	if (*s == 'w' || *s == 'W' || *s == 'r' || *s == 'R')
		p.stm = 0;
	else if (*s == 'b' || *s == 'B')
		p.stm = 1;
	else {
		*why = "bad side to move";
		return -1;
	}
	s++;
	if (*s && !is_ws(*s)) {
		*why = "bad side to move";
		return -1;
	}

	/* Up to two "-" fields (the unused castling and en-passant fields), then the clocks. */
	s = skip_ws(s);
	while (*s == '-' && (s[1] == '\0' || is_ws(s[1])) && dashes < 2) {
		dashes++;
		s = skip_ws(s + 1);
	}
	if (*s >= '0' && *s <= '9') {
		uint32_t v;
		s = read_number(s, UINT16_MAX, &v);
		p.halfmove = (uint16_t)v;
		if (*s && !is_ws(*s)) {
			*why = "bad half-move clock";
			return -1;
		}
		s = skip_ws(s);
		if (*s >= '0' && *s <= '9') {
			s = read_number(s, GAMEDB__MOVENO_MAX, &v);
			p.fullmove = v ? v : 1;
			if (*s && !is_ws(*s)) {
				*why = "bad move number";
				return -1;
			}
		}
	} else if (*s) {
		*why = "bad field after the side to move";
		return -1;
	}
	/* Anything after the clocks (EPD-style operations) is ignored. */

	gamedb__xq_sync(&p);
	if (gamedb__xq_validate(&p, why) != 0)
		return -1;
	*pos = p;
	return 0;
}

size_t gamedb__xq_to_fen(const struct gamedb__xqpos *pos, char *buf, size_t cap)
{
	char tmp[128];
	char *d = tmp;
	int rank, file;
	size_t len;

	for (rank = 9; rank >= 0; rank--) {
		int empty = 0;
		for (file = 0; file < 9; file++) {
			const uint8_t pc = pos->sq[rank * 9 + file];
			if (!pc) {
				empty++;
				continue;
			}
			if (empty)
				*d++ = (char)('0' + empty);
			empty = 0;
			*d++ = (char)(fen_letter[TYPE(pc)] | (COLOUR(pc) ? 0x20 : 0));
		}
		if (empty)
			*d++ = (char)('0' + empty);
		if (rank)
			*d++ = '/';
	}
	/* At most 90 + 9 bytes so far; the rest fits in what is left of tmp. */
	d += snprintf(d, sizeof tmp - (size_t)(d - tmp), " %c - - %u %lu", (pos->stm & 1) ? 'b' : 'w',
		      (unsigned)pos->halfmove, (unsigned long)pos->fullmove);
	len = (size_t)(d - tmp);
	if (cap) {
		const size_t n = len < cap ? len : cap - 1;
		memcpy(buf, tmp, n);
		buf[n] = '\0';
	}
	return len;
}

/* ------------------------------------------------------------------------------------------ */
/* ICCS */

size_t gamedb__xq_move_iccs(const struct gamedb__move *m, char *buf)
{
	if ((m->flags & GAMEDB__MF_NULL) || m->from >= GAMEDB__XQ_SQUARES ||
	    m->to >= GAMEDB__XQ_SQUARES) {
		memcpy(buf, "0000", 5);
		return 4;
	}
	buf[0] = (char)('a' + FILE_OF(m->from));
	buf[1] = (char)('0' + RANK_OF(m->from));
	buf[2] = (char)('a' + FILE_OF(m->to));
	buf[3] = (char)('0' + RANK_OF(m->to));
	buf[4] = '\0';
	return 4;
}

static int iccs_square(const char *s)
{
	const int f = (s[0] | 0x20) - 'a';
	if (f < 0 || f > 8 || s[1] < '0' || s[1] > '9')
		return -1;
	return (s[1] - '0') * 9 + f;
}

int gamedb__xq_parse_iccs(const struct gamedb__xqpos *pos, const char *s, struct gamedb__move *m)
{
	int from, to;

	if (!s || !s[0] || !s[1])
		return -1;
	from = iccs_square(s);
	s += 2;
	if (*s == '-')
		s++;
	if (from < 0 || !s[0] || !s[1])
		return -1;
	to = iccs_square(s);
	if (to < 0 || s[2] != '\0')
		return -1;
	memset(m, 0, sizeof *m);
	m->from = (uint8_t)from;
	m->to = (uint8_t)to;
	return complete(pos, m);
}

/* ------------------------------------------------------------------------------------------ */
/* WXF and Chinese notation */

/*
 * What both descriptive notations need to know about a move: the mover's colour, piece type,
 * its file number (1..9 from the mover's right), the move's direction (+1 forward, -1
 * backward, 0 sideways) and destination number, and how the man is told apart from others of
 * its kind on its file.
 */
struct descr {
	int colour, type;
	int file_no;      /* 1..9 from the mover's right */
	int dir;          /* +1 forward, -1 backward, 0 sideways */
	int dest;         /* 1..9: destination file number or number of ranks */
	int n_on_file;    /* men of this kind and colour on the mover's file (1 = alone) */
	int index;        /* 0 = front-most of them, from the mover's view */
	int multi_files;  /* soldiers: files holding two or more of the mover's soldiers */
};

static int file_number(int colour, int file)
{
	return colour ? file + 1 : 9 - file;
}

/* 0 or -1 when the move does not start from a man. */
static int describe(const struct gamedb__xqpos *pos, const struct gamedb__move *m,
		    struct descr *d)
{
	uint8_t pc;
	int f, r, dr, rank, counts[9];

	if (m->from >= GAMEDB__XQ_SQUARES || m->to >= GAMEDB__XQ_SQUARES)
		return -1;
	pc = pos->sq[m->from];
	if (!pc || !valid_pc(pc))
		return -1;
	d->colour = COLOUR(pc);
	d->type = TYPE(pc);
	f = FILE_OF(m->from);
	r = RANK_OF(m->from);
	d->file_no = file_number(d->colour, f);
	dr = RANK_OF(m->to) - r;
	if (d->colour)
		dr = -dr;
	d->dir = dr > 0 ? 1 : dr < 0 ? -1 : 0;
	switch (d->type) {
	case GAMEDB__XQ_HORSE:
	case GAMEDB__XQ_ELEPHANT:
	case GAMEDB__XQ_ADVISOR:
		/* Diagonal movers always change file: give the destination file. */
		d->dest = file_number(d->colour, FILE_OF(m->to));
		break;
	default:
		d->dest = dr ? (dr > 0 ? dr : -dr) : file_number(d->colour, FILE_OF(m->to));
		break;
	}

	d->n_on_file = 0;
	d->index = 0;
	for (rank = 0; rank < 10; rank++) {
		if (pos->sq[rank * 9 + f] != pc)
			continue;
		d->n_on_file++;
		/* In front, from the mover's side: higher ranks for Red, lower for Black. */
		if (d->colour ? rank < r : rank > r)
			d->index++;
	}
	d->multi_files = 0;
	if (d->type == GAMEDB__XQ_PAWN) {
		int s;
		memset(counts, 0, sizeof counts);
		for (s = 0; s < GAMEDB__XQ_SQUARES; s++)
			if (pos->sq[s] == pc)
				counts[FILE_OF(s)]++;
		for (f = 0; f < 9; f++)
			if (counts[f] >= 2)
				d->multi_files++;
	}
	return 0;
}

/*
 * Advisors and elephants are never told apart by front/rear: two of them on one file can
 * never reach the same point in the same direction, so the file number is enough (the WXF and
 * Chinese convention). The general is alone.
 */
static int needs_tandem(const struct descr *d)
{
	return d->n_on_file >= 2 && d->type != GAMEDB__XQ_ADVISOR &&
	       d->type != GAMEDB__XQ_ELEPHANT && d->type != GAMEDB__XQ_GENERAL;
}

static const char wxf_letter[16] = {'?', 'P', 'H', '?', 'R', '?', 'K', 'A',
				    'E', 'C', '?', '?', '?', '?', '?', '?'};

size_t gamedb__xq_move_wxf(const struct gamedb__xqpos *pos, const struct gamedb__move *m, char *buf)
{
	struct descr d;
	char a, b;

	if (m->flags & GAMEDB__MF_NULL) {
		memcpy(buf, "--", 3);
		return 2;
	}
	if (describe(pos, m, &d) != 0) {
		memcpy(buf, "?", 2);
		return 1;
	}
	a = wxf_letter[d.type];
	b = (char)('0' + d.file_no);
	if (needs_tandem(&d)) {
		const int last = d.n_on_file - 1;
		if (d.type == GAMEDB__XQ_PAWN && d.multi_files >= 2) {
			/* Soldiers tandem on two files: the file number replaces the letter. */
			a = (char)('0' + d.file_no);
			b = d.index == 0 ? '+' : d.index == last ? '-' : (char)('0' + d.file_no);
		} else if (d.n_on_file >= 4 && (d.index == 0 || d.index == last)) {
			/* Four or five soldiers: the outermost two are "++" and "--". */
			a = b = d.index == 0 ? '+' : '-';
		} else if (d.index == 0 || (d.n_on_file >= 4 && d.index == 1)) {
			b = '+';
		} else if (d.index == last || (d.n_on_file >= 4 && d.index == last - 1)) {
			b = '-';
		}
		/* else: the middle one of three or five keeps its plain file number. */
	}
	buf[0] = a;
	buf[1] = b;
	buf[2] = d.dir > 0 ? '+' : d.dir < 0 ? '-' : '.';
	buf[3] = (char)('0' + d.dest);
	buf[4] = '\0';
	return 4;
}

/* UTF-8 pieces of the Chinese notation (three bytes each). */
static const char *const cn_red_digit[10] = {"", "一", "二", "三", "四", "五",
					     "六", "七", "八", "九"};
static const char *const cn_black_digit[10] = {"", "１", "２", "３", "４", "５",
					       "６", "７", "８", "９"};

static const char *cn_piece(int colour, int type)
{
	switch (type) {
	case GAMEDB__XQ_GENERAL:
		return colour ? "将" : "帅";
	case GAMEDB__XQ_ADVISOR:
		return colour ? "士" : "仕";
	case GAMEDB__XQ_ELEPHANT:
		return colour ? "象" : "相";
	case GAMEDB__XQ_HORSE:
		return "马";
	case GAMEDB__XQ_CHARIOT:
		return "车";
	case GAMEDB__XQ_CANNON:
		return "炮";
	case GAMEDB__XQ_PAWN:
		return colour ? "卒" : "兵";
	default:
		return "?";
	}
}

static char *put(char *d, const char *s)
{
	const size_t n = strlen(s);
	memcpy(d, s, n);
	return d + n;
}

size_t gamedb__xq_move_chinese(const struct gamedb__xqpos *pos, const struct gamedb__move *m,
			       char *buf)
{
	const char *const *digit;
	struct descr d;
	char *p = buf;

	if (m->flags & GAMEDB__MF_NULL) {
		memcpy(buf, "--", 3);
		return 2;
	}
	if (describe(pos, m, &d) != 0) {
		memcpy(buf, "?", 2);
		return 1;
	}
	digit = d.colour ? cn_black_digit : cn_red_digit;
	if (!needs_tandem(&d)) {
		p = put(p, cn_piece(d.colour, d.type));
		p = put(p, digit[d.file_no]);
	} else {
		const int last = d.n_on_file - 1;
		const char *where = d.index == 0 ? "前" : d.index == last ? "后" : "中";
		if (d.type == GAMEDB__XQ_PAWN && d.multi_files >= 2) {
			/* Soldiers tandem on two files: position word and file, no piece name. */
			p = put(p, where);
			p = put(p, digit[d.file_no]);
		} else if (d.n_on_file >= 4) {
			/* Four or five soldiers on a file: numbered front to back (a board
			 * written by hand may hold more; they share the last number). */
			p = put(p, cn_red_digit[d.index < 9 ? d.index + 1 : 9]);
			p = put(p, cn_piece(d.colour, d.type));
		} else {
			p = put(p, where);
			p = put(p, cn_piece(d.colour, d.type));
		}
	}
	p = put(p, d.dir > 0 ? "进" : d.dir < 0 ? "退" : "平");
	p = put(p, digit[d.dest]);
	*p = '\0';
	return (size_t)(p - buf);
}
