/*
 * libgamedb - FICS/ICC "style 12" session logs: whole games rebuilt from the `<12>` board lines
 * an Internet chess server sends, among any other server output (which is skipped).
 *
 * doc/formats/style12.md has the line layout and the rules. In short:
 *   - the log is read as a stream, in views of S12_VIEW bytes, line by line; a line longer than
 *     S12_MAX_LINE is skipped (never held whole);
 *   - a `<12>` line (after an optional prompt such as "fics% " and optional timestamps) is a
 *     board: 64 squares, side to move, castling flags, game number, names, relation, time
 *     control, clocks, move number, the previous move (verbose and SAN), time taken;
 *   - boards are grouped into games by game number, player pair and time control; the ply of a
 *     board is (move number - 1) * 2 + (black to move). The next ply replays the verbose move
 *     with the board engine and must give the line's 64 squares; a ply already seen cuts the
 *     game back (takeback, examine mode going back); a ply further on ends the game with "*"
 *     and a comment, and a new game starts from the board with a FEN;
 *   - a game ends on "{Game N (A vs. B) reason} result" and is handed out at once; the games
 *     still open at the end of the log are handed out with "*";
 *   - "Creating: A (1500) B (1600) rated blitz 5 0" and "{Game N (A vs. B) Creating rated
 *     blitz match.}" give ratings and the variant;
 *   - a board of relation -3 (an isolated position: `ref`, `sposition`) is a game of no moves.
 *
 * Memory is bounded by the games in flight (at most S12_MAX_GAMES of at most S12_MAX_PLIES
 * plies each), never by the size of the log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/toolkit.h"

#define S12_VIEW (64u << 10)      /* bytes asked of the I/O layer at a time */
#define S12_MAX_LINE (16u << 10)  /* longer lines are skipped unread (a <12> line is ~200) */
#define S12_BID_BYTES (64u << 10) /* how far the bid looks for a <12> line */
#define S12_MAX_GAMES 64          /* games in flight; the one idle longest goes out first */
#define S12_MAX_PLIES 4096        /* plies of one game; a longer one goes on as a new game */
#define S12_NAME 32               /* FICS handles have at most 17 letters; ICC 15 */
#define S12_MAX_ANN 16            /* "Creating:" announcements kept */
#define S12_FIELDS 30             /* fields after "<12>" */

/* ---- one <12> line ---------------------------------------------------------------------- */

static const char *const field_names[S12_FIELDS] = {
	"rank 8", "rank 7", "rank 6", "rank 5", "rank 4", "rank 3", "rank 2", "rank 1",
	"side to move", "double-push file", "white short castling", "white long castling",
	"black short castling", "black long castling", "reversible-move count", "game number",
	"white's name", "black's name", "relation", "initial time", "increment",
	"white's material", "black's material", "white's clock", "black's clock", "move number",
	"previous move", "time taken", "previous move (SAN)", "flip",
};

struct s12line {
	uint8_t sq[64];     /* GAMEDB__PC() or GAMEDB__EMPTY, a1 = 0 */
	int stm;            /* 0 white, 1 black */
	int ep;             /* file of a double push just made, -1 */
	int castle[4];      /* wK wQ bK bQ */
	long halfmove;
	long gameno;
	char white[S12_NAME], black[S12_NAME];
	int relation;
	long base, inc;     /* minutes, seconds */
	int64_t wclock, bclock; /* in milliseconds */
	long moveno;
	char verbose[24];
	char san[24];
	int ms;             /* the line's clocks are in milliseconds */
	int64_t taken;      /* time taken, in milliseconds */
};

/* A whole token as a decimal integer within [lo, hi]: 0, or -1. */
static int tok_int64(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *out)
{
	size_t i = 0;
	int64_t v = 0;
	int neg = 0;

	if (n > 0 && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i == n || n - i > 12)
		return -1;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (neg)
		v = -v;
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int tok_int(const char *s, size_t n, long lo, long hi, long *out)
{
	int64_t v;

	if (tok_int64(s, n, lo, hi, &v) != 0)
		return -1;
	*out = (long)v;
	return 0;
}

static int piece_of(char c)
{
	switch (c) {
	case 'P': return GAMEDB__PC(GAMEDB__PAWN, 0);
	case 'N': return GAMEDB__PC(GAMEDB__KNIGHT, 0);
	case 'B': return GAMEDB__PC(GAMEDB__BISHOP, 0);
	case 'R': return GAMEDB__PC(GAMEDB__ROOK, 0);
	case 'Q': return GAMEDB__PC(GAMEDB__QUEEN, 0);
	case 'K': return GAMEDB__PC(GAMEDB__KING, 0);
	case 'p': return GAMEDB__PC(GAMEDB__PAWN, 1);
	case 'n': return GAMEDB__PC(GAMEDB__KNIGHT, 1);
	case 'b': return GAMEDB__PC(GAMEDB__BISHOP, 1);
	case 'r': return GAMEDB__PC(GAMEDB__ROOK, 1);
	case 'q': return GAMEDB__PC(GAMEDB__QUEEN, 1);
	case 'k': return GAMEDB__PC(GAMEDB__KING, 1);
	case '-': return GAMEDB__EMPTY;
	default: return -1;
	}
}

/*
 * "(m:ss)", "(m:ss.mmm)", "(h:mm:ss)": milliseconds into *out, *ms = 1 when the field has a
 * fraction (the clocks of the line are then in milliseconds). 0, or -1.
 */
static int parse_taken(const char *s, size_t n, int64_t *out, int *ms)
{
	int64_t v = 0, part = 0;
	size_t i;
	int parts = 0, frac = -1;

	if (n < 3 || s[0] != '(' || s[n - 1] != ')')
		return -1;
	*ms = 0;
	for (i = 1; i < n - 1; i++) {
		char c = s[i];
		if (c >= '0' && c <= '9') {
			if (frac >= 0) {
				if (frac < 3)
					part = part * 10 + (c - '0');
				frac++;
				continue;
			}
			if (part > 100000000)
				return -1;
			part = part * 10 + (c - '0');
		} else if (c == ':' && frac < 0) {
			if (++parts > 2)
				return -1;
			v = v * 60 + part;
			part = 0;
		} else if (c == '.' && frac < 0) {
			v = (v * 60 + part) * 1000;
			part = 0;
			frac = 0;
			*ms = 1;
		} else {
			return -1;
		}
	}
	if (frac >= 0) {
		while (frac < 3) {
			part *= 10;
			frac++;
		}
		v += part;
	} else {
		v = (v * 60 + part) * 1000;
	}
	*out = v;
	return 0;
}

/*
 * Where the payload after `tag` starts when the line is such a line: the tag after optional
 * blanks, a prompt ("fics%", "aics%", any word ending in '%' or '>') and timestamps (bracketed,
 * or words of digits and ":-./TZ+,"). NULL when it is not.
 */
static const char *after_tag(const char *p, const char *end, const char *tag)
{
	size_t tl = strlen(tag);
	int words = 0;

	for (;;) {
		const char *w;
		int digit = 0, other = 0;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(end - p) >= tl && memcmp(p, tag, tl) == 0)
			return p + tl;
		if (p == end || ++words > 8)
			return NULL;
		if (*p == '[' || *p == '(') {
			char close = *p == '[' ? ']' : ')';
			const char *q = memchr(p, close, (size_t)(end - p));
			if (!q || q - p > 40)
				return NULL;
			p = q + 1;
			continue;
		}
		w = p;
		while (p < end && *p != ' ' && *p != '\t') {
			char c = *p;
			if (c >= '0' && c <= '9')
				digit = 1;
			else if (!strchr(":-./TZ+,", c))
				other = 1;
			p++;
		}
		if (p - w > 40)
			return NULL;
		if (p[-1] == '%' || (p[-1] == '>' && p - w > 1 && w[0] != '<'))
			continue; /* a prompt */
		if (digit && !other)
			continue; /* a timestamp */
		return NULL;
	}
}

/*
 * Parses the fields of a <12> line (p: after "<12>"). 0, or -1 with why (cap bytes) naming
 * the field.
 */
