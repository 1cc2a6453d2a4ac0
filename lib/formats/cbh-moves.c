/*
 * libgamedb - ChessBase: the moves of a game (.cbg) and its annotations (.cba).
 *
 * A CBG game record: 1 flags byte (bit 6: a setup block follows; bits 0-5: the encoding
 * mode), a 3-byte big-endian length counting these 4 bytes, the optional 28-byte setup
 * block (36 bytes in the Chess960 modes), then the move bytes. Modes 0-7 (regular chess)
 * and 10-11 (Chess960) are decoded here, each with its own substitution table
 * (lib/formats/cbh-keys.h); the even modes and 10-11 store the one-byte opcodes below, the
 * odd modes 1-7 store every move as two bytes (decode_simple()); modes 2, 3, 6, 7 and 11
 * number the men scanning from h8. Other modes (losing chess, Makruk, ...) fail the game
 * with the mode named.
 *
 * Mode 0: with n = the number of moves decoded so far in the game (over all its lines, never
 * reset), a stored byte b means opcode T[(b - n) mod 256] (modes 4-7 and 10-11: T[b] - n). Opcode 0 is a null move, 1-234
 * name a man (king, or the k-th queen/rook/bishop/knight, or pawn k: see the ChessBase slots in
 * lib/board/board.h) and its step, 235 introduces a two-byte move (from, to, promotion; its two
 * bytes are read with the same n), 236 is padding, 254 opens a sibling line and 255 closes
 * one (the last 255 ends the game). At a position with k continuations the first k - 1 are
 * each stored as 254 subtree 255 and the last one follows unwrapped; the first one is the
 * main line. So the main line of a game is stored first, its alternatives after it, and the
 * move buffer (which wants each variation right after the move it replaces, as the iterator
 * and the writers expect) is filled from a tree built in a first pass.
 *
 * A CBA block: 14 header bytes (game id, 4 unknown, the entry count + 1, the block length),
 * then entries of a 3-byte signed big-endian position, a type byte, a 2-byte big-endian length
 * counting the 6 entry header bytes, and the payload. Position k is the k-th move in storage
 * order (the counter n above), -1 the start of the game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/cbh.h"
#include "formats/cbh-keys.h"
#include "formats/toolkit.h"

/*
 * The value of stored byte b read when n moves were decoded before it, in the mode's table
 * (lib/formats/cbh-keys.h): modes 0-3 subtract n before the table, the others after it.
 */
static inline int cb_opcode(int mode, uint8_t b, uint32_t n)
{
	if (mode <= 3)
		return cbk_tables[mode][(uint8_t)(b - n)];
	return (uint8_t)(cbk_tables[mode][b] - n);
}

/* Modes whose moves are all two bytes (from, to, line flags): 1, 3, 5, 7. */
static inline int mode_is_simple(int mode)
{
	return mode <= 7 && (mode & 1);
}

/* Modes that number the men scanning the board from h8 back to a1: 2, 3, 6, 7, 11. */
static inline int mode_is_reverse(int mode)
{
	return mode == 11 || (mode <= 7 && (mode & 2));
}

enum {
	OP_NULL = 0,
	OP_CASTLE_K = 9,
	OP_CASTLE_Q = 10,
	OP_TWO_BYTE = 235,
	OP_PAD = 236,
	OP_PUSH = 254,
	OP_POP = 255
};

/* The opcodes 11-234: which man, and where its steps start. */
static const struct op_range {
	uint8_t first, type, ordinal;
} op_ranges[] = {
	{ 11, GAMEDB__QUEEN, 0 },   { 39, GAMEDB__ROOK, 0 },    { 53, GAMEDB__ROOK, 1 },
	{ 67, GAMEDB__BISHOP, 0 },  { 81, GAMEDB__BISHOP, 1 },  { 95, GAMEDB__KNIGHT, 0 },
	{ 103, GAMEDB__KNIGHT, 1 }, { 111, GAMEDB__PAWN, 0 },   { 143, GAMEDB__QUEEN, 1 },
	{ 171, GAMEDB__QUEEN, 2 },  { 199, GAMEDB__ROOK, 2 },   { 213, GAMEDB__BISHOP, 2 },
	{ 227, GAMEDB__KNIGHT, 2 }, { 235, 0, 0 },
};

/* King steps 1-8 and knight steps 0-7 as (file, rank) deltas. */
static const int8_t king_step[8][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 1, -1 },
					{ 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 } };
static const int8_t knight_step[8][2] = { { 2, 1 }, { 1, 2 }, { -1, 2 }, { -2, 1 },
					  { -2, -1 }, { -1, -2 }, { 1, -2 }, { 2, -1 } };

/* Promotion pieces of a two-byte move, bits 12-13. */
static const uint8_t promo_piece[4] = { GAMEDB__QUEEN, GAMEDB__ROOK, GAMEDB__BISHOP,
					GAMEDB__KNIGHT };

static const char *const type_name[7] = { "", "pawn", "knight", "bishop", "rook", "queen",
					  "king" };

/*
 * Variations nested deeper than this fail the game: each open line keeps a position, and a
 * hostile record could otherwise open millions.
 */
#define MAX_DEPTH 16384

#define NONE UINT32_MAX

/* CBA entry types. */
enum {
	CBA_TEXT_AFTER = 0x02,
	CBA_SYMBOLS = 0x03,
	CBA_SQUARES = 0x04,
	CBA_ARROWS = 0x05,
	CBA_TIME_SPENT = 0x07,
	CBA_WHITE_CLOCK = 0x16,
	CBA_BLACK_CLOCK = 0x17,
	CBA_CRITICAL = 0x18,
	CBA_MEDAL = 0x22,
	CBA_TEXT_BEFORE = 0x82
};

/* A decoded move; its index in the node array is its CBA position + 1 (0 is the root). */
struct cb_node {
	/* The move as the move buffer takes it, copied there whole (gamedb__mb_node()): with
	 * its number, the colour that made it (aux) and its SAN when it was wanted. */
	struct gamedb__node n;
	uint32_t first;  /* first continuation (the main line), NONE if none */
	uint32_t next;   /* next alternative to this move */
	uint32_t last;   /* last continuation, for appending */
	uint32_t ann;    /* its first CBA entry (index in anns, in file order), NONE if none */
};

/* A line of play: the main line, or one opened by opcode 254 and waiting for its 255. */
struct cb_level {
	struct gamedb__pos pos;
	struct gamedb__cbslots slots;
	uint32_t node;
	int chk; /* 1 if the side to move is in check in pos (for gamedb__move_play_san()/_fast()) */
};

/*
 * A CBA entry; payload at off in the game's CBA block. The entries of one move are linked in
 * the order of the block (next), from the move's node (cb_node ann), so that writing a move
 * finds its annotations at once: no search per move, no sort of the block.
 */
struct cb_ann {
	int32_t pos;
	uint32_t next; /* the next entry of the same position, NONE if none */
	uint32_t off;
	uint16_t len;
	uint8_t type;
};

/*
 * While writing the move buffer, per open variation: the move whose alternatives are being
 * written, and which of them (the main line's frame is unused).
 */
struct cb_frame {
	uint32_t main, sib;
};

/*
 * A CB text's letters for the charset in use (cb_letters_of()): the text layer's table of it
 * (struct gamedb__text_letters), with ChessBase's own bytes set over it: the figurines, the
 * diagram and the line breaks.
 */
struct cb_letters {
	char charset[48]; /* the charset it was made for; "" = none yet */
	struct gamedb__text_letters L;
};

/*
 * What a one-byte move opcode 11-234 says, worked out once (state_of()) rather than by a
 * search of op_ranges a move: the man (type, ordinal) and its step as file and rank deltas
 * for each colour (df, dr: a pawn's "forward" and "right" are the mover's). A slider's step
 * (slider set) wraps around the board: files and ranks counted modulo 8.
 */
struct cb_op {
	uint8_t type, ordinal, slider;
	int8_t df[2], dr[2];
};

struct cbg_state {
	struct cb_op ops[OP_TWO_BYTE];
	struct cb_letters letters;
	/* The game's table of letters (cb_letters_of()), or NULL, once letters_known is set:
	 * looked up at the game's first text, not at each (the charset stays the game's). */
	const struct cb_letters *game_letters;
	int letters_known;
	/*
	 * The slots of the last start position (board and mode's order): a game after another
	 * from the same position (nearly all: the usual start) copies them (tree_start()).
	 */
	int slots_ok, slots_reverse;
	uint8_t slots_board[64];
	struct gamedb__cbslots slots;
	struct cb_node *nodes;
	size_t nnodes, capnodes;
	struct gamedb__stack levels; /* struct cb_level: the line being decoded on top */
	struct cb_ann *anns;
	size_t nanns, capanns;
	struct gamedb__stack frames; /* struct cb_frame */
	const uint8_t *cba;    /* the game's CBA block (a view of the .cba) */
	uint32_t cba_len;      /* its length */
	/* Where the block was copied into the move buffer's text pool, once a text differed
	 * from its stored bytes (they are read there: GAMEDB__NODE_RAW); NONE until then. */
	uint32_t cba_copy;
	int32_t status;        /* GAMEDB_OK or GAMEDB_WARN so far */
	/*
	 * Comment texts that lost bytes (U+FFFD or '?' in their place): how many texts, the
	 * bytes lost (counted by gamedb__text_letters_run(); the text layer's path does not
	 * count them: lost_uncounted), the .cba offset of the first such entry. Said once per
	 * game.
	 */
	size_t lost_texts, lost_bytes, lost_uncounted;
	uint64_t lost_off;
	size_t unplaced;       /* annotations at positions no move has */
};

