/*
 * libgamedb - internal board engine, xiangqi (Chinese chess) part. Implemented in xiangqi.c.
 *
 * Squares: sq = rank * 9 + file. file 0..8 = a..i from Red's left, rank 0..9 from Red's back
 * rank (Red's general starts on e0 = 4, Black's on e9 = 85). This is the ICCS frame
 * ("h2e2"), so a square prints as its file letter and rank digit.
 *
 * Moves use struct gamedb__move from board.h: from, to, piece (GAMEDB__XQ_* type), captured
 * (type or 0), flags (GAMEDB__MF_CAPTURE, GAMEDB__MF_NULL), check (GAMEDB__CHECK_*); promo and
 * rook_from are unused (0 and GAMEDB__NO_SQ).
 */
#ifndef GAMEDB_XIANGQI_H
#define GAMEDB_XIANGQI_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"

/* Piece types: the public gamedb_piece values (general = KING, chariot = ROOK, ...). */
enum {
	GAMEDB__XQ_PAWN = 1,     /* soldier 兵/卒 (GAMEDB_PIECE_PAWN) */
	GAMEDB__XQ_HORSE = 2,    /* horse 马 (GAMEDB_PIECE_KNIGHT) */
	GAMEDB__XQ_CHARIOT = 4,  /* chariot 车 (GAMEDB_PIECE_ROOK) */
	GAMEDB__XQ_GENERAL = 6,  /* general 帅/将 (GAMEDB_PIECE_KING) */
	GAMEDB__XQ_ADVISOR = 7,  /* advisor 仕/士 (GAMEDB_PIECE_ADVISOR) */
	GAMEDB__XQ_ELEPHANT = 8, /* elephant 相/象 (GAMEDB_PIECE_ELEPHANT) */
	GAMEDB__XQ_CANNON = 9    /* cannon 炮 (GAMEDB_PIECE_CANNON) */
};

/* A coloured xiangqi piece: type | (colour << 4); colour 0 = Red, 1 = Black. 0 = empty. */
#define GAMEDB__XQPC(type, colour) ((uint8_t)((type) | ((colour) << 4)))
#define GAMEDB__XQPC_TYPE(pc) ((pc) & 15)
#define GAMEDB__XQPC_COLOUR(pc) (((pc) >> 4) & 1)

#define GAMEDB__XQ_SQUARES 90
/* More than the legal moves of any reachable xiangqi position. */
#define GAMEDB__XQ_MAX_MOVES 160

#define GAMEDB__XQ_START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

/* A xiangqi position. Plain data: copy it with '='. */
struct gamedb__xqpos {
	uint8_t sq[GAMEDB__XQ_SQUARES]; /* GAMEDB__XQPC(type, colour) or 0 */
	uint8_t king[2];    /* general's square per colour, GAMEDB__NO_SQ if none */
	uint8_t stm;        /* side to move: 0 Red, 1 Black */
	uint8_t reserved;
	uint16_t halfmove;  /* plies since the last capture */
	uint32_t fullmove;  /* >= 1 */
};

/* A 64-bit key of pos of the same kind as the Polyglot key (lib/board/keys.c, doc/keys.md). */
uint64_t gamedb__xq_key(const struct gamedb__xqpos *pos);

void gamedb__xq_startpos(struct gamedb__xqpos *pos);
/* Recomputes king[] after sq[] was written directly. */
void gamedb__xq_sync(struct gamedb__xqpos *pos);

/*
 * Checks that pos can be played from: exactly one general per side, each in its palace,
 * advisors and elephants only on their points, soldiers not behind their start ranks, at most
 * the standard number of each piece, generals not facing each other, the side not to move not
 * in check. 0, or -1 with a short static reason in *why.
 */
int gamedb__xq_validate(const struct gamedb__xqpos *pos, const char **why);

/*
 * FEN in the common form: ranks 9 to 0 from Black's side, letters RNBAKCP (Red, upper case)
 * and rnbakcp (Black; 'h' and 'e' are accepted for horse and elephant on input), side "w"/"r"
 * (Red) or "b", then "- -" and the two clocks (optional on input). Parsing validates the
 * position (gamedb__xq_validate). 0, or -1 with *why.
 */
int gamedb__xq_from_fen(struct gamedb__xqpos *pos, const char *fen, const char **why);
/* Writes the FEN (NUL-terminated, < 100 bytes); returns its length (as snprintf). */
size_t gamedb__xq_to_fen(const struct gamedb__xqpos *pos, char *buf, size_t cap);

