/*
 * libgamedb - a UTF-8 validator for the tests and the fuzz targets, written apart from the
 * library's own (lib/text) so that it can judge the library's output independently.
 */
#ifndef GAMEDB_TEST_UTF8_CHECK_H
#define GAMEDB_TEST_UTF8_CHECK_H

#include <stddef.h>

/* 1 if the n bytes at str are valid UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF). */
static int utf8_valid(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n;

	while (s < end) {
		unsigned c = *s, k, i, cp;
		if (c < 0x80) {
			s++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			k = 1, cp = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF)
			k = 2, cp = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4)
			k = 3, cp = c & 0x07;
		else
			return 0;
		if ((size_t)(end - s) <= k)
			return 0;
		for (i = 1; i <= k; i++) {
			if ((s[i] & 0xC0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i] & 0x3F);
		}
		if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
		s += k + 1;
	}
	return 1;
}

#endif /* GAMEDB_TEST_UTF8_CHECK_H */
