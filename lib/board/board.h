/*
 * libgamedb - internal board engine, chess part (xiangqi: xiangqi.h). Implemented in
 * chess-movegen.c (positions, legal moves, make), chess-san.c (SAN, UCI), chess-fen.c (FEN),
 * chess-slots.c (SCID piece slots) and chessbase.c (ChessBase piece slots); what those files
 * share among themselves is in chess-internal.h, which nothing outside lib/board includes.
 *
 * Knows the rules and the piece-numbering schemes of the formats, nothing of files.
 * Every function here is internal (hidden visibility, gamedb__ prefix).
 *
 * Squares: chess a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
 */
#ifndef GAMEDB_BOARD_H
#define GAMEDB_BOARD_H

#include <stddef.h>
#include <stdint.h>

/* Piece types (colourless). Values are also the public gamedb_piece values. */
enum {
	GAMEDB__EMPTY = 0,
	GAMEDB__PAWN = 1,
	GAMEDB__KNIGHT = 2,
	GAMEDB__BISHOP = 3,
	GAMEDB__ROOK = 4,
	GAMEDB__QUEEN = 5,
	GAMEDB__KING = 6
};

/* A coloured piece on a square: type | (colour << 3); colour 0 = white, 1 = black. */
#define GAMEDB__PC(type, colour) ((uint8_t)((type) | ((colour) << 3)))
#define GAMEDB__PC_TYPE(pc) ((pc) & 7)
#define GAMEDB__PC_COLOUR(pc) (((pc) >> 3) & 1)

#define GAMEDB__NO_SQ 0xFF

/* Move flags. */
enum {
	GAMEDB__MF_CAPTURE = 1,    /* a piece is captured (incl. en passant) */
	GAMEDB__MF_EP = 2,         /* en-passant capture */
	GAMEDB__MF_CASTLE_K = 4,   /* castling king side (h-side) */
	GAMEDB__MF_CASTLE_Q = 8,   /* castling queen side (a-side) */
	GAMEDB__MF_NULL = 16,      /* null move ("--"): board unchanged; stm, clocks, ep as for a move */
	GAMEDB__MF_DOUBLE = 32,    /* pawn double push */
	GAMEDB__MF_DROP = 64       /* crazyhouse drop: from = GAMEDB__NO_SQ, piece = the man dropped */
};

/*
 * A chess move. For castling, from = king square and to = the king's destination square
 * (g1/c1/g8/c8), in Chess960 too; rook_from holds the castling rook's square.
 * For a null move from = to = the king square. For a drop (crazyhouse, bughouse) from is
 * GAMEDB__NO_SQ, to the square, piece the type dropped, flags GAMEDB__MF_DROP.
 */
struct gamedb__move {
	uint8_t from;
	uint8_t to;
	uint8_t promo;     /* GAMEDB__KNIGHT..GAMEDB__QUEEN, or 0 */
	uint8_t flags;     /* GAMEDB__MF_* */
	uint8_t piece;     /* moving piece type (GAMEDB__PAWN..GAMEDB__KING) */
	uint8_t captured;  /* captured piece type, or 0 */
	uint8_t rook_from; /* castling only: the rook's square; else GAMEDB__NO_SQ */
	uint8_t check;     /* what the move does to the opponent: GAMEDB__CHECK_* (0 = not known) */
};

/*
 * struct gamedb__move.check. gamedb__move_play() fills it in from the position after the move;
 * gamedb__move_san() then writes '+' or '#' from it without making the move again. Moves built
 * any other way carry 0 (not known), and SAN works it out itself.
 */
enum {
	GAMEDB__CHECK_UNKNOWN = 0,
	GAMEDB__CHECK_NONE = 1,  /* no check */
	GAMEDB__CHECK_CHECK = 2, /* check, and the opponent has a legal move */
	GAMEDB__CHECK_MATE = 3   /* checkmate */
};

/*
 * The largest full-move number a position holds (chess and xiangqi): a larger one in a FEN
 * is read as this, and playing on does not pass it. The public API hands move numbers out as
 * int32_t: a FEN's 4294967295 came out as -1 (found by libFuzzer).
 */
