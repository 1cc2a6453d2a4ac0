/*
 * libgamedb - FICS/ICC style 12: the one reading of a `<12>` and a `<b1>` line, shared by the
 * log reader (format-style12.c: games rebuilt from a whole log, and the live session fed by a
 * client) and the live line API (style12-line.c: one line into a snapshot with getters).
 * Private to lib/formats. doc/formats/style12.md has the fields.
 */
#ifndef GAMEDB_STYLE12_H
#define GAMEDB_STYLE12_H

#include "formats/format.h"

/*
 * A name's bytes and NUL. FICS handles have at most 17 letters, ICC's 15; names of other
 * servers and of edited logs may be UTF-8 (up to 4 bytes a letter) or another charset.
 */
#define GAMEDB__S12_NAME 64
/* The UTF-8 of a name: a byte of a single-byte charset (or U+FFFD) is at most 3 bytes. */
#define GAMEDB__S12_NAME_UTF8 (3 * (GAMEDB__S12_NAME - 1) + 1)
#define GAMEDB__S12_FIELDS 30 /* fields after "<12>" (the help counts 31 with "<12>") */

/* One <12> line, as parse gives it. */
struct gamedb__s12line {
	uint8_t sq[64];     /* GAMEDB__PC() or GAMEDB__EMPTY, a1 = 0 */
	int stm;            /* 0 white, 1 black */
	int ep;             /* file of a double push just made, -1 */
	int castle[4];      /* wK wQ bK bQ */
	long halfmove;
	long gameno;
	char white[GAMEDB__S12_NAME], black[GAMEDB__S12_NAME]; /* as the line has them: any bytes
								  but blanks and controls */
	int relation;
	long base, inc;     /* minutes, seconds */
	long wmat, bmat;    /* material strength */
	int64_t wclock, bclock; /* in milliseconds */
	long moveno;
	char verbose[24];
	char taken_text[24]; /* the field as it is: "(0:02.123)" */
	char san[24];
	int flip;
	int ms;             /* the line's clocks are in milliseconds */
	int64_t taken;      /* time taken, in milliseconds */
};

/* One <b1> line: "game N white [PNB] black [pn]" and maybe "<- BN" (a man passed). */
struct gamedb__s12b1 {
	long gameno;
	uint64_t hand;      /* as struct gamedb__pos.hand */
	int has_passed;     /* the line has a "<- XY" suffix */
	int passed_colour;  /* its colour: 0 white, 1 black; -1 when unreadable */
	int passed_type;    /* its man: GAMEDB__PAWN..GAMEDB__QUEEN; 0 when unreadable */
	char passed[3];     /* its (at most) two letters, printable ASCII ('?' for others) */
};

/* Letter of a piece ("PNBRQKpnbrqk", '-' empty) to GAMEDB__PC()/GAMEDB__EMPTY, or -1. */
int gamedb__s12_piece(char c);

/* A whole token as a decimal integer within [lo, hi] into *out: 0, or -1. */
int gamedb__s12_int(const char *s, size_t n, long lo, long hi, long *out);

/*
 * Where the payload after `tag` ("<12> ", "<b1> ", "{Game ", "Creating: ") starts when the line
 * [p, end) is such a line: the tag after optional blanks, a prompt ("fics%", any word ending in
 * '%' or '>') and timestamps. NULL when it is not.
 */
const char *gamedb__s12_after_tag(const char *p, const char *end, const char *tag);

/*
 * Parses the fields of a <12> line (p: after "<12>"); fields after the 30th are ignored (the
 * help says fields may be added). 0, or -1 with why (cap bytes) naming the field by its number
 * in the help's count ("<12>" is field 1) and its name: "field 25 (white's clock) is missing".
 */
int gamedb__s12_parse(const char *p, const char *end, struct gamedb__s12line *L, char *why,
		      size_t cap);

/*
 * Parses the payload of a <b1> line (p: after "<b1>"). 0, or -1 with why (cap bytes). The
 * "<- XY" suffix is kept as written; whether its man is in the hand is the caller's check.
 */
int gamedb__s12_parse_b1(const char *p, const char *end, struct gamedb__s12b1 *b, char *why,
			 size_t cap);

/* The ply of a board: 0 before White's first move. */
static inline uint32_t gamedb__s12_ply(const struct gamedb__s12line *L)
{
	return (uint32_t)((L->moveno - 1) * 2 + L->stm);
}

/*
 * The position of a line, read by the board engine, and its FEN (castling rights from the
 * flags, the outermost rooks for Chess960/wild; the en-passant square only when an enemy pawn
 * can take). When zh_ok and the board has more men of a colour than chess allows (possible
 * with drops), it is read as a crazyhouse position with empty hands: pos->zh is then set and
 * the FEN carries "[]". 0 (chess position), 1 (read with hands), or -1 with *why.
 */
int gamedb__s12_pos(const struct gamedb__s12line *L, struct gamedb__pos *pos, char *fen,
		    size_t cap, const char **why, int zh_ok);

/*
 * The syntax of a verbose move ("P/e2-e4", "o-o", "o-o-o", "P/e7-e8=Q", a drop "P/@@-e4"):
 * GAMEDB__S12_MV_* and, for a plain move or drop, m's from (GAMEDB__NO_SQ for a drop), to,
 * promo and (drops) piece; castling leaves m untouched. -1 when it is not a verbose move.
 */
enum {
	GAMEDB__S12_MV_NONE = 0,   /* "none": no previous move */
	GAMEDB__S12_MV_PLAIN = 1,
	GAMEDB__S12_MV_DROP = 2,
	GAMEDB__S12_MV_SHORT = 3,  /* o-o */
	GAMEDB__S12_MV_LONG = 4    /* o-o-o */
};
int gamedb__s12_verbose(const char *v, struct gamedb__move *m);

/*
 * Copies a word (up to a blank: no control characters; bytes outside ASCII are kept, as names
 * have them) of at most cap - 1 bytes; 0, or -1.
 */
int gamedb__s12_word(const char **pp, const char *end, char *dst, size_t cap);

/* The hands as a <b1> line writes them: "white [PN] black [Q]". */
void gamedb__s12_hands_text(uint64_t hand, char *buf, size_t cap);

#endif /* GAMEDB_STYLE12_H */
