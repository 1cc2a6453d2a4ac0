/*
 * libgamedb - ChessBase piece slots: which man "the 2nd rook" or "pawn 4" of a CBG move byte
 * is. The rules are in board.h; the CBG decoder (lib/formats/cbh-moves.c) keeps one set of
 * slots per line of play.
 */
#include <string.h>

#include "board.h"

void gamedb__cbslots_init(struct gamedb__cbslots *s, const struct gamedb__pos *pos, int reverse)
{
	int i;

	memset(s->sq, GAMEDB__NO_SQ, sizeof s->sq);
	/* i runs over ChessBase's file-by-file order (a1 = 0, a2 = 1, ..., h8 = 63). */
	for (i = 0; i < 64; i++) {
		const int cm = reverse ? 63 - i : i;
		const int sq = (cm & 7) * 8 + (cm >> 3);
		const uint8_t pc = pos->sq[sq];
		const int type = GAMEDB__PC_TYPE(pc), cap = gamedb__cbslots_cap(type);
		uint8_t *slot;
		int k;

		if (pc == GAMEDB__EMPTY || cap == 0)
			continue;
		slot = s->sq[GAMEDB__PC_COLOUR(pc)][type];
		for (k = 0; k < cap; k++) {
			if (slot[k] == GAMEDB__NO_SQ) {
				slot[k] = (uint8_t)sq;
				break;
			}
		}
	}
}

/* The slot of type holding square sq, or -1 (the man is untracked). */
static int find(const uint8_t *slot, int cap, int sq)
{
	int k;

	for (k = 0; k < cap; k++)
		if (slot[k] == sq)
			return k;
	return -1;
}

void gamedb__cbslots_move(struct gamedb__cbslots *s, int colour, const struct gamedb__move *m)
{
	const int us = colour & 1;
	int k, cap;
	uint8_t *slot;

	if (m->flags & GAMEDB__MF_NULL)
		return;
	/* The mover (kings have no slot). */
	cap = gamedb__cbslots_cap(m->piece);
	if (cap) {
		slot = s->sq[us][m->piece];
		k = find(slot, cap, m->from);
		if (k >= 0)
			slot[k] = m->promo ? GAMEDB__NO_SQ : m->to;
	}
	if (m->promo && gamedb__cbslots_cap(m->promo)) {
		/* The first free slot; none free: the new piece stays untracked. */
		slot = s->sq[us][m->promo];
		k = find(slot, gamedb__cbslots_cap(m->promo), GAMEDB__NO_SQ);
		if (k >= 0)
			slot[k] = m->to;
	}
	if ((m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) && m->rook_from < 64) {
		const int rto = (m->to & ~7) + ((m->flags & GAMEDB__MF_CASTLE_K) ? 5 : 3);
		slot = s->sq[us][GAMEDB__ROOK];
		k = find(slot, 3, m->rook_from);
		if (k >= 0)
			slot[k] = (uint8_t)rto;
	}
	if (m->flags & GAMEDB__MF_CAPTURE)
		gamedb__cbslots_take(s, colour, m);
}

void gamedb__cbslots_take(struct gamedb__cbslots *s, int colour, const struct gamedb__move *m)
{
	/* En passant takes the pawn beside the destination, on the mover's starting rank. */
	const int csq = (m->flags & GAMEDB__MF_EP) ? (m->from & ~7) + (m->to & 7) : m->to;
	const int cap = gamedb__cbslots_cap(m->captured);
	uint8_t *slot;
	int k;

	if (!cap)
		return;
	slot = s->sq[(colour & 1) ^ 1][m->captured];
	k = find(slot, cap, csq);
	if (k < 0)
		return; /* an untracked piece */
	if (m->captured == GAMEDB__PAWN) {
		slot[k] = GAMEDB__NO_SQ;
	} else {
		/* The pieces after it move up (three slots: written out, not a memmove call). */
		if (k == 0)
			slot[0] = slot[1];
		if (k <= 1)
			slot[1] = slot[2];
		slot[2] = GAMEDB__NO_SQ;
	}
}
