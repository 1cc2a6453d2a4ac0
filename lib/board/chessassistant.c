/*
 * libgamedb - Chess Assistant piece numbers: which man "piece 9" or "the piece promoted from
 * pawn 3" of a D02 move code is. The rules are in board.h; the Chess Assistant decoder
 * (lib/formats/format-chessassistant.c) keeps one set of numbers per line of play.
 */
#include <string.h>

#include "board.h"

const uint8_t gamedb__ca_fixed_type[16] = {
	GAMEDB__PAWN, GAMEDB__PAWN, GAMEDB__PAWN, GAMEDB__PAWN, GAMEDB__PAWN, GAMEDB__PAWN,
	GAMEDB__PAWN, GAMEDB__PAWN, GAMEDB__KNIGHT, GAMEDB__KNIGHT, GAMEDB__BISHOP, GAMEDB__BISHOP,
	GAMEDB__ROOK, GAMEDB__ROOK, GAMEDB__QUEEN, GAMEDB__KING
};

void gamedb__caslots_clear(struct gamedb__caslots *s)
{
	memset(s->sq, GAMEDB__NO_SQ, sizeof s->sq);
	memset(s->origin, 0xFF, sizeof s->origin);
}

void gamedb__caslots_init(struct gamedb__caslots *s)
{
	/* Home squares of numbers 0..15: pawns a2..h2, Nb1 Ng1 Bc1 Bf1 Ra1 Rh1 Qd1 Ke1. */
	static const uint8_t home[16] = { 8, 9, 10, 11, 12, 13, 14, 15, 1, 6, 2, 5, 0, 7, 3, 4 };
	int c, i;

	gamedb__caslots_clear(s);
	for (c = 0; c < 2; c++)
		for (i = 0; i < 16; i++)
			s->sq[c][i] = (uint8_t)(c ? (home[i] ^ 56) : home[i]);
}

int gamedb__caslots_promoted(const struct gamedb__caslots *s, int colour, int pawn)
{
	int i;

	if (pawn < 0 || pawn > 7)
		return -1;
	if (s->sq[colour][18 + pawn] != GAMEDB__NO_SQ)
		return 18 + pawn;
	for (i = 8; i < 18; i++)
		if (s->origin[colour][i] == pawn && s->sq[colour][i] != GAMEDB__NO_SQ)
			return i;
	return -1;
}

void gamedb__caslots_move(struct gamedb__caslots *s, int colour, const struct gamedb__move *m,
			  int number, int new_number)
{
	int i;

	if (m->flags & GAMEDB__MF_CAPTURE) {
		uint8_t cap = (m->flags & GAMEDB__MF_EP) ? (uint8_t)(colour ? m->to + 8 : m->to - 8)
							 : m->to;
		for (i = 0; i < GAMEDB__CA_NSLOT; i++)
			if (s->sq[!colour][i] == cap)
				s->sq[!colour][i] = GAMEDB__NO_SQ;
	}
	if (m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) {
		uint8_t rto = (uint8_t)((m->flags & GAMEDB__MF_CASTLE_K) ? m->to - 1 : m->to + 1);
		for (i = 0; i < GAMEDB__CA_NSLOT; i++)
			if (s->sq[colour][i] == m->rook_from)
				s->sq[colour][i] = rto;
		s->sq[colour][15] = m->to;
		return;
	}
	if ((m->flags & GAMEDB__MF_NULL) || number < 0 || number >= GAMEDB__CA_NSLOT)
		return;
	if (new_number >= 0 && new_number < GAMEDB__CA_NSLOT) {
		s->sq[colour][number] = GAMEDB__NO_SQ;
		s->sq[colour][new_number] = m->to;
		if (new_number >= 8 && new_number < 18 && number < 8)
			s->origin[colour][new_number] = (uint8_t)number;
		return;
	}
	s->sq[colour][number] = m->to;
}
