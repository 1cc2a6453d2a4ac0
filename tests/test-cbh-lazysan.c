/*
 * libgamedb - SAN made only when asked for, in the ChessBase decoder (issue 32), on every real
 * ChessBase base (GAMEDB_REALDATA/chessbase, skipped when absent).
 *
 * Every base is opened twice. Reader E wants SAN (as a writer makes it want: every move is
 * played with its SAN, GAMEDB__NODE_SAN); reader L does not, before every game (every move is
 * played by gamedb__move_play_fast(), GAMEDB__NODE_NUM, and the iterator makes the SAN when it
 * is asked). Game by game, L must give what E gives:
 *   - the same decode status and message (a game with an illegal move fails at the same move);
 *   - the same events without SAN (numbers and colours handed out without a replay);
 *   - the same SAN for every move, main line and variations, asked lazily (which must set L's
 *     want_san: the game had no SAN);
 *   - the same PGN (both layouts), JSON and packed game, written by the writers AFTER the
 *     SAN-less walk, so from the nodes without SAN (a program that walks a game, then writes it).
 * And legality without SAN: copies of a real base under /tmp with a move byte flipped fail
 * alike, with and without SAN, some of them at an illegal move (check_flips()).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/reader.h"
#include "sbuf.h"
#include "testlib.h"
#include "walk-files.h"

/*
 * The event stream of g with flags GAMEDB_ITER_PARTIAL (a failed game: its legal part): each
 * event's type and depth, a move's number, colour and squares, and its SAN when san is set.
 */
static void walk(struct gamedb_game *g, int san, struct sbuf *out)
{
	struct gamedb_move_iter *it;
	const struct gamedb_event *ev;
	int32_t rc = gamedb_move_iter_new(g, GAMEDB_ITER_PARTIAL, &it);

	out->len = 0;
	sb_printf(out, "rc %d:", (int)rc);
	if (rc == GAMEDB_FAILED)
		return;
	while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
		const int32_t type = gamedb_event_get_type(ev);
		sb_printf(out, " %d/%d", (int)type, (int)gamedb_event_get_depth(ev));
		if (type == GAMEDB_EVENT_MOVE) {
			int32_t from, to, promo, colour, num = gamedb_event_get_move_number(ev, &colour);
			gamedb_event_get_move(ev, &from, &to, &promo);
			sb_printf(out, " %d%c%d-%d=%d", (int)num, colour ? 'b' : 'w', (int)from, (int)to,
				  (int)promo);
			if (san)
				sb_printf(out, " %s", gamedb_event_get_san(ev));
		} else if (gamedb_event_get_text(ev)) {
			sb_printf(out, " {%s}", gamedb_event_get_text(ev));
		}
	}
	gamedb_move_iter_free(it);
}

/* How many of g's MOVE nodes are of kind `kind`, and how many MOVE nodes there are. */
static size_t count_kind(const struct gamedb_game *g, int kind, size_t *moves)
{
	size_t i, n = 0;

	*moves = 0;
	for (i = 0; i < g->mb.n; i++) {
		if (g->mb.nodes[i].type != GAMEDB_EVENT_MOVE)
			continue;
		++*moves;
		n += g->mb.nodes[i].kind == kind;
	}
	return n;
}

/* What the writers give for g: PGN in both layouts (the legal part of a failed game), JSON, packed. */
static void write_all(struct gamedb_game *g, struct sbuf *out)
{
	size_t len = 0;
	void *buf;

	out->len = 0;
	sb_printf(out, "pgn %d\n", (int)gamedb_game_write_pgn(g, GAMEDB_WRITE_PARTIAL, sb_sink, out));
	sb_printf(out, "scid %d\n", (int)gamedb_game_write_pgn(g, GAMEDB_WRITE_PARTIAL |
							      GAMEDB_WRITE_LAYOUT_SCID, sb_sink, out));
	sb_printf(out, "json %d\n", (int)gamedb_game_write_json(g, GAMEDB_WRITE_PARTIAL, sb_sink, out));
	if (gamedb_game_write_packed(g, GAMEDB_ITER_PARTIAL, NULL, 0, &len) == GAMEDB_FAILED || !len)
		return;
	buf = calloc(1, len);
	if (buf && gamedb_game_write_packed(g, GAMEDB_ITER_PARTIAL, buf, len, &len) != GAMEDB_FAILED) {
		sb_printf(out, "packed %zu\n", len);
		sb_add(out, buf, len); /* bytes: compared by length and memcmp below */
	}
	free(buf);
}

