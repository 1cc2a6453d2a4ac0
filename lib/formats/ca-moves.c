/*
 * libgamedb - Chess Assistant: the move decoder of a game record (.d02): moves by piece
 * number, variations, comments and annotations, each move checked by the board engine.
 * Every code is described in doc/formats/chessassistant.md; the record is found and its
 * start position read by format-chessassistant.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/chessassistant.h"

/* Outcomes 5..16 are evaluations, not results: the NAG each becomes (on the game's end). */
static const uint8_t outcome_nag[17] = { 0, 0, 0, 0, 0, 16, 17, 14, 15, 18, 19, 10, 13, 44, 40, 36, 132 };

/* ---- moves ---------------------------------------------------------------------------- */

/* The codes' deltas as the seed writes them, "yx": y rows up, x columns (see CA_DIR_*). */
static const uint8_t knight_d[8] = { 0x67, 0x76, 0x16, 0x27, 0x21, 0x12, 0x72, 0x61 };
static const uint8_t bishop_d[13] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
				      0x17, 0x26, 0x35, 0x53, 0x62, 0x71 };
static const uint8_t rook_d[14] = { 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
				    0x70, 0x60, 0x50, 0x40, 0x30, 0x20, 0x10 };
static const uint8_t king_d[8] = { 0x11, 0x77, 0x17, 0x71, 0x07, 0x01, 0x70, 0x10 };

/* The queen's 27 deltas (bishop's, then rook's); pieces 16/17 add the knight's 8. */
static uint8_t piece_delta(int k)
{
	if (k < 13)
		return bishop_d[k];
	if (k < 27)
		return rook_d[k - 13];
	return knight_d[k - 27];
}

/* Pawn kind k (0 one step, 1 and 2 captures, 3 two steps) for colour c as a "yx" delta. */
static uint8_t pawn_delta(int k, int c)
{
	static const uint8_t w[4] = { 0x10, 0x17, 0x11, 0x20 };
	static const uint8_t b[4] = { 0x70, 0x77, 0x71, 0x60 };
	return c ? b[k] : w[k];
}

/* Decodes move code (0..206) into slot and delta; -1 if it is not a move code. */
static int code_move(unsigned code, int c, int *slot, uint8_t *d)
{
	if (code < 32) {
		*slot = (int)code / 4;
		*d = pawn_delta((int)code % 4, c);
	} else if (code < 48) {
		*slot = 8 + ((int)code - 32) / 8;
		*d = knight_d[(code - 32) % 8];
	} else if (code < 74) {
		*slot = 10 + ((int)code - 48) / 13;
		*d = bishop_d[(code - 48) % 13];
	} else if (code < 102) {
		*slot = 12 + ((int)code - 74) / 14;
		*d = rook_d[(code - 74) % 14];
	} else if (code < 129) {
		*slot = 14;
		*d = piece_delta((int)code - 102);
	} else if (code < 137) {
		*slot = 15;
		*d = king_d[code - 129];
	} else if (code < 207) {
		*slot = 16 + ((int)code - 137) / 35;
		*d = piece_delta(((int)code - 137) % 35);
	} else {
		return -1;
	}
	return 0;
}

static uint8_t apply_delta(uint8_t from, uint8_t d, int dir)
{
	int r = (from / 8 + (d >> 4)) & 7;
	int f = (from % 8 + dir * (d & 15)) & 7;
	return (uint8_t)(r * 8 + f);
}

struct cactx {
	struct ca *s;
	struct gamedb_game *g;
	struct gamedb__movebuf *mb;
	const uint8_t *rec;
	size_t len;
	uint64_t base;
	int dir;
	int32_t status;      /* OK, WARN */
	int32_t text_status;
	int played;          /* a move was played anywhere (code 230 comes before any) */
};

/* Skips a variation's body from i (after its 231) to after its 232; -1 if it is not closed. */
static int skip_block(const struct cactx *x, size_t *pi)
{
	size_t i = *pi, depth = 1;
	const uint8_t *r = x->rec;

	while (i < x->len) {
		unsigned c = r[i++];
		size_t extra = 0;
		if (c <= 208 || c == 210 || c == 211)
			continue;
		switch (c) {
		case 209: case 234: extra = 2; break;
		case 212: case 213: case 214: case 215: case 216: case 217: case 218: case 219:
		case 233: extra = 1; break;
		case 230: extra = CA_SETUP_LEN; break;
		case 231: depth++; break;
		case 232:
			if (--depth == 0) {
				*pi = i;
				return 0;
			}
			break;
		case 235:
			if (i >= x->len)
				return -1;
			extra = 1 + (size_t)r[i];
			break;
		case 236:
			if (x->len - i < 4)
				return -1;
			extra = 4 + (size_t)gamedb__le32(r + i);
			break;
		default:
			return -1;
		}
		if (x->len - i < extra)
			return -1;
		i += extra;
	}
	return -1;
}

