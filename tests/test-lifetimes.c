/*
 * libgamedb - lifetimes of what the public API hands out (public API only, links gamedb_dep).
 *
 * Two parts, over every real base under $GAMEDB_REALDATA (SCID .si4/.si3 under scid/,
 * ChessBase .cbh under chessbase/, XQF files under xqf/) and the SCID fixtures of
 * $GAMEDB_TESTDATA/scid, each opened with no option, with the `charset` option (CP1251), with
 * the ChessBase `language` option (de), and with both:
 *
 * 1. Copies outlive their reader (gamedb_game_dup(): "the copy is self-contained ... and stays
 *    valid after the reader is freed"). Games are copied while the reader is open and every
 *    public game function (every getter, both writers, the move iterator with every event
 *    accessor, a copy of the copy) is run on the borrowed game and on its copy; the reader is
 *    then freed (for bases opened from memory, the memory is overwritten and freed too), new
 *    readers with another charset are made to take over the freed memory, and the same calls
 *    on the copies must give the same text, byte for byte.
 * 2. Each documented lifetime rule of include/gamedb/gamedb.h and doc/ownership.md is used up to
 *    its limit: pointers taken from a borrowed game (tag names, values, raw bytes and their
 *    charset, start and final FEN) are read again after every other call on the game and on the
 *    reader short of the next gamedb_reader_next_game(); event strings after every other
 *    accessor and game call short of the next gamedb_move_iter_next(); the reader's message
 *    until its next call; the SCID and ChessBase handles' strings until gamedb_reader_free() or
 *    the next gamedb_chessbase_load_text(); static strings after their object is gone.
 *
 * Meant for the -Db_sanitize=address,undefined build and for valgrind, where a pointer used past
 * the memory it points into is reported; part 1 also fails in a plain build, since the freed
 * reader's memory is reused with other content. Exit 77 when no base is found at all.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <gamedb/gamedb.h>

#include "load-file.h"
#include "sbuf.h"
#include "testlib.h"
#include "walk-files.h"

#define MAX_BASES 1024
#define MAX_FILES 24
#define MAX_PER_BASE 24 /* games copied (part 1) or examined (part 2) per base and option set */

/* ---- text buffer -------------------------------------------------------------------------- */

/* label="text" (or label=NULL), so that NULL and "" differ. */
static void sb_str(struct sbuf *b, const char *label, const char *s)
{
	sb_printf(b, " %s=", label);
	if (!s) {
		sb_add(b, "NULL", 4);
		return;
	}
	sb_add(b, "\"", 1);
	sb_add(b, s, strlen(s));
	sb_add(b, "\"", 1);
}

static void sb_hex(struct sbuf *b, const char *label, const char *p, size_t n)
{
	size_t i;

	sb_printf(b, " %s=", label);
	if (!p) {
		sb_add(b, "NULL", 4);
		return;
	}
	for (i = 0; i < n; i++)
		sb_printf(b, "%02x", (unsigned char)p[i]);
	sb_printf(b, "/%zu", n);
}


static char *dup_or_null(const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = malloc(strlen(s) + 1);
	if (!d)
		exit(99);
	return strcpy(d, s);
}

/* 1 if s (a pointer kept from earlier) still reads as the copy taken then (both may be NULL). */
static int same_str(const char *s, const char *copy)
{
	if (!s || !copy)
		return s == copy;
	return strcmp(s, copy) == 0;
}

/* The length of the line at s (at most 300 bytes, for messages). */
static int line_len(const char *s)
{
	const char *nl = strchr(s, '\n');
	size_t n = nl ? (size_t)(nl - s) : strlen(s);

	return n > 300 ? 300 : (int)n;
}

