/*
 * libgamedb - tests of the text layer (lib/text/textconv.c) through its internal API.
 *
 * Every expected string is written by hand from the charset tables (Unicode, Windows code pages,
 * GB18030), never produced by the code under test.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/text.h"
#include "testlib.h"

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
/*
 * Windows: the code-page backend (lib/text/conv-win.c). GB18030's four-byte letters inside
 * the BMP need code page 54936, which Windows has and Wine 8 does not.
 */
#define GB18030_BMP4 IsValidCodePage(54936)
#else
#define GB18030_BMP4 1
#endif

#define U_FFFD "\xEF\xBF\xBD"

static struct gamedb__text T;

/* Converts (in, len) and compares the result with the expected bytes and status. */
static void conv_check(int line, const char *charset, const char *fallback, const char *in,
		       size_t len, const char *expect, size_t expect_len, int32_t expect_rc)
{
	struct gamedb__buf out = { 0 };
	int32_t rc = gamedb__text_to_utf8(&T, charset, fallback, in, len, &out);

	if (rc != expect_rc) {
		testlib_failed++;
		fprintf(stderr, "line %d: %s/%s: status %d, expected %d\n", line,
			charset ? charset : "(null)", fallback ? fallback : "(null)", (int)rc,
			(int)expect_rc);
	} else {
		testlib_passed++;
	}
	if (!out.p || out.len != expect_len || memcmp(out.p, expect, expect_len) != 0 ||
	    out.p[out.len] != 0) {
		size_t i;
		testlib_failed++;
		fprintf(stderr, "line %d: %s/%s: got %zu bytes:", line, charset ? charset : "(null)",
			fallback ? fallback : "(null)", out.len);
		for (i = 0; out.p && i < out.len && i < 64; i++)
			fprintf(stderr, " %02x", (unsigned char)out.p[i]);
		fprintf(stderr, "\n  expected %zu bytes:", expect_len);
		for (i = 0; i < expect_len && i < 64; i++)
			fprintf(stderr, " %02x", (unsigned char)expect[i]);
		fputc('\n', stderr);
	} else {
		testlib_passed++;
	}
	gamedb__buf_free(&out);
}

/* For string literals: lengths from sizeof, so embedded NULs count. */
#define CONV(cs, fb, in, expect, rc) \
	conv_check(__LINE__, cs, fb, in, sizeof(in) - 1, expect, sizeof(expect) - 1, rc)

static void test_ascii(void)
{
	CONV(NULL, NULL, "", "", GAMEDB_OK);
	CONV(NULL, NULL, "Kasparov, Garry", "Kasparov, Garry", GAMEDB_OK);
	CONV("UTF-8", "CP1252", "Carlsen, Magnus", "Carlsen, Magnus", GAMEDB_OK);
	/* ASCII is the same in every charset the formats use, even unknown ones. */
	CONV("CP1251", NULL, "Moscow 1985", "Moscow 1985", GAMEDB_OK);
	CONV("GB18030", NULL, "Beijing", "Beijing", GAMEDB_OK);
	CONV("NO-SUCH-CHARSET", NULL, "plain", "plain", GAMEDB_OK);
	CONV(NULL, NULL, "\x01\x1f\x7f ~", "\x01\x1f\x7f ~", GAMEDB_OK);
}

static void test_utf8_valid(void)
{
	/* 2 bytes: U+00E9 e-acute, U+0416 Cyrillic Zhe. */
	CONV(NULL, "CP1252", "Ren\xC3\xA9", "Ren\xC3\xA9", GAMEDB_OK);
	CONV("UTF-8", "CP1252", "\xD0\x96", "\xD0\x96", GAMEDB_OK);
	/* 3 bytes: U+20AC euro sign, U+4E2D (zhong), U+FFFD itself. */
	CONV("utf-8", "CP1252", "\xE2\x82\xAC 5", "\xE2\x82\xAC 5", GAMEDB_OK);
	CONV("UTF8", NULL, "\xE4\xB8\xAD", "\xE4\xB8\xAD", GAMEDB_OK);
	CONV(NULL, NULL, U_FFFD, U_FFFD, GAMEDB_OK);
	/* 4 bytes: U+1D11E musical G clef, U+10FFFF the last code point. */
	CONV(NULL, "ISO-8859-1", "\xF0\x9D\x84\x9E", "\xF0\x9D\x84\x9E", GAMEDB_OK);
	CONV(NULL, NULL, "\xF4\x8F\xBF\xBF", "\xF4\x8F\xBF\xBF", GAMEDB_OK);
	/* The smallest of each length: U+0080, U+0800, U+10000. */
	CONV(NULL, NULL, "\xC2\x80\xE0\xA0\x80\xF0\x90\x80\x80", "\xC2\x80\xE0\xA0\x80\xF0\x90\x80\x80",
	     GAMEDB_OK);
	/* The last before the surrogates and the first after them: U+D7FF, U+E000. */
	CONV(NULL, NULL, "\xED\x9F\xBF\xEE\x80\x80", "\xED\x9F\xBF\xEE\x80\x80", GAMEDB_OK);

	CHECK(gamedb__utf8_valid("", 0));
	CHECK(gamedb__utf8_valid("abc", 3));
	CHECK(gamedb__utf8_valid("\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E", 9));
}

