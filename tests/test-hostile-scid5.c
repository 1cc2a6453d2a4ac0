/*
 * libgamedb - robustness of the SCID 5 (si5/sn5/sg5) reader against hostile input, through the
 * public API only; meant to run in a -Db_sanitize=address,undefined build and under valgrind.
 *
 * For every real SCID 5 base under $GAMEDB_REALDATA/scid5, its three files are loaded into
 * memory and damaged before the base is opened with gamedb_reader_open_memory_set():
 *   (a) each file cut at 64 points spread over its length;
 *   (b) byte flips (a fixed-seed xorshift PRNG: 1, 4 or 32 flipped bytes over the three files);
 *   (c) attacks on the smallest base: a name-log length varint that runs past the end of the
 *       file or past 64 bits, a name longer than the file, an unknown name type, name ids and
 *       site and round ids out of range, game offsets and lengths past the end of the .sg5,
 *       an index that is not a whole number of records, empty files, database information
 *       that is too long or not UTF-8.
 * Every variant is walked twice: once with fuzz/fuzz-walk.h (every accessor, both writers, a
 * copy; whatever the API does not allow aborts), once here checking that every failed open,
 * failed header and failed game has a message naming the file and giving an offset. The
 * attacks also check the outcome they must have (which status, which tag text).
 *
 * Without real SCID 5 bases the test is skipped (exit 77).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#include "../fuzz/fuzz-walk.h"
#include "load-file.h"
#include "testlib.h"

#define NTRUNC 64
#define NTRUNC_LARGE 64
#define NFLIPS 150
#define NFLIPS_LARGE 60
#define LARGE 200 /* games: a base with more gets fewer variants */

struct base {
	char stem[256];
	char names[3][300];
	uint8_t *data[3];
	size_t size[3];
	uint64_t ngames;
};

enum { SI, SN, SG };
static const char *const exts[3] = { ".si5", ".sn5", ".sg5" };

static char desc[400]; /* the current variant, for failure messages */

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

static int names_file(const char *msg)
{
	return strstr(msg, ".si5") || strstr(msg, ".sn5") || strstr(msg, ".sg5");
}

static void check_msg(const char *msg, const char *what)
{
	CHECK_MSG(msg && msg[0], "[%s] %s: empty message", desc, what);
	if (!msg || !msg[0])
		return;
	CHECK_MSG(names_file(msg), "[%s] %s: message names no file: \"%s\"", desc, what, msg);
	CHECK_MSG(strstr(msg, "offset") != NULL, "[%s] %s: message gives no offset: \"%s\"", desc,
		  what, msg);
}

static int32_t discard(void *ud, const char *data, size_t len)
{
	(void)ud;
	(void)data;
	(void)len;
	return GAMEDB_OK;
}

struct outcome {
	int32_t open_rc;
	uint64_t count, failed_headers, warned_headers, failed_games;
	char white0[64]; /* White of the first game */
};

static struct gamedb_reader *open_set(const struct base *b, uint8_t *const data[3],
				      const size_t size[3], int32_t *rc)
{
	const char *names[3] = { b->names[0], b->names[1], b->names[2] };
	const void *datas[3] = { data[0], data[1], data[2] };
	struct gamedb_reader *r = gamedb_reader_new();

	if (!r)
		abort();
	REQUIRE(gamedb_reader_support_format_all(r) == GAMEDB_OK);
	*rc = gamedb_reader_open_memory_set(r, names, datas, size, 3);
	return r;
}

/* Opens and walks one variant; returns what it saw. */
static struct outcome run(const struct base *b, uint8_t *const data[3], const size_t size[3])
{
	struct outcome o;
	struct gamedb_reader *r;
	struct gamedb_game *g;
	int32_t rc;

	memset(&o, 0, sizeof o);
	/* 1: every accessor (aborts on what the API does not allow) */
	r = open_set(b, data, size, &rc);
	(void)fuzz_walk_reader(r, rc);
	gamedb_reader_free(r);

