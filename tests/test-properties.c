/*
 * libgamedb - tests of a base's own properties (gamedb_reader_get_property_*(), issue 29),
 * through <gamedb/gamedb.h> only.
 *
 * A CCBridge library is written here in memory from the format's facts (doc/formats/
 * ccbridge.md, after the Chinese write-up in walker8088/cchess: name at 64, source at 576,
 * creator at 832, creator email at 896, created at 960, last modified at 1088 - 64 = 1024,
 * remarks at 1088, the index size at 60, all text UTF-16LE): every property, its order and
 * its value; then hostile headers (a name with no terminator, the whole 64 KiB of remarks with
 * none, an unpaired surrogate), the misuse of the calls, a reopen, and a record (no
 * properties). SCID and Chess Assistant bases give what their per-format handles give.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#include "testlib.h"

#define LIB_INDEX 66624u
#define CAP 2u
#define LIB_SIZE (LIB_INDEX + 276u * CAP)

/* ASCII (or code units given one by one) as UTF-16LE at p. */
static void put16(uint8_t *p, const uint16_t *u, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		p[2 * i] = (uint8_t)(u[i] & 0xff);
		p[2 * i + 1] = (uint8_t)(u[i] >> 8);
	}
}

static void put_ascii(uint8_t *p, const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++) {
		p[2 * i] = (uint8_t)s[i];
		p[2 * i + 1] = 0;
	}
}

/*
 * A library built for CAP games with none in it: its header fields filled as a CCBridge
 * library's are. The caller frees it.
 */
static uint8_t *make_library(void)
{
	/* 象棋桥 */
	static const uint16_t name[] = { 0x8C61, 0x68CB, 0x6865, ' ', 'l', 'i', 'b' };
	static const uint8_t guid[16] = { 0x78, 0x56, 0x34, 0x12, 0x34, 0x12, 0x78, 0x56,
					  0x9A, 0xBC, 0xDE, 0xF0, 0x11, 0x22, 0x33, 0x44 };
	uint8_t *d = calloc(1, LIB_SIZE);

	if (!d)
		return NULL;
	memcpy(d, "CCBridgeLibrary", 16);
	d[16] = 3;
	memcpy(d + 20, guid, 16);
	d[52] = d[53] = d[54] = 0xff;
	d[55] = 0x7f;
	d[60] = CAP;
	put16(d + 64, name, sizeof name / sizeof name[0]);
	put_ascii(d + 576, "A book, 1994 ");
	put_ascii(d + 832, "Tester");
	put_ascii(d + 896, "t@example.org");
	put_ascii(d + 960, "2024-05-06 7:08:09");
	put_ascii(d + 1024, "2024-05-07 10:11:12");
	put_ascii(d + 1088, "\r\n  Line one\r\n\r\nLine two  \r\n\r\n");
	/* Bytes after a field's NUL letter are not its text (CCBridge leaves memory there). */
	put_ascii(d + 832 + 14, "junk");
	return d;
}

static struct gamedb_reader *open_mem(const char *name, const uint8_t *d, size_t n, int32_t *rc)
{
	struct gamedb_reader *r = gamedb_reader_new();

	if (!r)
		return NULL;
	gamedb_reader_support_format_all(r);
	*rc = gamedb_reader_open_memory(r, name, d, n);
	return r;
}