static void test_utf8_invalid(void)
{
	/* Latin-1 fallback: each invalid byte is the code point of the same number. */
	CONV(NULL, "ISO-8859-1", "caf\xE9", "caf\xC3\xA9", GAMEDB_OK);
	CONV(NULL, "ISO-8859-1", "\xC4\xD6\xDC", "\xC3\x84\xC3\x96\xC3\x9C", GAMEDB_OK);
	CONV(NULL, "latin1", "\x80", "\xC2\x80", GAMEDB_OK); /* C1 control in Latin-1 */
	/* Mixed: valid UTF-8 stays, the invalid byte alone is read in the fallback. */
	CONV(NULL, "ISO-8859-1", "\xC3\xA9t\xE9", "\xC3\xA9t\xC3\xA9", GAMEDB_OK);
	/* CP1252 fallback: 0x80 is the euro sign, 0x93/0x94 curly quotes, 0x8A S-caron. */
	CONV(NULL, "CP1252", "\x80", "\xE2\x82\xAC", GAMEDB_OK);
	CONV(NULL, "CP1252", "\x93Hi\x94", "\xE2\x80\x9CHi\xE2\x80\x9D", GAMEDB_OK);
	CONV(NULL, "CP1252", "\x8Akoda", "\xC5\xA0koda", GAMEDB_OK);
	CONV(NULL, "CP1252", "M\xFCller", "M\xC3\xBCller", GAMEDB_OK);
	/* 0x81 has no character in CP1252: U+FFFD and a warning. */
	CONV(NULL, "CP1252", "a\x81z", "a" U_FFFD "z", GAMEDB_WARN);
	/* No fallback: every invalid byte becomes U+FFFD, with a warning. */
	CONV(NULL, NULL, "caf\xE9", "caf" U_FFFD, GAMEDB_WARN);
	CONV(NULL, "", "\xFF\xFE", U_FFFD U_FFFD, GAMEDB_WARN);
	/* A truncated sequence at the end. */
	CONV(NULL, NULL, "ab\xE2\x82", "ab" U_FFFD U_FFFD, GAMEDB_WARN);
	CONV(NULL, "ISO-8859-1", "ab\xC3", "ab\xC3\x83", GAMEDB_OK);
	/* Overlong forms are not UTF-8: "/" as C0 AF, E0 80 AF, F0 80 80 AF. */
	CONV(NULL, "ISO-8859-1", "\xC0\xAF", "\xC3\x80\xC2\xAF", GAMEDB_OK);
	CONV(NULL, NULL, "\xC0\xAF", U_FFFD U_FFFD, GAMEDB_WARN);
	CONV(NULL, NULL, "\xC1\x81", U_FFFD U_FFFD, GAMEDB_WARN);
	CONV(NULL, "ISO-8859-1", "\xE0\x80\xAF", "\xC3\xA0\xC2\x80\xC2\xAF", GAMEDB_OK);
	CONV(NULL, NULL, "\xF0\x80\x80\xAF", U_FFFD U_FFFD U_FFFD U_FFFD, GAMEDB_WARN);
	CONV(NULL, NULL, "\xE0\x9F\xBF", U_FFFD U_FFFD U_FFFD, GAMEDB_WARN); /* overlong U+07FF */
	/* UTF-16 surrogates encoded in UTF-8 (U+D800, U+DFFF) are not UTF-8. */
	CONV(NULL, "ISO-8859-1", "\xED\xA0\x80", "\xC3\xAD\xC2\xA0\xC2\x80", GAMEDB_OK);
	CONV(NULL, NULL, "\xED\xBF\xBF", U_FFFD U_FFFD U_FFFD, GAMEDB_WARN);
	/* Beyond U+10FFFF, and the bytes F5..FF that never start a sequence. */
	CONV(NULL, NULL, "\xF4\x90\x80\x80", U_FFFD U_FFFD U_FFFD U_FFFD, GAMEDB_WARN);
	CONV(NULL, NULL, "\xF5\x80\x80\x80", U_FFFD U_FFFD U_FFFD U_FFFD, GAMEDB_WARN);
	/* A lone continuation byte. */
	CONV(NULL, "CP1252", "\xA9 2024", "\xC2\xA9 2024", GAMEDB_OK);

	CHECK(!gamedb__utf8_valid("\xC0\xAF", 2));
	CHECK(!gamedb__utf8_valid("\xE0\x80\xAF", 3));
	CHECK(!gamedb__utf8_valid("\xED\xA0\x80", 3));
	CHECK(!gamedb__utf8_valid("\xF4\x90\x80\x80", 4));
	CHECK(!gamedb__utf8_valid("\xE2\x82", 2));
	CHECK(!gamedb__utf8_valid("\x80", 1));
	CHECK(!gamedb__utf8_valid("ok\xFF", 3));
}

static void test_cp1251(void)
{
	/* "Privet" in CP1251. */
	CONV("CP1251", NULL, "\xCF\xF0\xE8\xE2\xE5\xF2",
	     "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82", GAMEDB_OK);
	/* Case-insensitive charset names; YO (0xA8, 0xB8) and the numero sign (0xB9). */
	CONV("cp1251", NULL, "\xA8\xB8 \xB9" "5", "\xD0\x81\xD1\x91 \xE2\x84\x96" "5", GAMEDB_OK);
	/* 0x98 is the one byte CP1251 leaves undefined: U+FFFD, a warning, and the rest kept. */
	CONV("CP1251", NULL, "\xCF\x98\xF0", "\xD0\x9F" U_FFFD "\xD1\x80", GAMEDB_WARN);
	/* The same bytes read as CP1252 are Latin letters. */
	CONV("CP1252", NULL, "\xCF\xF0", "\xC3\x8F\xC3\xB0", GAMEDB_OK);
	CONV("WINDOWS-1252", NULL, "\x80\x9F", "\xE2\x82\xAC\xC5\xB8", GAMEDB_OK);
}

/*
 * Each conversion GAMEDB__TEXT_TABLE_AFTER + 1 times: through the converter first, then (a
 * single-byte charset) through the table made from it, with the same text and status.
 */
#define CONV_BOTH(cs, fb, in, expect, rc)                          \
	do {                                                       \
		int k_;                                            \
		for (k_ = 0; k_ <= GAMEDB__TEXT_TABLE_AFTER; k_++) \
			CONV(cs, fb, in, expect, rc);              \
	} while (0)

/*
 * Single-byte charsets are read through a table of their 256 letters, made from the converter:
 * long ASCII runs between letters, a refused byte amid them, a charset whose ASCII bytes are
 * other letters (EBCDIC), one where the same letters have other bytes (KOI8-R). Charsets that
 * keep a letter back to compose it with a mark (CP1255, CP1258) get no table.
 */
static void test_single_byte(void)
{
	CONV_BOTH("CP1251", NULL, "Moscow 1985, round 12: \xCF\xF0\xE8\xE2\xE5\xF2, and then more text.",
		  "Moscow 1985, round 12: \xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82, and then "
		  "more text.", GAMEDB_OK);
	CONV_BOTH("CP1251", NULL, "\xCF\xF0 long ASCII text \x98 between letters \xF2",
		  "\xD0\x9F\xD1\x80 long ASCII text " U_FFFD " between letters \xD1\x82", GAMEDB_WARN);
	CONV_BOTH("KOI8-R", NULL, "\xF0\xD2\xC9\xD7\xC5\xD4",
		  "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82", GAMEDB_OK);
	/* The same charset again: from its cached table. */
	CONV_BOTH("koi8-r", NULL, "\xC1 \xC2", "\xD0\xB0 \xD0\xB1", GAMEDB_OK);
	/* EBCDIC (code page 37): "Hello World" (0x40 is the space). */
	if (gamedb__text_charset_known(&T, "IBM037"))
		CONV_BOTH("IBM037", NULL, "\xC8\x85\x93\x93\x96\x40\xE6\x96\x99\x93\x84", "Hello World",
			  GAMEDB_OK);
	/* As a fallback for invalid UTF-8, one byte at a time. */
	CONV_BOTH("UTF-8", "CP1251", "\xD0\x9F=\xCF\xF0", "\xD0\x9F=\xD0\x9F\xD1\x80", GAMEDB_OK);
	CONV_BOTH("CP1258", NULL, "a\xEC", "\xC3\xA1", GAMEDB_OK); /* U+00E1 a-acute */
	CONV_BOTH("CP1255", NULL, "ab\xE0", "ab\xD7\x90", GAMEDB_OK);
}

static void test_gb18030(void)
{
	/* zhong guo (China): D6 D0 B9 FA. */
	CONV("GB18030", NULL, "\xD6\xD0\xB9\xFA", "\xE4\xB8\xAD\xE5\x9B\xBD", GAMEDB_OK);
	/* xiang qi (chess): CF F3 C6 E5 -> U+8C61 U+68CB. */
	CONV("GB18030", NULL, "\xCF\xF3\xC6\xE5", "\xE8\xB1\xA1\xE6\xA3\x8B", GAMEDB_OK);
	/* Four-byte sequences: 81 30 81 30 is U+0080, 90 30 81 30 is U+10000. */
	if (GB18030_BMP4)
		CONV("GB18030", NULL, "\x81\x30\x81\x30", "\xC2\x80", GAMEDB_OK);
	else
		printf("GB18030: four-byte letters in the BMP skipped (no code page 54936)\n");
	CONV("GB18030", NULL, "\x90\x30\x81\x30", "\xF0\x90\x80\x80", GAMEDB_OK);
	/* 0xFF never starts a character: U+FFFD in place, the neighbours kept. */
	CONV("GB18030", NULL, "\xD6\xD0\xFF\xB9\xFA", "\xE4\xB8\xAD" U_FFFD "\xE5\x9B\xBD", GAMEDB_WARN);
	/* A sequence cut short at the end of the text. */
	CONV("GB18030", NULL, "\xD6\xD0\xD6", "\xE4\xB8\xAD" U_FFFD, GAMEDB_WARN);
}

