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
 * Every `<12>` and `<b1>` line is used or reported: a line that cannot be used is a
 * GAMEDB_FAILED of next_game() whose message names the file, the line and why (the command
 * counts it as one failure), and a game that loses anything is handed out with a warning.
 *
 * Memory is bounded by the games in flight (at most S12_MAX_GAMES, holding at most
 * S12_MAX_LIVE_BYTES, of at most S12_MAX_PLIES plies each; a game pushed out by a bound is
 * handed out with a warning), never by the size of the log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/toolkit.h"
#include "formats/style12.h"

#define S12_VIEW (64u << 10)      /* bytes asked of the I/O layer at a time */
#define S12_MAX_LINE (16u << 10)  /* longer lines are skipped unread (a <12> line is ~200) */
#define S12_BID_BYTES (64u << 10) /* how far the bid looks for a <12> line */
/*
 * Games in flight: the table grows up to S12_MAX_GAMES games holding S12_MAX_LIVE_BYTES (the
 * games and their plies); past either bound the game idle longest goes out first, unfinished,
 * with a warning. A server has a few hundred games at once; a log that observes 1,000 of them
 * at once is read whole.
 */
#define S12_MAX_GAMES 4096
#define S12_MAX_LIVE_BYTES ((size_t)64 << 20)
#define S12_MAX_PLIES 65536       /* plies of one game; a longer one goes on as a new game */
#define S12_NAME GAMEDB__S12_NAME
#define S12_MAX_ANN 16            /* "Creating:" announcements kept */

/* ---- one <12> line (its reading: style12-line.c) ----------------------------------------- */

/* 1 if pos has the squares and the side to move of the line. */
static int same_board(const struct gamedb__pos *pos, const struct gamedb__s12line *L)
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
	int kind;

	if (n >= 7 && v[1] == '/' && v[2] == '@' && v[4] == '-' && !pos->zh)
		return -2;
	memset(m, 0, sizeof *m);
	m->rook_from = GAMEDB__NO_SQ;
	kind = gamedb__s12_verbose(v, m);
	if (kind == GAMEDB__S12_MV_NONE)
		return -3;
	if (kind < 0)
		return -1;
	if ((kind == GAMEDB__S12_MV_SHORT || kind == GAMEDB__S12_MV_LONG) &&
	    gamedb__move_castle(pos, kind == GAMEDB__S12_MV_SHORT, m) != 0)
		return -1;
	return gamedb__move_play(pos, m) == 0 ? 0 : -1;
}

/*
 * The legal move of pos that gives the line's board (what the verbose move should have been),
 * played into *pos; 0, or -1 when no move does.
 */
static int find_move(struct gamedb__pos *pos, const struct gamedb__s12line *L, struct gamedb__move *m)
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
	uint64_t line;  /* the line of its board */
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
	/*
	 * A takeback (or examine mode going back) leaves the moves taken back in plies[n..tail):
	 * the same moves played again keep them; other moves, or the end of the game, lose them,
	 * with a warning naming their lines (tail_line: the line that took them back).
	 */
	size_t tail;
	uint64_t tail_line;
	/* Moves taken back and lost so far: how many, and the lines they are in (first, last). */
	size_t lost;
	uint64_t lost_first, lost_last;
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
	char partner[2 * S12_NAME + 32]; /* bughouse: "53 (C vs. D)", the other board of the pair
					    (the names' bytes as the lines have them) */
	char warn[320];         /* the first warning about this game; a failure's message */
	unsigned nwarn;
	int failed;             /* not a game: a line that could not be used (warn says why) */
	char fb_sample[48];     /* its end's reason needed the fallback charset: the text's start */
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
	struct s12game **live; /* games in flight, in the order they began */
	size_t nlive, live_cap;
	size_t live_bytes;   /* their memory: the games and their plies */
	struct s12game **ready; /* finished, not yet handed out (FIFO from ready_head) */
	size_t nready, ready_head, ready_cap;
	struct s12game *out; /* the game handed out last (decode_moves reads it) */
	struct s12game *peek; /* a copy of a game in flight while it is snapshot (session) */
	struct s12ann ann[S12_MAX_ANN];
	size_t ann_next;
	char *carry;         /* the start of a line the bytes so far end in (S12_MAX_LINE bytes) */
	size_t ncarry;
	int skipping;        /* in a line longer than S12_MAX_LINE */
	int skip_own;        /* and that line is a <12> or <b1> line */
	int live_feed;       /* a live session: bytes come from gamedb_style12_session_feed() */
	char warn[320];      /* the first line warning not yet reported */
	unsigned nwarn;
	int nomem;
	uint64_t progress_at; /* the offset of the next progress report (the reader's callback) */
};

/* A game's memory, as counted against S12_MAX_LIVE_BYTES. */
static size_t game_bytes(const struct s12game *g)
{
	return sizeof *g + g->cap * sizeof *g->plies;
}

/*
 * A name for a message (messages are UTF-8): the name when it is UTF-8, else its bytes outside
 * ASCII as '?' (the game's tags have it read in the fallback charset).
 */