static int parse_line(const char *p, const char *end, struct s12line *L, char *why, size_t cap)
{
	const char *tok[S12_FIELDS];
	size_t len[S12_FIELDS];
	size_t n = 0, i;
	long v;

	while (n < S12_FIELDS) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			break;
		tok[n] = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		len[n] = (size_t)(p - tok[n]);
		n++;
	}
	if (n < S12_FIELDS) {
		snprintf(why, cap, "%zu fields where style 12 has %d: no %s", n + 1, S12_FIELDS + 1,
			 field_names[n]);
		return -1;
	}
	for (i = 0; i < 8; i++) {
		size_t f;
		if (len[i] != 8)
			goto bad;
		for (f = 0; f < 8; f++) {
			int pc = piece_of(tok[i][f]);
			if (pc < 0)
				goto bad;
			L->sq[(7 - i) * 8 + f] = (uint8_t)pc;
		}
	}
	i = 8;
	if (len[i] != 1 || (tok[i][0] != 'W' && tok[i][0] != 'B'))
		goto bad;
	L->stm = tok[i][0] == 'B';
	i = 9;
	if (tok_int(tok[i], len[i], -1, 7, &v))
		goto bad;
	L->ep = (int)v;
	for (i = 10; i < 14; i++) {
		if (tok_int(tok[i], len[i], 0, 1, &v))
			goto bad;
		L->castle[i - 10] = (int)v;
	}
	i = 14;
	if (tok_int(tok[i], len[i], 0, 100000, &L->halfmove))
		goto bad;
	i = 15;
	if (tok_int(tok[i], len[i], -1, 1000000000, &L->gameno))
		goto bad;
	for (i = 16; i < 18; i++) {
		char *dst = i == 16 ? L->white : L->black;
		size_t k;
		if (len[i] >= S12_NAME)
			goto bad;
		for (k = 0; k < len[i]; k++)
			if ((unsigned char)tok[i][k] < 0x21 || (unsigned char)tok[i][k] > 0x7E)
				goto bad;
		memcpy(dst, tok[i], len[i]);
		dst[len[i]] = 0;
	}
	i = 18;
	if (tok_int(tok[i], len[i], -4, 2, &v))
		goto bad;
	L->relation = (int)v;
	i = 19;
	if (tok_int(tok[i], len[i], 0, 100000, &L->base))
		goto bad;
	i = 20;
	if (tok_int(tok[i], len[i], 0, 100000, &L->inc))
		goto bad;
	for (i = 21; i < 23; i++)
		if (tok_int(tok[i], len[i], -1000, 1000, &v))
			goto bad;
	i = 27;
	if (parse_taken(tok[i], len[i], &L->taken, &L->ms))
		goto bad;
	for (i = 23; i < 25; i++) {
		int64_t t;
		if (tok_int64(tok[i], len[i], -INT64_C(999999999999), INT64_C(999999999999), &t))
			goto bad;
		*(i == 23 ? &L->wclock : &L->bclock) = L->ms ? t : t * 1000;
	}
	i = 25;
	if (tok_int(tok[i], len[i], 1, 100000, &L->moveno))
		goto bad;
	for (i = 26; i < 29; i += 2) {
		char *dst = i == 26 ? L->verbose : L->san;
		size_t k;
		if (len[i] >= sizeof L->verbose)
			goto bad;
		for (k = 0; k < len[i]; k++)
			if ((unsigned char)tok[i][k] < 0x21 || (unsigned char)tok[i][k] > 0x7E)
				goto bad;
		memcpy(dst, tok[i], len[i]);
		dst[len[i]] = 0;
	}
	i = 29;
	if (tok_int(tok[i], len[i], 0, 1, &v))
		goto bad;
	return 0;
bad: {
		/* The field as it is, its bytes other than printable ASCII as '?' (messages are UTF-8). */
		char shown[25];
		size_t k, n2 = len[i] > 24 ? 24 : len[i];
		for (k = 0; k < n2; k++)
			shown[k] = (unsigned char)tok[i][k] >= 0x20 && (unsigned char)tok[i][k] < 0x7F
					   ? tok[i][k] : '?';
		shown[n2] = 0;
		snprintf(why, cap, "%s \"%s\" is not valid", field_names[i], shown);
	}
	return -1;
}

/* The ply of a board: 0 before White's first move. */
static uint32_t line_ply(const struct s12line *L)
{
	return (uint32_t)((L->moveno - 1) * 2 + L->stm);
}

/*
 * The position of a line: the FEN it gives, parsed by the board engine (castling rights from the
 * flags, the outermost rooks for Chess960/wild; the en-passant square when an enemy pawn stands
 * beside the pawn that moved two squares, as the engine itself records it). 0, or -1 with why.
 */
static int line_pos(const struct s12line *L, struct gamedb__pos *pos, char *fen, size_t cap,
		    const char **why, int zh_ok)
{
	static const char letters[] = " PNBRQK  pnbrqk";
	size_t o = 0;
	int rank, file;

	for (rank = 7; rank >= 0; rank--) {
		int empty = 0;
		for (file = 0; file < 8; file++) {
			uint8_t pc = L->sq[rank * 8 + file];
			if (!pc) {
				empty++;
				continue;
			}
			if (empty)
				fen[o++] = (char)('0' + empty);
			empty = 0;
			fen[o++] = letters[pc];
		}
		if (empty)
			fen[o++] = (char)('0' + empty);
		fen[o++] = rank ? '/' : ' ';
	}
	fen[o++] = L->stm ? 'b' : 'w';
	fen[o++] = ' ';
	if (L->castle[0])
		fen[o++] = 'K';
	if (L->castle[1])
		fen[o++] = 'Q';
	if (L->castle[2])
		fen[o++] = 'k';
	if (L->castle[3])
		fen[o++] = 'q';
	if (fen[o - 1] == ' ')
		fen[o++] = '-';
	fen[o++] = ' ';
	fen[o] = 0;
	{
		/* The pawn that moved two squares is the opponent's: on rank 4 (white) or 5. */
		int ok = 0, r = L->stm ? 3 : 4, mover = !L->stm;
		if (L->ep >= 0) {
			uint8_t pawn = GAMEDB__PC(GAMEDB__PAWN, mover), enemy = GAMEDB__PC(GAMEDB__PAWN, L->stm);
			ok = L->sq[r * 8 + L->ep] == pawn &&
			     ((L->ep > 0 && L->sq[r * 8 + L->ep - 1] == enemy) ||
			      (L->ep < 7 && L->sq[r * 8 + L->ep + 1] == enemy));
		}
		if (ok)
			snprintf(fen + o, cap - o, "%c%c %ld %ld", 'a' + L->ep, L->stm ? '3' : '6',
				 L->halfmove, L->moveno);
		else
			snprintf(fen + o, cap - o, "- %ld %ld", L->halfmove, L->moveno);
	}
	if (gamedb__pos_from_fen(pos, fen, why) != 0) {
		/*
		 * More than 16 men of one colour: possible in a crazyhouse or bughouse game (zh_ok:
		 * drops), read with (empty) holdings; the game's kind and <b1> lines give the hands.
		 */
		char zfen[160];
		const char *sp = strchr(fen, ' ');
		if (!zh_ok || !sp || (size_t)(sp - fen) + 3 + strlen(sp) >= sizeof zfen)
			return -1;
		snprintf(zfen, sizeof zfen, "%.*s[]%s", (int)(sp - fen), fen, sp);
		if (gamedb__pos_from_fen(pos, zfen, why) != 0)
			return -1;
		pos->zh = 0;
	}
	gamedb__pos_to_fen(pos, fen, cap);
	return 0;
}

/* 1 if pos has the squares and the side to move of the line. */
static int same_board(const struct gamedb__pos *pos, const struct s12line *L)
{
	return pos->stm == L->stm && memcmp(pos->sq, L->sq, 64) == 0;
}

/*
 * Plays the line's verbose move ("P/e2-e4", "N/g1-f3", "o-o", "o-o-o", "P/e7-e8=Q", a drop
 * "P/@@-e4") in *pos. 0 on success (pos advanced, *m completed), -1 if it is not a legal move
 * there, -2 for a drop in a chess position, -3 when there is no move ("none").
 */
