/*
 * libgamedb - SCID piece slots: which man a piece number of a Scid move byte is. The rules
 * are in board.h; the ChessBase policy is in chessbase.c. Shared helpers: chess-internal.h.
 */
#include <stdint.h>
#include <string.h>

#include "chess-internal.h"

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

void gamedb__slots_move_scid(struct gamedb__slots *s, int colour, const struct gamedb__move *m)
{
	const int us = colour, them = us ^ 1;

	/* The usual move first, with one test: the man's slot follows it. */
	if (!(m->flags & (GAMEDB__MF_NULL | GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q |
			  GAMEDB__MF_CAPTURE))) {
		const uint8_t ms = s->slot[m->from];
		s->slot[m->from] = 0xFF;
		if (ms < 16) {
			s->sq[us][ms] = m->to;
			s->slot[m->to] = ms;
		}
		return;
	}
	/* Then a capture (never a null move or castling), then those two. */
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
	} else if (m->flags & GAMEDB__MF_NULL) {
		return;
	} else {
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
	{
		const uint8_t ms = s->slot[m->from];
		s->slot[m->from] = 0xFF;
		if (ms < 16) {
			s->sq[us][ms] = m->to;
			s->slot[m->to] = ms;
		}
	}
}
