/*
 * libgamedb - the bottom layer: growable buffers and arrays, strdup. Calls nothing of the
 * library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

/* No single buffer may grow past this: a hostile file cannot make us allocate more. */
#define GAMEDB__BUF_MAX ((size_t)1 << 30)

/*
 * The block p resized to bytes: realloc(), or, while p is still the caller's storage fixed
 * (not NULL), a new block with the first used bytes of p copied. NULL when out of memory (p
 * untouched).
 */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline)) /* keeps the callers' fast paths small enough to inline */
#endif
static void *resize(void *p, const void *fixed, size_t used, size_t bytes)
{
	void *np;

	if (!fixed || p != fixed)
		return realloc(p, bytes);
	np = malloc(bytes);
	if (np)
		memcpy(np, p, used);
	return np;
}

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
	p = resize(b->p, b->fixed, b->len + 1, cap); /* may leave the caller's storage */
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

int gamedb__grow_fixed(void **p, size_t *cap, size_t need, size_t size, const void *fixed)
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
	np = resize(*p, fixed, *cap * size, ncap * size);
	if (!np)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}

int gamedb__grow(void **p, size_t *cap, size_t need, size_t size)
{
	return gamedb__grow_fixed(p, cap, need, size, NULL);
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