static void init_ops(struct cb_op *ops)
{
	static const int8_t pawn_df[4] = { 0, 0, 1, -1 };
	static const int8_t dir_f[4] = { 0, 1, 1, 1 }, dir_r[4] = { 1, 0, 1, -1 };
	int op, i = 0, stm;

	for (op = op_ranges[0].first; op < OP_TWO_BYTE; op++) {
		struct cb_op *o = &ops[op];
		int k;
		while (op_ranges[i + 1].first <= op)
			i++;
		o->type = op_ranges[i].type;
		o->ordinal = op_ranges[i].ordinal;
		k = op - op_ranges[i].first;
		if (o->type == GAMEDB__PAWN) {
			o->ordinal = (uint8_t)(k / 4);
			k %= 4;
		}
		o->slider = o->type != GAMEDB__PAWN && o->type != GAMEDB__KNIGHT;
		for (stm = 0; stm < 2; stm++) {
			const int fwd = stm ? -1 : 1;
			int df, dr;
			if (o->type == GAMEDB__PAWN) {
				/* Steps 0-3: one ahead, two ahead, taking right (toward h for White,
				 * toward a for Black), taking left. */
				df = pawn_df[k] * fwd;
				dr = k == 1 ? 2 * fwd : fwd;
			} else if (o->type == GAMEDB__KNIGHT) {
				df = knight_step[k][0];
				dr = knight_step[k][1];
			} else {
				/* Sliders: the direction in k / 7 (bishops' from 2 on), the distance
				 * - 1 in k % 7. */
				const int dir = k / 7 + (o->type == GAMEDB__BISHOP ? 2 : 0), n = k % 7 + 1;
				df = dir_f[dir] * n;
				dr = dir_r[dir] * n;
			}
			o->df[stm] = (int8_t)df;
			o->dr[stm] = (int8_t)dr;
		}
	}
}

static struct cbg_state *state_of(struct gamedb__cbg_ctx *c)
{
	struct cbg_state *s = c->priv;

	if (!s) {
		s = c->priv = calloc(1, sizeof *s);
		if (!s)
			return NULL;
		gamedb__stack_init(&s->levels, sizeof(struct cb_level), MAX_DEPTH + 1);
		gamedb__stack_init(&s->frames, sizeof(struct cb_frame), SIZE_MAX);
		init_ops(s->ops);
	}
	return s;
}

void gamedb__cbg_ctx_free(struct gamedb__cbg_ctx *c)
{
	struct cbg_state *s;

	if (!c)
		return;
	s = c->priv;
	if (s) {
		free(s->nodes);
		gamedb__stack_free(&s->levels);
		free(s->anns);
		gamedb__stack_free(&s->frames);
		free(s);
		c->priv = NULL;
	}
	gamedb__buf_free(&c->scratch);
}

/* The game's number for messages: the CBH record number when known. */
static unsigned long long game_no(const struct gamedb_game *g)
{
	return g->loc[2] ? (unsigned long long)g->loc[2] : (unsigned long long)g->index + 1;
}

/* ChessBase squares count file by file: a1 = 0, a2 = 1, ..., h8 = 63. */
static int cb_square(int cm)
{
	return (cm & 7) * 8 + (cm >> 3);
}

static const char *mode_name(int mode)
{
	if (mode >= 1 && mode <= 7)
		return "regular chess in another encoding";
	if (mode == 8 || mode == 9)
		return "losing chess";
	if (mode == 10 || mode == 11)
		return "Chess960";
	if (mode == 12 || mode == 13)
		return "Out Chatrang";
	if (mode == 14 || mode == 15)
		return "Twins";
	if (mode == 16 || mode == 17)
		return "Makruk";
	if (mode == 18 || mode == 19)
		return "Pawns";
	if (mode == 63)
		return "illegal positions allowed";
	return "unknown";
}

/* ---- setup position ------------------------------------------------------------------- */

/*
 * The 28-byte setup block (x960: the 8 more bytes of the Chess960 modes, else NULL): byte 1 bits 0-3 the en-passant file (1 = a), bit 4 black to move;
 * byte 2 castling (bit 0 white O-O-O, 1 white O-O, 2 black O-O-O, 3 black O-O); byte 3 the
 * move number (0 means 1); then 192 bits over the squares a1, a2, ..., h8: 0 empty, else
 * 1 c ppp (c colour, ppp 1 K 2 Q 3 N 4 B 5 R 6 P). Built as a FEN so that the board engine
 * checks it; 0, or -1 with *why (-2 when the Chess960 bytes are at fault).
 */
static int parse_setup(const uint8_t *b, const uint8_t *x960, struct gamedb__pos *pos,
		       char *fen, size_t fencap, const char **why)
{
	static const uint8_t type[8] = { 0, GAMEDB__KING, GAMEDB__QUEEN, GAMEDB__KNIGHT,
					  GAMEDB__BISHOP, GAMEDB__ROOK, GAMEDB__PAWN, 0 };
	uint8_t board[64];
	char text[128];
	size_t bit = 0, len;
	int cm, epfile = b[1] & 15, black = (b[1] >> 4) & 1, num = b[3];

	for (cm = 0; cm < 64; cm++) {
		int v = 0;
		size_t k;
		if (bit >= 192) {
			*why = "the setup board holds more than 32 men";
			return -1;
		}
		if (!((b[4 + bit / 8] >> (7 - bit % 8)) & 1)) {
			bit++;
			board[cb_square(cm)] = 0;
			continue;
		}
		if (bit + 5 > 192) {
			*why = "the setup board holds more than 32 men";
			return -1;
		}
		for (k = 1; k < 5; k++)
			v = (v << 1) | ((b[4 + (bit + k) / 8] >> (7 - (bit + k) % 8)) & 1);
		bit += 5;
		if (!type[v & 7]) {
			*why = "bad piece code in the setup board";
			return -1;
		}
		board[cb_square(cm)] = GAMEDB__PC(type[v & 7], (v >> 3) & 1);
	}
	len = gamedb__fen_placement(board, text);
	if (x960) {
		/*
		 * Chess960: the castling rooks are named by square (8 more bytes: the white and
		 * black king, two white rooks, two black rooks, the position number). A right
		 * whose rook is not a rook of that side on its back rank, on that side of its
		 * king, makes the setup bad. Written as Shredder-FEN file letters for the parser.
		 */
		int col, side;
		text[len++] = ' ';
		text[len++] = black ? 'b' : 'w';
		text[len++] = ' ';
		for (col = 0; col < 2; col++) {
			const int ksq = x960[col] < 64 ? cb_square(x960[col]) : -1;
			for (side = 1; side >= 0; side--) {
				const int right = col * 2 + side; /* 0 white O-O-O, 1 O-O, 2, 3 black */
				int k, rsq = -1;
				if (!(b[2] & (1 << right)))
					continue;
				if (ksq < 0 || board[ksq] != GAMEDB__PC(GAMEDB__KING, col) ||
				    (ksq >> 3) != col * 7) {
					*why = "the Chess960 king square does not hold that king";
					return -2;
				}
				for (k = 0; k < 2; k++) {
					const uint8_t v = x960[2 + col * 2 + k];
					const int sq = v < 64 ? cb_square(v) : -1;
					if (sq >= 0 && board[sq] == GAMEDB__PC(GAMEDB__ROOK, col) &&
					    (sq >> 3) == (ksq >> 3) && (side ? sq > ksq : sq < ksq))
						rsq = sq;
				}
				if (rsq < 0) {
					*why = "a Chess960 castling rook square is bad";
					return -2;
				}
				text[len++] = (char)((col ? 'a' : 'A') + (rsq & 7));
			}
		}
		if (!(b[2] & 15))
			text[len++] = '-';
		text[len++] = ' ';
		text[len] = 0;
	} else {
		len += (size_t)snprintf(text + len, sizeof text - len, " %c %s%s%s%s%s ",
					black ? 'b' : 'w', (b[2] & 2) ? "K" : "",
					(b[2] & 1) ? "Q" : "", (b[2] & 8) ? "k" : "",
					(b[2] & 4) ? "q" : "", (b[2] & 15) ? "" : "-");
	}
	if (epfile >= 1 && epfile <= 8)
		snprintf(text + len, sizeof text - len, "%c%c 0 %d", 'a' + epfile - 1,
			 black ? '3' : '6', num ? num : 1);
	else
		snprintf(text + len, sizeof text - len, "- 0 %d", num ? num : 1);
	if (gamedb__pos_from_fen(pos, text, why) != 0)
		return -1;
	gamedb__pos_to_fen(pos, fen, fencap);
	return 0;
}

/* The start of a CBG record: flags, length and (with bit 6) the setup block. */
struct cbg_head {
	uint8_t flags;
	uint32_t len;   /* stored length, header included */
	size_t moves;   /* where the move bytes start in the record */
	int bad960;     /* the Chess960 squares are bad: g->start has no castling rights, and
			   g->errmsg says why (the moves cannot be read) */
};

static int32_t fail(struct gamedb__cbg_ctx *c, struct gamedb_game *g, uint64_t off,
		    const char *what)
{
	gamedb__game_seterr(g, "%s: offset %llu: game %llu: %s", c->cbg->name,
			    (unsigned long long)off, game_no(g), what);
	return GAMEDB_FAILED;
}

/*
 * Reads the record head at g->loc[0] and, when there is one, its setup position into
 * g->start / g->fen. On success *rec points at the record (avail bytes of it in the file).
 */
