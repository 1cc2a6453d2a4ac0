/*
 * libgamedb - chess positions from and to FEN: the start position, FEN in (also X-FEN and
 * Shredder-FEN castling letters, missing fields, Scid's tolerances) and out (X-FEN castling
 * letters where K/Q/k/q would be ambiguous, as Scid's PrintFEN). Shared helpers:
 * chess-internal.h.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "chess-internal.h"

/* ------------------------------------------------------------------------------------------ */
/* Positions and FEN */

static void pos_clear(struct gamedb__pos *pos)
{
	memset(pos, 0, sizeof *pos);
	pos->king[0] = pos->king[1] = GAMEDB__NO_SQ;
	pos->ep = GAMEDB__NO_SQ;
	pos->castle_rook[0][0] = pos->castle_rook[0][1] = GAMEDB__NO_SQ;
	pos->castle_rook[1][0] = pos->castle_rook[1][1] = GAMEDB__NO_SQ;
	pos->fullmove = 1;
}

/* The men of the standard start position, square by square (a1, b1, ..., h8). */
#define START_BACK(c) PC(GAMEDB__ROOK, c), PC(GAMEDB__KNIGHT, c), PC(GAMEDB__BISHOP, c), \
	PC(GAMEDB__QUEEN, c), PC(GAMEDB__KING, c), PC(GAMEDB__BISHOP, c), PC(GAMEDB__KNIGHT, c), \
	PC(GAMEDB__ROOK, c)
#define START_PAWNS(c) PC(GAMEDB__PAWN, c), PC(GAMEDB__PAWN, c), PC(GAMEDB__PAWN, c), \
	PC(GAMEDB__PAWN, c), PC(GAMEDB__PAWN, c), PC(GAMEDB__PAWN, c), PC(GAMEDB__PAWN, c), \
	PC(GAMEDB__PAWN, c)
static const uint8_t start_board[64] = {
	START_BACK(0), START_PAWNS(0), [48] = START_PAWNS(1), START_BACK(1)
};

int gamedb__pos_is_start_board(const struct gamedb__pos *pos)
{
	return memcmp(pos->sq, start_board, sizeof start_board) == 0;
}

void gamedb__pos_startpos(struct gamedb__pos *pos)
{
	pos_clear(pos);
	memcpy(pos->sq, start_board, sizeof start_board);
	pos->by_colour[0] = UINT64_C(0xFFFF);
	pos->by_colour[1] = UINT64_C(0xFFFF) << 48;
	pos->by_type[GAMEDB__PAWN] = UINT64_C(0x00FF00000000FF00);
	pos->by_type[GAMEDB__KNIGHT] = BIT(1) | BIT(6) | BIT(57) | BIT(62);
	pos->by_type[GAMEDB__BISHOP] = BIT(2) | BIT(5) | BIT(58) | BIT(61);
	pos->by_type[GAMEDB__ROOK] = BIT(0) | BIT(7) | BIT(56) | BIT(63);
	pos->by_type[GAMEDB__QUEEN] = BIT(3) | BIT(59);
	pos->by_type[GAMEDB__KING] = BIT(4) | BIT(60);
	pos->king[0] = 4;
	pos->king[1] = 60;
	pos->castle_rook[0][0] = 0;
	pos->castle_rook[0][1] = 7;
	pos->castle_rook[1][0] = 56;
	pos->castle_rook[1][1] = 63;
}

/* FEN letters: the man, or 0. */
static const uint8_t piece_of_char[256] = {
	['P'] = PC(GAMEDB__PAWN, 0),   ['N'] = PC(GAMEDB__KNIGHT, 0), ['B'] = PC(GAMEDB__BISHOP, 0),
	['R'] = PC(GAMEDB__ROOK, 0),   ['Q'] = PC(GAMEDB__QUEEN, 0),  ['K'] = PC(GAMEDB__KING, 0),
	['p'] = PC(GAMEDB__PAWN, 1),   ['n'] = PC(GAMEDB__KNIGHT, 1), ['b'] = PC(GAMEDB__BISHOP, 1),
	['r'] = PC(GAMEDB__ROOK, 1),   ['q'] = PC(GAMEDB__QUEEN, 1),  ['k'] = PC(GAMEDB__KING, 1),
};