static int play_verbose(struct gamedb__pos *pos, const char *v, struct gamedb__move *m)
{
	size_t n = strlen(v);

	memset(m, 0, sizeof *m);
	m->rook_from = GAMEDB__NO_SQ;
	if (strcmp(v, "none") == 0)
		return -3;
	if (strcmp(v, "o-o") == 0 || strcmp(v, "O-O") == 0 || strcmp(v, "o-o-o") == 0 ||
	    strcmp(v, "O-O-O") == 0) {
		if (gamedb__move_castle(pos, n == 3, m) != 0)
			return -1;
		return gamedb__move_play(pos, m) == 0 ? 0 : -1;
	}
	if (n < 7 || v[1] != '/' || v[4] != '-')
		return -1;
	if (v[2] == '@') {
		int pc = piece_of(v[0]);
		if (!pos->zh)
			return -2;
		if (n != 7 || v[3] != '@' || pc <= 0 || GAMEDB__PC_TYPE(pc) > GAMEDB__QUEEN ||
		    v[5] < 'a' || v[5] > 'h' || v[6] < '1' || v[6] > '8')
			return -1;
		m->from = GAMEDB__NO_SQ;
		m->to = (uint8_t)((v[6] - '1') * 8 + (v[5] - 'a'));
		m->piece = (uint8_t)GAMEDB__PC_TYPE(pc);
		m->flags = GAMEDB__MF_DROP;
		return gamedb__move_play(pos, m) == 0 ? 0 : -1;
	}
	if (v[2] < 'a' || v[2] > 'h' || v[3] < '1' || v[3] > '8' || v[5] < 'a' || v[5] > 'h' ||
	    v[6] < '1' || v[6] > '8')
		return -1;
	m->from = (uint8_t)((v[3] - '1') * 8 + (v[2] - 'a'));
	m->to = (uint8_t)((v[6] - '1') * 8 + (v[5] - 'a'));
	if (n == 9 && v[7] == '=') {
		int pc = piece_of((char)(v[8] >= 'a' && v[8] <= 'z' ? v[8] - 'a' + 'A' : v[8]));
		int t = pc > 0 ? GAMEDB__PC_TYPE(pc) : 0;
		if (t < GAMEDB__KNIGHT || t > GAMEDB__QUEEN)
			return -1;
		m->promo = (uint8_t)t;
	} else if (n != 7) {
		return -1;
	}
	return gamedb__move_play(pos, m) == 0 ? 0 : -1;
}

/*
 * The legal move of pos that gives the line's board (what the verbose move should have been),
 * played into *pos; 0, or -1 when no move does.
 */
static int find_move(struct gamedb__pos *pos, const struct s12line *L, struct gamedb__move *m)
{
	struct gamedb__move mv[GAMEDB__MAX_MOVES];
	int n = gamedb__gen_legal(pos, mv), i;

	for (i = 0; i < n; i++) {
		struct gamedb__pos after = *pos;
		struct gamedb__move t = mv[i];
		if (gamedb__move_play(&after, &t) == 0 && same_board(&after, L)) {
			*pos = after;
			*m = t;
			return 0;
		}
	}
	return -1;
}

/* ---- games in flight -------------------------------------------------------------------- */

struct s12ply {
	struct gamedb__move m;
	int64_t clock;  /* the mover's clock after the move, milliseconds */
	int64_t taken;  /* time taken, milliseconds */
	uint8_t ms;     /* the line had milliseconds */
	uint8_t reserved[7];
	uint64_t hand;  /* bughouse: the hands before the move (they come from the partner board) */
};

struct s12game {
	long gameno;
	char white[S12_NAME], black[S12_NAME];
	long base, inc;
	char welo[8], belo[8];
	char variant[24];       /* FICS's kind word when not plain chess ("crazyhouse", "wild/fr") */
	char rated[8];          /* "rated", "unrated", "" */
	struct gamedb__pos start, cur;
	char fen[128];          /* of start */
	int nonstandard;        /* start is not the standard start position */
	uint32_t start_ply;
	struct s12ply *plies;
	size_t n, cap;
	char result[8];
	char comment[200];      /* said after the last move (how it ended, or why it was cut) */
	uint64_t first_line;
	uint64_t touched;       /* line of the last board */
	int zero;               /* an isolated position (relation -3): no moves */
	const char *unsupported; /* why the moves cannot be read (static text), or NULL */
	int zh;                 /* 0, GAMEDB__ZH_CRAZYHOUSE or GAMEDB__ZH_BUGHOUSE */
	int b1_pending;         /* a <b1> line's hands not yet matched by a board (b1_hand) */
	uint64_t b1_hand;
	uint64_t b1_line;
	char partner[80];       /* bughouse: "53 (C vs. D)", the other board of the pair */
	char warn[256];         /* the first warning about this game */
	unsigned nwarn;
};

/* An announcement: "Creating: A (1500) B (1600) rated blitz 5 0" (ratings, kind). */
struct s12ann {
	char white[S12_NAME], black[S12_NAME];
	char welo[8], belo[8];
	char rated[8];
	char kind[24];
	int used;
};

struct s12 {
	struct gamedb_reader *r;
	struct gamedb__file *f;
	uint64_t off;        /* next byte to read */
	uint64_t line;       /* lines read */
	int eof;
	uint64_t index;      /* games handed out */
	struct s12game *live[S12_MAX_GAMES];
	size_t nlive;
	struct s12game **ready; /* finished, not yet handed out (FIFO from ready_head) */
	size_t nready, ready_head, ready_cap;
	struct s12game *out; /* the game handed out last (decode_moves reads it) */
	struct s12ann ann[S12_MAX_ANN];
	size_t ann_next;
	char warn[320];      /* the first line warning not yet reported */
	unsigned nwarn;
	int nomem;
};

static void game_free(struct s12game *g)
{
	if (g) {
		free(g->plies);
		free(g);
	}
}

/* Keeps the first warning of a run in buf and counts the others. */
static void first_warning(unsigned *n, char *buf, size_t cap, const char *fmt, va_list ap)
	GAMEDB__PRINTF(4, 0);

static void first_warning(unsigned *n, char *buf, size_t cap, const char *fmt, va_list ap)
{
	if ((*n)++ == 0)
		vsnprintf(buf, cap, fmt, ap);
}

static void line_warning(struct s12 *s, const char *fmt, ...) GAMEDB__PRINTF(2, 3);

static void line_warning(struct s12 *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	first_warning(&s->nwarn, s->warn, sizeof s->warn, fmt, ap);
	va_end(ap);
}

static void game_warning(struct s12game *g, const char *fmt, ...) GAMEDB__PRINTF(2, 3);

static void game_warning(struct s12game *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	first_warning(&g->nwarn, g->warn, sizeof g->warn, fmt, ap);
	va_end(ap);
}

static void hands_text(uint64_t hand, char *buf, size_t cap);

/* Moves live game i to the ready queue. */
static int finish(struct s12 *s, size_t i, const char *result, const char *comment)
{
	struct s12game *g = s->live[i];

	if (s->nready + s->ready_head == s->ready_cap && s->ready_head) {
		memmove(s->ready, s->ready + s->ready_head, s->nready * sizeof *s->ready);
		s->ready_head = 0;
	}
	if (gamedb__grow((void **)&s->ready, &s->ready_cap, s->ready_head + s->nready + 1,
			 sizeof *s->ready) != 0) {
		s->nomem = 1;
		return -1;
	}
	snprintf(g->result, sizeof g->result, "%s", result);
	if (g->zh == GAMEDB__ZH_CRAZYHOUSE && g->b1_pending) {
		/* Its last <b1> line matched neither the last board nor a move after it. */
		char want[200], have[200];
		hands_text(g->b1_hand, want, sizeof want);
		hands_text(g->cur.hand, have, sizeof have);
		game_warning(g, "%s: line %llu: game %ld: the <b1> line's holdings (%s) are not those "
			     "the moves give (%s)", s->f->name, (unsigned long long)g->b1_line,
			     g->gameno, want, have);
		g->b1_pending = 0;
	}
	if (comment && !g->comment[0])
		snprintf(g->comment, sizeof g->comment, "%s", comment);
	s->ready[s->ready_head + s->nready++] = g;
	/* Out of the live games, keeping the order of arrival (the oldest first). */
	memmove(s->live + i, s->live + i + 1, (s->nlive - i - 1) * sizeof *s->live);
	s->nlive--;
	return 0;
}