static int32_t read_head(struct gamedb__cbg_ctx *c, struct gamedb_game *g, struct cbg_head *h,
			 const uint8_t **rec, size_t *avail)
{
	const uint64_t off = g->loc[0];
	int64_t got;
	const char *why = NULL;
	char msg[160];
	struct gamedb__pos pos;

	got = gamedb__file_view(c->cbg, off, 4, rec);
	if (got < 0) {
		gamedb__game_seterr(g, "%s", c->r->errmsg); /* names the file and offset */
		return GAMEDB_FAILED;
	}
	if (got < 4)
		return fail(c, g, off, "the game record lies past the end of the file");
	h->flags = (*rec)[0];
	h->len = gamedb__be24(*rec + 1);
	h->moves = 4;
	h->bad960 = 0;
	if (h->len < 4)
		return fail(c, g, off, "bad game record length");
	got = gamedb__file_view(c->cbg, off, h->len, rec);
	if (got < 0) {
		gamedb__game_seterr(g, "%s", c->r->errmsg); /* names the file and offset */
		return GAMEDB_FAILED;
	}
	*avail = (size_t)got;
	if (h->flags & 0x40) {
		/* Chess960 modes add 8 bytes: king and rook start squares, position number. */
		const int mode = h->flags & 0x3F;
		const size_t need = (mode == 10 || mode == 11) ? 36 : 28;
		if (h->len < 4 + need || *avail < 4 + need)
			return fail(c, g, off + 4, "the setup position is cut off");
		const int bad = parse_setup(*rec + 4, need == 36 ? *rec + 32 : NULL, &pos, g->fen,
					    sizeof g->fen, &why);
		if (bad != 0) {
			uint8_t plain[28];
			const char *why2;
			snprintf(msg, sizeof msg, "bad setup position: %s", why ? why : "");
			strcpy(g->fen, GAMEDB__START_FEN);
			g->have_start = 0;
			if (bad == -2) {
				/*
				 * The Chess960 squares (the 8 bytes after the board) are at fault, the
				 * board is sound: it is reported without the castling rights, and
				 * the moves, which may need them, are not read (gamedb__cbg_decode).
				 */
				memcpy(plain, *rec + 4, 28);
				plain[2] = 0;
				if (parse_setup(plain, NULL, &pos, g->fen, sizeof g->fen, &why2) == 0) {
					g->start = pos;
					g->have_start = 1;
					h->bad960 = 1;
					h->moves += need;
					fail(c, g, off + 32, msg);
					return GAMEDB_OK;
				}
				strcpy(g->fen, GAMEDB__START_FEN);
			}
			return fail(c, g, off + 4, msg);
		}
		g->start = pos;
		g->have_start = 1;
		h->moves += need;
	}
	return GAMEDB_OK;
}

int32_t gamedb__cbg_read_setup(struct gamedb__cbg_ctx *c, struct gamedb_game *g, int *mode)
{
	struct cbg_head h;
	const uint8_t *rec;
	size_t avail;
	const int32_t st = read_head(c, g, &h, &rec, &avail);

	*mode = st == GAMEDB_OK ? (h.flags & 0x3F) : -1;
	/* Bad Chess960 squares: the board is known, the castling rights are not. */
	return st == GAMEDB_OK && h.bad960 ? GAMEDB_WARN : st;
}

/* ---- move bytes ----------------------------------------------------------------------- */

/*
 * Turns opcode op (1-234, or 0, or 235 with its word w) into a move for the side to move
 * (from/to/promo, or a whole castling or null move); 0, or -1 with a reason in msg.
 * Legality is left to gamedb__move_play().
 */
/* Inline in both move loops (decode_tree(), decode_flat()): two callers made the compiler keep
 * it out of line, at about 80 instructions a move. */
#if defined(__GNUC__) || defined(__clang__)
#define CB_HOT_INLINE inline __attribute__((always_inline))
#else
#define CB_HOT_INLINE inline
#endif
static CB_HOT_INLINE int decode_op(const struct cb_op *ops, const struct cb_level *lv, int op, unsigned w,
		     struct gamedb__move *m, char *msg, size_t cap)
{
	static const char *const nth[3] = { "1st", "2nd", "3rd" };
	const struct gamedb__pos *pos = &lv->pos;
	const int stm = pos->stm;
	int from, file, rank, df, dr, type = 0, ordinal = 0;

	memset(m, 0, sizeof *m);
	m->rook_from = GAMEDB__NO_SQ;
	if (op > OP_CASTLE_Q && op < OP_TWO_BYTE) {
		/* A man but the king, by its slot (most moves: first). */
		const struct cb_op *o = &ops[op];
		type = o->type;
		ordinal = o->ordinal;
		from = lv->slots.sq[stm][type][ordinal];
		if (from >= 64 || pos->sq[from] != GAMEDB__PC(type, stm)) {
			if (type == GAMEDB__PAWN)
				snprintf(msg, cap, "pawn number %d is gone (opcode %d)", ordinal + 1, op);
			else
				snprintf(msg, cap, "there is no %s %s (opcode %d)", nth[ordinal],
					 type_name[type], op);
			return -1;
		}
		df = o->df[stm];
		dr = o->dr[stm];
		if (o->slider) {
			m->from = (uint8_t)from;
			m->to = (uint8_t)((((from >> 3) + 8 + dr) & 7) * 8 + (((from & 7) + 8 + df) & 7));
			return 0;
		}
	} else if (op == OP_NULL) {
		if (gamedb__move_null(pos, m) != 0) {
			snprintf(msg, cap, "null move while in check");
			return -1;
		}
		return 0;
	} else if (op == OP_CASTLE_K || op == OP_CASTLE_Q) {
		if (gamedb__move_castle(pos, op == OP_CASTLE_K, m) != 0) {
			snprintf(msg, cap, "castling not allowed");
			return -1;
		}
		return 0;
	} else if (op == OP_TWO_BYTE) {
		from = cb_square((int)(w & 63));
		m->to = (uint8_t)cb_square((int)((w >> 6) & 63));
		if (w >> 14) {
			snprintf(msg, cap, "bad two-byte move 0x%04x", w);
			return -1;
		}
		if (from == m->to) {
			/* How Chess960 castling is written: onto g1/g8 or c1/c8 in place. */
			int side = (from & 7) == 6 ? 1 : (from & 7) == 2 ? 0 : -1;
			if (side < 0 || (from >> 3) != (stm ? 7 : 0) ||
			    gamedb__move_castle(pos, side, m) != 0) {
				snprintf(msg, cap, "bad two-byte move 0x%04x", w);
				return -1;
			}
			return 0;
		}
		m->from = (uint8_t)from;
		/* Bits 12-13 mean something only when a pawn reaches the last rank. */
		if (GAMEDB__PC_TYPE(pos->sq[from]) == GAMEDB__PAWN && (m->to >> 3) == (stm ? 0 : 7))
			m->promo = promo_piece[(w >> 12) & 3];
		return 0;
	} else {
		/* 1-8: the king's steps */
		from = pos->king[stm];
		if (from >= 64) {
			snprintf(msg, cap, "no king");
			return -1;
		}
		df = king_step[op - 1][0];
		dr = king_step[op - 1][1];
		type = GAMEDB__KING;
	}
	file = (from & 7) + df;
	rank = (from >> 3) + dr;
	if (file < 0 || file > 7 || rank < 0 || rank > 7) {
		snprintf(msg, cap, "the %s steps off the board (opcode %d)", type_name[type], op);
		return -1;
	}
	m->from = (uint8_t)from;
	m->to = (uint8_t)(rank * 8 + file);
	if (type == GAMEDB__PAWN && (rank == 0 || rank == 7)) {
		snprintf(msg, cap, "pawn reaches the last rank in a one-byte move (opcode %d)", op);
		return -1;
	}
	return 0;
}

/*
 * Adds a decoded move as the last continuation of node parent; its index, or NONE. Played
 * without its SAN (gamedb__move_play_fast()), the move keeps whatever san holds, unread.
 */
static CB_HOT_INLINE uint32_t add_node(struct cbg_state *s, uint32_t parent,
				       const struct gamedb__move *m, int colour, uint32_t fullmove,
				       const char *san, size_t sanlen, int kind)
{
	struct cb_node *nd;
	uint32_t id;

	if (s->nnodes >= NONE - 1 ||
	    (s->nnodes == s->capnodes && /* the call only when it grows */
	     gamedb__grow((void **)&s->nodes, &s->capnodes, s->nnodes + 1, sizeof *s->nodes) != 0))
		return NONE;
	id = (uint32_t)s->nnodes++;
	nd = &s->nodes[id];
	gamedb__node_fill(&nd->n, m, fullmove, colour, san, sanlen, kind);
	nd->first = nd->next = nd->last = nd->ann = NONE;
	if (s->nodes[parent].first == NONE)
		s->nodes[parent].first = id;
	else
		s->nodes[s->nodes[parent].last].next = id;
	s->nodes[parent].last = id;
	return id;
}

/*
 * 1 when the main line decoded so far (the first continuations from the start) has as many
 * moves as the CBH record gives the game (byte 45, in full moves; 255 means 255 or more).
 */
static int mainline_complete(const struct gamedb__cbg_ctx *c, const struct cbg_state *s,
			     const struct gamedb_game *g)
{
	size_t plies = 0, full;
	uint32_t id = s->nodes[0].first;
	const int black = g->have_start && g->start.stm;

	if (c->mainline_moves < 0)
		return 0;
	for (; id != NONE; id = s->nodes[id].first)
		plies++;
	if (plies == 0)
		return 0;
	full = (plies + (black ? 1 : 0) + 1) / 2;
	return c->mainline_moves == 255 ? full >= 255 : full == (size_t)c->mainline_moves;
}

/* The main line's level and the root node, before the first move; NULL if out of memory. */
static struct cb_level *tree_start(struct gamedb_game *g, struct cbg_state *s, int mode)
{
	struct cb_level *cur;