static void test_library(void)
{
	static const char *const names[] = { "name", "source", "creator", "creator-email",
					     "created", "modified", "remarks", "guid",
					     "index-size" };
	static const char *const values[] = {
		"\xe8\xb1\xa1\xe6\xa3\x8b\xe6\xa1\xa5 lib", "A book, 1994 ", "Tester",
		"t@example.org", "2024-05-06 7:08:09", "2024-05-07 10:11:12",
		"Line one\n\nLine two", "{12345678-1234-5678-9ABC-DEF011223344}", "2"
	};
	uint8_t *d = make_library();
	struct gamedb_reader *r;
	int32_t rc, i, n;

	CHECK(d != NULL);
	if (!d)
		return;
	r = open_mem("lib.cbl", d, LIB_SIZE, &rc);
	CHECK_EQ_INT(rc, GAMEDB_OK);
	CHECK_EQ_STR(gamedb_reader_format(r), "ccbridge");
	n = gamedb_reader_get_property_count(r);
	CHECK_EQ_INT(n, 9);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_NONE);
	for (i = 0; i < n && i < 9; i++) {
		CHECK_EQ_STR(gamedb_reader_get_property_name(r, i), names[i]);
		CHECK_EQ_STR(gamedb_reader_get_property_value(r, i), values[i]);
		CHECK_EQ_STR(gamedb_reader_get_property(r, names[i]), values[i]);
	}
	/* Out of range, unknown, NULL: no value, no crash. */
	CHECK(gamedb_reader_get_property_name(r, -1) == NULL);
	CHECK(gamedb_reader_get_property_name(r, n) == NULL);
	CHECK(gamedb_reader_get_property_value(r, n) == NULL);
	CHECK(gamedb_reader_get_property_value(r, INT32_MIN) == NULL);
	CHECK(gamedb_reader_get_property(r, "Name") == NULL);
	CHECK(gamedb_reader_get_property(r, NULL) == NULL);
	/* The same strings at every call (kept until the base is closed). */
	CHECK(gamedb_reader_get_property(r, "creator") == gamedb_reader_get_property_value(r, 2));
	gamedb_reader_free(r);

	/* A reopen on the same reader: the properties are the new base's (a record has none). */
	r = open_mem("lib.cbl", d, LIB_SIZE, &rc);
	CHECK_EQ_INT(gamedb_reader_get_property_count(r), 9);
	{
		/* A record with no moves and an empty board (a section heading): 2214 + 4 bytes. */
		static uint8_t rec[2218];
		memcpy(rec, "CCBridge Record", 16);
		rec[19] = 2;
		rec[2214] = 1; /* the root: no move */
		CHECK_EQ_INT(gamedb_reader_open_memory(r, "one.cbr", rec, sizeof rec), GAMEDB_OK);
		CHECK_EQ_INT(gamedb_reader_get_property_count(r), 0);
		CHECK(gamedb_reader_get_property(r, "name") == NULL);
		CHECK(gamedb_reader_get_property_name(r, 0) == NULL);
	}
	gamedb_reader_free(r);
	free(d);
}

/* Hostile headers: each repaired value is given, with the first repair as the warning. */
static void test_hostile(void)
{
	uint8_t *d = make_library();
	struct gamedb_reader *r;
	const char *v;
	int32_t rc;
	size_t i;

	CHECK(d != NULL);
	if (!d)
		return;
	/* A name filled to its end (256 letters, no NUL letter) and remarks filled to theirs. */
	for (i = 0; i < 512; i += 2) {
		d[64 + i] = 'A';
		d[64 + i + 1] = 0;
	}
	for (i = 0; i < 65536; i += 2) {
		d[1088 + i] = 'B';
		d[1088 + i + 1] = 0;
	}
	/* The creator "x", a lone high surrogate, "y". */
	{
		static const uint16_t c[] = { 'x', 0xD800, 'y', 0 };
		memset(d + 832, 0, 64);
		put16(d + 832, c, 4);
	}
	r = open_mem("bad.cbl", d, LIB_SIZE, &rc);
	CHECK_EQ_INT(rc, GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_get_property_count(r), 9);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_CORRUPT);
	CHECK_MSG(strstr(gamedb_reader_errmsg(r), "bad.cbl: offset 64: library name") &&
		  strstr(gamedb_reader_errmsg(r), "no NUL terminator"), "%s", gamedb_reader_errmsg(r));
	v = gamedb_reader_get_property(r, "name");
	CHECK(v && strlen(v) == 256 && strspn(v, "A") == 256);
	v = gamedb_reader_get_property(r, "remarks");
	CHECK(v && strlen(v) == 32768 && strspn(v, "B") == 32768);
	CHECK_EQ_STR(gamedb_reader_get_property(r, "creator"), "x\xef\xbf\xbdy");
	/* Every call says the same warning; the base's games are still read. */
	CHECK_EQ_INT(gamedb_reader_get_property_count(r), 9);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_CORRUPT);
	{
		struct gamedb_game *g;
		CHECK_EQ_INT(gamedb_reader_next_game(r, &g), GAMEDB_END);
	}
	gamedb_reader_free(r);

	/* The surrogate alone: an encoding warning naming the creator at 832. */
	memset(d + 64, 0, 512);
	memset(d + 1088, 0, 65536);
	r = open_mem("bad.cbl", d, LIB_SIZE, &rc);
	CHECK_EQ_INT(gamedb_reader_get_property_count(r), 9);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_ENCODING);
	CHECK_MSG(strstr(gamedb_reader_errmsg(r), "offset 832: library creator") != NULL, "%s",
		  gamedb_reader_errmsg(r));
	CHECK_EQ_STR(gamedb_reader_get_property(r, "name"), "");
	CHECK_EQ_STR(gamedb_reader_get_property(r, "remarks"), "");
	gamedb_reader_free(r);

	/*
	 * A charset the caller set that loses a letter: the creator "x", U+00D8, "y" read as
	 * UTF-16BE makes 0xD800, an unpaired surrogate there (U+FFFD), though the field is sound
	 * UTF-16LE: the conversion's own loss warns too.
	 */
	{
		static const uint16_t c[] = { 'x', 0x00D8, 'y', 0 };
		memset(d + 832, 0, 64);
		put16(d + 832, c, 4);
	}
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK_EQ_INT(gamedb_reader_set_option(r, "ccbridge", "charset", "UTF-16BE"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_open_memory(r, "be.cbl", d, LIB_SIZE), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_get_property_count(r), 9);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_ENCODING);
	CHECK_MSG(strstr(gamedb_reader_errmsg(r), "offset 832: library creator") != NULL &&
		  strstr(gamedb_reader_errmsg(r), "with loss") != NULL, "%s", gamedb_reader_errmsg(r));
	gamedb_reader_free(r);
	free(d);
}