static void test_unknown_charset(void)
{
	CONV("NO-SUCH-CHARSET", NULL, "a\xE9z", "a" U_FFFD "z", GAMEDB_WARN);
	CONV("X-UNKNOWN-42", "CP1252", "\xCF\xF0", U_FFFD U_FFFD, GAMEDB_WARN);
	/* A charset name too long for the cache is treated as unknown, not overflowed. */
	CONV("A-CHARSET-NAME-THAT-IS-MUCH-LONGER-THAN-ANY-REAL-ONE-XXXXXXXXXXXXXXXX", NULL, "\xE9",
	     U_FFFD, GAMEDB_WARN);
	CHECK(gamedb__text_charset_known(&T, "CP1251"));
	CHECK(gamedb__text_charset_known(&T, "cp1252"));
	CHECK(gamedb__text_charset_known(&T, "GB18030"));
	CHECK(gamedb__text_charset_known(&T, "ISO-8859-1"));
	CHECK(gamedb__text_charset_known(&T, "UTF-8"));
	CHECK(!gamedb__text_charset_known(&T, "NO-SUCH-CHARSET"));
}

static void test_nul(void)
{
	/* A NUL inside text would cut the C string short: it becomes '?' with a warning. */
	CONV(NULL, NULL, "a\0b", "a?b", GAMEDB_WARN);
	CONV(NULL, "CP1252", "\0\xE9", "?\xC3\xA9", GAMEDB_WARN);
	CONV("CP1251", NULL, "\xCF\0\xF0", "\xD0\x9F?\xD1\x80", GAMEDB_WARN);
	CONV("GB18030", NULL, "\xD6\xD0\0", "\xE4\xB8\xAD?", GAMEDB_WARN);
	/* The same through a single-byte charset's table (made once the charset has been used
	   often enough), whose NUL is '?' with a warning by itself: one converter, two paths. */
	{
		int i;
		for (i = 0; i <= GAMEDB__TEXT_TABLE_AFTER; i++)
			CONV("CP1250", NULL, "\xC8\0\xE8", "\xC4\x8C?\xC4\x8D", GAMEDB_WARN);
		CHECK(gamedb__text_table_of(&T, "CP1250") != NULL);
		CONV("CP1250", NULL, "\0\0", "??", GAMEDB_WARN);
		CONV("CP1250", NULL, "a\0", "a?", GAMEDB_WARN);
		CONV("CP1250", NULL, "\xC8", "\xC4\x8C", GAMEDB_OK);
	}
}

/*
 * Whatever iconv writes leaves as UTF-8. glibc reads a UCS-4 letter up to 0x7FFFFFFF and
 * writes the ones above U+10FFFF in the old 4-, 5- and 6-byte forms (F4 90.., F8.., FC..):
 * each such letter becomes one U+FFFD, with a warning.
 */
static void test_wide(void)
{
	/* UCS-4 big-endian: U+00E9, U+10FFFF (the last code point), U+4E2D. */
	CONV("UCS-4BE", NULL, "\0\0\0\xE9", "\xC3\xA9", GAMEDB_OK);
	CONV("UCS-4", NULL, "\0\x10\xFF\xFF", "\xF4\x8F\xBF\xBF", GAMEDB_OK);
	CONV("UCS-4BE", NULL, "\0\0\x4E\x2D\0\0\0A", "\xE4\xB8\xAD" "A", GAMEDB_OK);
	/* Above U+10FFFF: 0x110000 (4 bytes F4 90 80 80), 0x200000 (5 bytes), 0x4000000 and
	   0x7FFFFFFF (6 bytes): one U+FFFD each, the letters around them kept. */
	CONV("UCS-4BE", NULL, "\0\x11\0\0", U_FFFD, GAMEDB_WARN);
	CONV("UCS-4BE", NULL, "\0\x1F\xFF\xFF", U_FFFD, GAMEDB_WARN);
	CONV("UCS-4BE", NULL, "\0\x20\0\0", U_FFFD, GAMEDB_WARN);
	CONV("UCS-4BE", NULL, "\x04\0\0\0", U_FFFD, GAMEDB_WARN);
	CONV("UCS-4BE", NULL, "\x7F\xFF\xFF\xFF", U_FFFD, GAMEDB_WARN);
	CONV("UCS-4BE", NULL, "\0\0\0\xE9\x4B\x61\x73\x70\0\0\0\xE9",
	     "\xC3\xA9" U_FFFD "\xC3\xA9", GAMEDB_WARN);
	/* The same letters little-endian, under the names UCS-4LE and (on a little-endian host)
	   WCHAR_T. */
	CONV("UCS-4LE", NULL, "\xE9\0\0\0\0\0\x11\0", "\xC3\xA9" U_FFFD, GAMEDB_WARN);
	CONV("UCS-4LE", NULL, "\xFF\xFF\xFF\x7F" "A\0\0\0", U_FFFD "A", GAMEDB_WARN);
#ifndef _WIN32 /* wchar_t is UTF-16 on Windows, and the code-page backend has no WCHAR_T */
	{
		const uint32_t w[3] = { 0xE9, 0x110000, 0x41 };
		conv_check(__LINE__, "WCHAR_T", NULL, (const char *)w, sizeof w, "\xC3\xA9" U_FFFD "A",
			   6, GAMEDB_WARN);
	}
#endif
	/* Zero letters (two zero bytes in UTF-16 and UCS-2, four in UCS-4) would end the string:
	   '?' and a warning, never a string cut short. */
	CONV("UTF-16BE", NULL, "\0\xE9\0\0\0A", "\xC3\xA9?A", GAMEDB_WARN);
	CONV("UCS-2LE", NULL, "\xE9\0\0\0A\0", "\xC3\xA9?A", GAMEDB_WARN);
	CONV("UCS-4BE", NULL, "\0\0\0\0\0\0\0\xE9", "?\xC3\xA9", GAMEDB_WARN);
	/*
	 * A wide charset's bytes are not ASCII text even when all are below 0x80: "上海" is
	 * 0A 4E 77 6D in UTF-16LE. Each way of naming the charset is taken for wide (the names'
	 * start, either case, with or without the hyphen, LE/BE after it).
	 */
	CONV("UTF-16LE", NULL, "\x0A\x4E\x77\x6D", "\xE4\xB8\x8A\xE6\xB5\xB7", GAMEDB_OK);
	CONV("UCS-2LE", NULL, "\x0A\x4E\x77\x6D", "\xE4\xB8\x8A\xE6\xB5\xB7", GAMEDB_OK);
	CONV("UTF-32LE", NULL, "\x0A\x4E\0\0\x77\x6D\0\0", "\xE4\xB8\x8A\xE6\xB5\xB7", GAMEDB_OK);
	CONV("UCS-4LE", NULL, "\x0A\x4E\0\0\x77\x6D\0\0", "\xE4\xB8\x8A\xE6\xB5\xB7", GAMEDB_OK);
#ifndef _WIN32 /* glibc's iconv knows these spellings too */
	CONV("utf-16le", NULL, "\x0A\x4E\x77\x6D", "\xE4\xB8\x8A\xE6\xB5\xB7", GAMEDB_OK);
	CONV("UTF16LE", NULL, "\x0A\x4E\x77\x6D", "\xE4\xB8\x8A\xE6\xB5\xB7", GAMEDB_OK);
	CONV("utf32le", NULL, "\x0A\x4E\0\0\x77\x6D\0\0", "\xE4\xB8\x8A\xE6\xB5\xB7", GAMEDB_OK);
#endif
	/* Names that only start like them are single-byte: plain ASCII passes as it is. */
	CONV("US-ASCII", NULL, "\x0A\x4E\x77\x6D", "\x0A\x4E\x77\x6D", GAMEDB_OK);
	CONV("UTF-8", NULL, "\x0A\x4E\x77\x6D", "\x0A\x4E\x77\x6D", GAMEDB_OK);
}