	gamedb__stack_clear(&s->levels);
	cur = gamedb__stack_push(&s->levels);
	if (!cur)
		return NULL;
	if (g->have_start)
		cur->pos = g->start;
	else
		gamedb__pos_startpos(&cur->pos);
	if (s->slots_ok && s->slots_reverse == mode_is_reverse(mode) &&
	    memcmp(s->slots_board, cur->pos.sq, sizeof s->slots_board) == 0) {
		cur->slots = s->slots;
	} else {
		gamedb__cbslots_init(&cur->slots, &cur->pos, mode_is_reverse(mode));
		s->slots = cur->slots;
		s->slots_reverse = mode_is_reverse(mode);
		memcpy(s->slots_board, cur->pos.sq, sizeof s->slots_board);
		s->slots_ok = 1;
	}
	cur->node = 0;
	cur->chk = gamedb__in_check(&cur->pos);
	s->nnodes = 0;
	if (gamedb__grow((void **)&s->nodes, &s->capnodes, 1, sizeof *s->nodes) != 0)
		return NULL;
	s->nodes[0].first = s->nodes[0].next = s->nodes[0].last = s->nodes[0].ann = NONE;
	s->nnodes = 1;
	return cur;
}

/*
 * Plays a decoded move on pos, checked as the board engine checks every move: with its SAN
 * into san (*sanlen) when want_san, else without (gamedb__move_play_fast(): no SAN, no mate
 * test; m->check then NONE or UNKNOWN, so the side to move next is in check when m->check is
 * not NONE, either way). 0, or -1 if illegal.
 */
static inline int play(struct gamedb__pos *pos, struct gamedb__move *m, int checked,
		       int want_san, char *san, size_t *sanlen)
{
	return want_san ? gamedb__move_play_san(pos, m, san, sanlen, checked)
			: gamedb__move_play_fast(pos, m, checked);
}

/* The 16-bit value of a two-byte move: its two bytes at rec, each through the mode's table. */
static inline unsigned two_byte_word(int mode, const uint8_t *rec, uint32_t n)
{
	return (unsigned)cb_opcode(mode, rec[0], n) << 8 | (unsigned)cb_opcode(mode, rec[1], n);
}

/*
 * One move of a one-byte mode on the line cur, the step decode_tree() and decode_flat() share:
 * opcode op (w: a two-byte move's value) turned into a move m (decode_op()), checked and
 * played (play(), its SAN into san when want_san), and the line's check flag and piece slots
 * brought along. 0, or -1 with the reason in why (cur unchanged but for its position when
 * the move was illegal: the caller gives up the line).
 */
static CB_HOT_INLINE int play_op(const struct cbg_state *s, struct cb_level *cur, int op,
				 unsigned w, int want_san, struct gamedb__move *m, char *san,
				 size_t *sanlen, char *why, size_t cap)
{
	const int stm = cur->pos.stm;

	if (decode_op(s->ops, cur, op, w, m, why, cap) != 0)
		return -1;
	if (play(&cur->pos, m, cur->chk, want_san, san, sanlen) != 0) {
		snprintf(why, cap, "illegal move (opcode %d)", op);
		return -1;
	}
	cur->chk = m->check != GAMEDB__CHECK_NONE; /* see play() */
	if (op > OP_CASTLE_Q && op < OP_TWO_BYTE) /* the man decode_op() found in its slot */
		gamedb__cbslots_move_slot(&cur->slots, stm, m, s->ops[op].ordinal);
	else if (op > 8 || (m->flags & GAMEDB__MF_CAPTURE)) /* a king's plain step moves no slot */
		gamedb__cbslots_move(&cur->slots, stm, m);
	return 0;
}

/*
 * First pass: the move bytes into the tree of s->nodes, every move checked and played by the
 * board engine, with its SAN when want_san (see play()). OK, WARN (unknown opcodes skipped),
 * or FAILED with g's message set (the tree then holds the legal part).
 */
static int32_t decode_tree(struct gamedb__cbg_ctx *c, struct gamedb_game *g,
			   struct cbg_state *s, const struct cbg_head *h, const uint8_t *rec,
			   size_t avail, int want_san)
{
	const size_t end = avail < h->len ? avail : h->len;
	const int mode = h->flags & 0x3F;
	const int kind = want_san ? GAMEDB__NODE_SAN : GAMEDB__NODE_NUM;
	struct cb_level *cur;
	size_t p = h->moves;
	uint32_t n = 0;
	int32_t st = GAMEDB_OK;
	char why[96], msg[192], san[GAMEDB__SAN_MAX] = { 0 };
	size_t sanlen = 0;

	cur = tree_start(g, s, mode);
	if (!cur)
		return fail(c, g, g->loc[0], "out of memory");

	while (p < end) {
		const size_t at = p;
		const int op = cb_opcode(mode, rec[p++], n);
		struct gamedb__move m;
		unsigned w = 0;
		int stm;
		uint32_t fullmove;
		uint32_t id;

		if (op >= OP_TWO_BYTE) { /* all but the one-byte moves, behind one test */
			if (op == OP_PUSH) {
				/* A sibling line: decoded on a copy of this line, dropped at its 255. */
				struct cb_level *nl = gamedb__stack_push(&s->levels);
				if (!nl)
					return fail(c, g, g->loc[0] + at,
						    gamedb__stack_full(&s->levels)
							    ? "variations nested too deeply"
							    : "out of memory");
				*nl = nl[-1];
				cur = nl;
				continue;
			}
			if (op == OP_POP) {
				if (gamedb__var_depth(&s->levels) == 0)
					return st; /* the end of the game */
				gamedb__stack_pop(&s->levels);
				cur = gamedb__stack_top(&s->levels);
				continue;
			}
			if (op == OP_PAD)
				continue;
			if (op > OP_PAD) {
				/* Unused opcodes: skipped (counting no move), as other readers do. */
				st = GAMEDB_WARN;
				gamedb__game_seterr(g, "%s: offset %llu: game %llu: unknown opcode %d "
						    "skipped", c->cbg->name,
						    (unsigned long long)(g->loc[0] + at), game_no(g), op);
				continue;
			}
			/* OP_TWO_BYTE */
			if (end - p < 2)
				return fail(c, g, g->loc[0] + at, "two-byte move cut off");
			w = two_byte_word(mode, rec + p, n);
			p += 2;
		}
		stm = cur->pos.stm;
		fullmove = cur->pos.fullmove;
		if (play_op(s, cur, op, w, want_san, &m, san, &sanlen, why, sizeof why) != 0) {
			if (gamedb__var_depth(&s->levels) == 0 && mainline_complete(c, s, g)) {
				/*
				 * No final marker, and the main line already has the length the index
				 * gives it: what follows is not moves (a real base keeps a stale copy
				 * of an older record there). The game ends here, with a warning.
				 */
				snprintf(msg, sizeof msg, "the game has no final marker: the %zu byte(s) "
					 "after its last move are not moves (ignored)", end - at);
				gamedb__game_seterr(g, "%s: offset %llu: game %llu: %s", c->cbg->name,
						    (unsigned long long)(g->loc[0] + at), game_no(g), msg);
				return GAMEDB_WARN;
			}
			snprintf(msg, sizeof msg, "move %u%s: %s", (unsigned)cur->pos.fullmove,
				 stm ? "..." : ".", why);
			return fail(c, g, g->loc[0] + at, msg);
		}
		id = add_node(s, cur->node, &m, stm, fullmove, san, sanlen, kind);
		if (id == NONE)
			return fail(c, g, g->loc[0] + at, "out of memory");
		cur->node = id;
		n++;
	}
	if (avail < h->len)
		return fail(c, g, g->loc[0] + avail,
			    "the game record is cut off at the end of the file");
	/* No final 255: the game is read to its stored length (real bases have such games). */
	gamedb__game_seterr(g, "%s: offset %llu: game %llu: the game has no final marker: read "
			    "to its stored length", c->cbg->name,
			    (unsigned long long)(g->loc[0] + end), game_no(g));
	return GAMEDB_WARN;
}

/*
 * First pass for the two-byte modes 1, 3, 5 and 7: every move is a 16-bit value (its two
 * bytes each through the mode's table, with the same n): bits 0-5 the from square and 6-11
 * the to square (a1 = 0, a2 = 1, ...; swapped in modes 3 and 7), 12-13 the promotion piece,
 * bit 14 "this line ends after the move", bit 15 "an alternative to this move follows once
 * its line has ended". from = to = a1 is a null move. The first move at a position is the
 * main line, as in the one-byte modes; the end of the main line's own line ends the game.
 * want_san as decode_tree() takes it.
 */
