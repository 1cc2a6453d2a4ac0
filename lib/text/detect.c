/*
 * libgamedb - charset detection in the text layer: CP1251 (Cyrillic) or CP1252 (Western) for
 * the single-byte bases that hold either without saying which (ChessBase, Chess Assistant).
 *
 * The vote looks at how the bytes >= 0x80 sit in words. A Cyrillic word in CP1251 is a run of
 * such letters with no ASCII letter in it ("Петров"); a Western name in CP1252 has its
 * accented letters among ASCII ones ("Lékó", "Mårdell"). Each run votes with its number of
 * high letters; a lone high byte between non-letters votes for neither.
 */
#include "text/text.h"

static int high_letter(uint8_t c) { return c >= 0xC0 || c == 0xA8 || c == 0xB8; }
static int ascii_letter(uint8_t c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }

void gamedb__charset_vote(struct gamedb__charset_votes *v, const void *text, size_t n)
{
	const uint8_t *p = text;
	size_t i = 0;

	while (i < n) {
		uint64_t hi = 0, lo = 0;
		while (i < n && (high_letter(p[i]) || ascii_letter(p[i]))) {
			if (p[i] >= 0x80)
				hi++;
			else
				lo++;
			i++;
		}
		if (hi >= 2 && lo == 0)
			v->cyrillic += hi;
		else if (hi && lo)
			v->latin += hi;
		if (i < n)
			i++; /* the separator */
	}
}

const char *gamedb__charset_choose(const struct gamedb__charset_votes *v, const char *tie)
{
	if (v->cyrillic > v->latin)
		return "CP1251";
	if (v->latin > v->cyrillic)
		return "CP1252";
	return tie;
}
