/*
 * libgamedb - the text layer: every byte of database text becomes UTF-8 here.
 *
 * ASCII and valid UTF-8 pass through without iconv. Other charsets go through iconv, with one
 * converter cached per charset and reader. For UTF-8 text, invalid bytes are read one at a
 * time in a fallback charset (SCID bases hold either UTF-8 or Latin-1/CP1252 names).
 *
 * Whatever iconv or the caller's converter hook writes is checked with the same validator
 * (utf8_repair()) before it leaves: no charset can make the library hand out bytes that are
 * not UTF-8 (glibc writes code points above U+10FFFF, as UCS-4 and WCHAR_T text may hold, in
 * 5- and 6-byte forms). The pass-through paths cost nothing more.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "text/conv.h"
#include "text/text.h"

static void drop_table(struct gamedb__text *t, unsigned i);

/* Inlined into the loops below: they run over every byte of converted text. */
#define TEXT_HOT inline __attribute__((always_inline))

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if the bytes there are not valid. */
static TEXT_HOT size_t utf8_seq(const unsigned char *s, size_t len)
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

/* The high bit of each byte of x that is zero. */
static TEXT_HOT uint64_t zero_bytes(uint64_t x)
{
	const uint64_t low7 = UINT64_C(0x7F7F7F7F7F7F7F7F);

	return ~(((x & low7) + low7) | x) & ~low7;
}

/*
 * How many of the 8 bytes of w (loaded little-endian: the first byte lowest) are ASCII and
 * whole two-byte letters, each lead C2..DF followed by its continuation 80..BF: 8, or 7 when
 * the last byte is a lead whose continuation lies beyond, or 0 when they are not all such.
 * Nothing carries from one byte into the next in any sum.
 */
static TEXT_HOT size_t utf8_eight_short(uint64_t w)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), high = ones * 0x80;
	uint64_t hi = w & high, lead, cont, big;

	if (!hi)
		return 8;
	lead = zero_bytes((w & (ones * 0xE0)) ^ (ones * 0xC0)); /* 110xxxxx */
	cont = zero_bytes((w & (ones * 0xC0)) ^ (ones * 0x80)); /* 10xxxxxx */
	big = ((w & (ones * 0x1E)) + ones * 0x7F) & high;       /* not C0 or C1 as a lead */
	if ((lead | cont) != hi || (lead << 8) != cont || (lead & ~big) != 0)
		return 0;
	return lead >> 56 ? 7 : 8;
}

#if defined(__SSE2__)
/*
 * utf8_eight_short() for the 16 bytes at p (SSE2, every x86-64): 16, 15 when the last byte
 * is a lead whose continuation lies beyond, or 0.
 */
static TEXT_HOT size_t utf8_sixteen_short(const unsigned char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
	unsigned hi = (unsigned)_mm_movemask_epi8(v), lead, cont, over;

	if (!hi)
		return 16;
	lead = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		_mm_and_si128(v, _mm_set1_epi8((char)0xE0)), _mm_set1_epi8((char)0xC0)));
	cont = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		_mm_and_si128(v, _mm_set1_epi8((char)0xC0)), _mm_set1_epi8((char)0x80)));
	over = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		_mm_and_si128(v, _mm_set1_epi8((char)0xFE)), _mm_set1_epi8((char)0xC0)));
	if ((lead | cont) != hi || ((lead << 1) & 0xFFFFu) != cont || over)
		return 0;
	return lead & 0x8000u ? 15 : 16;
}
#endif

/* 1 on a little-endian machine (a constant the compiler folds). */
static TEXT_HOT int little_endian(void)
{
	const uint16_t one = 1;
	unsigned char b;

	memcpy(&b, &one, 1);
	return b == 1;
}

/*
 * The length of the valid UTF-8 at the start of p: len when all of it is valid. Eight bytes
 * at a time while they are ASCII and two-byte letters (Latin, Greek, Cyrillic text): this is
 * the pass every text of a UTF-8 base and every iconv conversion pays for (utf8_repair()).
 * Where eight bytes are not, the letters that cover them go one at a time.
 */
static TEXT_HOT size_t utf8_valid_prefix(const unsigned char *p, size_t len)
{
	size_t i = 0, n, stop;
	uint64_t w;

	while (i < len) {
#if defined(__SSE2__)
		if (len - i >= 16) {
			n = utf8_sixteen_short(p + i);
			if (n) {
				i += n;
				continue;
			}
		}
#endif
		if (len - i >= 8 && little_endian()) {
			memcpy(&w, p + i, 8);
			n = utf8_eight_short(w);
			if (n) {
				i += n;
				continue;
			}
		}
		for (stop = i + 16; i < len && i < stop; i += n) {
			n = p[i] < 0x80 ? 1 : utf8_seq(p + i, len - i);
			if (!n)
				return i;
		}
	}
	return i;
}


/*
 * utf8_valid_prefix() that also stops at a NUL byte and copies what it passes to o, which has
 * room for len + 32 bytes (up to 32 past what it passes are written too): the UTF-8 path of
 * gamedb__text_to_utf8() and gamedb__text_to_utf8_z() in one pass, with no copy call and no
 * second pass for the NUL. 32 bytes are checked, searched and stored at a time while they are
 * ASCII and two-byte letters (the Cyrillic, Greek and Latin texts of real bases), the last
 * fewer than 32 too (in a window ending at len, or zero-padded); where a block holds anything
 * else, the letters that cover it go one at a time.
 */
