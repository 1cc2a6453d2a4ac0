/*
 * libgamedb - the Polyglot book's move word, for the one writer of Polyglot books
 * (lib/write/book.c, from games) and the book readers' conversion (lib/books, from .abk/.ctg):
 * both below the board engine's layer rules (the writers see only the public API), so the
 * encoding lives here. Never installed.
 */
#ifndef GAMEDB_UTIL_POLYGLOT_H
#define GAMEDB_UTIL_POLYGLOT_H

#include <stdint.h>

/*
 * The 16-bit Polyglot move: to file, to rank, from file, from rank (3 bits each, squares
 * 0..63 from a1), promotion 1 knight .. 4 queen (promo: a piece type, knight 2 .. queen 5,
 * or 0). Castling must already be given as the king taking its own rook (to = the rook's
 * square): the callers know it from different facts.
 */
static inline uint16_t gamedb__pg_move(int from, int to, int promo)
{
	/* The file in bits 0-2 and the rank in 3-5 of a square are its number a1 = 0 itself. */
	return (uint16_t)(to | from << 6 | (promo ? promo - 1 : 0) << 12);
}

#endif /* GAMEDB_UTIL_POLYGLOT_H */
