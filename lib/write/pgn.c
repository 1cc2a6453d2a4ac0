/*
 * libgamedb - the PGN writer. It uses the public API (tags, the move iterator), so anything it
 * does a caller can do too; for speed only, it takes a run of plain moves and NAGs from the
 * iterator at once (core/cursor.h, write_run()), which passes them as its events would.
 *
 * Two layouts share the code. Both: tags one per line in the game's tag order, a blank line,
 * then the movetext as words wrapped at a margin, where a move number ("12." or "12...") and
 * its SAN are separate words with no space between them, and a word that would pass the
 * margin starts a new line; the game ends with the result, a newline and a blank line.
 * - Scid's export layout (GAMEDB_WRITE_LAYOUT_SCID), so that a SCID base converts to the very
 *   bytes Scid writes: margin 75, a pre-game comment ends its line, newlines of comments kept,
 *   commands joined into the comment where they came.
 * - The export layout every common reader takes (the default): margin 80, no blank line inside
 *   the movetext (a comment's newlines are written as spaces: readers end a game at a blank
 *   line, and a line starting with '%' would be an escape), a command "[%...]" never broken
 *   across lines, the commands of a move first in its one comment, and only the commands other
 *   tools know unless GAMEDB_WRITE_ALL_COMMANDS.
 */
#include <stdio.h>
#include <string.h>

#include "core/cursor.h"
#include "util/buf.h"

#define PGN_WIDTH_SCID 75
#define PGN_WIDTH 80
/* Most games fit in the writer's stack buffer; a longer one moves to the heap. */
#define PGN_INLINE 8192

/* The game's text is collected in out and handed to the sink in one call. */
struct pgnw {
	struct gamedb__buf out;
	size_t col;
	size_t width; /* the margin: no line reaches it */
	int scid;     /* Scid's layout */
	int err;
};

/* The few helpers every move goes through are inlined (GCC, Clang): this runs per word. */
#if defined(__GNUC__) || defined(__clang__)
#define PGN_HOT inline __attribute__((always_inline))
#else
#define PGN_HOT inline
#endif

static PGN_HOT void put(struct pgnw *w, const char *s, size_t len)
{
	if (gamedb__buf_put(&w->out, s, len) != 0)
		w->err = 1;
}

/*
 * The hot paths reserve their room once (a move: its number and SAN; a comment: three times
 * its length, which its words, a line break before each and a space after each cannot pass),
 * then write with the emit_* helpers, which check nothing.
 */
static PGN_HOT int room(struct pgnw *w, size_t extra)
{
	if (gamedb__buf_room(&w->out, extra) != 0) {
		w->err = 1;
		return -1;
	}
	return 0;
}

static PGN_HOT void emit(struct pgnw *w, const char *s, size_t len)
{
	gamedb__copy_small(w->out.p + w->out.len, s, len);
	w->out.len += len;
}

static PGN_HOT void emit_newline(struct pgnw *w)
{
	w->out.p[w->out.len++] = '\n';
	w->col = 0;
}

/*
 * A word that takes cols columns (Scid counts a comment's stored bytes, which can differ from
 * its UTF-8): it starts a new line first when it would reach the margin.
 */
static PGN_HOT void emit_word_cols(struct pgnw *w, const char *s, size_t len, size_t cols)
{
	if (w->col + cols >= w->width && (w->scid || w->col > 0))
		emit_newline(w);
	emit(w, s, len);
	w->col += cols;
}

/*
 * emit_word_cols() of a short word (a move number, a SAN) from a buffer with 8 bytes to read:
 * one copy of constant size, whose bytes past len the next write covers (the room for 8 is
 * reserved).
 */
static PGN_HOT void emit_short(struct pgnw *w, const char *s, size_t len)
{
	if (len > 8) {
		emit_word_cols(w, s, len, len);
		return;
	}
	if (w->col + len >= w->width && (w->scid || w->col > 0))
		emit_newline(w);
	memcpy(w->out.p + w->out.len, s, 8);
	w->out.len += len;
	w->col += len;
}

/* A space, or a new line instead when the space would reach the margin. */
static PGN_HOT void emit_space(struct pgnw *w)
{
	if (w->col + 1 >= w->width) {
		emit_newline(w);
		return;
	}
	w->out.p[w->out.len++] = ' ';
	w->col++;
}

/* The bytes that end a word of free text: space, newline, and the string's NUL. */
static const unsigned char word_end[256] = { [0] = 1, [' '] = 1, ['\n'] = 1 };

/* The length of the word at s: up to a space, a newline or the end of the string. */
static PGN_HOT size_t word_len(const char *s)
{
	const char *p = s;

	while (!word_end[(unsigned char)*p])
		p++;
	return (size_t)(p - s);
}

static void newline(struct pgnw *w)
{
	put(w, "\n", 1);
	w->col = 0;
}

/* A word (emit_word_cols()), with its room checked. */
static void word(struct pgnw *w, const char *s, size_t len)
{
	if (room(w, len + 1) == 0)
		emit_word_cols(w, s, len, len);
}

/* A word of one byte ("{", "(", ...), with its room checked: no copy call. */
static PGN_HOT void word_char(struct pgnw *w, char c)
{
	if (room(w, 2) != 0)
		return;
	if (w->col + 1 >= w->width && (w->scid || w->col > 0))
		emit_newline(w);
	w->out.p[w->out.len++] = c;
	w->col++;
}

/* A space or a line break (emit_space()), with its room checked. */
static PGN_HOT void space(struct pgnw *w)
{
	if (room(w, 1) == 0)
		emit_space(w);
}