static TEXT_HOT size_t utf8_copy_z(const unsigned char *p, size_t len, char *o)
{
	size_t i = 0, n, stop;

	while (i < len) {
#if defined(__SSE2__)
		/*
		 * With signed compares: as signed bytes a continuation (80..BF) is below -64, a
		 * lead of a two-byte letter (C2..DF) between -63 and -32; every byte 80 and up
		 * before the NUL must be one of the two, each lead followed by a continuation and
		 * each continuation preceded by a lead (so C0, C1, E0..FF and a stray
		 * continuation, or a lead before the NUL, stop the block).
		 */
		const __m128i zero = _mm_setzero_si128();
		unsigned char blk[32];
		__m128i a, b;
		uint32_t hi, nul, lead = 0, cont = 0, bad = 0;
		size_t shift = 0, at = i;
		if (len - i >= 32) {
			a = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			b = _mm_loadu_si128((const __m128i *)(const void *)(p + i + 16));
		} else if (len >= 32) {
			/*
			 * The last bytes in a window that ends with the text and overlaps what is
			 * done (whole letters: no lead there awaits a byte); its bits are shifted
			 * down to start at i, and the end of the text reads as a NUL.
			 */
			at = len - 32;
			shift = i - at;
			a = _mm_loadu_si128((const __m128i *)(const void *)(p + at));
			b = _mm_loadu_si128((const __m128i *)(const void *)(p + at + 16));
		} else {
			/* The n < 32 bytes left in a zeroed block: the zeros after them read as a NUL. */
			memset(blk, 0, sizeof blk);
			gamedb__copy_small((char *)blk, (const char *)p + i, len - i);
			a = _mm_loadu_si128((const __m128i *)(const void *)blk);
			b = _mm_loadu_si128((const __m128i *)(const void *)(blk + 16));
		}
		hi = (uint32_t)_mm_movemask_epi8(a) | (uint32_t)_mm_movemask_epi8(b) << 16;
		nul = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, zero)) |
		      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, zero)) << 16;
		_mm_storeu_si128((__m128i *)(void *)(o + at), a);
		_mm_storeu_si128((__m128i *)(void *)(o + at + 16), b);
		if (hi) {
			const __m128i c0 = _mm_set1_epi8(-64), l0 = _mm_set1_epi8(-63),
				      l1 = _mm_set1_epi8(-32);
			cont = (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(a, c0)) |
			       (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(b, c0)) << 16;
			lead = (uint32_t)_mm_movemask_epi8(
				       _mm_and_si128(_mm_cmpgt_epi8(a, l0), _mm_cmplt_epi8(a, l1))) |
			       (uint32_t)_mm_movemask_epi8(
				       _mm_and_si128(_mm_cmpgt_epi8(b, l0), _mm_cmplt_epi8(b, l1)))
				       << 16;
			bad = ((lead | cont) ^ hi) | ((uint32_t)(lead << 1) ^ cont);
		}
		if (shift) {
			/* (a lead as the text's last byte awaits the byte past it) */
			nul = (nul >> shift) | (uint32_t)1 << (32 - shift);
			bad = (bad >> shift) | (lead >> 31) << (32 - shift);
			lead >>= shift;
		} else if (!nul && !bad) {
			i += lead >> 31 ? 31 : 32;
			continue;
		}
		if (nul) {
			/* The bytes up to the NUL (and the NUL: no lead before it) all valid. */
			unsigned z = (unsigned)__builtin_ctz(nul);
			if (!(bad & (z == 31 ? ~(uint32_t)0 : ((uint32_t)2 << z) - 1)))
				return i + z;
		}
		{
			/*
			 * The bytes before the first that the test above refuses are whole letters
			 * and stored (a lead without its continuation is that byte's fault, so it
			 * starts there): from that letter (a longer one, as an em dash, or an invalid
			 * byte) one letter at a time, then 32 bytes at a time again.
			 */
			unsigned f = (unsigned)__builtin_ctz(bad);
			size_t k;
			if (f && (lead >> (f - 1) & 1))
				f--;
			i += f;
			n = p[i] ? utf8_seq(p + i, len - i) : 0;
			if (!n)
				return i;
			for (k = 0; k < n; k++)
				o[i + k] = (char)p[i + k];
			i += n;
			continue;
		}
#endif
		/* Something else in these 32 bytes: their letters one at a time. */
		for (stop = i + 32; i < len && i < stop; i += n) {
			size_t k;
			if (!p[i])
				return i;
			n = p[i] < 0x80 ? 1 : utf8_seq(p + i, len - i);
			if (!n)
				return i;
			for (k = 0; k < n; k++)
				o[i + k] = (char)p[i + k];
		}
	}
	return i;
}

int gamedb__utf8_valid(const char *s, size_t len)
{
	return utf8_valid_prefix((const unsigned char *)s, len) == len;
}

/*
 * The length of the malformed letter at s (utf8_seq() said 0 there): a lead byte C0..FD with
 * the continuation bytes that follow it, up to as many as its form announces (overlongs,
 * surrogates, code points above U+10FFFF in 4- to 6-byte forms, a letter cut short); a lone
 * continuation byte, FE or FF alone. Always 1..6 and at most len.
 */
static size_t utf8_bad_len(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	size_t want, n;

	if (c < 0xC0 || c > 0xFD)
		return 1;
	want = c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : c < 0xFC ? 5 : 6;
	for (n = 1; n < want && n < len && (s[n] & 0xC0) == 0x80; n++)
		;
	return n;
}

/*
 * Makes what a converter (iconv, the caller's hook) appended to out from offset start on valid
 * UTF-8: glibc's iconv writes code points above U+10FFFF (from UCS-4, WCHAR_T and their
 * aliases) in 4- to 6-byte forms (F4 90.., F5..F7, F8..FB, FC/FD leads), and a hook may write
 * anything. Each malformed letter (utf8_bad_len()) becomes one U+FFFD. GAMEDB_OK when the text
 * was valid (the common case: one pass of the validator), GAMEDB_WARN when something was
 * replaced.
 */