static int add_text(struct cactx *x, int type, const uint8_t *raw, size_t n)
{
	struct gamedb__movebuf *mb = x->mb;
	size_t off = mb->text.len;
	int32_t rc;

	if (n == 0)
		return 0;
	if (off > UINT32_MAX / 2)
		return -1;
	rc = gamedb__text_to_utf8(&x->s->r->text, gamedb__ca_charset(x->s),
				  gamedb__reader_fallback(x->s->r), (const char *)raw, n, &mb->text);
	if (rc == GAMEDB_FAILED)
		return -1;
	gamedb__text_newlines(&mb->text, off);
	if (gamedb__mb_text_end(mb, type, off) != 0 ||
	    gamedb__mb_raw(mb, raw, n) != 0)
		return -1;
	if (rc == GAMEDB_WARN)
		x->text_status = GAMEDB_WARN;
	return 0;
}

static int add_annotation(struct cactx *x, int type, const uint8_t *raw, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	struct gamedb__buf t = { 0 };
	size_t i;
	int rc;

	if (gamedb__buf_reserve(&t, 2 * n + 1) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		t.p[t.len++] = hex[raw[i] >> 4];
		t.p[t.len++] = hex[raw[i] & 15];
	}
	t.p[t.len] = 0;
	rc = gamedb__mb_comment(x->mb, GAMEDB_EVENT_ANNOTATION, t.p, t.len) != 0 ||
	     gamedb__mb_raw(x->mb, raw, n) != 0;
	gamedb__buf_free(&t);
	if (rc)
		return -1;
	x->mb->nodes[x->mb->n - 1].aux = (uint8_t)type;
	return 0;
}

/* 1 if a comment of this type belongs to the move before it (is written after it). */
static int after_type(unsigned type)
{
	return type != 3 && type != 5 && type != 9;
}

/* One comment (type, then n bytes): NAGs, text, evaluation or a kept annotation. */
static int comment(struct cactx *x, struct caframe *fr, unsigned type, const uint8_t *d, size_t n)
{
	size_t i;
	char buf[48];

	switch (type) {
	case 2: /* symbols after the move: NAG numbers */
		for (i = 0; i < n; i++)
			if (d[i] && fr->last_move != NONE &&
			    gamedb__mb_event(x->mb, GAMEDB_EVENT_NAG, d[i]) != 0)
				return -1;
		return 0;
	case 3: /* symbols before the move: given after it, as PGN wants */
		for (i = 0; i < n; i++)
			if (d[i] && fr->nnag < sizeof fr->nag)
				fr->nag[fr->nnag++] = d[i];
		return 0;
	case 4:
	case 6:
		return add_text(x, fr->last_move != NONE ? GAMEDB_EVENT_COMMENT_AFTER
							 : GAMEDB_EVENT_COMMENT_BEFORE, d, n);
	case 5:
		return add_text(x, GAMEDB_EVENT_COMMENT_BEFORE, d, n);
	case 29: /* computer evaluation: hundredths of a pawn, 255, 0, and "CAP" or nothing */
		if ((n == 4 || (n == 7 && memcmp(d + 4, "CAP", 3) == 0)) && d[2] == 255 && d[3] == 0) {
			int v = (int16_t)gamedb__le16(d);
			unsigned a = (unsigned)(v < 0 ? -v : v);
			snprintf(buf, sizeof buf, "%%eval %s%u.%02u", v < 0 ? "-" : "", a / 100, a % 100);
			return gamedb__mb_comment(x->mb, GAMEDB_EVENT_COMMAND, buf, strlen(buf)) != 0 ? -1 : 0;
		}
		return add_annotation(x, (int)type, d, n);
	default: /* 7 and 21 (user folders), 8 and 9 (diagrams), types the seed does not name */
		return add_annotation(x, (int)type, d, n);
	}
}

static void fail(struct cactx *x, size_t at, const char *fmt, ...) GAMEDB__PRINTF(3, 4);

static void fail(struct cactx *x, size_t at, const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	gamedb__game_seterr(x->g, "%s: offset %llu: game %llu: %s", x->s->d02->name,
			    (unsigned long long)(x->base + at), (unsigned long long)x->g->index + 1,
			    what);
}

