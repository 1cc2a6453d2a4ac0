/*
 * libgamedb - search (gamedb_query_*): a position and header filters, matched against games.
 * A position matches as Scid's exact board search matches it (Game::ExactMatch() of Scid 4.7):
 * the men on their squares and the side to move, not the castling or en-passant rights, in the
 * main line only, at the first ply that reaches it. The scan decodes a game and plays its
 * main line; how a position index plugs in instead is in query.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "query/query.h"

static int query_ok(const struct gamedb_query *q)
{
	return q && q->magic == GAMEDB__QUERY_MAGIC;
}

GAMEDB_EXPORT int32_t gamedb_query_new(struct gamedb_query **out)
{
	struct gamedb_query *q;

	if (!out)
		return GAMEDB_FATAL;
	q = calloc(1, sizeof *q);
	*out = q;
	if (!q)
		return GAMEDB_FATAL;
	q->magic = GAMEDB__QUERY_MAGIC;
	q->ply = -1;
	return GAMEDB_OK;
}

GAMEDB_EXPORT void gamedb_query_free(struct gamedb_query *q)
{
	size_t i;

	if (!query_ok(q))
		return;
	for (i = 0; i < q->nwhere; i++)
		free(q->where[i].value);
	free(q->where);
	free(q->hits);
	q->magic = 0;
	free(q);
}

GAMEDB_EXPORT const char *gamedb_query_errmsg(const struct gamedb_query *q)
{
	return query_ok(q) ? q->errmsg : "not a query";
}

GAMEDB_EXPORT int32_t gamedb_query_get_ply(const struct gamedb_query *q)
{
	return query_ok(q) ? q->ply : -1;
}

static int popcount64(uint64_t x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/* The pruning numbers and the key of a chess target. */
static void chess_target_done(struct gamedb__target *t)
{
	int c;

	for (c = 0; c < 2; c++) {
		uint64_t pawns = t->c.by_type[GAMEDB__PAWN] & t->c.by_colour[c];
		t->men[c] = popcount64(t->c.by_colour[c]);
		t->pawns[c] = popcount64(pawns);
		t->home[c] = pawns & (c == 0 ? UINT64_C(0xFF00) : UINT64_C(0xFF000000000000));
	}
	t->key = gamedb__pos_key_board(&t->c);
}

/*
 * The next move token of *p (move numbers "12." / "12..." and a leading "12." of "12.e4"
 * skipped) into tok; 1, 0 at the end, -1 when a token is too long.
 */
static int next_token(const char **p, char *tok, size_t cap)
{
	const char *s = *p, *e;

	for (;;) {
		size_t n;
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ',')
			s++;
		if (!*s) {
			*p = s;
			return 0;
		}
		e = s;
		while (*e && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r' && *e != ',')
			e++;
		/* a move number: digits then dots, alone or before the move */
		{
			const char *d = s;
			while (d < e && *d >= '0' && *d <= '9')
				d++;
			if (d > s && d < e && *d == '.') {
				while (d < e && *d == '.')
					d++;
				s = d;
			}
		}
		n = (size_t)(e - s);
		if (n == 0) {
			s = e;
			continue;
		}
		*p = e;
		if (n >= cap)
			return -1;
		memcpy(tok, s, n);
		tok[n] = 0;
		return 1;
	}
}

/* Plays the moves on t (chess: SAN; xiangqi: ICCS); 0, or -1 with a message in err. */
static int play_moves(struct gamedb__target *t, int xq, const char *moves, char *err, size_t cap)
{
	const char *p = moves;
	char tok[32];
	int k = 0, rc;

	while ((rc = next_token(&p, tok, sizeof tok)) != 0) {
		struct gamedb__move m;
		char fen[128];
		k++;
		if (rc < 0) {
			snprintf(err, cap, "move %d is longer than %zu characters", k, sizeof tok - 1);
			return -1;
		}
		memset(&m, 0, sizeof m);
		if (xq) {
			if (gamedb__xq_parse_iccs(&t->x, tok, &m) == 0 && gamedb__xq_move_play(&t->x, &m) == 0)
				continue;
			gamedb__xq_to_fen(&t->x, fen, sizeof fen);
		} else {
			if (gamedb__parse_san(&t->c, tok, &m) == 0 && gamedb__move_play(&t->c, &m) == 0)
				continue;
			gamedb__pos_to_fen(&t->c, fen, sizeof fen);
		}
		snprintf(err, cap, "move %d \"%s\" is not a legal %s move in %s", k, tok,
			 xq ? "xiangqi (ICCS)" : "chess (SAN)", fen);
		return -1;
	}
	return 0;
}

