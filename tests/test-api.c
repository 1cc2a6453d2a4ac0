/*
 * libgamedb - tests of the public API, through <gamedb/gamedb.h> only (links gamedb_dep).
 *
 * Reader lifecycle and misuse, opening (file, base name, memory set, caller I/O), the game
 * iterator, seeking, copies that outlive their reader, options and the converter hook, the move
 * iterator and its flags, status strings, the version, and two readers on two threads.
 *
 * Real bases come from $GAMEDB_REALDATA (../shared/realdata); the checks that need them are
 * skipped when it is absent, and the program exits 77 if nothing else was checked.
 * Expected values are facts taken from the bases' own PGN twin (five.pgn) or from the chess
 * rules, never output of this library.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gamedb/gamedb.h>

#include "load-file.h"
#include "sbuf.h"
#include "testlib.h"
#include "walk-files.h"

/* ---- small helpers ---------------------------------------------------------------------- */

static int contains(const char *hay, const char *needle)
{
	return hay && needle && strstr(hay, needle) != NULL;
}

static int file_exists(const char *path)
{
	return access(path, R_OK) == 0;
}

static const char *realdata;
static char five_base[1024];    /* .../five (no extension) */
static char tactics_base[1024]; /* .../si4/tactics/tactics */
static char endings_base[1024];
static char matein1_base[1024];
static char tactics3_base[1024]; /* si3 */

static const char *with_ext(const char *base, const char *ext)
{
	static char buf[4][2200];
	static int k;
	char *out = buf[k++ & 3];
	snprintf(out, sizeof buf[0], "%s%s", base, ext);
	return out;
}

/* A reader with every format enabled, opened on path; NULL (and a failed check) otherwise. */
static struct gamedb_reader *open_path(const char *path)
{
	struct gamedb_reader *r = gamedb_reader_new();
	int32_t rc;

	CHECK(r != NULL);
	if (!r)
		return NULL;
	CHECK_EQ_INT(gamedb_reader_support_format_all(r), GAMEDB_OK);
	rc = gamedb_reader_open_filename(r, path);
	CHECK_MSG(rc == GAMEDB_OK, "open %s: %d %s", path, (int)rc, gamedb_reader_errmsg(r));
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		gamedb_reader_free(r);
		return NULL;
	}
	return r;
}

/* Appends the PGN of every game the reader still has to out; returns the number of games. */
static long pgn_all(struct gamedb_reader *r, struct sbuf *out)
{
	struct gamedb_game *g;
	long n = 0;
	int32_t rc;

	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		if (rc == GAMEDB_FAILED)
			continue;
		rc = gamedb_game_write_pgn(g, 0, sb_sink, out);
		if (rc != GAMEDB_OK && rc != GAMEDB_WARN)
			return -1;
		n++;
	}
	return rc == GAMEDB_END ? n : -1;
}

/* ---- tests that need no data -------------------------------------------------------------- */

static void test_strerror(void)
{
	static const int32_t codes[] = {
		GAMEDB_OK, GAMEDB_WARN, GAMEDB_FAILED, GAMEDB_FATAL,
		GAMEDB_E_NOMEM, GAMEDB_E_IO, GAMEDB_E_UNRECOGNIZED_FORMAT, GAMEDB_E_CORRUPT,
		GAMEDB_E_UNSUPPORTED_VERSION, GAMEDB_E_ENCODING, GAMEDB_E_MISUSE, GAMEDB_E_RANGE,
		GAMEDB_E_STRUCT_SIZE, GAMEDB_E_UNSUPPORTED, GAMEDB_E_ILLEGAL_MOVE,
		GAMEDB_E_INVALID_ARGUMENT, GAMEDB_E_UNKNOWN_OPTION,
	};
	const char *unknown = gamedb_strerror(987654);
	size_t i, j;

	CHECK(unknown != NULL && unknown[0] != 0);
	CHECK(gamedb_strerror(-1) != NULL && gamedb_strerror(INT32_MIN) != NULL);
	for (i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		const char *s = gamedb_strerror(codes[i]);
		CHECK_MSG(s != NULL && s[0] != 0, "strerror(%d) empty", (int)codes[i]);
		/* Every known code has its own description, not the one for unknown codes. */
		CHECK_MSG(s && strcmp(s, unknown) != 0, "strerror(%d) = \"%s\"", (int)codes[i], s);
		for (j = 0; j < i; j++)
			CHECK_MSG(strcmp(s, gamedb_strerror(codes[j])) != 0,
				  "strerror(%d) == strerror(%d)", (int)codes[i], (int)codes[j]);
	}
	/* The numbers are part of the ABI (gamedb.h says they are stable). */
	CHECK_EQ_INT(GAMEDB_OK, 0);
	CHECK_EQ_INT(GAMEDB_END, 1);
	CHECK_EQ_INT(GAMEDB_WARN, -20);
	CHECK_EQ_INT(GAMEDB_FAILED, -25);
	CHECK_EQ_INT(GAMEDB_FATAL, -30);
	CHECK_EQ_INT(GAMEDB_E_STRUCT_SIZE, 9);
	CHECK_EQ_INT(GAMEDB_E_UNKNOWN_OPTION, 13);
}

static void test_version(void)
{
	char expect[64];

	CHECK_EQ_INT(gamedb_version_number(), GAMEDB_VERSION_NUMBER);
	CHECK_EQ_INT(GAMEDB_VERSION_NUMBER,
		     GAMEDB_VERSION_MAJOR * 10000 + GAMEDB_VERSION_MINOR * 100 + GAMEDB_VERSION_PATCH);
	CHECK_EQ_STR(gamedb_version_string(), GAMEDB_VERSION_STRING);
	snprintf(expect, sizeof expect, "%d.%d.%d", GAMEDB_VERSION_MAJOR, GAMEDB_VERSION_MINOR,
		 GAMEDB_VERSION_PATCH);
	CHECK_EQ_STR(gamedb_version_string(), expect);
	CHECK_EQ_INT(GAMEDB_VERSION_MAJOR, 1); /* the soname is libgamedb.so.1 */
}

static void test_lifecycle(void)
{
	struct gamedb_reader *r;
	struct gamedb_game *g = (struct gamedb_game *)&g; /* must be reset to NULL */
	uint64_t n = 77;

	gamedb_reader_free(NULL);
	gamedb_game_free(NULL);
	gamedb_move_iter_free(NULL);

	r = gamedb_reader_new();
	CHECK(r != NULL);
	if (!r)
		return;
	gamedb_reader_free(r);

	/* Before an open: nothing to iterate, no format, no capabilities. */
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_NONE);
	CHECK_EQ_STR(gamedb_reader_errmsg(r), "");
	CHECK(gamedb_reader_format(r) == NULL);
	CHECK_EQ_INT(gamedb_reader_capabilities(r), 0);
	CHECK(gamedb_reader_get_scid(r) == NULL);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_FATAL);
	CHECK(g == NULL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "gamedb_reader_next_game"), "%s",
		  gamedb_reader_errmsg(r));
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 0), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "gamedb_reader_seek_game"), "%s",
		  gamedb_reader_errmsg(r));
	CHECK_EQ_INT(gamedb_reader_game_count(r, &n), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "gamedb_reader_game_count"), "%s",
		  gamedb_reader_errmsg(r));
	gamedb_reader_free(r);

	/* set_format with a name no format has. */
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_set_format(r, "no-such-format"), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "no-such-format"), "%s", gamedb_reader_errmsg(r));
	gamedb_reader_free(r);
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_set_format(r, NULL), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	gamedb_reader_free(r);
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_set_format(r, "scid"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_support_format_scid(r), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_support_format_all(r), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_support_format_all(r), GAMEDB_OK); /* twice is harmless */
	gamedb_reader_free(r);

	/* Invalid handles never crash. */
	CHECK(gamedb_reader_format(NULL) == NULL);
	CHECK_EQ_INT(gamedb_reader_capabilities(NULL), 0);
	CHECK(gamedb_reader_errmsg(NULL) != NULL);
	CHECK_EQ_INT(gamedb_reader_next_game(NULL, &g), GAMEDB_FATAL);
	CHECK(gamedb_game_get_tag(NULL, "White") == NULL);
	CHECK_EQ_INT(gamedb_game_get_tag_count(NULL), 0);
	CHECK(gamedb_game_errmsg(NULL) != NULL);
	CHECK_EQ_INT(gamedb_event_get_type(NULL), 0);
	CHECK(gamedb_event_get_san(NULL) == NULL);
	CHECK_EQ_INT(gamedb_event_get_nag(NULL), -1);
}

