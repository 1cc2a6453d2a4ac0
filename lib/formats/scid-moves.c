/*
 * libgamedb - SCID: the move decoder of a game record (.sg4, .sg5): moves, NAGs, comments
 * and variations, each move checked by the board engine. Layout facts in doc/formats/scid.md;
 * the record's tags and start position are read by format-scid.c first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/scid.h"

/* A move's NAG list, normalised as Scid normalises it when it loads a game. */
struct nagset {
	uint8_t v[8];
	int n;
};

/* Adds a NAG; -1 when the move would have more than 7. */
static int nag_add(struct nagset *ns, uint8_t nag)
{
	int i, lo = 0, hi = 0;

	if (nag == 0)
		return 0;
	if (nag >= 1 && nag <= 6)
		lo = 1, hi = 6; /* move assessments replace each other, and go first */
	else if (nag >= 10 && nag <= 21)
		lo = 10, hi = 21; /* position assessments replace each other */
	for (i = 0; lo && i < ns->n; i++) {
		if (ns->v[i] >= lo && ns->v[i] <= hi) {
			ns->v[i] = nag;
			return 0;
		}
	}
	if (ns->n == 7)
		return -1;
	if (lo == 1) {
		memmove(ns->v + 1, ns->v, (size_t)ns->n);
		ns->v[0] = nag;
	} else {
		ns->v[ns->n] = nag;
	}
	ns->n++;
	return 0;
}

static int nag_flush(struct nagset *ns, struct gamedb__movebuf *mb)
{
	int i;

	for (i = 0; i < ns->n; i++)
		if (gamedb__mb_event(mb, GAMEDB_EVENT_NAG, ns->v[i]) != 0)
			return -1;
	ns->n = 0;
	return 0;
}

static const int king_delta[9] = { 0, -9, -8, -7, -1, 1, 7, 8, 9 };
static const int knight_delta[9] = { 0, -17, -15, -10, -6, 6, 10, 15, 17 };

static int sq_file(int sq) { return sq & 7; }
static int sq_rank(int sq) { return sq >> 3; }

/* scid_target(): the code is the king's null move or castling; a queen's diagonal. */
enum { SCID_TO_SPECIAL = 64, SCID_TO_DIAGONAL = 65 };

/*
 * Where the code of a move byte takes a man of the given type from a square, as the side to
 * move: the square (for a pawn whatever its promotion), SCID_TO_SPECIAL, SCID_TO_DIAGONAL
 * (the square is in the next byte), or -1 with the reason in *why. The one place that knows
 * the codes: decode_move() and the table of struct scid (scid_targets()) both ask it.
 */
static int scid_target(int type, int stm, int from, int code, const char **why)
{
	int to;

	switch (type) {
	case GAMEDB__KING:
		if (code == 0 || code == 9 || code == 10)
			return SCID_TO_SPECIAL;
		if (code > 8) {
			*why = "bad king move code";
			return -1;
		}
		to = from + king_delta[code];
		if (to < 0 || to > 63 || abs(sq_file(to) - sq_file(from)) > 1) {
			*why = "king moves off the board";
			return -1;
		}
		return to;
	case GAMEDB__QUEEN:
		if (code >= 8)
			return (code - 8) * 8 + sq_file(from);
		if (code != sq_file(from))
			return sq_rank(from) * 8 + code;
		return SCID_TO_DIAGONAL;
	case GAMEDB__ROOK:
		return code >= 8 ? (code - 8) * 8 + sq_file(from) : sq_rank(from) * 8 + code;
	case GAMEDB__BISHOP: {
		int d = (code & 7) - sq_file(from);
		to = (code & 8) ? from - 7 * d : from + 9 * d;
		if (to < 0 || to > 63) {
			*why = "bishop moves off the board";
			return -1;
		}
		return to;
	}
	case GAMEDB__KNIGHT:
		if (code == 0 || code > 8) {
			*why = "bad knight move code";
			return -1;
		}
		to = from + knight_delta[code];
		if (to < 0 || to > 63 || abs(sq_file(to) - sq_file(from)) > 2) {
			*why = "knight moves off the board";
			return -1;
		}
		return to;
	case GAMEDB__PAWN: {
		static const int dir[3] = { 7, 8, 9 };
		int d = code == 15 ? 16 : dir[code % 3];
		to = stm == 0 ? from + d : from - d;
		if (to < 0 || to > 63 || abs(sq_file(to) - sq_file(from)) > 1) {
			*why = "pawn moves off the board";
			return -1;
		}
		return to;
	}
	default:
		*why = "no piece on the square of that piece number";
		return -1;
	}
}

