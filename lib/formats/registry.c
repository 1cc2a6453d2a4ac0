/*
 * libgamedb - the format registry: the one list of the formats this library reads. The reader
 * core bids and opens through it, the base-name opener takes the index extensions from it, and
 * the public listing (gamedb_format_*) hands it to callers: a GUI's Open dialog, the gamedb
 * command's help, the Python binding. The listing names, with each format's own extensions,
 * those of the containers (lib/containers) that hold a base of it (ChessBase: .cbv, .cbz).
 *
 * Adding a format: its file defines gamedb__format_<name> (format.h) and adds one line to
 * FORMATS below. doc/adding-a-format.md lists the rest (tests, data, docs); tests/test-registry.c
 * checks that every entry is complete.
 */
#include <string.h>

#include "containers/container.h"
#include "formats/format.h"

/*
 * The formats, in bidding order: each bid only peeks at a few bytes of the primary file, so
 * the order only breaks ties; the formats with a magic number come first.
 */
#define FORMATS(X)                                                                             \
	X(scid)      /* "Scid.si" magic in the index */                                        \
	X(chessbase) /* CBH header: record size and version bytes */                           \
	X(xqf)       /* "XQ" magic */                                                          \
	X(ccbridge)  /* "CCBridgeLibrary\0" or "CCBridge Record\0" magic */                   \
	X(chessassistant) /* CDP: two NUL-padded text fields ("Chess Data Pro format") */     \
	X(style12)   /* text: a "<12> " board line in the first 64 KiB */

#define DECLARE(name) extern const struct gamedb__format gamedb__format_##name;
FORMATS(DECLARE)
#define ENTRY(name) &gamedb__format_##name,
static const struct gamedb__format *const table[] = { FORMATS(ENTRY) };

size_t gamedb__format_count(void)
{
	return sizeof table / sizeof table[0];
}

const struct gamedb__format *gamedb__format_at(size_t i)
{
	return i < gamedb__format_count() ? table[i] : NULL;
}

const struct gamedb__format *gamedb__format_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < gamedb__format_count(); i++)
		if (strcmp(table[i]->name, name) == 0)
			return table[i];
	return NULL;
}

int gamedb__format_has_option(const struct gamedb__format *f, const char *key)
{
	const struct gamedb__format_option *o;
	size_t i;

	if (!f) {
		for (i = 0; i < gamedb__format_count(); i++)
			if (gamedb__format_has_option(table[i], key))
				return 1;
		return 0;
	}
	for (o = f->options; o && o->key; o++)
		if (strcmp(o->key, key) == 0)
			return 1;
	return 0;
}

/* ---- the public listing ----------------------------------------------------------------- */

GAMEDB_EXPORT size_t gamedb_format_count(void)
{
	return gamedb__format_count();
}

GAMEDB_EXPORT const char *gamedb_format_get_name(size_t index)
{
	const struct gamedb__format *f = gamedb__format_at(index);
	return f ? f->name : NULL;
}

GAMEDB_EXPORT const char *gamedb_format_get_description(size_t index)
{
	const struct gamedb__format *f = gamedb__format_at(index);
	return f ? f->description : NULL;
}

GAMEDB_EXPORT uint32_t gamedb_format_get_capabilities(size_t index)
{
	const struct gamedb__format *f = gamedb__format_at(index);
	return f ? f->caps : 0;
}

GAMEDB_EXPORT const char *gamedb_format_get_charset(size_t index)
{
	const struct gamedb__format *f = gamedb__format_at(index);
	return f ? f->default_charset : NULL;
}

/*
 * Extension k of the containers that hold a base of format f, in the registry's order (*n: how
 * many they have when k is past them); NULL past them.
 */
static const char *container_extension(const struct gamedb__format *f, size_t k, size_t *n)
{
	size_t i, j, seen = 0;

	for (i = 0; i < gamedb__container_count(); i++) {
		const struct gamedb__container *c = gamedb__container_at(i);
		if (!c->format || strcmp(c->format, f->name) != 0)
			continue;
		for (j = 0; c->extensions && c->extensions[j]; j++, seen++)
			if (seen == k)
				return c->extensions[j];
	}
	*n = seen;
	return NULL;
}

/*
 * The format's files a base is opened by (opens), then the containers' that hold a base of it
 * (they open one too), then the format's other files: the opening ones first, as documented.
 */
GAMEDB_EXPORT const char *gamedb_format_get_extension(size_t index, size_t k, uint32_t *flags)
{
	const struct gamedb__format *f = gamedb__format_at(index);
	size_t i, ncontainer = 0;
	const char *ext;

	if (flags)
		*flags = 0;
	if (!f || !f->extensions)
		return NULL;
	for (i = 0; i < f->opens && f->extensions[i]; i++)
		if (i == k) {
			if (flags)
				*flags = GAMEDB_EXTENSION_OPENS;
			return f->extensions[i];
		}
	ext = container_extension(f, k - i, &ncontainer);
	if (ext) {
		if (flags)
			*flags = GAMEDB_EXTENSION_OPENS | GAMEDB_EXTENSION_ARCHIVE;
		return ext;
	}
	for (k -= ncontainer; f->extensions[i]; i++)
		if (i == k)
			return f->extensions[i];
	return NULL;
}

GAMEDB_EXPORT const char *gamedb_format_get_option(size_t index, size_t k,
						   const char **default_value,
						   const char **description)
{
	const struct gamedb__format *f = gamedb__format_at(index);
	size_t i;

	for (i = 0; f && f->options && f->options[i].key; i++) {
		if (i == k) {
			if (default_value)
				*default_value = f->options[i].default_value;
			if (description)
				*description = f->options[i].description;
			return f->options[i].key;
		}
	}
	if (default_value)
		*default_value = NULL;
	if (description)
		*description = NULL;
	return NULL;
}

/* ---- the support calls of 1.0, one per format, kept as they were ------------------------ */

GAMEDB_EXPORT int32_t gamedb_reader_support_format_scid(struct gamedb_reader *r)
{
	return gamedb_reader_support_format(r, "scid");
}

GAMEDB_EXPORT int32_t gamedb_reader_support_format_chessbase(struct gamedb_reader *r)
{
	return gamedb_reader_support_format(r, "chessbase");
}

GAMEDB_EXPORT int32_t gamedb_reader_support_format_xqf(struct gamedb_reader *r)
{
	return gamedb_reader_support_format(r, "xqf");
}
