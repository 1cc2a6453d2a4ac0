/*
 * libgamedb - every charset that iconv knows, over real bases: whatever the `charset` option
 * names, every string the library hands out is UTF-8 (issue 8 item 4: glibc's iconv writes the
 * 4-byte groups of UCS-4 or WCHAR_T text that lie above U+10FFFF in 4- to 6-byte forms, which
 * the text layer passed on; `iconv -f UTF-8 -t UTF-8` takes those, so it cannot tell).
 *
 * The charset names: every name `iconv -l` lists (or the names given on the command line;
 * skipped with 77 when there is neither). The bases: the SCID (.si4, .si3) and ChessBase
 * (.cbh) bases under $GAMEDB_REALDATA/scid and $GAMEDB_REALDATA/chessbase, and the SCID test
 * bases of $GAMEDB_TESTDATA/scid (always: the real SCID bases hold ASCII text only, and ASCII
 * text never reaches iconv).
 *
 * The games: a first pass in the default charset picks, in each base, the first FIRST_GAMES
 * games and every game whose stored text (the raw bytes of a tag or a comment) holds a byte
 * that is not ASCII, up to MAX_GAMES a base: only such text goes through iconv, pure ASCII
 * passes through whatever the charset. With the real data and testdata that is 210 games in
 * 33 bases: 48 of Hedgehog.cbh (all 204 have such text), 48 of the 58 of linares.cbh (503
 * games), all 7 of test.cbh, and the first 4 (or all, when fewer) of each other base, plus
 * one more of testdata's tags.si4. About 20 s for the whole `iconv -l` list (1180 names with
 * glibc 2.36) in a plain build, 50 s under ASan.
 *
 * For each charset name, each base is opened with gamedb_reader_set_option(r, NULL,
 * "charset", NAME), and in each picked game every tag (name and value), every event text
 * (comments, commands, results) and the game's message are checked with tests/utf8-check.h,
 * as are the SCID description and flag names and every title and content of each ChessBase
 * guiding text. A name that the option refuses (iconv_open() cannot convert from it) is
 * counted and skipped.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <gamedb/gamedb.h>

#include "testlib.h"
#include "walk-files.h"
#include "text-n.h"
#include "utf8-check.h"

#ifndef FIRST_GAMES
#define FIRST_GAMES 4 /* games taken from the start of every base */
#endif
#ifndef MAX_GAMES
#define MAX_GAMES 48 /* games a base at most (Hedgehog.cbh and linares.cbh have more) */
#endif
#define MAX_BASES 64
#define MAX_REPORTS 30 /* invalid strings printed in full; the rest are counted */

struct base {
	char path[1024];
	uint64_t games[MAX_GAMES];
	size_t ngames;
	uint64_t total; /* games in the base */
};

static struct base bases[MAX_BASES];
static size_t nbases;

static char **charsets;
static size_t ncharsets, charsets_cap;

static unsigned long long strings_checked, games_read, games_lossy, invalid;
static unsigned long long charset_invalid; /* of the charset being run */
static char failed_names[1024];            /* the charsets that gave something not UTF-8 */
static size_t failed_charsets;
static const char *cur_charset, *cur_base;

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void add_charset(const char *name)
{
	if (ncharsets == charsets_cap) {
		charsets_cap = charsets_cap ? 2 * charsets_cap : 256;
		charsets = realloc(charsets, charsets_cap * sizeof *charsets);
		if (!charsets)
			abort();
	}
	charsets[ncharsets] = strdup(name);
	if (!charsets[ncharsets])
		abort();
	ncharsets++;
}

/*
 * glibc's `iconv -l` prints the names one a line ("UCS-4//") to a pipe, several a line
 * separated by commas to a terminal; names of the form "ISO-10646/UCS4/" keep their slash.
 */
static void list_charsets(void)
{
	FILE *f = popen("iconv -l 2>/dev/null", "r");
	char line[4096];

	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *tok, *save = NULL;
		for (tok = strtok_r(line, ", \t\r\n", &save); tok; tok = strtok_r(NULL, ", \t\r\n", &save)) {
			size_t n = strlen(tok);
			if (n >= 2 && strcmp(tok + n - 2, "//") == 0)
				tok[n - 2] = 0;
			if (*tok)
				add_charset(tok);
		}
	}
	pclose(f);
}

/* 1 if the n stored bytes hold a byte that is not ASCII (or a NUL): text iconv will see. */
static int not_ascii(const char *s, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		if ((unsigned char)s[i] >= 0x80 || s[i] == 0)
			return 1;
	return 0;
}

/* Checks one string the library handed out; what says where it came from. */
static void check_str(const char *s, size_t n, uint64_t game, const char *what)
{
	size_t i;

	if (!s)
		return;
	strings_checked++;
	if (utf8_valid(s, n))
		return;
	invalid++;
	charset_invalid++;
	testlib_failed++;
	if (invalid > MAX_REPORTS)
		return;
	fprintf(stderr, "not UTF-8: charset %s, %s, game %llu, %s:", cur_charset, cur_base,
		(unsigned long long)game, what);
	for (i = 0; i < n && i < 48; i++)
		fprintf(stderr, " %02x", (unsigned char)s[i]);
	fprintf(stderr, "%s\n", n > 48 ? " ..." : "");
}