static const char *shown(const char *name, char *buf, size_t cap)
{
	size_t k, n = strlen(name);

	if (gamedb__utf8_valid(name, n))
		return name;
	for (k = 0; k < n && k + 1 < cap; k++)
		buf[k] = (unsigned char)name[k] < 0x80 ? name[k] : '?';
	buf[k] = 0;
	return buf;
}

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


/* Room for one more entry at the end of the ready queue: 0, or -1 (out of memory). */
static int ready_room(struct s12 *s)
{
	if (s->nready + s->ready_head == s->ready_cap && s->ready_head) {
		memmove(s->ready, s->ready + s->ready_head, s->nready * sizeof *s->ready);
		s->ready_head = 0;
	}
	if (gamedb__grow((void **)&s->ready, &s->ready_cap, s->ready_head + s->nready + 1,
			 sizeof *s->ready) != 0) {
		s->nomem = 1;
		return -1;
	}
	return 0;
}

static void line_failed(struct s12 *s, const char *fmt, ...) GAMEDB__PRINTF(2, 3);

/*
 * A <12> or <b1> line that cannot be used: a failure in the ready queue, after the games that
 * ended before it, handed out by next_game() as GAMEDB_FAILED with this message (it names the
 * file and the line). Out of memory sets s->nomem.
 */
static void line_failed(struct s12 *s, const char *fmt, ...)
{
	struct s12game *f;
	va_list ap;

	if (ready_room(s) != 0)
		return;
	f = calloc(1, sizeof *f);
	if (!f) {
		s->nomem = 1;
		return;
	}
	f->failed = 1;
	va_start(ap, fmt);
	vsnprintf(f->warn, sizeof f->warn, fmt, ap);
	va_end(ap);
	s->ready[s->ready_head + s->nready++] = f;
}

/*
 * The moves a takeback left in plies[n..tail) are not played again: counted with their lines
 * (from the first one's to the line before the takeback, which holds their boards sent again),
 * for the warning the game ends with (finish()).
 */
static void tail_lost(struct s12game *g)
{
	if (g->tail > g->n) {
		if (!g->lost || g->plies[g->n].line < g->lost_first)
			g->lost_first = g->plies[g->n].line;
		if (g->tail_line - 1 > g->lost_last)
			g->lost_last = g->tail_line - 1;
		g->lost += g->tail - g->n;
	}
	g->tail = 0;
}

/* A takeback (the board of an earlier ply) cuts g back to k plies. */
static void take_back(struct s12 *s, struct s12game *g, size_t k)
{
	if (g->n > g->tail)
		g->tail = g->n;
	g->tail_line = s->line;
	g->n = k;
}

/* Moves live game i to the ready queue. */
static int finish(struct s12 *s, size_t i, const char *result, const char *comment)
{
	struct s12game *g = s->live[i];

	if (ready_room(s) != 0)
		return -1;
	tail_lost(g);
	if (g->lost) {
		/* What it lost comes first: its message names the lines that are in no game. */
		char where[64];
		if (g->lost_first == g->lost_last)
			snprintf(where, sizeof where, "line %llu", (unsigned long long)g->lost_first);
		else
			snprintf(where, sizeof where, "lines %llu to %llu",
				 (unsigned long long)g->lost_first, (unsigned long long)g->lost_last);
		snprintf(g->warn, sizeof g->warn, "%s: %s: game %ld: %zu move%s taken back and not "
			 "played again (moves taken back are not kept)", s->f->name, where, g->gameno,
			 g->lost, g->lost == 1 ? "" : "s");
		g->nwarn++;
	}
	snprintf(g->result, sizeof g->result, "%s", result);
	if (g->zh == GAMEDB__ZH_CRAZYHOUSE && g->b1_pending) {
		/* Its last <b1> line matched neither the last board nor a move after it. */
		char want[200], have[200];
		gamedb__s12_hands_text(g->b1_hand, want, sizeof want);
		gamedb__s12_hands_text(g->cur.hand, have, sizeof have);
		game_warning(g, "%s: line %llu: game %ld: the <b1> line's holdings (%s) are not those "
			     "the moves give (%s)", s->f->name, (unsigned long long)g->b1_line,
			     g->gameno, want, have);
		g->b1_pending = 0;
	}
	if (comment && !g->comment[0])
		snprintf(g->comment, sizeof g->comment, "%s", comment);
	s->ready[s->ready_head + s->nready++] = g;
	/* Out of the live games, keeping the order of arrival (the oldest first). */
	s->live_bytes -= game_bytes(g);
	memmove(s->live + i, s->live + i + 1, (s->nlive - i - 1) * sizeof *s->live);
	s->nlive--;
	return 0;
}

/*
 * A bound of the games in flight is reached (bound says which): the game idle longest, other
 * than keep, goes out unfinished, with a warning (its next board, if any comes, starts a new
 * game from that board). 0; 1 when there is no other game; -1 out of memory.
 */
