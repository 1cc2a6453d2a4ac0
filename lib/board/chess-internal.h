/*
 * libgamedb - what the chess files of lib/board share, and nothing beyond lib/board includes.
 * The rest of the library sees the board engine through board.h only.
 *
 *   chess-movegen.c  representation helpers, attack tables, attacks, legal moves, make,
 *                    move_complete / move_play, perft
 *   chess-san.c      SAN out, SAN (and UCI) in, UCI out
 *   chess-fen.c      start position, FEN in (X-FEN, Shredder-FEN castling) and out
 *   chess-slots.c    SCID piece slots (the ChessBase policy is in chessbase.c)
 *
 * The small helpers below are static inline because the move generator, make and SAN, the
 * hottest code of the library, call them in their inner loops; they are here and not in one
 * .c so that SAN and FEN use the very same code. The attack tables are defined once, in
 * chess-movegen.c.
 */
#ifndef GAMEDB_CHESS_INTERNAL_H
#define GAMEDB_CHESS_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "board.h"

#define FILE_OF(s) ((s) & 7)
#define RANK_OF(s) ((s) >> 3)
#define BIT(s) ((uint64_t)1 << (s))

#define PC GAMEDB__PC
#define TYPE GAMEDB__PC_TYPE
#define COLOUR GAMEDB__PC_COLOUR

static inline int imin(int a, int b)
{
	return a < b ? a : b;
}

static inline int imax(int a, int b)
{
	return a > b ? a : b;
}

/* ------------------------------------------------------------------------------------------ */
/* Bitboards */

/* Index of the lowest set bit of a non-zero b. */
#if defined(__GNUC__) || defined(__clang__)
#define LSB(b) __builtin_ctzll(b)
#else
static inline int lsb_portable(uint64_t b)
{
	int n = 0;
	while (!(b & 1)) {
		b >>= 1;
		n++;
	}
	return n;
}
#define LSB(b) lsb_portable(b)
#endif

/* For the few small functions on the hottest paths. */
#if defined(__GNUC__) || defined(__clang__)
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define HOT_INLINE inline
#endif

/* For a function the hot path calls that must stay a call. */
#if defined(__GNUC__) || defined(__clang__)
#define NO_INLINE __attribute__((noinline))
#else
#define NO_INLINE
#endif

/*
 * For the crazyhouse code called from the chess hot paths: kept out of line (and out of the
 * hot code's registers), so that chess pays only the test that leads to it.
 */
#if defined(__GNUC__) || defined(__clang__)
#define COLD_PATH __attribute__((noinline, cold))
#else
#define COLD_PATH
#endif

/* Nonzero when b has more than one bit set. */
#define SEVERAL(b) ((b) & ((b) - 1))

#define BB_FILE_A UINT64_C(0x0101010101010101)
#define BB_FILE_B (BB_FILE_A << 1)
#define BB_FILE_G (BB_FILE_A << 6)
#define BB_FILE_H (BB_FILE_A << 7)
#define BB_RANK_1 UINT64_C(0xFF)
#define BB_DIAG_A1H8 UINT64_C(0x8040201008040201)
#define BB_DIAG_H1A8 UINT64_C(0x0102040810204080)
#define RANK_BB(s) (BB_RANK_1 << ((s) & 56))
#define FILE_BB(s) (BB_FILE_A << ((s) & 7))

/*
 * The constant attack tables (built by the compiler in chess-movegen.c, see there). The short
 * names are what the code uses; the symbols carry the library prefix, so that a static build
 * of the library puts no bare "king_bb" into a program's namespace.
 */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) /* PE: nothing leaves a
									    DLL unless exported */