static int same(const struct sbuf *a, const struct sbuf *b)
{
	return a->len == b->len && memcmp(a->p, b->p, a->len) == 0;
}

static size_t total_games, total_moves, total_failed;

static void check_base(const char *path)
{
	struct gamedb_reader *re = gamedb_reader_new(), *rl = gamedb_reader_new();
	struct gamedb_game *ge, *gl;
	struct sbuf a = {0}, b = {0};
	size_t games = 0, bad = 0;

	gamedb_reader_support_format_all(re);
	gamedb_reader_support_format_all(rl);
	if (gamedb_reader_open_filename(re, path) == GAMEDB_FAILED ||
	    gamedb_reader_open_filename(rl, path) == GAMEDB_FAILED) {
		/* a base no reader opens is another test's business */
		gamedb_reader_free(re);
		gamedb_reader_free(rl);
		return;
	}
	re->want_san = 1;
	for (;;) {
		int32_t se = gamedb_reader_next_game(re, &ge), sl = gamedb_reader_next_game(rl, &gl);
		size_t moves, nk, gbad = 0;
		int32_t de, dl;
		if (se != sl) {
			CHECK_MSG(se == sl, "%s: game %zu: next_game %d and %d", path, games + 1, (int)se,
				  (int)sl);
			break;
		}
		if (se == GAMEDB_END || se == GAMEDB_FATAL)
			break;
		games++;
		rl->want_san = 0; /* L: every game decoded for a caller that asks no SAN */
		de = gamedb__game_decode(ge);
		dl = gamedb__game_decode(gl);
		gbad += de != dl || strcmp(gamedb_game_errmsg(ge), gamedb_game_errmsg(gl)) != 0;
		total_failed += de == GAMEDB_FAILED;
		/* E's moves carry their SAN, L's only their numbers (else this test proves nothing). */
		nk = count_kind(ge, GAMEDB__NODE_SAN, &moves);
		gbad += nk != moves;
		nk = count_kind(gl, GAMEDB__NODE_NUM, &moves);
		gbad += nk != moves;
		total_moves += moves;
		/* The events without SAN: no replay, the same numbers, colours and squares. */
		walk(ge, 0, &a);
		walk(gl, 0, &b);
		gbad += !same(&a, &b) || rl->want_san != 0;
		/* Every move's SAN, L's made on demand (which sets want_san, when there are moves). */
		walk(ge, 1, &a);
		walk(gl, 1, &b);
		gbad += !same(&a, &b) || rl->want_san != (moves > 0);
		/* The writers after the walks, L's game still without SAN in its nodes. */
		write_all(ge, &a);
		write_all(gl, &b);
		gbad += !same(&a, &b) || count_kind(gl, GAMEDB__NODE_NUM, &moves) != moves;
		if (gbad && bad < 5)
			fprintf(stderr, "%s: game %zu differs:\nE: %.600s\nL: %.600s\n", path, games,
				a.p ? a.p : "", b.p ? b.p : "");
		bad += gbad != 0;
	}
	CHECK_MSG(bad == 0, "%s: %zu of %zu games differ without SAN", path, bad, games);
	total_games += games;
	free(a.p);
	free(b.p);
	gamedb_reader_free(re);
	gamedb_reader_free(rl);
}