/* The live game of this number and these players, or -1. */
static long find_live(const struct s12 *s, long gameno, const char *white, const char *black)
{
	size_t i;

	for (i = 0; i < s->nlive; i++) {
		const struct s12game *g = s->live[i];
		if (g->gameno == gameno && strcmp(g->white, white) == 0 &&
		    strcmp(g->black, black) == 0)
			return (long)i;
	}
	return -1;
}

/* The last announcement for these players, or NULL. */
static struct s12ann *find_ann(struct s12 *s, const char *white, const char *black)
{
	size_t k;

	for (k = 0; k < S12_MAX_ANN; k++) {
		struct s12ann *a = &s->ann[(s->ann_next + S12_MAX_ANN - 1 - k) % S12_MAX_ANN];
		if (a->white[0] && strcmp(a->white, white) == 0 && strcmp(a->black, black) == 0)
			return a;
	}
	return NULL;
}

/* The start FEN of a crazyhouse game from the standard position (empty hands). */
#define ZH_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"

/*
 * Makes g a crazyhouse or bughouse game when its kind says so: its positions get hands (empty
 * until a <b1> line says otherwise) and its FEN the holdings. A bughouse game is paired with
 * the last bughouse game that started without a partner: the two boards of one match start
 * together (FICS creates both at once).
 */
static void zh_setup(struct s12 *s, struct s12game *g)
{
	size_t i;

	if (strcmp(g->variant, "crazyhouse") == 0)
		g->zh = GAMEDB__ZH_CRAZYHOUSE;
	else if (strcmp(g->variant, "bughouse") == 0)
		g->zh = GAMEDB__ZH_BUGHOUSE;
	else
		return;
	g->start.zh = g->cur.zh = (uint8_t)g->zh;
	gamedb__pos_to_fen(&g->start, g->fen, sizeof g->fen);
	g->nonstandard = strcmp(g->fen, ZH_START_FEN) != 0;
	if (g->zh != GAMEDB__ZH_BUGHOUSE)
		return;
	for (i = s->nlive; i-- > 0;) {
		struct s12game *o = s->live[i];
		if (o != g && o->zh == GAMEDB__ZH_BUGHOUSE && !o->partner[0] && !o->zero) {
			snprintf(o->partner, sizeof o->partner, "%ld (%s vs. %s)", g->gameno, g->white,
				 g->black);
			snprintf(g->partner, sizeof g->partner, "%ld (%s vs. %s)", o->gameno, o->white,
				 o->black);
			break;
		}
	}
}

/*
 * A new live game from line L (position pos, its FEN fen). When S12_MAX_GAMES are in flight,
 * the one idle longest goes out first, unfinished.
 */
static struct s12game *start_game(struct s12 *s, const struct s12line *L,
				  const struct gamedb__pos *pos, const char *fen)
{
	struct s12game *g;
	struct s12ann *a;

	if (s->nlive == S12_MAX_GAMES) {
		size_t i, old = 0;
		char why[120];
		for (i = 1; i < s->nlive; i++)
			if (s->live[i]->touched < s->live[old]->touched)
				old = i;
		snprintf(why, sizeof why, "no board after line %llu while %d other games went on",
			 (unsigned long long)s->live[old]->touched, S12_MAX_GAMES);
		if (finish(s, old, "*", why) != 0)
			return NULL;
	}
	g = calloc(1, sizeof *g);
	if (!g) {
		s->nomem = 1;
		return NULL;
	}
	g->gameno = L->gameno;
	memcpy(g->white, L->white, sizeof g->white);
	memcpy(g->black, L->black, sizeof g->black);
	g->base = L->base;
	g->inc = L->inc;
	g->start = g->cur = *pos;
	snprintf(g->fen, sizeof g->fen, "%s", fen);
	g->nonstandard = strcmp(fen, GAMEDB__START_FEN) != 0;
	g->start_ply = line_ply(L);
	g->first_line = g->touched = s->line;
	snprintf(g->result, sizeof g->result, "*");
	a = find_ann(s, L->white, L->black);
	if (a) {
		memcpy(g->welo, a->welo, sizeof g->welo);
		memcpy(g->belo, a->belo, sizeof g->belo);
		memcpy(g->rated, a->rated, sizeof g->rated);
		memcpy(g->variant, a->kind, sizeof g->variant);
	}
	s->live[s->nlive++] = g;
	zh_setup(s, g);
	return g;
}

/* Replays the first k plies of g from its start into *pos. */
static void pos_at(const struct s12game *g, size_t k, struct gamedb__pos *pos)
{
	size_t i;

	*pos = g->start;
	for (i = 0; i < k && i < g->n; i++)
		gamedb__pos_make(pos, &g->plies[i].m);
}

static int add_ply(struct s12 *s, struct s12game *g, const struct gamedb__move *m,
		   const struct s12line *L, uint64_t hand)
{
	struct s12ply *p;

	if (gamedb__grow((void **)&g->plies, &g->cap, g->n + 1, sizeof *g->plies) != 0) {
		s->nomem = 1;
		return -1;
	}
	p = &g->plies[g->n++];
	memset(p, 0, sizeof *p);
	p->m = *m;
	/* The mover is the side not to move in the line. */
	p->clock = L->stm ? L->wclock : L->bclock;
	p->taken = L->taken;
	p->ms = (uint8_t)L->ms;
	p->hand = hand;
	return 0;
}

/*
 * Bughouse: the man a drop puts down came from the partner's board. When the hands known so far
 * lack it (the <b1> line that passed it is still to come, or came before the board and already
 * counts the drop), it is lent to the mover's hand for the move.
 */
static void bug_lend(struct gamedb__pos *pos, const char *v)
{
	int pc;

	if (strlen(v) != 7 || v[1] != '/' || v[2] != '@')
		return;
	pc = piece_of(v[0]);
	if (pc > 0 && GAMEDB__PC_TYPE(pc) <= GAMEDB__QUEEN &&
	    !gamedb__hand(pos, pos->stm, GAMEDB__PC_TYPE(pc)))
		gamedb__hand_add(pos, pos->stm, GAMEDB__PC_TYPE(pc));
}

/* The hands as a <b1> line writes them: "white [PN] black [Q]" (at most 2 * 5 * 63 men). */
static void hands_text(uint64_t hand, char *buf, size_t cap)
{
	static const char letters[] = "PNBRQ";
	struct gamedb__pos t;
	size_t o = 0;
	int c, type, k;

	t.hand = hand;
	for (c = 0; c < 2; c++) {
		o += (size_t)snprintf(buf + o, cap - o, "%s [", c ? " black" : "white");
		if (o >= cap)
			return; /* cut short (snprintf ended it) */
		for (type = GAMEDB__QUEEN; type >= GAMEDB__PAWN; type--)
			for (k = gamedb__hand(&t, c, type); k > 0 && o + 3 < cap; k--)
				buf[o++] = letters[type - 1];
		if (o + 2 >= cap)
			break;
		buf[o++] = ']';
		buf[o] = 0;
	}
}

/*
 * Crazyhouse, after a move of g: a <b1> line that did not match the hands when it came (it
 * came before its board, as FatICS sends them) must match the hands after this move; the
 * moves were legal and are kept, a mismatch is a warning.
 */