/* A pawn's promotion by its code (code / 3; 15, the double step, has none). */
static int scid_promo(int code)
{
	static const uint8_t promo[5] = { 0, GAMEDB__QUEEN, GAMEDB__ROOK, GAMEDB__BISHOP,
					  GAMEDB__KNIGHT };
	return code == 15 ? 0 : promo[code / 3];
}

/*
 * Fills the table of struct scid: for the side to move, the man's type, its square and the
 * code, the square the usual move goes to (0-63), SCID_TO_DIAGONAL for a queen's diagonal,
 * or 0xFF for what decode_move() handles: a promotion, the king's null move and castling,
 * and every code that is wrong.
 */
static void scid_targets(struct scid *s)
{
	int stm, type, from, code;
	const char *why;

	for (stm = 0; stm < 2; stm++)
		for (type = 0; type < 8; type++)
			for (from = 0; from < 64; from++)
				for (code = 0; code < 16; code++) {
					int to = scid_target(type, stm, from, code, &why);
					if (type == GAMEDB__PAWN && scid_promo(code))
						to = -1;
					s->target[stm][type][from][code] =
						(uint8_t)(to >= 0 && to < 64 ? to
							  : to == SCID_TO_DIAGONAL ? to : 0xFF);
				}
	s->have_target = 1;
}

/*
 * Decodes one move byte (and a second one for queen diagonals) into from/to/promo, or a full
 * castling or null move. 0 ok, -1 invalid. Legality is left to gamedb__move_play().
 */
static int decode_move(struct gamedb__cur *rc, const struct scid_level *lv, uint8_t b,
		       struct gamedb__move *m, const char **why)
{
	const struct gamedb__pos *pos = &lv->pos;
	int stm = pos->stm, slot = b >> 4, code = b & 15, from, to, type;

	memset(m, 0, sizeof *m);
	m->rook_from = GAMEDB__NO_SQ;
	if (slot >= lv->slots.count[stm] || lv->slots.sq[stm][slot] == GAMEDB__NO_SQ) {
		*why = "the piece number is not in use";
		return -1;
	}
	from = lv->slots.sq[stm][slot];
	type = GAMEDB__PC_TYPE(pos->sq[from]);
	to = scid_target(type, stm, from, code, why);
	if (to < 0)
		return -1;
	if (to == SCID_TO_SPECIAL) { /* the king's codes 0, 9 and 10 */
		if (code == 0) {
			if (gamedb__move_null(pos, m) != 0) {
				*why = "null move while in check";
				return -1;
			}
			return 0;
		}
		if (gamedb__move_castle(pos, code == 10, m) != 0) {
			*why = "castling not allowed";
			return -1;
		}
		return 0;
	}
	if (to == SCID_TO_DIAGONAL) {
		if (rc->pos >= rc->len) {
			*why = "queen diagonal move lacks its second byte";
			return -1;
		}
		to = (int)rc->p[rc->pos++] - 64;
		if (to < 0 || to > 63) {
			*why = "bad queen diagonal destination";
			return -1;
		}
	}
	if (type == GAMEDB__PAWN)
		m->promo = (uint8_t)scid_promo(code);
	/* The caller completes, checks and plays it (gamedb__move_play). */
	m->from = (uint8_t)from;
	m->to = (uint8_t)to;
	return 0;
}

/*
 * decode_move() for the usual move, without its messages, by the table of struct scid
 * (scid_targets()). 0 with m filled in (and a queen's second byte read), or -1 with nothing
 * read: then decode_move() decodes the byte (null move, castling, promotion) or says what is
 * wrong with it. Legality is the engine's business.
 */
static inline int decode_fast(const struct scid *s, const uint8_t **q, const uint8_t *end,
			      const struct scid_level *lv, int stm, uint8_t b, struct gamedb__move *m)
{
	const int from = lv->slots.sq[stm][b >> 4];
	int to;

	/* Slots at or past a side's count hold GAMEDB__NO_SQ (chess-slots.c keeps them so). */
	if (from == GAMEDB__NO_SQ)
		return -1;
	to = s->target[stm][GAMEDB__PC_TYPE(lv->pos.sq[from])][from][b & 15];
	if (to >= 64) {
		if (to != SCID_TO_DIAGONAL || *q >= end || (unsigned)(**q - 64) > 63)
			return -1;
		to = *(*q)++ - 64;
	}
	m->from = (uint8_t)from;
	m->to = (uint8_t)to;
	m->promo = 0;
	m->flags = 0;
	m->piece = 0;
	m->captured = 0;
	m->rook_from = GAMEDB__NO_SQ;
	m->check = 0;
	return 0;
}