static int32_t decode_simple(struct gamedb__cbg_ctx *c, struct gamedb_game *g,
			     struct cbg_state *s, const struct cbg_head *h, const uint8_t *rec,
			     size_t avail, int want_san)
{
	const size_t end = avail < h->len ? avail : h->len;
	const int mode = h->flags & 0x3F, swap = (mode & 2) != 0;
	const int kind = want_san ? GAMEDB__NODE_SAN : GAMEDB__NODE_NUM;
	struct cb_level *cur = tree_start(g, s, mode);
	size_t p = h->moves;
	uint32_t n = 0;
	char why[96], msg[192], san[GAMEDB__SAN_MAX] = { 0 };
	size_t sanlen = 0;

	if (!cur)
		return fail(c, g, g->loc[0], "out of memory");
	while (p < end) {
		const size_t at = p;
		struct gamedb__move m;
		unsigned v;
		int from, to, stm, bad = 0;
		uint32_t id, fullmove;

		if (end - p < 2)
			return fail(c, g, g->loc[0] + at, "two-byte move cut off");
		v = (unsigned)cb_opcode(mode, rec[p], n) << 8 | (unsigned)cb_opcode(mode, rec[p + 1], n);
		p += 2;
		if (v & 0x8000) {
			/* The line this move starts is followed by an alternative: keep the position. */
			struct cb_level *nl = gamedb__stack_push(&s->levels);
			if (!nl)
				return fail(c, g, g->loc[0] + at,
					    gamedb__stack_full(&s->levels) ? "variations nested too deeply"
									   : "out of memory");
			*nl = nl[-1];
			cur = nl;
		}
		from = cb_square((int)(v & 63));
		to = cb_square((int)((v >> 6) & 63));
		if (swap) {
			const int t = from;
			from = to;
			to = t;
		}
		stm = cur->pos.stm;
		fullmove = cur->pos.fullmove;
		memset(&m, 0, sizeof m);
		m.rook_from = GAMEDB__NO_SQ;
		if (from == 0 && to == 0) {
			if (gamedb__move_null(&cur->pos, &m) != 0) {
				snprintf(why, sizeof why, "null move while in check");
				bad = 1;
			}
		} else {
			m.from = (uint8_t)from;
			m.to = (uint8_t)to;
			if (GAMEDB__PC_TYPE(cur->pos.sq[from]) == GAMEDB__PAWN &&
			    (to >> 3) == (stm ? 0 : 7))
				m.promo = promo_piece[(v >> 12) & 3];
		}
		if (!bad && play(&cur->pos, &m, cur->chk, want_san, san, &sanlen) != 0) {
			snprintf(why, sizeof why, "illegal move (0x%04x)", v);
			bad = 1;
		}
		if (bad) {
			snprintf(msg, sizeof msg, "move %u%s: %s", (unsigned)cur->pos.fullmove,
				 stm ? "..." : ".", why);
			return fail(c, g, g->loc[0] + at, msg);
		}
		cur->chk = m.check != GAMEDB__CHECK_NONE; /* see play() */
		id = add_node(s, cur->node, &m, stm, fullmove, san, sanlen, kind);
		if (id == NONE)
			return fail(c, g, g->loc[0] + at, "out of memory");
		cur->node = id;
		n++;
		if (v & 0x4000) {
			if (gamedb__var_depth(&s->levels) == 0)
				return GAMEDB_OK; /* the main line ends: the end of the game */
			gamedb__stack_pop(&s->levels);
			cur = gamedb__stack_top(&s->levels);
		}
	}
	if (avail < h->len)
		return fail(c, g, g->loc[0] + avail,
			    "the game record is cut off at the end of the file");
	if (s->nnodes == 1)
		return GAMEDB_OK; /* no moves: nothing to end */
	gamedb__game_seterr(g, "%s: offset %llu: game %llu: the game has no final marker: read "
			    "to its stored length", c->cbg->name,
			    (unsigned long long)(g->loc[0] + end), game_no(g));
	return GAMEDB_WARN;
}

/* ---- annotations ---------------------------------------------------------------------- */

static void warn(struct gamedb__cbg_ctx *c, struct gamedb_game *g, struct cbg_state *s,
		 uint64_t off, const char *what)
{
	s->status = GAMEDB_WARN;
	gamedb__game_seterr(g, "%s: offset %llu: game %llu: %s",
			    c->cba ? c->cba->name : c->cbg->name, (unsigned long long)off,
			    game_no(g), what);
}

/*
 * The loss of comment text (s->lost_*), after what the game's message says already: which
 * game, the .cba offset of the first entry that lost bytes, how many bytes, in how many texts.
 */
static void say_lost_text(struct gamedb__cbg_ctx *c, struct gamedb_game *g,
			  const struct cbg_state *s)
{
	const size_t n = strlen(g->errmsg);
	char bytes[48];

	/* The text layer's path (a converter hook, UTF-8) does not count what it replaced. */
	if (!s->lost_uncounted)
		snprintf(bytes, sizeof bytes, "%zu byte(s)", s->lost_bytes);
	else if (s->lost_bytes)
		snprintf(bytes, sizeof bytes, "%zu byte(s) and more", s->lost_bytes);
	else
		snprintf(bytes, sizeof bytes, "bytes");
	snprintf(g->errmsg + n, sizeof g->errmsg - n,
		 "%s%s: offset %llu: game %llu: comment text lost %s the charset %s lacks (each "
		 "now U+FFFD, a NUL '?'), in %zu text(s)", n ? "; " : "",
		 c->cba ? c->cba->name : c->cbg->name,
		 (unsigned long long)(g->loc[1] + s->lost_off), game_no(g), bytes,
		 gamedb__cbg_charset(c), s->lost_texts);
}

/*
 * Reads the game's CBA block into s->anns, in the order of the block (link_annotations()
 * then hangs them on their moves). Damage there costs the annotations, not the moves: it
 * gives a warning. -1 only when out of memory.
 */
static int read_annotations(struct gamedb__cbg_ctx *c, struct gamedb_game *g,
			    struct cbg_state *s)
{
	const uint64_t off = g->loc[1];
	const uint8_t *b;
	int64_t got;
	uint32_t total, p;

	s->nanns = 0;
	s->cba = NULL;
	s->cba_len = 0;
	s->cba_copy = NONE;
	if (!off)
		return 0;
	if (!c->cba) {
		/* The index points into a .cba the base lacks: the game loses its annotations. */
		const char *name = c->cbg->name, *slash = strrchr(name, '/');
		char cba[128];
		size_t n;

		snprintf(cba, sizeof cba, "%s", slash ? slash + 1 : name);
		n = strlen(cba);
		if (n && (cba[n - 1] == 'g' || cba[n - 1] == 'G'))
			cba[n - 1] = cba[n - 1] == 'g' ? 'a' : 'A';
		s->status = GAMEDB_WARN;
		/* After what the game's header said already (names lost with their files). */
		n = strlen(g->errmsg);
		snprintf(g->errmsg + n, sizeof g->errmsg - n,
			 "%s%s: game %llu: annotations at offset %llu not read: %s is missing",
			 n ? "; " : "", c->cbg->name, game_no(g), (unsigned long long)off, cba);
		return 0;
	}
	got = gamedb__file_view(c->cba, off, 14, &b);
	if (got < 14) {
		warn(c, g, s, off, got < 0 ? "read error" : "the annotations lie past the end of the file");
		return 0;
	}
	total = gamedb__be32(b + 10);
	if (total < 14) {
		warn(c, g, s, off, "bad annotation block length");
		return 0;
	}
	got = gamedb__file_view(c->cba, off, total, &b);
	if (got < 0) {
		warn(c, g, s, off, "read error");
		return 0;
	}
	if ((uint64_t)got < total) {
		warn(c, g, s, off + (uint64_t)got, "the annotations are cut off at the end of the file");
		total = (uint32_t)got;
	}
	s->cba = b;
	s->cba_len = total;
	for (p = 14; total - p >= 6;) {
		struct cb_ann *a;
		/* Position: 24-bit signed; entry length: 16-bit big-endian, header included. */
		const int32_t pos = (int32_t)gamedb__be24(b + p) - ((b[p] & 0x80) ? 0x1000000 : 0);
		const uint16_t len = (uint16_t)gamedb__be16(b + p + 4);
		if (len < 6 || len > total - p) {
			warn(c, g, s, off + p, "bad annotation entry length (the rest is ignored)");
			break;
		}
		if (s->nanns == s->capanns && /* the call only when it grows */
		    gamedb__grow((void **)&s->anns, &s->capanns, s->nanns + 1, sizeof *s->anns) != 0)
			return -1;
		a = &s->anns[s->nanns++];
		a->pos = pos;
		a->next = NONE;
		a->off = p + 6;
		a->len = (uint16_t)(len - 6);
		a->type = b[p + 3];
		p += len;
	}
	if (p < total && total - p < 6)
		warn(c, g, s, off + p, "stray bytes at the end of the annotations");
	return 0;
}

/*
 * Hangs each CBA entry on the node of its position (position p is the move of node p + 1,
 * -1 the start of the game: the root), the entries of one node in the order of the block
 * whatever the order of the positions there; one pass, from the last entry back. The number
 * of entries at positions no decoded move has: they are not written.
 */
static size_t link_annotations(struct cbg_state *s)
{
	size_t i = s->nanns, unplaced = 0;

	while (i-- > 0) {
		struct cb_ann *a = &s->anns[i];
		if (a->pos < -1 || (size_t)a->pos + 1 >= s->nnodes) {
			unplaced++;
			continue;
		}
		a->next = s->nodes[a->pos + 1].ann;
		s->nodes[a->pos + 1].ann = (uint32_t)i;
	}
	return unplaced;
}

/*
 * ChessBase's own bytes in a text of a single-byte charset, and what they become: the
 * figurines 0xA2-0xA7 the piece letters (K Q N B R P), the diagram 0x9E "[#]" (what CB's own
 * PGN export writes for one); NULL for any other byte. The one list both paths read
 * (cb_letters_of() and cb_text()).
 */
static const char *cb_own_byte(unsigned b)
{
	static const char *const own[0xA7 - 0x9E + 1] = { "[#]", NULL, NULL, NULL, "K",
							  "Q",   "N",  "B",  "R",  "P" };

	return b >= 0x9E && b <= 0xA7 ? own[b - 0x9E] : NULL;
}

/*
 * s->letters for charset cs, made from the text layer's table of it (gamedb__text_table_of())
 * when cs is not the charset it was made for: the figurines, the diagram and the line breaks
 * of CB text over the charset's letters. NULL when the text layer has no table
 * (UTF-8, not single-byte, a converter hook): then the text layer converts.
 */
