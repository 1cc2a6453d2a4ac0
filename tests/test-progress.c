/*
 * libgamedb - the progress callback and its cancel (issue 28 item 6), through the public API:
 *
 *   - a ChessBase archive (.cbv) unpacked at the open: reports in bytes of the archive, at most
 *     one a MiB, monotonic, the last equal to the archive's size; a cancel makes the open
 *     return FATAL with GAMEDB_E_CANCELLED and the reader unusable;
 *   - a style 12 log of several MiB (the real FICS lines repeated): reports in bytes read, the
 *     last equal to the log's size; a cancel at a report stops next_game() (FATAL, CANCELLED)
 *     before the games after it, the reader then unusable;
 *   - a SCID base of more than 4,096 games (the real tactics.si4's records repeated): reports
 *     in games every 4,096 calls, the last at the end equal to the game count; a cancel at the
 *     first report stops the 4,097th next_game() with no game handed out;
 *   - a Polyglot book of those games: reports of the games added and of the entries merged by
 *     the write, the last equal to the total; a cancel half-way makes add_game() FATAL (and the
 *     book refuse further games and the write), a cancel in the write makes it FAILED.
 * The archive and the large bases are made here from real files (GAMEDB_REALDATA), in memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#include "cbv-grow.h"
#include "testlib.h"

static const char *realdata;

static uint8_t *load(const char *rel, size_t *size)
{
	char path[1200];
	uint8_t *p = NULL;
	long n;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", realdata, rel);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (p = malloc((size_t)n)) != NULL && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	if (p)
		*size = (size_t)n;
	fclose(f);
	return p;
}

/* What a callback saw: the reports, checked as they come, and when to stop. */
struct seen {
	int32_t unit;          /* the unit expected */
	uint64_t reports, last_done, last_total, first_done;
	uint64_t cancel_at;    /* the report (1-based) that returns 1; 0: never */
	int bad;               /* a report in another unit, going back, or past its total */
};

static int32_t on_progress(int32_t unit, uint64_t done, uint64_t total, void *user_data)
{
	struct seen *s = user_data;

	if (unit != s->unit || (s->reports && done < s->last_done) || (total && done > total))
		s->bad = 1;
	if (!s->reports)
		s->first_done = done;
	s->reports++;
	s->last_done = done;
	s->last_total = total;
	return s->cancel_at && s->reports == s->cancel_at;
}

static void seen_init(struct seen *s, int32_t unit, uint64_t cancel_at)
{
	memset(s, 0, sizeof *s);
	s->unit = unit;
	s->cancel_at = cancel_at;
}

/* Games read until END or FATAL; *last: the status that ended the loop. */
static uint64_t read_all(struct gamedb_reader *r, int32_t *last)
{
	struct gamedb_game *g;
	uint64_t n = 0;
	int32_t rc;

	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		n++;
	}
	*last = rc;
	return n;
}

/* ---- a .cbv of several MiB: the real test.cbv with a stored member of 3 MiB added ----------- */

static uint8_t *big_cbv(size_t *outsize)
{
	enum { BLOCKS = 48, BODY = 65535 }; /* stored blocks of 65,534 bytes: 3 MiB */
	size_t size, i;
	uint8_t *data = load("chessbase/cb2pgn-srenault/test/test.cbv", &size), *big, *p;

	if (!data)
		return NULL;
	big = cbv_grow(data, size, BLOCKS * (4u + BODY), BLOCKS * (BODY - 1u),
		       (size_t)BLOCKS * (4 + BODY), &p);
	free(data);
	if (!big)
		return NULL;
	for (i = 0; i < BLOCKS; i++) {
		*p++ = (uint8_t)BODY;       /* block length */
		*p++ = (uint8_t)(BODY >> 8);
		*p++ = 0;
		*p++ = 0;
		*p++ = 0;                   /* flags: stored */
		memset(p, 'x', BODY - 1);
		p += BODY - 1;
	}
	*outsize = (size_t)(p - big);
	return big;
}

