/*
 * libgamedb - the container registry: the one list of the containers (files that hold a whole
 * base, unpacked in memory), their bidding before the formats', and the unpacked sets they
 * hand the reader, counted so that readers opened on one another share them
 * (gamedb_reader_open_shared()). The format registry lists their extensions with the format of
 * the base they hold (gamedb_format_get_extension()).
 *
 * Adding a container: its file defines gamedb__container_<name> (container.h) and adds one
 * line to CONTAINERS below. doc/adding-a-container.md lists the rest.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "containers/container.h"
#include "core/error.h"
#include "util/buf.h"

/*
 * The containers, in bidding order: each bid peeks at the first GAMEDB__CONTAINER_HEAD bytes
 * and the name only; a tie goes to the one listed first (a plain CBV header wins over a file
 * named .cbz).
 */
#define CONTAINERS(X)                                                                          \
	X(cbv) /* ChessBase archive: its header (08 00, member count, entry size) */           \
	X(cbz) /* the same encrypted: by its name, or by its first block deciphered */

#define DECLARE(name) extern const struct gamedb__container gamedb__container_##name;
CONTAINERS(DECLARE)
#define ENTRY(name) &gamedb__container_##name,
static const struct gamedb__container *const table[] = { CONTAINERS(ENTRY) };

size_t gamedb__container_count(void)
{
	return sizeof table / sizeof table[0];
}

const struct gamedb__container *gamedb__container_at(size_t i)
{
	return i < gamedb__container_count() ? table[i] : NULL;
}

int gamedb__container_has_option(const char *key)
{
	const struct gamedb__container_option *o;
	size_t i;

	for (i = 0; key && i < gamedb__container_count(); i++)
		for (o = table[i]->options; o && o->key; o++)
			if (strcmp(o->key, key) == 0)
				return 1;
	return 0;
}

/* ---- the options a reader keeps for the containers --------------------------------------- */

const char *gamedb__container_option_get(const struct gamedb__container_options *o,
					 const char *key)
{
	size_t i;

	for (i = 0; o && i < o->n; i++)
		if (strcmp(o->key[i], key) == 0)
			return o->value[i];
	return NULL;
}

/* Frees a kept string, its bytes overwritten first (a value may be a password). */
static void wipe(char *s)
{
	if (s) {
		volatile char *p = s;
		while (*p)
			*p++ = 0;
		free(s);
	}
}

int gamedb__container_option_set(struct gamedb__container_options *o, const char *key,
				 const char *value)
{
	size_t i;
	char *k, *v;

	for (i = 0; i < o->n && strcmp(o->key[i], key) != 0; i++)
		;
	if (i < o->n) { /* forgotten first, whatever the new value */
		wipe(o->key[i]);
		wipe(o->value[i]);
		o->n--;
		o->key[i] = o->key[o->n];
		o->value[i] = o->value[o->n];
	}
	if (!value || !*value)
		return 0;
	if (o->n == GAMEDB__CONTAINER_MAX_OPTIONS)
		return -1;
	k = gamedb__strdup(key);
	v = gamedb__strdup(value);
	if (!k || !v) {
		wipe(k);
		wipe(v);
		return -2;
	}
	o->key[o->n] = k;
	o->value[o->n] = v;
	o->n++;
	return 0;
}

void gamedb__container_options_clear(struct gamedb__container_options *o)
{
	size_t i;

	for (i = 0; i < o->n; i++) {
		wipe(o->key[i]);
		wipe(o->value[i]);
	}
	o->n = 0;
}

/* ---- unpacked sets, shared --------------------------------------------------------------- */

/*
 * An unpacked set as the registry allocates it: the members (what the source shows) and how
 * many readers hold it (the one that unpacked it, and those opened on it by
 * gamedb_reader_open_shared()); the last to let go, from whichever thread, frees it. The
 * members first, so that gamedb__archive_free(&s->a) frees the whole, as for a set held by one
 * reader (or by no reader: the tests).
 */
struct shared {
	struct gamedb__archive a;
	atomic_size_t refs;
};

struct gamedb__archive *gamedb__container_set_new(void)
{
	struct shared *sh = calloc(1, sizeof *sh);

	if (!sh)
		return NULL;
	atomic_init(&sh->refs, 1);
	return &sh->a;
}

/*
 * Turns src (closed, or new) into a memory set of a's members whose primary file is the
 * member named primary; src holds a from then on (let go of by gamedb__container_release()),
 * even when this fails (out of memory: GAMEDB_FATAL, error set).
 */
static int32_t show_members(struct gamedb_reader *r, struct gamedb__src *src,
			    struct gamedb__archive *a, const char *primary)
{
	size_t i;

	src->kind = GAMEDB__SRC_MEMSET;
	src->archive = a;
	src->mem_names = calloc(a->n, sizeof *src->mem_names);
	src->mem_data = calloc(a->n, sizeof *src->mem_data);
	src->mem_sizes = calloc(a->n, sizeof *src->mem_sizes);
	if (!src->mem_names || !src->mem_data || !src->mem_sizes)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	src->nmem = a->n;
	for (i = 0; i < a->n; i++) {
		src->mem_names[i] = gamedb__strdup(a->names[i]);
		if (!src->mem_names[i])
			return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		src->mem_data[i] = a->data[i];
		src->mem_sizes[i] = a->sizes[i];
	}
	src->primary = gamedb__strdup(primary);
	if (!src->primary)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	return GAMEDB_OK;
}

int32_t gamedb__container_open(struct gamedb_reader *r, struct gamedb__src *src,
			       const struct gamedb__container_options *o)
{
	const struct gamedb__container *best = NULL;
	struct gamedb__file *f;
	struct gamedb__archive *a = NULL;
	const uint8_t *head;
	size_t i, primary = 0;
	int best_bid = 0;
	int64_t got;
	int32_t rc;

	if (gamedb__src_open(src, NULL, 0, &f) != 0)
		return GAMEDB_FATAL;
	got = gamedb__file_view(f, 0, GAMEDB__CONTAINER_HEAD, &head);
	if (got < 0)
		return GAMEDB_FATAL;
	for (i = 0; i < gamedb__container_count(); i++) {
		const int bid = table[i]->bid(src->primary, head, (size_t)got, o);
		if (bid > best_bid) {
			best_bid = bid;
			best = table[i];
		}
	}
	if (!best)
		return GAMEDB_OK; /* no container's: the formats bid on the file itself */
	rc = best->unpack(r, src, f, head, (size_t)got, o, &a, &primary);
	if (rc != GAMEDB_OK)
		return rc;
	a->has_id = f->has_id;
	a->dev = f->dev;
	a->ino = f->ino;
	/* The container's file is closed; the source becomes a memory set of its members. */
	gamedb__src_close(src);
	return show_members(r, src, a, a->names[primary]);
}

int32_t gamedb__container_share(struct gamedb_reader *r, struct gamedb__src *src,
				const struct gamedb__src *from)
{
	struct shared *sh = (struct shared *)from->archive;

	/* from's reader holds it all through the call: the count cannot reach 0 meanwhile. */
	atomic_fetch_add_explicit(&sh->refs, 1, memory_order_relaxed);
	return show_members(r, src, &sh->a, from->primary);
}

void gamedb__container_release(struct gamedb__archive *a)
{
	/* acq_rel: whatever a thread did with the members comes before the free in another. */
	if (a && atomic_fetch_sub_explicit(&((struct shared *)a)->refs, 1,
					   memory_order_acq_rel) == 1)
		gamedb__archive_free(a);
}