#define CHECK_STR(s, game, what)                                                                 \
	do {                                                                                   \
		const char *s_ = (s);                                                          \
		check_str(s_, s_ ? strlen(s_) : 0, game, what);                                \
	} while (0)

/* Every tag, every event text and the message of game g (index idx). */
static void walk_game(struct gamedb_game *g, uint64_t idx)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	size_t i, n = gamedb_game_get_tag_count(g);
	int32_t rc;

	games_read++;
	for (i = 0; i < n; i++) {
		const char *name = NULL, *value = NULL;
		if (gamedb_game_get_tag_at(g, i, &name, &value) != GAMEDB_OK) {
			CHECK_MSG(0, "%s: game %llu: tag %zu of %zu", cur_base, (unsigned long long)idx,
				  i, n);
			continue;
		}
		CHECK_STR(name, idx, "tag name");
		CHECK_STR(value, idx, name ? name : "tag");
	}
	rc = gamedb_move_iter_new(g, GAMEDB_ITER_PARTIAL, &it);
	if (it) {
		while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
			CHECK_STR(gamedb_event_get_text(ev), idx, "event text");
			CHECK(text_n_agrees(ev));
		}
		gamedb_move_iter_free(it);
	} else {
		CHECK_MSG(rc == GAMEDB_FAILED, "%s: game %llu: iterator: %d", cur_base,
			  (unsigned long long)idx, (int)rc);
	}
	if (gamedb_game_get_status(g) == GAMEDB_WARN)
		games_lossy++;
	CHECK_STR(gamedb_game_errmsg(g), idx, "game message");
}

/* The texts that belong to the base rather than to a game. */
static void walk_base_texts(struct gamedb_reader *r)
{
	struct gamedb_scid *s = gamedb_reader_get_scid(r);
	struct gamedb_chessbase *cb = gamedb_reader_get_chessbase(r);
	int32_t k;

	if (s) {
		CHECK_STR(gamedb_scid_get_description(s), 0, "SCID description");
		for (k = 1; k <= 6; k++)
			CHECK_STR(gamedb_scid_get_flag_name(s, k), 0, "SCID flag name");
	}
	if (cb) {
		uint64_t i, n = gamedb_chessbase_get_text_count(cb);
		for (i = 0; i < n; i++) {
			const char *content;
			size_t len = 0;
			if (gamedb_chessbase_load_text(cb, i) == GAMEDB_FAILED)
				continue;
			for (k = 0; k < gamedb_chessbase_get_text_title_count(cb); k++)
				CHECK_STR(gamedb_chessbase_get_text_title(cb, k, NULL), i, "text title");
			content = gamedb_chessbase_get_text_content(cb, NULL, &len);
			if (content) {
				check_str(content, len, i, "text content");
				/* A NUL inside would cut the C string short. */
				CHECK_MSG(strlen(content) == len, "%s: charset %s: text %llu: NUL inside",
					  cur_base, cur_charset, (unsigned long long)i);
			}
		}
	}
}

static struct gamedb_reader *open_base(const char *path, const char *charset, int32_t *set_rc)
{
	struct gamedb_reader *r = gamedb_reader_new();
	int32_t rc;

	if (!r)
		abort();
	if (charset) {
		*set_rc = gamedb_reader_set_option(r, NULL, "charset", charset);
		if (*set_rc != GAMEDB_OK) {
			gamedb_reader_free(r);
			return NULL;
		}
	}
	rc = gamedb_reader_open_filename(r, path);
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		CHECK_MSG(charset == NULL, "%s: charset %s: open: %s", path, charset,
			  gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return NULL;
	}
	return r;
}

/* The first pass, in the default charset: which games of the base to read in every charset. */
static void pick_games(struct base *b)
{
	struct gamedb_reader *r = open_base(b->path, NULL, NULL);
	struct gamedb_game *g;
	uint64_t seen = 0;

	if (!r)
		return;
	gamedb_reader_game_count(r, &b->total);
	for (;;) {
		int32_t rc = b->ngames < MAX_GAMES ? gamedb_reader_next_game(r, &g) : GAMEDB_END;
		int take = seen++ < FIRST_GAMES;
		size_t i, n;
		if (rc != GAMEDB_OK && rc != GAMEDB_WARN)
			break;
		n = gamedb_game_get_tag_count(g);
		for (i = 0; !take && i < n; i++) {
			const char *name = NULL, *value, *raw;
			size_t len = 0;
			gamedb_game_get_tag_at(g, i, &name, &value);
			raw = name ? gamedb_game_get_tag_raw(g, name, &len, NULL) : NULL;
			take = not_ascii(raw, len);
		}
		if (!take) {
			struct gamedb_move_iter *it = NULL;
			const struct gamedb_event *ev;
			gamedb_move_iter_new(g, GAMEDB_ITER_PARTIAL, &it);
			while (it && !take && gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
				int32_t t = gamedb_event_get_type(ev);
				size_t len = 0;
				const char *raw;
				if (t != GAMEDB_EVENT_COMMENT_BEFORE && t != GAMEDB_EVENT_COMMENT_AFTER)
					continue;
				raw = gamedb_event_get_text_raw(ev, &len);
				take = not_ascii(raw, len);
			}
			gamedb_move_iter_free(it);
		}
		if (take)
			b->games[b->ngames++] = gamedb_game_get_index(g);
	}
	gamedb_reader_free(r);
}