static int32_t utf8_repair(struct gamedb__buf *out, size_t start)
{
	const unsigned char *src;
	size_t bad, tail, i, n, w;
	const char *rep = "\xEF\xBF\xBD";
	size_t rep_len = 3;

	bad = start + utf8_valid_prefix((const unsigned char *)out->p + start, out->len - start);
	if (bad == out->len)
		return GAMEDB_OK;
	/*
	 * Each malformed letter is at least 1 byte and becomes 3: the tail is copied behind room
	 * for 3 times its length and rewritten from there. Without the memory, each becomes '?'
	 * in place (never longer than what it replaces): still valid, still a warning.
	 */
	tail = out->len - bad;
	if (tail <= (SIZE_MAX - 1) / 4 && gamedb__buf_reserve(out, 3 * tail) == 0) {
		memcpy(out->p + bad + 3 * tail, out->p + bad, tail);
		src = (const unsigned char *)out->p + bad + 3 * tail;
	} else {
		src = (const unsigned char *)out->p + bad;
		rep = "?";
		rep_len = 1;
	}
	for (i = 0, w = bad; i < tail; i += n) {
		n = src[i] < 0x80 ? 1 : utf8_seq(src + i, tail - i);
		if (n) {
			memmove(out->p + w, src + i, n);
			w += n;
		} else {
			n = utf8_bad_len(src + i, tail - i);
			memcpy(out->p + w, rep, rep_len);
			w += rep_len;
		}
	}
	out->len = w;
	out->p[w] = 0;
	return GAMEDB_WARN;
}

/*
 * "UTF-8" or "UTF8" in either case, or no name. Letter by letter rather than strcasecmp():
 * every text of a UTF-8 base asks (a comment, a tag).
 */
static TEXT_HOT int is_utf8_name(const char *cs)
{
	if (!cs || !*cs)
		return 1;
	if ((cs[0] | 0x20) != 'u' || (cs[1] | 0x20) != 't' || (cs[2] | 0x20) != 'f')
		return 0;
	cs += 3;
	if (*cs == '-')
		cs++;
	return cs[0] == '8' && cs[1] == 0;
}

int gamedb__text_is_utf8(const char *charset)
{
	return is_utf8_name(charset);
}

void gamedb__text_newlines(struct gamedb__buf *b, size_t off)
{
	char *end = b->p + b->len, *r, *k, *next;
	size_t n;

	if (off >= b->len || (r = memchr(b->p + off, '\r', b->len - off)) == NULL)
		return;
	/* From one CR to the next: the break, then the line after it moved down at once. */
	for (k = r; r; r = next) {
		*k++ = '\n';
		r++;
		if (r < end && *r == '\n')
			r++;
		next = r < end ? memchr(r, '\r', (size_t)(end - r)) : NULL;
		n = (size_t)((next ? next : end) - r);
		memmove(k, r, n);
		k += n;
	}
	b->len = (size_t)(k - b->p);
	b->p[b->len] = 0;
}

/*
 * A charset whose letters take two or four bytes (UTF-16, UCS-2, UTF-32, UCS-4): its bytes are
 * not ASCII text even when every one of them is below 0x80 ("上海" is 0A 4E 77 6D in UTF-16LE),
 * so the pass-through for plain ASCII must not take them.
 */
static TEXT_HOT size_t unit_size(const char *cs);

static TEXT_HOT int is_wide_name(const char *cs)
{
	return unit_size(cs) > 1;
}

/*
 * The bytes of one letter unit of charset cs: 4 (UTF-32, UCS-4), 2 (UTF-16, UCS-2), else 1;
 * the name's start compared letter by letter in either case (UTF-16LE is UTF-16), as
 * is_utf8_name() does: every text asks, and strncasecmp() eight times a text cost 1.2 % of a
 * SCID export.
 */
static TEXT_HOT size_t unit_size(const char *cs)
{
	int ucs;

	if (!cs || (cs[0] | 0x20) != 'u')
		return 1;
	if ((cs[1] | 0x20) == 't' && (cs[2] | 0x20) == 'f')
		ucs = 0;
	else if ((cs[1] | 0x20) == 'c' && (cs[2] | 0x20) == 's')
		ucs = 1;
	else
		return 1;
	cs += 3;
	if (*cs == '-')
		cs++;
	if (ucs)
		return cs[0] == '2' ? 2 : cs[0] == '4' ? 4 : 1;
	return cs[0] == '1' && cs[1] == '6' ? 2 : cs[0] == '3' && cs[1] == '2' ? 4 : 1;
}

static int is_latin1_name(const char *cs)
{
	return strcasecmp(cs, "ISO-8859-1") == 0 || strcasecmp(cs, "LATIN1") == 0 ||
	       strcasecmp(cs, "ISO8859-1") == 0 || strcasecmp(cs, "L1") == 0;
}

/* The cache slot of charset if its converter is open, else -1. */
static int find_slot(const struct gamedb__text *t, const char *charset)
{
	unsigned i;

	for (i = 0; i < GAMEDB__TEXT_CACHE; i++)
		if (t->cache[i].cd && strcasecmp(t->cache[i].name, charset) == 0)
			return (int)i;
	return -1;
}

/* The cache slot of charset (its converter opened on first use), or -1 if the backend lacks it. */
static int get_slot(struct gamedb__text *t, const char *charset)
{
	unsigned i;
	void *cd;
	int found = find_slot(t, charset);

	if (found >= 0)
		return found;
	if (strlen(charset) >= sizeof t->cache[0].name)
		return -1;
	cd = gamedb__conv_open(charset);
	if (!cd)
		return -1;
	i = t->next_slot++ % GAMEDB__TEXT_CACHE;
	if (t->cache[i].cd)
		gamedb__conv_close(t->cache[i].cd);
	drop_table(t, i);
	t->cache[i].cd = cd;
	t->cache[i].uses = 0;
	strcpy(t->cache[i].name, charset);
	return (int)i;
}

/* The cached converter for charset (opened on first use), or NULL if the backend lacks it. */
static void *get_cd(struct gamedb__text *t, const char *charset)
{
	int i = get_slot(t, charset);

	return i < 0 ? NULL : t->cache[i].cd;
}

/*
 * A single-byte charset's texts sixteen bytes at a time (gamedb__text_runs.text), with
 * SSSE3's byte shuffle (x86 processors have had it since 2006; the function is chosen when
 * the processor says it has it, in its AVX2 build, three-operand, when it has that). A byte b
 * of 0xC0-0xFF is the letter c = base + (b & 0x3F), base = 0xC0 + hi_k: its UTF-8 lead is
 * lead0 + carry and its continuation 0x80 | (t & 0x3F), where t = (base & 0x3F) + (b & 0x3F)
 * and carry = t > 0x3F, all byte-wide. The leads (ASCII bytes stay themselves) and the
 * continuations are interleaved into two vectors of eight pairs, and the shuffle keeps each
 * pair's first byte, and its second when the letter has two, closed up. The block's bytes up
 * to the first that is not plain are taken so; that one goes through the table (a line break,
 * a figurine, a byte that costs a warning), and the next block starts after it. The last
 * block of a text of sixteen bytes or more is its last sixteen, moved down over the bytes
 * already taken (zeros after them, which stop the block); a shorter text goes through the
 * table: no byte past the text is read.
 */
