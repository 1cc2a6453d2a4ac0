/*
 * libgamedb - the text layer (lib/text): every byte of database text becomes UTF-8 here.
 * Includes only the bottom layer (util/buf.h) and the public header. Never installed.
 */
#ifndef GAMEDB_TEXT_H
#define GAMEDB_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gamedb/gamedb.h"
#include "util/buf.h"

#define GAMEDB__TEXT_CACHE 4
/* A single-byte charset is read through a table from its use number this on (textconv.c). */
#define GAMEDB__TEXT_TABLE_AFTER 256

struct gamedb__text {
	char charset[48];  /* caller override ("" = the format's default) */
	char fallback[48]; /* caller override of the fallback for invalid UTF-8 ("" = default) */
	gamedb_text_converter_fn hook;
	void *hook_user_data;
	struct {
		char name[48];
		void *cd; /* the converter backend's (text/conv.h) */
		/*
		 * A single-byte charset's 256 letters, converted once by cd (textconv.c,
		 * byte_table()): NULL until tried, or when the charset is not one.
		 */
		struct gamedb__text_letters *table;
		int table_tried;
		int table_shared; /* table is the process's (textconv.c, shared_table()): not freed */
		unsigned uses; /* texts converted, until the table is tried */
	} cache[GAMEDB__TEXT_CACHE];
	unsigned next_slot;
	/*
	 * Texts of UTF-8 charset that held invalid bytes, read in the fallback charset: counted by
	 * gamedb__text_to_utf8(), which keeps the first of them (as UTF-8, cut at a letter) in
	 * fallback_sample while that is empty. The reader core turns them into a warning once per
	 * open and once per game, and empties the sample.
	 */
	uint64_t fallback_texts;
	char fallback_sample[48];
	/*
	 * Where the text being converted is stored, for that warning: a format sets at_file (a
	 * name that lives as long as the reader) and at_off before a conversion whose place it
	 * knows (gamedb__text_at()), NULL after. The sample's place is kept with it.
	 */
	const char *at_file;
	uint64_t at_off;
	const char *fallback_file; /* NULL: the place is not known */
	uint64_t fallback_off;
};

/* Says where the next texts converted are stored (file NULL: not known). */
static inline void gamedb__text_at(struct gamedb__text *t, const char *file, uint64_t off)
{
	t->at_file = file;
	t->at_off = off;
}

/*
 * Converts raw bytes in charset (NULL or "UTF-8": UTF-8, invalid bytes read one by one as
 * fallback) to UTF-8, appended to out and NUL-terminated. What is appended is valid UTF-8
 * without NUL bytes whatever the charset or the converter hook gives (what is not becomes
 * U+FFFD, a NUL '?'). Returns GAMEDB_OK, GAMEDB_WARN (something became U+FFFD or '?'), or
 * GAMEDB_FAILED (out of memory). UTF-8 text with bytes read in the fallback is counted in
 * t->fallback_texts (not a warning here: the core says it once per open and per game).
 */
int32_t gamedb__text_to_utf8(struct gamedb__text *t, const char *charset, const char *fallback,
			     const char *in, size_t len, struct gamedb__buf *out);
/*
 * gamedb__text_to_utf8() of the text at in that ends at its first NUL, or after len bytes when
 * none comes first (the NUL-terminated texts of a record): *used is its length without the
 * NUL, *same 1 when out got its very bytes (and GAMEDB_OK), else 0. Valid UTF-8 is found,
 * checked and copied in one pass.
 */
int32_t gamedb__text_to_utf8_z(struct gamedb__text *t, const char *charset, const char *fallback,
			       const char *in, size_t len, struct gamedb__buf *out, size_t *used,
			       int *same);
/*
 * 1 if the bytes are ASCII with no NUL: text that every supported charset (all keep ASCII)
 * turns into itself, so gamedb__text_to_utf8() passes it through unchanged.
 */
