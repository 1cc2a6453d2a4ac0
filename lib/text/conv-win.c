/*
 * libgamedb - the text layer's converter backend on Windows (text/conv.h): the system's code
 * pages through MultiByteToWideChar and WideCharToMultiByte, so that the DLL needs no iconv.
 *
 * The charset names are the iconv-style names the formats and callers give ("CP1252",
 * "WINDOWS-1251", "GB18030", "GBK", "BIG5", "ISO-8859-5", "KOI8-R", "UTF-16LE", ...), mapped
 * to code pages. Each letter is converted alone (its length from the lead byte), which gives
 * iconv's contract exactly: an invalid letter stops at its first byte (EILSEQ), one cut short
 * at the end of the input stops there (EINVAL), and no room stops before it (E2BIG). Where
 * the Windows tables and glibc's differ, this backend follows glibc so that both builds give
 * the same text:
 * - a Windows code page maps the bytes it leaves undefined (CP1252 0x81, CP1251 0x98) to C1
 *   controls; glibc refuses them, and so does this backend (they become U+FFFD);
 * - CP1255 and CP1258 hold the last letter back and compose a combining mark that follows it
 *   (CP1258 "a" + 0xEC is U+00E1), with the canonical composition of NormalizeString();
 * - UCS-4 letters above U+10FFFF are written in the old long forms, as glibc does, and the
 *   text layer's UTF-8 check turns each into one U+FFFD.
 * TSCII and glibc's rarer charsets have no code page: they are unknown here (U+FFFD for every
 * non-ASCII byte, with a warning), as a charset missing from an iconv build is.
 */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/conv.h"

enum kind {
	K_SBCS,    /* one byte a letter: a table of 256, built at open */
	K_DBCS,    /* one or two bytes (IsDBCSLeadByteEx): 932, 936, 949, 950 */
	K_GB18030, /* one, two or four bytes (54936) */
	K_UTF16,   /* UTF-16 and UCS-2 (no surrogates), either byte order */
	K_UCS4,    /* UCS-4 / UTF-32, either byte order */
};

struct wconv {
	enum kind kind;
	UINT cp;
	int big;         /* wide charsets: big-endian (UTF-16 and UTF-32: until a BOM says) */
	int bom;         /* UTF-16, UTF-32: a byte-order mark may lead */
	int surrogates;  /* UTF-16: pairs allowed (UCS-2: not) */
	int max;         /* UCS-4: 0x7FFFFFFF (long forms); UTF-32: 0x10FFFF */
	int compose;     /* CP1255, CP1258: hold the last letter for a combining mark */
	int gb_936;      /* GB18030 without code page 54936 (Wine): 936 and the 4-byte rule */
	wchar_t held;    /* the letter held back, or 0 */
	int started;     /* a letter was read since the reset (for the BOM) */
	unsigned char len[256];  /* K_SBCS: UTF-8 length of each byte's letter (0: undefined) */
	char utf8[256][4];
};

/* name without '-', '_' and ' ', in upper case, into buf; 0 if too long. */
static int squeeze(const char *name, char *buf, size_t cap)
{
	size_t n = 0;

	for (; *name; name++) {
		if (*name == '-' || *name == '_' || *name == ' ')
			continue;
		if (n + 1 >= cap)
			return 0;
		buf[n++] = (char)toupper((unsigned char)*name);
	}
	buf[n] = 0;
	return 1;
}

/* The digits after prefix in s as a number, or -1. */
static long number_after(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(s, prefix, n) != 0 || !isdigit((unsigned char)s[n]))
		return -1;
	v = strtol(s + n, &end, 10);
	return *end ? -1 : v;
}

static const struct {
	const char *name;
	UINT cp;
} named[] = {
	{ "GB18030", 54936 }, { "GBK", 936 }, { "GB2312", 936 }, { "EUCCN", 936 },
	{ "BIG5", 950 }, { "BIG5HKSCS", 950 }, { "SHIFTJIS", 932 }, { "SJIS", 932 },
	{ "EUCKR", 949 }, { "UHC", 949 }, { "KOI8R", 20866 }, { "KOI8U", 21866 },
	{ "ASCII", 20127 }, { "USASCII", 20127 }, { "TIS620", 874 }, { "MACINTOSH", 10000 },
	{ "MAC", 10000 }, { "MACCYRILLIC", 10007 },
};

