/*
 * libgamedb - the writers' cursor (lib/core/cursor.h) against the public event stream (issue 27).
 *
 * For every game of every real and test base (SCID si3/si4/si5, ChessBase cbh/cbv, XQF, Chess
 * Assistant, style 12 logs, found under GAMEDB_REALDATA and GAMEDB_TESTDATA), with each set of
 * iterator flags the writers use and each kind of run they ask for, the walk a writer makes
 * (gamedb__cursor_next(): runs of plain moves and NAGs read through struct gamedb__ply and passed
 * with gamedb__cursor_pass(), the other events as they come) must give the very sequence of
 * events that gamedb_move_iter_next() gives: type, SAN, move number and colour, NAG, text,
 * depth. A run is also passed in part (its first item, then the rest again from the cursor),
 * and the event the iterator holds after a pass must be the run's last item, as after as many
 * gamedb_move_iter_next() calls.
 *
 * And the writers' bytes: every game written by gamedb_game_write_pgn() (both layouts),
 * gamedb_game_write_json() and gamedb_game_write_packed(), with the flags that change what a
 * run holds, must be byte for byte what the same writer writes with its runs turned off, every
 * move taken as an event from gamedb_move_iter_next() (cursor-events-pgn.c,
 * cursor-events-json.c, cursor-events-packed.c: the writer's source built again with the
 * public stream alone), with the same return value. The writers are not written
 * a second time here: the path of the moves is what is compared, the rest is one code.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gamedb/gamedb.h"
#include "core/cursor.h"
#include "text-n.h"
#include "testlib.h"
#include "walk-files.h"

/* One event as the sequence records it. */
struct rec {
	int32_t type, depth, movenum, colour, nag;
	char san[16];
	const char *text;
};

struct seq {
	struct rec *v;
	size_t n, cap;
};

static void push(struct seq *s, const struct rec *r)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		if (!s->v)
			abort();
	}
	s->v[s->n++] = *r;
}

/* An event of the public stream, recorded. */
static void from_event(const struct gamedb_event *ev, struct rec *r)
{
	const char *san;

	memset(r, 0, sizeof *r);
	r->type = gamedb_event_get_type(ev);
	r->depth = gamedb_event_get_depth(ev);
	r->nag = gamedb_event_get_nag(ev);
	r->text = gamedb_event_get_text(ev);
	CHECK(text_n_agrees(ev));
	r->movenum = gamedb_event_get_move_number(ev, &r->colour);
	san = gamedb_event_get_san(ev);
	if (san)
		snprintf(r->san, sizeof r->san, "%s", san);
}

static int same(const struct rec *a, const struct rec *b)
{
	return a->type == b->type && a->depth == b->depth && a->movenum == b->movenum &&
	       a->colour == b->colour && a->nag == b->nag && strcmp(a->san, b->san) == 0 &&
	       (a->text == b->text || (a->text && b->text && strcmp(a->text, b->text) == 0));
}

static long games, events, runs, failures, written, packed;

/* The writers with their runs turned off (cursor-events-*.c). */
int32_t test_events_write_pgn(struct gamedb_game *g, uint32_t flags, gamedb_write_fn sink,
			      void *user_data);
int32_t test_events_write_json(struct gamedb_game *g, uint32_t flags, gamedb_write_fn sink,
			       void *user_data);
int32_t test_events_write_packed(struct gamedb_game *g, uint32_t flags, void *buf, size_t cap,
				 size_t *out_len);

struct bytes {
	char *p;
	size_t len;
};

static int sink(void *user, const char *data, size_t len)
{
	struct bytes *b = user;
	char *np = realloc(b->p, b->len + len + 1);

	if (!np)
		return -1;
	memcpy(np + b->len, data, len);
	b->p = np;
	b->len += len;
	return 0;
}

/* One game written both ways, compared. */
static void check_writer(const char *path, struct gamedb_game *g, int json, uint32_t flags)
{
	struct bytes a = { 0 }, b = { 0 };
	int32_t ra, rb;

	ra = json ? gamedb_game_write_json(g, flags, sink, &a) : gamedb_game_write_pgn(g, flags, sink, &a);
	rb = json ? test_events_write_json(g, flags, sink, &b) : test_events_write_pgn(g, flags, sink, &b);
	written++;
	CHECK(ra == rb);
	CHECK(a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0));
	if ((ra != rb || a.len != b.len || (a.len && memcmp(a.p, b.p, a.len) != 0)) && failures++ < 10)
		fprintf(stderr, "%s: game %llu: %s flags %u: the cursor's %zu bytes (rc %d) differ from "
			"the event stream's %zu (rc %d)\n", path,
			(unsigned long long)gamedb_game_get_index(g) + 1, json ? "json" : "pgn",
			flags, a.len, (int)ra, b.len, (int)rb);
	free(a.p);
	free(b.p);
}

/*
 * One game packed both ways (gamedb_game_write_packed() and its source with the runs turned
 * off), compared: the size asked for, then the bytes in a buffer of that size.
 */
