/*
 * libgamedb - the private format vtable. One `format-<name>.c` per format defines a
 * `const struct gamedb__format gamedb__format_<name>` and adds one line to the registry
 * (FORMATS in lib/formats/registry.c). The registry is the only list of formats: the reader
 * core, the base-name opener, the public format listing (gamedb_format_*), the command's help
 * and the Python binding all read it. doc/adding-a-format.md has the whole checklist.
 *
 * A decoder includes this header and "formats/toolkit.h", nothing else of the library: this
 * one brings every private layer a decoder uses (core/reader.h: the reader and its errors;
 * core/game.h: games, tags and the move buffer; io/io.h; text/text.h; util/buf.h; the board
 * engine's board/board.h and board/xiangqi.h).
 */
#ifndef GAMEDB_FORMAT_H
#define GAMEDB_FORMAT_H

#include "core/reader.h"

#define GAMEDB__FORMAT_ABI_1 1

/* One option of a format (gamedb_reader_set_option()): its key, default and meaning. */
struct gamedb__format_option {
	const char *key;           /* "language" */
	const char *default_value; /* as a caller would write it ("" = none) */
	const char *description;   /* one line */
};

struct gamedb__format {
	uint32_t abi;                /* GAMEDB__FORMAT_ABI_1 */
	const char *name;            /* "scid" */
	const char *description;     /* one line, for listings and --help */
	/*
	 * Every file of a base, lower case with the dot, NULL-terminated: first the files a base
	 * is opened by (opens of them: ".si4", ".si3"), then the siblings they bring (".sn4").
	 */
	const char *const *extensions;
	size_t opens;
	/* The format's own options, ending with { NULL }; NULL when it has none. */
	const struct gamedb__format_option *options;
	uint32_t caps;               /* GAMEDB_CAP_* */
	const char *default_charset; /* "UTF-8", "CP1252", ... */
	const char *default_fallback;/* for UTF-8 text: what invalid bytes are read as */
	/* How sure the format is that the source is its own: -1 no, 0..100. Peek only. */
	int (*bid)(struct gamedb__src *src);
	/* Opens the database; sets *state. OK/WARN, or FATAL with the reader's error set. */
	int32_t (*open)(struct gamedb_reader *r, void **state);
	/* A format's own option: OK, or GAMEDB_WARN when the key is not the format's. May be NULL. */
	int32_t (*set_option)(void *state, const char *key, const char *value);
	/* Fills the header of the next game into g (already reset). OK/WARN/END/FAILED/FATAL. */
	int32_t (*next_game)(void *state, struct gamedb_game *g);
	/* NULL unless GAMEDB_CAP_SEEK. */
	int32_t (*seek_game)(void *state, uint64_t index);
	/* NULL unless GAMEDB_CAP_COUNT. */
	int32_t (*game_count)(void *state, uint64_t *out);
	/* Loads the tags kept outside the index into g->extra. May be NULL (no such tags). */
	int32_t (*load_tags)(void *state, struct gamedb_game *g);
	/*
	 * 1 if the tag `name`, which g's index tags (g->head) lack, cannot be among the tags
	 * load_tags would add, so that looking it up need not read them (header listing then
	 * stays in the index files); 0 if it might be. May be NULL (always 0).
	 */
	int (*tag_surely_absent)(void *state, const struct gamedb_game *g, const char *name);
	/*
	 * Decodes the moves of g into mb, checking each with the board engine. Returns OK, WARN, or
	 * FAILED with g's message set (mb then holds the legal part).
	 */
	int32_t (*decode_moves)(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb);
	/*
	 * The base's own properties (gamedb_reader_get_property_*()): adds to out, with
	 * gamedb__props_add(), the name/value pairs the format documents in gamedb.h (the same
	 * names, in the same order, for every base of a kind; a value may be ""). Called once,
	 * at the first property call after the open. OK; WARN with the reader's error set when a
	 * value was repaired (its message names the file, the offset and the property); FATAL
	 * when out of memory. May be NULL (the format has none).
	 */
	int32_t (*properties)(void *state, struct gamedb__props *out);
	/* The per-format handle for gamedb_reader_get_<name>(). May be NULL. */
	void *(*handle)(void *state);
	void (*close)(void *state);
};

/* The registry (lib/formats/registry.c): the formats, in bidding order. */
size_t gamedb__format_count(void);
const struct gamedb__format *gamedb__format_at(size_t i); /* NULL past the end */
const struct gamedb__format *gamedb__format_find(const char *name); /* NULL if unknown */
/* 1 if format f (NULL: any format) has the option key. */
int gamedb__format_has_option(const struct gamedb__format *f, const char *key);

/* The per-format handle of r when its open database is of format f, else NULL. */
void *gamedb__reader_handle(struct gamedb_reader *r, const struct gamedb__format *f);

#endif /* GAMEDB_FORMAT_H */