/* The code page of an iconv-style name, or 0. */
static UINT code_page(const char *s)
{
	size_t i;
	long v;

	for (i = 0; i < sizeof named / sizeof named[0]; i++)
		if (strcmp(s, named[i].name) == 0)
			return named[i].cp;
	if ((v = number_after(s, "CP")) > 0 || (v = number_after(s, "WINDOWS")) > 0 ||
	    (v = number_after(s, "MS")) > 0 || (v = number_after(s, "IBM")) > 0)
		return v < 65000 ? (UINT)v : 0; /* not UTF-7/UTF-8 by number: they are not this */
	if ((v = number_after(s, "ISO8859")) > 0 && v <= 16 && v != 12)
		return (UINT)(28590 + v);
	return 0;
}

/* Writes c (up to 31 bits) as UTF-8, in the long forms above U+10FFFF as glibc does. */
static size_t put_utf8(uint32_t c, char *o)
{
	static const unsigned char lead[] = { 0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC };
	size_t n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : c < 0x200000 ? 4
		 : c < 0x4000000 ? 5 : 6;
	size_t i;

	if (n == 1) {
		o[0] = (char)c;
		return 1;
	}
	for (i = n - 1; i > 0; i--) {
		o[i] = (char)(0x80 | (c & 0x3F));
		c >>= 6;
	}
	o[0] = (char)(lead[n] | c);
	return n;
}

/* 1 if w is a letter the code page leaves undefined: a C1 control from a Windows 125x page. */
static int undefined_c1(UINT cp, wchar_t w)
{
	return (cp == 874 || (cp >= 1250 && cp <= 1258)) && w >= 0x80 && w <= 0x9F;
}

void *gamedb__conv_open(const char *charset)
{
	struct wconv *c;
	char s[48];
	CPINFO info;
	UINT cp;
	int b;

	if (!charset || !squeeze(charset, s, sizeof s))
		return NULL;
	c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	if (strncmp(s, "UTF16", 5) == 0 || strncmp(s, "UCS2", 4) == 0) {
		const char *end = s + (s[1] == 'T' ? 5 : 4);
		c->kind = K_UTF16;
		c->surrogates = s[1] == 'T';
		if (strcmp(end, "LE") == 0)
			c->big = 0;
		else if (strcmp(end, "BE") == 0)
			c->big = 1;
		else if (*end == 0) {
			c->bom = c->surrogates; /* glibc: UTF-16 reads a BOM, else big-endian;
						   UCS-2 is the host's order (little-endian) */
			c->big = c->surrogates;
		} else
			goto unknown;
		return c;
	}
	if (strncmp(s, "UCS4", 4) == 0 || strncmp(s, "UTF32", 5) == 0) {
		const char *end = s + (s[1] == 'C' ? 4 : 5);
		c->kind = K_UCS4;
		c->max = s[1] == 'C' ? 0x7FFFFFFF : 0x10FFFF;
		if (strcmp(end, "LE") == 0)
			c->big = 0;
		else if (strcmp(end, "BE") == 0 || *end == 0)
			c->big = 1;
		else
			goto unknown;
		c->bom = *end == 0 && s[1] == 'T';
		return c;
	}
	cp = code_page(s);
	if (cp == 54936 && !IsValidCodePage(cp)) {
		/*
		 * Windows has GB18030 as code page 54936; Wine (8.0) does not. Its one- and two-byte
		 * letters are then read as GBK (936, which they extend), and its four-byte letters
		 * beyond the BMP by the standard's linear rule; four-byte letters inside the BMP
		 * (rare: a table of ranges) are refused there.
		 */
		c->gb_936 = 1;
		cp = 936;
	}
	if (cp == 0 || cp == CP_UTF8 || !IsValidCodePage(cp) || !GetCPInfo(cp, &info))
		goto unknown;
	c->cp = cp;
	c->compose = cp == 1255 || cp == 1258;
	if (cp == 54936 || c->gb_936) {
		c->kind = K_GB18030;
	} else if (info.MaxCharSize == 2) {
		c->kind = K_DBCS;
	} else if (info.MaxCharSize == 1) {
		c->kind = K_SBCS;
		for (b = 0; b < 256; b++) {
			char in = (char)b;
			wchar_t w[2];
			int n = MultiByteToWideChar(cp, MB_ERR_INVALID_CHARS, &in, 1, w, 2);
			if (n != 1 || (w[0] >= 0xD800 && w[0] <= 0xDFFF) || undefined_c1(cp, w[0]) ||
			    (b > 0 && w[0] == 0) || (cp == 20127 && b >= 0x80))
				continue; /* (ASCII: Wine maps the high bytes; glibc refuses them) */
			c->len[b] = (unsigned char)put_utf8(w[0], c->utf8[b]);
		}
	} else {
		goto unknown;
	}
	return c;
unknown:
	free(c);
	return NULL;
}