	/* 2: the messages */
	r = open_set(b, data, size, &o.open_rc);
	if (o.open_rc == GAMEDB_FATAL || o.open_rc == GAMEDB_WARN)
		check_msg(gamedb_reader_errmsg(r), o.open_rc == GAMEDB_FATAL ? "failed open" : "open warning");
	if (o.open_rc == GAMEDB_FATAL) {
		CHECK_MSG(gamedb_reader_errcode(r) != GAMEDB_E_UNRECOGNIZED_FORMAT,
			  "[%s] a .si5 was not recognised: %s", desc, gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return o;
	}
	CHECK(gamedb_reader_game_count(r, &o.count) == GAMEDB_OK);
	while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
		if (rc == GAMEDB_FAILED) {
			o.failed_headers++;
			check_msg(gamedb_reader_errmsg(r), "failed header");
			continue;
		}
		if (rc == GAMEDB_WARN) {
			/* a name id out of range names the index and the offset; a name that
			 * converts with loss (a flipped byte in a name) says only which tag */
			const char *m = gamedb_reader_errmsg(r);
			o.warned_headers++;
			CHECK_MSG(m && m[0], "[%s] a header warning without a message", desc);
			if (m && strstr(m, "out of range"))
				check_msg(m, "header warning");
		}
		if (gamedb_game_get_index(g) == 0) {
			const char *w = gamedb_game_get_tag(g, "White");
			snprintf(o.white0, sizeof o.white0, "%s", w ? w : "");
		}
		if (gamedb_game_write_pgn(g, 0, discard, NULL) == GAMEDB_FAILED) {
			o.failed_games++;
			check_msg(gamedb_game_errmsg(g), "failed game");
		}
	}
	if (rc == GAMEDB_FATAL)
		check_msg(gamedb_reader_errmsg(r), "fatal next_game");
	gamedb_reader_free(r);
	return o;
}

/* A copy of the base's files, for one variant. */
struct work {
	uint8_t *data[3];
	size_t size[3];
};

static void work_copy(struct work *w, const struct base *b, size_t extra)
{
	int k;

	for (k = 0; k < 3; k++) {
		w->data[k] = malloc(b->size[k] + extra + 1);
		if (!w->data[k])
			abort();
		if (b->size[k])
			memcpy(w->data[k], b->data[k], b->size[k]);
		w->size[k] = b->size[k];
	}
}

static void work_free(struct work *w)
{
	int k;

	for (k = 0; k < 3; k++)
		free(w->data[k]);
}

static void truncations(const struct base *b)
{
	int k, i, n = b->ngames > LARGE ? NTRUNC_LARGE : NTRUNC;

	for (k = 0; k < 3; k++) {
		for (i = 0; i < n; i++) {
			struct work w;
			size_t cut = b->size[k] * (size_t)i / (size_t)n;
			work_copy(&w, b, 0);
			w.size[k] = cut;
			snprintf(desc, sizeof desc, "%s%s cut at %zu", b->stem, exts[k], cut);
			(void)run(b, w.data, w.size);
			work_free(&w);
		}
	}
}