/*
 * 1 if a variation starts after the move just read, past its NAGs (11 and the NAG's byte) and
 * comment markers (12): only then does the line need the position before that move kept
 * (struct scid_level prev). A variation marker after an end of variation (14) belongs to an
 * enclosing line, whose last move was followed by a variation marker itself.
 */
static int variation_follows(const uint8_t *q, const uint8_t *end)
{
	size_t i = 0, n = (size_t)(end - q);

	while (i < n) {
		if (q[i] == 11)
			i += 2;
		else if (q[i] == 12)
			i++;
		else
			return q[i] == 13;
	}
	return 0;
}

static int32_t decode_fail(struct scid *s, struct gamedb_game *g, const struct gamedb__cur *rc,
			   const char *what)
{
	gamedb__game_seterr(g, "%s: offset %llu: game %llu: %s", s->sg->name,
			    (unsigned long long)(g->loc[0] + (rc->pos ? rc->pos - 1 : 0)),
			    (unsigned long long)g->index + 1, what);
	return GAMEDB_FAILED;
}

/* A move byte that is no legal move: its number and colour, why, and the byte. */
static int32_t move_fail(struct scid *s, struct gamedb_game *g, const struct gamedb__cur *rc,
			      const struct scid_level *lv, uint8_t b, const char *why)
{
	char msg[160];

	snprintf(msg, sizeof msg, "move %u%s: %s (byte 0x%02x)", (unsigned)lv->pos.fullmove,
		 lv->pos.stm ? "..." : ".", why, b);
	return decode_fail(s, g, rc, msg);
}

/*
 * The end of a record's decode: Scid writes a record to its last comment's NUL (its length is
 * exact), so bytes left over are texts without a marker (a marker or a NUL damaged): not read,
 * and said. status, or WARN.
 */
static int32_t trailing_bytes(struct scid *s, struct gamedb_game *g, const struct gamedb__cur *rc,
			      int32_t status)
{
	char what[320];

	if (rc->pos >= rc->len)
		return status;
	snprintf(what, sizeof what, "%s: offset %llu: game %llu: %llu bytes after its moves and "
		 "comments are not read (texts without a comment marker?)",
		 s->sg->name, (unsigned long long)gamedb__cur_off(rc),
		 (unsigned long long)g->index + 1, (unsigned long long)(rc->len - rc->pos));
	gamedb__scid_game_note(g, what);
	return GAMEDB_WARN;
}