/*
 * One byte may give more than 4 bytes of UTF-8: TSCII 0x82 is SRI (U+0BB8 U+0BCD U+0BB0
 * U+0BC0, 12 bytes), 0x87 KSSA (U+0B95 U+0BCD U+0BB7, 9 bytes). All of it is kept, as the
 * charset and as the fallback of UTF-8 text, and nothing is written past the buffer.
 */
#define TSCII_SRI "\xE0\xAE\xB8\xE0\xAF\x8D\xE0\xAE\xB0\xE0\xAF\x80"
#define TSCII_KSSA "\xE0\xAE\x95\xE0\xAF\x8D\xE0\xAE\xB7"

static void test_expanding(void)
{
	const size_t n = 300;
	struct gamedb__buf out = { 0 };
	char *in = malloc(n + 3);
	size_t i;
	int ok;

	/* CP1255 and CP1258 keep the last letter back too (a combining mark may follow it): the
	   last letter of the text is not lost. CP1255 0xE0 is alef (U+05D0), CP1258 0xE0 a-grave
	   (U+00E0); CP1258 0xEC is the combining acute (U+0301), which iconv composes. */
	CONV("CP1255", NULL, "ab\xE0", "ab\xD7\x90", GAMEDB_OK);
	CONV("CP1258", NULL, "ab\xE0", "ab\xC3\xA0", GAMEDB_OK);
	CONV("CP1258", NULL, "\xE0z", "\xC3\xA0z", GAMEDB_OK);
	CONV("CP1258", NULL, "a\xEC", "\xC3\xA1", GAMEDB_OK); /* U+00E1 a-acute */
	if (!gamedb__text_charset_known(&T, "TSCII")) {
		/* Windows: no code page for TSCII (glibc's iconv has it). */
		printf("TSCII: skipped (the converter backend does not know it)\n");
		free(in);
		return;
	}
	CONV("TSCII", NULL, "\x82\x87", TSCII_SRI TSCII_KSSA, GAMEDB_OK);
	CONV("TSCII", NULL, "\x82\x82\x82\x82", TSCII_SRI TSCII_SRI TSCII_SRI TSCII_SRI, GAMEDB_OK);
	CONV(NULL, "TSCII", "a\x82z", "a" TSCII_SRI "z", GAMEDB_OK);
	/* TSCII stores the vowel sign E (0xA6, U+0BC6) before its consonant (0xB8 KA, U+0B95);
	   iconv keeps it back until the next byte, and at the end of the text it is flushed,
	   not lost. */
	CONV("TSCII", NULL, "\xA6\xB8", "\xE0\xAE\x95\xE0\xAF\x86", GAMEDB_OK);
	CONV("TSCII", NULL, "a\xA6", "a\xE0\xAF\x86", GAMEDB_OK);
	CONV("TSCII", NULL, "\xB8\xA6", "\xE0\xAE\x95\xE0\xAF\x86", GAMEDB_OK);
	CHECK(in != NULL);
	if (!in)
		return;
	/* n SRI bytes then "abc": 12 * n + 3 bytes out, far more than 4 * (n + 3) + 4. */
	memset(in, 0x82, n);
	memcpy(in + n, "abc", 3);
	CHECK_EQ_INT(gamedb__text_to_utf8(&T, "TSCII", NULL, in, n + 3, &out), GAMEDB_OK);
	ok = out.len == 12 * n + 3;
	for (i = 0; ok && i < n; i++)
		ok = memcmp(out.p + 12 * i, TSCII_SRI, 12) == 0;
	CHECK_MSG(ok && memcmp(out.p + 12 * n, "abc", 4) == 0, "TSCII: %zu bytes out", out.len);
	gamedb__buf_free(&out);
	/* The same bytes as invalid UTF-8 read in the fallback TSCII, then "abc". */
	CHECK_EQ_INT(gamedb__text_to_utf8(&T, NULL, "TSCII", in, n + 3, &out), GAMEDB_OK);
	ok = out.len == 12 * n + 3;
	for (i = 0; ok && i < n; i++)
		ok = memcmp(out.p + 12 * i, TSCII_SRI, 12) == 0;
	CHECK_MSG(ok && memcmp(out.p + 12 * n, "abc", 4) == 0, "fallback TSCII: %zu bytes out",
		  out.len);
	gamedb__buf_free(&out);
	free(in);
}

static void test_append(void)
{
	struct gamedb__buf out = { 0 };

	/* Conversions append to what the buffer holds. */
	CHECK_EQ_INT(gamedb__buf_append(&out, "x=", 2), 0);
	CHECK_EQ_INT(gamedb__text_to_utf8(&T, "CP1251", NULL, "\xE4\xE0", 2, &out), GAMEDB_OK);
	CHECK_EQ_INT(gamedb__text_to_utf8(&T, NULL, "CP1252", ";\x80", 2, &out), GAMEDB_OK);
	CHECK_EQ_STR(out.p, "x=\xD0\xB4\xD0\xB0;\xE2\x82\xAC");
	gamedb__buf_free(&out);
}

/* More charsets than the per-reader cache holds, in turns: every conversion stays right. */
static void test_cache(void)
{
	int round;

	for (round = 0; round < 3; round++) {
		CONV("CP1251", NULL, "\xC0", "\xD0\x90", GAMEDB_OK);                 /* A */
		CONV("CP1252", NULL, "\x80", "\xE2\x82\xAC", GAMEDB_OK);             /* euro */
		CONV("GB18030", NULL, "\xD6\xD0", "\xE4\xB8\xAD", GAMEDB_OK);        /* zhong */
		CONV("ISO-8859-5", NULL, "\xB0", "\xD0\x90", GAMEDB_OK);             /* A */
		CONV("KOI8-R", NULL, "\xE1", "\xD0\x90", GAMEDB_OK);                 /* A */
		CONV("CP1250", NULL, "\x8A", "\xC5\xA0", GAMEDB_OK);                 /* S-caron */
		CONV("ISO-8859-2", NULL, "\xA9", "\xC5\xA0", GAMEDB_OK);             /* S-caron */
	}
}