/* The rows of gamedb__text_runs.vec: each byte of a row is the same. */
enum { RUN_HI_ON, RUN_T0, RUN_LEAD0 };
/* The rows of gamedb__text_shuffles.k: the run's constants (see shuffles()). */
enum { RUN_CR, RUN_BELOW_HI, RUN_LOW6, RUN_CONT };

/*
 * Byte *p of a text through L's table at o (room as gamedb__text_letters_run() makes it):
 * CR LF or a lone CR one "\n" when CR is flagged a line break, a flagged lost byte counted
 * in *lost with *st WARN. The output's new end; *pp past the byte (and the LF). The one step
 * of every byte the table converts: the sixteen-byte loop's stop bytes and short texts, and
 * gamedb__text_letters_slow().
 */
static inline char *table_letter(char *o, const unsigned char **pp, const unsigned char *end,
				 const struct gamedb__text_letters *L, int32_t *st, size_t *lost)
{
	const unsigned char *p = *pp;
	const size_t e = L->step[*p];

	memcpy(o, &L->e[*p++], 4);
	o += e & GAMEDB__LETTER_LEN;
	if (e & GAMEDB__LETTER_FLAG) {
		if ((e & ~(size_t)GAMEDB__LETTER_LEN) == GAMEDB__LETTER_CR) {
			p += p < end && *p == '\n';
		} else {
			*st = GAMEDB_WARN;
			(*lost)++;
		}
	}
	*pp = p;
	return o;
}

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define TEXT_RUN_X86 1

#define VEC(a) _mm_loadu_si128((const __m128i *)(const void *)(a))
#define TEXT_RUN_BODY                                                                              \
	const struct gamedb__text_runs *const r = &L->runs;                                        \
	const struct gamedb__text_shuffles *const sh = r->sh;                                      \
	const __m128i zero = _mm_setzero_si128(), cr = VEC(sh->k[RUN_CR]);                         \
	const __m128i below_hi = VEC(sh->k[RUN_BELOW_HI]), low6 = VEC(sh->k[RUN_LOW6]);            \
	const __m128i hi_on = VEC(r->vec[RUN_HI_ON]);                                              \
	const __m128i tbase = VEC(r->vec[RUN_T0]), lead0 = VEC(r->vec[RUN_LEAD0]);                 \
	const __m128i cont = VEC(sh->k[RUN_CONT]);                                                 \
	const unsigned char *p = in, *const end = in + len;                                        \
	char *o = *out;                                                                             \
	int32_t st = GAMEDB_OK;                                                                    \
                                                                                                    \
	if (len < 16) {                                                                            \
		while (p < end)                                                                    \
			o = table_letter(o, &p, end, L, &st, lost);                                \
		*out = o;                                                                           \
		return st;                                                                          \
	}                                                                                          \
	while (p < end) {                                                                          \
		const size_t rem = (size_t)(end - p);                                              \
		/* The block: the next sixteen bytes, or the last rem moved down, zeros after. */  \
		const __m128i v = rem >= 16 ? VEC(p) : _mm_shuffle_epi8(VEC(end - 16), VEC(sh->tail[rem])); \
		/* As signed bytes 0xC0-0xFF are -64..-1, ASCII but NUL above 0. */                   \
		const __m128i hi = _mm_and_si128(                                                    \
			_mm_and_si128(_mm_cmplt_epi8(v, zero), _mm_cmpgt_epi8(v, below_hi)), hi_on);  \
		const __m128i ok = _mm_or_si128(                                                     \
			_mm_andnot_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpgt_epi8(v, zero)), hi);        \
		const unsigned okm = (unsigned)_mm_movemask_epi8(ok);                                \
		const unsigned him = (unsigned)_mm_movemask_epi8(hi);                                \
		__m128i t, lead;                                                                     \
		unsigned good, m;                                                                    \
                                                                                                    \
		/* The letters of all sixteen, written whole (ASCII bytes stay themselves: no test   \
		 * for a block of ASCII, which would go either way in a text that mixes them). */    \
		t = _mm_add_epi8(_mm_and_si128(v, low6), tbase);                                     \
		lead = _mm_sub_epi8(lead0, _mm_cmpgt_epi8(t, low6));                                 \
		lead = _mm_or_si128(_mm_and_si128(hi, lead), _mm_andnot_si128(hi, v));               \
		t = _mm_or_si128(_mm_and_si128(t, low6), cont);                                      \
		_mm_storeu_si128((__m128i *)(void *)o,                                               \
				 _mm_shuffle_epi8(_mm_unpacklo_epi8(lead, t), VEC(sh->shuf[him & 0xFF]))); \
		_mm_storeu_si128((__m128i *)(void *)(o + sh->len[him & 0xFF]),                       \
				 _mm_shuffle_epi8(_mm_unpackhi_epi8(lead, t), VEC(sh->shuf[him >> 8]))); \
		if (okm == 0xFFFF) {                                                                 \
			/* All sixteen taken: the next block sixteen bytes on. */                     \
			o += sh->len[him & 0xFF] + sh->len[him >> 8];                                \
			p += 16;                                                                     \
			continue;                                                                    \
		}                                                                                    \
		/* good: the bytes before the first the block cannot take. */                        \
		good = (unsigned)__builtin_ctz(~okm);                                                \
		m = him & ((1u << good) - 1);                                                        \
		o += sh->len[m & 0xFF] + sh->len[m >> 8] - (16 - good);                              \
		p += good;                                                                           \
		if (p >= end)                                                                        \
			break;                                                                       \
		o = table_letter(o, &p, end, L, &st, lost);                                          \
	}                                                                                          \
	*out = o;                                                                                   \
	return st