static void test_open_errors(void)
{
	struct gamedb_reader *r;
	struct gamedb_game *g;
	static const char junk[] = "This is not a chess database, only a line of text.\n";
	char tmpl[] = "/tmp/gamedb-test-api-XXXXXX";
	char path[64];
	int fd;

	/* A file that does not exist: FATAL, E_IO, and the message names the file. */
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_open_filename(r, "/nonexistent-dir/no-such-base.si4"), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_IO);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "no-such-base.si4"), "%s", gamedb_reader_errmsg(r));
	/* The handle is now unusable. */
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_FATAL);
	CHECK(gamedb_reader_format(r) == NULL);
	gamedb_reader_free(r);

	/* A base name whose files do not exist. */
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_filename(r, "/nonexistent-dir/other-base"), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_IO);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "other-base"), "%s", gamedb_reader_errmsg(r));
	gamedb_reader_free(r);

	/* NULL path. */
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_filename(r, NULL), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	gamedb_reader_free(r);

	/* A file that is no database: E_UNRECOGNIZED_FORMAT, naming the file. */
	fd = mkstemp(tmpl);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK(write(fd, junk, sizeof junk - 1) == (ssize_t)(sizeof junk - 1));
		close(fd);
		r = gamedb_reader_new();
		gamedb_reader_support_format_all(r);
		CHECK_EQ_INT(gamedb_reader_open_filename(r, tmpl), GAMEDB_FATAL);
		CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNRECOGNIZED_FORMAT);
		CHECK_MSG(contains(gamedb_reader_errmsg(r), tmpl), "%s", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		/* The same with an index extension: content decides, not the name. */
		snprintf(path, sizeof path, "%s.si4", tmpl);
		if (rename(tmpl, path) == 0) {
			r = gamedb_reader_new();
			gamedb_reader_support_format_all(r);
			CHECK_EQ_INT(gamedb_reader_open_filename(r, path), GAMEDB_FATAL);
			CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNRECOGNIZED_FORMAT);
			gamedb_reader_free(r);
			unlink(path);
		} else {
			unlink(tmpl);
		}
	}

	/* The same from memory, and an empty memory file. */
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_open_memory(r, "junk.bin", junk, sizeof junk - 1), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNRECOGNIZED_FORMAT);
	gamedb_reader_free(r);
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_open_memory(r, "empty.si4", "", 0), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNRECOGNIZED_FORMAT);
	gamedb_reader_free(r);

	/*
	 * PGN text is no database: the message says it is PGN already (issue 28: every caller
	 * gets the command's hint), by the name .pgn or by a first [Event tag after blanks and a
	 * byte order mark; junk named .txt has no such words.
	 */
	{
		static const char pgn[] = "\xef\xbb\xbf\r\n[Event \"x\"]\n[Site \"y\"]\n\n1. e4 *\n";
		static const char *const names[3] = { "games.txt", "GAMES.PGN", "junk.txt" };
		const char *const datas[3] = { pgn, junk, junk };
		const size_t sizes[3] = { sizeof pgn - 1, sizeof junk - 1, sizeof junk - 1 };
		int i;
		for (i = 0; i < 3; i++) {
			r = gamedb_reader_new();
			gamedb_reader_support_format_all(r);
			CHECK_EQ_INT(gamedb_reader_open_memory(r, names[i], datas[i], sizes[i]),
				     GAMEDB_FATAL);
			CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNRECOGNIZED_FORMAT);
			CHECK_MSG(contains(gamedb_reader_errmsg(r), ": not a database of any format "
					   "this library reads") &&
				  contains(gamedb_reader_errmsg(r), "is PGN already") == (i < 2),
				  "%s: %s", names[i], gamedb_reader_errmsg(r));
			gamedb_reader_free(r);
		}
	}

	/* A SCID index magic with a version this library does not read. */
	{
		unsigned char hdr[200];
		memset(hdr, 0, sizeof hdr);
		memcpy(hdr, "Scid.si\0", 8);
		hdr[8] = 0x01; /* version 0x01F4 = 500 */
		hdr[9] = 0xF4;
		r = gamedb_reader_new();
		gamedb_reader_support_format_all(r);
		CHECK_EQ_INT(gamedb_reader_open_memory(r, "future.si4", hdr, sizeof hdr), GAMEDB_FATAL);
		CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNSUPPORTED_VERSION);
		gamedb_reader_free(r);
	}

	/* Bad memory-set arguments. */
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_memory_set(r, NULL, NULL, NULL, 0), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	gamedb_reader_free(r);
}

static int32_t dummy_open(void *ud, const char *name, void **h, uint64_t *size)
{
	(void)ud;
	(void)name;
	*h = NULL;
	*size = 0;
	return -1;
}

static int64_t dummy_read(void *ud, void *h, uint64_t off, void *buf, size_t len)
{
	(void)ud;
	(void)h;
	(void)off;
	(void)buf;
	(void)len;
	return -1;
}

static void test_io_struct_size(void)
{
	struct gamedb_io io;
	struct gamedb_reader *r;

	memset(&io, 0xAB, sizeof io);
	CHECK_EQ_INT(gamedb_io_init(&io, sizeof io), GAMEDB_OK);
	CHECK_EQ_INT(io.size, sizeof io);
	CHECK(io.open == NULL && io.read_at == NULL && io.close == NULL);
	CHECK_EQ_INT(gamedb_io_init(&io, sizeof io - 1), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_io_init(&io, sizeof io + 8), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_io_init(NULL, sizeof io), GAMEDB_FAILED);

	gamedb_io_init(&io, sizeof io);
	io.open = dummy_open;
	io.read_at = dummy_read;

	/* A size the library does not know: FATAL with E_STRUCT_SIZE, before any callback. */
	io.size = sizeof io + 16;
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_io(r, &io, "x.si4", NULL), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_STRUCT_SIZE);
	gamedb_reader_free(r);
	io.size = 0;
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_io(r, &io, "x.si4", NULL), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_STRUCT_SIZE);
	gamedb_reader_free(r);
	io.size = sizeof io - sizeof(void *);
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_io(r, &io, "x.si4", NULL), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_STRUCT_SIZE);
	gamedb_reader_free(r);

	/* Right size, but the file cannot be opened: E_IO naming the file. */
	io.size = sizeof io;
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_open_io(r, &io, "missing.si4", NULL), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_IO);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "missing.si4"), "%s", gamedb_reader_errmsg(r));
	gamedb_reader_free(r);

	/* Missing required callbacks. */
	io.read_at = NULL;
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_io(r, &io, "x.si4", NULL), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	gamedb_reader_free(r);
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_io(r, NULL, "x.si4", NULL), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	gamedb_reader_free(r);
}

static void test_options_nodata(void)
{
	struct gamedb_reader *r = gamedb_reader_new();

	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", "NO-SUCH-CHARSET-XYZ"), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "NO-SUCH-CHARSET-XYZ"), "%s", gamedb_reader_errmsg(r));
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "fallback-charset", "NO-SUCH-CHARSET-XYZ"),
		     GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "no-such-option", "1"), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNKNOWN_OPTION);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "no-such-option"), "%s", gamedb_reader_errmsg(r));
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, NULL, "1"), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	CHECK_EQ_INT(gamedb_reader_set_option(r, "no-such-format", "charset", "CP1252"), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", "CP1252"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", "cp1251"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_set_option(r, "scid", "charset", "ISO-8859-1"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", "GB18030"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "fallback-charset", "CP1252"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", NULL), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_set_converter(r, NULL, NULL), GAMEDB_OK);
	/* A failed option leaves the reader usable. */
	CHECK_EQ_INT(gamedb_reader_support_format_all(r), GAMEDB_OK);
	gamedb_reader_free(r);
}

/* ---- tests on real bases ------------------------------------------------------------------- */

/* Game 1 of five.pgn (the PGN twin of five.si4), main line. */
static const char *const five_game1_san[] = {
	"e4", "c5", "Nf3", "Nc6", "d4", "cxd4", "Nxd4", "g6", "c4", "Nf6", "Nc3", "Nxd4",
	"Qxd4", "d6", "f3", "Bg7", "Be3", "O-O", "Qd2", "Be6", "Rc1", "Qa5", "b3", "Rfc8",
	"Bd3", "Nd7", "Nb5", "Qxd2+", "Kxd2", "Nc5", "Be2", "a6", "Nd4", "Bd7", "Rhd1", "Ne6",
	"Nxe6",
};

static void test_reader_basics(void)
{
	struct gamedb_reader *r;
	struct gamedb_game *g;
	struct gamedb_scid *scid;
	uint64_t n = 0;
	uint32_t caps;
	int32_t rc;
	long games = 0;

	/* By base name, without an extension. */
	r = open_path(five_base);
	if (!r)
		return;
	CHECK_EQ_STR(gamedb_reader_format(r), "scid");
	caps = gamedb_reader_capabilities(r);
	CHECK(caps & GAMEDB_CAP_SEEK);
	CHECK(caps & GAMEDB_CAP_COUNT);
	CHECK(caps & GAMEDB_CAP_MULTIFILE);
	CHECK(caps & GAMEDB_CAP_VARIATIONS);
	CHECK(!(caps & GAMEDB_CAP_XIANGQI));
	CHECK_EQ_INT(gamedb_reader_game_count(r, &n), GAMEDB_OK);
	CHECK_EQ_INT(n, 5);
	CHECK_EQ_INT(gamedb_reader_game_count(r, NULL), GAMEDB_FAILED);
	scid = gamedb_reader_get_scid(r);
	CHECK(scid != NULL);
	CHECK_EQ_INT(gamedb_scid_get_version(scid), 400);
	CHECK_EQ_STR(gamedb_scid_get_description(scid), "Test");
	CHECK(gamedb_scid_get_flag_name(scid, 0) == NULL);
	CHECK(gamedb_scid_get_flag_name(scid, 7) == NULL);
	CHECK(gamedb_scid_get_flag_name(scid, 1) != NULL);

	/* A second open is no misuse (issue 28): the reader reopens, here by the base name. */
	CHECK_EQ_INT(gamedb_reader_open_filename(r, five_base), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_game_count(r, &n), GAMEDB_OK);
	CHECK_EQ_INT(n, 5);
	gamedb_reader_free(r);

	/* Misuse after an open: enabling formats. */

	r = open_path(with_ext(five_base, ".si4"));
	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_support_format_all(r), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "gamedb_reader_support_format_all"), "%s",
		  gamedb_reader_errmsg(r));
	/* FATAL means the handle is unusable. */
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_FATAL);
	gamedb_reader_free(r);

	r = open_path(with_ext(five_base, ".si4"));
	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_set_format(r, "scid"), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), "gamedb_reader_set_format"), "%s",
		  gamedb_reader_errmsg(r));
	gamedb_reader_free(r);

	r = open_path(with_ext(five_base, ".si4"));
	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_support_format_scid(r), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	gamedb_reader_free(r);

	/* set_format skips bidding. */
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_set_format(r, "scid"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_open_filename(r, with_ext(five_base, ".si4")), GAMEDB_OK);
	CHECK_EQ_STR(gamedb_reader_format(r), "scid");
	gamedb_reader_free(r);

	/* next_game until END, then END again; facts from five.pgn. */
	r = open_path(with_ext(five_base, ".si4"));
	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_next_game(r, NULL), GAMEDB_FAILED);
	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		if (rc != GAMEDB_OK)
			break;
		CHECK_EQ_INT(gamedb_game_get_index(g), games);
		CHECK_EQ_INT(gamedb_game_get_variant(g), GAMEDB_VARIANT_CHESS);
		CHECK_EQ_INT(gamedb_game_is_deleted(g), 0);
		if (games == 0) {
			const char *name, *value;
			size_t len = 0;
			const char *raw;
			CHECK_EQ_STR(gamedb_game_get_tag(g, "Event"), "47th ch-Bangahbandhu 2022");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "Site"), "Dhaka BAN");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "Date"), "2022.12.19");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "Round"), "5.6");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "White"), "Hossain, Enam");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "Black"), "Murshed, N");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "Result"), "1/2-1/2");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "WhiteElo"), "2372");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "BlackElo"), "2419");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "ECO"), "B36f");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "Opening"), "Sicilian");
			CHECK_EQ_STR(gamedb_game_get_tag(g, "WhiteFideId"), "10200649");
			CHECK(gamedb_game_get_tag(g, "white") == NULL); /* case-sensitive */
			CHECK(gamedb_game_get_tag(g, "NoSuchTag") == NULL);
			CHECK(gamedb_game_get_tag(g, NULL) == NULL);
			CHECK(gamedb_game_get_tag_count(g) >= 17);
			/* The Seven Tag Roster comes first, in order. */
			CHECK_EQ_INT(gamedb_game_get_tag_at(g, 0, &name, &value), GAMEDB_OK);
			CHECK_EQ_STR(name, "Event");
			CHECK_EQ_INT(gamedb_game_get_tag_at(g, 6, &name, &value), GAMEDB_OK);
			CHECK_EQ_STR(name, "Result");
			CHECK_EQ_STR(value, "1/2-1/2");
			CHECK_EQ_INT(gamedb_game_get_tag_at(g, gamedb_game_get_tag_count(g), &name, &value),
				     GAMEDB_FAILED);
			raw = gamedb_game_get_tag_raw(g, "White", &len, NULL);
			CHECK_EQ_STR(raw, "Hossain, Enam");
			CHECK_EQ_INT(len, 13);
			CHECK_EQ_STR(gamedb_game_get_fen(g),
				     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
		}
		games++;
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	CHECK_EQ_INT(games, 5);
	CHECK(g == NULL);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_END);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_END);

	/* seek_game: in range, at the last game, past the end. */
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 2), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_game_get_index(g), 2);
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 5), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_RANGE);
	CHECK_EQ_INT(gamedb_reader_seek_game(r, UINT64_MAX), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_RANGE);
	/* FAILED leaves the reader usable. */
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 4), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_game_get_index(g), 4);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_END);
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 0), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK_EQ_STR(gamedb_game_get_tag(g, "White"), "Hossain, Enam");
	gamedb_reader_free(r);

	/* Counts of the other real bases (header facts from the realdata manifest). */
	if (file_exists(with_ext(tactics_base, ".si4"))) {
		r = open_path(tactics_base);
		if (r) {
			CHECK_EQ_INT(gamedb_reader_game_count(r, &n), GAMEDB_OK);
			CHECK_EQ_INT(n, 928);
			CHECK_EQ_INT(gamedb_scid_get_version(gamedb_reader_get_scid(r)), 400);
			gamedb_reader_free(r);
		}
	}
	if (file_exists(with_ext(tactics3_base, ".si3"))) {
		r = open_path(tactics3_base);
		if (r) {
			CHECK_EQ_INT(gamedb_reader_game_count(r, &n), GAMEDB_OK);
			CHECK_EQ_INT(n, 928);
			CHECK_EQ_INT(gamedb_scid_get_version(gamedb_reader_get_scid(r)), 300);
			CHECK_EQ_STR(gamedb_scid_get_description(gamedb_reader_get_scid(r)), "Tactics (easy)");
			gamedb_reader_free(r);
		}
	}
	if (file_exists(with_ext(matein1_base, ".si4"))) {
		r = open_path(with_ext(matein1_base, ".si4"));
		if (r) {
			CHECK_EQ_INT(gamedb_reader_game_count(r, &n), GAMEDB_OK);
			CHECK_EQ_INT(n, 1212);
			CHECK_EQ_STR(gamedb_scid_get_description(gamedb_reader_get_scid(r)), "Mate in 1");
			gamedb_reader_free(r);
		}
	}
}

