/*
 * libgamedb - small shared helpers: growable buffers, status strings, version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamedb-private.h"

/* No single buffer may grow past this: a hostile file cannot make us allocate more. */
#define GAMEDB__BUF_MAX ((size_t)1 << 30)

int gamedb__buf_reserve(struct gamedb__buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (extra > GAMEDB__BUF_MAX || b->len > GAMEDB__BUF_MAX - extra - 1)
		return -1;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	if (b->fixed && b->p == b->fixed) { /* leaving the caller's storage */
		p = malloc(cap);
		if (p)
			memcpy(p, b->p, b->len + 1);
	} else {
		p = realloc(b->p, cap);
	}
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

static const struct {
	unsigned code;
	const char *iso;
} languages[] = {
	{ GAMEDB__LANG_ENGLISH, "en" }, { GAMEDB__LANG_GERMAN, "de" },
	{ GAMEDB__LANG_FRENCH, "fr" },  { GAMEDB__LANG_SPANISH, "es" },
	{ GAMEDB__LANG_ITALIAN, "it" }, { GAMEDB__LANG_DUTCH, "nl" },
	{ GAMEDB__LANG_POLISH, "pl" },  { GAMEDB__LANG_PORTUGUESE, "pt" },
};

const char *gamedb__language_iso(unsigned code)
{
	size_t i;

	for (i = 0; i < sizeof languages / sizeof languages[0]; i++)
		if (languages[i].code == code)
			return languages[i].iso;
	return "";
}

int gamedb__language_code(const char *iso)
{
	size_t i;

	if (!iso || !iso[0] || !iso[1] || iso[2])
		return -1;
	for (i = 0; i < sizeof languages / sizeof languages[0]; i++)
		if ((iso[0] | 0x20) == languages[i].iso[0] && (iso[1] | 0x20) == languages[i].iso[1])
			return (int)languages[i].code;
	return -1;
}

int gamedb__grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return 0;
	if (size == 0 || need > GAMEDB__BUF_MAX / size)
		return -1;
	while (ncap < need)
		ncap *= 2;
	if (ncap > GAMEDB__BUF_MAX / size)
		ncap = need;
	np = realloc(*p, ncap * size);
	if (!np)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

int gamedb__buf_append(struct gamedb__buf *b, const void *data, size_t len)
{
	if (gamedb__buf_reserve(b, len) != 0)
		return -1;
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	b->p[b->len] = 0;
	return 0;
}

int gamedb__buf_putc(struct gamedb__buf *b, char c)
{
	if (b->len + 1 >= b->cap && gamedb__buf_reserve(b, 1) != 0)
		return -1;
	b->p[b->len++] = c;
	b->p[b->len] = 0;
	return 0;
}

int gamedb__buf_printf(struct gamedb__buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || gamedb__buf_reserve(b, (size_t)n) != 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

char *gamedb__strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

GAMEDB_EXPORT const char *gamedb_strerror(int32_t code)
{
	switch (code) {
	case GAMEDB_OK: return "success";
	case GAMEDB_WARN: return "warning: delivered with loss";
	case GAMEDB_FAILED: return "failed: this item is unreadable";
	case GAMEDB_FATAL: return "fatal: the handle is unusable";
	case GAMEDB_E_NOMEM: return "out of memory";
	case GAMEDB_E_IO: return "input/output error";
	case GAMEDB_E_UNRECOGNIZED_FORMAT: return "unrecognized database format";
	case GAMEDB_E_CORRUPT: return "corrupt data";
	case GAMEDB_E_UNSUPPORTED_VERSION: return "unsupported format version";
	case GAMEDB_E_ENCODING: return "text encoding error";
	case GAMEDB_E_MISUSE: return "library misuse";
	case GAMEDB_E_RANGE: return "out of range";
	case GAMEDB_E_STRUCT_SIZE: return "unsupported struct size";
	case GAMEDB_E_UNSUPPORTED: return "operation not supported";
	case GAMEDB_E_ILLEGAL_MOVE: return "illegal move";
	case GAMEDB_E_INVALID_ARGUMENT: return "invalid argument";
	case GAMEDB_E_UNKNOWN_OPTION: return "unknown option";
	default: return "unknown code";
	}
}

GAMEDB_EXPORT int32_t gamedb_version_number(void)
{
	return GAMEDB_VERSION_NUMBER;
}

GAMEDB_EXPORT const char *gamedb_version_string(void)
{
	return GAMEDB_VERSION_STRING;
}
