/*
 * libgamedb - chess notation: SAN of a move (minimal disambiguation: only men of the same
 * type that reach the same square are looked at, no full generation), UCI of a move, and SAN
 * in (tolerant: long forms, UCI coordinates, null moves). Shared helpers: chess-internal.h.
 */
#include <stdint.h>
#include <string.h>

#include "chess-internal.h"

/* ------------------------------------------------------------------------------------------ */
/* Notation */

#define SQ_NAME(f, r) {(char)('a' + (f)), (char)('1' + (r))}
#define SQ_RANK(r) SQ_NAME(0, r), SQ_NAME(1, r), SQ_NAME(2, r), SQ_NAME(3, r), SQ_NAME(4, r), \
	SQ_NAME(5, r), SQ_NAME(6, r), SQ_NAME(7, r)
const char gamedb__chess_sq_name[64][2] = {SQ_RANK(0), SQ_RANK(1), SQ_RANK(2), SQ_RANK(3),
					   SQ_RANK(4), SQ_RANK(5), SQ_RANK(6), SQ_RANK(7)};

size_t gamedb__move_uci(const struct gamedb__move *m, char *buf)
{
	size_t n = 0;
	if (m->flags & GAMEDB__MF_NULL) {
		memcpy(buf, "0000", 5);
		return 4;
	}
	if (m->flags & GAMEDB__MF_DROP) {
		buf[n++] = piece_upper[m->piece & 7];
		buf[n++] = '@';
	} else {
		buf[n++] = file_char(m->from);
		buf[n++] = rank_char(m->from);
	}
	if ((m->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) && m->from == m->to &&
	    m->rook_from < 64) {
		/* The king stays (Chess960): its move would read "g1g1"; the king takes its rook. */
		buf[n++] = file_char(m->rook_from);
		buf[n++] = rank_char(m->rook_from);
		buf[n] = '\0';
		return n;
	}
	buf[n++] = file_char(m->to);
	buf[n++] = rank_char(m->to);
	if (m->promo)
		buf[n++] = (char)(piece_upper[m->promo & 7] - 'A' + 'a');
	buf[n] = '\0';
	return n;
}

size_t gamedb__move_san(const struct gamedb__pos *pos, const struct gamedb__move *m, char *buf)
{
	size_t n;
	uint8_t check = m->check;

	if (m->flags & GAMEDB__MF_NULL) {
		memcpy(buf, "--", 3);
		return 2;
	}
	n = san_body(pos, m, buf);
	if (check == GAMEDB__CHECK_UNKNOWN) {
		struct gamedb__pos next = *pos;
		gamedb__pos_make(&next, m);
		check = check_state(&next);
	}
	return san_mark(buf, n, check);
}

/* ------------------------------------------------------------------------------------------ */
/* Reading SAN */

static int promo_of_char(char c)
{
	switch (c) {
	case 'Q': case 'q': return GAMEDB__QUEEN;
	case 'R': case 'r': return GAMEDB__ROOK;
	case 'B': case 'b': return GAMEDB__BISHOP;
	case 'N': case 'n': return GAMEDB__KNIGHT;
	default: return 0;
	}
}

/* "O-O", "0-0", "o-o" (and the three-letter queen-side forms): 1 king side, 0 queen side, -1. */
static int castle_token(const char *s, size_t len)
{
	size_t i, os = 0;
	for (i = 0; i < len; i++) {
		const char c = s[i];
		if (c == 'O' || c == 'o' || c == '0') {
			os++;
			if (i + 1 < len && s[i + 1] != '-')
				return -1;
		} else if (c != '-' || i == 0 || i + 1 == len) {
			return -1;
		}
	}
	if (os == 2)
		return 1;
	if (os == 3)
		return 0;
	return -1;
}