/* 1 if the side to move's general is attacked (or faces the other general). */
int gamedb__xq_in_check(const struct gamedb__xqpos *pos);
/*
 * All legal moves (completed; check left GAMEDB__CHECK_UNKNOWN) into out (room for
 * GAMEDB__XQ_MAX_MOVES); returns the count. Order: by from-square.
 */
int gamedb__xq_gen_legal(const struct gamedb__xqpos *pos, struct gamedb__move *out);
/* 1 if the side to move has a legal move (0: mate or stalemate, both a loss in xiangqi). */
int gamedb__xq_has_legal_move(const struct gamedb__xqpos *pos);
/* Applies a completed legal move. */
void gamedb__xq_make(struct gamedb__xqpos *pos, const struct gamedb__move *m);
/*
 * Completes, checks and plays m (from/to set): fills piece, captured, flags and check
 * (GAMEDB__CHECK_NONE / _CHECK / _MATE, mate meaning the opponent has no legal move).
 * 0 and pos updated, or -1 (illegal; pos unchanged). With GAMEDB__MF_NULL in m->flags it
 * plays a null move (from = to = the general's square), legal only when not in check.
 */
int gamedb__xq_move_play(struct gamedb__xqpos *pos, struct gamedb__move *m);

/*
 * The move from -> to (squares of this board, rank * 9 + file; -1 or above 89: off the board)
 * checked in pos, as formats that store a move as two squares read it (XQF, CCBridge): 0 with
 * *m completed and *after the position after it, or -1 with the reason in why (why_cap bytes,
 * naming the from-square as "e3": file letter, rank from Red's side): off the board, no piece
 * there, the other side's piece, or not a legal move.
 */
int gamedb__xq_move_try(const struct gamedb__xqpos *pos, int from, int to, struct gamedb__move *m,
			struct gamedb__xqpos *after, char *why, size_t why_cap);

/* ICCS, lower case: "h2e2" ("0000" for a null move). Writes a NUL-terminated string; returns 4. */
size_t gamedb__xq_move_iccs(const struct gamedb__move *m, char *buf);
/* Parses ICCS ("h2e2", "H2-E2") into a completed legal move; 0 or -1. */
int gamedb__xq_parse_iccs(const struct gamedb__xqpos *pos, const char *s, struct gamedb__move *m);
/*
 * WXF of a completed legal move in pos (before it is made), always four characters: piece
 * letter (K A E R H C P), file number (1..9 from the mover's right), '+' forward / '-'
 * backward / '.' sideways, then the destination file (sideways moves, and every move of H, E,
 * A) or the number of ranks (forward/backward moves of R, C, P, K): "C2.5", "H8+7", "R1-1".
 * Two men of a kind on the mover's file: the sign replaces the file number, after the letter,
 * as the WXF/AXF notation document writes it: "C+.5" / "C-.5" (front/rear from the mover's
 * view). Advisors and elephants never need it (the direction tells them apart): "A6+5".
 * Soldiers, as the WXF document: three on a file "P+", plain "P7" for the middle one, "P-";
 * four "++", "P+", "P-", "--"; five "++", "P+", "P7", "P-", "--"; when two files each hold
 * two or more soldiers the file number replaces the letter: "7+.6", "77.6", "7-.6".
 * A null move is "--". Writes a NUL-terminated string (<= 16 bytes); returns its length.
 */
size_t gamedb__xq_move_wxf(const struct gamedb__xqpos *pos, const struct gamedb__move *m, char *buf);
/*
 * Chinese notation in UTF-8, four characters: piece name (Red 帅仕相马车炮兵, Black
 * 将士象马车炮卒), file (Red 一..九, Black full-width １..９, each from its own right), 进/退/平,
 * destination as in WXF: "炮二平五", "马８进７". Tandems: 前/后 + name ("前炮平五"); soldiers
 * three on a file 前/中/后, four or five numbered front to back 一兵, 二兵, ... (Chinese
 * numerals for both sides); two files with two or more soldiers each: 前/中/后 + file number,
 * no name ("前七平六"). A null move is "--". NUL-terminated, <= 32 bytes; returns the length.
 */
size_t gamedb__xq_move_chinese(const struct gamedb__xqpos *pos, const struct gamedb__move *m,
			       char *buf);

/* Perft: leaf nodes at depth (1 for depth <= 0; depth > 32 is refused with 0). */
uint64_t gamedb__xq_perft(const struct gamedb__xqpos *pos, int depth);

#endif /* GAMEDB_XIANGQI_H */
