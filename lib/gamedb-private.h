/*
 * libgamedb - definitions shared by the library's own files. Never installed.
 */
#ifndef GAMEDB_PRIVATE_H
#define GAMEDB_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gamedb/gamedb.h"
#include "board/board.h"
#include "board/xiangqi.h"

#if defined(__GNUC__)
#define GAMEDB__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GAMEDB__PRINTF(a, b)
#endif

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
/* Keeps the memory, forgets the content. */
static inline void gamedb__buf_clear(struct gamedb__buf *b) { b->len = 0; if (b->p) b->p[0] = 0; }

/* ---- I/O layer (lib/io) --------------------------------------------------------------- */

/*
 * One open file of a database. Formats read it only through gamedb__file_view().
 *
 * Files on disk and caller I/O are read with pread() (or the caller's read_at) into a window,
 * never mapped: another program may shrink or rewrite a base while it is read, and a mapped
 * page past the new end would kill the process with SIGBUS. A view is served from the window
 * when it lies inside it; otherwise the window is refilled. Small files are read whole on the
 * first view; large ones through a window that grows while the reads run forward (doc/io.md).
 */
struct gamedb__file {
	char *name;           /* as given or derived ("dir/base.sg4"), for messages */
	uint64_t size;        /* at open: views never reach past it, so a file that grows is
	                         read as it was, and one that shrinks is an error, not a crash */
	const uint8_t *map;   /* memory files: the whole file; else NULL */
	int kind;             /* GAMEDB__FILE_* */
	int fd;               /* files on disk */
	void *handle;         /* caller I/O */
	struct gamedb__src *src;
	struct gamedb__buf win;  /* read window: win.len bytes from offset win_off */
	uint64_t win_off;
	size_t chunk;         /* how much the next refill asks for (adapts to the access pattern) */
	uint64_t dev, ino;    /* files on disk: identity, for gamedb_reader_uses_file() */
	int has_id;
};

enum { GAMEDB__FILE_MEM = 2, GAMEDB__FILE_FD = 3, GAMEDB__FILE_CALLER = 4 };

enum { GAMEDB__SRC_NONE = 0, GAMEDB__SRC_PATH = 1, GAMEDB__SRC_MEMSET = 2, GAMEDB__SRC_CALLER = 3 };

/* Where a database's files come from: a path, a set of memory files, or caller I/O. */
struct gamedb__src {
	int kind;
	char *primary;               /* the name the database was opened by */
	/* memory set */
	size_t nmem;
	char **mem_names;
	const void **mem_data;
	size_t *mem_sizes;
	/* caller I/O */
	struct gamedb_io io;
	void *io_user_data;
	struct gamedb_reader *reader; /* for error messages */
	struct gamedb__file *files[16]; /* ChessBase bases have up to 9 files */
	size_t nfiles;
	struct gamedb__archive *archive; /* an unpacked archive the memory set shows (owned) */
};

/*
 * Opens a file of the database: name NULL = the primary file; otherwise the primary name with
 * its extension replaced by ext (".sg4"), tried in the case of the primary's extension first
 * (BASE.SI4 has BASE.SG4) and then in the other. Returns 0, or -1 with the reader's error set
 * (E_IO, naming the file) unless quiet is set; out of memory and a source that holds no more
 * files are reported even when quiet. Files stay open until the source is closed.
 */
int gamedb__src_open(struct gamedb__src *src, const char *ext, int quiet, struct gamedb__file **out);
/* The primary name with its extension replaced by ext (malloc'd), or NULL. */
char *gamedb__src_sibling_name(const struct gamedb__src *src, const char *ext);
void gamedb__src_close(struct gamedb__src *src);
/*
 * 1 if path names (following symbolic links) one of the files on disk that src has open, 0 if
 * not or if path does not exist, -1 if it cannot be told (errno set).
 */
int gamedb__src_uses_path(const struct gamedb__src *src, const char *path);

/*
 * A view of len bytes at off. On success *out points at the bytes, valid until the next view
 * of the same file (memory files: until the source is closed). Returns the number of bytes
 * available (len, or fewer at the end of the file as it was at open), or -1 on an I/O error,
 * which includes a file that became shorter than it was at open (error set, naming the file
 * and the offset).
 */
int64_t gamedb__file_view(struct gamedb__file *f, uint64_t off, size_t len, const uint8_t **out);

/* ---- text layer (lib/text) ------------------------------------------------------------ */

#define GAMEDB__TEXT_CACHE 4

struct gamedb__text {
	char charset[48];  /* caller override ("" = the format's default) */
	char fallback[48]; /* caller override of the fallback for invalid UTF-8 ("" = default) */
	gamedb_text_converter_fn hook;
	void *hook_user_data;
	struct {
		char name[48];
		void *cd; /* iconv_t */
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
	size_t i;

