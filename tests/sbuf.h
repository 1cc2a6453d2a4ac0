/*
 * libgamedb tests - a growing text buffer, for what a test collects and compares (a writer's
 * output through sb_sink(), a walk written out with sb_printf()). Out of memory ends the test
 * (exit 99: an error, not a failure). Header-only; each test includes it once.
 */
#ifndef GAMEDB_TESTS_SBUF_H
#define GAMEDB_TESTS_SBUF_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

struct sbuf {
	char *p;      /* NUL-terminated once anything was added; NULL before */
	size_t len, cap;
};

static inline void sb_add(struct sbuf *b, const char *data, size_t len)
{
	if (b->len + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *p;
		while (cap < b->len + len + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			fprintf(stderr, "out of memory\n");
			exit(99);
		}
		b->p = p;
		b->cap = cap;
	}
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	b->p[b->len] = 0;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n > 0)
		sb_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static inline void sb_free(struct sbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* A gamedb write sink (gamedb_game_write_pgn() and the like) into the sbuf at user. */
static inline int32_t sb_sink(void *user, const char *data, size_t len)
{
	sb_add(user, data, len);
	return GAMEDB_OK;
}

#endif /* GAMEDB_TESTS_SBUF_H */
