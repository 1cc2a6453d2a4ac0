/*
 * libgamedb - the text layer: every byte of database text becomes UTF-8 here.
 *
 * ASCII and valid UTF-8 pass through without iconv. Other charsets go through iconv, with one
 * converter cached per charset and reader. For UTF-8 text, invalid bytes are read one at a
 * time in a fallback charset (SCID bases hold either UTF-8 or Latin-1/CP1252 names).
 */
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gamedb-private.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if the bytes there are not valid. */
static size_t utf8_seq(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		return (len >= 2 && (s[1] & 0xC0) == 0x80) ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF) {
		if (len < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
			return 0;
		if (c == 0xE0 && s[1] < 0xA0)
			return 0; /* overlong */
		if (c == 0xED && s[1] >= 0xA0)
			return 0; /* surrogate */
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4) {
		if (len < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
		    (s[3] & 0xC0) != 0x80)
			return 0;
		if (c == 0xF0 && s[1] < 0x90)
			return 0;
		if (c == 0xF4 && s[1] >= 0x90)
			return 0;
		return 4;
	}
	return 0;
}

int gamedb__utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		n = utf8_seq(p + i, len - i);
		if (!n)
			return 0;
		i += n;
	}
	return 1;
}

static int is_utf8_name(const char *cs)
{
	return !cs || !*cs || strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "UTF8") == 0;
}

int gamedb__text_is_utf8(const char *charset)
{
	return is_utf8_name(charset);
}

void gamedb__text_newlines(struct gamedb__buf *b, size_t off)
{
	size_t i, k;

	if (off >= b->len || !memchr(b->p + off, '\r', b->len - off))
		return;
	for (i = k = off; i < b->len; i++) {
		if (b->p[i] == '\r') {
			b->p[k++] = '\n';
			if (i + 1 < b->len && b->p[i + 1] == '\n')
				i++;
		} else {
			b->p[k++] = b->p[i];
		}
	}
	b->len = k;
	b->p[k] = 0;
}

static int is_latin1_name(const char *cs)
{
	return strcasecmp(cs, "ISO-8859-1") == 0 || strcasecmp(cs, "LATIN1") == 0 ||
	       strcasecmp(cs, "ISO8859-1") == 0 || strcasecmp(cs, "L1") == 0;
}

static iconv_t get_cd(struct gamedb__text *t, const char *charset)
{
	unsigned i;
	iconv_t cd;

	for (i = 0; i < GAMEDB__TEXT_CACHE; i++)
		if (t->cache[i].cd && strcasecmp(t->cache[i].name, charset) == 0)
			return (iconv_t)t->cache[i].cd;
	if (strlen(charset) >= sizeof t->cache[0].name)
		return (iconv_t)-1;
	cd = iconv_open("UTF-8", charset);
	if (cd == (iconv_t)-1)
		return cd;
	i = t->next_slot++ % GAMEDB__TEXT_CACHE;
	if (t->cache[i].cd)
		iconv_close((iconv_t)t->cache[i].cd);
	t->cache[i].cd = (void *)cd;
	strcpy(t->cache[i].name, charset);
	return cd;
}

int gamedb__text_charset_known(struct gamedb__text *t, const char *charset)
{
	if (is_utf8_name(charset) || is_latin1_name(charset))
		return 1;
	return get_cd(t, charset) != (iconv_t)-1;
}

static void put_replacement(struct gamedb__buf *out)
{
	memcpy(out->p + out->len, "\xEF\xBF\xBD", 3);
	out->len += 3;
}

/* Converts len bytes through iconv; room for 4 * len + 4 is reserved by the caller. */
static int32_t convert_iconv(struct gamedb__text *t, const char *charset, const char *in,
			     size_t len, struct gamedb__buf *out)
{
	iconv_t cd;
	char *ip = (char *)in, *op;
	size_t il = len, ol;
	int32_t rc = GAMEDB_OK;

	if (is_latin1_name(charset)) {
		size_t i;
		for (i = 0; i < len; i++) {
			unsigned char c = (unsigned char)in[i];
			if (c < 0x80) {
				out->p[out->len++] = (char)c;
			} else {
				out->p[out->len++] = (char)(0xC0 | (c >> 6));
				out->p[out->len++] = (char)(0x80 | (c & 0x3F));
			}
		}
		return GAMEDB_OK;
	}
	cd = get_cd(t, charset);
	if (cd == (iconv_t)-1) {
		/* Unknown charset: keep ASCII, replace the rest. */
		size_t i;
		for (i = 0; i < len; i++) {
			if ((unsigned char)in[i] < 0x80)
				out->p[out->len++] = in[i];
			else
				put_replacement(out);
		}
		return GAMEDB_WARN;
	}
	iconv(cd, NULL, NULL, NULL, NULL);
	op = out->p + out->len;
	ol = out->cap - out->len - 1;
	while (il > 0) {
		size_t r = iconv(cd, &ip, &il, &op, &ol);
		if (r != (size_t)-1)
			break;
		if (errno == EILSEQ || errno == EINVAL) {
			/* An invalid or incomplete sequence: one U+FFFD per byte skipped. */
			if (ol < 3)
				break;
			memcpy(op, "\xEF\xBF\xBD", 3);
			op += 3;
			ol -= 3;
			ip++;
			il--;
			rc = GAMEDB_WARN;
			iconv(cd, NULL, NULL, NULL, NULL);
		} else {
			rc = GAMEDB_WARN; /* E2BIG cannot happen with 4x room; stop safely */
			break;
		}
	}
	out->len = (size_t)(op - out->p);
	return rc;
}

