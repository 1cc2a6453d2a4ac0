/*
 * libgamedb - the reader (lib/core/reader.c): one open database, its source, text layer,
 * options and error, for the reader core and the formats. Never installed.
 */
#ifndef GAMEDB_CORE_READER_H
#define GAMEDB_CORE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "gamedb/gamedb.h"
#include "containers/container.h"
#include "core/error.h"
#include "core/game.h"
#include "io/io.h"
#include "text/text.h"
#include "util/buf.h"

struct gamedb__format;

#define GAMEDB__READER_MAGIC 0x52454144u /* "READ" */
#define GAMEDB__MAX_FORMATS 8
#define GAMEDB__MAX_PENDING 16

/* An option of a format set before the open: kept, and handed to the format at the open. */
struct gamedb__pending_option {
	const struct gamedb__format *format; /* NULL: whichever format opens the base */
	char *key, *value;
};

/*
 * A base's own properties (gamedb_reader_get_property_*(), lib/core/props.c): name/value pairs
 * the format's `properties` hook gives, read at the first call after the open and kept until
 * the base is closed.
 */
struct gamedb__prop {
	const char *name; /* the format's static string: lower case, words joined by hyphens */
	char *value;      /* UTF-8, NUL-terminated, owned */
};

#define GAMEDB__MAX_PROPERTIES 64

struct gamedb__props {
	int loaded;             /* the hook was called (whatever it returned) */
	struct gamedb__prop *v;
	size_t n, cap;
	int32_t note_code;      /* the hook's warning (a value repaired): its detail code, 0 none */
	char *note;             /* and its message */
};

/*
 * Adds the property name (a static string) with the len bytes of UTF-8 text at value (no NUL
 * inside). 0, or -1 when out of memory or past GAMEDB__MAX_PROPERTIES.
 */
int gamedb__props_add(struct gamedb__props *p, const char *name, const char *value, size_t len);
/* Forgets the properties (at the close of the base). */
void gamedb__props_clear(struct gamedb__props *p);

enum { GAMEDB__RS_NEW = 0, GAMEDB__RS_OPEN = 1, GAMEDB__RS_FATAL = 2 };

struct gamedb_reader {
	uint32_t magic;
	int state;
	const struct gamedb__format *formats[GAMEDB__MAX_FORMATS];
	size_t nformats;
	const struct gamedb__format *forced;
	const struct gamedb__format *set_format; /* gamedb_reader_set_format()'s, which a reopen
						    forces again (forced may be a shared base's) */
	const struct gamedb__format *fmt;
	void *fmt_state;
	struct gamedb__src src;
	struct gamedb__text text;
	struct gamedb_game game;   /* the borrowed game handed out by next_game */
	/* The options of formats: those set before the open, kept for it, and those the open
	 * format took after it, kept for gamedb_reader_open_shared(). */
	struct gamedb__pending_option pending[GAMEDB__MAX_PENDING];
	size_t npending;
	int options_lost; /* an option taken after the open could not be kept (no room) */
	/* The containers' options (`password`), set before the open, for the one that unpacks. */
	struct gamedb__container_options container_options;
	/* The caller's progress callback (gamedb_reader_set_progress()); NULL: none. The games
	 * unit is the core's own (next_game), armed only for a format that counts its games:
	 * progress_at is the call count of the next report, UINT64_MAX when none is due. */
	gamedb_progress_fn progress;
	void *progress_data;
	uint64_t progress_calls;   /* next_game calls made */
	uint64_t progress_at;
	uint64_t progress_total;   /* the base's game count, read at the first report */
	struct gamedb__props props; /* the base's own properties, once asked for */
	/*
	 * 1 once something asked for the SAN of the moves: a writer that writes it
	 * (gamedb__game_want_san()), or gamedb_event_get_san() meeting a move decoded without it
	 * (GAMEDB__NODE_NUM). A decoder that can leave the SAN out (ChessBase's) makes it as it
	 * plays the moves while this is set, else leaves it to the iterator (made on demand,
	 * core/iter.c). Never cleared: a program that asks for SAN pays the lazy path for one game.
	 */
	int want_san;
	int32_t errcode;
	char errmsg[512];
	int os_error; /* errno behind an E_IO error (gamedb_reader_get_os_error()); 0: none */
};

/* The charset a format's text is read as, honouring the caller's override. */
const char *gamedb__reader_charset(const struct gamedb_reader *r);
const char *gamedb__reader_fallback(const struct gamedb_reader *r);

#endif /* GAMEDB_CORE_READER_H */