#define GAMEDB__MOVENO_MAX ((uint32_t)INT32_MAX)

/*
 * A chess position. Plain data: copy it with '='.
 *
 * The board is kept twice: the mailbox sq[] and bitboards (bit i = square i) per colour and
 * per piece type, which the attack tests use. Every function here keeps them in step. Code that
 * writes sq[] (or king[]) directly must call gamedb__pos_sync() before the position is used
 * again; all the other fields may be written freely.
 *
 * ep: set by pos_make after a double pawn push when an enemy pawn stands beside the pawn
 * (a pseudo-legal en-passant capture, whether or not it is legal), which is what Scid does; from
 * a FEN any third- or sixth-rank square is kept as written (as Scid), but en-passant captures
 * are only generated when it is a real en-passant square for the side to move.
 * chess960: 1 when a castling king or rook started off its classical square (Scid's variant
 * flag). FEN output writes K/Q/k/q when the castling rook is the outermost rook on its side of
 * the king, else the rook's file letter (X-FEN), as Scid's PrintFEN.
 *
 * zh: 0 for chess. GAMEDB__ZH_CRAZYHOUSE: the men in hand[][] may be dropped, a capture puts
 * the captured man (a pawn if it was promoted: `promoted` marks those) into the capturer's
 * hand. GAMEDB__ZH_BUGHOUSE: drops as in crazyhouse, but captured men leave the board (they go
 * to the partner's board, which is another game); the hands are set from outside. A FEN with a
 * holdings field ("...RNBQKBNR[Pn] w" or a ninth rank "...RNBQKBNR/Pn w") gives a crazyhouse
 * position. Chess code never reads hand[] or promoted, and pos_make only touches them when zh
 * is set, so chess pays one predictable branch per move.
 */
struct gamedb__pos {
	uint64_t by_colour[2];     /* squares of each colour's men (derived from sq) */
	uint64_t by_type[8];       /* [type]: squares of men of that type, both colours ([0], [7]: 0) */
	uint8_t sq[64];            /* GAMEDB__PC(type, colour) or GAMEDB__EMPTY */
	uint8_t king[2];           /* king square per colour, GAMEDB__NO_SQ if none */
	uint8_t stm;               /* side to move: 0 white, 1 black */
	uint8_t ep;                /* en-passant target square or GAMEDB__NO_SQ (see above) */
	uint8_t castle_rook[2][2]; /* [colour][0 = queen side, 1 = king side]: rook square, or NO_SQ */
	uint8_t chess960;          /* see above */
	uint8_t zh;                /* 0, GAMEDB__ZH_CRAZYHOUSE or GAMEDB__ZH_BUGHOUSE (see above) */
	uint16_t halfmove;         /* half-move clock */
	uint32_t fullmove;         /* full move number, 1..GAMEDB__MOVENO_MAX */
	uint64_t hand;             /* zh: men in hand, 6 bits per colour and type (gamedb__hand()) */
	uint64_t promoted;         /* zh: squares of men that were promoted from pawns */
};

enum { GAMEDB__ZH_CRAZYHOUSE = 1, GAMEDB__ZH_BUGHOUSE = 2 };

/*
 * The hands are packed into one word so that the position stays small: the move iterator
 * holds four positions and must stay under the allocator's fast-cache size (lib/core/iter.c
 * asserts it). Most men one hand may hold of a type: GAMEDB__HAND_MAX (FEN input is clamped).
 */
#define GAMEDB__HAND_MAX 63
#define GAMEDB__HAND_SHIFT(colour, type) (6 * (5 * (colour) + (type) - 1))

/* Men of type (GAMEDB__PAWN..GAMEDB__QUEEN) in colour's hand. */
static inline int gamedb__hand(const struct gamedb__pos *pos, int colour, int type)
{
	return (int)((pos->hand >> GAMEDB__HAND_SHIFT(colour, type)) & 63);
}

