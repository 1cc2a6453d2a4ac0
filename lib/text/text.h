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
		struct gamedb__text_table *table;
		int table_tried;
		unsigned uses; /* texts converted, until the table is tried */
	} cache[GAMEDB__TEXT_CACHE];
	unsigned next_slot;
};

/*
 * Converts raw bytes in charset (NULL or "UTF-8": UTF-8, invalid bytes read one by one as
 * fallback) to UTF-8, appended to out and NUL-terminated. What is appended is valid UTF-8
 * without NUL bytes whatever the charset or the converter hook gives (what is not becomes
 * U+FFFD, a NUL '?'). Returns GAMEDB_OK, GAMEDB_WARN (something became U+FFFD or '?'), or
 * GAMEDB_FAILED (out of memory).
 */
int32_t gamedb__text_to_utf8(struct gamedb__text *t, const char *charset, const char *fallback,
			     const char *in, size_t len, struct gamedb__buf *out);
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

#endif /* GAMEDB_TEXT_H */