static void test_long(void)
{
	const size_t n = (size_t)1 << 20;
	struct gamedb__buf out = { 0 };
	char *in = malloc(n);
	size_t i;
	int ok;

	CHECK(in != NULL);
	if (!in)
		return;
	/* 1 MiB of ASCII. */
	for (i = 0; i < n; i++)
		in[i] = (char)('a' + i % 26);
	CHECK_EQ_INT(gamedb__text_to_utf8(&T, NULL, NULL, in, n, &out), GAMEDB_OK);
	CHECK(out.len == n && memcmp(out.p, in, n) == 0 && out.p[n] == 0);
	gamedb__buf_free(&out);

	/* 1 MiB of CP1251 "pr" pairs: 2 MiB of UTF-8. */
	for (i = 0; i < n; i += 2) {
		in[i] = (char)0xCF;
		in[i + 1] = (char)0xF0;
	}
	CHECK_EQ_INT(gamedb__text_to_utf8(&T, "CP1251", NULL, in, n, &out), GAMEDB_OK);
	ok = out.len == 2 * n;
	for (i = 0; ok && i < out.len; i += 4)
		ok = memcmp(out.p + i, "\xD0\x9F\xD1\x80", 4) == 0;
	CHECK_MSG(ok, "1 MiB of CP1251: %zu bytes out", out.len);
	gamedb__buf_free(&out);

	/* 1 MiB of UTF-8 e-acute with one Latin-1 byte in the middle of it. */
	for (i = 0; i < n; i += 2) {
		in[i] = (char)0xC3;
		in[i + 1] = (char)0xA9;
	}
	in[n / 2] = (char)0xE9; /* replaces the lead byte of one pair: E9 A9 */
	CHECK_EQ_INT(gamedb__text_to_utf8(&T, NULL, "ISO-8859-1", in, n, &out), GAMEDB_OK);
	/* E9 -> C3 A9 (e-acute), then the lone A9 -> C2 A9 (copyright sign): 2 bytes more. */
	CHECK_EQ_INT(out.len, n + 2);
	CHECK(out.len == n + 2 && memcmp(out.p + n / 2, "\xC3\xA9\xC2\xA9\xC3\xA9", 6) == 0);
	gamedb__buf_free(&out);

	/* 1 MiB of bytes that are all invalid, no fallback: 3 MiB of U+FFFD. */
	memset(in, 0xFF, n);
	CHECK_EQ_INT(gamedb__text_to_utf8(&T, NULL, NULL, in, n, &out), GAMEDB_WARN);
	ok = out.len == 3 * n;
	for (i = 0; ok && i < out.len; i += 3)
		ok = memcmp(out.p + i, U_FFFD, 3) == 0;
	CHECK_MSG(ok, "1 MiB of 0xFF: %zu bytes out", out.len);
	gamedb__buf_free(&out);

	/* 1 MiB of GB18030 with a bad byte every 4 KiB. */
	for (i = 0; i < n; i += 2) {
		in[i] = (char)0xD6;
		in[i + 1] = (char)0xD0;
	}
	for (i = 4096; i < n; i += 4096)
		in[i] = (char)0xFF, in[i + 1] = 'x';
	CHECK_EQ_INT(gamedb__text_to_utf8(&T, "GB18030", NULL, in, n, &out), GAMEDB_WARN);
	/* Each damaged pair (FF 'x') gives U+FFFD 'x' (4 bytes) instead of 3. */
	CHECK_EQ_INT(out.len, (n / 2) * 3 + (n / 4096 - 1));
	gamedb__buf_free(&out);
	free(in);
}

struct hook_state {
	int calls;
	int32_t answer;
	char charset[32];
	size_t last_len;
};

/* Replaces every byte >= 0x80 by '#', keeps the rest. */
static int32_t hash_hook(void *user_data, const char *charset, const char *in, size_t in_len,
			 char *out, size_t out_cap, size_t *out_len)
{
	struct hook_state *h = user_data;
	size_t i;

	h->calls++;
	h->last_len = in_len;
	snprintf(h->charset, sizeof h->charset, "%s", charset ? charset : "(null)");
	/* The documented guarantee on room. */
	if (out_cap < 4 * in_len + 4)
		return GAMEDB_FAILED;
	if (h->answer != GAMEDB_OK && h->answer != GAMEDB_WARN)
		return h->answer;
	for (i = 0; i < in_len; i++)
		out[i] = (unsigned char)in[i] >= 0x80 ? '#' : in[i];
	*out_len = in_len;
	return h->answer;
}

static void test_hook(void)
{
	struct hook_state h;

	memset(&h, 0, sizeof h);
	h.answer = GAMEDB_OK;
	T.hook = hash_hook;
	T.hook_user_data = &h;
	/* Pure ASCII never reaches the hook. */
	CONV("CP1251", NULL, "Tal", "Tal", GAMEDB_OK);
	CHECK_EQ_INT(h.calls, 0);
	/* Non-ASCII text: the hook's output is used, and it sees the charset. */
	CONV("CP1251", NULL, "\xD2\xE0\xEB", "###", GAMEDB_OK);
	CHECK_EQ_INT(h.calls, 1);
	CHECK_EQ_STR(h.charset, "CP1251");
	CHECK_EQ_INT(h.last_len, 3);
	/* Text in UTF-8 (NULL charset) is announced as "UTF-8", even when valid. */
	CONV(NULL, "CP1252", "R\xC3\xA9ti", "R##ti", GAMEDB_OK);
	CHECK_EQ_STR(h.charset, "UTF-8");
	/* WARN from the hook is passed on. */
	h.answer = GAMEDB_WARN;
	CONV("GB18030", NULL, "\xD6\xD0", "##", GAMEDB_WARN);
	CHECK_EQ_STR(h.charset, "GB18030");
	/* Declining (FAILED, or anything but OK/WARN): the library converts. */
	h.answer = GAMEDB_FAILED;
	h.calls = 0;
	CONV("CP1251", NULL, "\xCF\xF0\xE8\xE2\xE5\xF2",
	     "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82", GAMEDB_OK);
	CONV(NULL, "CP1252", "\x80", "\xE2\x82\xAC", GAMEDB_OK);
	CHECK_EQ_INT(h.calls, 2);
	h.answer = GAMEDB_END;
	CONV("CP1251", NULL, "\xCF", "\xD0\x9F", GAMEDB_OK);
	CHECK_EQ_INT(h.calls, 3);
	T.hook = NULL;
	T.hook_user_data = NULL;
	CONV("CP1251", NULL, "\xD2\xE0\xEB", "\xD0\xA2\xD0\xB0\xD0\xBB", GAMEDB_OK);
	CHECK_EQ_INT(h.calls, 3);
}

/* Writes the bytes of user_data (a NUL-terminated string of hex pairs) whatever the input. */
static int32_t bytes_hook(void *user_data, const char *charset, const char *in, size_t in_len,
			  char *out, size_t out_cap, size_t *out_len)
{
	const char *hex = user_data;
	size_t n = 0;
	unsigned v;

	(void)charset;
	(void)in;
	(void)in_len;
	while (hex[0] && hex[1] && n < out_cap && sscanf(hex, "%2x", &v) == 1) {
		out[n++] = (char)v;
		hex += 2;
	}
	*out_len = n;
	return GAMEDB_OK;
}

/* All that a hook may write that is not UTF-8: one U+FFFD a malformed letter, a warning. */
static void hook_check(int line, const char *hex, const char *expect, size_t expect_len,
		       int32_t expect_rc)
{
	T.hook = bytes_hook;
	T.hook_user_data = (void *)hex;
	conv_check(line, "CP1251", NULL, "\xE9", 1, expect, expect_len, expect_rc);
	T.hook = NULL;
	T.hook_user_data = NULL;
}
#define HOOK(hex, expect, rc) hook_check(__LINE__, hex, expect, sizeof(expect) - 1, rc)