static void add_base(const char *path)
{
	struct base *b;

	if (nbases == MAX_BASES)
		return;
	b = &bases[nbases];
	memset(b, 0, sizeof *b);
	snprintf(b->path, sizeof b->path, "%s", path);
	pick_games(b);
	if (b->ngames)
		nbases++;
}

/*
 * A file of the walk (walk_files(): in name order, so that the order is the same on every run):
 * a regular file .si4, .si3 or .cbh is a base.
 */
static void find_base(const char *folder, const char *name, const char *path, void *ctx)
{
	struct stat sb;

	(void)folder;
	(void)ctx;
	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    (ends_with(name, ".si4") || ends_with(name, ".si3") || ends_with(name, ".cbh")))
		add_base(path);
}

/* One charset over every base; 0 when the option refused the name. */
static int run_charset(const char *charset)
{
	size_t i, k;

	cur_charset = charset;
	for (i = 0; i < nbases; i++) {
		struct base *b = &bases[i];
		int32_t set_rc = GAMEDB_OK;
		struct gamedb_reader *r;

		cur_base = b->path;
		r = open_base(b->path, charset, &set_rc);
		if (set_rc != GAMEDB_OK)
			return 0; /* the same for every base */
		if (!r)
			continue;
		walk_base_texts(r);
		for (k = 0; k < b->ngames; k++) {
			struct gamedb_game *g = NULL;
			int32_t rc = gamedb_reader_seek_game(r, b->games[k]);
			if (rc == GAMEDB_OK || rc == GAMEDB_WARN)
				rc = gamedb_reader_next_game(r, &g);
			CHECK_MSG((rc == GAMEDB_OK || rc == GAMEDB_WARN) && g,
				  "%s: charset %s: game %llu: %d: %s", b->path, charset,
				  (unsigned long long)b->games[k], (int)rc, gamedb_reader_errmsg(r));
			if (g && (rc == GAMEDB_OK || rc == GAMEDB_WARN))
				walk_game(g, b->games[k]);
		}
		gamedb_reader_free(r);
	}
	return 1;
}

int main(int argc, char **argv)
{
	const char *real = getenv("GAMEDB_REALDATA"), *td = getenv("GAMEDB_TESTDATA");
	char dir[1024];
	struct timespec t0, t1;
	size_t i, picked = 0, refused = 0;
	int a;

	for (a = 1; a < argc; a++)
		add_charset(argv[a]);
	if (argc <= 1)
		list_charsets();
	if (ncharsets == 0)
		TEST_SKIP("no charset names (`iconv -l` gave none and none were given)");

	if (real && *real) {
		snprintf(dir, sizeof dir, "%s/scid", real);
		walk_files(dir, 8, find_base, NULL);
		snprintf(dir, sizeof dir, "%s/chessbase", real);
		walk_files(dir, 8, find_base, NULL);
	}
	if (td && *td) {
		snprintf(dir, sizeof dir, "%s/scid", td);
		walk_files(dir, 8, find_base, NULL);
	}
	if (nbases == 0)
		TEST_SKIP("no base under $GAMEDB_REALDATA/{scid,chessbase} or $GAMEDB_TESTDATA/scid");
	for (i = 0; i < nbases; i++) {
		printf("%s: %zu of %llu games\n", bases[i].path, bases[i].ngames,
		       (unsigned long long)bases[i].total);
		picked += bases[i].ngames;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < ncharsets; i++) {
		charset_invalid = 0;
		if (!run_charset(charsets[i]))
			refused++;
		if (charset_invalid) {
			size_t used = strlen(failed_names);
			failed_charsets++;
			if (used + strlen(charsets[i]) + 2 < sizeof failed_names)
				snprintf(failed_names + used, sizeof failed_names - used, " %s",
					 charsets[i]);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	printf("%zu charset names (%zu refused by the option), %zu bases, %zu games a charset: "
	       "%llu games read (%llu with lossy text), %llu strings checked, %llu not UTF-8, "
	       "%.1f s\n",
	       ncharsets, refused, nbases, picked, games_read, games_lossy, strings_checked,
	       invalid, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (failed_charsets)
		printf("%zu charsets gave text that is not UTF-8:%s%s\n", failed_charsets,
		       failed_names, strlen(failed_names) + 64 > sizeof failed_names ? " ..." : "");
	CHECK(invalid == 0);
	CHECK(refused < ncharsets);
	for (i = 0; i < ncharsets; i++)
		free(charsets[i]);
	free(charsets);
	return testlib_done();
}