static const struct cb_letters *cb_letters_of(struct gamedb__cbg_ctx *c, struct cbg_state *s,
					      const char *cs)
{
	struct cb_letters *L = &s->letters;
	const struct gamedb__text_letters *tab;
	unsigned b;

	if (c->r->text.hook)
		return NULL;
	if (L->charset[0] && strcmp(L->charset, cs) == 0)
		return L;
	L->charset[0] = 0;
	if (strlen(cs) >= sizeof L->charset || (tab = gamedb__text_table_of(&c->r->text, cs)) == NULL ||
	    !tab->ascii)
		return NULL;
	/* The charset's letters (a NUL '?' and a refused byte U+FFFD, each with a warning, as
	 * there), with ChessBase's own bytes over them. */
	L->L = *tab;
	gamedb__text_letter_set(&L->L, '\r', "\n", 1, GAMEDB__LETTER_CR);
	for (b = 0x9E; b <= 0xA7; b++) {
		const char *own = cb_own_byte(b);
		if (own)
			gamedb__text_letter_set(&L->L, b, own, (unsigned)strlen(own), 0);
	}
	strcpy(L->charset, cs);
	return L;
}

/*
 * A CB annotation text into UTF-8 in out. ChessBase writes figurines as the bytes 0xA2-0xA7
 * (K Q N B R P) and a diagram as 0x9E: they become the piece letters and "[#]" (what CB's
 * own PGN export writes for a diagram); the rest goes through the text layer in the base's
 * charset, whose line breaks (CR LF) become "\n". OK, WARN (lossy) or FAILED (no memory).
 * The general path (UTF-8 bases, a converter hook); a single-byte charset takes
 * gamedb__text_letters_run() (emit_text()), which gives the same bytes in one pass.
 */
static int32_t cb_text(struct gamedb__cbg_ctx *c, const uint8_t *t, size_t n,
		       struct gamedb__buf *out)
{
	const char *cs = gamedb__cbg_charset(c);
	const int single = !gamedb__text_is_utf8(cs);
	size_t i, run = 0;
	int32_t st = GAMEDB_OK, r;

	gamedb__buf_clear(out);
	for (i = 0; i <= n; i++) {
		const char *rep = NULL;
		if (i < n && (!single || (rep = cb_own_byte(t[i])) == NULL))
			continue;
		if (i > run) {
			r = gamedb__text_to_utf8(&c->r->text, cs, NULL, (const char *)t + run, i - run,
						 out);
			if (r == GAMEDB_FAILED)
				return r;
			if (r == GAMEDB_WARN)
				st = GAMEDB_WARN;
		}
		if (rep && gamedb__buf_append(out, rep, strlen(rep)) != 0)
			return GAMEDB_FAILED;
		run = i + 1;
	}
	gamedb__text_newlines(out, 0);
	return st;
}

/* An entry the library has no mapping for: its type and its payload in hex. */
static int emit_raw(struct gamedb__cbg_ctx *c, struct cbg_state *s, const struct cb_ann *a,
		    struct gamedb__movebuf *mb)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *pl = s->cba + a->off;
	size_t i;

	gamedb__buf_clear(&c->scratch);
	if (gamedb__buf_reserve(&c->scratch, 2 * (size_t)a->len) != 0)
		return -1;
	for (i = 0; i < a->len; i++) {
		c->scratch.p[c->scratch.len++] = hex[pl[i] >> 4];
		c->scratch.p[c->scratch.len++] = hex[pl[i] & 15];
	}
	c->scratch.p[c->scratch.len] = 0;
	if (gamedb__mb_comment(mb, GAMEDB_EVENT_ANNOTATION, c->scratch.p, c->scratch.len) != 0 ||
	    gamedb__mb_raw(mb, pl, a->len) != 0)
		return -1;
	mb->nodes[mb->n - 1].aux = a->type;
	return 0;
}

/*
 * Adds a text entry as a comment node of type; its language goes to aux, and its stored
 * bytes after its text when they differ from it (as gamedb__mb_raw() keeps them).
 */
static int emit_text(struct gamedb__cbg_ctx *c, struct cbg_state *s, const struct cb_ann *a,
		     int type, struct gamedb__movebuf *mb)
{
	const uint8_t *pl = s->cba + a->off;
	const char *cs;
	unsigned lang;
	int32_t r;
	size_t lost = 0, n;

	if (a->len < 2)
		return emit_raw(c, s, a, mb); /* not even its language: kept as it is */
	lang = (unsigned)pl[0] << 8 | pl[1];
	if (c->language >= 0 && lang != 0 && lang != (unsigned)c->language)
		return 0;
	n = (size_t)a->len - 2;
	cs = gamedb__cbg_charset(c);
	if (!s->letters_known) {
		s->game_letters = gamedb__text_is_utf8(cs) ? NULL : cb_letters_of(c, s, cs);
		s->letters_known = 1;
	}
	if (s->game_letters) {
		/*
		 * Straight into the move buffer's text pool, as gamedb__mb_comment() puts it; the
		 * stored bytes, unless they are the text, in the copy of the CBA block there.
		 */
		struct gamedb__buf *t = &mb->text;
		const size_t off = t->len;
		char *text;
		if (n > (SIZE_MAX - GAMEDB__LETTERS_SLACK - 16) / 5 ||
		    gamedb__buf_room(t, GAMEDB__LETTERS_ROOM(n) + 1) != 0 || gamedb__mb_room(mb) != 0)
			return -1;
		r = gamedb__text_letters_run(&s->game_letters->L, pl + 2, n, t, &lost);
		if (t->len + n + 1 >= UINT32_MAX) {
			t->len = off;
			return -1;
		}
		text = t->p + off;
		gamedb__mb_text_end(mb, type, off); /* cannot fail: room made */
		if (t->len - off - 1 != n || memcmp(text, pl + 2, n) != 0) {
			/*
			 * The stored bytes: in the game's CBA block, copied into the pool once (one
			 * copy a game, not one a text), the byte after the text made its NUL there
			 * (the next entry's first header byte, or the block's end: nothing read there).
			 */
			uint32_t raw;
			if (s->cba_copy == NONE) {
				if ((size_t)s->cba_len + 1 >= UINT32_MAX - t->len ||
				    gamedb__buf_room(t, (size_t)s->cba_len + 2) != 0)
					return -1;
				s->cba_copy = (uint32_t)t->len;
				memcpy(t->p + t->len, s->cba, s->cba_len);
				t->len += s->cba_len;
				t->p[t->len++] = 0;
				t->p[t->len] = 0;
			}
			raw = s->cba_copy + a->off + 2;
			t->p[raw + n] = 0;
			gamedb__node_set_raw(&mb->nodes[mb->n - 1], raw);
		}
	} else {
		r = cb_text(c, pl + 2, n, &c->scratch);
		if (r == GAMEDB_FAILED || gamedb__mb_comment(mb, type, c->scratch.p, c->scratch.len) != 0 ||
		    gamedb__mb_raw(mb, pl + 2, n) != 0)
			return -1;
	}
	if (r == GAMEDB_WARN) {
		s->status = GAMEDB_WARN;
		if (!s->lost_texts++)
			s->lost_off = (uint64_t)a->off - 6;
		s->lost_bytes += lost;
		s->lost_uncounted += !lost;
	}
	mb->nodes[mb->n - 1].aux = (uint8_t)(lang <= 0xFF ? lang : 0);
	return 0;
}

static char square_colour(int v)
{
	return v == 2 ? 'G' : v == 3 ? 'Y' : v == 4 ? 'R' : 0;
}

/* "e4" of a CBA square number (1 = a1, 2 = a2, ..., 64 = h8); 0 if out of range. */
static int square_name(int v, char *out)
{
	if (v < 1 || v > 64)
		return 0;
	out[0] = (char)('a' + (v - 1) / 8);
	out[1] = (char)('1' + (v - 1) % 8);
	return 1;
}

/*
 * v in decimal at o, at least two digits when two is set ("%02lu", else "%lu"); the end. Not
 * printf: a base with a clock on every move formats tens of thousands of them (issue 32:
 * printf was 11 % of the time on BielMTO).
 */
static char *put_num(char *o, unsigned long v, int two)
{
	char d[24];
	size_t n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (two && n == 1)
		*o++ = '0';
	while (n)
		*o++ = d[--n];
	return o;
}

/* "H:MM:SS" of h hours, m minutes and s seconds at o ("%lu:%02lu:%02lu"); the end. */
static char *put_hms(char *o, unsigned long h, unsigned long m, unsigned long sec)
{
	o = put_num(o, h, 0);
	*o++ = ':';
	o = put_num(o, m, 1);
	*o++ = ':';
	return put_num(o, sec, 1);
}

/*
 * The PGN command text ("%csl Gd4,Re5", ...) of an entry into c->scratch; the event type to
 * give it, or 0 when the entry does not fit its known layout (it is then kept raw).
 * mover: who made the move the entry follows, -1 at the start of the game.
 */
