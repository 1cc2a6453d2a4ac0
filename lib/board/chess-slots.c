/*
 * libgamedb - SCID piece slots: which man a piece number of a Scid move byte is. The rules
 * are in board.h; the ChessBase policy is in chessbase.c. Shared helpers: chess-internal.h.
 */
#include <stdint.h>
#include <string.h>

#include "chess-internal.h"

/* ------------------------------------------------------------------------------------------ */
/* SCID piece slots */

/* b with its ranks in reverse order: bit 8 * (7 - rank) + file for bit 8 * rank + file. */
static inline uint64_t ranks_reversed(uint64_t b)
{
	b = ((b >> 8) & UINT64_C(0x00FF00FF00FF00FF)) | ((b & UINT64_C(0x00FF00FF00FF00FF)) << 8);
	b = ((b >> 16) & UINT64_C(0x0000FFFF0000FFFF)) | ((b & UINT64_C(0x0000FFFF0000FFFF)) << 16);
	return (b >> 32) | (b << 32);
}

static int slots_fen_order(struct gamedb__slots *s, const struct gamedb__pos *pos)
{
	int c;

	memset(s->sq, GAMEDB__NO_SQ, sizeof s->sq);
	memset(s->slot, 0xFF, sizeof s->slot);
	s->count[0] = s->count[1] = 0;
	for (c = 0; c < 2; c++) {
		const uint64_t men = pos->by_colour[c], king = men & pos->by_type[GAMEDB__KING];
		uint64_t m;
		int i = 0, k, ks;
		uint8_t first;

		if (!king || SEVERAL(king) || popcount(men) > 16)
			return -1;
		/*
		 * The men of colour c in FEN order (a8..h8, a7.., ..h1): with the ranks reversed,
		 * that is the order of the bits, square = bit ^ 56...
		 */
		for (m = ranks_reversed(men); m; m &= m - 1) {
			const int sq = LSB(m) ^ 56;
			s->sq[c][i] = (uint8_t)sq;
			s->slot[sq] = (uint8_t)i++;
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

/*
 * The slots of the standard start position in the standard numbering: 0 the king, 1 the
 * a-rook, ..., 4 the queen, 5 the f-bishop, ..., 7 the h-rook, 8..15 the pawns a..h.
 */
#define N 0xFF
static const struct gamedb__slots start_slots = {
	.sq = { { 4, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
		{ 60, 56, 57, 58, 59, 61, 62, 63, 48, 49, 50, 51, 52, 53, 54, 55 } },
	.count = { 16, 16 },
	.slot = { 1, 2, 3, 4, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		  N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
		  N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, N,
		  8, 9, 10, 11, 12, 13, 14, 15, 1, 2, 3, 4, 0, 5, 6, 7 }
};
#undef N

int gamedb__slots_init_scid(struct gamedb__slots *s, const struct gamedb__pos *pos)
{
	if (!gamedb__pos_is_start_board(pos))
		return slots_fen_order(s, pos);
	*s = start_slots;
	return 0;
}

/* The slot of the man on from follows it to `to` (an empty square, or one just emptied). */
static inline void slot_follow(struct gamedb__slots *s, int us, int from, int to)
{
	const uint8_t ms = s->slot[from];

	s->slot[from] = 0xFF;
	if (ms < 16) {
		s->sq[us][ms] = (uint8_t)to;
		s->slot[to] = ms;
	}
}

void gamedb__slots_move_scid(struct gamedb__slots *s, int colour, const struct gamedb__move *m)
{
	const int us = colour, them = us ^ 1;

	/* The usual move first, with one test. */
	if (!(m->flags & (GAMEDB__MF_NULL | GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q |
			  GAMEDB__MF_CAPTURE))) {
		slot_follow(s, us, m->from, m->to);
		return;
	}
	/* Then a capture (never a null move or castling): the captured man's slot goes first. */
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
		slot_follow(s, us, m->from, m->to);
		return;
	}
	if (m->flags & GAMEDB__MF_NULL)
		return;
	{
		/* Castling: both squares are emptied first (in Chess960 the king may land on its
		 * rook's square). */
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
	}
}