/* Walks game 1 of five with several iterator flags. */
static void test_move_iter_five(void)
{
	struct gamedb_reader *r = open_path(with_ext(five_base, ".si4"));
	struct gamedb_game *g;
	struct gamedb_move_iter *it;
	const struct gamedb_event *ev;
	size_t ply = 0;
	int32_t rc, from, to, promo, colour, type, last_type = 0;
	int saw_castle = 0;

	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_move_iter_new(g, 0, NULL), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_move_iter_new(g, GAMEDB_ITER_FEN, &it), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_move_iter_next(it, NULL), GAMEDB_FAILED);
	while ((rc = gamedb_move_iter_next(it, &ev)) == GAMEDB_OK) {
		type = gamedb_event_get_type(ev);
		CHECK_MSG(last_type != GAMEDB_EVENT_RESULT, "an event after RESULT");
		last_type = type;
		if (type != GAMEDB_EVENT_MOVE) {
			CHECK_EQ_INT(type, GAMEDB_EVENT_RESULT); /* the game has no annotations */
			CHECK_EQ_STR(gamedb_event_get_text(ev), "1/2-1/2");
			/* Move accessors on a non-move event. */
			CHECK(gamedb_event_get_san(ev) == NULL);
			CHECK(gamedb_event_get_uci(ev) == NULL);
			CHECK(gamedb_event_get_fen(ev) == NULL);
			CHECK_EQ_INT(gamedb_event_get_move(ev, &from, &to, &promo), GAMEDB_FAILED);
			CHECK_EQ_INT(gamedb_event_get_piece(ev), GAMEDB_PIECE_NONE);
			CHECK_EQ_INT(gamedb_event_get_move_number(ev, &colour), 0);
			CHECK_EQ_INT(gamedb_event_get_nag(ev), -1);
			CHECK_EQ_INT(gamedb_event_get_depth(ev), 0);
			continue;
		}
		CHECK_MSG(ply < sizeof five_game1_san / sizeof five_game1_san[0], "too many moves");
		if (ply < sizeof five_game1_san / sizeof five_game1_san[0])
			CHECK_EQ_STR(gamedb_event_get_san(ev), five_game1_san[ply]);
		CHECK(gamedb_event_get_text(ev) == NULL);
		CHECK_EQ_INT(gamedb_event_get_nag(ev), -1);
		CHECK_EQ_INT(gamedb_event_get_depth(ev), 0);
		CHECK(gamedb_event_get_fen(ev) != NULL);
		CHECK_EQ_INT(gamedb_event_get_move_number(ev, &colour), (int32_t)(ply / 2 + 1));
		CHECK_EQ_INT(colour, (int32_t)(ply % 2));
		CHECK_EQ_INT(gamedb_event_get_move(ev, NULL, NULL, NULL), GAMEDB_OK);
		if (ply == 0) { /* 1.e4 */
			CHECK_EQ_INT(gamedb_event_get_move(ev, &from, &to, &promo), GAMEDB_OK);
			CHECK_EQ_INT(from, 12);
			CHECK_EQ_INT(to, 28);
			CHECK_EQ_INT(promo, 0);
			CHECK_EQ_INT(gamedb_event_get_piece(ev), GAMEDB_PIECE_PAWN);
			CHECK_EQ_STR(gamedb_event_get_uci(ev), "e2e4");
		}
		if (ply == 2) /* 2.Nf3, from the rules of chess */
			CHECK_EQ_STR(gamedb_event_get_fen(ev),
				     "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
		if (ply == 3) { /* 2...Nc6 */
			CHECK_EQ_INT(gamedb_event_get_move(ev, &from, &to, NULL), GAMEDB_OK);
			CHECK_EQ_INT(from, 57);
			CHECK_EQ_INT(to, 42);
			CHECK_EQ_INT(gamedb_event_get_piece(ev), GAMEDB_PIECE_KNIGHT);
			CHECK_EQ_STR(gamedb_event_get_uci(ev), "b8c6");
		}
		if (gamedb_event_get_san(ev) && strcmp(gamedb_event_get_san(ev), "O-O") == 0) {
			saw_castle = 1; /* 9...O-O is given as the king's move e8-g8 */
			CHECK_EQ_INT(gamedb_event_get_move(ev, &from, &to, NULL), GAMEDB_OK);
			CHECK_EQ_INT(from, 60);
			CHECK_EQ_INT(to, 62);
			CHECK_EQ_INT(gamedb_event_get_piece(ev), GAMEDB_PIECE_KING);
			CHECK_EQ_STR(gamedb_event_get_uci(ev), "e8g8");
			CHECK_EQ_INT(gamedb_event_get_move_number(ev, &colour), 9);
			CHECK_EQ_INT(colour, 1);
			CHECK_EQ_STR(gamedb_event_get_fen(ev),
				     "r1bq1rk1/pp2ppbp/3p1np1/8/2PQP3/2N1BP2/PP4PP/R3KB1R w KQ - 3 10");
		}
		ply++;
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	CHECK_EQ_INT(ply, sizeof five_game1_san / sizeof five_game1_san[0]);
	CHECK_EQ_INT(last_type, GAMEDB_EVENT_RESULT);
	CHECK(saw_castle);
	CHECK_EQ_INT(gamedb_move_iter_next(it, &ev), GAMEDB_END);
	CHECK(ev == NULL);
	CHECK_EQ_INT(gamedb_move_iter_next(it, &ev), GAMEDB_END);
	gamedb_move_iter_free(it);

	/* Without GAMEDB_ITER_FEN, no FEN. */
	CHECK_EQ_INT(gamedb_move_iter_new(g, 0, &it), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_move_iter_next(it, &ev), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_event_get_type(ev), GAMEDB_EVENT_MOVE);
	CHECK(gamedb_event_get_fen(ev) == NULL);
	CHECK_EQ_STR(gamedb_event_get_san(ev), "e4");
	gamedb_move_iter_free(it);
	gamedb_reader_free(r);
}

struct ev_rec {
	int32_t type, depth, nag;
	char san[16];
	char *text;
};

struct ev_list {
	struct ev_rec *v;
	size_t n, cap;
};

static void evl_free(struct ev_list *l)
{
	size_t i;
	for (i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* Records every event of g with the given flags; returns the move_iter_new status. */
static int32_t record_events(struct gamedb_game *g, uint32_t flags, struct ev_list *out)
{
	struct gamedb_move_iter *it;
	const struct gamedb_event *ev;
	int32_t rc = gamedb_move_iter_new(g, flags, &it);

	if (rc != GAMEDB_OK && rc != GAMEDB_WARN)
		return rc;
	while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
		struct ev_rec *e;
		const char *s;
		if (out->n == out->cap) {
			size_t cap = out->cap ? out->cap * 2 : 64;
			struct ev_rec *v = realloc(out->v, cap * sizeof *v);
			if (!v)
				break;
			out->v = v;
			out->cap = cap;
		}
		e = &out->v[out->n++];
		memset(e, 0, sizeof *e);
		e->type = gamedb_event_get_type(ev);
		e->depth = gamedb_event_get_depth(ev);
		e->nag = gamedb_event_get_nag(ev);
		s = gamedb_event_get_san(ev);
		if (s)
			snprintf(e->san, sizeof e->san, "%s", s);
		s = gamedb_event_get_text(ev);
		if (s) {
			e->text = malloc(strlen(s) + 1);
			if (e->text)
				strcpy(e->text, s);
		}
		/* Accessors of the other types. */
		if (e->type != GAMEDB_EVENT_MOVE) {
			CHECK(gamedb_event_get_san(ev) == NULL);
			CHECK_EQ_INT(gamedb_event_get_move(ev, NULL, NULL, NULL), GAMEDB_FAILED);
			CHECK_EQ_INT(gamedb_event_get_piece(ev), 0);
		} else {
			CHECK(gamedb_event_get_piece(ev) >= GAMEDB_PIECE_NONE &&
			      gamedb_event_get_piece(ev) <= GAMEDB_PIECE_KING);
		}
		if (e->type != GAMEDB_EVENT_NAG)
			CHECK_EQ_INT(e->nag, -1);
		else
			CHECK(e->nag >= 1 && e->nag <= 255);
		if (e->type == GAMEDB_EVENT_COMMENT_BEFORE || e->type == GAMEDB_EVENT_COMMENT_AFTER ||
		    e->type == GAMEDB_EVENT_RESULT)
			CHECK(e->text != NULL);
		else
			CHECK(e->text == NULL);
		if (flags & GAMEDB_ITER_FEN)
			CHECK((gamedb_event_get_fen(ev) != NULL) == (e->type == GAMEDB_EVENT_MOVE));
		else
			CHECK(gamedb_event_get_fen(ev) == NULL);
	}
	gamedb_move_iter_free(it);
	return rc;
}

/* Iterator flags on a base with variations, comments and NAGs. */
static void test_move_iter_flags(const char *base)
{
	struct gamedb_reader *r = open_path(base);
	struct gamedb_game *g;
	long games = 0, vars = 0, comments = 0, nags = 0;
	int32_t rc;

	if (!r)
		return;
	while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN ||
	       rc == GAMEDB_FAILED) {
		struct ev_list all = { 0 }, main = { 0 }, noc = { 0 }, both = { 0 };
		size_t i, j, depth_open = 0;
		int bad = 0;

		if (rc == GAMEDB_FAILED)
			continue;
		games++;
		CHECK_EQ_INT(record_events(g, GAMEDB_ITER_FEN, &all), GAMEDB_OK);
		CHECK_EQ_INT(record_events(g, GAMEDB_ITER_MAINLINE_ONLY, &main), GAMEDB_OK);
		CHECK_EQ_INT(record_events(g, GAMEDB_ITER_SKIP_COMMENTS, &noc), GAMEDB_OK);
		CHECK_EQ_INT(record_events(g, GAMEDB_ITER_SKIP_COMMENTS | GAMEDB_ITER_MAINLINE_ONLY,
					   &both), GAMEDB_OK);
		/* The RESULT event is last, once, in every mode, and carries the Result tag. */
		CHECK(all.n > 0 && all.v[all.n - 1].type == GAMEDB_EVENT_RESULT);
		CHECK(main.n > 0 && main.v[main.n - 1].type == GAMEDB_EVENT_RESULT);
		CHECK(noc.n > 0 && noc.v[noc.n - 1].type == GAMEDB_EVENT_RESULT);
		if (all.n)
			CHECK_EQ_STR(all.v[all.n - 1].text, gamedb_game_get_tag(g, "Result"));
		/* Variations nest properly and depth follows them. */
		for (i = 0; i < all.n; i++) {
			const struct ev_rec *e = &all.v[i];
			if (e->type == GAMEDB_EVENT_RESULT && i + 1 != all.n)
				bad = 1;
			if (e->type == GAMEDB_EVENT_VARIATION_BEGIN) {
				depth_open++;
				vars++;
				if (e->depth != (int32_t)depth_open)
					bad = 1;
			} else if (e->type == GAMEDB_EVENT_VARIATION_END) {
				if (depth_open == 0 || e->depth != (int32_t)depth_open)
					bad = 1;
				depth_open--;
			} else if (e->depth != (int32_t)depth_open) {
				bad = 1;
			}
			if (e->type == GAMEDB_EVENT_COMMENT_BEFORE || e->type == GAMEDB_EVENT_COMMENT_AFTER)
				comments++;
			if (e->type == GAMEDB_EVENT_NAG)
				nags++;
		}
		CHECK_MSG(!bad && depth_open == 0, "game %ld: variation nesting", games);
		/* MAINLINE_ONLY: exactly the depth-0 events of the full walk, in order. */
		for (i = 0, j = 0; i < all.n; i++) {
			if (all.v[i].depth != 0 || all.v[i].type == GAMEDB_EVENT_VARIATION_BEGIN ||
			    all.v[i].type == GAMEDB_EVENT_VARIATION_END)
				continue;
			if (j >= main.n || main.v[j].type != all.v[i].type ||
			    strcmp(main.v[j].san, all.v[i].san) != 0 || main.v[j].nag != all.v[i].nag)
				bad = 1;
			j++;
		}
		CHECK_MSG(!bad && j == main.n, "game %ld: MAINLINE_ONLY differs from the main line",
			  games);
		for (i = 0; i < main.n; i++)
			CHECK(main.v[i].type != GAMEDB_EVENT_VARIATION_BEGIN &&
			      main.v[i].type != GAMEDB_EVENT_VARIATION_END && main.v[i].depth == 0);
		/* SKIP_COMMENTS: the full walk without its comments. */
		for (i = 0, j = 0; i < all.n; i++) {
			if (all.v[i].type == GAMEDB_EVENT_COMMENT_BEFORE ||
			    all.v[i].type == GAMEDB_EVENT_COMMENT_AFTER)
				continue;
			if (j >= noc.n || noc.v[j].type != all.v[i].type ||
			    strcmp(noc.v[j].san, all.v[i].san) != 0 || noc.v[j].depth != all.v[i].depth)
				bad = 1;
			j++;
		}
		CHECK_MSG(!bad && j == noc.n, "game %ld: SKIP_COMMENTS differs", games);
		for (i = 0; i < both.n; i++)
			CHECK(both.v[i].type != GAMEDB_EVENT_COMMENT_BEFORE &&
			      both.v[i].type != GAMEDB_EVENT_COMMENT_AFTER &&
			      both.v[i].type != GAMEDB_EVENT_VARIATION_BEGIN && both.v[i].depth == 0);
		evl_free(&all);
		evl_free(&main);
		evl_free(&noc);
		evl_free(&both);
		if (testlib_failed > 50)
			break;
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	CHECK(games > 0);
	/* The base has all three (so the flags above were really exercised). */
	CHECK_MSG(vars > 0 && comments > 0 && nags > 0, "vars %ld comments %ld nags %ld", vars,
		  comments, nags);
	gamedb_reader_free(r);
}

/* A copy made with gamedb_game_dup() outlives its reader. */
static void test_dup(void)
{
	struct gamedb_reader *r = open_path(with_ext(five_base, ".si4"));
	struct gamedb_game *g, *copy = NULL, *copy2 = NULL;
	struct gamedb_move_iter *it;
	const struct gamedb_event *ev;
	struct sbuf before = { 0 }, after = { 0 }, json1 = { 0 }, json2 = { 0 };
	size_t ply = 0;
	int32_t rc;

	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_game_dup(g, NULL), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_game_dup(g, &copy), GAMEDB_OK);
	CHECK(copy != NULL && copy != g);
	CHECK_EQ_INT(gamedb_game_write_pgn(g, 0, sb_sink, &before), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_game_write_json(g, 0, sb_sink, &json1), GAMEDB_OK);
	/* Game 2, to check that the copy does not follow the reader's borrowed game. */
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_game_dup(g, &copy2), GAMEDB_OK);
	/* A reader's own game is not the caller's to free: this must do nothing. */
	gamedb_game_free(g);
	gamedb_reader_free(r);

	if (!copy)
		return;
	CHECK_EQ_STR(gamedb_game_get_tag(copy, "White"), "Hossain, Enam");
	CHECK_EQ_STR(gamedb_game_get_tag(copy, "Opening"), "Sicilian");
	CHECK_EQ_INT(gamedb_game_get_index(copy), 0);
	CHECK_EQ_INT(gamedb_game_write_pgn(copy, 0, sb_sink, &after), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_game_write_json(copy, 0, sb_sink, &json2), GAMEDB_OK);
	CHECK(before.p && after.p && strcmp(before.p, after.p) == 0);
	CHECK(json1.p && json2.p && strcmp(json1.p, json2.p) == 0);
	CHECK(contains(after.p, "[White \"Hossain, Enam\"]"));
	CHECK_EQ_INT(gamedb_move_iter_new(copy, 0, &it), GAMEDB_OK);
	while ((rc = gamedb_move_iter_next(it, &ev)) == GAMEDB_OK) {
		if (gamedb_event_get_type(ev) != GAMEDB_EVENT_MOVE)
			continue;
		if (ply < sizeof five_game1_san / sizeof five_game1_san[0])
			CHECK_EQ_STR(gamedb_event_get_san(ev), five_game1_san[ply]);
		ply++;
	}
	CHECK_EQ_INT(ply, sizeof five_game1_san / sizeof five_game1_san[0]);
	gamedb_move_iter_free(it);
	/* A copy of a copy. */
	{
		struct gamedb_game *c3 = NULL;
		struct sbuf third = { 0 };
		CHECK_EQ_INT(gamedb_game_dup(copy, &c3), GAMEDB_OK);
		gamedb_game_free(copy);
		CHECK_EQ_INT(gamedb_game_write_pgn(c3, 0, sb_sink, &third), GAMEDB_OK);
		CHECK(third.p && before.p && strcmp(third.p, before.p) == 0);
		gamedb_game_free(c3);
		sb_free(&third);
	}
	CHECK(copy2 && gamedb_game_get_index(copy2) == 1);
	CHECK_EQ_STR(gamedb_game_get_tag(copy2, "Round"), "5.2");
	gamedb_game_free(copy2);
	sb_free(&before);
	sb_free(&after);
	sb_free(&json1);
	sb_free(&json2);
}