/* Prints the first line where two dumps differ. */
static void show_diff(const char *what, const char *a, const char *b)
{
	size_t i = 0, line = 1, start = 0;

	while (a[i] && a[i] == b[i]) {
		if (a[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	fprintf(stderr, "  %s: first difference on line %zu:\n    before: %.*s\n    after:  %.*s\n",
		what, line, line_len(a + start), a + start, line_len(b + start), b + start);
}

/* ---- dumps: every public function that takes a game or an event ------------------------ */

static void dump_event(struct sbuf *o, const struct gamedb_event *ev)
{
	int32_t from = -1, to = -1, promo = -1, colour = -1, rc, num;
	const char *raw;
	size_t len = 12345;
	int k;

	sb_printf(o, "ev type=%d depth=%d", (int)gamedb_event_get_type(ev),
		  (int)gamedb_event_get_depth(ev));
	rc = gamedb_event_get_move(ev, &from, &to, &promo);
	sb_printf(o, " move=%d:%d-%d=%d piece=%d", (int)rc, (int)from, (int)to, (int)promo,
		  (int)gamedb_event_get_piece(ev));
	num = gamedb_event_get_move_number(ev, &colour);
	sb_printf(o, " num=%d colour=%d", (int)num, (int)colour);
	sb_str(o, "san", gamedb_event_get_san(ev));
	sb_str(o, "uci", gamedb_event_get_uci(ev));
	sb_str(o, "fen", gamedb_event_get_fen(ev));
	for (k = 0; k <= 6; k++) { /* 0 and 6 are no notation: NULL */
		char label[16];
		snprintf(label, sizeof label, "notation%d", k);
		sb_str(o, label, gamedb_event_get_notation(ev, k));
	}
	sb_str(o, "text", gamedb_event_get_text(ev));
	raw = gamedb_event_get_text_raw(ev, &len);
	sb_hex(o, "raw", raw, raw ? len : 0);
	sb_printf(o, " rawlen=%zu nag=%d", len, (int)gamedb_event_get_nag(ev));
	sb_str(o, "language", gamedb_event_get_language(ev));
	sb_printf(o, " annotation=%d\n", (int)gamedb_event_get_annotation_type(ev));
}

static void dump_moves(struct sbuf *o, struct gamedb_game *g, uint32_t flags)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	int32_t rc = gamedb_move_iter_new(g, flags, &it);

	sb_printf(o, "iter flags=%u rc=%d\n", (unsigned)flags, (int)rc);
	if (!it) {
		sb_str(o, "errmsg", gamedb_game_errmsg(g));
		sb_add(o, "\n", 1);
		return;
	}
	while ((rc = gamedb_move_iter_next(it, &ev)) == GAMEDB_OK)
		dump_event(o, ev);
	sb_printf(o, "iter end rc=%d\n", (int)rc);
	gamedb_move_iter_free(it);
}

static void dump_write(struct sbuf *o, struct gamedb_game *g, int json, uint32_t flags)
{
	struct sbuf text = { 0 };
	int32_t rc = json ? gamedb_game_write_json(g, flags, sb_sink, &text)
			  : gamedb_game_write_pgn(g, flags, sb_sink, &text);

	sb_printf(o, "%s flags=%u rc=%d\n", json ? "json" : "pgn", (unsigned)flags, (int)rc);
	if (text.p)
		sb_add(o, text.p, text.len);
	sb_add(o, "\n", 1);
	sb_free(&text);
}

static void dump_tag(struct sbuf *o, struct gamedb_game *g, const char *name)
{
	const char *raw, *charset = "unset";
	size_t len = 12345;

	sb_str(o, "get", gamedb_game_get_tag(g, name));
	raw = gamedb_game_get_tag_raw(g, name, &len, &charset);
	sb_hex(o, "raw", raw, raw ? len : 0);
	sb_printf(o, " rawlen=%zu", len);
	sb_str(o, "charset", charset);
	sb_add(o, "\n", 1);
}

/*
 * Every public function of a game, in a fixed order. Run on a game whose moves are already
 * decoded (a copy, or a borrowed game after its copy was made), so that the status and the
 * message read before the moves are the same on both.
 */
static int32_t discard(void *user_data, const char *data, size_t len)
{
	(void)user_data;
	(void)data;
	(void)len;
	return 0;
}

static void dump_game(struct sbuf *o, struct gamedb_game *g)
{
	size_t i, n = gamedb_game_get_tag_count(g);

	sb_printf(o, "index=%llu tags=%zu\n", (unsigned long long)gamedb_game_get_index(g), n);
	for (i = 0; i <= n; i++) { /* one past the end: FAILED, nothing set */
		const char *name = "unset", *value = "unset";
		int32_t rc = gamedb_game_get_tag_at(g, i, &name, &value);
		sb_printf(o, "tag %zu rc=%d", i, (int)rc);
		sb_str(o, "name", name);
		sb_str(o, "value", value);
		if (rc == GAMEDB_OK && name)
			dump_tag(o, g, name);
		else
			sb_add(o, "\n", 1);
	}
	sb_add(o, "missing:", 8);
	dump_tag(o, g, "NoSuchTag");
	sb_str(o, "fen", gamedb_game_get_fen(g));
	sb_printf(o, " variant=%d deleted=%d status=%d", (int)gamedb_game_get_variant(g),
		  (int)gamedb_game_is_deleted(g), (int)gamedb_game_get_status(g));
	sb_str(o, "errmsg", gamedb_game_errmsg(g));
	sb_str(o, "final", gamedb_game_get_final_fen(g));
	sb_add(o, "\n", 1);
	dump_moves(o, g, GAMEDB_ITER_FEN | GAMEDB_ITER_PARTIAL);
	dump_moves(o, g, 0);
	dump_moves(o, g, GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS);
	dump_write(o, g, 0, 0);
	dump_write(o, g, 0, GAMEDB_WRITE_NO_COMMANDS | GAMEDB_WRITE_WXF);
	dump_write(o, g, 0, GAMEDB_WRITE_CHINESE | GAMEDB_WRITE_NO_VARIATIONS);
	dump_write(o, g, 1, 0);
	dump_write(o, g, 1, GAMEDB_WRITE_NO_COMMENTS | GAMEDB_WRITE_NO_NAGS);
	sb_printf(o, "status=%d", (int)gamedb_game_get_status(g));
	sb_str(o, "errmsg", gamedb_game_errmsg(g));
	sb_add(o, "\n", 1);
}

/* ---- bases -------------------------------------------------------------------------------- */

struct base {
	char path[1024];
	int chessbase;
};

static struct base bases[MAX_BASES];
static size_t nbases;

static int has_ext(const char *name, const char *const *exts)
{
	const char *dot = strrchr(name, '.');

	for (; dot && *exts; exts++)
		if (strcasecmp(dot, *exts) == 0)
			return 1;
	return 0;
}

/* What find_bases() looks for: files with one of exts, ChessBase bases or not. */
struct base_kind {
	const char *const *exts;
	int chessbase;
};

/* A file of the walk (walk_files()): a regular file with one of the extensions is a base. */
static void find_base(const char *folder, const char *name, const char *path, void *ctx)
{
	const struct base_kind *k = ctx;
	struct stat st;

	(void)folder;
	if (strlen(path) < sizeof bases[0].path && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    has_ext(name, k->exts) && nbases < MAX_BASES) {
		strcpy(bases[nbases].path, path);
		bases[nbases].chessbase = k->chessbase;
		nbases++;
	}
}

/* The bases below dir, down to 8 folders deep, in name order. */
static void find_bases(const char *dir, const char *const *exts, int chessbase)
{
	struct base_kind k = { exts, chessbase };

	walk_files(dir, 8, find_base, &k);
}

/* A base's files in memory: the primary, then every file of its folder with the same stem. */
struct memset_files {
	const char *names[MAX_FILES];
	char *owned_names[MAX_FILES];
	const void *data[MAX_FILES];
	uint8_t *owned_data[MAX_FILES];
	size_t sizes[MAX_FILES];
	size_t n;
};

static void memset_add(struct memset_files *m, const char *path, const char *name)
{
	size_t size;
	uint8_t *data;

	if (m->n == MAX_FILES || !(data = load_file(path, &size)))
		return;
	m->owned_names[m->n] = dup_or_null(name);
	m->names[m->n] = m->owned_names[m->n];
	m->owned_data[m->n] = data;
	m->data[m->n] = data;
	m->sizes[m->n] = size;
	m->n++;
}

/* What memset_load() adds to: the set, the primary's name and the length of its stem. */
struct memset_walk {
	struct memset_files *m;
	const char *base;
	size_t stem;
};

/* A file of the walk (walk_files()) over the primary's folder: added when it has its stem. */
static void memset_sibling(const char *folder, const char *name, const char *path, void *ctx)
{
	const struct memset_walk *w = ctx;

	(void)folder;
	if (strncmp(name, w->base, w->stem) == 0 && strcmp(name, w->base) != 0)
		memset_add(w->m, path, name);
}

static void memset_load(struct memset_files *m, const char *path)
{
	char dir[1024];
	const char *base = strrchr(path, '/'), *dot;
	struct memset_walk w;

	memset(m, 0, sizeof *m);
	base = base ? base + 1 : path;
	snprintf(dir, sizeof dir, "%.*s", (int)(base - path), path);
	dot = strrchr(base, '.');
	w.m = m;
	w.base = base;
	w.stem = dot ? (size_t)(dot - base) + 1 : strlen(base); /* "name." */
	memset_add(m, path, base);
	/* dir keeps its last '/', so the walk's paths have two there (harmless); "": here. */
	walk_files(dir[0] ? dir : ".", 0, memset_sibling, &w);
}

/* Overwrites the memory, then frees it: a copy that still pointed into it would read garbage. */
static void memset_free(struct memset_files *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		memset(m->owned_data[i], 0xA5, m->sizes[i]);
		free(m->owned_data[i]);
		free(m->owned_names[i]);
	}
	m->n = 0;
}

struct options {
	const char *name;
	const char *charset;
	const char *language;
};

static const struct options option_sets[] = {
	{ "no option", NULL, NULL },
	{ "charset CP1251", "CP1251", NULL },
	{ "language de", NULL, "de" },
	{ "charset CP1251 + language de", "CP1251", "de" },
};

static size_t opened, copies_checked, rules_checked;

/* Opens a base (from memory if m is given) with a set of options; NULL if it does not open. */
static struct gamedb_reader *open_base(const struct base *b, const struct options *o,
				       struct memset_files *m)
{
	struct gamedb_reader *r = gamedb_reader_new();
	int32_t rc;

	CHECK(r != NULL);
	if (!r)
		return NULL;
	CHECK_EQ_INT(gamedb_reader_support_format_all(r), GAMEDB_OK);
	if (o->charset)
		CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", o->charset), GAMEDB_OK);
	if (m)
		rc = gamedb_reader_open_memory_set(r, m->names, m->data, m->sizes, m->n);
	else
		rc = gamedb_reader_open_filename(r, b->path);
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		/* Some real bases are broken on purpose; they are the hostile tests' business. */
		gamedb_reader_free(r);
		return NULL;
	}
	if (o->language) {
		/* A format option: ChessBase takes it; for the others it is another format's option,
		 * which is no error (WARN), as gamedb_reader_set_option() documents. */
		rc = gamedb_reader_set_option(r, NULL, "language", o->language);
		if (b->chessbase)
			CHECK_MSG(rc == GAMEDB_OK, "%s: language option: %d", b->path, (int)rc);
		else
			CHECK_MSG(rc == GAMEDB_WARN, "%s: language option: %d", b->path, (int)rc);
	}
	opened++;
	return r;
}