/* One more man of type in colour's hand (none beyond GAMEDB__HAND_MAX). */
static inline void gamedb__hand_add(struct gamedb__pos *pos, int colour, int type)
{
	if (gamedb__hand(pos, colour, type) < GAMEDB__HAND_MAX)
		pos->hand += (uint64_t)1 << GAMEDB__HAND_SHIFT(colour, type);
}

/* One man of type less in colour's hand (if there is one). */
static inline void gamedb__hand_take(struct gamedb__pos *pos, int colour, int type)
{
	if (gamedb__hand(pos, colour, type) > 0)
		pos->hand -= (uint64_t)1 << GAMEDB__HAND_SHIFT(colour, type);
}

/* The standard start position. */
#define GAMEDB__START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/*
 * Room for the legal moves of any position (218 is the known maximum for chess; crazyhouse
 * drops add up to 5 types on every empty square, which 512 also holds).
 */
#define GAMEDB__MAX_MOVES 512

void gamedb__pos_startpos(struct gamedb__pos *pos);
/* 1 if the men of pos stand as in the standard start position (whatever else pos says). */
int gamedb__pos_is_start_board(const struct gamedb__pos *pos);

/* Rebuilds the bitboards and king squares of pos from sq[] (after sq[] was written directly). */
void gamedb__pos_sync(struct gamedb__pos *pos);

/*
 * Parses a FEN (also the forms with missing half-move/full-move fields, X-FEN and Shredder-FEN
 * castling letters). Returns 0, or -1 with a short reason in *why (static string) on error.
 * Rejects positions that are not playable: not exactly one king per side, pawns on the first or
 * last rank, side not to move in check, more than 16 men of one colour (as Scid).
 * Tolerated: a missing castling field (rights guessed from kings and rooks on their home
 * squares, as Scid), castling letters that don't match the board (dropped), an ep square on
 * the third or sixth rank that means nothing (kept, as Scid; other ranks are an error),
 * trailing EPD operations (ignored).
 */
int gamedb__pos_from_fen(struct gamedb__pos *pos, const char *fen, const char **why);

/*
 * Writes the FEN (NUL-terminated) into buf; returns its length. cap >= 100 always suffices
 * for chess, cap >= 128 for a crazyhouse position reached by play (a bughouse hand can hold
 * more; a smaller cap truncates, the return value is still the full length, as snprintf).
 * Crazyhouse adds the holdings after the board ("[QRrpp]", white's men first, Q R B N P
 * order) and "~" after a promoted man.
 */
size_t gamedb__pos_to_fen(const struct gamedb__pos *pos, char *buf, size_t cap);

/*
 * Writes the board field of a FEN (ranks 8 to 1, '/' between them, a digit per run of empty
 * squares) for the men on sq (a1 = 0; GAMEDB__PC(type, colour), 0 empty) at out, without a
 * NUL; returns its length (at most 71). For a format that reads a board square by square and
 * hands it to gamedb__pos_from_fen() with the fields it reads after it.
 */
size_t gamedb__fen_placement(const uint8_t sq[64], char *out);

/*
 * gamedb__pos_from_fen() and then gamedb__pos_to_fen() into buf in one step (the FEN in its
 * normal form, as Scid writes it), with the length in *len if len is set. Cheaper than the
 * two calls: a board field already in normal form is copied, not written again. buf may be
 * fen itself. Returns 0, or -1 with *why set (buf untouched).
 */
int gamedb__pos_from_fen_normal(struct gamedb__pos *pos, const char *fen, char *buf, size_t cap,
				size_t *len, const char **why);

/*
 * Generates all legal moves into out (room for GAMEDB__MAX_MOVES); returns the count. Order:
 * king moves, castling, then the other pieces by square.
 */
int gamedb__gen_legal(const struct gamedb__pos *pos, struct gamedb__move *out);

/* 1 if the side to move is in check. */
int gamedb__in_check(const struct gamedb__pos *pos);

/*
 * Completes and checks a move given by from/to/promo (castling given as king from -> king
 * destination, or king -> own rook square for Chess960): fills piece, captured, flags,
 * rook_from. Returns 0 if the move is legal in pos, -1 otherwise. Fast path: no full
 * generation for ordinary moves. A king step of one file onto g1/c1 (Chess960) is an ordinary
 * king move when that is legal, else castling; a promotion needs promo set, other moves 0.
 */