/* open_memory_set with the three files gives the same PGN as open_filename. */
static void test_memory_set(const char *base, const char *const exts[3])
{
	struct gamedb_reader *r;
	struct sbuf from_file = { 0 }, from_mem = { 0 };
	const char *names[3];
	const void *data[3];
	size_t sizes[3];
	char *bufs[3] = { NULL, NULL, NULL };
	char namebuf[3][64];
	const char *slash = strrchr(base, '/');
	long n1 = -1, n2 = -2;
	int i;

	for (i = 0; i < 3; i++) {
		bufs[i] = load_file(with_ext(base, exts[i]), &sizes[i]);
		CHECK_MSG(bufs[i] != NULL, "cannot read %s", with_ext(base, exts[i]));
		snprintf(namebuf[i], sizeof namebuf[i], "%s%s", slash ? slash + 1 : base, exts[i]);
		names[i] = namebuf[i];
		data[i] = bufs[i];
	}
	if (!bufs[0] || !bufs[1] || !bufs[2])
		goto out;
	r = open_path(with_ext(base, exts[0]));
	if (r) {
		n1 = pgn_all(r, &from_file);
		gamedb_reader_free(r);
	}
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_open_memory_set(r, names, data, sizes, 3), GAMEDB_OK);
	CHECK_EQ_STR(gamedb_reader_format(r), "scid");
	n2 = pgn_all(r, &from_mem);
	gamedb_reader_free(r);
	CHECK_MSG(n1 == n2 && n1 > 0, "%s: %ld games from the file, %ld from memory", base, n1, n2);
	CHECK_MSG(from_file.p && from_mem.p && strcmp(from_file.p, from_mem.p) == 0,
		  "%s: PGN from memory differs", base);

	/*
	 * The same base with upper-case names, as copied from Windows ("FIVE.SI4"): the siblings
	 * are found in the primary file's case, and the games are the same.
	 */
	{
		struct sbuf from_upper = { 0 };
		char up[3][64];
		const char *upnames[3];
		long n3;
		int k;
		for (i = 0; i < 3; i++) {
			for (k = 0; namebuf[i][k] && k < 63; k++)
				up[i][k] = (char)(namebuf[i][k] >= 'a' && namebuf[i][k] <= 'z'
							  ? namebuf[i][k] - 'a' + 'A' : namebuf[i][k]);
			up[i][k] = 0;
			upnames[i] = up[i];
		}
		r = gamedb_reader_new();
		gamedb_reader_support_format_all(r);
		CHECK_EQ_INT(gamedb_reader_open_memory_set(r, upnames, data, sizes, 3), GAMEDB_OK);
		n3 = pgn_all(r, &from_upper);
		gamedb_reader_free(r);
		CHECK_MSG(n3 == n1, "%s in upper case: %ld games, %ld in lower case", base, n3, n1);
		CHECK(from_upper.p && from_file.p && strcmp(from_upper.p, from_file.p) == 0);
		sb_free(&from_upper);
	}

	/* A memory set without the game file: FATAL, E_IO, naming the missing file. */
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_open_memory_set(r, names, data, sizes, 2), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_IO);
	CHECK_MSG(contains(gamedb_reader_errmsg(r), exts[2]), "%s", gamedb_reader_errmsg(r));
	gamedb_reader_free(r);