static int zh_after(struct s12 *s, struct s12game *g, uint64_t hand_before)
{
	(void)s;
	(void)hand_before;
	if (g->zh != GAMEDB__ZH_CRAZYHOUSE || !g->b1_pending)
		return 0;
	g->b1_pending = 0;
	if (g->cur.hand != g->b1_hand) {
		char want[200], have[200];
		hands_text(g->b1_hand, want, sizeof want);
		hands_text(g->cur.hand, have, sizeof have);
		game_warning(g, "%s: line %llu: game %ld: the <b1> line's holdings (%s) are not those "
			     "the moves give (%s)", s->f->name, (unsigned long long)g->b1_line,
			     g->gameno, want, have);
	}
	return 0;
}

/* Is the kind word of a game one whose moves are chess moves? */
static int chess_kind(const char *kind)
{
	return !kind[0] || strcmp(kind, "blitz") == 0 || strcmp(kind, "lightning") == 0 ||
	       strcmp(kind, "standard") == 0 || strcmp(kind, "untimed") == 0 ||
	       strcmp(kind, "wild/fr") == 0 || strncmp(kind, "wild", 4) == 0 ||
	       strcmp(kind, "crazyhouse") == 0 || strcmp(kind, "bughouse") == 0;
}

/* One <12> board. */
static int on_board(struct s12 *s, const struct s12line *L)
{
	struct gamedb__pos pos, at;
	struct gamedb__move m;
	char fen[128], why[200];
	const char *fwhy = "";
	struct s12game *g;
	long i;
	uint32_t ply = line_ply(L), last;
	uint64_t hand;
	int rc, zh_ok;

	{
		/* Is this board of a crazyhouse or bughouse game (its game in flight, or else the
		 * announcement of its players)? */
		struct s12ann *a;
		i = find_live(s, L->gameno, L->white, L->black);
		zh_ok = i >= 0 ? s->live[i]->zh != 0
			       : (a = find_ann(s, L->white, L->black)) != NULL &&
					 (strcmp(a->kind, "crazyhouse") == 0 || strcmp(a->kind, "bughouse") == 0);
	}
	if (line_pos(L, &pos, fen, sizeof fen, &fwhy, zh_ok) != 0) {
		line_warning(s, "%s: line %llu: game %ld (%s vs. %s): the board is not a playable "
			     "position (%s); line skipped", s->f->name, (unsigned long long)s->line,
			     L->gameno, L->white, L->black, fwhy);
		return 0;
	}
	if (L->relation == -3 || (L->gameno == -1 && L->relation == 0)) {
		/* An isolated position: a game of its own, without moves. */
		g = start_game(s, L, &pos, fen);
		if (!g)
			return -1;
		g->zero = 1;
		return finish(s, s->nlive - 1, "*", NULL);
	}
	i = find_live(s, L->gameno, L->white, L->black);
	if (i >= 0 && (s->live[i]->base != L->base || s->live[i]->inc != L->inc)) {
		/* Same number and players, another time control: another game. */
		if (finish(s, (size_t)i, "*", "the next board of this game number has another "
			   "time control; the end of this game is not in the log") != 0)
			return -1;
		i = -1;
	}
	if (i < 0) {
		size_t k;
		/* A game number reused by other players: its old game ended unseen. */
		for (k = 0; k < s->nlive; k++) {
			if (s->live[k]->gameno == L->gameno) {
				if (finish(s, k, "*", "the game number was given to another game; the "
					   "end of this game is not in the log") != 0)
					return -1;
				break;
			}
		}
		return start_game(s, L, &pos, fen) ? 0 : -1;
	}
	g = s->live[i];
	g->touched = s->line;
	if (g->unsupported)
		return 0;
	last = g->start_ply + (uint32_t)g->n;
	if (ply == last && same_board(&g->cur, L))
		return 0; /* the same board again (sent to both players, or refreshed) */
	if (ply == last + 1 && g->n < S12_MAX_PLIES) {
		at = g->cur;
		if (g->zh == GAMEDB__ZH_BUGHOUSE)
			bug_lend(&at, L->verbose);
		hand = at.hand;
		rc = play_verbose(&at, L->verbose, &m);
		if (rc == -2 || !chess_kind(g->variant)) {
			g->unsupported = rc == -2 ? "a drop in a game that is not crazyhouse or bughouse"
						  : "this variant is not read yet";
			return 0;
		}
		if (rc == 0 && same_board(&at, L)) {
			g->cur = at;
			return zh_after(s, g, hand) || add_ply(s, g, &m, L, hand);
		}
		at = g->cur;
		hand = at.hand;
		if (find_move(&at, L, &m) == 0) {
			game_warning(g, "%s: line %llu: game %ld: the previous move \"%s\" does not give "
				     "the board of the line; the move that does is taken",
				     s->f->name, (unsigned long long)s->line, L->gameno, L->verbose);
			g->cur = at;
			return zh_after(s, g, hand) || add_ply(s, g, &m, L, hand);
		}
		snprintf(why, sizeof why, "line %llu: the move \"%s\" does not lead to the board of "
			 "the line; the game goes on from that board as a new game",
			 (unsigned long long)s->line, L->verbose);
		game_warning(g, "%s: %s", s->f->name, why);
	} else if (ply <= last && ply >= g->start_ply) {
		/* A takeback, examine mode going back, or the same board again. */
		pos_at(g, ply - g->start_ply, &at);
		if (same_board(&at, L)) {
			g->n = ply - g->start_ply;
			g->cur = at;
			return 0;
		}
		if (ply > g->start_ply) {
			/* The board after the takeback is lost: the new move comes at once. */
			pos_at(g, ply - 1 - g->start_ply, &at);
			if (g->zh == GAMEDB__ZH_BUGHOUSE)
				bug_lend(&at, L->verbose);
			hand = at.hand;
			if (play_verbose(&at, L->verbose, &m) == 0 && same_board(&at, L)) {
				g->n = ply - 1 - g->start_ply;
				g->cur = at;
				return zh_after(s, g, hand) || add_ply(s, g, &m, L, hand);
			}
		}
		snprintf(why, sizeof why, "line %llu: a board of ply %u that is not the game's; the "
			 "game goes on from that board as a new game", (unsigned long long)s->line, ply);
		game_warning(g, "%s: %s", s->f->name, why);
	} else if (ply > last + 1) {
		snprintf(why, sizeof why, "line %llu: the boards of plies %u to %u are not in the log; "
			 "the game goes on from the board after them as a new game",
			 (unsigned long long)s->line, last + 1, ply - 1);
	} else if (ply < g->start_ply) {
		snprintf(why, sizeof why, "line %llu: a board of ply %u, before the first one seen; "
			 "the game goes on from it as a new game", (unsigned long long)s->line, ply);
	} else {
		snprintf(why, sizeof why, "line %llu: the game is longer than %u plies; it goes on "
			 "as a new game", (unsigned long long)s->line, S12_MAX_PLIES);
	}
	/* Cut: the game so far ends with "*", a new one starts from this board. */
	{
		struct s12game *ng;
		char welo[8], belo[8], rated[8], variant[24];
		memcpy(welo, g->welo, sizeof welo);
		memcpy(belo, g->belo, sizeof belo);
		memcpy(rated, g->rated, sizeof rated);
		memcpy(variant, g->variant, sizeof variant);
		if (finish(s, (size_t)i, "*", why) != 0)
			return -1;
		ng = start_game(s, L, &pos, fen);
		if (!ng)
			return -1;
		memcpy(ng->welo, welo, sizeof welo);
		memcpy(ng->belo, belo, sizeof belo);
		memcpy(ng->rated, rated, sizeof rated);
		memcpy(ng->variant, variant, sizeof variant);
		if (!ng->zh)
			zh_setup(s, ng);
	}
	return 0;
}

/* Copies a word of at most cap - 1 bytes; 0, or -1 when it is longer or empty. */
static int word(const char **pp, const char *end, char *dst, size_t cap)
{
	const char *p = *pp, *w;

	while (p < end && *p == ' ')
		p++;
	w = p;
	while (p < end && *p != ' ') {
		if ((unsigned char)*p < 0x21 || (unsigned char)*p > 0x7E)
			return -1; /* names, ratings, kinds and results are printable ASCII */
		p++;
	}
	if (p == w || (size_t)(p - w) >= cap)
		return -1;
	memcpy(dst, w, (size_t)(p - w));
	dst[p - w] = 0;
	*pp = p;
	return 0;
}