/*
 * Free text, word by word: every space and every newline ends a word (so runs of spaces are
 * kept, and a leading delimiter gives an empty word first); a space is written with space(),
 * a newline as a line break. Scid measures columns on the stored bytes, not on the UTF-8
 * it writes; raw (the stored bytes, which split into the same words since every supported
 * charset keeps ASCII) gives those widths. Without raw, the UTF-8 bytes are counted.
 */
/*
 * Free text in the default layout: words split at runs of spaces and newlines, one space
 * between them, so that no line is ever empty; a command "[%...]" is one word, spaces and all,
 * so that no reader sees it cut.
 */
static void text_std(struct pgnw *w, const char *s)
{
	const char *close;
	int first = 1;

	for (;;) {
		size_t n;
		while (*s == ' ' || *s == '\n')
			s++;
		if (!*s)
			break;
		if (s[0] == '[' && s[1] == '%' && (close = strchr(s, ']')) != NULL)
			n = (size_t)(close - s) + 1;
		else
			n = word_len(s);
		if (!first)
			emit_space(w);
		emit_word_cols(w, s, n, n);
		first = 0;
		s += n;
	}
}

/* The k <= fit with s[k - 1] a space and none after it up to fit, or 0: where the word that
 * crosses the margin starts. Eight bytes at a time where the machine allows. */
static PGN_HOT size_t word_start(const char *s, size_t fit)
{
	size_t k = fit;
#if GAMEDB__WORD_SCAN
	while (k >= 8) {
		uint64_t x, m;
		memcpy(&x, s + k - 8, 8);
		m = gamedb__byte_mask(x, ' ');
		if (m)
			return k - 8 + gamedb__last_byte(m) + 1;
		k -= 8;
	}
#endif
	while (k > 0 && s[k - 1] != ' ')
		k--;
	return k;
}

/* The first e >= from, below r, with s[e] a space, or r: where that word ends. */
static PGN_HOT size_t word_end_at(const char *s, size_t from, size_t r)
{
	size_t e = from;
#if GAMEDB__WORD_SCAN
	while (r - e >= 8) {
		uint64_t x, m;
		memcpy(&x, s + e, 8);
		m = gamedb__byte_mask(x, ' ');
		if (m)
			return e + gamedb__first_byte(m);
		e += 8;
	}
#endif
	while (e < r && s[e] != ' ')
		e++;
	return e;
}

/*
 * Scid's layout of free text whose columns are its bytes (text() without raw), a line at a
 * time rather than a word at a time, with the very result of the word loop in text(): the
 * bytes of a line up to a newline of the text that all fit before the margin go out in one
 * copy; where a line overflows, a space at the margin becomes the line break, else the line
 * breaks before the word that crosses the margin (a word at a line's start too: Scid then
 * leaves the line empty), and that word goes out whole, however long. Room for len + len + 8
 * bytes is reserved by text().
 */
static void text_scid(struct pgnw *w, const char *s, size_t len)
{
	const char *end = s + len, *seg;

	while (s < end) {
		/* The text up to its next newline: no line break of its own inside. */
		seg = memchr(s, '\n', (size_t)(end - s));
		if (!seg)
			seg = end;
		for (;;) {
			size_t fit = w->col + 1 < w->width ? w->width - 1 - w->col : 0;
			size_t r = (size_t)(seg - s), k, e;
			if (r <= fit) {
				emit(w, s, r);
				w->col += r;
				s = seg;
				break;
			}
			if (s[fit] == ' ') {
				/* The space that would reach the margin: the line break instead. */
				emit(w, s, fit);
				emit_newline(w);
				s += fit + 1;
				continue;
			}
			/* The word that crosses the margin starts a new line, whole. */
			k = word_start(s, fit);
			e = word_end_at(s, fit + 1, r);
			emit(w, s, k);
			emit_newline(w);
			emit(w, s + k, e - k);
			w->col = e - k;
			s += e;
		}
		if (s < end) { /* the newline of the text */
			emit_newline(w);
			s++;
		}
	}
}

/* The text s of len bytes (strlen(s)), raw its stored bytes or NULL. */
static void text(struct pgnw *w, const char *s, size_t len, const char *raw)
{
	if (len > SIZE_MAX / 4 || room(w, 3 * len + 8) != 0)
		return;
	if (!w->scid) {
		text_std(w, s);
		w->out.p[w->out.len] = 0;
		return;
	}
	if (!raw && w->col < w->width) { /* always so after the "{" before it */
		text_scid(w, s, len);
		w->out.p[w->out.len] = 0;
		return;
	}
	for (;;) {
		size_t n = word_len(s), rn = raw ? word_len(raw) : n;
		emit_word_cols(w, s, n, rn);
		s += n;
		if (raw)
			raw += rn;
		if (!*s)
			break;
		if (*s == '\n')
			emit_newline(w);
		else
			emit_space(w);
		s++;
		if (raw && *raw)
			raw++;
	}
	w->out.p[w->out.len] = 0;
}

/*
 * A comment: "{", its words, "}", each brace a word of its own as Scid writes them. PGN has no
 * escape inside a comment, so a '}' of the text (ChessBase texts have them) would end it early:
 * it is written as ')'.
 */
static void comment(struct pgnw *w, const char *s, size_t len, const char *raw)
{
	struct gamedb__buf fixed;
	char storage[256];
	char *p;

	word_char(w, '{');
	if (!memchr(s, '}', len)) {
		text(w, s, len, raw);
	} else {
		gamedb__buf_init_fixed(&fixed, storage, sizeof storage);
		if (gamedb__buf_append(&fixed, s, len) != 0) {
			w->err = 1;
		} else {
			for (p = fixed.p; (p = strchr(p, '}')) != NULL; p++)
				*p = ')';
			text(w, fixed.p, len, raw);
		}
		gamedb__buf_free(&fixed);
	}
	word_char(w, '}');
}