/* Every how many games one is taken, so that at most MAX_PER_BASE are. */
static uint64_t stride_of(struct gamedb_reader *r)
{
	uint64_t n = 0;

	if (gamedb_reader_game_count(r, &n) != GAMEDB_OK || n <= MAX_PER_BASE)
		return 1;
	return (n + MAX_PER_BASE - 1) / MAX_PER_BASE;
}

/* ---- part 1: copies outlive the reader ---------------------------------------------------- */

static void check_copies(const struct base *b, const struct options *o, int from_memory)
{
	struct memset_files m;
	struct gamedb_reader *r, *scribble[4];
	struct gamedb_game *copies[MAX_PER_BASE];
	struct sbuf before[MAX_PER_BASE];
	const char *fmt;
	char *fmt_copy;
	size_t n = 0, i;
	uint64_t seen = 0, stride;
	const char *how = from_memory ? "memory" : "file";

	if (from_memory)
		memset_load(&m, b->path);
	r = open_base(b, o, from_memory ? &m : NULL);
	if (!r) {
		if (from_memory)
			memset_free(&m);
		return;
	}
	stride = stride_of(r);
	while (n < MAX_PER_BASE) {
		struct gamedb_game *g = NULL, *c = NULL;
		struct sbuf mid = { 0 };
		int32_t rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		if (rc == GAMEDB_FAILED || seen++ % stride)
			continue;
		/* A PGN writer's warning (a tag PGN cannot hold as it is) stays in the game's
		 * message (gamedb_game_errmsg()): written once first, every dump below sees it. */
		gamedb_game_write_pgn(g, 0, discard, NULL);
		rc = gamedb_game_dup(g, &c);
		CHECK_MSG(c && (rc == GAMEDB_OK || rc == GAMEDB_WARN), "%s: dup: %d", b->path, (int)rc);
		if (!c)
			continue;
		memset(&before[n], 0, sizeof before[n]);
		dump_game(&before[n], g); /* the borrowed game, while the reader is open */
		dump_game(&mid, c);       /* the copy, while the reader is open */
		CHECK_MSG(strcmp(before[n].p, mid.p) == 0, "%s (%s, %s): game %llu: copy differs",
			  b->path, o->name, how, (unsigned long long)gamedb_game_get_index(c));
		sb_free(&mid);
		copies[n++] = c;
	}
	fmt = gamedb_reader_format(r);
	fmt_copy = dup_or_null(fmt);
	gamedb_reader_free(r);
	if (from_memory)
		memset_free(&m);
	/* New readers take over the freed memory, with another charset option in it. */
	for (i = 0; i < sizeof scribble / sizeof scribble[0]; i++) {
		scribble[i] = gamedb_reader_new();
		CHECK(scribble[i] != NULL);
		if (scribble[i])
			CHECK_EQ_INT(gamedb_reader_set_option(scribble[i], NULL, "charset", "KOI8-R"),
				     GAMEDB_OK);
	}
	CHECK_MSG(same_str(fmt, fmt_copy), "gamedb_reader_format() is static");
	free(fmt_copy);
	for (i = 0; i < n; i++) {
		struct sbuf after = { 0 }, again = { 0 };
		struct gamedb_game *c2 = NULL;
		dump_game(&after, copies[i]);
		CHECK_MSG(strcmp(before[i].p, after.p) == 0,
			  "%s (%s, %s): game %llu: the copy changed once the reader was freed", b->path,
			  o->name, how, (unsigned long long)gamedb_game_get_index(copies[i]));
		if (strcmp(before[i].p, after.p) != 0)
			show_diff("copy", before[i].p, after.p);
		/* A copy of the copy, made and used with no reader anywhere. */
		CHECK_EQ_INT(gamedb_game_dup(copies[i], &c2) == GAMEDB_FAILED, 0);
		if (c2) {
			dump_game(&again, c2);
			CHECK_MSG(strcmp(before[i].p, again.p) == 0, "%s (%s, %s): copy of a copy",
				  b->path, o->name, how);
			gamedb_game_free(c2);
		}
		sb_free(&after);
		sb_free(&again);
		sb_free(&before[i]);
		gamedb_game_free(copies[i]);
		copies_checked++;
	}
	for (i = 0; i < sizeof scribble / sizeof scribble[0]; i++)
		gamedb_reader_free(scribble[i]);
}