out:
	for (i = 0; i < 3; i++)
		free(bufs[i]);
	sb_free(&from_file);
	sb_free(&from_mem);
}

/* ---- caller I/O that counts reads per file ------------------------------------------------ */

enum { F_INDEX, F_NAMES, F_GAMES, F_OTHER };

struct io_ctx {
	char dir[1024];
	unsigned long reads[4];
	unsigned long opens, closes;
};

struct io_handle {
	FILE *fp;
	int kind;
};

static int kind_of(const char *name)
{
	size_t n = strlen(name);
	if (n < 4 || name[n - 4] != '.' || name[n - 3] != 's')
		return F_OTHER;
	switch (name[n - 2]) {
	case 'i': return F_INDEX;
	case 'n': return F_NAMES;
	case 'g': return F_GAMES;
	default: return F_OTHER;
	}
}

static int32_t cio_open(void *user_data, const char *name, void **handle, uint64_t *file_size)
{
	struct io_ctx *c = user_data;
	struct io_handle *h;
	char path[2200];
	long n;

	snprintf(path, sizeof path, "%s/%s", c->dir, name);
	h = calloc(1, sizeof *h);
	if (!h)
		return -1;
	h->fp = fopen(path, "rb");
	if (!h->fp || fseek(h->fp, 0, SEEK_END) != 0 || (n = ftell(h->fp)) < 0) {
		if (h->fp)
			fclose(h->fp);
		free(h);
		return -1;
	}
	h->kind = kind_of(name);
	*handle = h;
	*file_size = (uint64_t)n;
	c->opens++;
	return 0;
}

static int64_t cio_read(void *user_data, void *handle, uint64_t offset, void *buf, size_t len)
{
	struct io_ctx *c = user_data;
	struct io_handle *h = handle;

	c->reads[h->kind]++;
	if (fseek(h->fp, (long)offset, SEEK_SET) != 0)
		return -1;
	return (int64_t)fread(buf, 1, len, h->fp);
}

static void cio_close(void *user_data, void *handle)
{
	struct io_ctx *c = user_data;
	struct io_handle *h = handle;

	fclose(h->fp);
	free(h);
	c->closes++;
}

static struct gamedb_reader *open_counting(const char *base, const char *ext, struct io_ctx *c)
{
	struct gamedb_io io;
	struct gamedb_reader *r;
	const char *slash = strrchr(base, '/');
	char name[256];
	int32_t rc;

	memset(c, 0, sizeof *c);
	snprintf(c->dir, sizeof c->dir, "%.*s", slash ? (int)(slash - base) : 1, slash ? base : ".");
	snprintf(name, sizeof name, "%s%s", slash ? slash + 1 : base, ext);
	CHECK_EQ_INT(gamedb_io_init(&io, sizeof io), GAMEDB_OK);
	io.open = cio_open;
	io.read_at = cio_read;
	io.close = cio_close;
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	rc = gamedb_reader_open_io(r, &io, name, c);
	CHECK_MSG(rc == GAMEDB_OK, "open_io %s: %s", name, gamedb_reader_errmsg(r));
	if (rc != GAMEDB_OK) {
		gamedb_reader_free(r);
		return NULL;
	}
	return r;
}

static const char *const index_tags[] = {
	"Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo", "ECO",
};

/* Listing headers reads the index and name files only; the game file waits for a need. */
static void test_lazy_io(const char *base, const char *ext, int all_have_elo)
{
	struct io_ctx c;
	struct gamedb_reader *r = open_counting(base, ext, &c);
	struct gamedb_game *g;
	struct gamedb_move_iter *it;
	struct sbuf via_io = { 0 }, via_file = { 0 };
	long games = 0;
	int32_t rc;
	size_t i;

	if (!r)
		return;
	CHECK(c.reads[F_INDEX] > 0);
	CHECK(c.reads[F_NAMES] > 0);
	CHECK_EQ_INT(c.opens, 3);
	CHECK_MSG(c.reads[F_GAMES] == 0, "%s: opening read the game file %lu times", base,
		  c.reads[F_GAMES]);
	/* The index tags Scid never stores elsewhere (the Seven Tag Roster and ECO): no game read. */
	while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN) {
		for (i = 0; i < sizeof index_tags / sizeof index_tags[0]; i++) {
			const char *v;
			if (strcmp(index_tags[i], "WhiteElo") == 0)
				continue;
			v = gamedb_game_get_tag(g, index_tags[i]);
			if (i < 7 || all_have_elo)
				CHECK_MSG(v != NULL, "%s: game %ld has no %s", base, games, index_tags[i]);
		}
		(void)gamedb_game_get_index(g);
		(void)gamedb_game_is_deleted(g);
		(void)gamedb_game_get_variant(g);
		games++;
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	CHECK(games > 0);
	CHECK_MSG(c.reads[F_GAMES] == 0, "%s: listing %ld headers read the game file %lu times",
		  base, games, c.reads[F_GAMES]);

	/*
	 * With WhiteElo and BlackElo too. Scid keeps a side's first rating in the index and only
	 * further rating tags of that side among the extra tags, so an Elo the index lacks can be
	 * elsewhere only when the index holds another kind of rating for that side (WhiteUSCF...):
	 * only such games may be read, every other game never.
	 */
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 0), GAMEDB_OK);
	while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN) {
		static const char *const sides[2] = { "WhiteElo", "BlackElo" };
		static const char *const kinds[] = { "Rating", "Rapid", "ICCF", "USCF", "DWZ", "ECF",
						     "BCF" };
		int k;
		for (k = 0; k < 2; k++) {
			unsigned long before = c.reads[F_GAMES];
			const char *v = gamedb_game_get_tag(g, sides[k]);
			size_t j, n, q;
			int other = 0;
			if (all_have_elo)
				CHECK_MSG(v != NULL, "%s: game %ld has no %s", base, games, sides[k]);
			if (c.reads[F_GAMES] == before)
				continue;
			/* It was read: the game must hold another rating of the side in its index. */
			n = gamedb_game_get_tag_count(g);
			for (j = 0; j < n; j++) {
				const char *name = NULL;
				gamedb_game_get_tag_at(g, j, &name, NULL);
				if (!name || strncmp(name, sides[k], 5) != 0)
					continue;
				for (q = 0; q < sizeof kinds / sizeof kinds[0]; q++)
					if (strcmp(name + 5, kinds[q]) == 0)
						other = 1;
			}
			CHECK_MSG(other, "%s: game %llu: asking for %s read the game file", base,
				  (unsigned long long)gamedb_game_get_index(g), sides[k]);
		}
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	if (all_have_elo)
		CHECK_MSG(c.reads[F_GAMES] == 0, "%s: listing Elo read the game file %lu times",
			  base, c.reads[F_GAMES]);

	/* Reopen, so that the counts below start from zero. */
	gamedb_reader_free(r);
	CHECK_EQ_INT(c.closes, c.opens);
	r = open_counting(base, ext, &c);
	if (!r)
		return;

	/* An extra tag (kept in the game file) needs the game file. */
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 0), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK(c.reads[F_GAMES] == 0);
	(void)gamedb_game_get_tag_count(g);
	CHECK_MSG(c.reads[F_GAMES] > 0, "%s: the tag list did not read the game file", base);
	CHECK_EQ_INT(c.reads[F_OTHER], 0);

	/* Answers given without the extra tags equal the answers once they are loaded. */
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 0), GAMEDB_OK);
	while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN) {
		static const char *const more[] = { "BlackElo", "WhiteUSCF", "BlackUSCF", "WhiteRating",
						    "BlackDWZ", "WhiteICCF", "EventDate", "Opening" };
		const char *lazy[sizeof index_tags / sizeof index_tags[0] + 8];
		char *copies[sizeof lazy / sizeof lazy[0]];
		size_t nt = sizeof lazy / sizeof lazy[0];
		for (i = 0; i < nt; i++) {
			const char *name = i < 9 ? index_tags[i] : more[i - 9];
			lazy[i] = gamedb_game_get_tag(g, name);
			copies[i] = NULL;
			if (lazy[i]) {
				copies[i] = malloc(strlen(lazy[i]) + 1);
				if (copies[i])
					strcpy(copies[i], lazy[i]);
			}
		}
		(void)gamedb_game_get_tag_count(g); /* loads the extra tags */
		for (i = 0; i < nt; i++) {
			const char *name = i < 9 ? index_tags[i] : more[i - 9];
			const char *now = gamedb_game_get_tag(g, name);
			CHECK_MSG((now == NULL) == (copies[i] == NULL) &&
					  (!now || strcmp(now, copies[i]) == 0),
				  "%s: game %llu: tag %s was \"%s\" before the extra tags, \"%s\" after",
				  base, (unsigned long long)gamedb_game_get_index(g), name,
				  copies[i] ? copies[i] : "(none)", now ? now : "(none)");
			free(copies[i]);
		}
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	gamedb_reader_free(r);
	CHECK_EQ_INT(c.closes, c.opens);

	/* The moves need the game file; and the PGN equals the one read from disk. */
	r = open_counting(base, ext, &c);
	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK(c.reads[F_GAMES] == 0);
	CHECK_EQ_INT(gamedb_move_iter_new(g, 0, &it), GAMEDB_OK);
	gamedb_move_iter_free(it);
	CHECK_MSG(c.reads[F_GAMES] > 0, "%s: the moves did not read the game file", base);
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 0), GAMEDB_OK);
	CHECK(pgn_all(r, &via_io) > 0);
	gamedb_reader_free(r);
	CHECK_EQ_INT(c.closes, c.opens);
	r = open_path(with_ext(base, ext));
	if (r) {
		CHECK(pgn_all(r, &via_file) > 0);
		gamedb_reader_free(r);
	}
	CHECK_MSG(via_io.p && via_file.p && strcmp(via_io.p, via_file.p) == 0,
		  "%s: PGN through caller I/O differs", base);
	sb_free(&via_io);
	sb_free(&via_file);
}