int gamedb__parse_san(const struct gamedb__pos *pos, const char *san, struct gamedb__move *m)
{
	struct gamedb__move moves[GAMEDB__MAX_MOVES];
	char s[24];
	size_t len = 0, i;
	int type = GAMEDB__PAWN, promo = 0, to, from_file = -1, from_rank = -1, n, found = -1;
	int side;

	while (*san == ' ' || *san == '\t')
		san++;
	while (san[len] && san[len] != ' ' && san[len] != '\t' && len < sizeof s - 1) {
		s[len] = san[len];
		len++;
	}
	if (san[len] && san[len] != ' ' && san[len] != '\t')
		return -1; /* too long to be a move */
	s[len] = '\0';
	/* Annotation suffixes, and an optional "e.p." / "ep". */
	while (len > 0 && (s[len - 1] == '+' || s[len - 1] == '#' || s[len - 1] == '!' ||
			   s[len - 1] == '?'))
		len--;
	if (len > 4 && memcmp(s + len - 4, "e.p.", 4) == 0)
		len -= 4;
	else if (len > 4 && memcmp(s + len - 2, "ep", 2) == 0 && is_rank_ch(s[len - 3]))
		len -= 2;
	s[len] = '\0';
	if (len == 0)
		return -1;

	if (strcmp(s, "--") == 0 || strcmp(s, "Z0") == 0 || strcmp(s, "z0") == 0 ||
	    strcmp(s, "0000") == 0 || strcmp(s, "@@@@") == 0)
		return gamedb__move_null(pos, m);
	side = castle_token(s, len);
	if (side >= 0)
		return gamedb__move_castle(pos, side, m);
	/* Drops: "P@e4", "N@f3", "@e4" (a pawn), "n@f3". */
	if ((len == 4 && s[1] == '@') || (len == 3 && s[0] == '@')) {
		const char pl = len == 4 ? s[0] : 'P';
		const char *at = s + len - 2;
		static const char letters[] = "PNBRQ";
		const char *lp = strchr(letters, pl >= 'a' && pl <= 'z' ? pl - 'a' + 'A' : pl);
		if (!lp || !*lp || !is_file_ch(at[0]) || !is_rank_ch(at[1]))
			return -1;
		memset(m, 0, sizeof *m);
		m->from = GAMEDB__NO_SQ;
		m->to = (uint8_t)((at[0] - 'a') + 8 * (at[1] - '1'));
		m->piece = (uint8_t)(GAMEDB__PAWN + (lp - letters));
		m->flags = GAMEDB__MF_DROP;
		return gamedb__move_complete(pos, m);
	}

	/* Promotion: "e8=Q", "e8Q", "e8q", "e8(Q)", "e8/Q". */
	if (len >= 3 && s[len - 1] == ')' && s[len - 3] == '(') {
		promo = promo_of_char(s[len - 2]);
		if (!promo)
			return -1;
		len -= 3;
	} else if (len >= 3 && promo_of_char(s[len - 1]) &&
		   (is_rank_ch(s[len - 2]) || s[len - 2] == '=' || s[len - 2] == '/')) {
		promo = promo_of_char(s[len - 1]);
		len--;
		if (s[len - 1] == '=' || s[len - 1] == '/')
			len--;
	}
	if (len < 2 || !is_file_ch(s[len - 2]) || !is_rank_ch(s[len - 1]))
		return -1;
	to = (s[len - 2] - 'a') + 8 * (s[len - 1] - '1');
	len -= 2;

	i = 0;
	if (len > 0) {
		switch (s[0]) {
		case 'K': type = GAMEDB__KING; i = 1; break;
		case 'Q': type = GAMEDB__QUEEN; i = 1; break;
		case 'R': type = GAMEDB__ROOK; i = 1; break;
		case 'B': type = GAMEDB__BISHOP; i = 1; break;
		case 'N': type = GAMEDB__KNIGHT; i = 1; break;
		case 'P': type = GAMEDB__PAWN; i = 1; break;
		default: break;
		}
	}
	for (; i < len; i++) {
		const char c = s[i];
		if (c == 'x' || c == 'X' || c == ':' || c == '-')
			continue;
		if (is_file_ch(c) && from_file < 0 && from_rank < 0)
			from_file = c - 'a';
		else if (is_rank_ch(c) && from_rank < 0)
			from_rank = c - '1';
		else
			return -1;
	}

	n = gamedb__gen_legal(pos, moves);
	for (i = 0; i < (size_t)n; i++) {
		const struct gamedb__move *c = &moves[i];
		if (c->piece != type || c->to != to || c->promo != promo)
			continue;
		if (c->flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q | GAMEDB__MF_DROP))
			continue;
		if (from_file >= 0 && FILE_OF(c->from) != from_file)
			continue;
		if (from_rank >= 0 && RANK_OF(c->from) != from_rank)
			continue;
		if (found >= 0)
			return -1; /* ambiguous */
		found = (int)i;
	}
	if (found >= 0) {
		*m = moves[found];
		return 0;
	}
	/* Coordinate notation with a full from square ("e1g1", "e7e8q"): let move_complete judge. */
	if (from_file >= 0 && from_rank >= 0) {
		struct gamedb__move t;
		memset(&t, 0, sizeof t);
		t.from = (uint8_t)(from_file + 8 * from_rank);
		t.to = (uint8_t)to;
		t.promo = (uint8_t)promo;
		if (gamedb__move_complete(pos, &t) == 0 && (type == GAMEDB__PAWN || t.piece == type)) {
			*m = t;
			return 0;
		}
	}
	return -1;
}