/* ---- part 2: every documented lifetime, used up to its limit ------------------------------ */

struct kept {
	const char *p;
	char *copy;
};

static void keep(struct kept *k, const char *p)
{
	k->p = p;
	k->copy = dup_or_null(p);
}

static int kept_ok(struct kept *k)
{
	int ok = same_str(k->p, k->copy);
	free(k->copy);
	k->copy = NULL;
	return ok;
}

/*
 * Event strings live until the next gamedb_move_iter_next(): take them all, then make every
 * other call on the event and on its game, then read them again.
 */
static void rule_events(const struct base *b, struct gamedb_game *g, uint32_t flags)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	const char *language = NULL;
	struct sbuf scratch = { 0 };

	if (gamedb_move_iter_new(g, flags, &it) == GAMEDB_FAILED)
		return;
	while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
		struct kept k[9];
		const char *raw;
		size_t len = 0, len2 = 0, i;
		char *raw_copy;
		int ok = 1;
		keep(&k[0], gamedb_event_get_san(ev));
		keep(&k[1], gamedb_event_get_uci(ev));
		keep(&k[2], gamedb_event_get_fen(ev));
		keep(&k[3], gamedb_event_get_text(ev));
		keep(&k[4], gamedb_event_get_notation(ev, GAMEDB_NOTATION_CHINESE));
		keep(&k[5], gamedb_event_get_notation(ev, GAMEDB_NOTATION_WXF));
		keep(&k[6], gamedb_event_get_notation(ev, GAMEDB_NOTATION_SAN));
		keep(&k[7], gamedb_event_get_language(ev));
		keep(&k[8], gamedb_game_get_tag(g, "Result"));
		raw = gamedb_event_get_text_raw(ev, &len);
		raw_copy = raw ? malloc(len + 1) : NULL;
		if (raw_copy)
			memcpy(raw_copy, raw, len);
		if (gamedb_event_get_language(ev))
			language = gamedb_event_get_language(ev);
		/* Everything else on the event and on the game, short of the next event. */
		dump_event(&scratch, ev);
		gamedb_game_get_tag_count(g);
		gamedb_game_get_fen(g);
		gamedb_game_get_final_fen(g);
		gamedb_game_get_tag_raw(g, "White", NULL, NULL);
		gamedb_game_get_status(g);
		for (i = 0; i < sizeof k / sizeof k[0]; i++)
			ok &= kept_ok(&k[i]);
		if (raw) {
			const char *again = gamedb_event_get_text_raw(ev, &len2);
			ok &= again == raw && len2 == len && memcmp(raw, raw_copy, len) == 0;
		}
		free(raw_copy);
		CHECK_MSG(ok, "%s: game %llu: an event string changed before the next event", b->path,
			  (unsigned long long)gamedb_game_get_index(g));
		scratch.len = 0;
	}
	gamedb_move_iter_free(it);
	/* The language of a comment is a static string: it outlives the iterator. */
	if (language)
		CHECK(strlen(language) <= 3);
	sb_free(&scratch);
}

