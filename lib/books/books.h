/*
 * libgamedb - opening books read (lib/books): what the generic reader (book-reader.c: the
 * public gamedb_book_reader_*, the walk, the Polyglot conversion) asks of a format
 * (book-abk.c, Arena; book-ctg.c, ChessBase).
 *
 * A format only finds the moves its file stores for a position; the generic reader checks each
 * one legal, writes its UCI and SAN, walks the book and converts it. A format's statistics are
 * numbers per move, named by its stats[] (stats[0] is always "weight", the Polyglot weight the
 * conversion writes, worked out by the format from its own numbers).
 */
#ifndef GAMEDB_BOOKS_H
#define GAMEDB_BOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "board/board.h"
#include "io/io.h"

/* Statistics a move may have, "weight" included. */
#define GAMEDB__BOOK_NSTAT 10

/* A move as a format stores it: squares (a1 = 0), promotion piece type or 0, statistics. */
struct gamedb__book_move {
	uint8_t from, to, promo;
	int64_t st[GAMEDB__BOOK_NSTAT];
};

struct gamedb__book_format {
	const char *name;          /* "abk", "ctg" */
	const char *const *stats;  /* NULL-terminated; stats[0] "weight" */
	const char *const *pstats; /* the position's own statistics, NULL-terminated (may be empty) */
	/*
	 * Opens the book whose primary file src has (the format opens its companions through
	 * src). Returns 0, 1 when opened with records that cannot be used (msg says how many and
	 * the first), -1 when it cannot be opened (msg says why). *state is the format's own.
	 */
	int (*open)(void **state, struct gamedb__src *src, char *msg, size_t cap);
	/*
	 * The moves stored for pos (key: its Polyglot key) into *out, an array the state owns,
	 * valid until the next probe, and the position's own statistics (pstats[]) into pst.
	 * Returns their number (0: not in the book, or in it with no moves: *found says which);
	 * sets *warn and msg when moves of the position could not be read (left out); -1 when the
	 * position's record cannot be read at all (msg says why).
	 */
	int (*probe)(void *state, const struct gamedb__pos *pos, uint64_t key,
		     const struct gamedb__book_move **out, int64_t *pst, int *found, int *warn,
		     char *msg, size_t cap);
	void (*close)(void *state);
};

extern const struct gamedb__book_format gamedb__book_abk;
extern const struct gamedb__book_format gamedb__book_ctg;

/* The Polyglot weight of a count: 0 stays 0 (a move out of play), others 1..65535. */
static inline int64_t gamedb__book_weight(int64_t n)
{
	return n <= 0 ? 0 : n > 65535 ? 65535 : n;
}

#endif /* GAMEDB_BOOKS_H */