int gamedb__move_complete(const struct gamedb__pos *pos, struct gamedb__move *m);

/* Builds a castling move for the side to move (side 0 = queen side, 1 = king side); 0 or -1 if illegal. */
int gamedb__move_castle(const struct gamedb__pos *pos, int side, struct gamedb__move *m);

/* Null move for the side to move (legal only when not in check; returns -1 if in check). */
int gamedb__move_null(const struct gamedb__pos *pos, struct gamedb__move *m);

/* Applies a completed legal move. */
void gamedb__pos_make(struct gamedb__pos *pos, const struct gamedb__move *m);

/*
 * Completes, checks and plays a move in one step: the move as gamedb__move_complete() takes it
 * (from/to/promo), or a castling or null move as gamedb__move_castle() / gamedb__move_null()
 * build it (recognised by its flags, and checked again). On success the move is applied to pos,
 * m is completed, m->check tells whether it gives check or mate, and 0 is returned. On failure
 * (illegal) pos is unchanged and -1 is returned.
 */
int gamedb__move_play(struct gamedb__pos *pos, struct gamedb__move *m);

/*
 * Room for the SAN of any chess move with its NUL: the longest are "Qa1xb2+" and "exd8=Q#"
 * (7 characters; a drop, "N@f3+", has 5). The move buffer keeps each move's SAN in this much.
 */
#define GAMEDB__SAN_MAX 8

/*
 * gamedb__move_play() and gamedb__move_san() in one step, the move made once: on success the
 * move is applied to pos, m completed (m->check set), its SAN with '+' or '#' written into san
 * (all GAMEDB__SAN_MAX bytes are written; those after the NUL are zeros) and its length put in *len (if len is
 * set); 0 is returned. On failure (illegal) pos is unchanged and -1 is returned.
 * checked: whether the side to move is in check in pos, as the caller knows it from the move
 * that led there (its m->check): 1 in check, 0 not, -1 not known (then nothing is assumed).
 * Known not to be in check, a usual move is checked for legality without any attack test.
 */
int gamedb__move_play_san(struct gamedb__pos *pos, struct gamedb__move *m, char *san,
			  size_t *len, int checked);

/*
 * gamedb__move_play_san() without the SAN: the same legality checks (the same code), the move
 * made and m completed, but no disambiguation search, no SAN written and no mate test. So
 * m->check is left GAMEDB__CHECK_NONE when the move gives no check, and GAMEDB__CHECK_UNKNOWN
 * when it gives check (mate or not: never _CHECK or _MATE, so that the move, kept, never
 * says '+' for a mate; gamedb__move_san() works the mark out itself from UNKNOWN). The next
 * move's `checked` is therefore m->check != GAMEDB__CHECK_NONE (which holds after
 * gamedb__move_play_san() too), NOT m->check >= GAMEDB__CHECK_CHECK. 0, or -1 if illegal (pos
 * unchanged). For decoders whose caller asks for no SAN.
 */
int gamedb__move_play_fast(struct gamedb__pos *pos, struct gamedb__move *m, int checked);

/* 1 if the side to move has at least one legal move (0: checkmate or stalemate). */
int gamedb__has_legal_move(const struct gamedb__pos *pos);

/*
 * SAN of a completed legal move in pos (before it is made): piece letter, minimal
 * disambiguation (file, else rank, else both), 'x', promotion "=Q", "O-O"/"O-O-O", "--" for a
 * null move, "P@e4" / "N@f3" for a drop, and '+' or '#'. The suffix comes from m->check when that is set (no need to make
 * the move), else it is worked out on a copy. Writes a NUL-terminated string (<= 16 bytes)
 * into buf and returns its length.
 */
size_t gamedb__move_san(const struct gamedb__pos *pos, const struct gamedb__move *m, char *buf);