/*
 * A borrowed game lives until the next gamedb_reader_next_game(), gamedb_reader_seek_game() or
 * gamedb_reader_free(): take every pointer it hands out, make every other call on it and on its
 * reader, then read them all again.
 */
static void rule_borrowed_game(const struct base *b, struct gamedb_reader *r,
			       struct gamedb_game *g)
{
	size_t n = gamedb_game_get_tag_count(g), i, nk = 0, nraw = 0;
	struct kept *k = calloc(3 * n + 4, sizeof *k);
	struct {
		const char *p;
		char *copy;
		size_t len;
	} *raws = calloc(n + 1, sizeof *raws);
	struct gamedb_game *c = NULL;
	struct sbuf scratch = { 0 };
	uint64_t count;
	int ok = 1;

	if (!k || !raws)
		exit(99);
	for (i = 0; i < n; i++) {
		const char *name = NULL, *value = NULL, *charset = NULL, *raw;
		size_t len = 0;
		CHECK_EQ_INT(gamedb_game_get_tag_at(g, i, &name, &value), GAMEDB_OK);
		keep(&k[nk++], name);
		keep(&k[nk++], value);
		raw = gamedb_game_get_tag_raw(g, name, &len, &charset);
		keep(&k[nk++], charset);
		if (raw) {
			raws[nraw].p = raw;
			raws[nraw].len = len;
			raws[nraw].copy = malloc(len + 1);
			if (!raws[nraw].copy)
				exit(99);
			memcpy(raws[nraw].copy, raw, len);
			nraw++;
		}
	}
	keep(&k[nk++], gamedb_game_get_fen(g));
	keep(&k[nk++], gamedb_game_get_final_fen(g));
	/* Calls on the game. */
	rule_events(b, g, GAMEDB_ITER_FEN | GAMEDB_ITER_PARTIAL);
	dump_moves(&scratch, g, GAMEDB_ITER_MAINLINE_ONLY);
	dump_write(&scratch, g, 0, 0);
	dump_write(&scratch, g, 1, 0);
	gamedb_game_get_tag(g, "NoSuchTag");
	gamedb_game_get_tag_count(g);
	gamedb_game_get_status(g);
	if (gamedb_game_dup(g, &c) != GAMEDB_FAILED)
		gamedb_game_free(c);
	/* Calls on the reader that do not move it. */
	gamedb_reader_game_count(r, &count);
	gamedb_reader_capabilities(r);
	gamedb_reader_format(r);
	gamedb_reader_errmsg(r);
	gamedb_reader_errcode(r);
	gamedb_reader_get_scid(r);
	gamedb_reader_get_chessbase(r);
	if (gamedb_reader_get_scid(r))
		gamedb_scid_get_game_flags(gamedb_reader_get_scid(r), g);
	if (gamedb_reader_get_chessbase(r))
		gamedb_chessbase_get_game_field(gamedb_reader_get_chessbase(r), g,
						GAMEDB_CB_MEDALS);
	for (i = 0; i < nk; i++)
		ok &= kept_ok(&k[i]);
	for (i = 0; i < nraw; i++) {
		ok &= memcmp(raws[i].p, raws[i].copy, raws[i].len) == 0;
		free(raws[i].copy);
	}
	CHECK_MSG(ok, "%s: game %llu: a string of the borrowed game changed before the next game",
		  b->path, (unsigned long long)gamedb_game_get_index(g));
	/* The game's message lives until the next call on the game. */
	{
		struct kept msg;
		keep(&msg, gamedb_game_errmsg(g));
		gamedb_strerror(GAMEDB_E_CORRUPT);
		gamedb_version_string();
		CHECK(kept_ok(&msg));
	}
	sb_free(&scratch);
	free(k);
	free(raws);
}