/* ---- options and the converter hook -------------------------------------------------------- */

struct hook_ctx {
	int calls;
	int ascii_calls; /* calls whose input was pure ASCII (there must be none) */
	int32_t answer;  /* what the hook returns */
	char charset[48];
};

/* Writes the input with ASCII letters upper-cased and every other byte as "<xx>". */
static int32_t upper_hook(void *user_data, const char *charset, const char *in, size_t in_len,
			  char *out, size_t out_cap, size_t *out_len)
{
	struct hook_ctx *h = user_data;
	size_t i, o = 0;
	int ascii = 1;

	h->calls++;
	snprintf(h->charset, sizeof h->charset, "%s", charset ? charset : "(null)");
	for (i = 0; i < in_len; i++) {
		unsigned char c = (unsigned char)in[i];
		if (c >= 0x80)
			ascii = 0;
		if (o + 4 > out_cap)
			return GAMEDB_FAILED;
		if (c >= 0x80) {
			snprintf(out + o, 5, "<%02x>", c);
			o += 4;
		} else {
			out[o++] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
		}
	}
	if (ascii)
		h->ascii_calls++;
	*out_len = o;
	if (h->answer != GAMEDB_OK && h->answer != GAMEDB_WARN)
		*out_len = 0;
	return h->answer;
}

/* five with "Wang Hao" turned into "Wang H\xE9o" (Latin-1/CP1252 e-acute; CP1251 short i). */
struct patched {
	char *buf[3];
	size_t size[3];
	const char *names[3];
	const void *data[3];
	int ok;
};

static void patched_load(struct patched *p)
{
	static const char *const exts[3] = { ".si4", ".sn4", ".sg4" };
	char *hit = NULL;
	int i;

	memset(p, 0, sizeof *p);
	p->names[0] = "five.si4";
	p->names[1] = "five.sn4";
	p->names[2] = "five.sg4";
	for (i = 0; i < 3; i++) {
		p->buf[i] = load_file(with_ext(five_base, exts[i]), &p->size[i]);
		if (!p->buf[i])
			return;
		p->data[i] = p->buf[i];
	}
	for (i = 0; (size_t)i + 8 <= p->size[1]; i++) {
		if (memcmp(p->buf[1] + i, "Wang Hao", 8) == 0) {
			hit = p->buf[1] + i;
			break;
		}
	}
	CHECK_MSG(hit != NULL, "\"Wang Hao\" not found in five.sn4");
	if (!hit)
		return;
	hit[6] = (char)0xE9;
	p->ok = 1;
}

static void patched_free(struct patched *p)
{
	int i;
	for (i = 0; i < 3; i++)
		free(p->buf[i]);
}

/* Opens the patched base with the given setup and returns the White/Black name that was
 * "Wang Hao" (malloc'd), with the next_game status of its game in *status. */
static char *patched_name(struct patched *p, const char *charset, const char *fallback,
			  struct hook_ctx *hook, int32_t *status, char **raw_out)
{
	struct gamedb_reader *r = gamedb_reader_new();
	struct gamedb_game *g;
	char *found = NULL;
	int32_t rc;

	*status = 0;
	if (raw_out)
		*raw_out = NULL;
	gamedb_reader_support_format_all(r);
	if (charset)
		CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", charset), GAMEDB_OK);
	if (fallback)
		CHECK_EQ_INT(gamedb_reader_set_option(r, "scid", "fallback-charset", fallback), GAMEDB_OK);
	if (hook)
		CHECK_EQ_INT(gamedb_reader_set_converter(r, upper_hook, hook), GAMEDB_OK);
	rc = gamedb_reader_open_memory_set(r, p->names, p->data, p->size, 3);
	CHECK_MSG(rc == GAMEDB_OK || rc == GAMEDB_WARN, "open: %s", gamedb_reader_errmsg(r));
	while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN) {
		const char *sides[2] = { "White", "Black" };
		int k;
		for (k = 0; k < 2; k++) {
			const char *v = gamedb_game_get_tag(g, sides[k]);
			size_t len = 0;
			const char *raw = gamedb_game_get_tag_raw(g, sides[k], &len, NULL);
			if (raw && len == 8 && memcmp(raw, "Wang H\xE9o", 8) == 0 && !found && v) {
				found = malloc(strlen(v) + 1);
				if (found)
					strcpy(found, v);
				*status = rc;
				if (raw_out) {
					*raw_out = malloc(len + 1);
					if (*raw_out)
						memcpy(*raw_out, raw, len + 1);
				}
			}
		}
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	gamedb_reader_free(r);
	CHECK_MSG(found != NULL, "the patched name was not found");
	return found;
}

/*
 * A SCID comment that is not UTF-8 keeps its stored bytes, and gamedb_event_get_text_raw()
 * gives exactly them. testdata/scid/latin1 (README there): Scid stores a Latin-1 lead byte of
 * 0xC0 and above as UTF-8 but keeps a lone byte of 0x80-0xBF, so its comments hold both; the
 * bytes below are those the .sg4 holds. The text is the stored bytes read in the fallback
 * charset where they are not UTF-8.
 */
static void test_scid_stored_comment(void)
{
	static const char *const want[] = {
		"Partie jou\xC3\xA9" "e \xC3\xA0 Gen\xC3\xA8ve, caf\xC3\xA9 cr\xC3\xA8me \xA9 2022. "
		"\xC3\x87" "a commence.",
		"Mojibake: \xC3\xA9 and n\xE9\xBB x and \xFC\xB1 y and \xC3\x80\xC3\x81"
	};
	static const char *const text[] = {
		"Partie jou\xC3\xA9" "e \xC3\xA0 Gen\xC3\xA8ve, caf\xC3\xA9 cr\xC3\xA8me \xC2\xA9 2022. "
		"\xC3\x87" "a commence.",
		"Mojibake: \xC3\xA9 and n\xC3\xA9\xC2\xBB x and \xC3\xBC\xC2\xB1 y and \xC3\x80\xC3\x81"
	};
	const char *td = getenv("GAMEDB_TESTDATA");
	struct gamedb_reader *r;
	struct gamedb_game *g;
	char base[1024];
	size_t k, found = 0;
	int32_t rc;

	if (!td)
		return;
	snprintf(base, sizeof base, "%s/scid/latin1.si4", td);
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_open_filename(r, base), GAMEDB_OK);
	while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN) {
		struct gamedb_move_iter *it = NULL;
		const struct gamedb_event *ev;
		if (gamedb_move_iter_new(g, 0, &it) == GAMEDB_FAILED)
			break;
		while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
			const char *raw, *t = gamedb_event_get_text(ev);
			size_t len = 0;
			if (gamedb_event_get_type(ev) != GAMEDB_EVENT_COMMENT_BEFORE &&
			    gamedb_event_get_type(ev) != GAMEDB_EVENT_COMMENT_AFTER)
				continue;
			raw = gamedb_event_get_text_raw(ev, &len);
			for (k = 0; k < 2; k++) {
				if (strncmp(t, text[k], 8) != 0)
					continue;
				found++;
				CHECK_EQ_STR(t, text[k]);
				CHECK_MSG(raw && len == strlen(want[k]) && memcmp(raw, want[k], len) == 0 &&
						  raw[len] == 0,
					  "comment %zu: stored bytes \"%s\" (%zu)", k, raw ? raw : "(none)", len);
			}
		}
		gamedb_move_iter_free(it);
	}
	CHECK_EQ_INT((int)found, 2);
	gamedb_reader_free(r);
}

/*
 * Text that is not UTF-8 in a UTF-8 base is read in the fallback charset, and said: once at
 * the open for the name tables (the message names the file and the first such name), once
 * per game for its comments and tags (file, game number, the text), never once per string.
 * testdata/scid/latin1 holds ISO-8859-1 comments in each of its 3 games (README there); the
 * patched five.sn4 holds one Latin-1 name, "Wang H\xE9o".
 */