static void test_cbv(void)
{
	struct gamedb_reader *r;
	struct gamedb_game *g;
	struct seen s;
	size_t size = 0;
	uint8_t *big = big_cbv(&size);
	int32_t rc, last;
	uint64_t n;

	if (!big) {
		printf("chessbase/cb2pgn-srenault/test/test.cbv missing: the archive not tested\n");
		return;
	}
	/* Read through: the unpack reports its bytes, at most one a MiB, the last the whole. */
	r = gamedb_reader_new();
	seen_init(&s, GAMEDB_PROGRESS_BYTES, 0);
	CHECK_EQ_INT(gamedb_reader_set_progress(r, on_progress, &s), GAMEDB_OK);
	rc = gamedb_reader_open_memory(r, "big.cbv", big, size);
	CHECK_MSG(rc == GAMEDB_OK || rc == GAMEDB_WARN, "open: %d %s", rc, gamedb_reader_errmsg(r));
	CHECK_MSG(!s.bad && s.reports >= 3 && s.reports <= size / GAMEDB_PROGRESS_BYTES_STEP + 1 &&
			  s.first_done >= GAMEDB_PROGRESS_BYTES_STEP && s.last_done == size &&
			  s.last_total == size,
		  "archive: %llu reports, first %llu, last %llu of %llu (size %zu), bad %d",
		  (unsigned long long)s.reports, (unsigned long long)s.first_done,
		  (unsigned long long)s.last_done, (unsigned long long)s.last_total, size, s.bad);
	/* The base inside counts fewer games than a step: one report at the end, in games. */
	s.unit = GAMEDB_PROGRESS_GAMES;
	s.reports = 0;
	n = read_all(r, &last);
	CHECK_EQ_INT(last, GAMEDB_END);
	CHECK_MSG(n > 0 && !s.bad && s.reports == 1 && s.last_done == n && s.last_total == n,
		  "games: %llu read, %llu reports, last %llu of %llu", (unsigned long long)n,
		  (unsigned long long)s.reports, (unsigned long long)s.last_done,
		  (unsigned long long)s.last_total);
	gamedb_reader_free(r);

	/* Cancelled at the second report: the open fails, CANCELLED, the reader unusable. */
	r = gamedb_reader_new();
	seen_init(&s, GAMEDB_PROGRESS_BYTES, 2);
	gamedb_reader_set_progress(r, on_progress, &s);
	CHECK_EQ_INT(gamedb_reader_open_memory(r, "big.cbv", big, size), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_CANCELLED);
	CHECK_MSG(strstr(gamedb_reader_errmsg(r), "big.cbv: cancelled") != NULL, "message: %s",
		  gamedb_reader_errmsg(r));
	CHECK_EQ_INT(s.reports, 2);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	gamedb_reader_free(r);
	free(big);
}

/* ---- a style 12 log of several MiB: the real FICS lines, repeated --------------------------- */

static void test_style12(void)
{
	struct gamedb_reader *r;
	struct gamedb_game *g;
	struct seen s;
	size_t one = 0, size, i, copies;
	uint8_t *lines = load("style12/fatics/fatics_style12_lines.txt", &one), *log;
	uint64_t all, some;
	int32_t rc, last;

	if (!lines) {
		printf("style12/fatics/fatics_style12_lines.txt missing: the log not tested\n");
		return;
	}
	copies = (3u << 20) / one + 1;
	size = copies * one;
	log = malloc(size);
	CHECK(log != NULL);
	if (!log) {
		free(lines);
		return;
	}
	for (i = 0; i < copies; i++)
		memcpy(log + i * one, lines, one);
	free(lines);

	r = gamedb_reader_new();
	seen_init(&s, GAMEDB_PROGRESS_BYTES, 0);
	gamedb_reader_set_progress(r, on_progress, &s);
	rc = gamedb_reader_open_memory(r, "big.log", log, size);
	CHECK_MSG(rc == GAMEDB_OK || rc == GAMEDB_WARN, "open: %d %s", rc, gamedb_reader_errmsg(r));
	CHECK_EQ_INT(s.reports, 0);
	all = read_all(r, &last);
	CHECK_EQ_INT(last, GAMEDB_END);
	CHECK_MSG(all > 0 && !s.bad && s.reports >= 3 &&
			  s.reports <= size / GAMEDB_PROGRESS_BYTES_STEP + 1 &&
			  s.first_done >= GAMEDB_PROGRESS_BYTES_STEP && s.last_done == size &&
			  s.last_total == size,
		  "log: %llu games, %llu reports, first %llu, last %llu of %llu (size %zu), bad %d",
		  (unsigned long long)all, (unsigned long long)s.reports,
		  (unsigned long long)s.first_done, (unsigned long long)s.last_done,
		  (unsigned long long)s.last_total, size, s.bad);
	gamedb_reader_free(r);

	/* Cancelled at the first report (a MiB in): fewer games, FATAL CANCELLED, then unusable. */
	r = gamedb_reader_new();
	seen_init(&s, GAMEDB_PROGRESS_BYTES, 1);
	gamedb_reader_set_progress(r, on_progress, &s);
	rc = gamedb_reader_open_memory(r, "big.log", log, size);
	CHECK(rc == GAMEDB_OK || rc == GAMEDB_WARN);
	some = read_all(r, &last);
	CHECK_EQ_INT(last, GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_CANCELLED);
	CHECK_MSG(some < all && s.reports == 1, "cancelled: %llu games of %llu, %llu reports",
		  (unsigned long long)some, (unsigned long long)all, (unsigned long long)s.reports);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	gamedb_reader_free(r);
	free(log);
}