static void test_misuse(void)
{
	struct gamedb_reader *r = gamedb_reader_new();

	CHECK_EQ_INT(gamedb_reader_get_property_count(NULL), GAMEDB_FATAL);
	CHECK(gamedb_reader_get_property_name(NULL, 0) == NULL);
	CHECK(gamedb_reader_get_property_value(NULL, 0) == NULL);
	CHECK(gamedb_reader_get_property(NULL, "name") == NULL);
	/* Before the open: a misuse, said, and the reader can still open. */
	CHECK_EQ_INT(gamedb_reader_get_property_count(r), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_MISUSE);
	CHECK(strstr(gamedb_reader_errmsg(r), "gamedb_reader_get_property_count: no database is open"));
	CHECK(gamedb_reader_get_property(r, "name") == NULL);
	gamedb_reader_free(r);
}

/* SCID and Chess Assistant: the properties are what their per-format handles give. */
/*
 * A Chess Assistant base whose comment ("Test base", stored at 112 after its length at 108)
 * holds a NUL inside: the comment property gives it with '?' there, and the property calls
 * warn (an encoding warning naming the .cdp and offset 112), as a lossy text must: no loss
 * without a word. The files are copies of testdata's hand base in a folder of the test's.
 */
static void test_ca_lossy_comment(const char *td)
{
	static const char *const ext[] = { "cdp", "emb", "d00", "a02", "d02" };
	char dir[] = "gamedb-ca-comment-XXXXXX", from[4096], to[4096];
	struct gamedb_reader *r;
	FILE *f;
	size_t i;
	int ok = mkdtemp(dir) != NULL;

	CHECK(ok);
	for (i = 0; ok && i < sizeof ext / sizeof ext[0]; i++) {
		snprintf(from, sizeof from, "%s/chessassistant/hand.%s", td, ext[i]);
		snprintf(to, sizeof to, "%s/hand.%s", dir, ext[i]);
		ok = testlib_copy_file(from, to) == 0;
		CHECK_MSG(ok, "cannot copy %s", from);
	}
	snprintf(to, sizeof to, "%s/hand.cdp", dir);
	if (ok && (f = fopen(to, "r+b")) != NULL) {
		/* "Test base" -> "Test\0base" */
		ok = fseek(f, 112 + 4, SEEK_SET) == 0 && fputc(0, f) == 0;
		ok &= fclose(f) == 0;
	} else {
		ok = 0;
	}
	CHECK(ok);
	if (ok) {
		r = gamedb_reader_new();
		gamedb_reader_support_format_all(r);
		CHECK(gamedb_reader_open_filename(r, to) >= GAMEDB_WARN);
		CHECK_EQ_INT(gamedb_reader_get_property_count(r), 1);
		CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_ENCODING);
		CHECK_MSG(strstr(gamedb_reader_errmsg(r), "hand.cdp: offset 112: the base's comment") != NULL,
			  "%s", gamedb_reader_errmsg(r));
		CHECK_EQ_STR(gamedb_reader_get_property(r, "comment"), "Test?base");
		/* Every call says it again. */
		CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_ENCODING);
		gamedb_reader_free(r);
	}
	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		snprintf(to, sizeof to, "%s/hand.%s", dir, ext[i]);
		remove(to);
	}
	remove(dir);
}