/* "(1500)" into elo when it is a number; "(++++)", "(----)" give "". 0, or -1. */
static int rating(const char **pp, const char *end, char *elo)
{
	char w[16];
	size_t n, k;

	if (word(pp, end, w, sizeof w) != 0)
		return -1;
	n = strlen(w);
	if (n < 3 || w[0] != '(' || w[n - 1] != ')')
		return -1;
	elo[0] = 0;
	for (k = 1; k < n - 1 && w[k] >= '0' && w[k] <= '9'; k++)
		;
	if (k == n - 1 && n - 2 < 8 && n > 2) {
		memcpy(elo, w + 1, n - 2);
		elo[n - 2] = 0;
	}
	return 0;
}

/* "Creating: A (1500) B (1600) rated blitz 5 0" */
static void on_creating(struct s12 *s, const char *p, const char *end)
{
	struct s12ann a;

	memset(&a, 0, sizeof a);
	if (word(&p, end, a.white, sizeof a.white) || rating(&p, end, a.welo) ||
	    word(&p, end, a.black, sizeof a.black) || rating(&p, end, a.belo) ||
	    word(&p, end, a.rated, sizeof a.rated) || word(&p, end, a.kind, sizeof a.kind))
		return;
	if (strcmp(a.rated, "rated") != 0 && strcmp(a.rated, "unrated") != 0)
		return;
	s->ann[s->ann_next] = a;
	s->ann_next = (s->ann_next + 1) % S12_MAX_ANN;
}

/* "{Game N (A vs. B) reason} result", "{Game N (A vs. B) Creating rated blitz match.}" */
static int on_game_line(struct s12 *s, const char *p, const char *end)
{
	char white[S12_NAME], black[S12_NAME], w[16];
	const char *close;
	long gameno, i;
	size_t n;

	if (word(&p, end, w, sizeof w) || tok_int(w, strlen(w), -1, 1000000000, &gameno))
		return 0;
	while (p < end && *p == ' ')
		p++;
	if (p == end || *p != '(')
		return 0;
	p++;
	if (word(&p, end, white, sizeof white) || word(&p, end, w, sizeof w) || strcmp(w, "vs.") ||
	    word(&p, end, black, sizeof black))
		return 0;
	n = strlen(black);
	if (black[n - 1] != ')')
		return 0;
	black[n - 1] = 0;
	close = memchr(p, '}', (size_t)(end - p));
	if (!close)
		return 0;
	while (p < close && *p == ' ')
		p++;
	i = find_live(s, gameno, white, black);
	if (close - p >= 9 && memcmp(p, "Creating ", 9) == 0) {
		/* "Creating rated blitz match." : the kind for the announcement of these players. */
		struct s12ann *a = find_ann(s, white, black);
		const char *q = p + 9;
		char rated[8], kind[24];
		if (!a) {
			a = &s->ann[s->ann_next];
			memset(a, 0, sizeof *a);
			memcpy(a->white, white, sizeof a->white);
			memcpy(a->black, black, sizeof a->black);
			s->ann_next = (s->ann_next + 1) % S12_MAX_ANN;
		}
		if (!word(&q, close, rated, sizeof rated) && !word(&q, close, kind, sizeof kind) &&
		    (strcmp(rated, "rated") == 0 || strcmp(rated, "unrated") == 0)) {
			memcpy(a->rated, rated, sizeof a->rated);
			memcpy(a->kind, kind, sizeof a->kind);
		}
		if (i >= 0 && finish(s, (size_t)i, "*", "the game number and players began a new "
				     "game; the end of this game is not in the log") != 0)
			return -1;
		return 0;
	}
	if (i >= 0) {
		char res[8], rstore[200];
		struct gamedb__buf reason;
		const char *q = close + 1;
		size_t rl = (size_t)(close - p) < 160 ? (size_t)(close - p) : 160;
		int rc;
		if (word(&q, end, res, sizeof res) != 0 ||
		    (strcmp(res, "1-0") && strcmp(res, "0-1") && strcmp(res, "1/2-1/2") &&
		     strcmp(res, "*")))
			return 0;
		/* The reason is server text: through the text layer, like any text of a format. */
		gamedb__buf_init_fixed(&reason, rstore, sizeof rstore);
		if (gamedb__text_to_utf8(&s->r->text, gamedb__reader_charset(s->r),
					 gamedb__reader_fallback(s->r), p, rl, &reason) == GAMEDB_FAILED) {
			gamedb__buf_free(&reason);
			s->nomem = 1;
			return -1;
		}
		/* At most 199 bytes, cut between letters. */
		if (reason.len >= sizeof s->live[i]->comment) {
			size_t cut = sizeof s->live[i]->comment - 1;
			while (cut > 0 && ((unsigned char)reason.p[cut] & 0xC0) == 0x80)
				cut--;
			reason.p[cut] = 0;
		}
		rc = finish(s, (size_t)i, res, reason.p);
		gamedb__buf_free(&reason);
		return rc;
	}
	return 0;
}

/* "[PNB]" at *pp into colour's part of *hand; 0, or -1. Letters of either case. */
static int b1_holding(const char **pp, const char *end, int colour, uint64_t *hand)
{
	const char *p = *pp;
	struct gamedb__pos t;

	t.hand = *hand;
	while (p < end && *p == ' ')
		p++;
	if (p == end || *p != '[')
		return -1;
	for (p++; p < end && *p != ']'; p++) {
		int pc = piece_of((char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p));
		if (pc <= 0 || GAMEDB__PC_TYPE(pc) > GAMEDB__QUEEN)
			return -1;
		gamedb__hand_add(&t, colour, GAMEDB__PC_TYPE(pc));
	}
	if (p == end)
		return -1;
	*hand = t.hand;
	*pp = p + 1;
	return 0;
}

/*
 * "<b1> game N white [PNB] black [pn]", maybe with "<- BN" (a knight passed to black). The hands
 * of game N's position (the last of its boards): a crazyhouse game checks them against what its
 * moves give, a bughouse game takes them (its men in hand come from the partner's board). Lines
 * of a game that is not crazyhouse or bughouse, or of no game in flight, are ignored.
 */
static int on_b1(struct s12 *s, const char *p, const char *end)
{
	char w[16];
	long gameno;
	uint64_t hand = 0;
	struct s12game *g = NULL;
	size_t i;

	if (word(&p, end, w, sizeof w) || strcmp(w, "game") || word(&p, end, w, sizeof w) ||
	    tok_int(w, strlen(w), -1, 1000000000, &gameno) || word(&p, end, w, sizeof w) ||
	    strcmp(w, "white") || b1_holding(&p, end, 0, &hand) || word(&p, end, w, sizeof w) ||
	    strcmp(w, "black") || b1_holding(&p, end, 1, &hand)) {
		line_warning(s, "%s: line %llu: <b1> line: not \"game N white [..] black [..]\"; "
			     "line skipped", s->f->name, (unsigned long long)s->line);
		return 0;
	}
	for (i = s->nlive; i-- > 0;)
		if (s->live[i]->gameno == gameno) {
			g = s->live[i];
			break;
		}
	if (!g || !g->zh || g->unsupported)
		return 0;
	{
		/* More men in hand than a FEN of the game can hold: not a real line. */
		struct gamedb__pos t = g->cur;
		char probe[8];
		t.hand = hand;
		if (gamedb__pos_to_fen(&t, probe, sizeof probe) >= sizeof g->fen) {
			line_warning(s, "%s: line %llu: <b1> line: more men in hand than a game holds; "
				     "line skipped", s->f->name, (unsigned long long)s->line);
			return 0;
		}
	}
	while (p < end && *p == ' ')
		p++;
	if (end - p >= 2 && p[0] == '<' && p[1] == '-') {
		/* The passed man: colour letter and piece letter; it must be in that hand. */
		struct gamedb__pos t;
		int pc, c;
		p += 2;
		while (p < end && *p == ' ')
			p++;
		t.hand = hand;
		c = end - p >= 2 ? (p[0] == 'W' ? 0 : p[0] == 'B' ? 1 : -1) : -1;
		pc = c >= 0 ? piece_of(p[1]) : -1;
		if (pc <= 0 || GAMEDB__PC_TYPE(pc) > GAMEDB__QUEEN ||
		    !gamedb__hand(&t, c, GAMEDB__PC_TYPE(pc)))
			game_warning(g, "%s: line %llu: game %ld: the <b1> line's passed man \"<- %.*s\" "
				     "is not in the holdings it gives", s->f->name,
				     (unsigned long long)s->line, gameno, (int)(end - p < 2 ? end - p : 2), p);
	}
	g->touched = s->line;
	if (g->n == 0 && g->cur.hand != hand) {
		/* The hands of the first board (observing mid-game): its start position's. */
		g->start.hand = g->cur.hand = hand;
		gamedb__pos_to_fen(&g->start, g->fen, sizeof g->fen);
		g->nonstandard = strcmp(g->fen, ZH_START_FEN) != 0;
		return 0;
	}
	if (g->zh == GAMEDB__ZH_BUGHOUSE) {
		g->cur.hand = hand;
		return 0;
	}
	if (g->cur.hand == hand) {
		g->b1_pending = 0;
		return 0;
	}
	g->b1_pending = 1;
	g->b1_hand = hand;
	g->b1_line = s->line;
	return 0;
}