/* ---- a SCID base of 5 x 928 games: tactics.si4's records, repeated ------------------------- */

#define SI4_HEADER 182
#define SI4_RECORD 47
#define COPIES 5

struct base {
	uint8_t *si, *sg, *sn;
	size_t nsi, nsg, nsn;
	uint64_t games;
};

static int big_base(struct base *b)
{
	uint8_t *si;
	size_t nsi = 0, records, i;

	memset(b, 0, sizeof *b);
	si = load("scid/scidvspc-modern/si4/tactics/tactics.si4", &nsi);
	b->sg = load("scid/scidvspc-modern/si4/tactics/tactics.sg4", &b->nsg);
	b->sn = load("scid/scidvspc-modern/si4/tactics/tactics.sn4", &b->nsn);
	if (!si || !b->sg || !b->sn || nsi < SI4_HEADER) {
		free(si);
		free(b->sg);
		free(b->sn);
		return -1;
	}
	records = (nsi - SI4_HEADER) / SI4_RECORD;
	/* The header's game count: 3 bytes, big-endian, at offset 14 (doc/formats/scid.md). */
	CHECK_EQ_INT((si[14] << 16 | si[15] << 8 | si[16]), (int)records);
	b->nsi = SI4_HEADER + COPIES * records * SI4_RECORD;
	b->si = malloc(b->nsi);
	if (!b->si) {
		free(si);
		return -1;
	}
	memcpy(b->si, si, SI4_HEADER);
	for (i = 0; i < COPIES; i++)
		memcpy(b->si + SI4_HEADER + i * records * SI4_RECORD, si + SI4_HEADER,
		       records * SI4_RECORD);
	b->games = COPIES * records;
	b->si[14] = (uint8_t)(b->games >> 16);
	b->si[15] = (uint8_t)(b->games >> 8);
	b->si[16] = (uint8_t)b->games;
	free(si);
	return 0;
}

static struct gamedb_reader *open_base(const struct base *b, struct seen *s)
{
	const char *names[3] = { "big.si4", "big.sg4", "big.sn4" };
	const void *data[3] = { b->si, b->sg, b->sn };
	const size_t sizes[3] = { b->nsi, b->nsg, b->nsn };
	struct gamedb_reader *r = gamedb_reader_new();
	int32_t rc;

	if (s)
		gamedb_reader_set_progress(r, on_progress, s);
	rc = gamedb_reader_open_memory_set(r, names, data, sizes, 3);
	CHECK_MSG(rc == GAMEDB_OK || rc == GAMEDB_WARN, "open: %d %s", rc, gamedb_reader_errmsg(r));
	return r;
}

static void test_base(const struct base *b)
{
	struct gamedb_reader *r;
	struct gamedb_game *g;
	struct seen s;
	uint64_t n;
	int32_t last;

	seen_init(&s, GAMEDB_PROGRESS_GAMES, 0);
	r = open_base(b, &s);
	n = read_all(r, &last);
	CHECK_EQ_INT(last, GAMEDB_END);
	/* One report at 4,096 games, one at the end: the whole. */
	CHECK_MSG(n == b->games && !s.bad && s.reports == 2 && s.first_done == 4096 &&
			  s.last_done == b->games && s.last_total == b->games,
		  "base: %llu games of %llu, %llu reports, first %llu, last %llu of %llu",
		  (unsigned long long)n, (unsigned long long)b->games,
		  (unsigned long long)s.reports, (unsigned long long)s.first_done,
		  (unsigned long long)s.last_done, (unsigned long long)s.last_total);
	gamedb_reader_free(r);

	/* Cancelled at the first report: 4,096 games read, the next call FATAL, CANCELLED. */
	seen_init(&s, GAMEDB_PROGRESS_GAMES, 1);
	r = open_base(b, &s);
	n = read_all(r, &last);
	CHECK_EQ_INT(last, GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_CANCELLED);
	CHECK_EQ_INT((int)n, 4096);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_FATAL);
	CHECK(g == NULL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	gamedb_reader_free(r);
}