/* Copies file src to dst, with the byte at `flip` (if below the size) xor-ed with x. 0 or -1. */
static int copy_flipped(const char *src, const char *dst, long flip, int x)
{
	FILE *in = fopen(src, "rb"), *out = in ? fopen(dst, "wb") : NULL;
	long at = 0;
	int c, ok = in && out;

	while (ok && (c = getc(in)) != EOF) {
		if (at++ == flip)
			c ^= x;
		ok = putc(c, out) != EOF;
	}
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

/* Decodes game 1 of the base at path with and without SAN: status and message into *st, msg. */
static void first_game(const char *path, int want_san, int32_t *st, char *msg, size_t cap)
{
	struct gamedb_reader *r = gamedb_reader_new();
	struct gamedb_game *g;

	*st = -99;
	msg[0] = 0;
	gamedb_reader_support_format_all(r);
	if (gamedb_reader_open_filename(r, path) != GAMEDB_FAILED &&
	    gamedb_reader_next_game(r, &g) == GAMEDB_OK) {
		r->want_san = want_san;
		*st = gamedb__game_decode(g);
		snprintf(msg, cap, "%s", gamedb_game_errmsg(g));
	}
	gamedb_reader_free(r);
}

/*
 * Legality without SAN on a real game: copies of linares (in a folder under /tmp) whose first
 * game has one move byte flipped, each decoded with and without SAN. Both must give the same
 * status and message; some of the flips must make an illegal move (so the fast path's checks
 * are what is tested).
 */
static void check_flips(const char *real)
{
	char dir[] = "/tmp/gamedb-lazysan-XXXXXX", src[1024], dst[1200], base[1200], m1[512], m2[512];
	/* the base's files the reader reads (the players' and tournaments' too) */
	static const char *const ext[] = { "cbh", "cbg", "cba", "cbp", "cbt", "cbc", "cbs", "cbe",
					   "cbj", "cbm" };
	const int next = (int)(sizeof ext / sizeof ext[0]);
	size_t illegal = 0, differ = 0, k;
	char to1[1100];
	unsigned char rec[4];
	long game;
	FILE *cbh;
	int i;

	snprintf(src, sizeof src, "%s/chessbase/morphy/linares/linares", real);
	snprintf(dst, sizeof dst, "%s.cbg", src);
	if (!mkdtemp(dir)) {
		CHECK_MSG(0, "mkdtemp failed");
		return;
	}
	snprintf(base, sizeof base, "%s/l.cbh", dir);
	for (i = 0; i < next; i++) {
		char from[1100], to[1300];
		snprintf(from, sizeof from, "%s.%s", src, ext[i]);
		snprintf(to, sizeof to, "%s/l.%s", dir, ext[i]);
		if (copy_flipped(from, to, -1, 0) != 0) {
			printf("no %s: flips skipped\n", from);
			goto out;
		}
	}
	/* The first game's record: at the .cbg offset of the .cbh's first record (46 bytes in,
	 * bytes 1-4, big-endian); 4 bytes, then its moves. */
	snprintf(to1, sizeof to1, "%s.cbh", src);
	cbh = fopen(to1, "rb");
	if (!cbh || fseek(cbh, 47, SEEK_SET) != 0 || fread(rec, 1, 4, cbh) != 4) {
		CHECK_MSG(0, "cannot read %s", to1);
		if (cbh)
			fclose(cbh);
		goto out;
	}
	fclose(cbh);
	game = (long)rec[0] << 24 | (long)rec[1] << 16 | (long)rec[2] << 8 | rec[3];
	for (k = 0; k < 48; k++) {
		char to[1300];
		int32_t s1, s2;
		snprintf(to, sizeof to, "%s/l.cbg", dir);
		if (copy_flipped(dst, to, game + 4 + (long)k, 0x5A) != 0)
			break;
		first_game(base, 1, &s1, m1, sizeof m1);
		first_game(base, 0, &s2, m2, sizeof m2);
		if (s1 != s2 || strcmp(m1, m2) != 0) {
			if (differ++ < 3)
				fprintf(stderr, "flip %zu: %d %d\n%s\n%s\n", k, (int)s1, (int)s2, m1, m2);
		}
		illegal += s1 == GAMEDB_FAILED && strstr(m1, "illegal move") != NULL;
	}
	printf("linares, game 1, 48 bytes flipped: %zu illegal moves\n", illegal);
	CHECK_MSG(differ == 0, "%zu flips decode differently with and without SAN", differ);
	CHECK(illegal > 0);
out:
	for (i = 0; i < next; i++) {
		char to[1300];
		snprintf(to, sizeof to, "%s/l.%s", dir, ext[i]);
		remove(to);
	}
	rmdir(dir);
}

static size_t nbases;

/* A file of the walk (walk_files()): every .cbh is a base. */
static void find_base(const char *folder, const char *name, const char *path, void *ctx)
{
	size_t len = strlen(name);

	(void)folder;
	(void)ctx;
	if (len > 4 && strcmp(name + len - 4, ".cbh") == 0) {
		check_base(path);
		nbases++;
	}
}

int main(void)
{
	const char *real = getenv("GAMEDB_REALDATA");
	char dir[1024];
	struct stat st;

	if (!real || !*real)
		TEST_SKIP("GAMEDB_REALDATA not set");
	snprintf(dir, sizeof dir, "%s/chessbase", real);
	if (stat(dir, &st) != 0)
		TEST_SKIP("no %s", dir);
	walk_files(dir, 6, find_base, NULL);
	check_flips(real);
	printf("%zu bases, %zu games (%zu failed), %zu moves\n", nbases, total_games, total_failed,
	       total_moves);
	CHECK(nbases > 0);
	CHECK(total_moves > 10000);
	CHECK(total_failed > 0); /* real bases hold games with illegal moves: they fail alike */
	return testlib_done();
}