static void flips(const struct base *b)
{
	static const int counts[3] = { 1, 4, 32 };
	int v, n = b->ngames > LARGE ? NFLIPS_LARGE : NFLIPS;

	for (v = 0; v < n; v++) {
		struct work w;
		int k = v % 3, j, nf = counts[(v / 3) % 3];
		work_copy(&w, b, 0);
		if (!w.size[k]) {
			work_free(&w);
			continue;
		}
		for (j = 0; j < nf; j++)
			w.data[k][rnd() % w.size[k]] ^= (uint8_t)(1 + rnd() % 255);
		snprintf(desc, sizeof desc, "%s%s: %d byte flips (variant %d)", b->stem, exts[k], nf, v);
		(void)run(b, w.data, w.size);
		work_free(&w);
	}
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Appends bytes to file k of a work copy made with room for them. */
static void append(struct work *w, int k, const void *p, size_t n)
{
	memcpy(w->data[k] + w->size[k], p, n);
	w->size[k] += n;
}

static struct outcome attack_names(const struct base *b, const void *tail, size_t n, const char *what)
{
	struct work w;
	struct outcome o;

	work_copy(&w, b, n + 16);
	append(&w, SN, tail, n);
	snprintf(desc, sizeof desc, "%s: %s", b->stem, what);
	o = run(b, w.data, w.size);
	work_free(&w);
	return o;
}

/* Sets word i of the record of game gi to (word & keep) | set. */
static struct outcome attack_index(const struct base *b, uint32_t gi, int word, uint32_t keep,
				   uint32_t set, const char *what)
{
	struct work w;
	struct outcome o;
	uint8_t *p;

	work_copy(&w, b, 0);
	p = w.data[SI] + (size_t)gi * 56 + 4 * (size_t)word;
	put_le32(p, (get_le32(p) & keep) | set);
	snprintf(desc, sizeof desc, "%s: %s", b->stem, what);
	o = run(b, w.data, w.size);
	work_free(&w);
	return o;
}

static void attacks(const struct base *b)
{
	struct outcome o;
	struct work w;
	static const uint8_t overrun[] = { 0xFF, 0xFF, 0xFF };
	static const uint8_t over64[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					  0x80, 0x01 };
	static const uint8_t huge[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };
	static const uint8_t past[] = { (uint8_t)(40 << 3 | 0x80), 0x00, 'a', 'b' };
	static const uint8_t type5[] = { 0x05 };
	static const uint8_t type7[] = { (uint8_t)(2 << 3 | 7), 'x', 'y' };
	uint8_t info[2100];
	size_t i;

	o = attack_names(b, overrun, sizeof overrun, "name-log varint runs past the end");
	CHECK_MSG(o.open_rc == GAMEDB_FATAL, "[%s] open %d", desc, (int)o.open_rc);
	o = attack_names(b, over64, sizeof over64, "name-log varint over 64 bits");
	CHECK_MSG(o.open_rc == GAMEDB_FATAL, "[%s] open %d", desc, (int)o.open_rc);
	o = attack_names(b, huge, sizeof huge, "name of 2^53 bytes");
	CHECK_MSG(o.open_rc == GAMEDB_FATAL, "[%s] open %d", desc, (int)o.open_rc);
	o = attack_names(b, past, sizeof past, "name longer than the rest of the file");
	CHECK_MSG(o.open_rc == GAMEDB_FATAL, "[%s] open %d", desc, (int)o.open_rc);
	o = attack_names(b, type5, sizeof type5, "name type 5");
	CHECK_MSG(o.open_rc == GAMEDB_FATAL, "[%s] open %d", desc, (int)o.open_rc);
	o = attack_names(b, type7, sizeof type7, "name type 7");
	CHECK_MSG(o.open_rc == GAMEDB_FATAL, "[%s] open %d", desc, (int)o.open_rc);

	/* database information: a 2000-byte description, not UTF-8, then flag names */
	i = 0;
	info[i++] = (uint8_t)(((2011u << 3) | 4) | 0x80);
	info[i++] = (uint8_t)(((2011u << 3) | 4) >> 7);
	memcpy(info + i, "description", 11);
	i += 11;
	memset(info + i, 0xE9, 2000); /* Latin-1 'é', invalid as UTF-8 */
	i += 2000;
	info[i++] = (uint8_t)((10u << 3) | 4);
	memcpy(info + i, "flag3\xC3\xA9xyz", 10);
	i += 10;
	info[i++] = (uint8_t)((8u << 3) | 4);
	memcpy(info + i, "type9999", 8);
	i += 8;
	info[i++] = (uint8_t)((9u << 3) | 4);
	memcpy(info + i, "unknown!!", 9);
	i += 9;
	o = attack_names(b, info, i, "long database information");
	/* The Latin-1 description is read in the fallback charset: a warning at the open. */
	CHECK_MSG(o.open_rc == GAMEDB_WARN, "[%s] open %d", desc, (int)o.open_rc);
	{
		struct gamedb_reader *r;
		int32_t rc;
		struct work w2;
		struct gamedb_scid *sh;
		work_copy(&w2, b, i);
		append(&w2, SN, info, i);
		r = open_set(b, w2.data, w2.size, &rc);
		CHECK_MSG(rc == GAMEDB_WARN && strstr(gamedb_reader_errmsg(r), ".sn5: offset ") &&
			  strstr(gamedb_reader_errmsg(r), "(the fallback charset)"),
			  "the Latin-1 description: %s", gamedb_reader_errmsg(r));
		sh = gamedb_reader_get_scid(r);
		CHECK(sh != NULL);
		if (sh) {
			const char *d = gamedb_scid_get_description(sh);
			CHECK_MSG(d && strlen(d) > 100 && strncmp(d, "\xC3\xA9\xC3\xA9", 4) == 0,
				  "description \"%.20s...\"", d ? d : "(null)");
			CHECK_EQ_STR(gamedb_scid_get_flag_name(sh, 3), "\xC3\xA9xyz");
			CHECK_EQ_INT(gamedb_scid_get_base_type(sh), 9999);
			CHECK_EQ_INT(gamedb_scid_get_version(sh), 500);
		}
		gamedb_reader_free(r);
		work_free(&w2);
	}

	/* ids out of range: the name becomes "?" and the header warns */
	o = attack_index(b, 0, 0, 0xF0000000u, 0x0FFFFFFFu, "white id 2^28-1");
	CHECK_MSG(o.open_rc != GAMEDB_FATAL && o.warned_headers >= 1 && strcmp(o.white0, "?") == 0,
		  "[%s] open %d, %llu warned, White \"%s\"", desc, (int)o.open_rc,
		  (unsigned long long)o.warned_headers, o.white0);
	o = attack_index(b, 0, 3, 0, 0xFFFFFFFFu, "site id 2^32-1");
	CHECK_MSG(o.warned_headers >= 1, "[%s] %llu warned", desc, (unsigned long long)o.warned_headers);
	o = attack_index(b, 0, 4, 0x80000000u, 0x7FFFFFFFu, "round id 2^31-1");
	CHECK_MSG(o.warned_headers >= 1, "[%s] %llu warned", desc, (unsigned long long)o.warned_headers);
	/* game data past the end of the .sg5 */
	o = attack_index(b, 0, 9, 0, 0xFFFFFFF0u, "offset past the end");
	CHECK_MSG(o.failed_games >= 1, "[%s] %llu failed", desc, (unsigned long long)o.failed_games);
	o = attack_index(b, 0, 8, 0xFFFF8000u, 0x7FFFu, "offset 2^47 - x");
	CHECK_MSG(o.failed_games >= 1, "[%s] %llu failed", desc, (unsigned long long)o.failed_games);
	o = attack_index(b, 0, 8, 0x00007FFFu, 0xFFFF8000u, "length 2^17 - 1");
	CHECK_MSG(o.failed_games >= 1, "[%s] %llu failed", desc, (unsigned long long)o.failed_games);
	o = attack_index(b, 0, 8, 0x00007FFFu, 0, "length 0");
	CHECK_MSG(o.failed_games >= 1, "[%s] %llu failed", desc, (unsigned long long)o.failed_games);
	o = attack_index(b, 0, 4, 0x7FFFFFFFu, 0x80000000u, "chess960 bit");
	CHECK_MSG(o.open_rc != GAMEDB_FATAL, "[%s] open %d", desc, (int)o.open_rc);

	/* an index that is not a whole number of records: the whole ones are read */
	work_copy(&w, b, 8);
	append(&w, SI, "\x01\x02\x03", 3);
	snprintf(desc, sizeof desc, "%s: 3 bytes after the last record", b->stem);
	o = run(b, w.data, w.size);
	CHECK_MSG(o.open_rc == GAMEDB_WARN && o.count == b->ngames, "[%s] open %d, %llu games", desc,
		  (int)o.open_rc, (unsigned long long)o.count);
	work_free(&w);
	/* empty files */
	work_copy(&w, b, 0);
	w.size[SI] = 0;
	snprintf(desc, sizeof desc, "%s: empty index", b->stem);
	o = run(b, w.data, w.size);
	CHECK_MSG(o.open_rc == GAMEDB_OK && o.count == 0, "[%s] open %d, %llu games", desc,
		  (int)o.open_rc, (unsigned long long)o.count);
	w.size[SI] = b->size[SI];
	w.size[SN] = 0;
	snprintf(desc, sizeof desc, "%s: empty name log", b->stem);
	o = run(b, w.data, w.size);
	CHECK_MSG(o.open_rc == GAMEDB_OK && o.warned_headers == b->ngames &&
			  strcmp(o.white0, "?") == 0,
		  "[%s] open %d, %llu warned", desc, (int)o.open_rc,
		  (unsigned long long)o.warned_headers);
	w.size[SN] = b->size[SN];
	w.size[SG] = 0;
	snprintf(desc, sizeof desc, "%s: empty game file", b->stem);
	o = run(b, w.data, w.size);
	CHECK_MSG(o.failed_games == b->ngames, "[%s] %llu failed", desc,
		  (unsigned long long)o.failed_games);
	work_free(&w);
}

static struct base *load_base(const char *dir, const char *stem)
{
	struct base *b = calloc(1, sizeof *b);
	int k;

	if (!b)
		abort();
	snprintf(b->stem, sizeof b->stem, "%s", stem);
	for (k = 0; k < 3; k++) {
		char path[1200];
		snprintf(b->names[k], sizeof b->names[k], "%s%s", stem, exts[k]);
		snprintf(path, sizeof path, "%s/%s/%s%s", dir, stem, stem, exts[k]);
		b->data[k] = load_file(path, &b->size[k]);
		if (!b->data[k]) {
			while (k-- > 0)
				free(b->data[k]);
			free(b);
			return NULL;
		}
	}
	b->ngames = b->size[SI] / 56;
	return b;
}

int main(void)
{
	static const char *const stems[] = { "five", "endings", "matein1", "tactics" };
	const char *realdata = getenv("GAMEDB_REALDATA");
	char dir[1100];
	size_t i;
	int n = 0;

	if (!realdata) {
		printf("SKIP: GAMEDB_REALDATA is not set\n");
		return 77;
	}
	snprintf(dir, sizeof dir, "%s/scid5", realdata);
	for (i = 0; i < sizeof stems / sizeof stems[0]; i++) {
		struct base *b = load_base(dir, stems[i]);
		int k;
		if (!b)
			continue;
		n++;
		snprintf(desc, sizeof desc, "%s: pristine", b->stem);
		{
			struct outcome o = run(b, b->data, b->size);
			CHECK_MSG(o.open_rc == GAMEDB_OK && o.count == b->ngames && !o.failed_games &&
					  !o.failed_headers && !o.warned_headers,
				  "[%s] open %d, %llu games, %llu failed", desc, (int)o.open_rc,
				  (unsigned long long)o.count, (unsigned long long)o.failed_games);
		}
		truncations(b);
		flips(b);
		if (i == 0)
			attacks(b);
		for (k = 0; k < 3; k++)
			free(b->data[k]);
		free(b);
	}
	if (!n) {
		printf("SKIP: no SCID 5 base under %s\n", dir);
		return 77;
	}
	return testlib_done();
}