static void test_fallback_warning(void)
{
	const char *td = getenv("GAMEDB_TESTDATA");
	struct gamedb_reader *r;
	struct gamedb_game *g;
	struct gamedb_move_iter *it;
	struct patched p;
	char base[1024], sg[1024];
	int32_t rc;
	int n = 0, warned = 0;

	if (td) {
		snprintf(base, sizeof base, "%s/scid/latin1.si4", td);
		snprintf(sg, sizeof sg, "%s/scid/latin1.sg4: offset ", td);
		r = gamedb_reader_new();
		gamedb_reader_support_format_all(r);
		CHECK_EQ_INT(gamedb_reader_open_filename(r, base), GAMEDB_OK);
		while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN) {
			char want[64];
			const char *m;
			n++;
			CHECK_EQ_INT(gamedb_move_iter_new(g, 0, &it), GAMEDB_OK);
			gamedb_move_iter_free(it);
			m = gamedb_game_errmsg(g);
			snprintf(want, sizeof want, ": game %d: text not UTF-8", n);
			/* The file and offset of the text (the comment in the .sg4), the game. */
			if (gamedb_game_get_status(g) == GAMEDB_WARN && strstr(m, sg) == m &&
			    strstr(m, want) && strstr(m, "read as ISO-8859-1 (the fallback charset)"))
				warned++;
			CHECK_MSG(strstr(m, "\"") && strstr(m, "\xC3"),
				  "the message quotes the text, its Latin-1 read as UTF-8: %s", m);
			/* Once per game: one text in the message, the file and game named once. */
			{
				const char *f = strstr(m, "fallback"), *w = strstr(m, want);
				CHECK_MSG(f && w && !strstr(f + 1, "fallback") && !strstr(w + 1, ": game "),
					  "%s", m);
			}
		}
		CHECK_EQ_INT(rc, GAMEDB_END);
		CHECK_EQ_INT(n, 3);
		CHECK_EQ_INT(warned, 3);
		gamedb_reader_free(r);
		/* The same games in UTF-8: no warning. */
		snprintf(base, sizeof base, "%s/scid/utf8.si4", td);
		r = gamedb_reader_new();
		gamedb_reader_support_format_all(r);
		CHECK_EQ_INT(gamedb_reader_open_filename(r, base), GAMEDB_OK);
		while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK) {
			CHECK_EQ_INT(gamedb_move_iter_new(g, 0, &it), GAMEDB_OK);
			gamedb_move_iter_free(it);
			CHECK_EQ_INT(gamedb_game_get_status(g), GAMEDB_OK);
		}
		CHECK_EQ_INT(rc, GAMEDB_END);
		gamedb_reader_free(r);
	}
	patched_load(&p);
	if (p.ok) {
		r = gamedb_reader_new();
		gamedb_reader_support_format_all(r);
		rc = gamedb_reader_open_memory_set(r, p.names, p.data, p.size, 3);
		CHECK_EQ_INT(rc, GAMEDB_WARN);
		/* The name file and the offset of the name's record, then the text. */
		CHECK_MSG(strncmp(gamedb_reader_errmsg(r), "five.sn4: offset ", 17) == 0 &&
			  strstr(gamedb_reader_errmsg(r), ": 1 text is not UTF-8, read as ISO-8859-1 "
							 "(the fallback charset); the first: "
							 "\"Wang H\xC3\xA9o\"") != NULL,
			  "open: %s", gamedb_reader_errmsg(r));
		/* Said at the open, not again for each game that names him. */
		while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK)
			;
		CHECK_EQ_INT(rc, GAMEDB_END);
		gamedb_reader_free(r);
	}
	patched_free(&p);
}

static void test_converter(void)
{
	struct patched p;
	struct hook_ctx h;
	int32_t st;
	char *v, *raw;

	patched_load(&p);
	if (!p.ok) {
		patched_free(&p);
		return;
	}
	/* Default: SCID text is UTF-8; an invalid byte is read as Latin-1 (0xE9 = U+00E9). */
	v = patched_name(&p, NULL, NULL, NULL, &st, &raw);
	CHECK_EQ_STR(v, "Wang H\xC3\xA9o");
	CHECK_EQ_STR(raw, "Wang H\xE9o");
	CHECK_EQ_INT(st, GAMEDB_OK);
	free(v);
	free(raw);
	/* The source charset set to CP1251: 0xE9 is U+0439 (short i). */
	v = patched_name(&p, "CP1251", NULL, NULL, &st, NULL);
	CHECK_EQ_STR(v, "Wang H\xD0\xB9o");
	free(v);
	/* UTF-8 with a CP1251 fallback for invalid bytes gives the same. */
	v = patched_name(&p, NULL, "CP1251", NULL, &st, NULL);
	CHECK_EQ_STR(v, "Wang H\xD0\xB9o");
	free(v);
	/* The hook's output is used, and it is called for non-ASCII text only. */
	memset(&h, 0, sizeof h);
	h.answer = GAMEDB_OK;
	v = patched_name(&p, NULL, NULL, &h, &st, NULL);
	CHECK_EQ_STR(v, "WANG H<e9>O");
	CHECK(h.calls >= 1);
	CHECK_EQ_INT(h.ascii_calls, 0);
	CHECK_EQ_STR(h.charset, "UTF-8");
	CHECK_EQ_INT(st, GAMEDB_OK);
	free(v);
	/* The hook sees the charset the caller chose. */
	memset(&h, 0, sizeof h);
	h.answer = GAMEDB_OK;
	v = patched_name(&p, "CP1252", NULL, &h, &st, NULL);
	CHECK_EQ_STR(v, "WANG H<e9>O");
	CHECK_EQ_STR(h.charset, "CP1252");
	free(v);
	/* A hook that converts with loss makes the game a warning. */
	memset(&h, 0, sizeof h);
	h.answer = GAMEDB_WARN;
	v = patched_name(&p, NULL, NULL, &h, &st, NULL);
	CHECK_EQ_STR(v, "WANG H<e9>O");
	CHECK_EQ_INT(st, GAMEDB_WARN);
	free(v);
	/* A hook that declines: the library converts the text itself. */
	memset(&h, 0, sizeof h);
	h.answer = GAMEDB_FAILED;
	v = patched_name(&p, NULL, NULL, &h, &st, NULL);
	CHECK_EQ_STR(v, "Wang H\xC3\xA9o");
	CHECK(h.calls >= 1);
	CHECK_EQ_INT(st, GAMEDB_OK);
	free(v);
	memset(&h, 0, sizeof h);
	h.answer = GAMEDB_END; /* any other value declines too */
	v = patched_name(&p, "CP1251", NULL, &h, &st, NULL);
	CHECK_EQ_STR(v, "Wang H\xD0\xB9o");
	CHECK(h.calls >= 1);
	free(v);
	patched_free(&p);
}

/*
 * A name that converts with loss makes only the games that carry it WARN: with the source read
 * as ASCII, the patched "Wang H\xE9o" loses a byte; the other games have clean names.
 */
static void test_lossy_name_scope(void)
{
	struct patched p;
	struct gamedb_reader *r;
	struct gamedb_game *g;
	int32_t rc;
	int warned = 0, clean = 0;

	patched_load(&p);
	if (!p.ok) {
		patched_free(&p);
		return;
	}
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", "ASCII"), GAMEDB_OK);
	rc = gamedb_reader_open_memory_set(r, p.names, p.data, p.size, 3);
	CHECK_MSG(rc == GAMEDB_OK || rc == GAMEDB_WARN, "open: %s", gamedb_reader_errmsg(r));
	while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN) {
		const char *w = gamedb_game_get_tag(g, "White"), *b = gamedb_game_get_tag(g, "Black");
		int has = (w && strncmp(w, "Wang H", 6) == 0) || (b && strncmp(b, "Wang H", 6) == 0);
		CHECK_MSG(rc == (has ? GAMEDB_WARN : GAMEDB_OK), "game %llu: status %d",
			  (unsigned long long)gamedb_game_get_index(g), (int)rc);
		if (has)
			warned++;
		else
			clean++;
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	CHECK_EQ_INT(warned, 1);
	CHECK_EQ_INT(clean, 4);
	gamedb_reader_free(r);
	patched_free(&p);
}

/* set_option on an open reader. */
static void test_options_open(void)
{
	struct gamedb_reader *r = open_path(with_ext(five_base, ".si4"));
	struct gamedb_game *g;

	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", "NO-SUCH-CHARSET-XYZ"), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
	CHECK_EQ_INT(gamedb_reader_set_option(r, "scid", "no-such-option", "1"), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNKNOWN_OPTION);
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", "UTF-8"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_set_option(r, "scid", "charset", "CP1252"), GAMEDB_OK);
	/* FAILED options leave the reader usable. */
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK_EQ_STR(gamedb_game_get_tag(g, "White"), "Hossain, Enam");
	gamedb_reader_free(r);
}

/* ---- threads ------------------------------------------------------------------------------ */

struct job {
	const char *path;
	struct sbuf out;
	long games;
};

static void *convert_job(void *arg)
{
	struct job *j = arg;
	struct gamedb_reader *r = gamedb_reader_new();

	j->games = -1;
	if (!r)
		return NULL;
	gamedb_reader_support_format_all(r);
	if (gamedb_reader_open_filename(r, j->path) == GAMEDB_OK)
		j->games = pgn_all(r, &j->out);
	gamedb_reader_free(r);
	return NULL;
}

static void test_threads(const char *path)
{
	struct job single = { path, { 0 }, 0 }, a = { path, { 0 }, 0 }, b = { path, { 0 }, 0 };
	pthread_t ta, tb;
	int ea, eb;

	convert_job(&single);
	CHECK(single.games > 0);
	ea = pthread_create(&ta, NULL, convert_job, &a);
	eb = pthread_create(&tb, NULL, convert_job, &b);
	CHECK_EQ_INT(ea, 0);
	CHECK_EQ_INT(eb, 0);
	if (ea == 0)
		pthread_join(ta, NULL);
	if (eb == 0)
		pthread_join(tb, NULL);
	CHECK_EQ_INT(a.games, single.games);
	CHECK_EQ_INT(b.games, single.games);
	CHECK_MSG(a.out.p && single.out.p && a.out.len == single.out.len &&
		  memcmp(a.out.p, single.out.p, a.out.len) == 0, "thread A's PGN differs");
	CHECK_MSG(b.out.p && single.out.p && b.out.len == single.out.len &&
		  memcmp(b.out.p, single.out.p, b.out.len) == 0, "thread B's PGN differs");
	sb_free(&single.out);
	sb_free(&a.out);
	sb_free(&b.out);
}

/*
 * Text lost in conversion is reported by the writers and by gamedb_game_get_status(), also when
 * only a comment loses it: in a copy of the annotations fixture one comment byte becomes 0xE9,
 * and the base is read as ASCII. The tags stay clean, so that game is OK until its moves are
 * decoded and WARN after; every other game stays OK.
 */