/* The FEN letter of each man (index GAMEDB__PC(type, colour)). */
static const char fen_char[16] = {'?', 'P', 'N', 'B', 'R', 'Q', 'K', '?',
				  '?', 'p', 'n', 'b', 'r', 'q', 'k', '?'};

/*
 * Grants one castling right from a FEN letter. `file` is the rook's file for X-FEN/Shredder
 * letters, or -1 for K/Q meaning the outermost rook on that side. Rights that don't match the
 * board (no king on its back rank, no such rook) are dropped rather than rejected.
 */
static void grant_castle(struct gamedb__pos *pos, int c, int side, int file)
{
	const int base = c ? 56 : 0;
	const int k = pos->king[c];
	const uint8_t rook = PC(GAMEDB__ROOK, c);
	int kf, f;

	if (k >= 64 || RANK_OF(k) != RANK_OF(base))
		return;
	kf = FILE_OF(k);
	if (file < 0) {
		for (f = side ? 7 : 0; f != kf; f += side ? -1 : 1)
			if (pos->sq[base + f] == rook)
				break;
		if (f == kf)
			return;
	} else {
		f = file;
		if (f == kf || pos->sq[base + f] != rook)
			return;
		side = f > kf;
	}
	pos->castle_rook[c][side] = (uint8_t)(base + f);
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static int is_ws_or_end(char c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}


/*
 * The first fault among the men placed so far, in FEN order, or NULL: what a test of each man
 * as it is placed would have met first. Only called once something is wrong, so that the
 * reason given does not depend on the order of the tests.
 */
static const char *placed_men_fault(const struct gamedb__pos *pos)
{
	int count[2] = {0, 0}, rank, file;

	for (rank = 7; rank >= 0; rank--)
		for (file = 0; file < 8; file++) {
			const uint8_t pc = pos->sq[rank * 8 + file];
			if (pc == GAMEDB__EMPTY)
				continue;
			if (TYPE(pc) == GAMEDB__PAWN && (rank == 0 || rank == 7))
				return "pawn on the first or last rank";
			if (++count[COLOUR(pc)] > 16)
				return "more than 16 pieces of one colour"; /* as Scid: 16 men at most */
		}
	return NULL;
}

/* 1 if p starts a ninth "rank" of men in hand: piece letters (no king) up to the next blank. */
static int holdings_rank(const char *p)
{
	if (is_ws_or_end(*p))
		return 0;
	for (; !is_ws_or_end(*p); p++) {
		const uint8_t pc = piece_of_char[(unsigned char)*p];
		if (!pc || TYPE(pc) == GAMEDB__KING)
			return 0;
	}
	return 1;
}

/* gamedb__pos_from_fen(); also gives where the board field starts and its length. */
static int parse_fen(struct gamedb__pos *pos, const char *fen, const char **why,
		     const char **board, size_t *board_len)
{
	const char *p, *dummy;
	int rank = 7, file = 0, colour, slash = 0;

	if (!why)
		why = &dummy;
	*why = NULL;
	pos_clear(pos);
	if (!fen) {
		*why = "no FEN";
		return -1;
	}
	p = skip_ws(fen);
	*board = p;

	/* Piece placement: the men go on the board here, the checks on them follow. */
	for (;; p++) {
		const unsigned char ch = (unsigned char)*p;
		const uint8_t pc = piece_of_char[ch];
		if (pc) {
			const int sq = rank * 8 + file;
			if (file >= 8)
				goto too_many_squares;
			pos->sq[sq] = pc;
			pos->by_colour[COLOUR(pc)] |= BIT(sq);
			pos->by_type[TYPE(pc)] |= BIT(sq);
			file++;
		} else if (ch >= '1' && ch <= '8') {
			file += ch - '0';
			if (file > 8)
				goto too_many_squares;
		} else if (ch == '/') {
			if (file != 8) {
				*why = placed_men_fault(pos);
				if (!*why)
					*why = "rank has fewer than 8 squares";
				return -1;
			}
			if (rank == 0) { /* tolerate a trailing '/' after the first rank */
				p++;
				slash = 1;
				break;
			}
			rank--;
			file = 0;
		} else if (ch == '~' && file > 0 && piece_of_char[(unsigned char)p[-1]]) {
			pos->promoted |= BIT(rank * 8 + file - 1); /* crazyhouse: a promoted man */
		} else {
			break;
		}
	}
	*board_len = (size_t)(p - *board);
	/*
	 * Crazyhouse holdings: "[Pn]" after the board, or a ninth "rank" of men in hand after a
	 * '/' ("RNBQKBNR/Pn w"); "[]" and "[-]" are empty holdings. Men in hand beyond 16 or a
	 * colour's 16 on the board are allowed (drops put them there).
	 */
	if (*p == '[' || (slash && holdings_rank(p))) {
		const char end = *p == '[' ? ']' : ' ';
		if (*p == '[')
			p++;
		pos->zh = GAMEDB__ZH_CRAZYHOUSE;
		for (; *p != end && !(end == ' ' && is_ws_or_end(*p)); p++) {
			const uint8_t pc = piece_of_char[(unsigned char)*p];
			if (*p == '-' && end == ']')
				continue;
			if (!pc || TYPE(pc) == GAMEDB__KING) {
				*why = "bad holdings";
				return -1;
			}
			gamedb__hand_add(pos, COLOUR(pc), TYPE(pc));
		}
		if (end == ']')
			p++;
	}
	if (pos->promoted) /* only N, B, R, Q can have been promoted */
		pos->promoted &= ~(pos->by_type[GAMEDB__PAWN] | pos->by_type[GAMEDB__KING]);
	if ((pos->by_type[GAMEDB__PAWN] & (RANK_BB(0) | RANK_BB(56))) ||
	    (!pos->zh && (popcount(pos->by_colour[0]) > 16 || popcount(pos->by_colour[1]) > 16))) {
		*why = placed_men_fault(pos);
		return -1;
	}
	if (rank != 0 || file != 8) {
		*why = "board description incomplete";
		return -1;
	}
	for (colour = 0; colour < 2; colour++) {
		const uint64_t k = pos->by_type[GAMEDB__KING] & pos->by_colour[colour];
		if (!k || SEVERAL(k)) {
			*why = "each side needs exactly one king";
			return -1;
		}
		pos->king[colour] = (uint8_t)LSB(k);
	}

	/* Side to move. */
	if (!is_ws_or_end(*p)) {
		*why = "bad board description";
		return -1;
	}
	p = skip_ws(p);
	if (*p == 'w' || *p == 'W') {
		pos->stm = 0;
	} else if (*p == 'b' || *p == 'B') {
		pos->stm = 1;
	} else {
		*why = "bad side to move";
		return -1;
	}
	p++;
	if (!is_ws_or_end(*p)) {
		*why = "bad side to move";
		return -1;
	}
	if (attacked(pos, pos->king[pos->stm ^ 1], pos->stm, pos->by_colour[pos->stm],
		     occupied(pos))) {
		*why = "side not to move is in check";
		return -1;
	}

	/* Castling. A missing field means: guess from kings and rooks on their home squares. */
	p = skip_ws(p);
	if (*p == '\0') {
		int c;
		for (c = 0; c < 2; c++) {
			const int base = c ? 56 : 0;
			if (pos->king[c] != base + 4)
				continue;
			if (pos->sq[base] == PC(GAMEDB__ROOK, c))
				pos->castle_rook[c][0] = (uint8_t)base;
			if (pos->sq[base + 7] == PC(GAMEDB__ROOK, c))
				pos->castle_rook[c][1] = (uint8_t)(base + 7);
		}
	} else if (*p == '-') {
		p++;
	} else {
		for (; !is_ws_or_end(*p); p++) {
			const char c = *p;
			if (c == 'K')
				grant_castle(pos, 0, 1, -1);
			else if (c == 'Q')
				grant_castle(pos, 0, 0, -1);
			else if (c == 'k')
				grant_castle(pos, 1, 1, -1);
			else if (c == 'q')
				grant_castle(pos, 1, 0, -1);
			else if (c >= 'A' && c <= 'H')
				grant_castle(pos, 0, 0, c - 'A');
			else if (c >= 'a' && c <= 'h')
				grant_castle(pos, 1, 0, c - 'a');
			else {
				*why = "bad castling field";
				return -1;
			}
		}
	}
	if (!is_ws_or_end(*p)) {
		*why = "bad castling field";
		return -1;
	}
	{
		/* Chess960-style FEN is needed when a castling king or rook is not on its classical
		 * square (Scid's rule for its variant flag). */
		int c, side;
		for (c = 0; c < 2; c++)
			for (side = 0; side < 2; side++) {
				const int r = pos->castle_rook[c][side];
				if (r == GAMEDB__NO_SQ)
					continue;
				if (FILE_OF(pos->king[c]) != 4 || FILE_OF(r) != (side ? 7 : 0))
					pos->chess960 = 1;
			}
	}

	/*
	 * En passant. Like Scid's ReadFromFEN: any square of the third or sixth rank is kept as
	 * written (so the FEN writes back the same), other squares are an error. Move generation
	 * only uses it when it is a real en-passant square for the side to move. A digit here
	 * means the field was left out and the clocks follow.
	 */
	p = skip_ws(p);
	if (*p == '-') {
		p++;
	} else if (is_file_ch(*p) && (p[1] == '3' || p[1] == '6')) {
		pos->ep = (uint8_t)((p[0] - 'a') + 8 * (p[1] - '1'));
		p += 2;
	} else if (*p != '\0' && !(*p >= '0' && *p <= '9')) {
		*why = "bad en-passant square";
		return -1;
	}
	if (!is_ws_or_end(*p)) {
		*why = "bad en-passant square";
		return -1;
	}

	/* Half-move clock and full-move number, both optional. */
	p = skip_ws(p);
	if (*p >= '0' && *p <= '9') {
		uint32_t v = 0;
		for (; *p >= '0' && *p <= '9'; p++)
			if (v < UINT16_MAX)
				v = v * 10 + (uint32_t)(*p - '0');
		pos->halfmove = (uint16_t)(v > UINT16_MAX ? UINT16_MAX : v);
		p = skip_ws(p);
		if (*p >= '0' && *p <= '9') {
			uint64_t w = 0;
			for (; *p >= '0' && *p <= '9'; p++)
				if (w < GAMEDB__MOVENO_MAX)
					w = w * 10 + (uint64_t)(*p - '0');
			pos->fullmove = (uint32_t)(w > GAMEDB__MOVENO_MAX ? GAMEDB__MOVENO_MAX
									 : (w ? w : 1));
		}
	}
	/* Anything after (EPD operations, comments) is ignored. */
	return 0;

too_many_squares:
	*why = placed_men_fault(pos);
	if (!*why)
		*why = "rank has more than 8 squares";
	return -1;
}

int gamedb__pos_from_fen(struct gamedb__pos *pos, const char *fen, const char **why)
{
	const char *board;
	size_t board_len;

	return parse_fen(pos, fen, why, &board, &board_len);
}

/* 1 if the rook on r is the outermost rook of colour c between the king and that edge. */
static int outermost_rook(const struct gamedb__pos *pos, int c, int side, int r)
{
	const int base = c ? 56 : 0;
	const int kf = FILE_OF(pos->king[c]);
	int f;
	for (f = side ? 7 : 0; f != kf; f += side ? -1 : 1)
		if (pos->sq[base + f] == PC(GAMEDB__ROOK, c))
			return base + f == r;
	return 0;
}

/* Writes v in decimal at d; returns the end. */
static char *put_decimal(char *d, uint32_t v)
{
	char num[10];
	int k = 0;
	do {
		num[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		*d++ = num[--k];
	return d;
}

/* Writes the board field of the men on sq (those in promoted get a '~') at d; returns the end. */
static HOT_INLINE char *put_board(const uint8_t *sq, uint64_t promoted, char *d)
{
	int rank, file;

	for (rank = 7; rank >= 0; rank--) {
		int empty = 0;
		for (file = 0; file < 8; file++) {
			const int s = 8 * rank + file;
			if (!sq[s]) {
				empty++;
				continue;
			}
			if (empty)
				*d++ = (char)('0' + empty);
			empty = 0;
			*d++ = fen_char[sq[s] & 15];
			if (promoted & BIT(s))
				*d++ = '~';
		}
		if (empty)
			*d++ = (char)('0' + empty);
		if (rank)
			*d++ = '/';
	}
	return d;
}

/* Writes the board field of pos at d; returns the end. */
static char *fen_board(const struct gamedb__pos *pos, char *d)
{
	return put_board(pos->sq, pos->promoted, d);
}

size_t gamedb__fen_placement(const uint8_t sq[64], char *out)
{
	return (size_t)(put_board(sq, 0, out) - out);
}

/* Writes the fields after the board (" w KQkq - 0 1") at d and a NUL; returns the end. */
static char *fen_tail(const struct gamedb__pos *pos, char *d)
{
	int c, side, any = 0;

	if (pos->zh) { /* holdings: white's men, then black's, each Q R B N P */
		*d++ = '[';
		for (c = 0; c < 2; c++) {
			int type, k;
			for (type = GAMEDB__QUEEN; type >= GAMEDB__PAWN; type--)
				for (k = gamedb__hand(pos, c, type); k > 0; k--)
					*d++ = fen_char[PC(type, c)];
		}
		*d++ = ']';
	}
	*d++ = ' ';
	*d++ = pos->stm ? 'b' : 'w';
	*d++ = ' ';
	/*
	 * Castling: K/Q/k/q when the castling rook is the outermost rook on its side of the king
	 * (always so in classical chess), else the rook's file letter (X-FEN). This is the rule of
	 * Scid's PrintFEN; order white king side, white queen side, black king side, black queen
	 * side.
	 */
	for (c = 0; c < 2; c++)
		for (side = 1; side >= 0; side--) {
			const int r = pos->castle_rook[c][side];
			char ch;
			if (r == GAMEDB__NO_SQ)
				continue;
			if (outermost_rook(pos, c, side, r))
				ch = side ? 'K' : 'Q';
			else
				ch = (char)('A' + FILE_OF(r));
			*d++ = c ? (char)(ch - 'A' + 'a') : ch;
			any = 1;
		}
	if (!any)
		*d++ = '-';
	*d++ = ' ';
	/* En passant: written whenever pos->ep is set; see pos_make for when that is. */
	if (pos->ep < 64) {
		*d++ = file_char(pos->ep);
		*d++ = rank_char(pos->ep);
	} else {
		*d++ = '-';
	}
	*d++ = ' ';
	d = put_decimal(d, pos->halfmove);
	*d++ = ' ';
	d = put_decimal(d, pos->fullmove);
	*d = '\0';
	return d;
}

/* Copies the FEN in t (n bytes) into buf as far as cap allows; returns n. */
static size_t fen_out(const char *t, size_t n, char *buf, size_t cap)
{
	if (cap) {
		const size_t w = n < cap - 1 ? n : cap - 1;
		memcpy(buf, t, w);
		buf[w] = '\0';
	}
	return n;
}

size_t gamedb__pos_to_fen(const struct gamedb__pos *pos, char *buf, size_t cap)
{
	char t[128 + 2 * 5 * GAMEDB__HAND_MAX];
	char *end;

	/* The longest chess FEN is well under 100 bytes: write straight into a buffer that big. */
	if (cap >= 100 && !pos->zh)
		return (size_t)(fen_tail(pos, fen_board(pos, buf)) - buf);
	end = fen_tail(pos, fen_board(pos, t));
	return fen_out(t, (size_t)(end - t), buf, cap);
}

int gamedb__pos_from_fen_normal(struct gamedb__pos *pos, const char *fen, char *buf, size_t cap,
				size_t *len, const char **why)
{
	char t[128 + 2 * 5 * GAMEDB__HAND_MAX];
	const char *board;
	size_t board_len, n;
	char *d;

	if (parse_fen(pos, fen, why, &board, &board_len) != 0)
		return -1;
	/*
	 * The board field has one normal form, the shortest: a piece letter per man and one digit
	 * per run of empty squares, seven '/' and no more. Any other spelling of the same board
	 * (split digits, a trailing '/') is longer, so the length tells whether to copy it.
	 */
	{
		const uint64_t occ = occupied(pos), empty = ~occ;
		const uint64_t run_starts = empty & ~((empty << 1) & ~BB_FILE_A);
		if (board_len == (size_t)(popcount(occ) + popcount(run_starts) + 7)) {
			memcpy(t, board, board_len);
			d = t + board_len;
		} else {
			d = fen_board(pos, t);
		}
	}
	n = (size_t)(fen_tail(pos, d) - t);
	if (len)
		*len = n;
	fen_out(t, n, buf, cap);
	return 0;
}