static inline int gamedb__text_is_plain(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	uint64_t w;

	/* Eight bytes at a time: no byte 0x80 or above, none zero. */
	for (; len - i >= 8; i += 8) {
		memcpy(&w, p + i, 8);
		if (gamedb__has_high(w) | gamedb__has_byte(w, 0))
			return 0;
	}
	for (; i < len && p[i] < 0x80 && p[i]; i++)
		;
	return i == len;
}
/*
 * How the letters of eight bytes close up after the run's widening, per mask of which of
 * them are two bytes long: the shuffle and the letters' length; the shuffles that move the
 * last k bytes of a block of sixteen to its start, zeros after (tail[k], k < 16); and the
 * run's constant rows (textconv.c). The same for every charset: one for the process.
 */
struct gamedb__text_shuffles {
	unsigned char shuf[256][16];
	unsigned char len[256];
	unsigned char tail[16][16];
	unsigned char k[4][16];
};
struct gamedb__text_letters;
/*
 * How a single-byte charset's texts are converted sixteen bytes at a time
 * (gamedb__text_letters_run()): text, the function (NULL: none on this machine, or the bytes
 * 0x01-0x7F are not themselves); hi_k, when the bytes 0xC0-0xFF are the letters U+(b + hi_k)
 * of two bytes of UTF-8 each (Latin-1, CP1252, CP1251's Cyrillic), else -1; vec, the
 * charset's rows of the run (textconv.c, TEXT_RUN_BODY); sh, the process's shuffles. Plain
 * data: a format may keep a copy of it.
 *
 * text converts a whole text as gamedb__text_letters_run() does (its room, its letters, its
 * status and lost count), at *out, which moves on past it: the plain bytes (0x01-0x7F but CR
 * and, when the charset has them as one range, 0xC0-0xFF) sixteen at a time, each other byte
 * through the table, in the same loop.
 */
struct gamedb__text_runs {
	int32_t (*text)(const struct gamedb__text_letters *L, const unsigned char *in, size_t len,
			char **out, size_t *lost);
	int hi_k;
	unsigned char vec[3][16];
	const struct gamedb__text_shuffles *sh;
};
/*
 * A single-byte charset as a table of letters, for a conversion loop that reads eight bytes
 * at a time (gamedb__text_letters_run()). e[b] is byte b's letter, 1-4 bytes of UTF-8 in a
 * 32-bit word in memory order; step[b] is how far the output moves: the letter's length
 * (GAMEDB__LETTER_LEN bits), with GAMEDB__LETTER_FLAG for a byte that means more than its
 * letter: GAMEDB__LETTER_WARN, a byte that costs a warning (one the converter refuses, as
 * U+FFFD; a NUL, as '?', which would cut the text short), or GAMEDB__LETTER_CR, a line break
 * (CR LF and a lone CR: one "\n"), which a format may ask for (gamedb__text_letter_set()).
 * Each letter is written as a word and the output moved by its step, a word too, so that
 * the add takes it straight from the table (one load, one store and one add a byte, no
 * test); a flag moves the output far past 4 bytes, so eight letters that moved it past
 * 8 * 4 bytes held one and are done again one by one. Built from the converter itself
 * (textconv.c, byte_table()), so the converter stays the one source of truth; it only saves
 * a converter call per text. Plain data: a format that gives bytes a meaning of its own
 * (ChessBase's figurines) keeps a copy with those set.
 */
enum {
	GAMEDB__LETTER_LEN = 7,
	GAMEDB__LETTER_FLAG = 0x40,
	GAMEDB__LETTER_WARN = GAMEDB__LETTER_FLAG | 0x10,
	GAMEDB__LETTER_CR = GAMEDB__LETTER_FLAG | 0x20
};
/* The room gamedb__text_letters_run() needs past the output for n bytes: eight flagged
 * letters move it GAMEDB__LETTERS_SLACK bytes before the loop sees the flag. */