void gamedb__conv_close(void *cd)
{
	free(cd);
}

/* The length of the letter at p (n bytes left) in a multibyte code page; 0: invalid lead. */
static size_t letter_len(const struct wconv *c, const unsigned char *p, size_t n)
{
	if (p[0] < 0x80)
		return 1;
	if (c->kind == K_DBCS)
		return IsDBCSLeadByteEx(c->cp, p[0]) ? 2 : 1;
	/* GB18030: 81-FE then 40-7E/80-FE (two bytes) or 30-39 81-FE 30-39 (four). */
	if (p[0] == 0x80 || p[0] == 0xFF)
		return 0;
	if (n >= 2 && p[1] >= 0x30 && p[1] <= 0x39)
		return 4;
	return 2;
}

/* Writes the UTF-16 letter(s) w[0..n) as UTF-8 into *op; -1 (E2BIG) if there is no room. */
static int put_wide(const wchar_t *w, int n, char **op, size_t *ol)
{
	char tmp[16];
	int k = WideCharToMultiByte(CP_UTF8, 0, w, n, tmp, sizeof tmp, NULL, NULL);

	if (k <= 0)
		return 0;
	if ((size_t)k > *ol) {
		errno = E2BIG;
		return -1;
	}
	memcpy(*op, tmp, (size_t)k);
	*op += k;
	*ol -= (size_t)k;
	return 0;
}

/* 1 if w is a combining mark that CP1255 or CP1258 may compose with the letter before it. */
static int combining(wchar_t w)
{
	return (w >= 0x0300 && w <= 0x036F) || (w >= 0x05B0 && w <= 0x05C7);
}

/*
 * CP1255, CP1258: the held letter and w (0: none, at a flush). A combining mark that composes
 * with the held letter gives the composed letter; otherwise the held letter goes out, and w is
 * held in its place (a mark goes out at once).
 */
static int emit_composing(struct wconv *c, wchar_t w, char **op, size_t *ol)
{
	wchar_t pair[2], out[4];

	if (*ol < 8) { /* room for two letters: nothing is written half */
		errno = E2BIG;
		return -1;
	}
	if (c->held && w && combining(w)) {
		pair[0] = c->held;
		pair[1] = w;
		if (NormalizeString(NormalizationC, pair, 2, out, 4) == 1) {
			c->held = 0;
			return put_wide(out, 1, op, ol);
		}
	}
	if (c->held && put_wide(&c->held, 1, op, ol) != 0)
		return -1;
	c->held = 0;
	if (w && combining(w))
		return put_wide(&w, 1, op, ol);
	c->held = w;
	return 0;
}

