/*
 * libgamedb - hostile input for the ChessBase and XQF readers (public API only).
 *
 * For every real ChessBase base under $GAMEDB_REALDATA/chessbase and every XQF file under
 * $GAMEDB_REALDATA/xqf, all its files are loaded into memory and opened as a memory set:
 *   - pristine: every game is read, decoded and written as PGN and JSON; the PGN of each game
 *     is remembered (a hash);
 *   - truncations: each file of the set cut at 64 points (evenly spread, plus the first and
 *     last few bytes);
 *   - byte flips: 64 single-byte changes per set, spread over its files.
 * Each variant must open or fail cleanly (a message naming a file), and every game must be read,
 * decoded and written, or fail with a message; the writers' output must be valid UTF-8. For a
 * flip inside a ChessBase game file (.cbg) or annotation file (.cba) past its header, at most one
 * game may come out different from the pristine base: one byte belongs to one game only, so the
 * others must stay readable and unchanged. (An index flip may turn a game into a text record and
 * shift the numbering, so it is held to the general rules only.)
 * Meant to run in a -Db_sanitize=address,undefined build too, where any out-of-bounds read or
 * undefined behaviour fails it. Exit 77 when no real data is found.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <gamedb/gamedb.h>

#include "load-file.h"
#include "testlib.h"
#include "walk-files.h"
#include "text-n.h"
#include "utf8-check.h"

#define MAX_FILES 24
#define MAX_GAMES 4096

struct dbset {
	char dir[1024];
	char *names[MAX_FILES];
	uint8_t *data[MAX_FILES];
	size_t size[MAX_FILES];
	size_t n;         /* files; names[0] is the primary (.cbh or .xqf) */
	int chessbase;
	uint64_t ngames;  /* pristine */
	uint64_t hash[MAX_GAMES]; /* pristine PGN hash per game, 0 = failed */
};

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ c[i]) * 0x100000001B3ull;
	return h;
}

struct sink {
	uint64_t h;
	int bad_utf8;
};

static int32_t sink(void *ud, const char *data, size_t len)
{
	struct sink *s = ud;

	s->h = fnv(s->h, data, len);
	if (!utf8_valid(data, len))
		s->bad_utf8 = 1;
	return 0;
}

static int has_ext(const char *name, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext);
	return n > e && strcasecmp(name + n - e, ext) == 0;
}

/* Checks that a failure message names one of the set's files. */
static void check_msg(const struct dbset *s, const char *msg, const char *what)
{
	size_t i;
	int named = 0;

	for (i = 0; i < s->n && msg; i++) {
		const char *base = strrchr(s->names[i], '/');
		base = base ? base + 1 : s->names[i];
		if (strstr(msg, base))
			named = 1;
	}
	CHECK_MSG(msg && *msg && named, "%s: %s: message does not name a file: \"%s\"", s->names[0],
		  what, msg ? msg : "(null)");
}

static uint64_t totals[4]; /* opens, games read, games decoded, clean failures */

/*
 * Opens the set (with data replaced by the variant's), reads every game. With hashes, stores the
 * PGN hash of each game; with ref, counts games whose PGN differs from ref's.
 */