static void test_hook_checked(void)
{
	struct gamedb__buf out = { 0 };
	char *hex;
	size_t i, ok;

	HOOK("c3a9", "\xC3\xA9", GAMEDB_OK);                       /* valid: as written */
	HOOK("f48fbfbf", "\xF4\x8F\xBF\xBF", GAMEDB_OK);             /* U+10FFFF */
	HOOK("61fdbfbfbfbfbf62", "a" U_FFFD "b", GAMEDB_WARN);       /* 6-byte form */
	HOOK("f8888080806162", U_FFFD "ab", GAMEDB_WARN);            /* 5-byte form */
	HOOK("f4908080", U_FFFD, GAMEDB_WARN);                       /* U+110000 */
	HOOK("f7bfbfbf", U_FFFD, GAMEDB_WARN);                       /* F5..F7 leads */
	HOOK("c0af", U_FFFD, GAMEDB_WARN);                           /* overlong "/" */
	HOOK("e080af", U_FFFD, GAMEDB_WARN);
	HOOK("f08080af", U_FFFD, GAMEDB_WARN);
	HOOK("eda080edbfbf", U_FFFD U_FFFD, GAMEDB_WARN);            /* surrogates */
	HOOK("80bf", U_FFFD U_FFFD, GAMEDB_WARN);                    /* lone continuations */
	HOOK("feff41", U_FFFD U_FFFD "A", GAMEDB_WARN);
	HOOK("41e282", "A" U_FFFD, GAMEDB_WARN);                     /* cut short at the end */
	HOOK("e28241", U_FFFD "A", GAMEDB_WARN);                     /* cut short inside */
	HOOK("f09d8441", U_FFFD "A", GAMEDB_WARN);
	HOOK("610062", "a?b", GAMEDB_WARN);                          /* NUL */
	HOOK("00c0af", "?" U_FFFD, GAMEDB_WARN);

	/* The most a hook can write (out_cap bytes, each a lone continuation byte) triples. */
	hex = malloc(2 * (4 * 100 + 4) + 1);
	CHECK(hex != NULL);
	if (!hex)
		return;
	for (i = 0; i < 4 * 100 + 4; i++)
		memcpy(hex + 2 * i, "80", 2);
	hex[2 * (4 * 100 + 4)] = 0;
	T.hook = bytes_hook;
	T.hook_user_data = hex;
	{
		char in[100];
		memset(in, 0xE9, sizeof in);
		CHECK_EQ_INT(gamedb__text_to_utf8(&T, "CP1252", NULL, in, sizeof in, &out), GAMEDB_WARN);
	}
	T.hook = NULL;
	T.hook_user_data = NULL;
	ok = out.len == 3 * (4 * 100 + 4) && out.p[out.len] == 0;
	for (i = 0; ok && i < out.len; i += 3)
		ok = memcmp(out.p + i, U_FFFD, 3) == 0;
	CHECK_MSG(ok, "hook's %d lone continuation bytes: %zu bytes out", 4 * 100 + 4, out.len);
	gamedb__buf_free(&out);
	free(hex);
}

/* Line breaks: CR LF and a lone CR become LF, only from the offset on; LF stays. */
static void test_newlines(void)
{
	struct gamedb__buf b;

	memset(&b, 0, sizeof b);
	CHECK(gamedb__buf_append(&b, "a\r\nb\rc\nd\r\r\n", 11) == 0);
	gamedb__text_newlines(&b, 0);
	CHECK_EQ_STR(b.p, "a\nb\nc\nd\n\n");
	CHECK_EQ_INT(b.len, 9);
	gamedb__buf_clear(&b);
	CHECK(gamedb__buf_append(&b, "x\r\ny\r\n", 6) == 0);
	gamedb__text_newlines(&b, 3); /* the first break is before the offset: kept */
	CHECK_EQ_STR(b.p, "x\r\ny\n");
	gamedb__text_newlines(&b, b.len); /* nothing after the offset */
	CHECK_EQ_STR(b.p, "x\r\ny\n");
	gamedb__buf_free(&b);
	/* A letter cut by a fixed-size field: dropped, in any multibyte charset. */
	CHECK_EQ_INT(gamedb__text_complete_len(&T, "GB18030", "ab\xD6\xD0", 4), 4);
	CHECK_EQ_INT(gamedb__text_complete_len(&T, "GB18030", "ab\xD6\xD0\xD6", 5), 4);
	CHECK_EQ_INT(gamedb__text_complete_len(&T, "GB18030", "a\x81\x30", 3), 1); /* 4-byte */
	if (GB18030_BMP4)
		CHECK_EQ_INT(gamedb__text_complete_len(&T, "GB18030", "a\x81\x30\x81\x30", 5), 5);
	CHECK_EQ_INT(gamedb__text_complete_len(&T, "BIG5", "\xA4\xA4\xA4", 3), 2);
	CHECK_EQ_INT(gamedb__text_complete_len(&T, "UTF-8", "a\xE4\xB8", 3), 1);
	CHECK_EQ_INT(gamedb__text_complete_len(&T, "UTF-8", "a\xE4\xB8\xAD", 4), 4);
	CHECK_EQ_INT(gamedb__text_complete_len(&T, "CP1252", "ab\xE9", 3), 3);
	CHECK(gamedb__text_is_utf8(NULL) && gamedb__text_is_utf8("utf-8") &&
	      gamedb__text_is_utf8("UTF8") && !gamedb__text_is_utf8("CP1252"));
}

/* The bottom layer's helpers the writers and this layer use (util/buf.h). */
static void check_u64(uint64_t v, const char *expect)
{
	char out[24];
	size_t n = gamedb__put_u64(out, v);

	out[n] = 0;
	CHECK_EQ_STR(out, expect);
}

/* An array on caller storage: kept there while it fits, then moved to the heap, contents kept. */
static void test_grow_fixed(void)
{
	int32_t fixed[2] = { 7, 8 };
	void *p = fixed;
	int32_t *a;
	size_t cap = 2;

	CHECK_EQ_INT(gamedb__grow_fixed(&p, &cap, 2, sizeof *a, fixed), 0);
	CHECK(p == (void *)fixed && cap == 2);
	CHECK_EQ_INT(gamedb__grow_fixed(&p, &cap, 3, sizeof *a, fixed), 0);
	a = p;
	CHECK(p != (void *)fixed && cap == 4 && a[0] == 7 && a[1] == 8);
	a[2] = 9;
	a[3] = 10;
	CHECK_EQ_INT(gamedb__grow_fixed(&p, &cap, 5, sizeof *a, fixed), 0); /* now realloc */
	a = p;
	CHECK(cap == 8 && a[0] == 7 && a[1] == 8 && a[2] == 9 && a[3] == 10);
	/* over the size cap (1 GiB): refused, the array as it was */
	CHECK_EQ_INT(gamedb__grow_fixed(&p, &cap, (size_t)1 << 29, sizeof *a, fixed), -1);
	CHECK(p == (void *)a && cap == 8);
	CHECK(fixed[0] == 7 && fixed[1] == 8); /* the caller's storage left as it was */
	free(p);
}

static void test_util(void)
{
	uint64_t x;

	check_u64(0, "0");
	check_u64(7, "7");
	check_u64(10, "10");
	check_u64(99, "99");
	check_u64(100, "100");
	check_u64(4294967295u, "4294967295");
	check_u64(UINT64_C(4294967296), "4294967296");
	check_u64(UINT64_C(18446744073709551615), "18446744073709551615");
	memcpy(&x, "abc\"defg", 8);
	CHECK(gamedb__has_byte(x, '"') && !gamedb__has_byte(x, '\\') && !gamedb__has_below(x, 0x20));
	memcpy(&x, "abcdefg\n", 8);
	CHECK(gamedb__has_below(x, 0x20) && !gamedb__has_high(x));
	memcpy(&x, "\xD0\x9F\xD1\x80 ab\x7F", 8);
	CHECK(gamedb__has_high(x) && !gamedb__has_below(x, 0x20) && gamedb__has_byte(x, ' '));
	test_grow_fixed();
}