#define GAMEDB__CHESS_HIDDEN __attribute__((visibility("hidden")))
#else
#define GAMEDB__CHESS_HIDDEN
#endif
#define diag_bb gamedb__chess_diag_bb
#define anti_bb gamedb__chess_anti_bb
#define rook_rays gamedb__chess_rook_rays
#define bishop_rays gamedb__chess_bishop_rays
#define knight_bb gamedb__chess_knight_bb
#define king_bb gamedb__chess_king_bb
#define pawn_bb gamedb__chess_pawn_bb
#define line_tab gamedb__chess_line_tab
#define between_tab gamedb__chess_between_tab
#define man_bb gamedb__chess_man_bb
/* [s]: the diagonal (a1-h8 way) and the anti-diagonal (h1-a8 way) through s. */
extern GAMEDB__CHESS_HIDDEN const uint64_t diag_bb[64];
extern GAMEDB__CHESS_HIDDEN const uint64_t anti_bb[64];
/* [s]: the rank and file, the two diagonals through s, s left out. */
extern GAMEDB__CHESS_HIDDEN const uint64_t rook_rays[64];
extern GAMEDB__CHESS_HIDDEN const uint64_t bishop_rays[64];
/* [s]: the squares a knight, a king on s attacks. */
extern GAMEDB__CHESS_HIDDEN const uint64_t knight_bb[64];
extern GAMEDB__CHESS_HIDDEN const uint64_t king_bb[64];
/* pawn_bb[c][s]: the squares a pawn of colour c on s attacks. */
extern GAMEDB__CHESS_HIDDEN const uint64_t pawn_bb[2][64];
/*
 * [a][b]: the whole line (rank, file or diagonal) through a and b, or 0 if they share none
 * (a == b: the rank); the squares strictly between a and b on it. Looked up, not worked out:
 * checking a move, its check and its SAN ask for them several times per move.
 */
extern GAMEDB__CHESS_HIDDEN const uint64_t line_tab[64][64];
/*
 * man_bb[pc][s]: the squares the man pc (GAMEDB__PC(type, colour)) on s attacks on an empty
 * board: a pawn's two captures, a knight's or king's steps, a slider's whole lines; 0 for an
 * empty pc. A move of a man other than a pawn is one lookup here and one in between_tab; the
 * check a man gives from its new square is the same test.
 */
extern GAMEDB__CHESS_HIDDEN const uint64_t man_bb[16][64];
extern GAMEDB__CHESS_HIDDEN const uint64_t between_tab[64][64];

/* The whole line (rank, file or diagonal) through a and b, or 0 if they share none. */
static inline uint64_t line_bb(int a, int b)
{
	return line_tab[a][b];
}

/* The squares strictly between a and b when they share a line, else 0. */
static inline uint64_t between_bb(int a, int b)
{
	return between_tab[a][b];
}

static inline uint64_t occupied(const struct gamedb__pos *pos)
{
	return pos->by_colour[0] | pos->by_colour[1];
}