/* Converts one wide-charset letter at *ip; 0, or -1 with errno set. */
static int wide_letter(struct wconv *c, char **ip, size_t *il, char **op, size_t *ol)
{
	const unsigned char *p = (const unsigned char *)*ip;
	size_t unit = c->kind == K_UTF16 ? 2 : 4, used = unit;
	uint32_t v, lo;
	char tmp[8];
	size_t k;

	if (*il < unit) {
		errno = EINVAL;
		return -1;
	}
	if (unit == 2)
		v = c->big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
	else
		v = c->big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
			   : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
	if (c->bom && !c->started) {
		c->started = 1;
		if (v == 0xFEFF || (unit == 2 ? v == 0xFFFE : v == 0xFFFE0000u)) {
			c->big = v == 0xFEFF ? c->big : !c->big;
			*ip += unit;
			*il -= unit;
			return 0;
		}
	}
	c->started = 1;
	if (unit == 2 && v >= 0xD800 && v <= 0xDFFF) {
		if (!c->surrogates || v >= 0xDC00) {
			errno = EILSEQ;
			return -1;
		}
		if (*il < 4) {
			errno = EINVAL;
			return -1;
		}
		lo = c->big ? (uint32_t)p[2] << 8 | p[3] : (uint32_t)p[3] << 8 | p[2];
		if (lo < 0xDC00 || lo > 0xDFFF) {
			errno = EILSEQ;
			return -1;
		}
		v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
		used = 4;
	}
	if (unit == 4 && (v > (uint32_t)c->max || (v >= 0xD800 && v <= 0xDFFF))) {
		errno = EILSEQ;
		return -1;
	}
	k = put_utf8(v, tmp);
	if (k > *ol) {
		errno = E2BIG;
		return -1;
	}
	memcpy(*op, tmp, k);
	*op += k;
	*ol -= k;
	*ip += used;
	*il -= used;
	return 0;
}

size_t gamedb__conv(void *cd, char **ip, size_t *il, char **op, size_t *ol)
{
	struct wconv *c = cd;

	if (!ip || !*ip) {
		/* Reset; with room given, the held letter is written first. */
		if (op && ol && c->held && emit_composing(c, 0, op, ol) != 0)
			return (size_t)-1;
		c->held = 0;
		c->started = 0;
		return 0;
	}
	while (*il > 0) {
		const unsigned char *p = (const unsigned char *)*ip;
		wchar_t w[4];
		size_t n;
		int k;

		if (c->kind == K_UTF16 || c->kind == K_UCS4) {
			if (wide_letter(c, ip, il, op, ol) != 0)
				return (size_t)-1;
			continue;
		}
		if (c->kind == K_SBCS && !c->compose) {
			n = c->len[p[0]];
			if (n == 0) {
				errno = EILSEQ;
				return (size_t)-1;
			}
			if (n > *ol) {
				errno = E2BIG;
				return (size_t)-1;
			}
			memcpy(*op, c->utf8[p[0]], n);
			*op += n;
			*ol -= n;
			(*ip)++;
			(*il)--;
			continue;
		}
		n = c->kind == K_SBCS ? 1 : letter_len(c, p, *il);
		if (n == 0) {
			errno = EILSEQ;
			return (size_t)-1;
		}
		if (n > *il) {
			errno = EINVAL;
			return (size_t)-1;
		}
		if (c->gb_936 && n == 4) {
			/* GB18030 four bytes: 90 30 81 30 is U+10000, then linear up to U+10FFFF. */
			long lin = (((long)(p[0] - 0x81) * 10 + (p[1] - 0x30)) * 126 + (p[2] - 0x81)) * 10 +
				   (p[3] - 0x30) - 189000L;
			if (p[2] < 0x81 || p[2] > 0xFE || p[3] < 0x30 || p[3] > 0x39 || lin < 0 ||
			    lin > 0xFFFFFL) {
				errno = EILSEQ;
				return (size_t)-1;
			}
			w[0] = (wchar_t)(0xD800 + (lin >> 10));
			w[1] = (wchar_t)(0xDC00 + (lin & 0x3FF));
			if (put_wide(w, 2, op, ol) != 0)
				return (size_t)-1;
			*ip += n;
			*il -= n;
			continue;
		}
		k = MultiByteToWideChar(c->cp, MB_ERR_INVALID_CHARS, *ip, (int)n, w, 4);
		if (k <= 0 || (k == 1 && undefined_c1(c->cp, w[0]))) {
			errno = EILSEQ;
			return (size_t)-1;
		}
		if (c->compose && k == 1) {
			if (emit_composing(c, w[0], op, ol) != 0)
				return (size_t)-1;
		} else if (put_wide(w, k, op, ol) != 0) {
			return (size_t)-1;
		}
		*ip += n;
		*il -= n;
	}
	return 0;
}