/*
 * The stored bytes of a comment for Scid's column count (text()): raw when they split into
 * words the same way as the text, else NULL. NULL too when they are the text's very bytes (a
 * UTF-8 base): the text's own widths are theirs.
 */
static const char *raw_for(const char *s, size_t len, const char *raw, size_t raw_len)
{
	const char *a = s, *b = raw;

	if (!raw || (len == raw_len && memcmp(s, raw, len) == 0))
		return NULL;
	for (;;) {
		size_t n = word_len(a), m = word_len(b);
		a += n;
		b += m;
		if (*a != *b)
			return NULL;
		if (!*a)
			return raw;
		a++;
		b++;
	}
}

/*
 * Tags as the PGN standard has them (section 8.1): a tag name is a symbol (it starts with a
 * letter or a digit, at most 255 bytes) made of letters, digits and the underscore only; a
 * tag value is a string token, printing characters between quotes with '"' and '\\' escaped,
 * and no newline, tab or other control character. A value's control bytes (0x01-0x1F, 0x7F)
 * are written as spaces, its UTF-8 as it is (the output is UTF-8 PGN). A tag whose name is not
 * one is not written as a tag, which a reader would choke on, but kept whole in a comment line
 * before the movetext (tag_comment()). Either way the writer returns GAMEDB_WARN and says so in
 * the game's message (tags_note()).
 */
#define PGN_TAG_NAME_MAX 255