/* One line of the log (without its line break). */
static int on_line(struct s12 *s, const char *p, size_t n)
{
	const char *end = p + n, *q;

	if (n && end[-1] == '\r')
		end--;
	if ((q = after_tag(p, end, "<12> ")) != NULL) {
		struct s12line L;
		char why[160];
		if (parse_line(q, end, &L, why, sizeof why) != 0) {
			line_warning(s, "%s: line %llu: <12> line: %s; line skipped", s->f->name,
				     (unsigned long long)s->line, why);
			return 0;
		}
		return on_board(s, &L);
	}
	if ((q = after_tag(p, end, "<b1> ")) != NULL)
		return on_b1(s, q, end);
	if ((q = after_tag(p, end, "{Game ")) != NULL)
		return on_game_line(s, q, end);
	if ((q = after_tag(p, end, "Creating: ")) != NULL)
		on_creating(s, q, end);
	return 0;
}

/*
 * Reads lines until a game is ready or the log ends. 0, or -1 on an I/O error (the reader's
 * error set by the I/O layer) or out of memory (s->nomem).
 */
static int pump(struct s12 *s)
{
	while (!s->nready && !s->eof) {
		const uint8_t *v;
		int64_t got = gamedb__file_view(s->f, s->off, S12_VIEW, &v);
		size_t pos = 0;

		if (got < 0)
			return -1;
		if (got == 0) {
			s->eof = 1;
			break;
		}
		while (pos < (size_t)got && !s->nready) {
			const uint8_t *nl = memchr(v + pos, '\n', (size_t)got - pos);
			size_t len;
			if (!nl) {
				if ((size_t)got == S12_VIEW && pos > 0)
					break; /* the line goes on past the view: view again from it */
				if ((size_t)got == S12_VIEW) {
					/* No line break in a whole view: a line longer than S12_MAX_LINE. */
					uint64_t o = s->off + pos + (size_t)got;
					line_warning(s, "%s: line %llu: longer than %u bytes; skipped",
						     s->f->name, (unsigned long long)s->line + 1,
						     S12_MAX_LINE);
					for (;;) {
						int64_t g2 = gamedb__file_view(s->f, o, S12_VIEW, &v);
						const uint8_t *e;
						if (g2 < 0)
							return -1;
						if (g2 == 0) {
							s->off = o;
							s->line++;
							goto next_view;
						}
						e = memchr(v, '\n', (size_t)g2);
						if (e) {
							s->off = o + (size_t)(e - v) + 1;
							s->line++;
							goto next_view;
						}
						o += (size_t)g2;
					}
				}
				len = (size_t)got - pos; /* the last line, without a line break */
			} else {
				len = (size_t)(nl - (v + pos));
			}
			s->line++;
			if (len > S12_MAX_LINE)
				line_warning(s, "%s: line %llu: longer than %u bytes; skipped", s->f->name,
					     (unsigned long long)s->line, S12_MAX_LINE);
			else if (on_line(s, (const char *)v + pos, len) != 0)
				return -1;
			pos += len + (nl ? 1 : 0);
		}
		s->off += pos;
	next_view:;
	}
	if (s->nomem)
		return -1;
	if (!s->nready && s->eof) {
		/* The games still open: out with "*", the oldest first. */
		while (s->nlive)
			if (finish(s, 0, "*", NULL) != 0)
				return -1;
	}
	return 0;
}

/* ---- the format ------------------------------------------------------------------------- */

static int style12_bid(struct gamedb__src *src)
{
	struct gamedb__file *f = src->nfiles ? src->files[0] : NULL;
	const uint8_t *p;
	int64_t got;
	size_t pos = 0;
	int found = 0;

	if (!f)
		return -1;
	got = gamedb__file_view(f, 0, S12_BID_BYTES, &p);
	if (got <= 0)
		return -1;
	while (pos < (size_t)got) {
		const uint8_t *nl = memchr(p + pos, '\n', (size_t)got - pos);
		size_t len = nl ? (size_t)(nl - (p + pos)) : (size_t)got - pos;
		const char *b = (const char *)p + pos, *e = b + len, *q;
		if (len && e[-1] == '\r')
			e--;
		if (len <= S12_MAX_LINE && (q = after_tag(b, e, "<12> ")) != NULL) {
			struct s12line L;
			char why[160];
			if (parse_line(q, e, &L, why, sizeof why) == 0)
				return 90;
			found = 1;
		}
		if (!nl)
			break;
		pos += len + 1;
	}
	return found ? 40 : -1;
}

static void style12_close(void *state)
{
	struct s12 *s = state;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nlive; i++)
		game_free(s->live[i]);
	for (i = 0; i < s->nready; i++)
		game_free(s->ready[s->ready_head + i]);
	free(s->ready);
	game_free(s->out);
	free(s);
}

static int32_t style12_open(struct gamedb_reader *r, void **state)
{
	struct s12 *s = calloc(1, sizeof *s);

	if (!s)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	s->r = r;
	*state = s;
	if (gamedb__src_open(&r->src, NULL, 0, &s->f) != 0) {
		style12_close(s);
		*state = NULL;
		return GAMEDB_FATAL;
	}
	return GAMEDB_OK;
}

static int add_tag(struct gamedb_game *g, const char *name, const char *value)
{
	return gamedb__tags_add(&g->head, name, value, strlen(value), NULL, 0, NULL);
}