	for (i = 0; i < len && p[i] < 0x80 && p[i]; i++)
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
/* 1 if iconv can convert from this charset. */
int gamedb__text_charset_known(struct gamedb__text *t, const char *charset);
void gamedb__text_close(struct gamedb__text *t);

/* ---- games and the move buffer --------------------------------------------------------- */

/* A position of either board; which one is the game's variant's business. */
union gamedb__anypos {
	struct gamedb__pos c;    /* chess, Chess960 */
	struct gamedb__xqpos x;  /* xiangqi */
};

/* Plays a completed legal move on a position of the given variant. */
static inline void gamedb__any_make(int32_t variant, union gamedb__anypos *pos,
				    const struct gamedb__move *m)
{
	if (variant == GAMEDB_VARIANT_XIANGQI)
		gamedb__xq_make(&pos->x, m);
	else
		gamedb__pos_make(&pos->c, m);
}

/* The FEN of a position of the given variant (see gamedb__pos_to_fen()). */
static inline size_t gamedb__any_to_fen(int32_t variant, const union gamedb__anypos *pos,
					char *buf, size_t cap)
{
	if (variant == GAMEDB_VARIANT_XIANGQI)
		return gamedb__xq_to_fen(&pos->x, buf, cap);
	return gamedb__pos_to_fen(&pos->c, buf, cap);
}

/* One event of a decoded game, in iteration order. */
struct gamedb__node {
	struct gamedb__move m; /* MOVE: the completed legal move */
	uint8_t type;          /* GAMEDB_EVENT_* */
	uint8_t reserved[3];   /* [0]: GAMEDB__NODE_RAW when the stored bytes follow the text;
				  [1]: comments: language (ChessBase code, 0 = unknown/all);
				  ANNOTATION: the format's type code */
	uint32_t val;          /* NAG number; COMMENT: offset of the UTF-8 text in text pool */
};

/*
 * Languages of comments (struct gamedb__node reserved[1]). The library numbers them as
 * ChessBase does, the one format that stores them; 0 = unknown or every language.
 */
enum {
	GAMEDB__LANG_ALL = 0x00,
	GAMEDB__LANG_ENGLISH = 0x2A,
	GAMEDB__LANG_SPANISH = 0x2B,
	GAMEDB__LANG_FRENCH = 0x31,
	GAMEDB__LANG_GERMAN = 0x35,
	GAMEDB__LANG_ITALIAN = 0x46,
	GAMEDB__LANG_DUTCH = 0x67,
	GAMEDB__LANG_POLISH = 0x74,
	GAMEDB__LANG_PORTUGUESE = 0x75
};
/* The ISO 639-1 code of a language number ("en", "de", ...); "" for 0 and unknown numbers. */
const char *gamedb__language_iso(unsigned code);
/* The language number of an ISO 639-1 code (either case), or -1 if unknown. */
int gamedb__language_code(const char *iso);

/*
 * A text node whose stored (unconverted) bytes follow its UTF-8 text and its NUL, themselves
 * NUL-terminated. An ANNOTATION node's text is its payload in hex, so its stored bytes (which
 * may hold NULs) number half the text's length.
 */
#define GAMEDB__NODE_RAW 1

struct gamedb__movebuf {
	struct gamedb__node *nodes;
	size_t n;
	size_t cap;
	struct gamedb__buf text; /* NUL-separated comment texts */
	int32_t status;          /* GAMEDB_OK, GAMEDB_WARN (lossy text), GAMEDB_FAILED (decode error) */
};

int gamedb__mb_move(struct gamedb__movebuf *mb, const struct gamedb__move *m);
int gamedb__mb_event(struct gamedb__movebuf *mb, int type, uint32_t val);
/* Adds a comment given as UTF-8. */
int gamedb__mb_comment(struct gamedb__movebuf *mb, int type, const char *utf8, size_t len);
/*
 * Keeps the stored bytes of the text node just added (gamedb__mb_comment() or a text put into
 * the pool by hand, the last thing written there) after its UTF-8 text and its NUL, for
 * gamedb_event_get_text_raw(); marks the node GAMEDB__NODE_RAW.
 */
int gamedb__mb_raw(struct gamedb__movebuf *mb, const void *raw, size_t len);
void gamedb__mb_reset(struct gamedb__movebuf *mb);
void gamedb__mb_free(struct gamedb__movebuf *mb);

struct gamedb__tag {
	uint32_t name;   /* offsets into the game's pool */
	uint32_t value;
	uint32_t raw;
	uint32_t raw_len;
	uint32_t charset; /* offset of the charset name in the pool, or GAMEDB__TAG_NO_CHARSET:
			     the name is copied, so that it lives as long as the game (a copy
			     made by gamedb_game_dup() outlives the reader whose option it is) */
};

#define GAMEDB__TAG_NO_CHARSET UINT32_MAX

struct gamedb__tagset {
	struct gamedb__tag *v;
	size_t n, cap;
	struct gamedb__buf pool;
	uint32_t charset_last; /* offset of the charset name added last (tags of one game share
				  it: one copy per pool), valid while charset_have is set */
	const char *charset_ptr; /* the pointer that name was given as (compared, never read) */
	int charset_have;
};

#define GAMEDB__GAME_MAGIC 0x47414d45u /* "GAME" */

enum { GAMEDB__MOVES_NONE = 0, GAMEDB__MOVES_DONE = 1 };

struct gamedb_game {
	uint32_t magic;
	struct gamedb_reader *reader; /* NULL for a copy made by gamedb_game_dup() */
	uint64_t index;
	int32_t variant;
	int32_t deleted;
	uint32_t fmt_flags;   /* format's own per-game flags (SCID flags) */
	uint64_t loc[3];      /* format's own: where the game is (SCID: record offset, length,
				 and where its move data starts once known, else 0) */
	char fen[128];
	/*
	 * Tags: the ones the format gives at next_game() in head; the ones it keeps outside its
	 * index (loaded on demand) in extra. Two pools, so that pointers handed out stay valid.
	 */
	struct gamedb__tagset head;
	struct gamedb__tagset extra;
	int extra_loaded;     /* 0 not yet, 1 loaded (or none), -1 failed */
	int fen_pending;      /* fen is known only once the extra tags are loaded */
	char final_fen[128];  /* after the main line; "" until asked for */
	int have_start;       /* start (chess) or xqstart (xiangqi) holds the position of fen (set
				 by the format once parsed) */
	struct gamedb__pos start;
	struct gamedb__xqpos xqstart;
	int moves_state;
	struct gamedb__movebuf mb;
	int32_t text_status;  /* GAMEDB_WARN if a tag was converted with loss */
	char errmsg[320];
};

/*
 * Adds a tag (value already UTF-8) to a tag set; raw bytes may be NULL (then raw = value).
 * A tag set is filled by one call of its format (between two resets): within it, a charset
 * passed as the same pointer as the last one must be the same name (the copy is shared).
 */
int gamedb__tags_add(struct gamedb__tagset *ts, const char *name, const char *value, size_t vlen,
		     const char *raw, size_t raw_len, const char *charset);
/* Adds a tag converting raw bytes through the reader's text layer. */
int32_t gamedb__game_add_tag_raw(struct gamedb_game *g, struct gamedb__tagset *ts,
				 const char *name, const char *raw, size_t raw_len,
				 const char *charset);
/* Tag i (head tags, then extra tags) with the lengths of its name and UTF-8 value, for the
 * writers: 0, or -1 when there is no tag i. */
int gamedb__game_tag_at(struct gamedb_game *g, size_t i, const char **name, size_t *nlen,
			const char **value, size_t *vlen);
void gamedb__game_reset(struct gamedb_game *g);
void gamedb__game_release(struct gamedb_game *g);
/*
 * The start position of g: the one its format left in g->start, else its FEN parsed. 0, or -1
 * with a reason in *why.
 */
int gamedb__game_start_pos(struct gamedb_game *g, union gamedb__anypos *pos, const char **why);
/* Decodes the moves of g once (lazily); returns the decode status (OK, WARN, FAILED). */
int32_t gamedb__game_decode(struct gamedb_game *g);
void gamedb__game_seterr(struct gamedb_game *g, const char *fmt, ...) GAMEDB__PRINTF(2, 3);

/* ---- formats (lib/formats/format.h has the vtable) ------------------------------------- */

struct gamedb__format;

#define GAMEDB__READER_MAGIC 0x52454144u /* "READ" */
#define GAMEDB__MAX_FORMATS 8
#define GAMEDB__MAX_PENDING 16

/* An option of a format set before the open: kept, and handed to the format at the open. */
struct gamedb__pending_option {
	const struct gamedb__format *format; /* NULL: whichever format opens the base */
	char *key, *value;
};

enum { GAMEDB__RS_NEW = 0, GAMEDB__RS_OPEN = 1, GAMEDB__RS_FATAL = 2 };

struct gamedb_reader {
	uint32_t magic;
	int state;
	const struct gamedb__format *formats[GAMEDB__MAX_FORMATS];
	size_t nformats;
	const struct gamedb__format *forced;
	const struct gamedb__format *fmt;
	void *fmt_state;
	struct gamedb__src src;
	struct gamedb__text text;
	struct gamedb_game game;   /* the borrowed game handed out by next_game */
	struct gamedb__pending_option pending[GAMEDB__MAX_PENDING];
	size_t npending;
	int32_t errcode;
	char errmsg[512];
};

/*
 * Sets the reader's error (detail code and message) and returns status, so that a format can
 * write `return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "...")`.
 */
int32_t gamedb__error(struct gamedb_reader *r, int32_t status, int32_t code, const char *fmt, ...)
	GAMEDB__PRINTF(4, 5);
void gamedb__clear_error(struct gamedb_reader *r);

/* The charset a format's text is read as, honouring the caller's override. */
const char *gamedb__reader_charset(const struct gamedb_reader *r);
const char *gamedb__reader_fallback(const struct gamedb_reader *r);

#endif /* GAMEDB_PRIVATE_H */