/*
 * UCI of a move: e2e4, e7e8q; castling as king from -> king destination (e1g1), but as the
 * king taking its rook (g1h1) when the king stays on its square (Chess960), "0000" for null,
 * "P@e4" / "N@f3" for a drop.
 */
size_t gamedb__move_uci(const struct gamedb__move *m, char *buf);

/*
 * Parses SAN into a completed legal move; 0, or -1 if illegal or ambiguous. Tolerant: '+', '#',
 * '!', '?' suffixes and "e.p."; "O-O"/"0-0"/"o-o" (and the queen-side forms); "--", "Z0",
 * "0000" for a null move; promotions as "e8=Q", "e8Q", "e8q", "e8(Q)"; over-specified or long
 * forms ("Ng1f3", "Ng1-f3", "e2-e4") and UCI coordinates ("e2e4", "e7e8q", "e1g1"); drops
 * "P@e4", "N@f3", "@e4" (a pawn), also with a lower-case letter.
 */
int gamedb__parse_san(const struct gamedb__pos *pos, const char *san, struct gamedb__move *m);

/* Perft: number of leaf nodes at depth. */
uint64_t gamedb__perft(const struct gamedb__pos *pos, int depth);

/*
 * The Polyglot key of pos (lib/board/keys.c): the key opening books use, equal to PolyGlot's
 * own. Computed from the whole position (about 40 table lookups), only when asked.
 */
uint64_t gamedb__pos_key(const struct gamedb__pos *pos);
/*
 * The part of the Polyglot key of pos that the men and the side to move make (no castling, no
 * en passant): the key of a position as Scid's exact board search compares positions, which
 * the search and the opening tree (lib/query) match by. gamedb__pos_key() is this key with the
 * castling and en-passant terms added.
 */
uint64_t gamedb__pos_key_board(const struct gamedb__pos *pos);

/*
 * SCID piece slots (lib/board/chess-slots.c). Per colour, 16 slots; slot 0 is always the
 * king. Numbering from the start position: 0 K, 1 a-rook, 2 b-knight, 3 c-bishop, 4 queen,
 * 5 f-bishop, 6 g-knight, 7 h-rook, 8..15 pawns a..h. From a FEN: pieces in FEN scan order
 * (a8..h8, a7.., ..h1) per colour, then the king is swapped into slot 0 (whatever held slot 0
 * goes to the king's old slot). On capture the captured piece's slot receives its side's last
 * slot; promotion keeps the slot; castling keeps both slots.
 */
struct gamedb__slots {
	uint8_t sq[2][16];  /* square of slot i, GAMEDB__NO_SQ if unused */
	uint8_t count[2];   /* slots in use per colour */
	uint8_t slot[64];   /* slot index of the piece on a square, 0xFF if empty */
};

/*
 * Sets up SCID slots for pos; -1 if a side has more than 16 pieces or not exactly one king.
 * Uses the start-position numbering when pos has the standard start board, else FEN order.
 */
int gamedb__slots_init_scid(struct gamedb__slots *s, const struct gamedb__pos *pos);

/*
 * Always FEN order. Scid numbers every game that stores a start FEN this way, even when that
 * FEN is the standard start position, so decoders use this one for games with a FEN.
 */
int gamedb__slots_init_scid_fen(struct gamedb__slots *s, const struct gamedb__pos *pos);

/* Updates SCID slots for a completed legal move m made by colour (before or after pos_make). */
void gamedb__slots_move_scid(struct gamedb__slots *s, int colour, const struct gamedb__move *m);

/*
 * ChessBase piece slots (lib/board/chessbase.c). A CBG move byte names its man by type and
 * ordinal: "the 2nd rook", "the 1st knight", "the pawn numbered 4"; the king is unique. Per
 * colour there are 3 slots each for queens, rooks, bishops and knights and 8 for pawns.
 * Numbering scans the squares file by file, a1 a2 ... a8 b1 ... h8 ("reverse" encodings scan
 * h8 back to a1), and gives each man the first free slot of its type (men beyond the slots of
 * their type are untracked). After a move:
 *  - the moving man keeps its slot (castling: the rook's slot follows the rook);
 *  - a captured piece's slot is removed and the later slots of its type move down one;
 *  - a captured pawn's slot just empties: the other pawns keep their numbers for life;
 *  - a promotion empties the pawn's slot and puts the new piece in the first free slot of its
 *    type; with all three taken it stays untracked (it then moves only by two-byte moves) and
 *    does not move into a slot freed later.
 */