static int32_t style12_next_game(void *state, struct gamedb_game *g)
{
	struct s12 *s = state;
	struct s12game *x;
	char buf[64], date[11];
	int32_t rc = GAMEDB_OK;

	game_free(s->out);
	s->out = NULL;
	if (pump(s) != 0) {
		if (s->nomem)
			return gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		char msg[sizeof s->r->errmsg];
		snprintf(msg, sizeof msg, "%s", s->r->errmsg);
		return gamedb__error(s->r, GAMEDB_FATAL, s->r->errcode ? s->r->errcode : GAMEDB_E_IO,
				     "%s", msg);
	}
	if (!s->nready) {
		if (s->nwarn) {
			/* Warnings about lines after the last game: said once, at the end. */
			unsigned more = s->nwarn - 1;
			s->nwarn = 0;
			if (more)
				return gamedb__error(s->r, GAMEDB_END, GAMEDB_E_CORRUPT,
						     "%s (and %u more)", s->warn, more);
			return gamedb__error(s->r, GAMEDB_END, GAMEDB_E_CORRUPT, "%s", s->warn);
		}
		return GAMEDB_END;
	}
	x = s->ready[s->ready_head++];
	if (--s->nready == 0)
		s->ready_head = 0;
	s->out = x;
	g->index = s->index++;
	g->variant = x->zh == GAMEDB__ZH_CRAZYHOUSE ? GAMEDB_VARIANT_CRAZYHOUSE
		     : x->zh == GAMEDB__ZH_BUGHOUSE ? GAMEDB_VARIANT_BUGHOUSE
		     : x->start.chess960 || strcmp(x->variant, "wild/fr") == 0 ? GAMEDB_VARIANT_CHESS960
									        : GAMEDB_VARIANT_CHESS;
	snprintf(g->fen, sizeof g->fen, "%s", x->fen);
	g->start = x->start;
	g->have_start = 1;
	gamedb__pgn_date(date, 0, 0, 0); /* a log line carries no date */
	if (add_tag(g, "Event", "?") || add_tag(g, "Site", "?") || add_tag(g, "Date", date) ||
	    add_tag(g, "Round", "?") || add_tag(g, "White", x->white) ||
	    add_tag(g, "Black", x->black) || add_tag(g, "Result", x->result))
		goto nomem;
	if ((x->welo[0] && add_tag(g, "WhiteElo", x->welo)) ||
	    (x->belo[0] && add_tag(g, "BlackElo", x->belo)))
		goto nomem;
	if (x->base || x->inc)
		snprintf(buf, sizeof buf, "%ld+%ld", x->base * 60, x->inc);
	else
		snprintf(buf, sizeof buf, "-");
	if (!x->zero && add_tag(g, "TimeControl", buf))
		goto nomem;
	if (x->nonstandard && (add_tag(g, "SetUp", "1") || add_tag(g, "FEN", x->fen)))
		goto nomem;
	if (x->variant[0] && !(strcmp(x->variant, "blitz") == 0 ||
			       strcmp(x->variant, "lightning") == 0 ||
			       strcmp(x->variant, "standard") == 0 || strcmp(x->variant, "untimed") == 0)) {
		if (add_tag(g, "Variant", strcmp(x->variant, "wild/fr") == 0 ? "chess960" : x->variant))
			goto nomem;
	} else if (g->variant == GAMEDB_VARIANT_CHESS960 && add_tag(g, "Variant", "chess960")) {
		goto nomem;
	}
	snprintf(buf, sizeof buf, "%ld", x->gameno);
	if (add_tag(g, "GameNo", buf))
		goto nomem;
	if (x->rated[0] && add_tag(g, "Rated", strcmp(x->rated, "rated") == 0 ? "yes" : "no"))
		goto nomem;
	if (x->partner[0] && add_tag(g, "BughousePartner", x->partner))
		goto nomem;
	if (x->nwarn) {
		/* What went wrong in this game's boards (decode_moves says it again). */
		if (x->nwarn > 1)
			gamedb__error(s->r, GAMEDB_WARN, GAMEDB_E_CORRUPT, "%s (and %u more)", x->warn,
				      x->nwarn - 1);
		else
			gamedb__error(s->r, GAMEDB_WARN, GAMEDB_E_CORRUPT, "%s", x->warn);
		rc = GAMEDB_WARN;
	} else if (s->nwarn) {
		unsigned more = s->nwarn - 1;
		if (more)
			gamedb__error(s->r, GAMEDB_WARN, GAMEDB_E_CORRUPT, "%s (and %u more)", s->warn,
				      more);
		else
			gamedb__error(s->r, GAMEDB_WARN, GAMEDB_E_CORRUPT, "%s", s->warn);
		s->nwarn = 0;
		rc = GAMEDB_WARN;
	}
	return rc;
nomem:
	return gamedb__error(s->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
}

/* "%clk 0:04:57.338" / "%emt 0:00:02" of t milliseconds (negative clocks keep their sign). */
static int clock_text(struct gamedb__movebuf *mb, const char *cmd, int64_t t, int ms)
{
	char buf[64];
	const char *sign = t < 0 ? "-" : "";
	uint64_t a = t < 0 ? (uint64_t)(-(t + 1)) + 1 : (uint64_t)t, sec = a / 1000;
	int n;

	if (ms)
		n = snprintf(buf, sizeof buf, "%%%s %s%llu:%02u:%02u.%03u", cmd, sign,
			     (unsigned long long)(sec / 3600), (unsigned)(sec / 60 % 60),
			     (unsigned)(sec % 60), (unsigned)(a % 1000));
	else
		n = snprintf(buf, sizeof buf, "%%%s %s%llu:%02u:%02u", cmd, sign,
			     (unsigned long long)(sec / 3600), (unsigned)(sec / 60 % 60),
			     (unsigned)(sec % 60));
	return gamedb__mb_comment(mb, strcmp(cmd, "clk") == 0 ? GAMEDB_EVENT_CLOCK
							       : GAMEDB_EVENT_COMMAND,
				  buf, (size_t)n);
}

static int32_t style12_decode(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb)
{
	struct s12 *s = state;
	struct s12game *x = s->out;
	struct gamedb__pos pos;
	size_t i, sanlen = 0;
	char san[GAMEDB__SAN_MAX] = { 0 };

	if (!x || g->index + 1 != s->index) {
		gamedb__game_seterr(g, "%s: game %llu: its moves are gone (a style 12 log is read as "
				    "a stream: decode a game before reading the next)",
				    s->f->name, (unsigned long long)g->index + 1);
		return GAMEDB_FAILED;
	}
	if (x->unsupported) {
		gamedb__game_seterr(g, "%s: line %llu: game %ld (%s vs. %s): %s%s%s", s->f->name,
				    (unsigned long long)x->first_line, x->gameno, x->white, x->black,
				    x->unsupported, x->variant[0] ? ": " : "", x->variant);
		return GAMEDB_FAILED;
	}
	pos = x->start;
	for (i = 0; i < x->n; i++) {
		struct gamedb__move m = x->plies[i].m;
		if (x->zh == GAMEDB__ZH_BUGHOUSE) /* the hands the partner's board gave */
			pos.hand = x->plies[i].hand;
		const uint32_t fullmove = pos.fullmove;
		const int colour = pos.stm;
		/* Checked again by the engine: the decoder's output is what the engine plays. */
		if (gamedb__move_play_san(&pos, &m, san, &sanlen, -1) != 0) {
			gamedb__game_seterr(g, "%s: game %ld: ply %zu is not legal", s->f->name,
					    x->gameno, i + 1);
			return GAMEDB_FAILED;
		}
		if (gamedb__mb_move_san(mb, &m, fullmove, colour, san, sanlen) != 0 ||
		    clock_text(mb, "clk", x->plies[i].clock, x->plies[i].ms) != 0 ||
		    clock_text(mb, "emt", x->plies[i].taken, x->plies[i].ms) != 0)
			goto nomem;
	}
	if (x->comment[0] &&
	    gamedb__mb_comment(mb, x->n ? GAMEDB_EVENT_COMMENT_AFTER : GAMEDB_EVENT_COMMENT_BEFORE,
			       x->comment, strlen(x->comment)) != 0)
		goto nomem;
	if (x->nwarn) {
		if (x->nwarn > 1)
			gamedb__game_seterr(g, "%s (and %u more)", x->warn, x->nwarn - 1);
		else
			gamedb__game_seterr(g, "%s", x->warn);
		return GAMEDB_WARN;
	}
	return GAMEDB_OK;
nomem:
	gamedb__game_seterr(g, "%s: out of memory decoding the moves", s->f->name);
	return GAMEDB_FAILED;
}

static const char *const style12_extensions[] = { ".log", ".txt", NULL };

const struct gamedb__format gamedb__format_style12 = {
	.abi = GAMEDB__FORMAT_ABI_1,
	.name = "style12",
	.description = "FICS/ICC style 12 session logs (games rebuilt from <12> board lines)",
	.extensions = style12_extensions,
	.opens = 2,
	.options = NULL,
	.caps = 0,
	.default_charset = "UTF-8",
	.default_fallback = "CP1252",
	.bid = style12_bid,
	.open = style12_open,
	.set_option = NULL,
	.next_game = style12_next_game,
	.seek_game = NULL,
	.game_count = NULL,
	.load_tags = NULL,
	.tag_surely_absent = NULL,
	.decode_moves = style12_decode,
	.handle = NULL,
	.close = style12_close,
};