static int command_text(struct gamedb__cbg_ctx *c, const struct cbg_state *s,
			const struct cb_ann *a, int mover)
{
	static const char *const medal[16] = {
		"best", "decided", "model", "novelty", "pawnstructure", "strategy", "tactics",
		"attack", "sacrifice", "defence", "material", "pieceplay", "endgame",
		"tacticalblunder", "strategicalblunder", "user"
	};
	static const char *const crit[4] = { "", "opening", "middlegame", "endgame" };
	struct gamedb__buf *out = &c->scratch;
	const uint8_t *pl = s->cba + a->off;
	char sq1[2], sq2[2], num[64], *o;
	size_t i;
	int k;

	gamedb__buf_clear(out);
	switch (a->type) {
	case CBA_SQUARES:
		if (a->len == 0 || a->len % 2)
			return 0;
		for (i = 0; i < a->len; i += 2)
			if (!square_colour(pl[i]) || !square_name(pl[i + 1], sq1))
				return 0;
		/* "%csl " and 4 bytes an entry (",Gd4"). */
		if (gamedb__buf_room(out, 5 + 2 * (size_t)a->len + 1) != 0)
			return -1;
		o = out->p + out->len;
		memcpy(o, "%csl ", 5);
		o += 5;
		for (i = 0; i < a->len; i += 2) {
			square_name(pl[i + 1], sq1);
			if (i)
				*o++ = ',';
			*o++ = square_colour(pl[i]);
			*o++ = sq1[0];
			*o++ = sq1[1];
		}
		out->len = (size_t)(o - out->p);
		out->p[out->len] = 0;
		return GAMEDB_EVENT_COMMAND;
	case CBA_ARROWS:
		if (a->len == 0 || a->len % 3)
			return 0;
		for (i = 0; i < a->len; i += 3)
			if (!square_colour(pl[i]) || !square_name(pl[i + 1], sq1) ||
			    !square_name(pl[i + 2], sq2))
				return 0;
		/* "%cal " and 6 bytes an entry (",Ge2e4"). */
		if (gamedb__buf_room(out, 5 + 2 * (size_t)a->len + 1) != 0)
			return -1;
		o = out->p + out->len;
		memcpy(o, "%cal ", 5);
		o += 5;
		for (i = 0; i < a->len; i += 3) {
			square_name(pl[i + 1], sq1);
			square_name(pl[i + 2], sq2);
			if (i)
				*o++ = ',';
			*o++ = square_colour(pl[i]);
			*o++ = sq1[0];
			*o++ = sq1[1];
			*o++ = sq2[0];
			*o++ = sq2[1];
		}
		out->len = (size_t)(o - out->p);
		out->p[out->len] = 0;
		return GAMEDB_EVENT_COMMAND;
	case CBA_WHITE_CLOCK:
	case CBA_BLACK_CLOCK: {
		/* Centiseconds; the hundredths are written only when there are some. */
		uint32_t cs, t;
		const int whose = a->type == CBA_BLACK_CLOCK;
		if (a->len != 4)
			return 0;
		cs = gamedb__be32(pl);
		t = cs / 100;
		/* "%clk H:MM:SS", ".cc" when there are hundredths. */
		o = num;
		*o++ = '%';
		memcpy(o, whose == mover ? "clk " : whose ? "clkb " : "clkw ", 5);
		o += whose == mover ? 4 : 5;
		o = put_hms(o, t / 3600, t / 60 % 60, t % 60);
		if (cs % 100) {
			*o++ = '.';
			o = put_num(o, cs % 100, 1);
		}
		if (gamedb__buf_append(out, num, (size_t)(o - num)) != 0)
			return -1;
		/* The mover's own clock is a CLOCK event; the other side's a command. */
		return whose == mover ? GAMEDB_EVENT_CLOCK : GAMEDB_EVENT_COMMAND;
	}
	case CBA_TIME_SPENT:
		/* Hours, minutes, seconds and a byte of unknown meaning (not kept). */
		if (a->len != 4 || pl[1] > 59 || pl[2] > 59)
			return 0;
		memcpy(num, "%emt ", 5);
		o = put_hms(num + 5, pl[0], pl[1], pl[2]);
		if (gamedb__buf_append(out, num, (size_t)(o - num)) != 0)
			return -1;
		return GAMEDB_EVENT_COMMAND;
	case CBA_CRITICAL:
		if (a->len != 1 || pl[0] < 1 || pl[0] > 3)
			return 0;
		if (gamedb__buf_append(out, "%crit ", 6) != 0 ||
		    gamedb__buf_append(out, crit[pl[0]], strlen(crit[pl[0]])) != 0)
			return -1;
		return GAMEDB_EVENT_COMMAND;
	case CBA_MEDAL: {
		const uint32_t v = a->len == 4 ? gamedb__be32(pl) : 0;
		if (v == 0 || v > 0xFFFF)
			return 0;
		if (gamedb__buf_append(out, "%medal ", 7) != 0)
			return -1;
		/* Appended, not printed: two vsnprintf calls a medal were 1,500 instructions. */
		for (k = 0, i = 0; k < 16; k++)
			if ((v >> k) & 1)
				if ((i++ && gamedb__buf_append(out, ",", 1) != 0) ||
				    gamedb__buf_append(out, medal[k], strlen(medal[k])) != 0)
					return -1;
		return GAMEDB_EVENT_COMMAND;
	}
	default:
		return 0;
	}
}

/*
 * The annotations of node id (the move at CBA position id - 1), of the given pass: 0 before
 * the move (texts before it), 1 after it (NAGs, then texts, then commands, clocks and the
 * rest). The root (id 0, the start of the game) takes everything in one go: texts as
 * COMMENT_BEFORE, commands as COMMAND, and what needs a move (NAGs) as raw ANNOTATION events.
 */
/*
 * An entry that follows its move but a text: symbols as NAGs, the rest as commands or,
 * without a mapping, as they are stored. Out of line: emit_after() then takes a text with no
 * registers saved.
 */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int emit_other(struct gamedb__cbg_ctx *c, struct cbg_state *s, const struct cb_ann *a,
		      int mover, struct gamedb__movebuf *mb)
{
	int t;

	if (a->type == CBA_SYMBOLS) {
		/* Move, position and prefix symbols: their values are NAG numbers. */
		size_t k;
		for (k = 0; k < a->len; k++)
			if (s->cba[a->off + k] &&
			    gamedb__mb_event(mb, GAMEDB_EVENT_NAG, s->cba[a->off + k]) != 0)
				return -1;
		return 0;
	}
	t = command_text(c, s, a, mover);
	if (t < 0 || (t && gamedb__mb_comment(mb, t, c->scratch.p, c->scratch.len) != 0) ||
	    (!t && emit_raw(c, s, a, mb) != 0))
		return -1;
	return 0;
}

/* An entry that follows its move (any but a text before it): a text after it as a comment,
 * the rest by emit_other(). */
static inline int emit_after(struct gamedb__cbg_ctx *c, struct cbg_state *s, const struct cb_ann *a,
			     int mover, struct gamedb__movebuf *mb)
{
	if (a->type == CBA_TEXT_AFTER)
		return emit_text(c, s, a, GAMEDB_EVENT_COMMENT_AFTER, mb);
	return emit_other(c, s, a, mover, mb);
}

/* The entries at the start of the game (position -1): the texts first, then the rest. */
static int emit_start(struct gamedb__cbg_ctx *c, struct cbg_state *s, struct gamedb__movebuf *mb)
{
	const uint32_t first = s->nnodes ? s->nodes[0].ann : NONE;
	uint32_t i;
	int pass, t;

	for (pass = 0; pass < 2; pass++) {
		for (i = first; i != NONE; i = s->anns[i].next) {
			const struct cb_ann *a = &s->anns[i];
			const int text = a->type == CBA_TEXT_AFTER || a->type == CBA_TEXT_BEFORE;
			if (text != (pass == 0))
				continue;
			if (text) {
				if (emit_text(c, s, a, GAMEDB_EVENT_COMMENT_BEFORE, mb) != 0)
					return -1;
				continue;
			}
			t = command_text(c, s, a, -1);
			if (t < 0 || (t && gamedb__mb_comment(mb, GAMEDB_EVENT_COMMAND, c->scratch.p,
							      c->scratch.len) != 0) ||
			    (!t && emit_raw(c, s, a, mb) != 0))
				return -1;
		}
	}
	return 0;
}

/*
 * A move (its node, mv) with its CBA entries, the chain from first: the texts before it, the
 * move, then the symbols, the texts after it and the rest, each group in the block's order.
 */
static int emit_annotated(struct gamedb__cbg_ctx *c, struct cbg_state *s, uint32_t first,
			  const struct gamedb__node *mv, struct gamedb__movebuf *mb)
{
	const int mover = mv->aux;
	uint32_t i;
	int pass;

	/* One entry (most annotated moves): no pass to order it among others. */
	if (s->anns[first].next == NONE) {
		const struct cb_ann *a = &s->anns[first];
		if (a->type == CBA_TEXT_BEFORE)
			return emit_text(c, s, a, GAMEDB_EVENT_COMMENT_BEFORE, mb) != 0 ||
					       gamedb__mb_node(mb, mv) != 0
				       ? -1
				       : 0;
		return gamedb__mb_node(mb, mv) != 0 ? -1 : emit_after(c, s, a, mover, mb);
	}
	for (i = first; i != NONE; i = s->anns[i].next)
		if (s->anns[i].type == CBA_TEXT_BEFORE &&
		    emit_text(c, s, &s->anns[i], GAMEDB_EVENT_COMMENT_BEFORE, mb) != 0)
			return -1;
	if (gamedb__mb_node(mb, mv) != 0)
		return -1;
	for (pass = 0; pass < 3; pass++) {
		for (i = first; i != NONE; i = s->anns[i].next) {
			const struct cb_ann *a = &s->anns[i];
			const int group = a->type == CBA_SYMBOLS ? 0 : a->type == CBA_TEXT_AFTER ? 1 : 2;
			if (a->type != CBA_TEXT_BEFORE && group == pass && emit_after(c, s, a, mover, mb) != 0)
				return -1;
		}
	}
	return 0;
}

/* Writes one move with what CBA says before and after it. */
static int emit_move(struct gamedb__cbg_ctx *c, struct cbg_state *s, uint32_t id,
		     struct gamedb__movebuf *mb)
{
	const struct cb_node *nd = &s->nodes[id];