static int push_out(struct s12 *s, const struct s12game *keep, const char *bound)
{
	size_t i, old = (size_t)-1;
	struct s12game *g;
	char why[200];

	for (i = 0; i < s->nlive; i++)
		if (s->live[i] != keep && (old == (size_t)-1 || s->live[i]->touched < s->live[old]->touched))
			old = i;
	if (old == (size_t)-1)
		return 1;
	g = s->live[old];
	snprintf(why, sizeof why, "line %llu: %s: this game, without a board since line %llu, is "
		 "handed out unfinished", (unsigned long long)s->line, bound,
		 (unsigned long long)g->touched);
	game_warning(g, "%s: %s", s->f->name, why);
	return finish(s, old, "*", why) != 0 ? -1 : 0;
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

/* The warning of a game pushed out by S12_MAX_LIVE_BYTES. */
#define S12_BYTES_BOUND "the games in flight hold 64 MiB, the most a style 12 reader keeps"

/*
 * A new live game from line L (position pos, its FEN fen). When S12_MAX_GAMES are in flight,
 * or their memory is at S12_MAX_LIVE_BYTES, the one idle longest goes out first, unfinished.
 */
static struct s12game *start_game(struct s12 *s, const struct gamedb__s12line *L,
				  const struct gamedb__pos *pos, const char *fen)
{
	struct s12game *g;
	struct s12ann *a;

	while (s->nlive >= S12_MAX_GAMES || s->live_bytes + sizeof *g > S12_MAX_LIVE_BYTES) {
		int rc = push_out(s, NULL, s->nlive >= S12_MAX_GAMES
					   ? "4,096 games are in flight, the most a style 12 "
					     "reader keeps" : S12_BYTES_BOUND);
		if (rc < 0)
			return NULL;
		if (rc > 0)
			break;
	}
	if (gamedb__grow((void **)&s->live, &s->live_cap, s->nlive + 1, sizeof *s->live) != 0) {
		s->nomem = 1;
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
	g->start_ply = gamedb__s12_ply(L);
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
	s->live_bytes += game_bytes(g);
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
		   const struct gamedb__s12line *L, uint64_t hand)
{
	struct s12ply *p;
	size_t before = game_bytes(g);

	if (gamedb__grow((void **)&g->plies, &g->cap, g->n + 1, sizeof *g->plies) != 0) {
		s->nomem = 1;
		return -1;
	}
	s->live_bytes += game_bytes(g) - before;
	if (g->n < g->tail) {
		/* After a takeback: the same move again keeps the moves taken back, another loses them. */
		const struct gamedb__move *o = &g->plies[g->n].m;
		if (o->from != m->from || o->to != m->to || o->promo != m->promo ||
		    o->flags != m->flags || o->piece != m->piece)
			tail_lost(g);
	}
	/* Past the memory bound: the other games idle longest go out first. */
	while (s->live_bytes > S12_MAX_LIVE_BYTES) {
		int rc = push_out(s, g, S12_BYTES_BOUND);
		if (rc < 0)
			return -1;
		if (rc > 0)
			break;
	}
	p = &g->plies[g->n++];
	memset(p, 0, sizeof *p);
	p->m = *m;
	/* The mover is the side not to move in the line. */
	p->clock = L->stm ? L->wclock : L->bclock;
	p->taken = L->taken;
	p->ms = (uint8_t)L->ms;
	p->hand = hand;
	p->line = s->line;
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
	pc = gamedb__s12_piece(v[0]);
	if (pc > 0 && GAMEDB__PC_TYPE(pc) <= GAMEDB__QUEEN &&
	    !gamedb__hand(pos, pos->stm, GAMEDB__PC_TYPE(pc)))
		gamedb__hand_add(pos, pos->stm, GAMEDB__PC_TYPE(pc));
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
		gamedb__s12_hands_text(g->b1_hand, want, sizeof want);
		gamedb__s12_hands_text(g->cur.hand, have, sizeof have);
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
static int on_board(struct s12 *s, const struct gamedb__s12line *L)
{
	struct gamedb__pos pos, at;
	struct gamedb__move m;
	char fen[128], why[200];
	const char *fwhy = "";
	struct s12game *g;
	long i;
	uint32_t ply = gamedb__s12_ply(L), last;
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
	rc = gamedb__s12_pos(L, &pos, fen, sizeof fen, &fwhy, zh_ok);
	if (rc < 0) {
		char w[S12_NAME], b[S12_NAME];
		line_failed(s, "%s: line %llu: game %ld (%s vs. %s): the board is not a playable "
			    "position (%s); line skipped", s->f->name, (unsigned long long)s->line,
			    L->gameno, shown(L->white, w, sizeof w), shown(L->black, b, sizeof b), fwhy);
		return s->nomem ? -1 : 0;
	}
	if (rc == 1) {
		/* Read with hands; the game's kind and its <b1> lines give them (zh_setup()). */
		pos.zh = 0;
		gamedb__pos_to_fen(&pos, fen, sizeof fen);
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
			take_back(s, g, ply - g->start_ply);
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
				take_back(s, g, ply - 1 - g->start_ply);
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
		snprintf(why, sizeof why, "line %llu: the game is longer than %u plies, the most a "
			 "style 12 reader keeps; it goes on as a new game", (unsigned long long)s->line,
			 S12_MAX_PLIES);
		game_warning(g, "%s: %s", s->f->name, why);
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


/* "(1500)" into elo when it is a number; "(++++)", "(----)" give "". 0, or -1. */
static int rating(const char **pp, const char *end, char *elo)
{
	char w[16];
	size_t n, k;

	if (gamedb__s12_word(pp, end, w, sizeof w) != 0)
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
	if (gamedb__s12_word(&p, end, a.white, sizeof a.white) || rating(&p, end, a.welo) ||
	    gamedb__s12_word(&p, end, a.black, sizeof a.black) || rating(&p, end, a.belo) ||
	    gamedb__s12_word(&p, end, a.rated, sizeof a.rated) || gamedb__s12_word(&p, end, a.kind, sizeof a.kind))
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

	if (gamedb__s12_word(&p, end, w, sizeof w) || gamedb__s12_int(w, strlen(w), -1, 1000000000, &gameno))
		return 0;
	while (p < end && *p == ' ')
		p++;
	if (p == end || *p != '(')
		return 0;
	p++;
	if (gamedb__s12_word(&p, end, white, sizeof white) || gamedb__s12_word(&p, end, w, sizeof w) || strcmp(w, "vs.") ||
	    gamedb__s12_word(&p, end, black, sizeof black))
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
		if (!gamedb__s12_word(&q, close, rated, sizeof rated) && !gamedb__s12_word(&q, close, kind, sizeof kind) &&
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
		if (gamedb__s12_word(&q, end, res, sizeof res) != 0 ||
		    (strcmp(res, "1-0") && strcmp(res, "0-1") && strcmp(res, "1/2-1/2") &&
		     strcmp(res, "*")))
			return 0;
		/* The reason is server text: through the text layer, like any text of a format. */
		uint64_t before = s->r->text.fallback_texts;
		gamedb__buf_init_fixed(&reason, rstore, sizeof rstore);
		s->r->text.fallback_sample[0] = 0;
		if (gamedb__text_to_utf8(&s->r->text, gamedb__reader_charset(s->r),
					 gamedb__reader_fallback(s->r), p, rl, &reason) == GAMEDB_FAILED) {
			gamedb__buf_free(&reason);
			s->nomem = 1;
			return -1;
		}
		/* Its warning goes with this game, not with the one handed out while it is read. */
		if (s->r->text.fallback_texts != before)
			snprintf(s->live[i]->fb_sample, sizeof s->live[i]->fb_sample, "%s",
				 s->r->text.fallback_sample[0] ? s->r->text.fallback_sample : "?");
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


/*
 * "<b1> game N white [PNB] black [pn]", maybe with "<- BN" (a knight passed to black). The hands
 * of game N's position (the last of its boards): a crazyhouse game checks them against what its
 * moves give, a bughouse game takes them (its men in hand come from the partner's board). Lines
 * of a game that is not crazyhouse or bughouse, or of no game in flight, are ignored.
 */
static int on_b1(struct s12 *s, const char *p, const char *end)
{
	struct gamedb__s12b1 b1;
	char why[80];
	uint64_t hand;
	long gameno;
	struct s12game *g = NULL;
	size_t i;

	if (gamedb__s12_parse_b1(p, end, &b1, why, sizeof why) != 0) {
		line_failed(s, "%s: line %llu: <b1> line: %s; line skipped", s->f->name,
			    (unsigned long long)s->line, why);
		return s->nomem ? -1 : 0;
	}
	hand = b1.hand;
	gameno = b1.gameno;
	for (i = s->nlive; i-- > 0;)
		if (s->live[i]->gameno == gameno) {
			g = s->live[i];
			break;
		}
	if (g && g->unsupported) {
		g->touched = s->line; /* the game fails, naming its lines up to here */
		return 0;
	}
	if (!g || !g->zh) {
		/* A chess game has no hands: the line cannot be used. */
		char w[S12_NAME], b[S12_NAME];
		if (g)
			line_failed(s, "%s: line %llu: <b1> line of game %ld (%s vs. %s), which is not "
				    "announced as crazyhouse or bughouse; line skipped", s->f->name,
				    (unsigned long long)s->line, gameno, shown(g->white, w, sizeof w),
				    shown(g->black, b, sizeof b));
		else
			line_failed(s, "%s: line %llu: <b1> line of game %ld, which is not in "
				    "progress; line skipped", s->f->name, (unsigned long long)s->line,
				    gameno);
		return s->nomem ? -1 : 0;
	}
	{
		/* More men in hand than a FEN of the game can hold: not a real line. */
		struct gamedb__pos t = g->cur;
		char probe[8];
		t.hand = hand;
		if (gamedb__pos_to_fen(&t, probe, sizeof probe) >= sizeof g->fen) {
			line_failed(s, "%s: line %llu: <b1> line: more men in hand than a game holds; "
				    "line skipped", s->f->name, (unsigned long long)s->line);
			return s->nomem ? -1 : 0;
		}
	}
	if (b1.has_passed) {
		/* The passed man must be in the hand the line gives. */
		struct gamedb__pos t;
		t.hand = hand;
		if (b1.passed_colour < 0 || !gamedb__hand(&t, b1.passed_colour, b1.passed_type))
			game_warning(g, "%s: line %llu: game %ld: the <b1> line's passed man \"<- %s\" "
				     "is not in the holdings it gives", s->f->name,
				     (unsigned long long)s->line, gameno, b1.passed);
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
	if ((q = gamedb__s12_after_tag(p, end, "<12> ")) != NULL) {
		struct gamedb__s12line L;
		char why[160];
		if (gamedb__s12_parse(q, end, &L, why, sizeof why) != 0) {
			line_failed(s, "%s: line %llu: <12> line: %s; line skipped", s->f->name,
				    (unsigned long long)s->line, why);
			return s->nomem ? -1 : 0;
		}
		return on_board(s, &L);
	}
	if ((q = gamedb__s12_after_tag(p, end, "<b1> ")) != NULL)
		return on_b1(s, q, end);
	if ((q = gamedb__s12_after_tag(p, end, "{Game ")) != NULL)
		return on_game_line(s, q, end);
	if ((q = gamedb__s12_after_tag(p, end, "Creating: ")) != NULL)
		on_creating(s, q, end);
	return 0;
}

/*
 * Does the line that starts with the bytes a (na of them), then b (nb), begin as a <12> or
 * <b1> line? For a line too long to be read: one of those is reported as a line not used.
 */
static int own_line(const char *a, size_t na, const char *b, size_t nb)
{
	char head[256];
	size_t n = na < sizeof head ? na : sizeof head;

	memcpy(head, a, n);
	if (n < sizeof head) {
		size_t m = nb < sizeof head - n ? nb : sizeof head - n;
		memcpy(head + n, b, m);
		n += m;
	}
	return gamedb__s12_after_tag(head, head + n, "<12> ") != NULL ||
	       gamedb__s12_after_tag(head, head + n, "<b1> ") != NULL;
}

/* A line longer than S12_MAX_LINE, skipped: a failure when it is a <12> or <b1> line. */
static void long_line(struct s12 *s, int own)
{
	if (own)
		line_failed(s, "%s: line %llu: a <12> or <b1> line longer than %u bytes; skipped",
			    s->f->name, (unsigned long long)s->line, S12_MAX_LINE);
	else
		line_warning(s, "%s: line %llu: longer than %u bytes; skipped", s->f->name,
			     (unsigned long long)s->line, S12_MAX_LINE);
}

/*
 * The line splitter, one for a log read in views (pump()) and for the bytes a live session is
 * fed (gamedb_style12_session_feed()): each whole line goes to on_line() from where it lies,
 * the part of a line that the bytes end in is kept (at most S12_MAX_LINE bytes; a longer line
 * is skipped to its end, never held whole). 0, or -1 on out of memory.
 */
static int feed_bytes(struct s12 *s, const char *p, size_t n)
{
	while (n) {
		const char *nl = memchr(p, '\n', n);
		size_t len;
		int rc = 0;
		if (!nl) {
			if (!s->skipping && s->ncarry + n > S12_MAX_LINE) {
				s->skipping = 1;
				s->skip_own = own_line(s->carry ? s->carry : "", s->ncarry, p, n);
				s->ncarry = 0;
			}
			if (!s->skipping) {
				if (!s->carry && !(s->carry = malloc(S12_MAX_LINE))) {
					s->nomem = 1;
					return -1;
				}
				memcpy(s->carry + s->ncarry, p, n);
				s->ncarry += n;
			}
			return 0;
		}
		len = (size_t)(nl - p);
		s->line++;
		if (s->skipping || s->ncarry + len > S12_MAX_LINE) {
			long_line(s, s->skipping ? s->skip_own
						 : own_line(s->carry ? s->carry : "", s->ncarry, p, len));
			if (s->nomem)
				return -1;
		} else if (s->ncarry) {
			memcpy(s->carry + s->ncarry, p, len);
			rc = on_line(s, s->carry, s->ncarry + len);
		} else {
			rc = on_line(s, p, len);
		}
		s->ncarry = 0;
		s->skipping = 0;
		if (rc != 0)
			return -1;
		p = nl + 1;
		n -= len + 1;
	}
	return 0;
}

/* The end of the bytes: the last line, if it has no line break, is a line. 0, or -1. */
static int feed_end(struct s12 *s)
{
	int rc = 0;

	if (s->skipping) {
		s->line++;
		long_line(s, s->skip_own);
		if (s->nomem)
			rc = -1;
	} else if (s->ncarry) {
		s->line++;
		rc = on_line(s, s->carry, s->ncarry);
	}
	s->ncarry = 0;
	s->skipping = 0;
	s->eof = 1;
	return rc;
}

/*
 * Reads lines until a game is ready or the log ends (a live session: until its bytes so far
 * are used). 0, or -1 on an I/O error (the reader's error set by the I/O layer) or out of
 * memory (s->nomem).
 */
static int pump(struct s12 *s)
{
	while (!s->nready && !s->eof && !s->live_feed) {
		const uint8_t *v;
		int64_t got = gamedb__file_view(s->f, s->off, S12_VIEW, &v);

		if (got < 0)
			return -1;
		if (got == 0) {
			/* The last progress report: the log read, done equal to the total. */
			if (gamedb__progress(s->r, GAMEDB_PROGRESS_BYTES, s->off, s->off) != 0 ||
			    feed_end(s) != 0)
				return -1;
			break;
		}
		if (feed_bytes(s, (const char *)v, (size_t)got) != 0)
			return -1;
		s->off += (uint64_t)got;
		/* The reader's progress, in bytes read (a cancel: -1, the error set). */
		if (s->off >= s->progress_at) {
			if (gamedb__progress(s->r, GAMEDB_PROGRESS_BYTES, s->off, s->f->size) != 0)
				return -1;
			s->progress_at = s->off + GAMEDB_PROGRESS_BYTES_STEP;
		}
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

/*
 * 1 if the n bytes at p hold "<12> " somewhere: what every line style12_bid() takes holds.
 * A file without it is refused in one scan, not line by line (a binary file such as a
 * ChessBase .cbh has a '\n' every few hundred bytes: 0.8M instructions of line tests a bid).
 */
static int holds_style12_tag(const uint8_t *p, size_t n)
{
	const uint8_t *q = p, *const end = p + n;

	while ((q = memchr(q, '<', (size_t)(end - q))) != NULL) {
		if (end - q >= 5 && memcmp(q, "<12> ", 5) == 0)
			return 1;
		q++;
	}
	return 0;
}

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
	if (got <= 0 || !holds_style12_tag(p, (size_t)got))
		return -1;
	while (pos < (size_t)got) {
		const uint8_t *nl = memchr(p + pos, '\n', (size_t)got - pos);
		size_t len = nl ? (size_t)(nl - (p + pos)) : (size_t)got - pos;
		const char *b = (const char *)p + pos, *e = b + len, *q;
		if (len && e[-1] == '\r')
			e--;
		if (len <= S12_MAX_LINE && (q = gamedb__s12_after_tag(b, e, "<12> ")) != NULL) {
			struct gamedb__s12line L;
			char why[160];
			if (gamedb__s12_parse(q, e, &L, why, sizeof why) == 0)
				return 90;
			found = 1;
		}
		if (!nl)
			break;
		pos += len + 1;
	}
	return found ? 40 : -1;
}

/* struct gamedb_game.fmt_flags of a snapshot of a game in flight (session_peek_game()). */
#define S12_GF_PEEK 1u

static void style12_close(void *state)
{
	struct s12 *s = state;
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nlive; i++)
		game_free(s->live[i]);
	free(s->live);
	for (i = 0; i < s->nready; i++)
		game_free(s->ready[s->ready_head + i]);
	free(s->ready);
	free(s->carry);
	game_free(s->out);
	free(s);
}

static int32_t style12_open(struct gamedb_reader *r, void **state)
{
	struct s12 *s = calloc(1, sizeof *s);

	if (!s)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	s->r = r;
	s->progress_at = GAMEDB_PROGRESS_BYTES_STEP;
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

/*
 * A tag whose value holds names as the lines have them: ASCII as it is, other bytes through
 * the text layer in the reader's charset (UTF-8 by default, bytes that are not UTF-8 read in
 * the fallback, CP1252 by default: the core then warns, once per game). 0, or -1.
 */
static int add_name_tag(struct gamedb_game *g, const char *name, const char *value)
{
	size_t n = strlen(value);

	if (gamedb__text_is_plain(value, n))
		return add_tag(g, name, value);
	return gamedb__game_add_tag_raw(g, &g->head, name, value, n,
					gamedb__reader_charset(g->reader)) == GAMEDB_FAILED ? -1 : 0;
}

/* The header of game x into g: variant, start position and tags. 0, or -1 (out of memory). */
static int fill_game(struct s12 *s, const struct s12game *x, struct gamedb_game *g)
{
	char buf[64], date[11];

	(void)s;
	g->variant = x->zh == GAMEDB__ZH_CRAZYHOUSE ? GAMEDB_VARIANT_CRAZYHOUSE
		     : x->zh == GAMEDB__ZH_BUGHOUSE ? GAMEDB_VARIANT_BUGHOUSE
		     : x->start.chess960 || strcmp(x->variant, "wild/fr") == 0 ? GAMEDB_VARIANT_CHESS960
									        : GAMEDB_VARIANT_CHESS;
	snprintf(g->fen, sizeof g->fen, "%s", x->fen);
	g->start = x->start;
	g->have_start = 1;
	gamedb__pgn_date(date, 0, 0, 0); /* a log line carries no date */
	if (add_tag(g, "Event", "?") || add_tag(g, "Site", "?") || add_tag(g, "Date", date) ||
	    add_tag(g, "Round", "?") || add_name_tag(g, "White", x->white) ||
	    add_name_tag(g, "Black", x->black) || add_tag(g, "Result", x->result))
		return -1;
	if ((x->welo[0] && add_tag(g, "WhiteElo", x->welo)) ||
	    (x->belo[0] && add_tag(g, "BlackElo", x->belo)))
		return -1;
	if (x->base || x->inc)
		snprintf(buf, sizeof buf, "%ld+%ld", x->base * 60, x->inc);
	else
		snprintf(buf, sizeof buf, "-");
	if (!x->zero && add_tag(g, "TimeControl", buf))
		return -1;
	if (x->nonstandard && (add_tag(g, "SetUp", "1") || add_tag(g, "FEN", x->fen)))
		return -1;
	if (x->variant[0] && !(strcmp(x->variant, "blitz") == 0 ||
			       strcmp(x->variant, "lightning") == 0 ||
			       strcmp(x->variant, "standard") == 0 || strcmp(x->variant, "untimed") == 0)) {
		if (add_tag(g, "Variant", strcmp(x->variant, "wild/fr") == 0 ? "chess960" : x->variant))
			return -1;
	} else if (g->variant == GAMEDB_VARIANT_CHESS960 && add_tag(g, "Variant", "chess960")) {
		return -1;
	}
	snprintf(buf, sizeof buf, "%ld", x->gameno);
	if (add_tag(g, "GameNo", buf))
		return -1;
	if (x->rated[0] && add_tag(g, "Rated", strcmp(x->rated, "rated") == 0 ? "yes" : "no"))
		return -1;
	if (x->partner[0] && add_name_tag(g, "BughousePartner", x->partner))
		return -1;
	return 0;
}

static int32_t style12_next_game(void *state, struct gamedb_game *g)
{
	struct s12 *s = state;
	struct s12game *x;
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
	if (x->failed) {
		/*
		 * A line that could not be used: one failure, which takes a game number as every
		 * FAILED of next_game() does (one game per call, read or not; the command counts
		 * it as one failure).
		 */
		s->index++;
		rc = gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "%s", x->warn);
		game_free(x);
		return rc;
	}
	s->out = x;
	g->index = s->index++;
	/*
	 * Texts read in the fallback charset while the lines were read belong to the games they
	 * are in (fb_sample), not to this one: the count starts again for this game's own.
	 */
	s->r->text.fallback_texts = 0;
	s->r->text.fallback_sample[0] = 0;
	if (fill_game(s, x, g) != 0)
		goto nomem;
	if (x->fb_sample[0] && !s->r->text.fallback_texts) {
		s->r->text.fallback_texts = 1;
		snprintf(s->r->text.fallback_sample, sizeof s->r->text.fallback_sample, "%s",
			 x->fb_sample);
	}
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
	struct s12game *x = (g->fmt_flags & S12_GF_PEEK) ? s->peek : s->out;
	struct gamedb__pos pos;
	size_t i, sanlen = 0;
	char san[GAMEDB__SAN_MAX] = { 0 };

	if (!x || (!(g->fmt_flags & S12_GF_PEEK) && g->index + 1 != s->index)) {
		gamedb__game_seterr(g, "%s: game %llu: its moves are gone (a style 12 log is read as "
				    "a stream: decode a game before reading the next)",
				    s->f->name, (unsigned long long)g->index + 1);
		return GAMEDB_FAILED;
	}
	if (x->unsupported) {
		/* Its lines are named (first to last), since none of them is used. */
		char w[S12_NAME], b[S12_NAME];
		gamedb__game_seterr(g, "%s: lines %llu to %llu: game %ld (%s vs. %s): %s%s%s",
				    s->f->name, (unsigned long long)x->first_line,
				    (unsigned long long)x->touched, x->gameno,
				    shown(x->white, w, sizeof w), shown(x->black, b, sizeof b),
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
		if ((x->zh == GAMEDB__ZH_BUGHOUSE ? gamedb__mb_move_hand(mb, &m, x->plies[i].hand)
						   : gamedb__mb_move_san(mb, &m, fullmove, colour, san,
									 sanlen)) != 0 ||
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

/* ---- the live session: a reader of this format whose bytes are fed, not read ------------- */

#define S12_SESSION_MAGIC 0x53313253u /* "S12S" */

struct gamedb_style12_session {
	uint32_t magic;
	int ended;
	struct gamedb_reader *r; /* the style12 reader over an empty stream, fed by hand */
	struct s12 *s;           /* its state */
	struct gamedb_game peek; /* a game of r's, for session_peek_game() */
};

static int session_ok(const struct gamedb_style12_session *x)
{
	return x && x->magic == S12_SESSION_MAGIC;
}

GAMEDB_EXPORT struct gamedb_style12_session *gamedb_style12_session_new(const char *name)
{
	struct gamedb_style12_session *x = calloc(1, sizeof *x);

	if (!x)
		return NULL;
	x->magic = S12_SESSION_MAGIC;
	x->r = gamedb_reader_new();
	if (!x->r || gamedb_reader_set_format(x->r, "style12") != GAMEDB_OK ||
	    gamedb_reader_open_memory(x->r, name && name[0] ? name : "live", "", 0) < GAMEDB_WARN ||
	    x->r->fmt != &gamedb__format_style12) {
		gamedb_reader_free(x->r);
		free(x);
		return NULL;
	}
	x->s = x->r->fmt_state;
	x->s->live_feed = 1;
	x->peek.magic = GAMEDB__GAME_MAGIC;
	x->peek.reader = x->r;
	return x;
}

GAMEDB_EXPORT void gamedb_style12_session_free(struct gamedb_style12_session *x)
{
	if (!session_ok(x))
		return;
	gamedb__game_release(&x->peek);
	gamedb_reader_free(x->r);
	x->magic = 0;
	free(x);
}

/* A call on a session that cannot go on: its status, with the reader's message set. */
static int32_t session_check(struct gamedb_style12_session *x, const char *fn)
{
	if (!session_ok(x))
		return GAMEDB_FATAL;
	if (x->r->state != GAMEDB__RS_OPEN)
		return gamedb__error(x->r, GAMEDB_FATAL, GAMEDB_E_MISUSE,
				     "%s: the session had a fatal error: only "
				     "gamedb_style12_session_free() is valid", fn);
	gamedb__clear_error(x->r);
	if (x->ended)
		return gamedb__error(x->r, GAMEDB_FATAL, GAMEDB_E_MISUSE,
				     "%s: the session has ended", fn);
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_style12_session_feed(struct gamedb_style12_session *x,
						  const char *bytes, size_t n)
{
	int32_t rc = session_check(x, "gamedb_style12_session_feed");

	if (rc != GAMEDB_OK)
		return rc;
	if (!bytes && n)
		return gamedb__error(x->r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_style12_session_feed: bytes is NULL");
	if (n && feed_bytes(x->s, bytes, n) != 0)
		return gamedb__error(x->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_style12_session_end(struct gamedb_style12_session *x)
{
	int32_t rc = session_check(x, "gamedb_style12_session_end");

	if (rc != GAMEDB_OK)
		return rc;
	x->ended = 1;
	if (feed_end(x->s) != 0 || x->s->nomem)
		return gamedb__error(x->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_style12_session_next_game(struct gamedb_style12_session *x,
						       struct gamedb_game **out)
{
	if (out)
		*out = NULL;
	if (!session_ok(x))
		return GAMEDB_FATAL;
	/* The reader's own next_game: the same hand-out as a log's (pump() reads no bytes). */
	return gamedb_reader_next_game(x->r, out);
}

GAMEDB_EXPORT size_t gamedb_style12_session_get_live_count(const struct gamedb_style12_session *x)
{
	return session_ok(x) ? x->s->nlive : 0;
}

GAMEDB_EXPORT int32_t gamedb_style12_session_peek_game(struct gamedb_style12_session *x,
						       size_t i, struct gamedb_game **out)
{
	struct s12game *c;
	const struct s12game *g;
	int32_t rc;

	if (out)
		*out = NULL;
	if (!session_ok(x) || !out)
		return GAMEDB_FAILED;
	if (x->r->state != GAMEDB__RS_OPEN)
		return GAMEDB_FAILED;
	if (i >= x->s->nlive)
		return gamedb__error(x->r, GAMEDB_FAILED, GAMEDB_E_RANGE,
				     "gamedb_style12_session_peek_game: %zu games are in flight", x->s->nlive);
	g = x->s->live[i];
	c = malloc(sizeof *c);
	if (!c)
		return gamedb__error(x->r, GAMEDB_FAILED, GAMEDB_E_NOMEM, "out of memory");
	*c = *g;
	c->plies = NULL;
	c->cap = 0;
	if (g->n && (c->plies = malloc(g->n * sizeof *c->plies)) == NULL) {
		free(c);
		return gamedb__error(x->r, GAMEDB_FAILED, GAMEDB_E_NOMEM, "out of memory");
	}
	if (g->n)
		memcpy(c->plies, g->plies, g->n * sizeof *c->plies);
	c->cap = g->n;
	snprintf(c->result, sizeof c->result, "*");
	gamedb__game_reset(&x->peek);
	x->peek.fmt_flags = S12_GF_PEEK;
	x->peek.index = x->s->index; /* the number it would have if it ended now */
	x->s->peek = c;
	if (fill_game(x->s, c, &x->peek) != 0) {
		rc = gamedb__error(x->r, GAMEDB_FAILED, GAMEDB_E_NOMEM, "out of memory");
	} else {
		/* The copy decodes the moves now, through the format's decode_moves(). */
		rc = gamedb_game_dup(&x->peek, out);
		if (rc == GAMEDB_FAILED)
			gamedb__error(x->r, GAMEDB_FAILED, GAMEDB_E_NOMEM, "out of memory");
	}
	x->s->peek = NULL;
	game_free(c);
	gamedb__game_reset(&x->peek);
	return rc;
}

GAMEDB_EXPORT const char *gamedb_style12_session_errmsg(const struct gamedb_style12_session *x)
{
	return session_ok(x) ? x->r->errmsg : "invalid session handle";
}
