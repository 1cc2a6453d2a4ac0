/*
 * libgamedb - FICS/ICC style 12: the one reading of a `<12>` and a `<b1>` line (formats/style12.h),
 * which the log reader and the live session (format-style12.c) share with the live line API
 * below (gamedb_style12_line_*: one line into a snapshot with getters, for clients that parse
 * the lines as they come). doc/formats/style12.md has the fields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/toolkit.h"
#include "formats/style12.h"

/* ---- one <12> line ---------------------------------------------------------------------- */

static const char *const field_names[GAMEDB__S12_FIELDS] = {
	"rank 8", "rank 7", "rank 6", "rank 5", "rank 4", "rank 3", "rank 2", "rank 1",
	"side to move", "double-push file", "white short castling", "white long castling",
	"black short castling", "black long castling", "reversible-move count", "game number",
	"white's name", "black's name", "relation", "initial time", "increment",
	"white's material", "black's material", "white's clock", "black's clock", "move number",
	"previous move", "time taken", "previous move (SAN)", "flip",
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

int gamedb__s12_int(const char *s, size_t n, long lo, long hi, long *out)
{
	int64_t v;

	if (tok_int64(s, n, lo, hi, &v) != 0)
		return -1;
	*out = (long)v;
	return 0;
}

int gamedb__s12_piece(char c)
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
const char *gamedb__s12_after_tag(const char *p, const char *end, const char *tag)
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
 * A field into dst of cap bytes; 1 when it does not fit or holds a byte it may not. Moves and
 * times are printable ASCII (text = 0); a name (text = 1) is any bytes but blanks and control
 * characters: FICS and ICC handles are ASCII, but other servers' logs, edited logs and test
 * logs hold names in UTF-8 or another charset, which the caller reads through the text layer.
 */
static int copy_word(char *dst, size_t cap, const char *tok, size_t len, int text)
{
	size_t k;
	if (len >= cap)
		return 1;
	for (k = 0; k < len; k++) {
		unsigned char c = (unsigned char)tok[k];
		if (c < 0x21 || c == 0x7F || (c > 0x7E && !text))
			return 1;
	}
	memcpy(dst, tok, len);
	dst[len] = 0;
	return 0;
}

/* formats/style12.h; a field is named by its number in the help's count, "<12>" being 1. */
int gamedb__s12_parse(const char *p, const char *end, struct gamedb__s12line *L, char *why,
		      size_t cap)
{
	const char *tok[GAMEDB__S12_FIELDS];
	size_t len[GAMEDB__S12_FIELDS];
	size_t n = 0, i;
	long v;

	while (n < GAMEDB__S12_FIELDS) {
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
	if (n < GAMEDB__S12_FIELDS) {
		snprintf(why, cap, "field %zu (%s) is missing: the line has %zu fields where style 12 "
			 "has %d", n + 2, field_names[n], n + 1, GAMEDB__S12_FIELDS + 1);
		return -1;
	}
	for (i = 0; i < 8; i++) {
		size_t f;
		if (len[i] != 8)
			goto bad;
		for (f = 0; f < 8; f++) {
			int pc = gamedb__s12_piece(tok[i][f]);
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
	if (gamedb__s12_int(tok[i], len[i], -1, 7, &v))
		goto bad;
	L->ep = (int)v;
	for (i = 10; i < 14; i++) {
		if (gamedb__s12_int(tok[i], len[i], 0, 1, &v))
			goto bad;
		L->castle[i - 10] = (int)v;
	}
	i = 14;
	if (gamedb__s12_int(tok[i], len[i], 0, 100000, &L->halfmove))
		goto bad;
	i = 15;
	if (gamedb__s12_int(tok[i], len[i], -1, 1000000000, &L->gameno))
		goto bad;
	for (i = 16; i < 18; i++)
		if (copy_word(i == 16 ? L->white : L->black, GAMEDB__S12_NAME, tok[i], len[i], 1))
			goto bad;
	i = 18;
	if (gamedb__s12_int(tok[i], len[i], -4, 2, &v))
		goto bad;
	L->relation = (int)v;
	i = 19;
	if (gamedb__s12_int(tok[i], len[i], 0, 100000, &L->base))
		goto bad;
	i = 20;
	if (gamedb__s12_int(tok[i], len[i], 0, 100000, &L->inc))
		goto bad;
	for (i = 21; i < 23; i++)
		if (gamedb__s12_int(tok[i], len[i], -1000, 1000, i == 21 ? &L->wmat : &L->bmat))
			goto bad;
	i = 27;
	if (len[i] >= sizeof L->taken_text || parse_taken(tok[i], len[i], &L->taken, &L->ms))
		goto bad;
	memcpy(L->taken_text, tok[i], len[i]);
	L->taken_text[len[i]] = 0;
	for (i = 23; i < 25; i++) {
		int64_t t;
		if (tok_int64(tok[i], len[i], -INT64_C(999999999999), INT64_C(999999999999), &t))
			goto bad;
		*(i == 23 ? &L->wclock : &L->bclock) = L->ms ? t : t * 1000;
	}
	i = 25;
	if (gamedb__s12_int(tok[i], len[i], 1, (long)GAMEDB__MOVENO_MAX, &L->moveno))
		goto bad;
	for (i = 26; i < 29; i += 2)
		if (i == 26 ? copy_word(L->verbose, sizeof L->verbose, tok[i], len[i], 0)
			    : copy_word(L->san, sizeof L->san, tok[i], len[i], 0))
			goto bad;
	i = 29;
	if (gamedb__s12_int(tok[i], len[i], 0, 1, &v))
		goto bad;
	L->flip = (int)v;
	return 0;
bad: {
		/* The field as it is, its bytes other than printable ASCII as '?' (messages are UTF-8). */
		char shown[25];
		size_t k, n2 = len[i] > 24 ? 24 : len[i];
		for (k = 0; k < n2; k++)
			shown[k] = (unsigned char)tok[i][k] >= 0x20 && (unsigned char)tok[i][k] < 0x7F
					   ? tok[i][k] : '?';
		shown[n2] = 0;
		snprintf(why, cap, "field %zu (%s) \"%s\" is not valid", i + 2, field_names[i], shown);
	}
	return -1;
}

/*
 * The position of a line (formats/style12.h): the FEN it gives, parsed by the board engine (the
 * en-passant square when an enemy pawn stands beside the pawn that moved two squares, as the
 * engine itself records it).
 */
int gamedb__s12_pos(const struct gamedb__s12line *L, struct gamedb__pos *pos, char *fen,
		    size_t cap, const char **why, int zh_ok)
{
	size_t o = gamedb__fen_placement(L->sq, fen);

	fen[o++] = ' ';
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
		gamedb__pos_to_fen(pos, fen, cap);
		return 1;
	}
	gamedb__pos_to_fen(pos, fen, cap);
	return 0;
}

/* The hands as a <b1> line writes them: "white [PN] black [Q]" (at most 2 * 5 * 63 men). */
void gamedb__s12_hands_text(uint64_t hand, char *buf, size_t cap)
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

/* Copies a word of at most cap - 1 bytes; 0, or -1 when it is longer or empty. */
int gamedb__s12_word(const char **pp, const char *end, char *dst, size_t cap)
{
	const char *p = *pp, *w;

	while (p < end && *p == ' ')
		p++;
	w = p;
	while (p < end && *p != ' ') {
		/* No control characters; other bytes are names' (as in a <12> line's names). */
		if ((unsigned char)*p < 0x21 || (unsigned char)*p == 0x7F)
			return -1;
		p++;
	}
	if (p == w || (size_t)(p - w) >= cap)
		return -1;
	memcpy(dst, w, (size_t)(p - w));
	dst[p - w] = 0;
	*pp = p;
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
		int pc = gamedb__s12_piece((char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p));
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

/* formats/style12.h */
int gamedb__s12_parse_b1(const char *p, const char *end, struct gamedb__s12b1 *b, char *why,
			 size_t cap)
{
	char w[16];

	memset(b, 0, sizeof *b);
	b->passed_colour = -1;
	if (gamedb__s12_word(&p, end, w, sizeof w) || strcmp(w, "game") ||
	    gamedb__s12_word(&p, end, w, sizeof w) ||
	    gamedb__s12_int(w, strlen(w), -1, 1000000000, &b->gameno) ||
	    gamedb__s12_word(&p, end, w, sizeof w) || strcmp(w, "white") ||
	    b1_holding(&p, end, 0, &b->hand) || gamedb__s12_word(&p, end, w, sizeof w) ||
	    strcmp(w, "black") || b1_holding(&p, end, 1, &b->hand)) {
		snprintf(why, cap, "not \"game N white [..] black [..]\"");
		return -1;
	}
	while (p < end && *p == ' ')
		p++;
	if (end - p >= 2 && p[0] == '<' && p[1] == '-') {
		/* The passed man: colour letter and piece letter. */
		size_t k;
		int pc;
		p += 2;
		while (p < end && *p == ' ')
			p++;
		b->has_passed = 1;
		for (k = 0; k < 2 && p + k < end; k++)
			b->passed[k] = (unsigned char)p[k] >= 0x21 && (unsigned char)p[k] < 0x7F ? p[k] : '?';
		b->passed[k] = 0;
		if (k == 2 && (p[0] == 'W' || p[0] == 'B')) {
			pc = gamedb__s12_piece(p[1]);
			if (pc > 0 && GAMEDB__PC_TYPE(pc) <= GAMEDB__QUEEN) {
				b->passed_colour = p[0] == 'B';
				b->passed_type = GAMEDB__PC_TYPE(pc);
			}
		}
	}
	return 0;
}

/* formats/style12.h */
int gamedb__s12_verbose(const char *v, struct gamedb__move *m)
{
	size_t n = strlen(v);

	if (strcmp(v, "none") == 0)
		return GAMEDB__S12_MV_NONE;
	if (strcmp(v, "o-o") == 0 || strcmp(v, "O-O") == 0)
		return GAMEDB__S12_MV_SHORT;
	if (strcmp(v, "o-o-o") == 0 || strcmp(v, "O-O-O") == 0)
		return GAMEDB__S12_MV_LONG;
	if (n < 7 || v[1] != '/' || v[4] != '-' || v[5] < 'a' || v[5] > 'h' || v[6] < '1' ||
	    v[6] > '8')
		return -1;
	memset(m, 0, sizeof *m);
	m->rook_from = GAMEDB__NO_SQ;
	m->to = (uint8_t)((v[6] - '1') * 8 + (v[5] - 'a'));
	if (v[2] == '@') {
		int pc = gamedb__s12_piece(v[0]);
		if (n != 7 || v[3] != '@' || pc <= 0 || GAMEDB__PC_TYPE(pc) > GAMEDB__QUEEN)
			return -1;
		m->from = GAMEDB__NO_SQ;
		m->piece = (uint8_t)GAMEDB__PC_TYPE(pc);
		m->flags = GAMEDB__MF_DROP;
		return GAMEDB__S12_MV_DROP;
	}
	if (v[2] < 'a' || v[2] > 'h' || v[3] < '1' || v[3] > '8')
		return -1;
	m->from = (uint8_t)((v[3] - '1') * 8 + (v[2] - 'a'));
	if (n == 9 && v[7] == '=') {
		int pc = gamedb__s12_piece((char)(v[8] >= 'a' && v[8] <= 'z' ? v[8] - 'a' + 'A' : v[8]));
		int t = pc > 0 ? GAMEDB__PC_TYPE(pc) : 0;
		if (t < GAMEDB__KNIGHT || t > GAMEDB__QUEEN)
			return -1;
		m->promo = (uint8_t)t;
	} else if (n != 7) {
		return -1;
	}
	return GAMEDB__S12_MV_PLAIN;
}

/* ---- the live line API ------------------------------------------------------------------ */

#define S12_LINE_MAGIC 0x5331324Cu /* "S12L" */

struct gamedb_style12_line {
	uint32_t magic;
	int32_t kind;                /* enum gamedb_style12_kind */
	struct gamedb__s12line L;    /* BOARD */
	struct gamedb__s12b1 b1;     /* HOLDINGS */
	int has_hand;                /* BOARD given holdings (set_holdings) */
	uint64_t hand;               /* HOLDINGS, or BOARD with has_hand */
	int zh;                      /* BOARD read with hands (more men than chess allows) */
	struct gamedb__pos pos;      /* BOARD */
	char fen[768];               /* BOARD: a FEN with two full hands (630 men) fits */
	char uci[8];
	char hold[2][GAMEDB__HAND_MAX * 5 + 1];
	char name[2][GAMEDB__S12_NAME_UTF8]; /* BOARD: the names in UTF-8 */
	struct gamedb__text text;    /* their conversion (UTF-8, else CP1252, as the reader's
					default) */
	char errmsg[2 * GAMEDB__S12_NAME_UTF8 + 100];
};

static int line_ok(const struct gamedb_style12_line *l)
{
	return l && l->magic == S12_LINE_MAGIC;
}

GAMEDB_EXPORT struct gamedb_style12_line *gamedb_style12_line_new(void)
{
	struct gamedb_style12_line *l = calloc(1, sizeof *l);

	if (l)
		l->magic = S12_LINE_MAGIC;
	return l;
}

GAMEDB_EXPORT void gamedb_style12_line_free(struct gamedb_style12_line *l)
{
	if (!line_ok(l))
		return;
	gamedb__text_close(&l->text);
	l->magic = 0;
	free(l);
}

/* The holdings texts of l->hand: "PPN" per colour, upper case. */
static void line_holdings(struct gamedb_style12_line *l)
{
	static const char letters[] = "PNBRQ";
	struct gamedb__pos t;
	int c, type, k;

	t.hand = l->hand;
	for (c = 0; c < 2; c++) {
		size_t o = 0;
		for (type = GAMEDB__PAWN; type <= GAMEDB__QUEEN; type++)
			for (k = gamedb__hand(&t, c, type); k > 0; k--)
				l->hold[c][o++] = letters[type - 1];
		l->hold[c][o] = 0;
	}
}

/*
 * The names of a board in UTF-8, read as the style12 reader reads them by default: UTF-8, the
 * bytes that are not read as CP1252 (the fallback). 0; 1 when a name needed the fallback; -1
 * out of memory.
 */
static int line_names(struct gamedb_style12_line *l)
{
	const char *raw[2] = { l->L.white, l->L.black };
	int c, fell = 0;

	for (c = 0; c < 2; c++) {
		struct gamedb__buf b;
		uint64_t before = l->text.fallback_texts;
		size_t n = strlen(raw[c]);
		if (gamedb__text_is_plain(raw[c], n)) {
			memcpy(l->name[c], raw[c], n + 1);
			continue;
		}
		gamedb__buf_init_fixed(&b, l->name[c], sizeof l->name[c]);
		if (gamedb__text_to_utf8(&l->text, "UTF-8", "CP1252", raw[c], n, &b) == GAMEDB_FAILED) {
			gamedb__buf_free(&b);
			return -1;
		}
		if (b.p != l->name[c]) /* cannot be longer (GAMEDB__S12_NAME_UTF8), but cut if it is */
			snprintf(l->name[c], sizeof l->name[c], "%s", b.p);
		gamedb__buf_free(&b);
		fell |= l->text.fallback_texts != before;
	}
	return fell;
}

/* The FEN of a board, with its hands when it has any. */
static void line_fen(struct gamedb_style12_line *l)
{
	struct gamedb__pos p = l->pos;

	if (l->has_hand) {
		p.zh = GAMEDB__ZH_CRAZYHOUSE;
		p.hand = l->hand;
	}
	gamedb__pos_to_fen(&p, l->fen, sizeof l->fen);
}

GAMEDB_EXPORT int32_t gamedb_style12_line_parse(struct gamedb_style12_line *l, const char *text,
						size_t len)
{
	const char *end, *q, *nl;
	char why[160];

	if (!line_ok(l))
		return GAMEDB_FAILED;
	l->kind = GAMEDB_STYLE12_NONE;
	l->has_hand = l->zh = 0;
	l->hand = 0;
	l->errmsg[0] = 0;
	if (!text && len) {
		snprintf(l->errmsg, sizeof l->errmsg, "gamedb_style12_line_parse: text is NULL");
		return GAMEDB_FAILED;
	}
	if (!text)
		text = "";
	nl = memchr(text, '\n', len);
	end = nl ? nl : text + len;
	if (end > text && end[-1] == '\r')
		end--;
	q = gamedb__s12_after_tag(text, end, "<12> ");
	if (!q && (q = gamedb__s12_after_tag(text, end, "<12>")) != NULL && q != end &&
	    *q != '\t')
		q = NULL; /* "<12>" alone (every field missing) is still a <12> line */
	if (q) {
		const char *fwhy = "";
		int rc;
		memset(&l->L, 0, sizeof l->L);
		if (gamedb__s12_parse(q, end, &l->L, why, sizeof why) != 0) {
			snprintf(l->errmsg, sizeof l->errmsg, "<12> line: %s", why);
			return GAMEDB_FAILED;
		}
		rc = gamedb__s12_pos(&l->L, &l->pos, l->fen, sizeof l->fen, &fwhy, 1);
		if (rc < 0) {
			snprintf(l->errmsg, sizeof l->errmsg,
				 "<12> line: the board is not a playable position (%s)", fwhy);
			return GAMEDB_FAILED;
		}
		l->zh = rc == 1;
		if (l->zh) /* its hands, empty until set_holdings(), are written ("[]") */
			l->has_hand = 1;
		line_fen(l);
		line_holdings(l);
		{
			struct gamedb__move m;
			int k = gamedb__s12_verbose(l->L.verbose, &m), mover = !l->L.stm;
			l->uci[0] = 0;
			if (k == GAMEDB__S12_MV_PLAIN || k == GAMEDB__S12_MV_DROP)
				gamedb__move_uci(&m, l->uci);
			else if (k == GAMEDB__S12_MV_SHORT || k == GAMEDB__S12_MV_LONG)
				snprintf(l->uci, sizeof l->uci, "e%c%c%c", mover ? '8' : '1',
					 k == GAMEDB__S12_MV_SHORT ? 'g' : 'c', mover ? '8' : '1');
		}
		l->kind = GAMEDB_STYLE12_BOARD;
		rc = line_names(l);
		if (rc < 0) {
			l->kind = GAMEDB_STYLE12_NONE;
			snprintf(l->errmsg, sizeof l->errmsg, "out of memory");
			return GAMEDB_FAILED;
		}
		if (rc > 0) {
			snprintf(l->errmsg, sizeof l->errmsg, "<12> line: a name is not UTF-8, read as "
				 "CP1252 (the fallback charset): \"%s\" - \"%s\"", l->name[0],
				 l->name[1]);
			return GAMEDB_WARN;
		}
		return GAMEDB_OK;
	}
	if ((q = gamedb__s12_after_tag(text, end, "<b1> ")) != NULL) {
		if (gamedb__s12_parse_b1(q, end, &l->b1, why, sizeof why) != 0) {
			snprintf(l->errmsg, sizeof l->errmsg, "<b1> line: %s", why);
			return GAMEDB_FAILED;
		}
		l->hand = l->b1.hand;
		line_holdings(l);
		l->kind = GAMEDB_STYLE12_HOLDINGS;
		return GAMEDB_OK;
	}
	snprintf(l->errmsg, sizeof l->errmsg, "not a <12> or <b1> line");
	return GAMEDB_FAILED;
}

GAMEDB_EXPORT int32_t gamedb_style12_line_get_kind(const struct gamedb_style12_line *l)
{
	return line_ok(l) ? l->kind : GAMEDB_STYLE12_NONE;
}

GAMEDB_EXPORT const char *gamedb_style12_line_errmsg(const struct gamedb_style12_line *l)
{
	return line_ok(l) ? l->errmsg : "invalid line handle";
}

GAMEDB_EXPORT const char *gamedb_style12_line_get_fen(const struct gamedb_style12_line *l)
{
	return line_ok(l) && l->kind == GAMEDB_STYLE12_BOARD ? l->fen : NULL;
}

GAMEDB_EXPORT int32_t gamedb_style12_line_get_int(const struct gamedb_style12_line *l,
						  int32_t field, int64_t *out)
{
	const struct gamedb__s12line *L;
	int64_t v;

	if (!line_ok(l) || !out || l->kind == GAMEDB_STYLE12_NONE)
		return GAMEDB_FAILED;
	if (l->kind == GAMEDB_STYLE12_HOLDINGS) {
		if (field != GAMEDB_STYLE12_GAME_NUMBER)
			return GAMEDB_FAILED;
		*out = l->b1.gameno;
		return GAMEDB_OK;
	}
	L = &l->L;
	switch (field) {
	case GAMEDB_STYLE12_SIDE_TO_MOVE: v = L->stm; break;
	case GAMEDB_STYLE12_GAME_NUMBER: v = L->gameno; break;
	case GAMEDB_STYLE12_RELATION: v = L->relation; break;
	case GAMEDB_STYLE12_BASE_MINUTES: v = L->base; break;
	case GAMEDB_STYLE12_INCREMENT_SECONDS: v = L->inc; break;
	case GAMEDB_STYLE12_WHITE_CLOCK_MS: v = L->wclock; break;
	case GAMEDB_STYLE12_BLACK_CLOCK_MS: v = L->bclock; break;
	case GAMEDB_STYLE12_MOVE_NUMBER: v = L->moveno; break;
	case GAMEDB_STYLE12_FLIP: v = L->flip; break;
	case GAMEDB_STYLE12_TIME_TAKEN_MS: v = L->taken; break;
	case GAMEDB_STYLE12_HALFMOVE_CLOCK: v = L->halfmove; break;
	case GAMEDB_STYLE12_DOUBLE_PUSH_FILE: v = L->ep; break;
	case GAMEDB_STYLE12_WHITE_MATERIAL: v = L->wmat; break;
	case GAMEDB_STYLE12_BLACK_MATERIAL: v = L->bmat; break;
	case GAMEDB_STYLE12_CLOCKS_IN_MS: v = L->ms; break;
	case GAMEDB_STYLE12_CASTLING:
		v = L->castle[0] | L->castle[1] << 1 | L->castle[2] << 2 | L->castle[3] << 3;
		break;
	case GAMEDB_STYLE12_PLY: v = gamedb__s12_ply(L); break;
	default: return GAMEDB_FAILED;
	}
	*out = v;
	return GAMEDB_OK;
}

GAMEDB_EXPORT const char *gamedb_style12_line_get_text(const struct gamedb_style12_line *l,
						       int32_t field)
{
	if (!line_ok(l) || l->kind == GAMEDB_STYLE12_NONE)
		return NULL;
	switch (field) {
	case GAMEDB_STYLE12_WHITE_HOLDINGS:
	case GAMEDB_STYLE12_BLACK_HOLDINGS:
		if (l->kind == GAMEDB_STYLE12_BOARD && !l->has_hand)
			return NULL;
		return l->hold[field == GAMEDB_STYLE12_BLACK_HOLDINGS];
	case GAMEDB_STYLE12_PASSED:
		return l->kind == GAMEDB_STYLE12_HOLDINGS ? l->b1.passed : NULL;
	default:
		break;
	}
	if (l->kind != GAMEDB_STYLE12_BOARD)
		return NULL;
	switch (field) {
	case GAMEDB_STYLE12_WHITE_NAME: return l->name[0];
	case GAMEDB_STYLE12_BLACK_NAME: return l->name[1];
	case GAMEDB_STYLE12_MOVE_VERBOSE: return l->L.verbose;
	case GAMEDB_STYLE12_MOVE_SAN: return l->L.san;
	case GAMEDB_STYLE12_MOVE_UCI: return l->uci[0] ? l->uci : NULL;
	case GAMEDB_STYLE12_TIME_TAKEN: return l->L.taken_text;
	default: return NULL;
	}
}

GAMEDB_EXPORT int32_t gamedb_style12_line_set_holdings(struct gamedb_style12_line *board,
						       const struct gamedb_style12_line *b1)
{
	if (!line_ok(board) || !line_ok(b1) || board->kind != GAMEDB_STYLE12_BOARD ||
	    b1->kind != GAMEDB_STYLE12_HOLDINGS || b1->b1.gameno != board->L.gameno)
		return GAMEDB_FAILED;
	board->has_hand = 1;
	board->hand = b1->hand;
	line_fen(board);
	line_holdings(board);
	return GAMEDB_OK;
}