	if (nd->ann == NONE) /* the usual move: nothing before or after it */
		return gamedb__mb_node(mb, &nd->n);
	return emit_annotated(c, s, nd->ann, &nd->n, mb);
}

/*
 * Second pass: the tree into the move buffer in reading order, each move followed by its
 * alternatives as variations, then by its main continuation. An explicit stack of frames
 * (the main line's, then one per variation being written) replaces recursion. Each move's
 * node goes over whole, as the first pass made it (with its SAN or without).
 */
static int emit_tree(struct gamedb__cbg_ctx *c, struct cbg_state *s, struct gamedb__movebuf *mb)
{
	uint32_t node = s->nodes[0].first;
	int with_alternatives = 1;
	struct cb_frame *f;

	gamedb__stack_clear(&s->frames);
	if (!gamedb__stack_push(&s->frames) || emit_start(c, s, mb) != 0)
		return -1;
	for (;;) {
		if (node == NONE) {
			/* The line ends: the game's, or the variation f->sib; then f->sib's next. */
			uint32_t main, sib;
			if (gamedb__var_depth(&s->frames) == 0)
				return 0;
			f = gamedb__stack_top(&s->frames);
			main = f->main;
			sib = s->nodes[f->sib].next;
			if (!gamedb__var_end(&s->frames, mb))
				return -1;
			if (sib != NONE) {
				f = gamedb__var_begin(&s->frames, mb);
				if (!f)
					return -1;
				f->main = main;
				f->sib = sib;
				node = sib;
				with_alternatives = 0;
			} else {
				node = s->nodes[main].first;
				with_alternatives = 1;
			}
			continue;
		}
		if (emit_move(c, s, node, mb) != 0)
			return -1;
		if (with_alternatives && s->nodes[node].next != NONE) {
			f = gamedb__var_begin(&s->frames, mb);
			if (!f)
				return -1;
			f->main = node;
			node = s->nodes[node].next;
			f->sib = node;
			with_alternatives = 0;
			continue;
		}
		node = s->nodes[node].first;
		with_alternatives = 1;
	}
}

/*
 * The moves of a one-byte mode game, looked over before they are decoded: 1 when the record
 * is one line (no 254), every opcode a move, a padding byte or the final 255 (no unknown
 * opcode, no two-byte move cut off), the 255 found; *nmoves then gets its moves. Such a game
 * (nearly every game of a base without variations) is decoded straight into the move buffer
 * (decode_flat()). About eight instructions a move byte: the opcode tables only.
 */
static int flat_moves(int mode, const uint8_t *rec, size_t p, size_t end, uint32_t *nmoves)
{
	uint32_t n = 0;

	while (p < end) {
		const int op = cb_opcode(mode, rec[p++], n);
		if (op < OP_TWO_BYTE) {
			n++;
		} else if (op == OP_TWO_BYTE) {
			if (end - p < 2)
				return 0;
			p += 2;
			n++;
		} else if (op == OP_POP) {
			*nmoves = n;
			return 1;
		} else if (op != OP_PAD) {
			return 0; /* 254 (a variation) or an unknown opcode */
		}
	}
	return 0; /* no final 255 */
}

/*
 * A game flat_moves() found to be one line, decoded and written in one pass: what the tree of
 * decode_tree() and emit_tree() would write for it, event for event (the annotations at the
 * start, then each move with what CBA says before and after it), without the tree. OK, or
 * FAILED (out of memory, with g's message set); 1 when the moves are not what flat_moves()
 * said or a move fails: the caller then forgets what was written and takes the general path,
 * which says why as it always has.
 */
static int32_t decode_flat(struct gamedb__cbg_ctx *c, struct gamedb_game *g,
			   struct cbg_state *s, const struct cbg_head *h, const uint8_t *rec,
			   uint32_t nmoves, int want_san, struct gamedb__movebuf *mb)
{
	const int mode = h->flags & 0x3F;
	const int kind = want_san ? GAMEDB__NODE_SAN : GAMEDB__NODE_NUM;
	struct cb_level *cur = tree_start(g, s, mode);
	size_t p = h->moves, i;
	uint32_t n;
	char why[96], san[GAMEDB__SAN_MAX] = { 0 };
	size_t sanlen = 0;

	/* One node a move, for their annotations only: the positions CBA gives link to them. */
	if (!cur || gamedb__grow((void **)&s->nodes, &s->capnodes, (size_t)nmoves + 1,
				 sizeof *s->nodes) != 0)
		return fail(c, g, g->loc[0], "out of memory");
	for (i = 1; i <= nmoves; i++)
		s->nodes[i].ann = NONE;
	s->nnodes = (size_t)nmoves + 1;
	s->unplaced = link_annotations(s);
	if (emit_start(c, s, mb) != 0)
		return fail(c, g, g->loc[0], "out of memory");
	for (n = 0; n < nmoves;) {
		const int op = cb_opcode(mode, rec[p++], n);
		struct gamedb__move m;
		unsigned w = 0;
		const int stm = cur->pos.stm;
		const uint32_t fullmove = cur->pos.fullmove, id = n + 1;
		if (op == OP_PAD)
			continue;
		if (op > OP_TWO_BYTE)
			return 1;
		if (op == OP_TWO_BYTE) {
			w = two_byte_word(mode, rec + p, n);
			p += 2;
		}
		if (play_op(s, cur, op, w, want_san, &m, san, &sanlen, why, sizeof why) != 0)
			return 1;
		if (s->nodes[id].ann == NONE) {
			if (gamedb__mb_move_kind(mb, &m, fullmove, stm, san, sanlen, kind) != 0)
				return fail(c, g, g->loc[0], "out of memory");
		} else {
			struct gamedb__node mv;
			gamedb__node_fill(&mv, &m, fullmove, stm, san, sanlen, kind);
			if (emit_annotated(c, s, s->nodes[id].ann, &mv, mb) != 0)
				return fail(c, g, g->loc[0], "out of memory");
		}
		n++;
	}
	return GAMEDB_OK;
}

int32_t gamedb__cbg_decode(struct gamedb__cbg_ctx *c, struct gamedb_game *g,
			   struct gamedb__movebuf *mb)
{
	struct cbg_state *s = state_of(c);
	struct cbg_head h;
	const uint8_t *rec;
	size_t avail;
	int32_t st;
	int mode, flat = 0;
	uint32_t nmoves;
	char msg[160];
	/*
	 * SAN only when someone will ask for it (the reader's want_san: a writer, or a caller of
	 * gamedb_event_get_san() that met a move without it): else every move is still checked
	 * and played by the board engine, but its SAN is left to the iterator (made on demand).
	 */
	const int want_san = !g->reader || g->reader->want_san;

	if (!s)
		return fail(c, g, g->loc[0], "out of memory");
	s->status = GAMEDB_OK;
	s->nnodes = s->nanns = 0;
	s->lost_texts = s->lost_bytes = s->lost_uncounted = 0;
	s->letters_known = 0;
	st = read_head(c, g, &h, &rec, &avail);
	if (st != GAMEDB_OK || h.bad960)
		return GAMEDB_FAILED; /* g->errmsg names the file and offset */
	if (!g->have_start) {
		gamedb__pos_startpos(&g->start);
		g->have_start = 1;
	}
	mode = h.flags & 0x3F;
	if (mode > 11 || mode == 8 || mode == 9) {
		snprintf(msg, sizeof msg, "encoding mode %d (%s) is not supported", mode,
			 mode_name(mode));
		return fail(c, g, g->loc[0], msg);
	}
	/*
	 * Annotations first, so that a decoding failure's message is the one kept. The two views
	 * (of the .cba and of the .cbg) stay valid together: they are of different files.
	 */
	if (read_annotations(c, g, s) != 0)
		return fail(c, g, g->loc[0], "out of memory");
	if (!mode_is_simple(mode) &&
	    flat_moves(mode, rec, h.moves, avail < h.len ? avail : h.len, &nmoves)) {
		/* One line: decoded and written in one pass (decode_flat()). */
		const size_t n0 = mb->n, t0 = mb->text.len;
		st = decode_flat(c, g, s, &h, rec, nmoves, want_san, mb);
		if (st == GAMEDB_FAILED)
			return st;
		if (st == GAMEDB_OK) {
			flat = 1;
		} else {
			/* A move failed: the general path decodes it again and says why. */
			mb->n = n0;
			mb->text.len = t0;
			if (mb->text.p)
				mb->text.p[t0] = 0;
			s->cba_copy = NONE; /* a copy of the CBA block made there is gone too */
			s->status = GAMEDB_OK;
			s->lost_texts = s->lost_bytes = s->lost_uncounted = 0;
			s->nnodes = 0;
		}
	}
	if (!flat) {
		st = mode_is_simple(mode) ? decode_simple(c, g, s, &h, rec, avail, want_san)
					  : decode_tree(c, g, s, &h, rec, avail, want_san);
		/* Positions no decoded move has (a failed game keeps only its legal part, unsaid). */
		s->unplaced = link_annotations(s);
	}
	if (st != GAMEDB_FAILED) {
		if (s->unplaced) {
			snprintf(msg, sizeof msg, "%zu annotation(s) at positions without a move ignored",
				 s->unplaced);
			warn(c, g, s, g->loc[1], msg);
			s->unplaced = 0;
		}
	}
	if (!flat && emit_tree(c, s, mb) != 0) {
		gamedb__mb_reset(mb);
		return fail(c, g, g->loc[0], "out of memory");
	}
	if (st == GAMEDB_FAILED)
		return st;
	if (s->lost_texts)
		say_lost_text(c, g, s);
	return st == GAMEDB_WARN || s->status == GAMEDB_WARN ? GAMEDB_WARN : GAMEDB_OK;
}