static void test_lossy_status(void)
{
	static const char *const exts[3] = { ".si4", ".sn4", ".sg4" };
	const char *td = getenv("GAMEDB_TESTDATA");
	const char *names[3] = { "annotations.si4", "annotations.sn4", "annotations.sg4" };
	const void *data[3];
	char *buf[3] = { NULL, NULL, NULL }, base[1024];
	size_t size[3], i;
	struct gamedb_reader *r;
	struct gamedb_game *g;
	int32_t rc;
	int lossy = 0, clean = 0, k;

	if (!td)
		return;
	snprintf(base, sizeof base, "%s/scid/annotations", td);
	for (k = 0; k < 3; k++) {
		buf[k] = load_file(with_ext(base, exts[k]), &size[k]);
		data[k] = buf[k];
	}
	if (!buf[0] || !buf[1] || !buf[2])
		goto out;
	for (i = 0; i + 8 <= size[2] && memcmp(buf[2] + i, "After e4", 8) != 0; i++)
		;
	CHECK_MSG(i + 8 <= size[2], "comment \"After e4\" not found in annotations.sg4");
	if (i + 8 > size[2])
		goto out;
	buf[2][i] = (char)0xE9;
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "charset", "ASCII"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_open_memory_set(r, names, data, size, 3), GAMEDB_OK);
	while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN) {
		struct sbuf pgn = { 0 }, json = { 0 };
		int32_t before = gamedb_game_get_status(g);
		int32_t wp = gamedb_game_write_pgn(g, 0, sb_sink, &pgn);
		int32_t wj = gamedb_game_write_json(g, 0, sb_sink, &json);
		int has = contains(pgn.p, "\xEF\xBF\xBD");
		int32_t want = has ? GAMEDB_WARN : GAMEDB_OK;
		CHECK_EQ_INT(before, GAMEDB_OK);
		CHECK_EQ_INT(wp, want);
		CHECK_EQ_INT(wj, want);
		CHECK_EQ_INT(gamedb_game_get_status(g), want);
		if (has)
			lossy++;
		else
			clean++;
		sb_free(&pgn);
		sb_free(&json);
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	CHECK_EQ_INT(lossy, 1);
	CHECK(clean > 0);
	gamedb_reader_free(r);
out:
	for (k = 0; k < 3; k++)
		free(buf[k]);
}

/* ---- testdata/scid: a generic sweep of whatever bases are there ---------------------------- */

/*
 * A file of testdata/scid (walk_files(), in name order): an index (.si4, .si3) beside its two
 * other files is a base, swept; ctx counts the bases.
 */
static void sweep_file(const char *folder, const char *name, const char *path, void *ctx)
{
	static const char *const exts4[3] = { ".si4", ".sn4", ".sg4" };
	static const char *const exts3[3] = { ".si3", ".sn3", ".sg3" };
	size_t n = strlen(name);
	char base[2048];
	int v4;

	(void)path;
	if (n < 5 || (strcmp(name + n - 4, ".si4") != 0 && strcmp(name + n - 4, ".si3") != 0))
		return;
	v4 = name[n - 1] == '4';
	snprintf(base, sizeof base, "%s/%.*s", folder, (int)(n - 4), name);
	if (!file_exists(with_ext(base, v4 ? ".sg4" : ".sg3")) ||
	    !file_exists(with_ext(base, v4 ? ".sn4" : ".sn3")))
		return;
	printf("testdata: %s\n", base);
	test_memory_set(base, v4 ? exts4 : exts3);
	test_lazy_io(base, v4 ? ".si4" : ".si3", 0);
	(*(int *)ctx)++;
}

static int sweep_testdata(void)
{
	int swept = 0;
	const char *td = getenv("GAMEDB_TESTDATA");
	char dir[1024];

	if (!td)
		return 0;
	snprintf(dir, sizeof dir, "%s/scid", td);
	walk_files(dir, 0, sweep_file, &swept);
	return swept;
}

/*
 * Issue 28: a reader opens another base (a program's "Open another base"): the open closes
 * the base it has and reads the new one as a fresh reader reads it, whatever the formats of
 * the two; before, the second open was a misuse that left the reader fatal. Also: the format
 * a shared base forced is not kept, the format of gamedb_reader_set_format() is, a base in
 * memory reopens, and a failed reopen leaves the reader fatal.
 */
static void test_reopen(void)
{
	const char *td = getenv("GAMEDB_TESTDATA");
	char a[1024], b[1024], c[1024];
	struct gamedb_reader *r, *fresh, *base;
	struct gamedb_game *g;
	struct sbuf want = { 0 }, got = { 0 }, want_c = { 0 }, got_c = { 0 };
	long nwant = -1, ngot, nwant_c = -1;
	uint64_t count = 0;
	void *data;
	size_t size;

	if (!td) {
		printf("note: GAMEDB_TESTDATA unset: the reopen checks are skipped\n");
		return;
	}
	snprintf(a, sizeof a, "%s/scid/moves.si4", td);
	snprintf(b, sizeof b, "%s/xqf/plain-v10.xqf", td);
	snprintf(c, sizeof c, "%s/scid/tags.si4", td);
	/* What fresh readers read from B and C. */
	fresh = open_path(b);
	if (fresh) {
		nwant = pgn_all(fresh, &want);
		gamedb_reader_free(fresh);
	}
	fresh = open_path(c);
	if (fresh) {
		nwant_c = pgn_all(fresh, &want_c);
		gamedb_reader_free(fresh);
	}
	CHECK(nwant > 0 && nwant_c > 1);

	/* A (SCID), one game read, then B (XQF) on the same reader. */
	r = open_path(a);
	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_open_filename(r, b), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_NONE);
	CHECK_EQ_STR(gamedb_reader_format(r), "xqf");
	ngot = pgn_all(r, &got);
	CHECK_EQ_INT(ngot, nwant);
	CHECK_MSG(got.p && want.p && strcmp(got.p, want.p) == 0, "reopened:\n%s\nfresh:\n%s",
		  got.p ? got.p : "", want.p ? want.p : "");

	/* Back to SCID (C), read from game 0 to the end, its count and a seek. */
	CHECK_EQ_INT(gamedb_reader_open_filename(r, c), GAMEDB_OK);
	CHECK_EQ_STR(gamedb_reader_format(r), "scid");
	CHECK_EQ_INT(gamedb_reader_game_count(r, &count), GAMEDB_OK);
	CHECK_EQ_INT((long)count, nwant_c);
	ngot = pgn_all(r, &got_c);
	CHECK_EQ_INT(ngot, nwant_c);
	CHECK(got_c.p && want_c.p && strcmp(got_c.p, want_c.p) == 0);
	CHECK_EQ_INT(gamedb_reader_seek_game(r, 1), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);

	/* B again, from memory this time. */
	data = load_file(b, &size);
	CHECK(data != NULL);
	if (data) {
		sb_free(&got);
		CHECK_EQ_INT(gamedb_reader_open_memory(r, "plain-v10.xqf", data, size), GAMEDB_OK);
		ngot = pgn_all(r, &got);
		CHECK_EQ_INT(ngot, nwant);
		CHECK(got.p && want.p && strcmp(got.p, want.p) == 0);
	}

	/* Opened shared on C (the SCID format forced), then B: detected as XQF again. */
	base = open_path(c);
	if (base) {
		CHECK_EQ_INT(gamedb_reader_open_shared(r, base), GAMEDB_OK);
		CHECK_EQ_STR(gamedb_reader_format(r), "scid");
		gamedb_reader_free(base); /* r keeps reading C on its own */
		CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_OK);
		CHECK_EQ_INT(gamedb_reader_open_filename(r, b), GAMEDB_OK);
		CHECK_EQ_STR(gamedb_reader_format(r), "xqf");
		sb_free(&got);
		ngot = pgn_all(r, &got);
		CHECK_EQ_INT(ngot, nwant);
		CHECK(got.p && want.p && strcmp(got.p, want.p) == 0);
	}

	/* A failed reopen (no such file) is fatal: the reader opens nothing more. */
	CHECK_EQ_INT(gamedb_reader_open_filename(r, with_ext(a, ".no-such-file")), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_IO);
	CHECK_EQ_INT(gamedb_reader_open_filename(r, b), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	gamedb_reader_free(r);
	free(data);

	/* gamedb_reader_set_format() holds for every base: SCID does not read B. */
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_set_format(r, "scid"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_open_filename(r, a), GAMEDB_OK);
	CHECK(gamedb_reader_open_filename(r, b) == GAMEDB_FATAL);
	gamedb_reader_free(r);
	sb_free(&want);
	sb_free(&got);
	sb_free(&want_c);
	sb_free(&got_c);
}

int main(void)
{
	static const char *const exts4[3] = { ".si4", ".sn4", ".sg4" };
	static const char *const exts3[3] = { ".si3", ".sn3", ".sg3" };
	int swept;

	test_strerror();
	test_version();
	test_lifecycle();
	test_open_errors();
	test_io_struct_size();
	test_options_nodata();
	swept = sweep_testdata();
	test_lossy_status();
	test_reopen();

	realdata = getenv("GAMEDB_REALDATA");
	if (realdata) {
		snprintf(five_base, sizeof five_base, "%s/scid/scidtopgn/five/five", realdata);
		snprintf(tactics_base, sizeof tactics_base, "%s/scid/scidvspc-modern/si4/tactics/tactics",
			 realdata);
		snprintf(endings_base, sizeof endings_base, "%s/scid/scidvspc-modern/si4/endings/endings",
			 realdata);
		snprintf(matein1_base, sizeof matein1_base, "%s/scid/scidvspc-modern/si4/matein1/matein1",
			 realdata);
		snprintf(tactics3_base, sizeof tactics3_base,
			 "%s/scid/scidvspc-modern/si3/tactics/tactics", realdata);
	}
	if (!realdata || !file_exists(with_ext(five_base, ".si4"))) {
		printf("note: real data not found (GAMEDB_REALDATA=%s): its checks are skipped\n",
		       realdata ? realdata : "(unset)");
		if (testlib_failed || swept)
			return testlib_done();
		TEST_SKIP("real data not found (GAMEDB_REALDATA=%s); %d checks without it passed",
			  realdata ? realdata : "(unset)", testlib_passed);
	}

	test_reader_basics();
	test_move_iter_five();
	test_dup();
	test_memory_set(five_base, exts4);
	test_lazy_io(five_base, ".si4", 1);
	test_converter();
	test_fallback_warning();
	test_scid_stored_comment();
	test_lossy_name_scope();
	test_options_open();
	if (file_exists(with_ext(tactics_base, ".si4"))) {
		test_move_iter_flags(with_ext(tactics_base, ".si4"));
		test_memory_set(tactics_base, exts4);
		test_lazy_io(tactics_base, ".si4", 0);
		test_threads(with_ext(tactics_base, ".si4"));
	} else {
		printf("note: %s absent, its checks skipped\n", tactics_base);
		test_threads(with_ext(five_base, ".si4"));
	}
	if (file_exists(with_ext(tactics3_base, ".si3"))) {
		test_memory_set(tactics3_base, exts3);
		test_lazy_io(tactics3_base, ".si3", 0);
	}
	if (file_exists(with_ext(endings_base, ".si4"))) {
		test_memory_set(endings_base, exts4);
		test_lazy_io(endings_base, ".si4", 0);
	}
	if (file_exists(with_ext(matein1_base, ".si4")))
		test_lazy_io(matein1_base, ".si4", 0);
	return testlib_done();
}