/* The bytes of a tag name: 1 a letter or a digit (what it starts with), 2 the underscore. */
static const unsigned char tag_name_byte[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
	['8'] = 1, ['9'] = 1, ['_'] = 2,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1,
	['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
	['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
	['Y'] = 1, ['Z'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
	['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1,
	['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1,
};

/*
 * Whether the eight bytes x are all letters: below 0x80, and with bit 0x20 set (upper case to
 * lower) each from 'a' to 'z' (each byte's sum or difference stays within it: no carry).
 */
static PGN_HOT int tag_name_letters8(uint64_t x)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
	const uint64_t y = x | ones * 0x20;

	return !((x & high) | ((y + ones * (0x7F - 'z')) & high) |
		 ((((y | high) - ones * 'a') & high) ^ high));
}

/*
 * Whether the nlen bytes at name are a tag name of the PGN standard. Most names are letters
 * only, up to 16 of them: two overlapping words say so; the others are read byte by byte.
 */
static PGN_HOT int tag_name_ok(const char *name, size_t nlen)
{
	uint64_t x, y;
	uint32_t a, b;
	size_t i;

	if (nlen >= 4 && nlen <= 16) {
		if (nlen < 8) {
			memcpy(&a, name, 4);
			memcpy(&b, name + nlen - 4, 4);
			if (tag_name_letters8((uint64_t)a | (uint64_t)b << 32))
				return 1;
		} else {
			memcpy(&x, name, 8);
			memcpy(&y, name + nlen - 8, 8);
			if (tag_name_letters8(x) && tag_name_letters8(y))
				return 1;
		}
	}
	if (nlen - 1 >= PGN_TAG_NAME_MAX || tag_name_byte[(unsigned char)name[0]] != 1)
		return 0; /* empty, too long, or not starting with a letter or a digit */
	for (i = 1; i < nlen; i++)
		if (!tag_name_byte[(unsigned char)name[i]])
			return 0;
	return 1;
}

/* The bytes a tag value escapes, replaces or ends at: '"', '\\', the controls, NUL. */
static const unsigned char tag_special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1, [0x7F] = 1,
};

/* Nonzero when one of the eight bytes x is a tag_special byte. */
static PGN_HOT uint64_t tag_special_word(uint64_t x)
{
	return gamedb__has_byte(x, '"') | gamedb__has_byte(x, '\\') | gamedb__has_below(x, 0x20) |
	       gamedb__has_byte(x, 0x7F);
}

static PGN_HOT uint64_t tag_special8(const char *s)
{
	uint64_t x;

	memcpy(&x, s, 8);
	return tag_special_word(x);
}

/*
 * Whether the n bytes at s hold no tag_special byte (reading none outside them): words of
 * eight, the last one overlapping; 4 to 7 bytes as two overlapping halves of one word.
 */
static PGN_HOT int tag_plain(const char *s, size_t n)
{
	uint32_t a, b;
	size_t i;

	if (n < 4) {
		unsigned char any = 0;
		for (i = 0; i < n; i++)
			any |= tag_special[(unsigned char)s[i]];
		return !any;
	}
	if (n < 8) {
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		return !tag_special_word((uint64_t)a | (uint64_t)b << 32);
	}
	for (i = 0; i + 8 < n; i += 8)
		if (tag_special8(s + i))
			return 0;
	return !tag_special8(s + n - 8);
}

/*
 * The bytes of a string token from the n bytes at s (up to a NUL: the text a C string shows),
 * at d, without its quotes: '"' and '\\' escaped, a control byte a space, and
 * in a comment (in_comment) a '}', which would end it, a ')'. Room for 2 * n bytes at d. Adds
 * to *fixed the bytes replaced; returns the end of what it wrote.
 */
static char *tag_string(char *d, const char *s, size_t n, int in_comment, size_t *fixed)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c;
		/* Eight bytes at a time while they hold nothing to escape or replace. */
		if (n - i >= 8 && !tag_special8(s + i) && !(in_comment && memchr(s + i, '}', 8))) {
			memcpy(d, s + i, 8);
			d += 8;
			i += 8;
			continue;
		}
		c = (unsigned char)s[i++];
		if (c == 0)
			break;
		if (c == '"' || c == '\\') {
			*d++ = '\\';
		} else if (c < 0x20 || c == 0x7F || (in_comment && c == '}')) {
			c = c == '}' ? ')' : ' ';
			(*fixed)++;
		}
		*d++ = (char)c;
	}
	return d;
}

/*
 * A tag line; '"' and '\\' in the value are escaped as the PGN standard asks, a control byte is
 * written as a space. Returns the number of bytes replaced, or -1 (nothing written) when the
 * name is not a PGN tag name.
 */
static PGN_HOT long tag_line(struct pgnw *w, const char *name, size_t nlen, const char *value,
			     size_t vlen)
{
	size_t fixed = 0, most = nlen + 2 * vlen + 6;
	char *d;

	/* Room for the worst case (every value byte escaped), then one pass. */
	if (gamedb__buf_room(&w->out, most) != 0) {
		w->err = 1;
		return 0;
	}
	/* Here, next to its copy, the name is read once for both (no store between). */
	if (!tag_name_ok(name, nlen))
		return -1;
	d = w->out.p + w->out.len;
	*d++ = '[';
	gamedb__copy_small(d, name, nlen);
	d += nlen;
	*d++ = ' ';
	*d++ = '"';
	/* Most values have nothing to escape or replace and no NUL: one check, one copy. */
	if (tag_plain(value, vlen)) {
		gamedb__copy_small(d, value, vlen);
		d += vlen;
	} else {
		d = tag_string(d, value, vlen, 0, &fixed);
	}
	*d++ = '"';
	*d++ = ']';
	*d++ = '\n';
	*d = 0;
	w->out.len = (size_t)(d - w->out.p);
	return (long)fixed;
}

/*
 * A tag whose name is not a PGN tag name, on a line of its own before the movetext, as a
 * comment that holds it whole: {[%tag "NAME" "VALUE"]}, name and value as string tokens
 * (tag_string(): a '}' becomes ')', a control byte a space). Returns the bytes replaced.
 */
static size_t tag_comment(struct pgnw *w, const char *name, size_t nlen, const char *value,
			  size_t vlen)
{
	size_t fixed = 0;
	char *d;

	if (nlen > SIZE_MAX / 4 || vlen > SIZE_MAX / 4 ||
	    gamedb__buf_room(&w->out, 2 * nlen + 2 * vlen + 20) != 0) {
		w->err = 1;
		return 0;
	}
	d = w->out.p + w->out.len;
	memcpy(d, "{[%tag \"", 8);
	d = tag_string(d + 8, name, nlen, 1, &fixed);
	memcpy(d, "\" \"", 3);
	d = tag_string(d + 3, value, vlen, 1, &fixed);
	memcpy(d, "\"]}\n", 4);
	d += 4;
	*d = 0;
	w->out.len = (size_t)(d - w->out.p);
	w->col = 0;
	return fixed;
}

/* What the tag section changed, for the game's message. */
struct tagfix {
	size_t names;  /* tags kept in a comment */
	size_t values; /* tags with bytes replaced */
	const char *name, *vname; /* the first of each */
	size_t nlen, vnlen;
};

/* A tag's name for a message: at most 40 bytes (whole UTF-8 characters), a control a '?'. */
static void name_for_message(char *out, const char *name, size_t nlen)
{
	size_t i, n = nlen < 40 ? nlen : 40;

	while (n < nlen && n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80)
		n--; /* not inside a character */
	for (i = 0; i < n && name[i]; i++)
		out[i] = (unsigned char)name[i] < 0x20 || name[i] == 0x7F ? '?' : name[i];
	out[i] = 0;
}

/*
 * Says in the game's message what the tag section changed: after the message the game has
 * (a warning of the reader), unless it says so already (the game written a second time).
 */
static void tags_note(struct gamedb_game *g, const struct tagfix *f)
{
	char note[400], a[48], b[48], more[48] = "", vmore[48] = "";

	name_for_message(a, f->name ? f->name : "", f->name ? f->nlen : 0);
	name_for_message(b, f->vname ? f->vname : "", f->vname ? f->vnlen : 0);
	if (f->names > 1)
		snprintf(more, sizeof more, " (and %zu more)", f->names - 1);
	if (f->values > 1)
		snprintf(vmore, sizeof vmore, " (and %zu more)", f->values - 1);
	if (f->names && f->values)
		snprintf(note, sizeof note, "PGN: tag \"%s\"%s kept in a comment {[%%tag ...]} before "
			 "the moves, its name not a PGN tag name; characters of tag \"%s\"%s replaced "
			 "(a control character by a space, '}' in a comment by ')')", a, more, b, vmore);
	else if (f->names)
		snprintf(note, sizeof note, "PGN: tag \"%s\"%s kept in a comment {[%%tag ...]} before "
			 "the moves, its name not a PGN tag name", a, more);
	else
		snprintf(note, sizeof note, "PGN: characters of tag \"%s\"%s replaced (a control "
			 "character by a space, '}' in a comment by ')')", b, vmore);
	gamedb__game_add_warning(g, note);
}

/* The most one node of a run writes: a space or break, a move number or NAG (16 bytes
 * copied, a break before), a SAN (8 bytes copied, a break before); and how many nodes the
 * room is reserved for at once. */
#define PGN_RUN_NODE 48
#define PGN_RUN_CHUNK 64

/* "0." to "99." in 4 bytes each, NUL-padded: White's move numbers in write_run(). */
static const char move_number[401] =
	"0.\000\0001.\000\0002.\000\0003.\000\0004.\000\0005.\000\0006.\000\0007.\000\0008.\000\0009.\000\000"
	"10.\00011.\00012.\00013.\00014.\00015.\00016.\00017.\00018.\00019.\000"
	"20.\00021.\00022.\00023.\00024.\00025.\00026.\00027.\00028.\00029.\000"
	"30.\00031.\00032.\00033.\00034.\00035.\00036.\00037.\00038.\00039.\000"
	"40.\00041.\00042.\00043.\00044.\00045.\00046.\00047.\00048.\00049.\000"
	"50.\00051.\00052.\00053.\00054.\00055.\00056.\00057.\00058.\00059.\000"
	"60.\00061.\00062.\00063.\00064.\00065.\00066.\00067.\00068.\00069.\000"
	"70.\00071.\00072.\00073.\00074.\00075.\00076.\00077.\00078.\00079.\000"
	"80.\00081.\00082.\00083.\00084.\00085.\00086.\00087.\00088.\00089.\000"
	"90.\00091.\00092.\00093.\00094.\00095.\00096.\00097.\00098.\00099.\000";

/* write_run()'s separator: a space, or a line break where the space would reach the margin. */
static PGN_HOT char *run_space(char *p, size_t *col, size_t width)
{
	if (*col + 1 >= width) {
		*p++ = '\n';
		*col = 0;
	} else {
		*p++ = ' ';
		(*col)++;
	}
	return p;
}

/* write_run()'s word of len bytes (copy >= len of them readable at s), on a new line if it
 * would reach the margin. */
static PGN_HOT char *run_word(char *p, size_t *col, size_t width, const char *s, size_t len,
			      size_t copy)
{
	if (*col + len >= width) {
		*p++ = '\n';
		*col = 0;
	}
	memcpy(p, s, copy);
	*col += len;
	return p + len;
}

/*
 * The run of plain moves and their NAGs the cursor hands out (gamedb__cursor_next(): it starts
 * with a move, and ends at the first item that is not plain), written as the event loop of
 * gamedb_game_write_pgn() writes each of them: a space (or a line break) after the move
 * before, the move number for White or where print_number asks, the SAN, and a NAG as
 * flush_move() writes it; number, SAN and NAG are words of their own. Returns the number of
 * items written, for gamedb__cursor_pass(). The room is reserved once for PGN_RUN_CHUNK items,
 * and words go out with copies of constant size (a ply's SAN has GAMEDB__PLY_SAN = 8 bytes to
 * read, the number buffer 32): this is the loop most of a game's text comes from. A word here
 * is shorter than any margin, so one that would reach it always has words before it on its
 * line: the test of the default layout for a word at a line's start (emit_word_cols()) is not
 * needed.
 */
static size_t write_run(struct pgnw *w, const struct gamedb__run *r, int *print_number,
			int have_move, int nags)
{
	const size_t width = w->width;
	size_t col = w->col, nnags = 0, k = 0, stop;
	struct gamedb__ply pl;
	char *p, num[32];

	for (; k < r->n; k = stop) {
		if (room(w, (PGN_RUN_CHUNK + 1) * PGN_RUN_NODE) != 0)
			break;
		p = w->out.p + w->out.len;
		stop = r->n - k > PGN_RUN_CHUNK ? k + PGN_RUN_CHUNK : r->n;
		if (*print_number) {
			/*
			 * The run's first move, after a comment or a variation: its number even for
			 * Black ("12..."), the SAN right after it; the loop writes the rest (White's
			 * number as for any of its moves).
			 */
			*print_number = 0;
			gamedb__run_ply(r, k, &pl);
			if (pl.colour) {
				size_t len = gamedb__put_u64(num, pl.num);
				memcpy(num + len, "...", 4);
				if (have_move)
					p = run_space(p, &col, width);
				p = run_word(p, &col, width, num, len + 3, 16);
				have_move = 0;
			}
		}
		for (; k < stop; k++) {
			size_t len;
			gamedb__run_ply(r, k, &pl);
			if (pl.type == GAMEDB_EVENT_MOVE && pl.kind == GAMEDB__PLY_SAN_SET) {
				const uint32_t mn = pl.num;
				nnags = 0;
				if (have_move)
					p = run_space(p, &col, width);
				have_move = 1;
				if (pl.colour == 0) { /* White: "12." */
					if (mn < 100) {
						len = mn < 10 ? 2 : 3;
						p = run_word(p, &col, width, move_number + 4 * mn, len, 4);
					} else {
						len = gamedb__put_u64(num, mn);
						num[len++] = '.';
						p = run_word(p, &col, width, num, len, 16);
					}
				}
				p = run_word(p, &col, width, gamedb__run_san(r, k), pl.san_len,
					     GAMEDB__PLY_SAN);
				continue;
			}
			if (!gamedb__ply_plain(r, &pl))
				break;
			/* A NAG: as the event loop keeps them, at most 16 a move. */
			if (!nags || nnags++ >= 16)
				continue;
			num[0] = '$';
			len = 1 + gamedb__put_u64(num + 1, pl.num);
			p = run_space(p, &col, width);
			p = run_word(p, &col, width, num, len, 16);
		}
		*p = 0;
		w->out.len = (size_t)(p - w->out.p);
		if (k < stop)
			break;
	}
	w->col = col;
	*print_number = 0;
	return k;
}

/* What follows a move until the next move or variation: its NAGs and its comment. */
struct pending {
	int have_move;
	size_t nnags;
	int32_t nags[16];
	struct gamedb__buf comment;
	/*
	 * Or the comment as the game's own text, not copied (view_len bytes): the usual single
	 * comment after a move. It is copied into comment (pending_own()) once more is added.
	 */
	const char *view;
	size_t view_len;
	struct gamedb__buf raw; /* the stored bytes of comment, once has_raw */
	int has_raw; /* a part of comment has stored bytes other than its text */
	struct gamedb__buf cmds; /* default layout: the move's commands, written first */
	int last_command; /* the comment so far ends with a command */
};

/* Whether the default layout writes a command ("%cal Gd4"): those other tools read. */
static int common_command(const char *cmd)
{
	static const char *const known[] = { "%cal", "%csl", "%clk", "%emt", "%eval" };
	size_t i, n;

	for (i = 0; i < sizeof known / sizeof known[0]; i++) {
		n = strlen(known[i]);
		if (strncmp(cmd, known[i], n) == 0 && (cmd[n] == ' ' || cmd[n] == 0))
			return 1;
	}
	return 0;
}

/* Makes a pending comment that is a view of the game's text (struct pending) its own copy. */
static void pending_own(struct pgnw *w, struct pending *pm)
{
	if (pm->view) {
		if (gamedb__buf_append(&pm->comment, pm->view, pm->view_len) != 0)
			w->err = 1;
		pm->view = NULL;
		pm->view_len = 0;
	}
}

/*
 * Adds a command ("%csl Gd4") to the pending comment as "[%csl Gd4]", a space away from what
 * is there already.
 */
static void pending_command(struct pgnw *w, struct pending *pm, const char *cmd)
{
	struct gamedb__buf *b[2] = { &pm->comment, &pm->raw };
	int k;

	pending_own(w, pm);
	if (!w->scid) {
		if ((pm->cmds.len && gamedb__buf_putc(&pm->cmds, ' ') != 0) ||
		    gamedb__buf_putc(&pm->cmds, '[') != 0 ||
		    gamedb__buf_append(&pm->cmds, cmd, strlen(cmd)) != 0 ||
		    gamedb__buf_putc(&pm->cmds, ']') != 0)
			w->err = 1;
		return;
	}
	for (k = 0; k < (pm->has_raw ? 2 : 1); k++) {
		if ((b[k]->len && gamedb__buf_putc(b[k], ' ') != 0) ||
		    gamedb__buf_putc(b[k], '[') != 0 ||
		    gamedb__buf_append(b[k], cmd, strlen(cmd)) != 0 ||
		    gamedb__buf_putc(b[k], ']') != 0)
			w->err = 1;
	}
	pm->last_command = 1;
}

/* Whether a move waits with more than its space: NAGs, a comment, commands. */
static PGN_HOT int pending_more(const struct pending *pm)
{
	return pm->nnags | pm->comment.len | pm->view_len | pm->cmds.len;
}

/* Writes what follows the pending move (see pending_more()) and the space after it. */
static void flush_move(struct pgnw *w, struct pending *pm, int *print_number)
{
	size_t i;
	char num[16];

	if (!pm->have_move)
		return;
	if (!pending_more(pm)) {
		space(w);
		pm->have_move = 0;
		pm->last_command = 0;
		return;
	}
	for (i = 0; i < pm->nnags; i++) {
		num[0] = '$';
		space(w);
		if (room(w, 16) == 0) /* "$" and at most 10 digits, 8 bytes copied at least */
			emit_short(w, num, 1 + gamedb__put_u64(num + 1, (uint32_t)pm->nags[i]));
	}
	space(w);
	if (pm->cmds.len) {
		pending_own(w, pm);
		/* The default layout: the commands first, then the text, in one comment. */
		if ((pm->comment.len && (gamedb__buf_putc(&pm->cmds, ' ') != 0 ||
					 gamedb__buf_append(&pm->cmds, pm->comment.p,
							    pm->comment.len) != 0)))
			w->err = 1;
		comment(w, pm->cmds.p, pm->cmds.len, NULL);
		space(w);
		*print_number = 1;
	} else if (pm->view) { /* the one comment, as the game holds it */
		comment(w, pm->view, pm->view_len, NULL);
		space(w);
		*print_number = 1;
	} else if (pm->comment.len) {
		comment(w, pm->comment.p, pm->comment.len,
			pm->has_raw ? raw_for(pm->comment.p, pm->comment.len, pm->raw.p, pm->raw.len)
				    : NULL);
		space(w);
		*print_number = 1;
	}
	pm->have_move = 0;
	pm->last_command = 0;
	pm->nnags = 0;
	pm->view = NULL;
	pm->view_len = 0;
	gamedb__buf_clear(&pm->comment);
	gamedb__buf_clear(&pm->raw);
	pm->has_raw = 0;
	gamedb__buf_clear(&pm->cmds);
}

/*
 * The tag section: the tags as PGN has them, in the game's order, the blank line, then the
 * tags whose names PGN does not allow, each whole in a comment line (tag_comment()). What
 * was changed goes to fix.
 */
static void tag_section(struct pgnw *w, struct gamedb_game *g, int partial,
				      struct tagfix *fix)
{
	size_t i, n = gamedb_game_get_tag_count(g);

	for (i = 0; i < n; i++) {
		const char *name, *value;
		size_t nlen, vlen;
		long fixed;
		if (gamedb__game_tag_at(g, i, &name, &nlen, &value, &vlen) != 0)
			continue;
		/* A game written in part has no result: its Result tag says so, as the movetext. */
		if (partial && nlen == 6 && memcmp(name, "Result", 6) == 0) {
			value = "*";
			vlen = 1;
		}
		fixed = tag_line(w, name, nlen, value, vlen);
		if (fixed < 0 && !fix->names++) { /* kept in a comment below */
			fix->name = name;
			fix->nlen = nlen;
		} else if (fixed > 0 && !fix->values++) {
			fix->vname = name;
			fix->vnlen = nlen;
		}
	}
	put(w, "\n", 1);
	for (i = 0; fix->names && i < n; i++) {
		const char *name, *value;
		size_t nlen, vlen;
		if (gamedb__game_tag_at(g, i, &name, &nlen, &value, &vlen) == 0 &&
		    !tag_name_ok(name, nlen) && tag_comment(w, name, nlen, value, vlen) &&
		    !fix->values++) {
			fix->vname = name;
			fix->vnlen = nlen;
		}
	}
}

GAMEDB_EXPORT int32_t gamedb_game_write_pgn(struct gamedb_game *g, uint32_t flags,
					    gamedb_write_fn sink, void *user_data)
{
	struct pgnw w;
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	uint32_t iflags = 0;
	int32_t rc;
	int print_number = 1, moves_seen = 0, xiangqi, partial = 0;
	int32_t notation = GAMEDB_NOTATION_SAN;
	struct pending pm;
	struct tagfix fix;
	struct gamedb__run run;
	unsigned runs;
	char num[24], storage[PGN_INLINE];

	if (!g || !sink)
		return GAMEDB_FAILED;
	memset(&pm, 0, sizeof pm);
	memset(&w, 0, sizeof w);
	memset(&fix, 0, sizeof fix);
	gamedb__buf_init_fixed(&w.out, storage, sizeof storage);
	w.scid = (flags & GAMEDB_WRITE_LAYOUT_SCID) != 0;
	w.width = w.scid ? PGN_WIDTH_SCID : PGN_WIDTH;
	if (flags & GAMEDB_WRITE_NO_COMMENTS)
		iflags |= GAMEDB_ITER_SKIP_COMMENTS;
	if (flags & GAMEDB_WRITE_NO_VARIATIONS)
		iflags |= GAMEDB_ITER_MAINLINE_ONLY;
	if (flags & GAMEDB_WRITE_PARTIAL)
		iflags |= GAMEDB_ITER_PARTIAL;
	gamedb__game_want_san(g); /* every move's SAN: made as the decoder plays the moves */
	rc = gamedb_move_iter_new(g, iflags, &it);
	if (rc == GAMEDB_WARN && (flags & GAMEDB_WRITE_PARTIAL))
		partial = 1; /* the moves before the failure, then a comment saying where */
	else if (rc != GAMEDB_OK)
		return GAMEDB_FAILED;
	/* Xiangqi movetext: ICCS unless the caller asks for WXF or Chinese. */
	xiangqi = gamedb_game_get_variant(g) == GAMEDB_VARIANT_XIANGQI;
	if (xiangqi)
		notation = (flags & GAMEDB_WRITE_CHINESE) ? GAMEDB_NOTATION_CHINESE :
			   (flags & GAMEDB_WRITE_WXF) ? GAMEDB_NOTATION_WXF : GAMEDB_NOTATION_ICCS;

	/* Runs of plain moves and their NAGs at once, but for xiangqi: it writes ICCS, not the
	 * moves' own notation (WXF). */
	runs = xiangqi ? 0 : GAMEDB__RUN_MOVES | GAMEDB__RUN_NAGS;
	tag_section(&w, g, partial, &fix);

	for (;;) {
		int32_t type;
		if (gamedb__cursor_next(it, runs, &run, &ev) != GAMEDB_OK)
			break;
		if (run.n) {
			size_t k;
			if (pm.have_move && pending_more(&pm))
				flush_move(&w, &pm, &print_number);
			k = write_run(&w, &run, &print_number, pm.have_move,
					     !(flags & GAMEDB_WRITE_NO_NAGS));
			if (!k)
				break; /* no room (w.err): the game fails, nothing more to write */
			gamedb__cursor_pass(it, &run, k);
			pm.have_move = 1;
			moves_seen = 1;
			continue;
		}
		type = gamedb_event_get_type(ev);
		switch (type) {
		case GAMEDB_EVENT_MOVE: {
			int32_t colour, mn = gamedb_event_get_move_number(ev, &colour);
			size_t san_len;
			const char *san = xiangqi ? gamedb_event_get_notation(ev, notation) :
					   gamedb__event_san(ev, &san_len);
			if (xiangqi)
				san_len = strlen(san);
			if (pm.have_move && pending_more(&pm))
				flush_move(&w, &pm, &print_number);
			/* The room for all of it: a space, the number, the SAN, a break before each. */
			if (san_len > SIZE_MAX / 2 || room(&w, san_len + 32) != 0)
				break;
			if (pm.have_move) /* the space after the move before */
				emit_space(&w);
			if (colour == 0 || print_number) {
				size_t k = gamedb__put_u64(num, (uint32_t)mn);
				memcpy(num + k, "...", 4);
				k += colour ? 3 : 1;
				emit_short(&w, num, k);
			}
			/* Every SAN buffer has 8 bytes to read (a node's, the iterator's: gamedb__event_san()). */
			if (xiangqi)
				emit_word_cols(&w, san, san_len, san_len);
			else
				emit_short(&w, san, san_len);
			w.out.p[w.out.len] = 0;
			print_number = 0;
			pm.have_move = 1;
			break;
		}
		case GAMEDB_EVENT_NAG:
			if (!(flags & GAMEDB_WRITE_NO_NAGS) && pm.have_move &&
			    pm.nnags < sizeof pm.nags / sizeof pm.nags[0])
				pm.nags[pm.nnags++] = gamedb_event_get_nag(ev);
			break;
		case GAMEDB_EVENT_COMMENT_AFTER:
		case GAMEDB_EVENT_COMMENT_BEFORE: {
			const char *t = gamedb_event_get_text(ev);
			const char *raw = gamedb_event_get_text_raw(ev, NULL);
			const char *lang;
			size_t tl;
			if (raw == t)
				raw = NULL; /* the text is its stored bytes */
			if (type == GAMEDB_EVENT_COMMENT_AFTER && pm.have_move && !raw &&
			    !pm.has_raw && !pm.comment.len && !pm.view) {
				/* The first comment of the move, its text its stored bytes: no copy. */
				pm.last_command = 0;
				tl = strlen(t);
				if (tl) {
					pm.view = t;
					pm.view_len = tl;
				}
				break;
			}
			if (type == GAMEDB_EVENT_COMMENT_AFTER && pm.have_move) {
				lang = gamedb_event_get_language(ev);
				pending_own(&w, &pm);
				/*
				 * The stored bytes are kept beside the text only once a part has
				 * bytes of its own: until then they are the text's.
				 */
				if (raw && !pm.has_raw) {
					gamedb__buf_clear(&pm.raw);
					if (gamedb__buf_append(&pm.raw, pm.comment.p ? pm.comment.p : "",
							       pm.comment.len) != 0)
						w.err = 1;
					pm.has_raw = 1;
				}
				/*
				 * Several comments on one move are joined, as Scid joins them (its
				 * comments have no language); text after a command, or in a
				 * language, stands a space apart.
				 */
				if ((pm.comment.len && (pm.last_command || (lang && *lang))) &&
				    (gamedb__buf_putc(&pm.comment, ' ') != 0 ||
				     (pm.has_raw && gamedb__buf_putc(&pm.raw, ' ') != 0)))
					w.err = 1;
				pm.last_command = 0;
				if (gamedb__buf_append(&pm.comment, t, strlen(t)) != 0 ||
				    (pm.has_raw && gamedb__buf_append(&pm.raw, raw ? raw : t,
								      strlen(raw ? raw : t)) != 0))
					w.err = 1;
				break;
			}
			flush_move(&w, &pm, &print_number);
			if (!*t)
				break;
			tl = strlen(t);
			comment(&w, t, tl, raw_for(t, tl, raw, raw ? strlen(raw) : 0));
			space(&w);
			if (w.scid && !moves_seen && gamedb_event_get_depth(ev) == 0)
				newline(&w); /* Scid: the pre-game comment ends its line */
			print_number = 1;
			break;
		}
		case GAMEDB_EVENT_CLOCK:
		case GAMEDB_EVENT_COMMAND: {
			const char *cmd = gamedb_event_get_text(ev);
			if (flags & GAMEDB_WRITE_NO_COMMANDS)
				break;
			if (!w.scid && !(flags & GAMEDB_WRITE_ALL_COMMANDS) && !common_command(cmd))
				break;
			if (pm.have_move) {
				pending_command(&w, &pm, cmd);
				break;
			}
			/* Before any move of its line: a comment of its own. */
			flush_move(&w, &pm, &print_number);
			pending_command(&w, &pm, cmd);
			if (w.scid)
				comment(&w, pm.comment.p, pm.comment.len, NULL);
			else
				comment(&w, pm.cmds.p, pm.cmds.len, NULL);
			space(&w);
			gamedb__buf_clear(&pm.comment);
			gamedb__buf_clear(&pm.raw);
			gamedb__buf_clear(&pm.cmds);
			pm.has_raw = 0;
			pm.last_command = 0;
			print_number = 1;
			break;
		}
		case GAMEDB_EVENT_VARIATION_BEGIN:
			flush_move(&w, &pm, &print_number);
			word_char(&w, '(');
			space(&w);
			print_number = 1;
			break;
		case GAMEDB_EVENT_VARIATION_END:
			flush_move(&w, &pm, &print_number);
			word_char(&w, ')');
			space(&w);
			print_number = 1;
			break;
		case GAMEDB_EVENT_RESULT: {
			const char *res = gamedb_event_get_text(ev);
			flush_move(&w, &pm, &print_number);
			if (partial) {
				char why[400];
				snprintf(why, sizeof why, "gamedb: the game could not be read past here: %s",
					 gamedb_game_errmsg(g));
				comment(&w, why, strlen(why), NULL);
				space(&w);
				res = "*";
			}
			word(&w, res, strlen(res));
			break;
		}
		default:
			break;
		}
		if (type == GAMEDB_EVENT_MOVE)
			moves_seen = 1;
	}
	gamedb_move_iter_free(it);
	gamedb__buf_free(&pm.comment);
	gamedb__buf_free(&pm.raw);
	gamedb__buf_free(&pm.cmds);
	put(&w, "\n\n", 2);
	rc = w.err || sink(user_data, w.out.p, w.out.len) != 0 ? GAMEDB_FAILED : GAMEDB_OK;
	gamedb__buf_free(&w.out);
	if (rc == GAMEDB_OK && (fix.names || fix.values)) {
		tags_note(g, &fix);
		rc = GAMEDB_WARN;
	}
	if (rc == GAMEDB_OK && (partial || gamedb_game_get_status(g) == GAMEDB_WARN))
		rc = GAMEDB_WARN;
	return rc;
}
