/*
 * libgamedb - ChessBase: what the index/name part (format-cbh.c) and the move/annotation
 * decoder (cbh-moves.c) share. Private to lib/formats.
 *
 * A ChessBase game's location, as format-cbh.c leaves it in struct gamedb_game:
 *   g->loc[0] = offset of the game in the .cbg (from the CBH record, or the 64-bit CBJ copy)
 *   g->loc[1] = offset of its annotations in the .cba, 0 = none
 *   g->loc[2] = the CBH record number (1-based game id)
 *   g->fmt_flags = the CBH annotation-flags field (bit 0: setup position, ...)
 */
#ifndef GAMEDB_CBH_H
#define GAMEDB_CBH_H

#include "formats/format.h"

/* What the move decoder needs of the open base; owned by format-cbh.c's state. */
struct gamedb__cbg_ctx {
	struct gamedb_reader *r;
	struct gamedb__file *cbg; /* always open */
	struct gamedb__file *cba; /* NULL when the base has no .cba */
	const char *detected;     /* what charset-detect found (static), NULL if not asked */
	int language;             /* CB language code of the texts to keep; -1 = keep all */
	int mainline_moves;       /* the game's CBH main-line move count (255 = 255 or more),
				     set by format-cbh.c before each decode; -1 = unknown */
	struct gamedb__buf scratch; /* decoder's own, freed by gamedb__cbg_ctx_free() */
	void *priv;               /* decoder's own, freed by gamedb__cbg_ctx_free() */
};

/*
 * The charset a base's text (names and annotations) is read in: the caller's `charset` option,
 * else what charset-detect found, else CP1252. Worked out on each use, so that an option set
 * after the open takes effect everywhere at once. Static or owned by the reader.
 */
static inline const char *gamedb__cbg_charset(const struct gamedb__cbg_ctx *c)
{
	if (c->r->text.charset[0])
		return c->r->text.charset;
	return c->detected ? c->detected : "CP1252";
}

/*
 * Reads the setup block of g (its CBG record has flag bit 6) into g->start / g->have_start and
 * its FEN into g->fen, and the record's encoding mode into *mode (-1 if unreadable).
 * GAMEDB_OK (also when the game has no setup: then nothing changes), GAMEDB_WARN when the
 * Chess960 castling squares are bad (the board without castling rights, g's message set),
 * or GAMEDB_FAILED with g's message set (file and offset named).
 */
int32_t gamedb__cbg_read_setup(struct gamedb__cbg_ctx *c, struct gamedb_game *g, int *mode);

/*
 * Decodes the moves of g (CBG) with its annotations (CBA) into mb, checking every move with
 * the board engine. OK, WARN (lossy text, an annotation it could not place), or FAILED with
 * g's message naming the file, offset and move (mb then holds the legal part).
 */
int32_t gamedb__cbg_decode(struct gamedb__cbg_ctx *c, struct gamedb_game *g,
			   struct gamedb__movebuf *mb);

void gamedb__cbg_ctx_free(struct gamedb__cbg_ctx *c);

#endif /* GAMEDB_CBH_H */