static uint64_t walk(struct dbset *s, uint8_t *const *data, const size_t *size, uint64_t *hashes,
		     const struct dbset *ref, const char *what)
{
	struct gamedb_reader *r = gamedb_reader_new();
	struct gamedb_game *g;
	const void *ptrs[MAX_FILES];
	uint64_t i = 0, differ = 0;
	int32_t rc;
	size_t k;

	for (k = 0; k < s->n; k++)
		ptrs[k] = data[k];
	gamedb_reader_support_format_all(r);
	totals[0]++;
	rc = gamedb_reader_open_memory_set(r, (const char *const *)s->names, ptrs, size, s->n);
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		CHECK(rc == GAMEDB_FATAL);
		check_msg(s, gamedb_reader_errmsg(r), what);
		totals[3]++;
		gamedb_reader_free(r);
		return ref ? ref->ngames : 0;
	}
	while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
		struct sink sk = { 0xcbf29ce484222325ull, 0 };
		struct gamedb_move_iter *it;
		const struct gamedb_event *ev;
		uint64_t h = 0;
		int32_t wr;

		if (i >= MAX_GAMES)
			break;
		totals[1]++;
		if (rc == GAMEDB_FAILED) {
			check_msg(s, gamedb_reader_errmsg(r), what);
			totals[3]++;
		} else {
			size_t t, nt = gamedb_game_get_tag_count(g);
			for (t = 0; t < nt; t++) {
				const char *name, *value;
				if (gamedb_game_get_tag_at(g, t, &name, &value) == GAMEDB_OK)
					CHECK(utf8_valid(name, strlen(name)) &&
					      utf8_valid(value, strlen(value)));
			}
			wr = gamedb_game_write_pgn(g, 0, sink, &sk);
			if (wr == GAMEDB_FAILED) {
				check_msg(s, gamedb_game_errmsg(g), what);
				totals[3]++;
			} else {
				h = sk.h | 1;
				totals[2]++;
			}
			CHECK_MSG(!sk.bad_utf8, "%s: %s: game %llu: PGN is not UTF-8", s->names[0],
				  what, (unsigned long long)i);
			sk.bad_utf8 = 0;
			if (gamedb_game_write_json(g, 0, sink, &sk) != GAMEDB_FAILED)
				CHECK(!sk.bad_utf8);
			/* The partial iterator must walk whatever part decoded. */
			if (gamedb_move_iter_new(g, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_FEN, &it) !=
			    GAMEDB_FAILED) {
				while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
					const char *txt = gamedb_event_get_text(ev);
					CHECK(text_n_agrees(ev));
					if (txt)
						CHECK(utf8_valid(txt, strlen(txt)));
					if (gamedb_event_get_type(ev) == GAMEDB_EVENT_MOVE) {
						const char *c = gamedb_event_get_notation(
							ev, GAMEDB_NOTATION_CHINESE);
						if (c)
							CHECK(utf8_valid(c, strlen(c)));
						CHECK(gamedb_event_get_san(ev) != NULL);
					}
				}
				gamedb_move_iter_free(it);
			}
		}
		if (hashes)
			hashes[i] = h;
		if (ref && (i >= ref->ngames || ref->hash[i] != h))
			differ++;
		i++;
	}
	if (rc == GAMEDB_FATAL) {
		check_msg(s, gamedb_reader_errmsg(r), what);
		totals[3]++;
	}
	if (hashes)
		s->ngames = i;
	if (ref && i < ref->ngames)
		differ += ref->ngames - i;
	gamedb_reader_free(r);
	return differ;
}

static void run_set(struct dbset *s)
{
	uint8_t *data[MAX_FILES];
	size_t size[MAX_FILES], k, f;
	char what[1400];
	int t;

	for (k = 0; k < s->n; k++) {
		data[k] = s->data[k];
		size[k] = s->size[k];
	}
	walk(s, data, size, s->hash, NULL, "pristine");

	/* Truncations: each file at 64 points. */
	for (f = 0; f < s->n; f++) {
		for (t = 0; t < 64; t++) {
			size_t cut;
			if (t < 4)
				cut = (size_t)t;
			else if (t < 8)
				cut = s->size[f] > (size_t)(t - 3) ? s->size[f] - (size_t)(t - 3) : 0;
			else
				cut = (size_t)((double)s->size[f] * (t - 8) / 56.0);
			if (cut > s->size[f])
				cut = s->size[f];
			size[f] = cut;
			snprintf(what, sizeof what, "%s cut at %zu", s->names[f], cut);
			walk(s, data, size, NULL, s, what);
		}
		size[f] = s->size[f];
	}

	/* Byte flips: 64 per set, on copies. */
	for (t = 0; t < 64; t++) {
		uint8_t *copy;
		size_t off;
		uint8_t old;
		uint64_t differ;
		int one_game;

		f = (size_t)(rnd() % s->n);
		if (s->size[f] == 0)
			continue;
		off = (size_t)(rnd() % s->size[f]);
		copy = malloc(s->size[f]);
		if (!copy)
			abort();
		memcpy(copy, s->data[f], s->size[f]);
		old = copy[off];
		copy[off] = (uint8_t)(old ^ (1 + rnd() % 255));
		data[f] = copy;
		snprintf(what, sizeof what, "%s byte %zu flipped", s->names[f], off);
		differ = walk(s, data, size, NULL, s, what);
		one_game = s->chessbase &&
			   ((has_ext(s->names[f], ".cbg") && off >= 26) ||
			    (has_ext(s->names[f], ".cba") && off >= 26));
		if (one_game)
			CHECK_MSG(differ <= 1, "%s: %llu games changed", what,
				  (unsigned long long)differ);
		data[f] = s->data[f];
		free(copy);
	}
}

static int sets_run;

static void add_file(struct dbset *s, const char *dir, const char *name)
{
	char path[2048];

	if (s->n == MAX_FILES)
		return;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	s->data[s->n] = load_file(path, &s->size[s->n]);
	if (!s->data[s->n])
		return;
	s->names[s->n] = strdup(name);
	s->n++;
}