static void test_other_formats(const char *td, const char *real)
{
	char path[4096];
	struct gamedb_reader *r;
	char num[32];
	int k;

	snprintf(path, sizeof path, "%s/scid/tags.si4", td);
	for (k = 0; k < 2; k++) {
		struct gamedb_scid *s;
		if (k == 1) {
			if (!real)
				break;
			/* A real base with a description (Scid vs PC's "Mate in 1"). */
			snprintf(path, sizeof path, "%s/scid/scidvspc-modern/si4/matein1/matein1.si4", real);
		}
		r = gamedb_reader_new();
		gamedb_reader_support_format_all(r);
		if (gamedb_reader_open_filename(r, path) < GAMEDB_WARN) {
			CHECK_MSG(k == 1, "%s: %s", path, gamedb_reader_errmsg(r));
			gamedb_reader_free(r);
			continue;
		}
		s = gamedb_reader_get_scid(r);
		CHECK(s != NULL);
		if (!s) {
			gamedb_reader_free(r);
			continue;
		}
		CHECK_EQ_INT(gamedb_reader_get_property_count(r), 10);
		snprintf(num, sizeof num, "%d", (int)gamedb_scid_get_version(s));
		CHECK_EQ_STR(gamedb_reader_get_property_name(r, 0), "version");
		CHECK_EQ_STR(gamedb_reader_get_property_value(r, 0), num);
		CHECK_EQ_STR(gamedb_reader_get_property(r, "description"),
			     gamedb_scid_get_description(s));
		if (k == 1)
			CHECK_EQ_STR(gamedb_reader_get_property(r, "description"), "Mate in 1");
		snprintf(num, sizeof num, "%d", (int)gamedb_scid_get_base_type(s));
		CHECK_EQ_STR(gamedb_reader_get_property(r, "base-type"), num);
		CHECK_EQ_STR(gamedb_reader_get_property(r, "custom-flag-1"),
			     gamedb_scid_get_flag_name(s, 1));
		CHECK_EQ_STR(gamedb_reader_get_property_name(r, 8), "custom-flag-6");
		snprintf(num, sizeof num, "%lld", (long long)gamedb_scid_get_autoload(s));
		CHECK_EQ_STR(gamedb_reader_get_property(r, "autoload"), num);
		gamedb_reader_free(r);
	}

	snprintf(path, sizeof path, "%s/chessassistant/hand.cdp", td);
	r = gamedb_reader_new();
	gamedb_reader_support_format_all(r);
	CHECK(gamedb_reader_open_filename(r, path) >= GAMEDB_WARN);
	CHECK_EQ_INT(gamedb_reader_get_property_count(r), 1);
	/* tests/chessassistant_writer.py writes the base's comment "Test base". */
	CHECK_EQ_STR(gamedb_reader_get_property(r, "comment"), "Test base");
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_NONE);
	gamedb_reader_free(r);
	test_ca_lossy_comment(td);
}

int main(void)
{
	const char *td = getenv("GAMEDB_TESTDATA");
	const char *real = getenv("GAMEDB_REALDATA");

	test_library();
	test_hostile();
	test_misuse();
	if (td)
		test_other_formats(td, real);
	else
		printf("note: GAMEDB_TESTDATA unset: the SCID and Chess Assistant checks are skipped\n");
	return testlib_done();
}