/*
 * Single-byte tables are the process's: a second reader's text layer takes the first one's
 * table (the same one), keeps it after the first closes, and converts through it as before.
 */
static void test_shared_tables(void)
{
	struct gamedb__text a, b;
	const struct gamedb__text_letters *ta, *tb;
	struct gamedb__buf out = { 0 };

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	ta = gamedb__text_table_of(&a, "CP1252");
	tb = gamedb__text_table_of(&b, "cp1252");
	CHECK(ta != NULL && ta == tb);
	gamedb__text_close(&a);
	/* CP1252 text through b's table: Latin letters 0xE0-0xFF are U+00E0-U+00FF. */
	{
		static const char in[] = "Sevilla 1987, Mart\xEDnez \xE9l\xE8ve";
		static const char want[] = "Sevilla 1987, Mart\xC3\xADnez \xC3\xA9l\xC3\xA8ve";
		CHECK_EQ_INT(gamedb__text_to_utf8(&b, "CP1252", NULL, in, sizeof in - 1, &out), GAMEDB_OK);
		CHECK(out.len == sizeof want - 1 && memcmp(out.p, want, sizeof want - 1) == 0);
	}
	gamedb__buf_free(&out);
	gamedb__text_close(&b);
	/* A reader made later still finds it. */
	memset(&a, 0, sizeof a);
	CHECK(gamedb__text_table_of(&a, "CP1252") == ta);
	gamedb__text_close(&a);
}

#ifndef _WIN32
#include <iconv.h>
/*
 * The sixteen-byte conversion of single-byte charsets (gamedb__text_runs.text, each of the
 * processor's variants, and the table alone) against glibc's iconv itself, byte by byte:
 * pseudo-random texts that mix ASCII, the letters 0xC0-0xFF, CR, NUL and the bytes 0x80-0xBF
 * in runs of every length, so that blocks are whole, stop halfway or at their first byte, and
 * texts end in a block of their own or in the middle of one.
 */
static size_t iconv_byte(iconv_t cd, unsigned char b, char *out)
{
	char in = (char)b, *ip = &in, *op = out;
	size_t il = 1, ol = 8;

	iconv(cd, NULL, NULL, NULL, NULL);
	if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il != 0) {
		memcpy(out, U_FFFD, 3);
		return 3;
	}
	return (size_t)(op - out);
}

static unsigned rnd_state = 12345;
static unsigned rnd(unsigned n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 16) % n;
}

/* 1 if iconv refuses byte b (EILSEQ: not a letter of the charset). */
static int iconv_refuses(iconv_t cd, unsigned char b)
{
	char in = (char)b, *ip = &in, out[8], *op = out;
	size_t il = 1, ol = sizeof out;

	iconv(cd, NULL, NULL, NULL, NULL);
	return iconv(cd, &ip, &il, &op, &ol) == (size_t)-1;
}

/*
 * Each byte's letter in charset cs as glibc's iconv writes it (U+FFFD for one it refuses,
 * which then counts as lost in lost[b], when lost is not NULL); 0, or -1 if iconv lacks cs.
 */
static int iconv_letters(const char *cs, char letter[256][8], size_t len[256], size_t *lost)
{
	iconv_t cd = iconv_open("UTF-8", cs);
	unsigned b;

	if (cd == (iconv_t)-1)
		return -1;
	for (b = 0; b < 256; b++) {
		len[b] = iconv_byte(cd, (unsigned char)b, letter[b]);
		if (lost)
			lost[b] = (size_t)iconv_refuses(cd, (unsigned char)b);
	}
	iconv_close(cd);
	return 0;
}

/*
 * A pseudo-random text of up to 299 bytes into in, in runs of one class: ASCII, 0xC0-0xFF, or
 * now and then a byte of another: 0x80-0xBF, and CR and NUL; with formats (a format's own
 * bytes), CR, LF, NUL and the figurine 0xA2. Its length.
 */
static size_t random_text(unsigned char in[300], int formats)
{
	const size_t n = rnd(300);
	size_t i = 0;

	while (i < n) {
		const unsigned cls = rnd(20);
		unsigned run = 1 + rnd(40);
		for (; run && i < n; run--, i++) {
			if (!formats)
				in[i] = cls < 9 ? (unsigned char)(0x20 + rnd(0x5F))
					: cls < 18 ? (unsigned char)(0xC0 + rnd(0x40))
					: cls == 18 ? (unsigned char)(rnd(2) ? '\r' : 0)
						    : (unsigned char)(0x80 + rnd(0x40));
			else
				in[i] = cls < 8 ? (unsigned char)(0x20 + rnd(0x5F))
					: cls < 16 ? (unsigned char)(0xC0 + rnd(0x40))
					: cls == 16 ? (unsigned char)(rnd(3) ? '\r' : '\n')
					: cls == 17 ? (unsigned char)(rnd(2) ? 0 : 0xA2)
						    : (unsigned char)(0x80 + rnd(0x40));
		}
	}
	return n;
}

/*
 * What the description says n bytes at in become, each byte's letter from letter and
 * letter_len (lost_letter: whether it is lost), into want: with newlines, CR LF and a lone CR
 * one "\n". Its length; *wlost the bytes lost.
 */
static size_t want_letters(const unsigned char *in, size_t n, char letter[256][8],
			   const size_t letter_len[256], const size_t lost_letter[256], int newlines,
			   char *want, size_t *wlost)
{
	size_t i, wlen = 0;

	*wlost = 0;
	for (i = 0; i < n; i++) {
		if (newlines && in[i] == '\r') {
			want[wlen++] = '\n';
			if (i + 1 < n && in[i + 1] == '\n')
				i++;
			continue;
		}
		memcpy(want + wlen, letter[in[i]], letter_len[in[i]]);
		wlen += letter_len[in[i]];
		*wlost += lost_letter[in[i]];
	}
	return wlen;
}

/*
 * The n bytes at in through L (gamedb__text_letters_run()) against what is wanted: the wlen
 * bytes at want, wlost bytes lost (a warning then); a failed check names the charset, the
 * level and the try. 1 when they agree.
 */
static int letters_as_wanted(const struct gamedb__text_letters *L, const char *cs, int level,
			     int tries, const unsigned char *in, size_t n, const char *want,
			     size_t wlen, size_t wlost)
{
	struct gamedb__buf out = { 0 };
	size_t lost = 0;
	int32_t rc;
	int ok;

	if (gamedb__buf_room(&out, GAMEDB__LETTERS_ROOM(n) + 1) != 0) {
		CHECK_MSG(0, "out of memory");
		return 0;
	}
	rc = gamedb__text_letters_run(L, in, n, &out, &lost);
	ok = out.len == wlen && memcmp(out.p, want, wlen) == 0 && out.p[out.len] == 0 &&
	     lost == wlost && rc == (wlost ? GAMEDB_WARN : GAMEDB_OK);
	if (ok)
		testlib_passed++;
	else
		CHECK_MSG(0, "%s, level %d, try %d: %zu bytes: %zu out (want %zu), %zu lost (want %zu)",
			  cs, level, tries, n, out.len, wlen, lost, wlost);
	gamedb__buf_free(&out);
	return ok;
}