static int32_t scid_decode_record(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb)
{
	struct scid *s = state;
	struct gamedb__cur rc;
	struct scid_level *lv, *nl;
	size_t ncomments = 0;
	int32_t st;
	int nonstandard = 0;
	struct nagset nags = { { 0 }, 0 };
	const char *why = NULL;
	const uint8_t *base, *q, *end;
	char msg[160];

	st = gamedb__scid_rec_load(s, g, &rc);
	if (st != GAMEDB_OK)
		return st;
	if (g->loc[2] && g->loc[2] <= rc.len) {
		/* scid_load_tags read this record's tags and start: go to its move data. */
		rc.pos = (size_t)g->loc[2];
		nonstandard = g->have_start;
	} else {
		st = gamedb__scid_parse_tags(s, g, &rc, 0);
		if (st != GAMEDB_OK)
			return st;
		if (gamedb__scid_read_start(s, g, &rc, &nonstandard) != 0)
			return GAMEDB_FAILED;
	}
	if (!s->have_target)
		scid_targets(s);
	gamedb__stack_clear(&s->levels);
	lv = gamedb__stack_push(&s->levels);
	if (!lv)
		return decode_fail(s, g, &rc, "out of memory");
	if (nonstandard && g->have_start) {
		lv->pos = g->start; /* parsed by scid_load_tags */
	} else if (nonstandard) {
		if (gamedb__pos_from_fen_normal(&lv->pos, g->fen, g->fen, sizeof g->fen, NULL, &why) != 0) {
			/* the stored bytes need not be text: show them as ASCII in the message */
			char shown[sizeof g->fen];
			size_t k;
			for (k = 0; g->fen[k] && k + 1 < sizeof shown; k++)
				shown[k] = g->fen[k] >= 0x20 && g->fen[k] < 0x7F ? g->fen[k] : '?';
			shown[k] = 0;
			snprintf(msg, sizeof msg, "bad start position \"%s\": %s", shown,
				 why ? why : "");
			return decode_fail(s, g, &rc, msg);
		}
	} else {
		gamedb__pos_startpos(&lv->pos);
	}
	/* A record with a FEN numbers its pieces in FEN order, even when the FEN is the start. */
	if ((nonstandard ? gamedb__slots_init_scid_fen(&lv->slots, &lv->pos)
			 : gamedb__slots_init_scid(&lv->slots, &lv->pos)) != 0)
		return decode_fail(s, g, &rc, "start position has more than 16 pieces of a side");
	lv->moves = 0; /* prev is set by the first move that a variation follows */
	lv->chk = gamedb__in_check(&lv->pos);
	g->start = lv->pos;
	g->have_start = 1;

	/*
	 * The bytes are walked with a pointer and the end of the record, which stay in registers
	 * (rc's address goes to the helpers; rc.pos is brought up to date before each of them).
	 */
	base = rc.p;
	q = base + rc.pos;
	end = base + rc.len;
	for (;;) {
		uint8_t b;
		struct gamedb__node *nd;
		size_t sanlen;
		int stm;

		if (q >= end) {
			rc.pos = (size_t)(q - base);
			return decode_fail(s, g, &rc, "move data ends without the end-of-game marker");
		}
		b = *q++;
		if ((unsigned)b - 11 <= 15 - 11) { /* markers: bytes 11 to 15 */
			rc.pos = (size_t)(q - base);
			if (b == 11) { /* NAG: collected per move, normalised as Scid does on load */
				if (q >= end)
					return decode_fail(s, g, &rc, "NAG marker at the record end");
				b = *q++;
				rc.pos++;
				/* A NAG before the first move of a line belongs to no move: Scid drops it. */
				if (lv->moves && nag_add(&nags, b) != 0)
					return decode_fail(s, g, &rc, "more than 7 NAGs on one move");
				/*
				 * The move's NAGs go out after the last of them, here rather than at
				 * the next byte (the move path then needs no test); not at the end of
				 * the data, which fails the game without them.
				 */
				if (nags.n && q < end && *q != 11 && nag_flush(&nags, mb) != 0)
					return decode_fail(s, g, &rc, "out of memory");
				continue;
			}
			switch (b) {
			case 12: /* comment: text comes after the move data */
				if (ncomments == s->comment_cap &&
				    gamedb__grow((void **)&s->comment_node, &s->comment_cap, ncomments + 1,
						 sizeof *s->comment_node) != 0)
					return decode_fail(s, g, &rc, "out of memory");
				s->comment_node[ncomments] = (uint32_t)mb->n;
				if (gamedb__mb_event(mb, lv->moves ? GAMEDB_EVENT_COMMENT_AFTER
								   : GAMEDB_EVENT_COMMENT_BEFORE,
						     (uint32_t)ncomments++) != 0)
					return decode_fail(s, g, &rc, "out of memory");
				continue;
			case 13: /* variation: an alternative to the move just decoded */
				if (lv->moves == 0)
					return decode_fail(s, g, &rc, "variation before any move");
				nl = gamedb__var_begin(&s->levels, mb);
				if (!nl)
					return decode_fail(s, g, &rc, "out of memory");
				/*
				 * It starts where the line below stood before its last move. Its own
				 * prev is set by its first move that a variation follows: a variation
				 * needs a move before it.
				 */
				nl->pos = nl[-1].prev;
				nl->slots = nl[-1].prev_slots;
				nl->chk = nl[-1].prev_chk;
				nl->moves = 0;
				lv = nl;
				continue;
			case 14:
				if (gamedb__var_depth(&s->levels) == 0)
					return decode_fail(s, g, &rc, "end of variation outside any variation");
				lv = gamedb__var_end(&s->levels, mb);
				if (!lv)
					return decode_fail(s, g, &rc, "out of memory");
				continue;
			default: /* 15: end of game */
				if (gamedb__var_depth(&s->levels) != 0)
					return decode_fail(s, g, &rc, "end of game inside a variation");
				/* The main line's last position, for the final FEN. */
				mb->final.c = lv->pos;
				mb->have_final = 1;
				goto moves_done;
			}
		}
		/*
		 * The move is checked and played in place at once, and m->check records whether it
		 * gives check or mate, so that SAN need not make it again. On failure lv->pos is
		 * unchanged. The move and its SAN are written straight into the next node.
		 */
		if (gamedb__mb_room(mb) != 0) {
			rc.pos = (size_t)(q - base);
			return decode_fail(s, g, &rc, "out of memory");
		}
		nd = &mb->nodes[mb->n];
		stm = lv->pos.stm;
		gamedb__node_move(nd, lv->pos.fullmove, stm);
		if (decode_fast(s, &q, end, lv, stm, b, &nd->m) != 0) {
			rc.pos = (size_t)(q - base);
			if (decode_move(&rc, lv, b, &nd->m, &why) != 0)
				return move_fail(s, g, &rc, lv, b, why);
			q = base + rc.pos;
		}
		/* Markers are bytes 11 to 15; a move byte next (the usual case) settles it. */
		if (q < end && (unsigned)*q - 11 <= 13 - 11 && variation_follows(q, end)) {
			/* A variation will start from the position before this move. */
			lv->prev = lv->pos;
			lv->prev_slots = lv->slots;
			lv->prev_chk = lv->chk;
		}
		if (gamedb__move_play_san(&lv->pos, &nd->m, nd->san, &sanlen, lv->chk) != 0) {
			rc.pos = (size_t)(q - base);
			return move_fail(s, g, &rc, lv, b, "illegal move");
		}
		gamedb__slots_move_scid(&lv->slots, stm, &nd->m);
		lv->moves++;
		lv->chk = nd->m.check >= GAMEDB__CHECK_CHECK;
		gamedb__mb_move_done(mb, nd, sanlen);
	}
moves_done:
	/*
	 * Comments follow the move data, NUL-terminated, in the order of their markers; each goes
	 * to the node its marker made (s->comment_node).
	 */
	if (ncomments) {
		/* What every text of the game is converted with, looked up once. */
		struct gamedb__text *text = &s->r->text;
		const char *charset = gamedb__reader_charset(s->r);
		const char *fallback = gamedb__reader_fallback(s->r);
		const char *name = s->sg->name;
		int32_t result = GAMEDB_OK;
		size_t k;
		for (k = 0; k < ncomments; k++) {
			struct gamedb__node *nd = &mb->nodes[s->comment_node[k]];
			const uint8_t *in = rc.p + rc.pos;
			size_t clen, off = mb->text.len;
			int32_t trc;
			int same;
			if (rc.pos >= rc.len)
				return decode_fail(s, g, &rc, "fewer comments than comment markers");
			gamedb__text_at(text, name, gamedb__cur_off(&rc));
			/* The text ends at its NUL (or the record's end), found as it is converted. */
			trc = gamedb__text_to_utf8_z(text, charset, fallback, (const char *)in,
						     rc.len - rc.pos, &mb->text, &clen, &same);
			/*
			 * The stored bytes follow the UTF-8 text, for gamedb_event_get_text_raw(),
			 * unless they are its very bytes (valid UTF-8, the usual case).
			 */
			if (trc == GAMEDB_FAILED || gamedb__node_text_end(mb, nd, off) != 0)
				return decode_fail(s, g, &rc, "out of memory");
			nd->kind = 0;
			if (!same) {
				const size_t raw = mb->text.len;
				if (gamedb__buf_put(&mb->text, in, clen) != 0 ||
				    gamedb__buf_put(&mb->text, "", 1) != 0)
					return decode_fail(s, g, &rc, "out of memory");
				gamedb__node_set_raw(nd, (uint32_t)raw);
			}
			nd->val = (uint32_t)off;
			if (trc == GAMEDB_WARN)
				result = GAMEDB_WARN;
			rc.pos += clen + (rc.pos + clen < rc.len ? 1 : 0);
		}
		return trailing_bytes(s, g, &rc, result);
	}
	return trailing_bytes(s, g, &rc, GAMEDB_OK);
}

/*
 * A comment node holds the index of its text until the texts after the move data are read;
 * when decoding fails before that, those nodes would point nowhere (and GAMEDB_ITER_PARTIAL
 * or gamedb_game_dup() would hand them out), so the legal part keeps no such comment. Nothing
 * fails once the texts are read, so a failed game's comments all hold indexes.
 */
int32_t gamedb__scid_decode(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb)
{
	int32_t st = scid_decode_record(state, g, mb);
	size_t i, n = 0;

	if (st != GAMEDB_FAILED)
		return st;
	for (i = 0; i < mb->n; i++) {
		const struct gamedb__node *nd = &mb->nodes[i];
		if (nd->type == GAMEDB_EVENT_COMMENT_BEFORE || nd->type == GAMEDB_EVENT_COMMENT_AFTER)
			continue;
		mb->nodes[n++] = *nd;
	}
	mb->n = n;
	/* The legal part stays a well-formed stream: close the variations it left open. */
	gamedb__var_close_open(mb);
	/* A start position that did not parse is not handed out (see scid_load_tags). */
	if (!g->have_start)
		strcpy(g->fen, GAMEDB__START_FEN);
	return st;
}