static void warn(struct cactx *x, size_t at, const char *what)
{
	if (x->status != GAMEDB_OK)
		return;
	x->status = GAMEDB_WARN;
	gamedb__game_seterr(x->g, "%s: offset %llu: game %llu: %s", x->s->d02->name,
			    (unsigned long long)(x->base + at), (unsigned long long)x->g->index + 1,
			    what);
}

static void square_text(uint8_t sq, char out[3])
{
	out[0] = (char)('a' + sq % 8);
	out[1] = (char)('1' + sq / 8);
	out[2] = 0;
}

/*
 * Plays the move that starts with code at rec[at] (the bytes after it from *pi on) in fr,
 * writes it to mb. 0, or -1 with g's message set (FAILED). -2: out of memory.
 */
static int play(struct cactx *x, struct caframe *fr, unsigned code, size_t at, size_t *pi)
{
	struct gamedb__move m;
	struct gamedb__pos before = fr->pos;
	int c = fr->pos.stm, slot = -1, new_slot = -1;
	uint8_t d = 0;
	size_t i, sanlen = 0;
	char a[3], b[3], san[GAMEDB__SAN_MAX] = { 0 };

	memset(&m, 0, sizeof m);
	m.rook_from = GAMEDB__NO_SQ;
	if (code == 207 || code == 208) {
		if (gamedb__move_castle(&fr->pos, code == 208, &m) != 0) {
			fail(x, at, "%s castling is not legal here", code == 208 ? "short" : "long");
			x->s->illegal = 1;
			return -1;
		}
	} else if (code == 211) {
		if (gamedb__move_null(&fr->pos, &m) != 0) {
			fail(x, at, "a null move while in check");
			x->s->illegal = 1;
			return -1;
		}
	} else {
		if (code == 209) {
			unsigned b1, b2, type;
			if (x->len - *pi < 2) {
				fail(x, at, "a promotion cut short by the end of the record");
				return -1;
			}
			b1 = x->rec[*pi];
			b2 = x->rec[*pi + 1];
			*pi += 2;
			slot = (int)(b1 >> 2);
			d = pawn_delta((int)(b1 & 3), c);
			type = b2 >> 5;
			new_slot = (int)(b2 & 31);
			if (slot > 7 || type < GAMEDB__KNIGHT || type > GAMEDB__QUEEN) {
				fail(x, at, "a promotion of pawn %d to type %u", slot, type);
				return -1;
			}
			if (new_slot < 8 || (new_slot < 16 && gamedb__ca_fixed_type[new_slot] != type)) {
				fail(x, at, "a promotion names piece %d for a piece of type %u", new_slot,
				     type);
				return -1;
			}
			if (new_slot >= 18)
				new_slot = 18 + slot; /* untracked: moves by extended codes */
			if (fr->sl.sq[c][new_slot] != GAMEDB__NO_SQ) {
				fail(x, at, "a promotion gives piece %d, which is on the board", new_slot);
				return -1;
			}
			m.promo = (uint8_t)type;
		} else if (code >= 212 && code <= 219) {
			int k = (int)code - 212;
			if (x->len - *pi < 1) {
				fail(x, at, "an extended move cut short by the end of the record");
				return -1;
			}
			d = (uint8_t)(((x->rec[*pi] >> 4) & 7) << 4 | (x->rec[*pi] & 7));
			(*pi)++;
			slot = gamedb__caslots_promoted(&fr->sl, c, k);
			if (slot < 0) {
				fail(x, at, "an extended move of the piece from pawn %d, which is not on the board", k);
				return -1;
			}
		} else if (code_move(code, c, &slot, &d) != 0) {
			fail(x, at, "unknown code %u", code);
			return -1;
		}
		if (fr->sl.sq[c][slot] == GAMEDB__NO_SQ) {
			fail(x, at, "code %u moves %s piece %d, which is not on the board", code,
			     c ? "black" : "white", slot);
			x->s->illegal = 1;
			return -1;
		}
		m.from = fr->sl.sq[c][slot];
		m.to = apply_delta(m.from, d, x->dir);
	}
	if (gamedb__move_play_san(&fr->pos, &m, san, &sanlen, -1) != 0) {
		square_text(m.from, a);
		square_text(m.to, b);
		fail(x, at, "move %u%s %s%s (code %u) is not legal", (unsigned)before.fullmove,
		     c ? "..." : ".", a, b, code);
		x->s->illegal = 1;
		return -1;
	}
	if (fr->ep_next && !(m.flags & GAMEDB__MF_EP)) {
		fail(x, at, "code 210 announces an en-passant capture, but code %u is not one", code);
		x->s->illegal = 1;
		return -1;
	}
	fr->ep_next = 0;
	fr->prev = before;
	fr->prevsl = fr->sl;
	gamedb__caslots_move(&fr->sl, c, &m, slot, new_slot);
	x->played = 1;
	fr->moved = 1;
	fr->last_move = x->mb->n;
	if (gamedb__mb_move_san(x->mb, &m, before.fullmove, before.stm, san, sanlen) != 0)
		return -2;
	for (i = 0; i < fr->nnag; i++)
		if (gamedb__mb_event(x->mb, GAMEDB_EVENT_NAG, fr->nag[i]) != 0)
			return -2;
	fr->nnag = 0;
	return 0;
}