#define GAMEDB__LETTERS_SLACK (8 * (GAMEDB__LETTER_CR + GAMEDB__LETTER_LEN))
#define GAMEDB__LETTERS_ROOM(n) (4 * (n) + GAMEDB__LETTERS_SLACK + 8)
struct gamedb__text_letters {
	uint32_t e[256];
	size_t step[256];
	int ascii; /* bytes 0x00-0x7F are themselves in the charset (the table may flag NUL, CR) */
	struct gamedb__text_runs runs;
};
/*
 * Sets byte b of L to len (1-4) bytes of letter utf8, with flag (0, GAMEDB__LETTER_WARN or
 * GAMEDB__LETTER_CR). Only for a byte that gamedb__text_letters_run() always reads through
 * the table: CR, NUL, 0x80-0xBF, or any byte from 0x80 in a charset whose 0xC0-0xFF are not
 * one range (runs.hi_k < 0). The runs and the eight-byte ASCII path write the other bytes
 * (0x01-0x7F, and the range) as the charset has them, without the table.
 */
void gamedb__text_letter_set(struct gamedb__text_letters *L, unsigned b, const char *utf8,
			     unsigned len, unsigned flag);
/*
 * gamedb__text_letters_run()'s one-by-one part for the letters from *pp to stop, where one
 * of them is flagged: CR LF and a lone CR are one "\n" (the LF may lie past stop, up to end),
 * a lost byte makes *st GAMEDB_WARN and counts in *lost. *pp is left past them; the output's
 * new end. Out of line (textconv.c): the inline loop stays small.
 */
char *gamedb__text_letters_slow(char *o, const uint8_t **pp, const uint8_t *stop,
				const uint8_t *end, const struct gamedb__text_letters *L, int32_t *st,
				size_t *lost);
/*
 * Eight letters of p through L written at o, no test; the output's new end. restrict: the
 * letters written are no table and no input, so each byte is loaded once and its step added
 * straight from the table (else every store through o, a char pointer, would make the
 * compiler load them again).
 */
static inline char *gamedb__text_letters8(char *restrict o, const uint8_t *restrict p,
					  const struct gamedb__text_letters *restrict L)
{
	int j;

	for (j = 0; j < 8; j++) {
		memcpy(o, &L->e[p[j]], 4);
		o += L->step[p[j]];
	}
	return o;
}

/* gamedb__text_letters8() for the last k (< 8) bytes of a text. */
static inline char *gamedb__text_letters_tail(char *restrict o, const uint8_t *restrict p,
					      size_t k, const struct gamedb__text_letters *restrict L)
{
	size_t j;

	for (j = 0; j < k; j++) {
		memcpy(o, &L->e[p[j]], 4);
		o += L->step[p[j]];
	}
	return o;
}

/*
 * The n bytes at t through L, appended to out as UTF-8 and NUL-terminated (out->len not
 * counting the NUL; GAMEDB__LETTERS_ROOM(n) + 1 bytes of room made by the caller). OK, or
 * WARN when a GAMEDB__LETTER_WARN byte was met: *lost (may be NULL) counts them. Inline: a
 * format's loop over its texts (ChessBase's) saves the call on each.
 */
static inline int32_t gamedb__text_letters_run(const struct gamedb__text_letters *L,
					       const uint8_t *t, size_t n, struct gamedb__buf *out,
					       size_t *lost)
{
	const uint8_t *p = t, *const end = t + n;
	char *o = out->p + out->len, *o1;
	int32_t st = GAMEDB_OK;
	/* Try eight ASCII bytes at once while the eight before were one byte each. */
	int ascii = L->ascii;
	size_t none = 0;
	uint64_t w;

	if (!lost)
		lost = &none;
	if (L->runs.text) {
		/* Where the processor has it: the whole text sixteen bytes at a time. */
		st = L->runs.text(L, t, n, &o, lost);
		out->len = (size_t)(o - out->p);
		out->p[out->len] = 0;
		return st;
	}
	/*
	 * Eight ASCII bytes without CR or NUL at once (tried while the text is ASCII); else
	 * eight letters through the table without a test each, done again one by one if one of
	 * them was flagged (the output moved past four bytes a letter). The last few bytes the
	 * same way.
	 */
	while (end - p >= 8) {
		if (ascii) {
			memcpy(&w, p, 8);
			if (!(gamedb__has_high(w) | gamedb__has_byte(w, '\r') | gamedb__has_byte(w, 0))) {
				memcpy(o, &w, 8);
				o += 8;
				p += 8;
				continue;
			}
		}
		o1 = gamedb__text_letters8(o, p, L);
		if (o1 - o > 8 * 4) {
			o = gamedb__text_letters_slow(o, &p, p + 8, end, L, &st, lost);
			continue;
		}
		ascii = L->ascii & (o1 - o == 8);
		o = o1;
		p += 8;
	}
	if (p < end) {
		o1 = gamedb__text_letters_tail(o, p, (size_t)(end - p), L);
		if ((size_t)(o1 - o) > 4 * (size_t)(end - p))
			o = gamedb__text_letters_slow(o, &p, end, end, L, &st, lost);
		else
			o = o1;
	}
	out->len = (size_t)(o - out->p);
	out->p[out->len] = 0;
	return st;
}