__attribute__((target("ssse3"))) static int32_t text_ssse3(const struct gamedb__text_letters *L,
							  const unsigned char *in, size_t len,
							  char **out, size_t *lost)
{
	TEXT_RUN_BODY;
}

__attribute__((target("avx2"))) static int32_t text_avx2(const struct gamedb__text_letters *L,
							 const unsigned char *in, size_t len,
							 char **out, size_t *lost)
{
	TEXT_RUN_BODY;
}
#endif

/*
 * The process's shuffles (struct gamedb__text_shuffles), made by the first to ask and
 * published with a compare-and-swap (one that loses the race frees its own); never freed.
 * NULL if out of memory.
 */
static const struct gamedb__text_shuffles *shuffles(void)
{
	static _Atomic(struct gamedb__text_shuffles *) made;
	struct gamedb__text_shuffles *sh = atomic_load_explicit(&made, memory_order_acquire), *none = NULL;
	unsigned m, j;

	if (sh)
		return sh;
	if (!(sh = malloc(sizeof *sh)))
		return NULL;
	for (m = 0; m < 256; m++) {
		unsigned n = 0;
		memset(sh->shuf[m], 0x80, 16); /* 0x80: the shuffle writes a zero there */
		for (j = 0; j < 8; j++) {
			sh->shuf[m][n++] = (unsigned char)(2 * j);
			if (m >> j & 1)
				sh->shuf[m][n++] = (unsigned char)(2 * j + 1);
		}
		sh->len[m] = (unsigned char)n;
	}
	for (m = 0; m < 16; m++)
		for (j = 0; j < 16; j++)
			sh->tail[m][j] = j < m ? (unsigned char)(16 - m + j) : 0x80;
	/* Loaded through sh, where the compiler cannot fold them into three-instruction
	 * broadcasts at every call. */
	memset(sh->k[RUN_CR], '\r', 16);
	memset(sh->k[RUN_BELOW_HI], 0xBF, 16); /* -65 */
	memset(sh->k[RUN_LOW6], 0x3F, 16);
	memset(sh->k[RUN_CONT], 0x80, 16);
	if (atomic_compare_exchange_strong_explicit(&made, &none, sh, memory_order_acq_rel,
						    memory_order_acquire))
		return sh;
	free(sh);
	return none; /* the one published first */
}

/*
 * Sets up tab's runs (gamedb__text_runs.text) once its letters are known: whether 0xC0-0xFF are
 * one range of two-byte letters, and the shuffles that close up eight letters.
 */
static void table_runs(struct gamedb__text_letters *tab)
{
	struct gamedb__text_runs *r = &tab->runs;
	unsigned b;

	r->text = NULL;
	r->sh = NULL;
	r->hi_k = -1;
	if (!tab->ascii)
		return;
	for (b = 0xC0; b < 0x100; b++) {
		unsigned char u[4];
		long cp;
		if (tab->step[b] != 2)
			break;
		memcpy(u, &tab->e[b], 4);
		cp = (long)(u[0] & 0x1F) << 6 | (u[1] & 0x3F);
		if (b == 0xC0)
			r->hi_k = (int)(cp - 0xC0);
		else if (cp - (long)b != r->hi_k)
			break;
	}
	if (b < 0x100 || r->hi_k < 0)
		r->hi_k = -1;
	memset(r->vec, 0, sizeof r->vec);
	if (r->hi_k >= 0) {
		const unsigned base = 0xC0u + (unsigned)r->hi_k;
		memset(r->vec[RUN_HI_ON], 0xFF, 16);
		memset(r->vec[RUN_T0], (int)(base & 0x3F), 16);
		memset(r->vec[RUN_LEAD0], (int)(0xC0 | base >> 6), 16);
	}
	r->sh = shuffles();
	if (!r->sh)
		return;
	gamedb__text_runs_pick(r, 2);
}

int gamedb__text_runs_pick(struct gamedb__text_runs *r, int level)
{
	r->text = NULL;
	if (!r->sh)
		return 0;
#ifdef TEXT_RUN_X86
	if (level >= 2 && __builtin_cpu_supports("avx2")) {
		r->text = text_avx2;
		return 2;
	}
	if (level >= 1 && __builtin_cpu_supports("ssse3")) {
		r->text = text_ssse3;
		return 1;
	}
#else
	(void)level;
#endif
	return 0;
}

/*
 * The table of a single-byte charset, made by converting each of the 256 bytes alone through
 * cd: a byte either becomes 1 to 4 bytes of valid UTF-8 at once (nothing kept back for a
 * flush) or is refused (EILSEQ). Anything else (a byte that starts a longer letter, a shift
 * state, a letter held back to compose with a mark, as CP1255 and CP1258 do) means the charset
 * is not single-byte here: NULL. As a last check the 256 bytes are converted in one call and
 * must give the letters one after the other, so that the table writes exactly what the
 * converter would.
 */
static struct gamedb__text_letters *byte_table(void *cd)
{
	struct gamedb__text_letters *tab = malloc(sizeof *tab);
	char in[256], out[4 * 256 + 16], *ip, *op;
	size_t il, ol, nin = 0, nout = 0, n;
	unsigned b;