static void test_runs(void)
{
	static const char *const charsets[] = { "CP1251", "CP1252", "ISO-8859-1", "KOI8-R",
						"CP1250", "CP866", "ISO-8859-5" };
	size_t c;

	for (c = 0; c < sizeof charsets / sizeof charsets[0]; c++) {
		const char *cs = charsets[c];
		const struct gamedb__text_letters *tab;
		struct gamedb__text_letters L;
		char letter[256][8];
		size_t letter_len[256], lost_letter[256];
		int level, top, tries, any_run = 0;

		if (iconv_letters(cs, letter, letter_len, lost_letter) != 0)
			continue;
		tab = gamedb__text_table_of(&T, cs);
		CHECK_MSG(tab != NULL, "%s: no table", cs);
		if (!tab)
			continue;
		/* Latin-1, CP1252 and CP1251 hold 0xC0-0xFF as one range; KOI8-R does not. */
		if (!strcmp(cs, "CP1251") || !strcmp(cs, "CP1252") || !strcmp(cs, "ISO-8859-1"))
			CHECK_MSG(tab->runs.hi_k >= 0, "%s: 0xC0-0xFF not seen as a range", cs);
		if (!strcmp(cs, "KOI8-R") || !strcmp(cs, "CP866"))
			CHECK_MSG(tab->runs.hi_k < 0, "%s: 0xC0-0xFF taken for a range", cs);
		/* A NUL is '?' and lost, as gamedb__text_to_utf8() has it. */
		memcpy(letter[0], "?", 1);
		letter_len[0] = 1;
		lost_letter[0] = 1;
		L = *tab;
		top = gamedb__text_runs_pick(&L.runs, 2);
		for (level = top; level >= 0; level--) {
			gamedb__text_runs_pick(&L.runs, level);
			any_run |= L.runs.text != NULL;
			for (tries = 0; tries < 3000; tries++) {
				unsigned char in[300];
				char want[300 * 8 + 16];
				struct gamedb__buf out = { 0 };
				const size_t n = random_text(in, 0);
				size_t wlen, wlost;
				wlen = want_letters(in, n, letter, letter_len, lost_letter, 0, want, &wlost);
				if (!letters_as_wanted(&L, cs, level, tries, in, n, want, wlen, wlost))
					break;
				/* The whole conversion: the same letters, a NUL for a NUL. */
				if (level == top && !memchr(in, 0, n)) {
					int32_t rc2 = gamedb__text_to_utf8(&T, cs, NULL, (const char *)in, n, &out);
					(void)rc2;
					CHECK_MSG(out.len == wlen && memcmp(out.p, want, wlen) == 0,
						  "%s, try %d: gamedb__text_to_utf8 differs from iconv", cs,
						  tries);
					gamedb__buf_free(&out);
				}
			}
		}
#if defined(__x86_64__) || defined(__i386__)
		CHECK_MSG(any_run, "%s: no sixteen-byte conversion on this processor", cs);
#else
		(void)any_run;
#endif
	}
}

/*
 * A charset's letters with bytes of a format's own meaning set over them (as ChessBase does:
 * CR a line break, figurines), run over pseudo-random texts, against what the description of
 * the letters says byte by byte, from glibc's iconv: CR LF and a lone CR one "\n", a NUL '?'
 * and a byte iconv refuses U+FFFD (each lost, with a warning), a set byte its letter, the
 * others iconv's. Then a charset whose ASCII bytes are not themselves (EBCDIC), whose table
 * has no runs and no eight-byte ASCII path, through gamedb__text_to_utf8() against iconv.
 */
static void test_letters(void)
{
	static const char *const charsets[] = { "CP1251", "CP1252", "KOI8-R" };
	size_t c;

	for (c = 0; c < sizeof charsets / sizeof charsets[0]; c++) {
		const char *cs = charsets[c];
		const struct gamedb__text_letters *tab;
		struct gamedb__text_letters L;
		char letter[256][8];
		size_t letter_len[256], lost_letter[256];
		int tries, level;

		if (iconv_letters(cs, letter, letter_len, lost_letter) != 0)
			continue;
		/* What the description says of each byte: a NUL '?' lost, a refused one U+FFFD lost. */
		letter[0][0] = '?';
		letter_len[0] = 1;
		lost_letter[0] = 1;
		/* The format's own bytes. */
		memcpy(letter[0xA2], "K", 1);
		letter_len[0xA2] = 1;
		lost_letter[0xA2] = 0;
		memcpy(letter[0x9E], "[#]", 3);
		letter_len[0x9E] = 3;
		lost_letter[0x9E] = 0;
		tab = gamedb__text_table_of(&T, cs);
		CHECK_MSG(tab != NULL, "%s: no table", cs);
		if (!tab)
			continue;
		L = *tab;
		gamedb__text_letter_set(&L, '\r', "\n", 1, GAMEDB__LETTER_CR);
		gamedb__text_letter_set(&L, 0xA2, "K", 1, 0);
		gamedb__text_letter_set(&L, 0x9E, "[#]", 3, 0);
		for (level = gamedb__text_runs_pick(&L.runs, 2); level >= 0; level--) {
			gamedb__text_runs_pick(&L.runs, level);
			for (tries = 0; tries < 3000; tries++) {
				unsigned char in[300];
				char want[300 * 8 + 16];
				const size_t n = random_text(in, 1);
				size_t wlen, wlost;
				wlen = want_letters(in, n, letter, letter_len, lost_letter, 1, want, &wlost);
				if (!letters_as_wanted(&L, cs, level, tries, in, n, want, wlen, wlost))
					break;
			}
		}
	}
	/* EBCDIC: no ASCII byte is itself. */
	{
		iconv_t cd = iconv_open("UTF-8", "IBM037");
		unsigned char in[200];
		char want[200 * 4 + 16];
		size_t i, wlen = 0, refused = 0;
		if (cd != (iconv_t)-1) {
			struct gamedb__buf out = { 0 };
			int32_t rc = GAMEDB_FAILED;
			for (i = 0; i < sizeof in; i++) {
				in[i] = (unsigned char)(0x40 + rnd(0xC0)); /* no NUL */
				wlen += iconv_byte(cd, in[i], want + wlen);
				refused += (size_t)iconv_refuses(cd, in[i]);
			}
			iconv_close(cd);
			/* A table once the charset has been used often enough (GAMEDB__TEXT_TABLE_AFTER). */
			for (i = 0; i <= GAMEDB__TEXT_TABLE_AFTER; i++) {
				out.len = 0;
				rc = gamedb__text_to_utf8(&T, "IBM037", NULL, (const char *)in, sizeof in, &out);
			}
			CHECK(gamedb__text_table_of(&T, "IBM037") != NULL &&
			      !gamedb__text_table_of(&T, "IBM037")->ascii);
			CHECK_EQ_INT(rc, refused ? GAMEDB_WARN : GAMEDB_OK);
			CHECK(out.len == wlen && memcmp(out.p, want, wlen) == 0);
			gamedb__buf_free(&out);
		}
	}
}
#endif

int main(void)
{
	memset(&T, 0, sizeof T);
	test_ascii();
	test_utf8_valid();
	test_utf8_invalid();
	test_cp1251();
	test_single_byte();
	test_util();
	test_gb18030();
	test_unknown_charset();
	test_nul();
	test_wide();
	test_expanding();
	test_append();
	test_cache();
	test_long();
	test_hook();
	test_hook_checked();
	test_newlines();
	test_shared_tables();
#ifndef _WIN32
	test_runs();
	test_letters();
#endif
	gamedb__text_close(&T);
	gamedb__text_close(&T); /* twice is harmless */
	return testlib_done();
}