/* Number of set bits (by hand: without a popcnt instruction the builtin is a library call). */
static inline int popcount(uint64_t b)
{
	b = b - ((b >> 1) & UINT64_C(0x5555555555555555));
	b = (b & UINT64_C(0x3333333333333333)) + ((b >> 2) & UINT64_C(0x3333333333333333));
	b = (b + (b >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
	return (int)((b * UINT64_C(0x0101010101010101)) >> 56);
}

/* ------------------------------------------------------------------------------------------ */
/* Attacks */

/*
 * 1 if one of the men among `att` (squares of men of colour `by`; their types are read from
 * pos) attacks square s when the board's occupancy is `occ`. With att and occ differing from
 * the position's own, this asks about the board after a move without making it: leave the
 * captured man out of att, and change occ as the move changes it. attackers() in
 * chess-movegen.c returns those men.
 */
static HOT_INLINE int attacked(const struct gamedb__pos *pos, int s, int by, uint64_t att, uint64_t occ)
{
	const uint64_t *t = pos->by_type;
	uint64_t sl;

	if (((knight_bb[s] & t[GAMEDB__KNIGHT]) | (king_bb[s] & t[GAMEDB__KING]) |
	     (pawn_bb[by ^ 1][s] & t[GAMEDB__PAWN])) & att)
		return 1;
	sl = att & (t[GAMEDB__ROOK] | t[GAMEDB__QUEEN]) & rook_rays[s];
	while (sl) {
		const int c = LSB(sl);
		if (!(between_bb(s, c) & occ))
			return 1;
		sl &= sl - 1;
	}
	sl = att & (t[GAMEDB__BISHOP] | t[GAMEDB__QUEEN]) & bishop_rays[s];
	while (sl) {
		const int c = LSB(sl);
		if (!(between_bb(s, c) & occ))
			return 1;
		sl &= sl - 1;
	}
	return 0;
}

/*
 * 1 if a slider of colour c on `line` (a line through square k, as line_tab gives it) reaches
 * k over the occupancy occ: a rook or queen when the line is a rank or file, a bishop or queen
 * when it is a diagonal. For a pin (the enemy's, with the pinned man lifted from occ) and a
 * discovered check (ours, after the move).
 */
static HOT_INLINE int slider_on_line(const struct gamedb__pos *pos, unsigned k, uint64_t line,
				     unsigned c, uint64_t occ)
{
	const uint64_t *t = pos->by_type;
	uint64_t sl = line & pos->by_colour[c] &
		      ((rook_rays[k] & (t[GAMEDB__ROOK] | t[GAMEDB__QUEEN])) |
		       (bishop_rays[k] & (t[GAMEDB__BISHOP] | t[GAMEDB__QUEEN])));

	for (; sl; sl &= sl - 1)
		if (!(between_tab[k][LSB(sl)] & occ))
			return 1;
	return 0;
}

/*
 * 1 if a man moving from -> to leaves line (line_tab[k][from], the line through king square
 * k and from; 0 when there is none) with no other man of occ between k and from: the opening
 * a pin (pin_safe()) or a discovered check (gives_check()) needs, the slider behind still to
 * be found. One test, seldom passed, made of three that would each go either way from move
 * to move (the man on a line with a king, leaving it, nothing between).
 */
static HOT_INLINE int leaves_king_line(uint64_t line, unsigned k, unsigned from, unsigned to,
				       uint64_t occ)
{
	return (line != 0) & !(line & BIT(to)) & !(between_tab[k][from] & occ);
}

/*
 * 1 if the usual move from -> to (not the king's, not en passant) leaves the king safe, in a
 * position where the side to move is not in check: it does unless the man on `from` is pinned
 * and leaves its pin line. No attack test, only the one line from the king through `from`
 * (none for most moves).
 */
static HOT_INLINE int pin_safe(const struct gamedb__pos *pos, unsigned from, unsigned to)
{
	const unsigned us = pos->stm, k = pos->king[us];
	uint64_t line;

	if (k >= 64)
		return 1;
	line = line_tab[k][from];
	/* Safe unless it leaves the king's line with nothing else between: along the line it
	 * still stands between (or takes the pinner); another man between shields the king. */
	if (!leaves_king_line(line, k, from, to, occupied(pos)))
		return 1;
	return !slider_on_line(pos, k, line, us ^ 1, occupied(pos) & ~BIT(from));
}

/*
 * What the move just made in pos did to the side now to move: GAMEDB__CHECK_NONE, _CHECK or
 * _MATE.
 */
static inline uint8_t check_state(const struct gamedb__pos *pos)
{
	if (!gamedb__in_check(pos))
		return GAMEDB__CHECK_NONE;
	return gamedb__has_legal_move(pos) ? GAMEDB__CHECK_CHECK : GAMEDB__CHECK_MATE;
}

/* ------------------------------------------------------------------------------------------ */
/* Notation */

static inline char file_char(int s)
{
	return (char)('a' + FILE_OF(s));
}

static inline char rank_char(int s)
{
	return (char)('1' + RANK_OF(s));
}

static inline int is_file_ch(char c)
{
	return c >= 'a' && c <= 'h';
}

static inline int is_rank_ch(char c)
{
	return c >= '1' && c <= '8';
}


/* Piece letters by type (SAN upper case; UCI takes the lower case of the promotion's). */
static const char piece_upper[8] = {'?', 'P', 'N', 'B', 'R', 'Q', 'K', '?'};

/*
 * The disambiguation SAN needs for the move of the man pc (of the side to move) from `from` to
 * `to` in pos, before the move: 0 when none, else its one or two characters packed, the first
 * in the low byte. checked: whether the side to move is in check (0 no, 1 yes, -1 not known). Minimal: only the other men of the same type and colour that may legally go
 * to `to` count (file, else rank, else both). Most moves pay one test on one bitboard: those
 * men on the empty-board lines (or knight steps) through `to`. The king needs none. Inline
 * without a call, so that the move engine's hot path stays a leaf.
 */
static HOT_INLINE unsigned san_disambig(const struct gamedb__pos *pos, uint8_t pc, int from, int to,
					int checked)
{
	const int type = TYPE(pc), us = COLOUR(pc), them = us ^ 1, k = pos->king[us];
	const uint64_t occ = occupied(pos);
	uint64_t cand = pos->by_type[type] & pos->by_colour[us] & ~BIT(from) & man_bb[pc][to];
	int others = 0, same_file = 0, same_rank = 0;

	if (type == GAMEDB__PAWN || type == GAMEDB__KING || !cand)
		return 0;
	for (; cand; cand &= cand - 1) {
		const int c = LSB(cand);
		/* c reaches `to` (a knight always), and its move leaves the king safe: the king
		 * stays, so a pin test (not in check) or one attack test with c moved and the man
		 * on `to` taken settles it. */
		if (between_bb(to, c) & occ)
			continue;
		if (checked == 0 ? !pin_safe(pos, (unsigned)c, (unsigned)to)
				 : (k < 64 && attacked(pos, k, them, pos->by_colour[them] & ~BIT(to),
						       (occ & ~BIT(c)) | BIT(to))))
			continue;
		others++;
		same_file |= FILE_OF(c) == FILE_OF(from);
		same_rank |= RANK_OF(c) == RANK_OF(from);
	}
	if (!others)
		return 0;
	if (!same_file)
		return (unsigned char)file_char(from);
	if (!same_rank)
		return (unsigned char)rank_char(from);
	return (unsigned char)file_char(from) | (unsigned)(unsigned char)rank_char(from) << 8;
}

/* The two characters of square s ("a1" ... "h8"), for one two-byte copy. */
extern GAMEDB__CHESS_HIDDEN const char gamedb__chess_sq_name[64][2];

/*
 * Stores the eight bytes of w into buf, its low byte first: for what is built in a register
 * as one word (a SAN, a completed move) and written with one store.
 */
static HOT_INLINE void store_word(void *buf, uint64_t w)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	memcpy(buf, &w, sizeof w);
}

/*
 * The SAN of a usual move (not castling, null or drop) of a man of type `type` from `from` to
 * `to`, given its promotion (0 if none), whether it captures and its disambiguation (from
 * san_disambig() on the position before the move), without the check mark. Needs no
 * position: the move engine writes it after the move is made. It is built in a register and
 * stored as GAMEDB__SAN_MAX bytes (at most six characters, then zeros: the NUL, and room for
 * the check mark, whose NUL is already there), so buf must have that room. Returns the length
 * written.
 */
static HOT_INLINE size_t san_write(char *buf, int from, int to, int type, int promo, int capture,
				   unsigned dis)
{
	const uint64_t sq = (uint64_t)(unsigned char)gamedb__chess_sq_name[to][0] |
			    (uint64_t)(unsigned char)gamedb__chess_sq_name[to][1] << 8;
	uint64_t w = 0;
	unsigned sh = 0; /* bits written so far */

	if (type == GAMEDB__PAWN) {
		if (capture) {
			w = (uint64_t)(unsigned char)file_char(from) | (uint64_t)'x' << 8;
			sh = 16;
		}
		w |= sq << sh;
		sh += 16;
		if (promo) {
			w |= ((uint64_t)'=' | (uint64_t)(unsigned char)piece_upper[promo & 7] << 8) << sh;
			sh += 16;
		}
	} else {
		w = (uint64_t)(unsigned char)piece_upper[type & 7];
		sh = 8;
		if (dis) {
			w |= (uint64_t)dis << 8;
			sh += dis >> 8 ? 16 : 8;
		}
		if (capture) {
			w |= (uint64_t)'x' << sh;
			sh += 8;
		}
		w |= sq << sh;
		sh += 16;
	}
	store_word(buf, w);
	return sh >> 3;
}

/*
 * The SAN of the completed legal move m in pos (before it is made), without the check mark
 * and the NUL, for gamedb__move_san() and gamedb__move_play_san(); not for a null move.
 * Returns the length written.
 */
/* Puts the mark of `check` ('+', '#' or none) and the NUL after the n bytes of SAN in buf;
 * the SAN's length. */
static HOT_INLINE size_t san_mark(char *buf, size_t n, uint8_t check)
{
	if (check == GAMEDB__CHECK_CHECK)
		buf[n++] = '+';
	else if (check == GAMEDB__CHECK_MATE)
		buf[n++] = '#';
	buf[n] = '\0';
	return n;
}

static inline size_t san_body(const struct gamedb__pos *pos, const struct gamedb__move *m,
			      char *buf)
{
	if (m->flags & GAMEDB__MF_CASTLE_K) {
		memcpy(buf, "O-O", 3);
		return 3;
	}
	if (m->flags & GAMEDB__MF_CASTLE_Q) {
		memcpy(buf, "O-O-O", 5);
		return 5;
	}
	if (m->flags & GAMEDB__MF_DROP)
		return gamedb__move_uci(m, buf);
	return san_write(buf, m->from, m->to, m->piece, m->promo, m->flags & GAMEDB__MF_CAPTURE,
			 san_disambig(pos, PC(m->piece & 7, pos->stm), m->from, m->to, -1));
}

#endif /* GAMEDB_CHESS_INTERNAL_H */