	if (!tab)
		return NULL;
	tab->ascii = 1;
	for (b = 0; b < 256; b++) {
		char one = (char)b, got[16];
		ip = &one;
		il = 1;
		op = got;
		ol = sizeof got;
		gamedb__conv(cd, NULL, NULL, NULL, NULL);
		if (gamedb__conv(cd, &ip, &il, &op, &ol) == (size_t)-1) {
			if (errno != EILSEQ || il != 1 || op != got)
				goto not_single;
			/* Refused: U+FFFD with a warning, as convert_iconv() writes it. */
			gamedb__text_letter_set(tab, b, "\xEF\xBF\xBD", 3, GAMEDB__LETTER_WARN);
			if (b < 0x80)
				tab->ascii = 0;
			continue;
		}
		n = (size_t)(op - got);
		if (il != 0 || gamedb__conv(cd, NULL, NULL, &op, &ol) == (size_t)-1 ||
		    (size_t)(op - got) != n || n == 0 || n > 4 ||
		    utf8_valid_prefix((const unsigned char *)got, n) != n)
			goto not_single;
		if (b == 0) /* it would cut the text short: '?' with a warning (gamedb__text_to_utf8()) */
			gamedb__text_letter_set(tab, b, "?", 1, GAMEDB__LETTER_WARN);
		else
			gamedb__text_letter_set(tab, b, got, (unsigned)n, 0);
		if (b < 0x80 && (n != 1 || got[0] != (char)b))
			tab->ascii = 0;
		in[nin++] = (char)b;
		memcpy(out + nout, got, n);
		nout += n;
	}
	{
		char all[sizeof out];
		ip = in;
		il = nin;
		op = all;
		ol = sizeof all;
		gamedb__conv(cd, NULL, NULL, NULL, NULL);
		if (gamedb__conv(cd, &ip, &il, &op, &ol) == (size_t)-1 || il != 0 ||
		    gamedb__conv(cd, NULL, NULL, &op, &ol) == (size_t)-1 ||
		    (size_t)(op - all) != nout || memcmp(all, out, nout) != 0)
			goto not_single;
	}
	gamedb__conv(cd, NULL, NULL, NULL, NULL);
	table_runs(tab);
	return tab;
not_single:
	gamedb__conv(cd, NULL, NULL, NULL, NULL);
	free(tab);
	return NULL;
}

/*
 * The tables of single-byte charsets are the same for every reader of the process: the first
 * to need one makes it (byte_table(), 256 calls of the converter, about 0.3M instructions) and
 * publishes it here by its charset name, with one compare-and-swap into a free place; the
 * others take it from here. A reader that loses the race, or finds no free place, keeps its
 * own. A published table is never changed and never freed (it lives as long as the process).
 */
#define SHARED_TABLES 16
struct shared_entry {
	char name[48];
	struct gamedb__text_letters tab;
};
static _Atomic(struct shared_entry *) shared_tables[SHARED_TABLES];

/*
 * Slot i's table from the process's, or made by its converter and published; NULL if the
 * charset is not single-byte (or out of memory). Sets the slot's table and table_shared.
 */
static void make_table(struct gamedb__text *t, int i)
{
	struct gamedb__text_letters *own;
	struct shared_entry *e;
	unsigned k;

	t->cache[i].table_tried = 1;
	t->cache[i].table_shared = 0;
	for (k = 0; k < SHARED_TABLES; k++) {
		e = atomic_load_explicit(&shared_tables[k], memory_order_acquire);
		if (!e)
			break;
		if (strcasecmp(e->name, t->cache[i].name) == 0) {
			t->cache[i].table = &e->tab;
			t->cache[i].table_shared = 1;
			return;
		}
	}
	own = byte_table(t->cache[i].cd);
	t->cache[i].table = own;
	if (!own || !(e = malloc(sizeof *e)))
		return;
	strcpy(e->name, t->cache[i].name);
	e->tab = *own;
	for (k = 0; k < SHARED_TABLES; k++) {
		struct shared_entry *none = NULL;
		if (atomic_compare_exchange_strong_explicit(&shared_tables[k], &none, e,
							    memory_order_acq_rel, memory_order_acquire)) {
			free(own);
			t->cache[i].table = &e->tab;
			t->cache[i].table_shared = 1;
			return;
		}
	}
	free(e); /* no free place: the reader keeps its own */
}

/* Forgets slot i's table (freed when the reader's own). */
static void drop_table(struct gamedb__text *t, unsigned i)
{
	if (!t->cache[i].table_shared)
		free(t->cache[i].table);
	t->cache[i].table = NULL;
	t->cache[i].table_shared = 0;
	t->cache[i].table_tried = 0;
}

/*
 * The table of the charset in slot i; NULL if it is not single-byte, or before its use
 * number GAMEDB__TEXT_TABLE_AFTER. Making a table costs about as much as 256 texts through
 * the converter (one call a byte): a base with few texts is cheaper without it.
 */
static const struct gamedb__text_letters *get_table(struct gamedb__text *t, int i)
{
	if (!t->cache[i].table_tried && ++t->cache[i].uses >= GAMEDB__TEXT_TABLE_AFTER)
		make_table(t, i);
	return t->cache[i].table;
}

const struct gamedb__text_letters *gamedb__text_table_of(struct gamedb__text *t,
							  const char *charset)
{
	int i;

	if (t->hook || is_utf8_name(charset) || (i = get_slot(t, charset)) < 0)
		return NULL;
	if (!t->cache[i].table_tried)
		make_table(t, i);
	return t->cache[i].table;
}

int gamedb__text_charset_known(struct gamedb__text *t, const char *charset)
{
	if (is_utf8_name(charset) || is_latin1_name(charset))
		return 1;
	return get_cd(t, charset) != NULL;
}

void gamedb__text_letter_set(struct gamedb__text_letters *L, unsigned b, const char *utf8,
			     unsigned len, unsigned flag)
{
	unsigned char e[4] = { 0, 0, 0, 0 };

	memcpy(e, utf8, len);
	memcpy(&L->e[b], e, 4);
	L->step[b] = len | flag;
}

/* gamedb__text_letters_run()'s letters one by one (text.h). */
char *gamedb__text_letters_slow(char *o, const uint8_t **pp, const uint8_t *stop,
				const uint8_t *end, const struct gamedb__text_letters *L, int32_t *st,
				size_t *lost)
{
	const uint8_t *p = *pp;

	/* (an LF after a CR at stop - 1 is taken too: the loop ends past it) */
	do
		o = table_letter(o, &p, end, L, st, lost);
	while (p < stop);
	*pp = p;
	return o;
}

/*
 * len bytes through a single-byte table into out: what the converter gives for the text, a
 * refused byte as U+FFFD and a NUL as '?', each with GAMEDB_WARN, as convert_iconv() and
 * gamedb__text_to_utf8() write them.
 */
