/*
 * libgamedb - the private container vtable and registry. A container is a file that holds a
 * whole base of some format (a ChessBase .cbv; .cbz, a .cbv encrypted): it is unpacked in
 * memory (never to disk) into a set of files, and the formats then bid on and read the base
 * inside as they would read it from a memory set. As libarchive's filters come before its
 * formats, the containers bid before the formats, and the reader core names none of them: it
 * calls gamedb__container_open() and the registry below only.
 *
 * One `<name>.c` in lib/containers defines a `const struct gamedb__container
 * gamedb__container_<name>` and adds one line to CONTAINERS in lib/containers/registry.c;
 * doc/adding-a-container.md has the whole checklist.
 *
 * A container includes this header, "core/error.h" (the reader's error), "io/io.h" and
 * lib/util: nothing of the core but the error, nothing of the formats.
 */
#ifndef GAMEDB_CONTAINERS_CONTAINER_H
#define GAMEDB_CONTAINERS_CONTAINER_H

#include <stddef.h>
#include <stdint.h>

#include "io/io.h"

struct gamedb_reader;

#define GAMEDB__CONTAINER_ABI_1 1

/* How many bytes of the primary file a container's bid sees (fewer when the file is shorter). */
#define GAMEDB__CONTAINER_HEAD 8

/* One option of a container (gamedb_reader_set_option()): its key, default and meaning. */
struct gamedb__container_option {
	const char *key;           /* "password" */
	const char *default_value; /* "" = none */
	const char *description;   /* one line */
};

/*
 * The values of the containers' options a reader was given before its open (the reader keeps
 * them; gamedb__container_option_set() and _clear() below). A value may be secret (a password):
 * it is overwritten before it is freed.
 */
#define GAMEDB__CONTAINER_MAX_OPTIONS 4
struct gamedb__container_options {
	size_t n;
	char *key[GAMEDB__CONTAINER_MAX_OPTIONS];
	char *value[GAMEDB__CONTAINER_MAX_OPTIONS];
};

struct gamedb__container {
	uint32_t abi;                    /* GAMEDB__CONTAINER_ABI_1 */
	const char *name;                /* "cbv" */
	const char *description;         /* one line */
	/* The files it is, lower case with the dot, NULL-terminated (".cbv"); each opens a base. */
	const char *const *extensions;
	/* The format of the base it holds ("chessbase"): its extensions are listed with that
	 * format's (gamedb_format_get_extension()). */
	const char *format;
	/* Its own options, ending with { NULL }; NULL when it has none. */
	const struct gamedb__container_option *options;
	/*
	 * How sure the container is that the primary file (named name; head: its first n bytes,
	 * n <= GAMEDB__CONTAINER_HEAD) is one of its own: -1 no, 0..100. Reads nothing else. The
	 * highest bid wins; a tie goes to the container listed first.
	 */
	int (*bid)(const char *name, const uint8_t *head, size_t n,
		   const struct gamedb__container_options *o);
	/*
	 * Unpacks the primary file f of src (head: its first n bytes, as bid saw them) into *out,
	 * allocated with gamedb__container_set_new(), and sets *primary to the member the base
	 * inside is opened by. GAMEDB_OK, or GAMEDB_FATAL with r's error set (naming the file, the
	 * member and the offset) and *out NULL: damaged, too large, or an option missing or wrong.
	 * src stays as it was (the registry turns it into the memory set).
	 */
	int32_t (*unpack)(struct gamedb_reader *r, struct gamedb__src *src, struct gamedb__file *f,
			  const uint8_t *head, size_t n, const struct gamedb__container_options *o,
			  struct gamedb__archive **out, size_t *primary);
};

/* The registry (lib/containers/registry.c): the containers, in bidding order. */
size_t gamedb__container_count(void);
const struct gamedb__container *gamedb__container_at(size_t i); /* NULL past the end */
/* 1 if some container has the option key. */
int gamedb__container_has_option(const char *key);

/* The value of option key in o, or NULL when it is not set. */
const char *gamedb__container_option_get(const struct gamedb__container_options *o,
					 const char *key);
/* Sets key to value in o (NULL or "" forgets it): 0; -1 no room; -2 without memory. */
int gamedb__container_option_set(struct gamedb__container_options *o, const char *key,
				 const char *value);
/* Forgets every option of o, each value overwritten first. */
void gamedb__container_options_clear(struct gamedb__container_options *o);

/*
 * A new, empty unpacked set (all fields 0), held once: what a container's unpack fills. Freed
 * with gamedb__archive_free() while no source holds it, else let go of with
 * gamedb__container_release(). NULL without memory.
 */
struct gamedb__archive *gamedb__container_set_new(void);

/*
 * If the primary file of src (open or not yet) is a container's (the best bid), unpacks it and
 * turns src into a memory set of its members whose primary file is the base's own inside.
 * GAMEDB_OK when no container bid (src unchanged) or it was unpacked; GAMEDB_FATAL with r's
 * error set otherwise.
 */
int32_t gamedb__container_open(struct gamedb_reader *r, struct gamedb__src *src,
			       const struct gamedb__container_options *o);

/*
 * Opens src (new) on the set another source, from, has unpacked (from->archive set): src
 * becomes a memory set of the same members, their bytes shared, not copied, with from's
 * primary file; GAMEDB_FATAL (error set) without memory. The set is counted as held once
 * more: each of the two sources lets go of it with gamedb__container_release(), in either
 * order, from any thread. from's reader may be in use in another thread meanwhile: only what
 * its open set is read.
 */
int32_t gamedb__container_share(struct gamedb_reader *r, struct gamedb__src *src,
				const struct gamedb__src *from);

/*
 * Lets go of an unpacked set a source held (src->archive; NULL: nothing); the last holder
 * frees it. The reader calls it, and sets src->archive to NULL, before gamedb__src_close(),
 * which would free it whoever else holds it.
 */
void gamedb__container_release(struct gamedb__archive *a);

#endif /* GAMEDB_CONTAINERS_CONTAINER_H */