/*
 * Sets r's function to the best this processor has up to level (0: none, 1: SSSE3, 2: AVX2);
 * the level set. The text layer picks level 2 for its tables; tests pick each.
 */
int gamedb__text_runs_pick(struct gamedb__text_runs *r, int level);
/*
 * The table of charset, made now if it was not (not after GAMEDB__TEXT_TABLE_AFTER texts as
 * gamedb__text_to_utf8() does), for a format that converts its own text in one pass with
 * bytes of its own meaning (ChessBase's figurines: a copy with those set): a byte through the
 * table is exactly what gamedb__text_to_utf8() gives for it (U+FFFD with a warning for a byte
 * the converter refuses, '?' with a warning for a NUL). NULL when charset is UTF-8 or not
 * single-byte, when the backend lacks it, or when a converter hook is set (the hook sees
 * every text that is not plain ASCII): then gamedb__text_to_utf8(). Owned by t; valid until
 * the next call of the text layer with t.
 */
const struct gamedb__text_letters *gamedb__text_table_of(struct gamedb__text *t,
							  const char *charset);
/* 1 if charset names UTF-8 (NULL and "" do too: the text layer reads them as UTF-8). */
int gamedb__text_is_utf8(const char *charset);
/*
 * Turns the line breaks of the UTF-8 text in b from offset off on into "\n": CR LF (Windows)
 * and a lone CR (old Mac OS) alike. CR is never part of a longer UTF-8 letter, so this works
 * on converted text of any charset.
 */
void gamedb__text_newlines(struct gamedb__buf *b, size_t off);
/*
 * The length of in without a multibyte letter cut short at its end (in charset), for text
 * from fixed-size fields that a writer filled to the brim: the cut letter is dropped rather
 * than converted to U+FFFD. len when nothing is cut (and for single-byte charsets).
 */
size_t gamedb__text_complete_len(struct gamedb__text *t, const char *charset, const char *in,
				 size_t len);
/* 1 if the bytes are valid UTF-8. */
int gamedb__utf8_valid(const char *s, size_t len);
/* 1 if the converter backend (iconv, or Windows code pages) can convert from this charset. */
int gamedb__text_charset_known(struct gamedb__text *t, const char *charset);
void gamedb__text_close(struct gamedb__text *t);

/*
 * Charset detection (text/detect.c), for single-byte bases that may be Cyrillic (CP1251) or
 * Western (CP1252) without saying which: a format feeds the votes its name tables (and any
 * other stored text), then asks for the winner. Used by ChessBase and Chess Assistant for
 * their `charset-detect` option.
 */
struct gamedb__charset_votes {
	uint64_t cyrillic, latin;
};
void gamedb__charset_vote(struct gamedb__charset_votes *v, const void *text, size_t len);
/* "CP1251" or "CP1252", whichever has more votes; tie (the format's default) when even. */
const char *gamedb__charset_choose(const struct gamedb__charset_votes *v, const char *tie);

#endif /* GAMEDB_TEXT_H */
