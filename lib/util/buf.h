/*
 * libgamedb - the bottom layer (lib/util): growable byte buffers, growable arrays, strdup, the
 * printf-format attribute. Every other layer may include it; it includes nothing of the
 * library. Never installed.
 */
#ifndef GAMEDB_UTIL_BUF_H
#define GAMEDB_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && defined(_WIN32)
/* MinGW: printf here is the C99 one (__USE_MINGW_ANSI_STDIO, meson.build): %zu, %lld. */
#define GAMEDB__PRINTF(a, b) __attribute__((format(gnu_printf, a, b)))
#elif defined(__GNUC__)
#define GAMEDB__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GAMEDB__PRINTF(a, b)
#endif

/*
 * Copies n bytes, reading and writing none outside them, with copies of constant size (no
 * call): two overlapping ones for a short n, 16 bytes at a time and an overlapping last 16
 * for a longer one. The words and lines of a game, and the short texts of the text layer,
 * are mostly shorter than a memcpy() call is worth.
 */
static inline void gamedb__copy_small(char *d, const char *s, size_t n)
{
	if (n >= 16) {
		size_t i;
		for (i = 0; i + 16 < n; i += 16)
			memcpy(d + i, s + i, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/* ---- growable byte buffer ------------------------------------------------------------- */

struct gamedb__buf {
	char *p;
	size_t len;
	size_t cap;
	char *fixed; /* caller storage the buffer starts on (gamedb__buf_init_fixed), never freed */
};

/*
 * Starts b on caller storage (e.g. on the stack), so that a buffer that stays small costs no
 * allocation; it moves to the heap when it outgrows it. size must be at least 1.
 */
static inline void gamedb__buf_init_fixed(struct gamedb__buf *b, char *storage, size_t size)
{
	b->p = b->fixed = storage;
	b->len = 0;
	b->cap = size;
	storage[0] = 0;
}

/* Ensures room for len + extra + 1 bytes; 0 or -1 (out of memory, or over the size cap). */
int gamedb__buf_reserve(struct gamedb__buf *b, size_t extra);
int gamedb__buf_append(struct gamedb__buf *b, const void *data, size_t len);
int gamedb__buf_putc(struct gamedb__buf *b, char c);
int gamedb__buf_printf(struct gamedb__buf *b, const char *fmt, ...) GAMEDB__PRINTF(2, 3);
/* Frees the memory (not caller storage) and empties b. */
static inline void gamedb__buf_free(struct gamedb__buf *b)
{
	if (b->p != b->fixed)
		free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
/*
 * Grows the array *p of elements of size bytes (capacity *cap) to hold at least need of them,
 * doubling; 0, or -1 when out of memory or over the size cap (a hostile file cannot make an
 * array larger than 1 GiB). *p and *cap are unchanged on failure.
 */
int gamedb__grow(void **p, size_t *cap, size_t need, size_t size);
/*
 * gamedb__grow() for an array that starts on caller storage fixed (e.g. inside a struct, as
 * gamedb__buf_init_fixed() does for bytes): *p == fixed and *cap its room at first; the first
 * growth moves the array to the heap (its *cap elements copied), later ones reallocate. The
 * owner frees *p only when it is not fixed.
 */
int gamedb__grow_fixed(void **p, size_t *cap, size_t need, size_t size, const void *fixed);
/* strdup() (not in C11). NULL when out of memory. */
char *gamedb__strdup(const char *s);
/* gamedb__buf_reserve() with its common case (room enough already) inline, for hot loops. */
static inline int gamedb__buf_room(struct gamedb__buf *b, size_t extra)
{
	return b->cap - b->len > extra ? 0 : gamedb__buf_reserve(b, extra);
}

/* gamedb__buf_append() with its common case (room enough) inline, for hot loops. */
static inline int gamedb__buf_put(struct gamedb__buf *b, const void *data, size_t len)
{
	if (b->cap - b->len > len) {
		memcpy(b->p + b->len, data, len);
		b->len += len;
		b->p[b->len] = 0;
		return 0;
	}
	return gamedb__buf_append(b, data, len);
}
/* Writes v in decimal at out (room for 20 bytes), without a NUL; returns the number of digits. */
static inline size_t gamedb__put_u64(char *out, uint64_t v)
{
	char t[20];
	size_t n = 0, i;
	uint32_t u;

	if (v < 100) { /* move numbers, NAGs: most numbers written */
		out[0] = (char)('0' + v / 10);
		out[v >= 10] = (char)('0' + v % 10);
		return v >= 10 ? 2 : 1;
	}
	for (; v > UINT32_MAX; v /= 10)
		t[n++] = (char)('0' + v % 10);
	u = (uint32_t)v; /* the rest in 32-bit arithmetic */
	do {
		t[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	for (i = 0; i < n; i++)
		out[i] = t[n - 1 - i];
	return n;
}

/* ---- eight bytes at a time ------------------------------------------------------------- */

/*
 * The classic word tricks on eight bytes x (read with memcpy): nonzero when one of them is c,
 * when one is below n (n <= 128; bytes 0x80 and up never count), when one is 0x80 or above.
 */
static inline uint64_t gamedb__has_byte(uint64_t x, unsigned char c)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	const uint64_t v = x ^ (ones * c);
	return (v - ones) & ~v & (ones << 7);
}

static inline uint64_t gamedb__has_below(uint64_t x, unsigned char n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	return (x - ones * n) & ~x & (ones << 7);
}

static inline uint64_t gamedb__has_high(uint64_t x)
{
	return x & UINT64_C(0x8080808080808080);
}

/*
 * The high bit of each byte of x that is c, and no other bit: exact, unlike
 * gamedb__has_byte(), whose bits above the first match may be wrong, so that the first or the
 * last match can be read off (gamedb__first_byte(), gamedb__last_byte()).
 */
static inline uint64_t gamedb__byte_mask(uint64_t x, unsigned char c)
{
	const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
	const uint64_t v = x ^ (UINT64_C(0x0101010101010101) * c);
	return ~(((v & low7) + low7) | v) & ~low7;
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GAMEDB__WORD_SCAN 1
/* Of 8 bytes read with memcpy on a little-endian machine, the index of the first (lowest
 * address) and of the last byte whose bit is set in a nonzero gamedb__byte_mask(). */
static inline unsigned gamedb__first_byte(uint64_t m) { return (unsigned)__builtin_ctzll(m) / 8; }
static inline unsigned gamedb__last_byte(uint64_t m) { return (63u - (unsigned)__builtin_clzll(m)) / 8; }
#else
#define GAMEDB__WORD_SCAN 0
#endif

/* Keeps the memory, forgets the content. */
static inline void gamedb__buf_clear(struct gamedb__buf *b) { b->len = 0; if (b->p) b->p[0] = 0; }

#endif /* GAMEDB_UTIL_BUF_H */
