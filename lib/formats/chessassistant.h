/*
 * libgamedb - Chess Assistant: what the base part (format-chessassistant.c: the EMB file
 * system, the name tables, headers and record lookup) and the move decoder (ca-moves.c)
 * share. Private to lib/formats; every field is in doc/formats/chessassistant.md.
 */
#ifndef GAMEDB_CHESSASSISTANT_H
#define GAMEDB_CHESSASSISTANT_H

#include "formats/format.h"
#include "formats/toolkit.h"

#define CA_D00_REC 38u
#define CA_EMB_HEAD 144u       /* signature 64, version 64, zeros 8, folder length, offset */
#define CA_DIR_ENTRY 256u
#define CA_CDP_HEAD 112u
/* Redirection chains (a01, a02) longer than this are taken for cycles. */
#define CA_MAX_CHAIN 4096u
/* Variations nested deeper than this are left out (with a warning). */
#define CA_MAX_DEPTH 200u
#define CA_SETUP_LEN 76u
#define NONE SIZE_MAX

/*
 * The direction of the horizontal delta of a move code (seed: "x positions to the left" in the
 * move table, "to the right" for extended moves). RIGHT: the file grows (a towards h).
 */
enum { CA_DIR_AUTO = 0, CA_DIR_RIGHT = 1, CA_DIR_LEFT = -1 };

enum { T_PLAYERS = 0, T_EVENTS = 1, T_PLACES = 2, T_SOURCES = 3 };

struct catable {
	uint8_t *a01;
	size_t a01n;
	uint8_t *d01;
	size_t d01n;
	int have;
};

struct caframe {
	struct gamedb__pos pos, prev;
	struct gamedb__caslots sl, prevsl;
	size_t off;      /* record index of the next code */
	size_t pend_lo;  /* this line's pending variations: pend[pend_lo .. pend.n) */
	size_t flush;    /* emitting pending variations: next index, or NONE */
	size_t last_move;/* node index of the line's last move in mb, or NONE */
	uint8_t moved;   /* a move was played since the pending variations were recorded */
	uint8_t ep_next; /* code 210 seen: the next move is an en-passant capture */
	uint8_t nnag;
	uint8_t nag[8];  /* NAGs stored "before the move": written after it */
};

/* The public handle (gamedb_reader_get_chessassistant()). */
struct gamedb_chessassistant {
	struct ca *s;
	struct gamedb__buf comment; /* the base comment as UTF-8, made on demand */
};

struct ca {
	struct gamedb_reader *r;
	struct gamedb_chessassistant handle;
	uint8_t *cdp_comment; /* the stored base comment */
	size_t cdp_comment_len;
	struct gamedb__file *cdp, *emb, *d00, *a02, *d02;
	uint64_t count, next;
	struct catable tab[4];
	uint8_t *pd00;   /* Players.d00 */
	size_t pd00n;
	int dir;         /* option: CA_DIR_* */
	int dir_cur;     /* what decodes now (auto: the last reading that was legal) */
	int illegal;     /* the last decode failed on a move the board refused */
	const char *detected; /* what charset-detect found (static), NULL when it is off */
	struct gamedb__stack frames; /* struct caframe */
	struct gamedb__stack pend;   /* size_t: record index after a 231 */
};

/*
 * The charset of the base's text: the caller's `charset` option, else what charset-detect
 * found, else CP1251. Worked out on each use, so that an option set after the open counts.
 */
const char *gamedb__ca_charset(const struct ca *s);
/*
 * Finds the record of game id in d02 through a02 and views it: *rec its codes (after the
 * length field), *len their number, *base their file offset. 0, or -1 with g's message set.
 */
int gamedb__ca_rec_view(struct ca *s, struct gamedb_game *g, const uint8_t **rec, size_t *len,
			uint64_t *base);
/*
 * Code 230's position (76 bytes at b): both 18-piece arrays, the ply count, the castling mask
 * and the en-passant square. pos and sl set; 0, or -1 with a reason in why.
 */
int gamedb__ca_parse_setup(const uint8_t *b, struct gamedb__pos *pos, struct gamedb__caslots *sl,
			   char *fen, size_t fcap, char *why, size_t wcap);
/* The format's decode_moves (ca-moves.c): the moves, variations and comments of g. */
int32_t gamedb__ca_decode(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb);

#endif /* GAMEDB_CHESSASSISTANT_H */