static void check_packed(const char *path, struct gamedb_game *g, uint32_t flags)
{
	size_t na = 0, nb = 0, ma = 0, mb = 0;
	int32_t ra = gamedb_game_write_packed(g, flags, NULL, 0, &na);
	int32_t rb = test_events_write_packed(g, flags, NULL, 0, &nb);
	char *a = NULL, *b = NULL;
	int same_bytes;

	packed++;
	CHECK(ra == rb && na == nb);
	if (ra != GAMEDB_FAILED && na > 0 && na == nb && (a = malloc(na)) && (b = malloc(nb))) {
		ra = gamedb_game_write_packed(g, flags, a, na, &ma);
		rb = test_events_write_packed(g, flags, b, nb, &mb);
		CHECK(ra == rb && ma == na && mb == nb);
	}
	same_bytes = ra == rb && na == nb && (!a || !b || memcmp(a, b, na) == 0);
	CHECK(same_bytes);
	if (!same_bytes && failures++ < 10)
		fprintf(stderr, "%s: game %llu: packed flags %#x: the cursor's %zu bytes (rc %d) "
			"differ from the event stream's %zu (rc %d)\n", path,
			(unsigned long long)gamedb_game_get_index(g) + 1, (unsigned)flags, na,
			(int)ra, nb, (int)rb);
	free(a);
	free(b);
}

/* The sequence by gamedb_move_iter_next(). */
static int walk_public(struct gamedb_game *g, uint32_t flags, struct seq *s)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	struct rec r;

	if (gamedb_move_iter_new(g, flags, &it) == GAMEDB_FAILED)
		return -1;
	while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
		from_event(ev, &r);
		push(s, &r);
	}
	gamedb_move_iter_free(it);
	return 0;
}

/*
 * The sequence by the cursor, as a writer walks: runs (what) read through the ply view, passed
 * whole, or (split) their first item alone and the rest again from the cursor.
 */
static int walk_cursor(struct gamedb_game *g, uint32_t flags, unsigned what, int split,
		       struct seq *s)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev, *held = NULL;
	struct gamedb__run run;
	struct gamedb__ply pl;
	struct rec r;
	int32_t depth = 0;

	if (gamedb_move_iter_new(g, flags, &it) == GAMEDB_FAILED)
		return -1;
	while (gamedb__cursor_next(it, what, &run, &ev) == GAMEDB_OK) {
		size_t k;
		if (!run.n) {
			from_event(ev, &r);
			push(s, &r);
			held = ev;
			depth = r.type == GAMEDB_EVENT_VARIATION_END ? r.depth - 1 : r.depth;
			continue;
		}
		runs++;
		CHECK(ev == NULL);
		CHECK(run.depth == depth);
		for (k = 0; k < run.n; k++) {
			gamedb__run_ply(&run, k, &pl);
			if (!gamedb__ply_plain(&run, &pl))
				break;
			memset(&r, 0, sizeof r);
			r.type = pl.type;
			r.depth = depth;
			r.nag = -1;
			if (pl.type == GAMEDB_EVENT_MOVE) {
				CHECK(pl.san_len == strlen(gamedb__run_san(&run, k)));
				/* The SAN's own bytes: past its end the node's room is not set
				 * (valgrind: a comparison of the whole room read unset bytes). */
				CHECK(memcmp(gamedb__run_san(&run, k), pl.san, pl.san_len) == 0);
				snprintf(r.san, sizeof r.san, "%s", gamedb__run_san(&run, k));
				r.movenum = (int32_t)pl.num;
				r.colour = pl.colour;
			} else {
				r.nag = (int32_t)pl.num;
			}
			push(s, &r);
			if (split)
				break;
		}
		CHECK(k >= 1 || split);
		if (split)
			k = 1;
		gamedb__cursor_pass(it, &run, k);
		/* The event the iterator holds is the last item passed (one object per iterator). */
		if (held) {
			struct rec now;
			from_event(held, &now);
			CHECK(same(&now, &s->v[s->n - 1]));
			if (!same(&now, &s->v[s->n - 1]))
				fprintf(stderr, "  after a pass: type %d san %s\n", now.type, now.san);
		}
	}
	gamedb_move_iter_free(it);
	return 0;
}