static int32_t sink(void *user_data, const char *data, size_t len)
{
	size_t *n = user_data;

	(void)data;
	*n += len;
	return 0;
}

/* A book of the base's games; cancel_games / cancel_write: the report that stops. */
static void one_book(const struct base *b, uint64_t cancel_games, uint64_t cancel_write)
{
	struct gamedb_reader *r = open_base(b, NULL);
	struct gamedb_book *book = NULL;
	struct gamedb_game *g;
	struct seen s;
	uint64_t added = 0;
	size_t bytes = 0;
	int32_t rc, st = GAMEDB_OK;

	CHECK_EQ_INT(gamedb_book_new(&book), GAMEDB_OK);
	/* No minimum: every position counts, so that the book has entries enough for reports. */
	gamedb_book_set_option(book, "min-game", "1");
	seen_init(&s, GAMEDB_PROGRESS_GAMES, cancel_games);
	CHECK_EQ_INT(gamedb_book_set_progress(book, on_progress, &s), GAMEDB_OK);
	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		if (rc == GAMEDB_FAILED)
			continue;
		st = gamedb_book_add_game(book, g);
		if (st == GAMEDB_FATAL)
			break;
		added++;
	}
	if (cancel_games) {
		/* Half-way: the 4,097th game refused, the book unusable. */
		CHECK_EQ_INT(st, GAMEDB_FATAL);
		CHECK_EQ_INT((int)added, 4096);
		CHECK_EQ_STR(gamedb_book_errmsg(book), "cancelled by the progress callback");
		CHECK_EQ_INT(gamedb_book_add_game(book, g), GAMEDB_FATAL);
		CHECK_EQ_INT(gamedb_book_write(book, sink, &bytes), GAMEDB_FAILED);
		CHECK_EQ_INT((int)bytes, 0);
	} else {
		CHECK_MSG(added == b->games && !s.bad && s.reports == 1 && s.first_done == 4096 &&
				  s.last_total == 0,
			  "book games: %llu added, %llu reports, first %llu",
			  (unsigned long long)added, (unsigned long long)s.reports,
			  (unsigned long long)s.first_done);
		seen_init(&s, GAMEDB_PROGRESS_ENTRIES, cancel_write);
		rc = gamedb_book_write(book, sink, &bytes);
		if (cancel_write) {
			CHECK_EQ_INT(rc, GAMEDB_FAILED);
			CHECK_EQ_STR(gamedb_book_errmsg(book), "cancelled by the progress callback");
			CHECK_MSG(s.reports == cancel_write && s.last_done < s.last_total,
				  "write cancelled: %llu reports, at %llu of %llu",
				  (unsigned long long)s.reports, (unsigned long long)s.last_done,
				  (unsigned long long)s.last_total);
		} else {
			CHECK_EQ_INT(rc, GAMEDB_OK);
			CHECK_MSG(!s.bad && s.reports >= 2 && s.last_done == s.last_total &&
					  s.first_done == GAMEDB_PROGRESS_ENTRIES_STEP && bytes > 0,
				  "write: %llu reports, first %llu, last %llu of %llu, %zu bytes",
				  (unsigned long long)s.reports, (unsigned long long)s.first_done,
				  (unsigned long long)s.last_done, (unsigned long long)s.last_total,
				  bytes);
		}
	}
	gamedb_book_free(book);
	gamedb_reader_free(r);
}

int main(void)
{
	struct base b;

	realdata = getenv("GAMEDB_REALDATA");
	if (!realdata)
		realdata = "../shared/realdata";
	test_cbv();
	test_style12();
	if (big_base(&b) == 0) {
		test_base(&b);
		one_book(&b, 0, 0);
		one_book(&b, 1, 0);
		one_book(&b, 0, 1);
		free(b.si);
		free(b.sg);
		free(b.sn);
	} else {
		printf("scid/scidvspc-modern/si4/tactics missing: the base and book not tested\n");
	}
	return testlib_done();
}