GAMEDB_EXPORT int32_t gamedb_query_set_position(struct gamedb_query *q, const char *fen,
						const char *moves)
{
	struct gamedb__target c, x;
	const char *why_c = NULL, *why_x = NULL;
	char err_c[300] = "", err_x[300] = "";

	if (!query_ok(q))
		return GAMEDB_FATAL;
	memset(&c, 0, sizeof c);
	memset(&x, 0, sizeof x);
	if (!moves)
		moves = "";
	if (fen) {
		c.valid = gamedb__pos_from_fen(&c.c, fen, &why_c) == 0;
		x.valid = !c.valid && gamedb__xq_from_fen(&x.x, fen, &why_x) == 0;
		if (!c.valid && !x.valid) {
			snprintf(q->errmsg, sizeof q->errmsg,
				 "\"%.120s\" is not a FEN the library can play from: %s (as xiangqi: %s)",
				 fen, why_c ? why_c : "bad FEN", why_x ? why_x : "bad FEN");
			return GAMEDB_FAILED;
		}
	} else {
		gamedb__pos_startpos(&c.c);
		gamedb__xq_startpos(&x.x);
		c.valid = x.valid = 1;
	}
	if (c.valid && play_moves(&c, 0, moves, err_c, sizeof err_c) != 0)
		c.valid = 0;
	if (x.valid && play_moves(&x, 1, moves, err_x, sizeof err_x) != 0)
		x.valid = 0;
	if (!c.valid && !x.valid) {
		/* the chess message, unless the position was xiangqi from the start */
		snprintf(q->errmsg, sizeof q->errmsg, "%s", err_c[0] && (!fen || !err_x[0]) ? err_c : err_x);
		return GAMEDB_FAILED;
	}
	if (c.valid)
		chess_target_done(&c);
	if (x.valid)
		x.key = gamedb__xq_key(&x.x);
	q->chess = c;
	q->xq = x;
	q->have_pos = 1;
	q->errmsg[0] = 0;
	if (q->ix && gamedb__query_load_hits(q) != 0)
		return GAMEDB_FATAL;
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_query_add_where(struct gamedb_query *q, const char *expr)
{
	struct gamedb__where w, *nw;
	int rc;

	if (!query_ok(q))
		return GAMEDB_FATAL;
	if (!expr) {
		snprintf(q->errmsg, sizeof q->errmsg, "gamedb_query_add_where: no filter (NULL)");
		return GAMEDB_FAILED;
	}
	rc = gamedb__where_parse(&w, expr, q->errmsg, sizeof q->errmsg);
	if (rc == -1)
		return GAMEDB_FAILED;
	nw = rc == 0 ? realloc(q->where, (q->nwhere + 1) * sizeof *q->where) : NULL;
	if (!nw) {
		free(w.value);
		snprintf(q->errmsg, sizeof q->errmsg, "out of memory");
		return GAMEDB_FATAL;
	}
	q->where = nw;
	q->where[q->nwhere++] = w;
	return GAMEDB_OK;
}

uint64_t gamedb__query_key(const struct gamedb_query *q, int32_t variant)
{
	const struct gamedb__target *t = variant == GAMEDB_VARIANT_XIANGQI ? &q->xq : &q->chess;

	return q->have_pos && t->valid ? t->key : 0;
}

/* Whether chess position pos is t's. */
static int chess_same(const struct gamedb__pos *pos, const struct gamedb__target *t)
{
	return pos->stm == t->c.stm && memcmp(pos->sq, t->c.sq, sizeof pos->sq) == 0;
}

/* 0 when the game can no longer reach t: men only leave the board, pawns never return home. */
static int chess_reachable(const struct gamedb__pos *pos, const struct gamedb__target *t)
{
	int c;

	for (c = 0; c < 2; c++) {
		uint64_t pawns = pos->by_type[GAMEDB__PAWN] & pos->by_colour[c];
		if (popcount64(pos->by_colour[c]) < t->men[c] || popcount64(pawns) < t->pawns[c] ||
		    (t->home[c] & ~pawns) != 0)
			return 0;
	}
	return 1;
}

/* The move at node j and the position before it into hit. */
static void hit_move(int32_t variant, const union gamedb__anypos *pos,
		     const struct gamedb__node *nd, struct gamedb__hit *hit)
{
	hit->has_move = 1;
	if (variant == GAMEDB_VARIANT_XIANGQI) {
		gamedb__xq_move_wxf(&pos->x, &nd->m, hit->san);
		gamedb__xq_move_iccs(&nd->m, hit->uci);
		return;
	}
	if (nd->kind & GAMEDB__NODE_SAN) {
		memcpy(hit->san, nd->san, GAMEDB__SAN_MAX);
		hit->san[GAMEDB__SAN_MAX] = 0;
	} else {
		gamedb__move_san(&pos->c, &nd->m, hit->san);
	}
	gamedb__move_uci(&nd->m, hit->uci);
}

int32_t gamedb__query_locate(struct gamedb_query *q, struct gamedb_game *g, struct gamedb__hit *hit)
{
	const int xq = g->variant == GAMEDB_VARIANT_XIANGQI;
	const struct gamedb__target *t = xq ? &q->xq : &q->chess;
	/* drops put men back on the board: no pruning for crazyhouse and bughouse */
	const int prune = !xq && g->variant != GAMEDB_VARIANT_CRAZYHOUSE &&
			  g->variant != GAMEDB_VARIANT_BUGHOUSE;
	union gamedb__anypos pos;
	const char *why = NULL;
	int found = 0, depth = 0;
	int32_t ply = 0;
	size_t i;

	memset(hit, 0, sizeof *hit);
	if (!t->valid)
		return 0;
	if (gamedb__game_decode(g) == GAMEDB_FAILED) {
		snprintf(q->errmsg, sizeof q->errmsg, "%s", gamedb_game_errmsg(g));
		return GAMEDB_FAILED;
	}
	if (gamedb__game_start_pos(g, &pos, &why) != 0) {
		snprintf(q->errmsg, sizeof q->errmsg, "game %llu: bad start position: %s",
			 (unsigned long long)g->index + 1, why ? why : "");
		return GAMEDB_FAILED;
	}
	for (i = 0;; i++) {
		const struct gamedb__node *nd;
		if (!found && depth == 0 && (i == 0 || (g->mb.nodes[i - 1].type == GAMEDB_EVENT_MOVE))) {
			/* a new main-line position: the start, or just after a main-line move */
			found = xq ? pos.x.stm == t->x.stm && memcmp(pos.x.sq, t->x.sq, sizeof pos.x.sq) == 0
				   : chess_same(&pos.c, t);
			if (found) {
				hit->ply = ply;
				hit->colour = xq ? pos.x.stm : pos.c.stm;
			} else if (prune && !chess_reachable(&pos.c, t)) {
				return 0;
			}
		}
		if (i >= g->mb.n)
			break;
		nd = &g->mb.nodes[i];
		if (nd->type == GAMEDB_EVENT_VARIATION_BEGIN) {
			depth++;
		} else if (nd->type == GAMEDB_EVENT_VARIATION_END) {
			depth--;
		} else if (nd->type == GAMEDB_EVENT_MOVE && depth == 0) {
			if (found) {
				hit_move(g->variant, &pos, nd, hit);
				break;
			}
			gamedb__any_make(g->variant, &pos, &nd->m);
			ply++;
		}
	}
	if (!found)
		return 0;
	q->ply = hit->ply;
	return 1;
}

void gamedb__query_ztable(uint64_t z[16][64])
{
	struct gamedb__pos pos;
	int pc, sq;

	/* the key of a board with one man and Black to move is that man's number on that square */
	memset(&pos, 0, sizeof pos);
	pos.stm = 1;
	memset(z, 0, 16 * sizeof *z);
	for (pc = 0; pc < 16; pc++) {
		if (GAMEDB__PC_TYPE(pc) < GAMEDB__PAWN || GAMEDB__PC_TYPE(pc) > GAMEDB__KING)
			continue;
		for (sq = 0; sq < 64; sq++) {
			pos.sq[sq] = (uint8_t)pc;
			z[pc][sq] = gamedb__pos_key_board(&pos);
			pos.sq[sq] = GAMEDB__EMPTY;
		}
	}
	pos.stm = 0;
	z[7][0] = gamedb__pos_key_board(&pos); /* the side to move's (7 is no man's number) */
}

/* pos's board key from the key before the move (board before), by the squares that changed. */
static uint64_t key_update(uint64_t key, const uint8_t before[64], const struct gamedb__pos *pos,
			   const uint64_t z[16][64])
{
	int sq;

	for (sq = 0; sq < 64; sq += 8) {
		uint64_t a, b;
		memcpy(&a, before + sq, 8);
		memcpy(&b, pos->sq + sq, 8);
		if (a == b)
			continue;
		for (int k = sq; k < sq + 8; k++)
			if (before[k] != pos->sq[k])
				key ^= z[before[k] & 15][k] ^ z[pos->sq[k] & 15][k];
	}
	return key ^ z[7][0];
}

int32_t gamedb__query_walk(struct gamedb_game *g, gamedb__walk_fn fn, void *ud,
			   const uint64_t z[16][64], char *err, size_t cap)
{
	const int xq = g->variant == GAMEDB_VARIANT_XIANGQI;
	union gamedb__anypos pos;
	struct gamedb__hit hit;
	const char *why = NULL;
	uint64_t key = 0;
	uint8_t before[64];
	int depth = 0, fresh = 1, have_key = 0;
	/* chess boards only (no drops): the key follows the squares a move changes */
	const int incremental = z && !xq && g->variant != GAMEDB_VARIANT_CRAZYHOUSE &&
				g->variant != GAMEDB_VARIANT_BUGHOUSE;
	int32_t ply = 0;
	size_t i;

	if (gamedb__game_decode(g) == GAMEDB_FAILED) {
		snprintf(err, cap, "%s", gamedb_game_errmsg(g));
		return GAMEDB_FAILED;
	}
	if (gamedb__game_start_pos(g, &pos, &why) != 0) {
		snprintf(err, cap, "game %llu: bad start position: %s",
			 (unsigned long long)g->index + 1, why ? why : "");
		return GAMEDB_FAILED;
	}
	/* as gamedb__query_locate() walks: a position is new at the start and after a main-line move */
	for (i = 0;; i++) {
		const struct gamedb__node *nd = i < g->mb.n ? &g->mb.nodes[i] : NULL;
		if (fresh) {
			if (incremental && have_key)
				key = key_update(key, before, &pos.c, z);
			else
				key = xq ? gamedb__xq_key(&pos.x) : gamedb__pos_key_board(&pos.c);
			have_key = 1;
			memset(&hit, 0, sizeof hit);
			hit.ply = ply;
			hit.colour = xq ? pos.x.stm : pos.c.stm;
			fresh = 0;
		}
		if (!nd)
			break;
		if (nd->type == GAMEDB_EVENT_VARIATION_BEGIN) {
			depth++;
		} else if (nd->type == GAMEDB_EVENT_VARIATION_END) {
			depth--;
		} else if (nd->type == GAMEDB_EVENT_MOVE && depth == 0) {
			hit_move(g->variant, &pos, nd, &hit);
			if (fn(ud, key, &hit) != 0)
				return GAMEDB_FATAL;
			if (incremental)
				memcpy(before, pos.c.sq, sizeof before);
			gamedb__any_make(g->variant, &pos, &nd->m);
			ply++;
			fresh = 1;
		}
	}
	return fn(ud, key, &hit) != 0 ? GAMEDB_FATAL : GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_query_match(struct gamedb_query *q, struct gamedb_game *g)
{
	struct gamedb__hit hit;
	size_t i;

	if (!query_ok(q))
		return GAMEDB_FATAL;
	if (!g) {
		snprintf(q->errmsg, sizeof q->errmsg, "gamedb_query_match: no game (NULL)");
		return GAMEDB_FAILED;
	}
	for (i = 0; i < q->nwhere; i++)
		if (!gamedb__where_test(&q->where[i], g))
			return 0;
	if (!q->have_pos)
		return 1;
	if (q->ix && !gamedb__query_hit_of(q, g->index))
		return 0; /* the index says it does not reach it: no decoding */
	return gamedb__query_locate(q, g, &hit);
}

GAMEDB_EXPORT int32_t gamedb_query_next(struct gamedb_query *q, struct gamedb_reader *r,
					struct gamedb_game **out)
{
	if (!query_ok(q) || !out)
		return GAMEDB_FATAL;
	*out = NULL;
	for (;;) {
		struct gamedb_game *g = NULL;
		int32_t rc = gamedb_reader_next_game(r, &g), m;
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL || rc == GAMEDB_FAILED) {
			if (rc != GAMEDB_END)
				snprintf(q->errmsg, sizeof q->errmsg, "%s", gamedb_reader_errmsg(r));
			return rc;
		}
		m = gamedb_query_match(q, g);
		if (m < 0)
			return m;
		if (m == 1) {
			*out = g;
			return rc;
		}
	}
}

/* The leading whole number of s (at most 4 digits for a year), or 0. */
static int leading_number(const char *s, int max_digits)
{
	int v = 0, n = 0;

	if (!s)
		return 0;
	for (; *s >= '0' && *s <= '9' && n < max_digits; s++, n++)
		v = v * 10 + (*s - '0');
	return n && (!*s || n == max_digits || *s == '.') ? v : 0;
}

void gamedb__gamestat(struct gamedb_game *g, struct gamedb__gamestat *st)
{
	const char *res = gamedb_game_get_tag(g, "Result"), *date = gamedb_game_get_tag(g, "Date");

	st->result = !res ? 0 : strcmp(res, "1-0") == 0 ? 1 : strcmp(res, "1/2-1/2") == 0 ? 2
		   : strcmp(res, "0-1") == 0 ? 3 : 0;
	st->white_elo = leading_number(gamedb_game_get_tag(g, "WhiteElo"), 5);
	st->black_elo = leading_number(gamedb_game_get_tag(g, "BlackElo"), 5);
	st->year = date && strlen(date) >= 4 && (date[4] == '.' || !date[4]) ? leading_number(date, 4) : 0;
}