static void free_set(struct dbset *s)
{
	size_t k;

	for (k = 0; k < s->n; k++) {
		free(s->names[k]);
		free(s->data[k]);
	}
	s->n = 0;
}

/* A base's .cbh and the set its other files are added to (chessbase_sibling()). */
struct chessbase_files {
	const char *cbh;
	struct dbset *s;
};

/*
 * A file of the walk (walk_files()) over the .cbh's folder: added to the set when it has the
 * stem of the .cbh and is one of its files (search boosters skipped).
 */
static void chessbase_sibling(const char *folder, const char *name, const char *path, void *ctx)
{
	const struct chessbase_files *c = ctx;
	size_t stem = strlen(c->cbh) - 4;

	(void)path;
	if (strncmp(name, c->cbh, stem) == 0 && name[stem] == '.' && strcmp(name, c->cbh) != 0 &&
	    (has_ext(name, ".cbg") || has_ext(name, ".cba") || has_ext(name, ".cbp") ||
	     has_ext(name, ".cbt") || has_ext(name, ".cbc") || has_ext(name, ".cbs") ||
	     has_ext(name, ".cbe") || has_ext(name, ".cbj")))
		add_file(c->s, folder, name);
}

/* A ChessBase base: the .cbh and every file with the same stem (search boosters skipped). */
static void chessbase_base(const char *dir, const char *cbh)
{
	static struct dbset s;
	struct chessbase_files c = { cbh, &s };

	memset(&s, 0, sizeof s);
	s.chessbase = 1;
	add_file(&s, dir, cbh);
	walk_files(dir, 0, chessbase_sibling, &c);
	if (s.n) {
		run_set(&s);
		sets_run++;
	}
	free_set(&s);
}

static void xqf_file(const char *dir, const char *name)
{
	static struct dbset s;

	memset(&s, 0, sizeof s);
	add_file(&s, dir, name);
	if (s.n) {
		run_set(&s);
		sets_run++;
	}
	free_set(&s);
}

/*
 * What scan() keeps over its walk. XQF: one file in xqf_every is taken, counted folder by
 * folder. Between two files of a folder the walk visits only folders below it, so one count
 * for each depth is enough: it starts again when another folder of that depth comes.
 */
struct scan_state {
	int xqf_every;
	size_t root_len;
	struct {
		char folder[4096];
		int nx;
	} xqf[7];
};

/* A file of the walk (walk_files()): a .cbh is a ChessBase base, an .xqf a base of its own. */
static void scan_file(const char *folder, const char *name, const char *path, void *ctx)
{
	struct scan_state *sc = ctx;
	struct stat sb;
	const char *p;
	int depth = 0;

	if (stat(path, &sb) != 0 || S_ISDIR(sb.st_mode))
		return;
	if (has_ext(name, ".cbh")) {
		chessbase_base(folder, name);
	} else if (has_ext(name, ".xqf")) {
		/* Folders at most 6 below the root: depth 0 to 6. */
		for (p = folder + sc->root_len; *p; p++)
			depth += *p == '/';
		if (strcmp(sc->xqf[depth].folder, folder) != 0) {
			snprintf(sc->xqf[depth].folder, sizeof sc->xqf[depth].folder, "%s", folder);
			sc->xqf[depth].nx = 0;
		}
		if (sc->xqf[depth].nx++ % sc->xqf_every == 0)
			xqf_file(folder, name);
	}
}

/* The bases below dir, down to 6 folders deep. */
static void scan(const char *dir, int xqf_every)
{
	static struct scan_state sc;

	memset(&sc, 0, sizeof sc);
	sc.xqf_every = xqf_every;
	sc.root_len = strlen(dir);
	walk_files(dir, 6, scan_file, &sc);
}

int main(void)
{
	const char *real = getenv("GAMEDB_REALDATA");
	char dir[1024];
	/* XQF: every file by default; GAMEDB_HOSTILE_XQF_EVERY=N takes one file in N. */
	const char *every = getenv("GAMEDB_HOSTILE_XQF_EVERY");
	int xqf_every = every && atoi(every) > 0 ? atoi(every) : 1;

	if (!real)
		real = "../shared/realdata";
	snprintf(dir, sizeof dir, "%s/chessbase", real);
	scan(dir, 1);
	snprintf(dir, sizeof dir, "%s/xqf", real);
	scan(dir, xqf_every);
	if (!sets_run) {
		printf("no ChessBase or XQF data under %s: skipped\n", real);
		return 77;
	}
	printf("%d sets; %llu opens, %llu games read, %llu written, %llu clean failures\n", sets_run,
	       (unsigned long long)totals[0], (unsigned long long)totals[1],
	       (unsigned long long)totals[2], (unsigned long long)totals[3]);
	return testlib_done();
}