static void check_game(const char *path, struct gamedb_game *g)
{
	static const uint32_t iflags[] = { GAMEDB_ITER_PARTIAL,
					   GAMEDB_ITER_PARTIAL | GAMEDB_ITER_SKIP_COMMENTS,
					   GAMEDB_ITER_PARTIAL | GAMEDB_ITER_MAINLINE_ONLY,
					   GAMEDB_ITER_PARTIAL | GAMEDB_ITER_SKIP_COMMENTS |
						   GAMEDB_ITER_MAINLINE_ONLY };
	static const unsigned whats[] = { GAMEDB__RUN_MOVES | GAMEDB__RUN_NAGS, GAMEDB__RUN_MOVES, 0 };
	size_t f, w, i;
	int split;

	static const uint32_t pgn_flags[] = {
		GAMEDB_WRITE_PARTIAL, GAMEDB_WRITE_PARTIAL | GAMEDB_WRITE_LAYOUT_SCID,
		GAMEDB_WRITE_PARTIAL | GAMEDB_WRITE_NO_NAGS,
		GAMEDB_WRITE_PARTIAL | GAMEDB_WRITE_LAYOUT_SCID | GAMEDB_WRITE_NO_COMMENTS |
			GAMEDB_WRITE_NO_VARIATIONS,
		GAMEDB_WRITE_PARTIAL | GAMEDB_WRITE_WXF };
	/* The packed writer: the binding's flags (grouped or not, keys), the iterator's. */
	static const uint32_t pack_flags[] = {
		GAMEDB_ITER_PARTIAL, GAMEDB_ITER_PARTIAL | GAMEDB_PACK_GROUPED,
		GAMEDB_ITER_PARTIAL | GAMEDB_PACK_GROUPED | GAMEDB_PACK_KEYS,
		GAMEDB_ITER_PARTIAL | GAMEDB_PACK_GROUPED | GAMEDB_ITER_MAINLINE_ONLY |
			GAMEDB_ITER_UCI_KING_TAKES_ROOK,
		GAMEDB_ITER_PARTIAL | GAMEDB_ITER_SKIP_COMMENTS | GAMEDB_ITER_FEN };
	static const uint32_t json_flags[] = {
		GAMEDB_WRITE_PARTIAL, GAMEDB_WRITE_PARTIAL | GAMEDB_WRITE_NO_COMMENTS,
		GAMEDB_WRITE_PARTIAL | GAMEDB_WRITE_NO_VARIATIONS | GAMEDB_WRITE_NO_NAGS };

	games++;
	for (f = 0; f < sizeof pgn_flags / sizeof pgn_flags[0]; f++)
		check_writer(path, g, 0, pgn_flags[f]);
	for (f = 0; f < sizeof json_flags / sizeof json_flags[0]; f++)
		check_writer(path, g, 1, json_flags[f]);
	for (f = 0; f < sizeof pack_flags / sizeof pack_flags[0]; f++)
		check_packed(path, g, pack_flags[f]);
	for (f = 0; f < sizeof iflags / sizeof iflags[0]; f++) {
		struct seq ref = { 0 };
		if (walk_public(g, iflags[f], &ref) != 0) {
			free(ref.v);
			continue;
		}
		events += (long)ref.n;
		for (w = 0; w < sizeof whats / sizeof whats[0]; w++) {
			for (split = 0; split < 2; split++) {
				struct seq got = { 0 };
				int ok;
				CHECK(walk_cursor(g, iflags[f], whats[w], split, &got) == 0);
				ok = got.n == ref.n;
				for (i = 0; ok && i < ref.n; i++)
					ok = same(&got.v[i], &ref.v[i]);
				CHECK(ok);
				if (!ok && failures++ < 10) {
					for (i = 0; i < got.n && i < ref.n && same(&got.v[i], &ref.v[i]); i++)
						;
					fprintf(stderr, "%s: game %llu, flags %u, runs %u%s: event %zu of "
						"%zu/%zu differs\n", path,
						(unsigned long long)gamedb_game_get_index(g) + 1,
						iflags[f], whats[w], split ? " split" : "", i, got.n,
						ref.n);
				}
				free(got.v);
			}
		}
		free(ref.v);
	}
}

static int is_base(const char *dir, const char *name)
{
	static const char *const ext[] = { ".si3", ".si4", ".si5", ".cbh", ".cbv", ".xqf", ".cdp",
					    ".cbl" };
	size_t i, n = strlen(name);

	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		size_t e = strlen(ext[i]);
		if (n > e && strcasecmp(name + n - e, ext[i]) == 0)
			return 1;
	}
	/* style 12 logs, as scripts/refcheck.py finds them */
	return strstr(dir, "style12") && ((n > 10 && strcmp(name + n - 10, "_lines.txt") == 0) ||
					  (n > 4 && strcmp(name + n - 4, ".log") == 0));
}

static long bases;

/* A file of the walk (walk_files()): a base is opened and each of its games checked. */
static void walk_file(const char *dir, const char *name, const char *path, void *ctx)
{
	struct gamedb_reader *r;
	struct gamedb_game *g;
	int32_t rc;

	(void)ctx;
	if (!is_base(dir, name))
		return;
	r = gamedb_reader_new();
	if (r && gamedb_reader_open_filename(r, path) == GAMEDB_OK) {
		bases++;
		while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
			if (g)
				check_game(path, g);
		}
	}
	gamedb_reader_free(r);
}

int main(void)
{
	const char *roots[] = { getenv("GAMEDB_REALDATA"), getenv("GAMEDB_TESTDATA") };
	size_t i;

	for (i = 0; i < 2; i++)
		if (roots[i])
			walk_files(roots[i], 64, walk_file, NULL);
	if (!bases) {
		printf("no base found: skipped\n");
		return 77;
	}
	printf("%ld bases, %ld games, %ld events, %ld runs compared; %ld games written both ways, "
	       "%ld packed both ways\n", bases, games, events, runs, written, packed);
	CHECK(runs > 0);
	CHECK(packed > 0);
	return testlib_done();
}