#define GAMEDB__CB_NSLOT 8

struct gamedb__cbslots {
	/* [colour][piece type][ordinal]: square of the man, GAMEDB__NO_SQ if the slot is free */
	uint8_t sq[2][GAMEDB__KING][GAMEDB__CB_NSLOT];
};

/* How many slots a type has: 8 pawns, 3 of each piece, none for the king. */
static inline int gamedb__cbslots_cap(int type)
{
	return type == GAMEDB__PAWN ? 8 : (type >= GAMEDB__KNIGHT && type <= GAMEDB__QUEEN ? 3 : 0);
}

/* Numbers the men of pos; reverse: scan h8 back to a1 (CBG encoding modes with bit 1 set). */
void gamedb__cbslots_init(struct gamedb__cbslots *s, const struct gamedb__pos *pos, int reverse);

/* Updates the slots for a completed legal move m made by colour (before or after pos_make). */
void gamedb__cbslots_move(struct gamedb__cbslots *s, int colour, const struct gamedb__move *m);

/*
 * The slots of the man a completed legal capture m by colour took (gamedb__cbslots_move()'s
 * last step): a pawn's slot is freed, a piece's later slots move up.
 */
void gamedb__cbslots_take(struct gamedb__cbslots *s, int colour, const struct gamedb__move *m);

/*
 * gamedb__cbslots_move() for a man the caller found in slot k of its type (k below the
 * type's slots, as a one-byte CBG move names it), moved by a completed legal move m that is
 * neither castling, nor a promotion, nor a null move (no one-byte CBG move is): no search
 * for its slot.
 */
static inline void gamedb__cbslots_move_slot(struct gamedb__cbslots *s, int colour,
					     const struct gamedb__move *m, int k)
{
	s->sq[colour & 1][m->piece][k] = m->to;
	if (m->flags & GAMEDB__MF_CAPTURE)
		gamedb__cbslots_take(s, colour, m);
}

/*
 * Chess Assistant piece numbers (lib/board/chessassistant.c). Per colour: 0-7 the pawns by
 * starting file, 8/9 knights, 10/11 bishops, 12/13 rooks, 14 queen, 15 king (types fixed),
 * 16/17 two extra pieces of any type but pawn and king; numbers keep their man for life (a
 * capture frees the number, castling moves the king's and the rook's). A promotion names the
 * new man's number; 18 + k holds a man promoted from pawn k that has no number (it moves by
 * the format's extended codes). origin[] remembers which pawn a numbered promoted man was.
 */
#define GAMEDB__CA_NSLOT 26

struct gamedb__caslots {
	uint8_t sq[2][GAMEDB__CA_NSLOT]; /* [colour][number]: square, GAMEDB__NO_SQ if none */
	uint8_t origin[2][18];           /* [colour][number]: pawn it was promoted from, 0xFF */
};

/* The fixed type of numbers 0..15. */
extern const uint8_t gamedb__ca_fixed_type[16];

/* No men. */
void gamedb__caslots_clear(struct gamedb__caslots *s);
/* The numbering of the standard start position. */
void gamedb__caslots_init(struct gamedb__caslots *s);
/* The number of the man promoted from pawn `pawn` of colour, or -1 if none is on the board. */
int gamedb__caslots_promoted(const struct gamedb__caslots *s, int colour, int pawn);
/*
 * Updates the numbers for a completed legal move m of colour, made by man `number`;
 * new_number >= 0 for a promotion (the promoted man's number, 18 + pawn when untracked).
 */
void gamedb__caslots_move(struct gamedb__caslots *s, int colour, const struct gamedb__move *m,
			  int number, int new_number);

#endif /* GAMEDB_BOARD_H */