/*
 * The type of the comment that starts at rec[i] (a 234, 235 or 236), or -1 when rec[i] is no
 * comment (or one too short to tell).
 */
static int comment_type_at(const struct cactx *x, size_t i)
{
	switch (x->rec[i]) {
	case 233: return 2; /* skipped where it stands: treat as belonging to the move before */
	case 234: return x->len - i >= 3 ? x->rec[i + 1] : -1;
	case 235: return x->len - i >= 3 && x->rec[i + 1] ? x->rec[i + 2] : -1;
	case 236: return x->len - i >= 6 && gamedb__le32(x->rec + i + 1) ? x->rec[i + 5] : -1;
	default: return -1;
	}
}

static int32_t decode_once(struct ca *s, struct gamedb_game *g, struct gamedb__movebuf *mb, int dir)
{
	struct cactx x;
	struct caframe *fr;
	size_t main_last = NONE;
	char why[160];

	memset(&x, 0, sizeof x);
	x.s = s;
	x.g = g;
	x.mb = mb;
	x.dir = dir;
	x.status = x.text_status = GAMEDB_OK;
	s->illegal = 0;
	if (gamedb__ca_rec_view(s, g, &x.rec, &x.len, &x.base) != 0)
		return GAMEDB_FAILED;
	gamedb__stack_clear(&s->frames);
	gamedb__stack_clear(&s->pend);
	fr = gamedb__stack_push(&s->frames);
	if (!fr)
		goto nomem;
	memset(fr, 0, sizeof *fr);
	gamedb__pos_startpos(&fr->pos);
	gamedb__caslots_init(&fr->sl);
	fr->flush = NONE;
	fr->last_move = NONE;

	for (;;) {
		size_t at, i;
		unsigned code;
		int depth;

		fr = gamedb__stack_top(&s->frames);
		if (!fr) /* cannot happen: the main line's record stays */
			goto nomem;
		depth = (int)gamedb__var_depth(&s->frames);
		if (fr->flush != NONE) {
			struct caframe *nf;
			if (fr->flush < s->pend.n) {
				size_t o = ((size_t *)s->pend.v)[fr->flush++];
				if (gamedb__stack_full(&s->frames)) {
					warn(&x, o, "variations nested too deep are left out");
					continue;
				}
				nf = gamedb__var_begin(&s->frames, mb);
				if (!nf)
					goto nomem;
				fr = nf - 1;
				memset(nf, 0, sizeof *nf);
				nf->pos = fr->prev;
				nf->sl = fr->prevsl;
				nf->off = o;
				nf->pend_lo = s->pend.n;
				nf->flush = NONE;
				nf->last_move = NONE;
				continue;
			}
			s->pend.n = fr->pend_lo;
			fr->flush = NONE;
			fr->moved = 0;
			continue;
		}
		at = fr->off;
		/* Variations recorded before the move just played: after its own comments. */
		if (s->pend.n > fr->pend_lo && fr->moved &&
		    (at >= x.len || comment_type_at(&x, at) < 0 ||
		     !after_type((unsigned)comment_type_at(&x, at)))) {
			fr->flush = fr->pend_lo;
			continue;
		}
		if (at >= x.len || (x.rec[at] == 232 && depth > 0)) {
			if (s->pend.n > fr->pend_lo) {
				warn(&x, at, "variations with no move after them to replace are left out");
				s->pend.n = fr->pend_lo;
			}
			if (depth == 0) {
				main_last = fr->last_move;
				break;
			}
			if (at >= x.len) { /* cannot happen: skip_block found the 232 */
				fail(&x, at, "a variation is not closed");
				goto failed;
			}
			if (!gamedb__var_end(&s->frames, mb))
				goto nomem;
			continue;
		}
		code = x.rec[at];
		i = at + 1;
		switch (code) {
		case 232:
			fail(&x, at, "code 232 closes a variation that was never opened");
			goto failed;
		case 231: {
			size_t *slot;
			if (skip_block(&x, &i) != 0) {
				fail(&x, at, "the variation opened here is not closed (or holds an unknown code)");
				goto failed;
			}
			slot = gamedb__stack_push(&s->pend);
			if (!slot)
				goto nomem;
			*slot = at + 1;
			fr->moved = 0; /* they replace the next move, not the last */
			break;
		}
		case 230:
			if (x.played || depth > 0 || x.len - i < CA_SETUP_LEN) {
				fail(&x, at, x.len - i < CA_SETUP_LEN ? "a setup position cut short by the end of the record"
								   : "a setup position after the first move");
				goto failed;
			}
			if (gamedb__ca_parse_setup(x.rec + i, &fr->pos, &fr->sl, g->fen, sizeof g->fen, why,
					sizeof why) != 0) {
				fail(&x, at, "setup position: %s", why);
				goto failed;
			}
			i += CA_SETUP_LEN;
			break;
		case 233:
			if (x.len - i < 1) {
				fail(&x, at, "code 233 cut short by the end of the record");
				goto failed;
			}
			i++;
			break;
		case 234:
			if (x.len - i < 2) {
				fail(&x, at, "a symbol cut short by the end of the record");
				goto failed;
			}
			if (comment(&x, fr, x.rec[i], x.rec + i + 1, 1) != 0)
				goto nomem;
			i += 2;
			break;
		case 235:
		case 236: {
			size_t n, hl = code == 235 ? 1 : 4;
			if (x.len - i < hl) {
				fail(&x, at, "a comment length cut short by the end of the record");
				goto failed;
			}
			n = code == 235 ? x.rec[i] : gamedb__le32(x.rec + i);
			i += hl;
			if (n > x.len - i) {
				fail(&x, at, "a comment of %zu bytes runs past the end of the record (%zu left)",
				     n, x.len - i);
				goto failed;
			}
			if (n && comment(&x, fr, x.rec[i], x.rec + i + 1, n - 1) != 0)
				goto nomem;
			i += n;
			break;
		}
		case 210:
			fr->ep_next = 1;
			break;
		default: {
			int rc = play(&x, fr, code, at, &i);
			if (rc == -2)
				goto nomem;
			if (rc != 0)
				goto failed;
			break;
		}
		}
		fr = gamedb__stack_top(&s->frames);
		if (!fr)
			goto nomem;
		fr->off = i;
	}
	/* An evaluation stored as the outcome: the NAG of the game's last move. */
	if (g->fmt_flags >= 5 && g->fmt_flags <= 16 && main_last != NONE) {
		struct gamedb__node nd;
		if (gamedb__mb_event(mb, GAMEDB_EVENT_NAG, outcome_nag[g->fmt_flags]) != 0)
			goto nomem;
		nd = mb->nodes[mb->n - 1];
		memmove(mb->nodes + main_last + 2, mb->nodes + main_last + 1,
			(mb->n - main_last - 2) * sizeof *mb->nodes);
		mb->nodes[main_last + 1] = nd;
	}
	if (x.status == GAMEDB_OK && x.text_status == GAMEDB_WARN) {
		gamedb__game_seterr(g, "%s: a comment could not be converted from %s without loss",
				    s->d02->name, gamedb__ca_charset(s));
		return GAMEDB_WARN;
	}
	return x.status;
failed:
	gamedb__var_close_open(mb);
	return GAMEDB_FAILED;
nomem:
	gamedb__game_seterr(g, "%s: out of memory decoding the moves", s->d02->name);
	gamedb__var_close_open(mb);
	return GAMEDB_FAILED;
}

/*
 * Decodes with the direction chosen; with "auto", a game that fails on a move the board
 * refuses is tried again the other way, and the way that plays is kept for the next games.
 */
int32_t gamedb__ca_decode(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb)
{
	struct ca *s = state;
	int32_t rc = decode_once(s, g, mb, s->dir_cur);
	char first[sizeof g->errmsg];

	if (rc != GAMEDB_FAILED || s->dir != CA_DIR_AUTO || !s->illegal)
		return rc;
	memcpy(first, g->errmsg, sizeof first);
	gamedb__mb_reset(mb);
	rc = decode_once(s, g, mb, -s->dir_cur);
	if (rc != GAMEDB_FAILED) {
		s->dir_cur = -s->dir_cur;
		return rc;
	}
	/* Neither way plays: the first reading's result and message stand. */
	gamedb__mb_reset(mb);
	rc = decode_once(s, g, mb, s->dir_cur);
	memcpy(g->errmsg, first, sizeof first);
	return rc;
}