static void check_rules(const struct base *b, const struct options *o)
{
	struct gamedb_reader *r = open_base(b, o, NULL);
	struct gamedb_scid *s;
	struct gamedb_chessbase *cb;
	struct kept handle_strings[16];
	size_t nh = 0, i;
	uint64_t seen = 0, stride, count = 0, index = 0;
	int n = 0, have_count;
	const char *static_strings[3];

	if (!r)
		return;
	stride = stride_of(r);
	have_count = gamedb_reader_game_count(r, &count) == GAMEDB_OK;
	/* Strings of the format handles live until gamedb_reader_free() (ChessBase texts: until
	 * the next load; the charset: until the next gamedb_reader_set_option()). */
	if ((s = gamedb_reader_get_scid(r)) != NULL) {
		keep(&handle_strings[nh++], gamedb_scid_get_description(s));
		for (i = 1; i <= 6; i++)
			keep(&handle_strings[nh++], gamedb_scid_get_flag_name(s, (int32_t)i));
	}
	if ((cb = gamedb_reader_get_chessbase(r)) != NULL) {
		keep(&handle_strings[nh++], gamedb_chessbase_get_charset(cb));
		if (gamedb_chessbase_get_text_count(cb) &&
		    gamedb_chessbase_load_text(cb, 0) != GAMEDB_FAILED) {
			const char *lang = NULL;
			keep(&handle_strings[nh++], gamedb_chessbase_get_text_content(cb, NULL, NULL));
			if (gamedb_chessbase_get_text_title_count(cb) > 0) {
				keep(&handle_strings[nh++], gamedb_chessbase_get_text_title(cb, 0, &lang));
				keep(&handle_strings[nh++], lang);
			}
		}
	}
	for (;;) {
		struct gamedb_game *g = NULL;
		int32_t rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		if (rc == GAMEDB_FAILED) {
			/* The message lives until the next call on the reader. */
			struct kept msg;
			keep(&msg, gamedb_reader_errmsg(r));
			gamedb_strerror(rc);
			CHECK(kept_ok(&msg));
			index++;
			continue;
		}
		CHECK_EQ_INT(gamedb_game_get_index(g), index);
		index = gamedb_game_get_index(g) + 1;
		if (seen++ % stride == 0 && n < MAX_PER_BASE) {
			rule_borrowed_game(b, r, g);
			n++;
			rules_checked++;
		}
	}
	for (i = 0; i < nh; i++)
		CHECK_MSG(kept_ok(&handle_strings[i]), "%s: a string of the format handle changed",
			  b->path);
	/* The message of a failed call lives until the next call on the reader. */
	if (gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK) {
		struct kept msg;
		struct gamedb_game *g = NULL, *last = NULL;
		CHECK_EQ_INT(gamedb_reader_seek_game(r, have_count ? count + 5 : UINT64_MAX),
			     GAMEDB_FAILED);
		keep(&msg, gamedb_reader_errmsg(r));
		CHECK(msg.p && msg.p[0]);
		gamedb_strerror(GAMEDB_E_RANGE);
		gamedb_version_string();
		CHECK(kept_ok(&msg));
		CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_RANGE);
		/* Seeking ends the borrowed game: use the one of each position within its time. */
		if (have_count && count > 0) {
			CHECK_EQ_INT(gamedb_reader_seek_game(r, count - 1), GAMEDB_OK);
			if (gamedb_reader_next_game(r, &last) >= GAMEDB_WARN && last) {
				CHECK_EQ_INT(gamedb_game_get_index(last), count - 1);
				rule_borrowed_game(b, r, last);
			}
			CHECK_EQ_INT(gamedb_reader_seek_game(r, 0), GAMEDB_OK);
			if (gamedb_reader_next_game(r, &g) >= GAMEDB_WARN && g) {
				CHECK_EQ_INT(gamedb_game_get_index(g), 0);
				rule_borrowed_game(b, r, g);
			}
		}
	}
	static_strings[0] = gamedb_reader_format(r);
	static_strings[1] = gamedb_strerror(GAMEDB_E_IO);
	static_strings[2] = gamedb_version_string();
	gamedb_reader_free(r);
	/* Static strings outlive everything. */
	CHECK(static_strings[0] && strlen(static_strings[0]) > 0);
	CHECK(static_strings[1] && strlen(static_strings[1]) > 0);
	CHECK(static_strings[2] && strchr(static_strings[2], '.'));
}