static int32_t convert_table(const struct gamedb__text_letters *tab, const unsigned char *in,
			     size_t len, struct gamedb__buf *out)
{
	if (len > (SIZE_MAX - GAMEDB__LETTERS_SLACK - 16) / 4 ||
	    gamedb__buf_room(out, GAMEDB__LETTERS_ROOM(len) + 1) != 0)
		return GAMEDB_FAILED;
	return gamedb__text_letters_run(tab, in, len, out, NULL);
}

static void put_replacement(struct gamedb__buf *out)
{
	memcpy(out->p + out->len, "\xEF\xBF\xBD", 3);
	out->len += 3;
}

/*
 * Converts len bytes through iconv, appended to out (room for 4 * len + 4 is reserved by the
 * caller; out grows when a charset needs more, as TSCII does: up to 12 bytes from one).
 * What iconv writes is checked to be UTF-8 (utf8_repair()). *no_nul (may be NULL) is set
 * when the text went through the charset's table, which writes a NUL as '?' itself (with the
 * warning): the caller need not look for NULs again.
 */
static int32_t convert_iconv(struct gamedb__text *t, const char *charset, const char *in,
			     size_t len, struct gamedb__buf *out, int *no_nul)
{
	const struct gamedb__text_letters *tab;
	void *cd;
	char *ip = (char *)in, *op;
	size_t il = len, ol, start = out->len;
	int32_t rc = GAMEDB_OK;
	int bad = 0, slot;
	/* What a bad letter skips: a byte, or a whole unit of a wide charset (an unpaired UTF-16
	 * surrogate is two bytes; skipping one would read the rest of the text out of step). */
	const size_t unit = unit_size(charset);

	slot = find_slot(t, charset); /* a charset in use: one compare */
	if (slot < 0 && is_latin1_name(charset)) {
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
	if (slot < 0)
		slot = get_slot(t, charset);
	if (slot >= 0 && (tab = get_table(t, slot)) != NULL) {
		if (no_nul)
			*no_nul = 1;
		return convert_table(tab, (const unsigned char *)in, len, out);
	}
	cd = slot >= 0 ? t->cache[slot].cd : NULL;
	if (!cd) {
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
	gamedb__conv(cd, NULL, NULL, NULL, NULL);
	for (;;) {
		/*
		 * Once every byte is read, and before the U+FFFD of a bad byte, the letters the
		 * charset keeps back are flushed: CP1255, CP1258 and TSCII hold a letter until
		 * they see what follows (a combining mark, a vowel sign), and lost the text's
		 * last letter without a word when it was not flushed.
		 */
		int flush = il == 0 || bad;
		size_t r;
		int err;
		op = out->p + out->len;
		ol = out->cap - out->len - 1;
		r = flush ? gamedb__conv(cd, NULL, NULL, &op, &ol)
			 : gamedb__conv(cd, &ip, &il, &op, &ol);
		err = errno;
		out->len = (size_t)(op - out->p);
		if (r != (size_t)-1) {
			if (!flush)
				continue; /* all read: flush next */
			if (!bad)
				break;
			/* An invalid or incomplete sequence: one U+FFFD per unit skipped. */
			if (ol >= 3) {
				const size_t k = unit < il ? unit : il;
				put_replacement(out);
				ip += k;
				il -= k;
				bad = 0;
				rc = GAMEDB_WARN;
				continue;
			}
		} else if (!flush && (err == EILSEQ || err == EINVAL)) {
			bad = 1;
			continue;
		} else if (err != E2BIG) {
			rc = GAMEDB_WARN; /* no other error is documented; stop safely */
			break;
		}
		/*
		 * Out of room (more than 4 bytes out a byte in): start again with twice the room,
		 * not from where iconv stopped: glibc's TSCII loses letters it keeps back when it
		 * stops for room.
		 */
		out->len = start;
		if (gamedb__buf_reserve(out, 2 * (out->cap - start) + 64) != 0) {
			put_replacement(out); /* over the size cap: nothing but a warning */
			rc = GAMEDB_WARN;
			break;
		}
		ip = (char *)in;
		il = len;
		bad = 0;
		rc = GAMEDB_OK;
		gamedb__conv(cd, NULL, NULL, NULL, NULL);
	}
	if (utf8_repair(out, start) != GAMEDB_OK)
		rc = GAMEDB_WARN;
	return rc;
}

/*
 * Counts a text that needed the fallback charset and keeps it (the UTF-8 appended to out from
 * start) as the sample when there is none, cut at a letter to fit.
 */
static void note_fallback(struct gamedb__text *t, const struct gamedb__buf *out, size_t start)
{
	size_t n = out->len - start;

	t->fallback_texts++;
	if (t->fallback_sample[0])
		return;
	t->fallback_file = t->at_file;
	t->fallback_off = t->at_off;
	if (n >= sizeof t->fallback_sample) {
		n = sizeof t->fallback_sample - 1;
		while (n && ((unsigned char)out->p[start + n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(t->fallback_sample, out->p + start, n);
	t->fallback_sample[n] = 0;
	for (size_t i = 0; i < n; i++)
		if (!t->fallback_sample[i] || t->fallback_sample[i] == '\n' ||
		    t->fallback_sample[i] == '\r')
			t->fallback_sample[i] = ' '; /* one line in a message */
	if (!t->fallback_sample[0])
		strcpy(t->fallback_sample, "?");
}

/*
 * UTF-8 text appended to out (room for 4 * len + 32 reserved): valid runs checked and copied
 * at once (utf8_copy_z()), an invalid byte read in the fallback charset (or U+FFFD without
 * one), a NUL written as '?' with a warning. *fell_back is set when the fallback charset was
 * used: what it gives may hold a NUL of its own (the caller's last pass).
 */
static int32_t utf8_to_utf8(struct gamedb__text *t, const char *fallback, const unsigned char *p,
			    size_t len, struct gamedb__buf *out, int *fell_back)
{
	int32_t rc = GAMEDB_OK;
	size_t i = 0;

	for (;;) {
		size_t n = utf8_copy_z(p + i, len - i, out->p + out->len);
		out->len += n;
		i += n;
		if (i == len)
			return rc;
		if (!p[i]) {
			out->p[out->len++] = '?';
			rc = GAMEDB_WARN;
		} else if (fallback && *fallback) {
			if (convert_iconv(t, fallback, (const char *)p + i, 1, out, NULL) != GAMEDB_OK)
				rc = GAMEDB_WARN;
			*fell_back = 1;
			/* A fallback may give more than 4 bytes (TSCII: up to 12): keep the room
			   the rest of the text needs. */
			if (gamedb__buf_room(out, 4 * (len - i) + 32) != 0)
				return GAMEDB_FAILED;
		} else {
			put_replacement(out);
			rc = GAMEDB_WARN;
		}
		i++;
	}
}

int32_t gamedb__text_to_utf8(struct gamedb__text *t, const char *charset, const char *fallback,
			     const char *in, size_t len, struct gamedb__buf *out)
{
	size_t i, start = out->len;
	int32_t rc = GAMEDB_OK;
	int hooked = 0, no_nul = 0;

	/* 4 bytes a byte at most, and the 32 past the text that utf8_copy_z() writes. */
	if (len > (SIZE_MAX - 64) / 4 || gamedb__buf_room(out, 4 * len + 32) != 0)
		return GAMEDB_FAILED;

	const int wide = is_wide_name(charset);

	if (t->hook && (wide || !gamedb__text_is_plain(in, len))) {
		size_t produced = 0;
		int32_t hr = t->hook(t->hook_user_data, is_utf8_name(charset) ? "UTF-8" : charset, in,
				     len, out->p + out->len, out->cap - out->len - 1, &produced);
		if ((hr == GAMEDB_OK || hr == GAMEDB_WARN) && produced <= out->cap - out->len - 1) {
			/* The hook's text is checked like iconv's: it must be UTF-8, without NULs. */
			out->len += produced;
			rc = utf8_repair(out, start) != GAMEDB_OK ? GAMEDB_WARN : hr;
			hooked = 1;
		}
	}

	if (hooked) {
		/* converted */
	} else if (is_utf8_name(charset)) {
		/* UTF-8 (ASCII too), the usual text of a SCID base: its NULs are done. */
		int fell_back = 0;
		rc = utf8_to_utf8(t, fallback, (const unsigned char *)in, len, out, &fell_back);
		if (rc == GAMEDB_FAILED) {
			out->p[out->len] = 0;
			return rc;
		}
		if (!fell_back) {
			out->p[out->len] = 0;
			return rc;
		}
		note_fallback(t, out, start);
	} else if (!wide && gamedb__text_is_plain(in, len)) {
		memcpy(out->p + out->len, in, len);
		out->len += len;
		out->p[out->len] = 0;
		return GAMEDB_OK;
	} else {
		rc = convert_iconv(t, charset, in, len, out, &no_nul);
	}
	/*
	 * NUL bytes inside text would cut C strings short: they become '?', with a warning. They
	 * come from the stored bytes of single-byte charsets, from zero letters of wide charsets
	 * (two zero bytes in UTF-16 or UCS-2, four in UCS-4), from a fallback charset, or from a
	 * hook; not from a single-byte charset's table, which writes them as '?' itself (no_nul).
	 */
	for (i = start; !no_nul && i < out->len; i++) {
		char *z = memchr(out->p + i, 0, out->len - i);
		if (!z)
			break;
		*z = '?';
		rc = GAMEDB_WARN;
		i = (size_t)(z - out->p);
	}
	out->p[out->len] = 0;
	return rc;
}

int32_t gamedb__text_to_utf8_z(struct gamedb__text *t, const char *charset, const char *fallback,
			       const char *in, size_t len, struct gamedb__buf *out, size_t *used,
			       int *same)
{
	const char *nul;
	size_t start = out->len, n;
	int32_t rc;

	if (!t->hook && is_utf8_name(charset)) {
		/*
		 * Valid UTF-8 up to the NUL (or len), the usual text of a SCID base: checked,
		 * copied and its end found in one pass, with room for it and the 32 bytes past
		 * that utf8_copy_z() writes.
		 */
		if (len > SIZE_MAX - 64 || gamedb__buf_room(out, len + 32) != 0)
			return GAMEDB_FAILED;
		n = utf8_copy_z((const unsigned char *)in, len, out->p + start);
		if (n == len || !in[n]) {
			out->len += n;
			out->p[out->len] = 0;
			*used = n;
			*same = 1;
			return GAMEDB_OK;
		}
	}
	/* Another charset, a hook or an invalid byte: the text's end, then the general path. */
	nul = memchr(in, 0, len);
	*used = nul ? (size_t)(nul - in) : len;
	rc = gamedb__text_to_utf8(t, charset, fallback, in, *used, out);
	*same = rc == GAMEDB_OK && out->len - start == *used &&
		memcmp(out->p + start, in, *used) == 0;
	return rc;
}

size_t gamedb__text_complete_len(struct gamedb__text *t, const char *charset, const char *in,
				 size_t len)
{
	const unsigned char *p = (const unsigned char *)in;
	char buf[256], *ip = (char *)in, *op;
	size_t il = len, ol, j;
	void *cd;
	int slot;

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
	slot = get_slot(t, charset);
	if (slot < 0 || t->cache[slot].table)
		return len; /* unknown, or single-byte: nothing can be cut */
	cd = t->cache[slot].cd;
	gamedb__conv(cd, NULL, NULL, NULL, NULL);
	while (il > 0) {
		op = buf;
		ol = sizeof buf;
		if (gamedb__conv(cd, &ip, &il, &op, &ol) != (size_t)-1)
			break;
		if (errno == E2BIG)
			continue;
		if (errno == EINVAL) /* an incomplete letter at the very end */
			return (size_t)(ip - in);
		if (errno != EILSEQ)
			break;
		ip++; /* an invalid byte is not a cut: step over it */
		il--;
		gamedb__conv(cd, NULL, NULL, NULL, NULL);
	}
	return len;
}

void gamedb__text_close(struct gamedb__text *t)
{
	unsigned i;

	for (i = 0; i < GAMEDB__TEXT_CACHE; i++) {
		if (t->cache[i].cd)
			gamedb__conv_close(t->cache[i].cd);
		t->cache[i].cd = NULL;
		drop_table(t, i);
		t->cache[i].uses = 0;
	}
}