int32_t gamedb__text_to_utf8(struct gamedb__text *t, const char *charset, const char *fallback,
			     const char *in, size_t len, struct gamedb__buf *out)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t i, start = out->len;
	int32_t rc = GAMEDB_OK;

	if (len > (SIZE_MAX - 8) / 4 || gamedb__buf_reserve(out, 4 * len + 4) != 0)
		return GAMEDB_FAILED;

	if (gamedb__text_is_plain(in, len)) {
		memcpy(out->p + out->len, in, len);
		out->len += len;
		out->p[out->len] = 0;
		return GAMEDB_OK;
	}

	if (t->hook) {
		size_t produced = 0;
		int32_t hr = t->hook(t->hook_user_data, is_utf8_name(charset) ? "UTF-8" : charset, in,
				     len, out->p + out->len, out->cap - out->len - 1, &produced);
		if ((hr == GAMEDB_OK || hr == GAMEDB_WARN) && produced <= out->cap - out->len - 1) {
			out->len += produced;
			out->p[out->len] = 0;
			return hr;
		}
	}

	if (!is_utf8_name(charset)) {
		rc = convert_iconv(t, charset, in, len, out);
	} else {
		i = 0;
		while (i < len) {
			size_t n;
			if (p[i] < 0x80) {
				out->p[out->len++] = (char)p[i++];
				continue;
			}
			n = utf8_seq(p + i, len - i);
			if (n) {
				memcpy(out->p + out->len, p + i, n);
				out->len += n;
				i += n;
				continue;
			}
			/* An invalid byte: read it in the fallback charset. */
			if (fallback && *fallback) {
				int32_t r = convert_iconv(t, fallback, in + i, 1, out);
				if (r != GAMEDB_OK)
					rc = GAMEDB_WARN;
			} else {
				put_replacement(out);
				rc = GAMEDB_WARN;
			}
			i++;
		}
	}
	/* NUL bytes inside text would cut C strings short: they become '?'. */
	for (i = start; i < out->len; i++) {
		if (out->p[i] == 0) {
			out->p[i] = '?';
			rc = GAMEDB_WARN;
		}
	}
	out->p[out->len] = 0;
	return rc;
}

size_t gamedb__text_complete_len(struct gamedb__text *t, const char *charset, const char *in,
				 size_t len)
{
	const unsigned char *p = (const unsigned char *)in;
	char buf[256], *ip = (char *)in, *op;
	size_t il = len, ol, j;
	iconv_t cd;

	if (gamedb__text_is_plain(in, len) || is_latin1_name(charset))
		return len;
	if (is_utf8_name(charset)) {
		/* The last lead byte, if the bytes after it are fewer than its letter needs. */
		for (j = len; j > 0 && len - j < 4; j--) {
			unsigned char c = p[j - 1];
			if ((c & 0xC0) == 0x80)
				continue; /* a continuation byte: look further back */
			if (c >= 0xC2 && c <= 0xF4) {
				size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
				if (len - (j - 1) < need)
					return j - 1;
			}
			break;
		}
		return len;
	}
	cd = get_cd(t, charset);
	if (cd == (iconv_t)-1)
		return len;
	iconv(cd, NULL, NULL, NULL, NULL);
	while (il > 0) {
		op = buf;
		ol = sizeof buf;
		if (iconv(cd, &ip, &il, &op, &ol) != (size_t)-1)
			break;
		if (errno == E2BIG)
			continue;
		if (errno == EINVAL) /* an incomplete letter at the very end */
			return (size_t)(ip - in);
		if (errno != EILSEQ)
			break;
		ip++; /* an invalid byte is not a cut: step over it */
		il--;
		iconv(cd, NULL, NULL, NULL, NULL);
	}
	return len;
}

void gamedb__text_close(struct gamedb__text *t)
{
	unsigned i;

	for (i = 0; i < GAMEDB__TEXT_CACHE; i++) {
		if (t->cache[i].cd)
			iconv_close((iconv_t)t->cache[i].cd);
		t->cache[i].cd = NULL;
	}
}