/* ---- main --------------------------------------------------------------------------------- */

/* An argument keeps only the bases whose path contains it (to run one base under a debugger). */
int main(int argc, char **argv)
{
	static const char *const scid_exts[] = { ".si4", ".si3", NULL };
	static const char *const cb_exts[] = { ".cbh", NULL };
	static const char *const xqf_exts[] = { ".xqf", NULL };
	const char *realdata = getenv("GAMEDB_REALDATA");
	const char *testdata = getenv("GAMEDB_TESTDATA");
	char dir[1024];
	size_t i, k, xqf_first;

	if (realdata && *realdata) {
		snprintf(dir, sizeof dir, "%s/scid", realdata);
		find_bases(dir, scid_exts, 0);
		snprintf(dir, sizeof dir, "%s/chessbase", realdata);
		find_bases(dir, cb_exts, 1);
	}
	xqf_first = nbases;
	if (realdata && *realdata) {
		snprintf(dir, sizeof dir, "%s/xqf", realdata);
		find_bases(dir, xqf_exts, 0);
	}
	if (testdata && *testdata) {
		snprintf(dir, sizeof dir, "%s/scid", testdata);
		find_bases(dir, scid_exts, 0);
	}
	if (nbases == 0)
		TEST_SKIP("no base under $GAMEDB_REALDATA nor $GAMEDB_TESTDATA/scid");
	for (i = 0; i < nbases; i++) {
		/* XQF files hold one game each and are many: each takes one of the option sets. */
		int is_xqf = has_ext(bases[i].path, xqf_exts);
		if (argc > 1 && !strstr(bases[i].path, argv[1]))
			continue;
		for (k = 0; k < sizeof option_sets / sizeof option_sets[0]; k++) {
			if (is_xqf && (i - xqf_first) % 4 != k)
				continue;
			check_copies(&bases[i], &option_sets[k], 0);
			check_copies(&bases[i], &option_sets[k], 1);
			check_rules(&bases[i], &option_sets[k]);
		}
	}
	printf("%zu bases, %zu opens, %zu copies compared after their reader was freed, "
	       "%zu borrowed games checked up to the end of their lifetime\n",
	       nbases, opened, copies_checked, rules_checked);
	CHECK(copies_checked > 0);
	return testlib_done();
}
