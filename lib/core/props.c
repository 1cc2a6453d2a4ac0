/*
 * libgamedb - a base's own properties (issue 29): name/value pairs of what a base holds that
 * is not per game (a CCBridge library's name, source and creator; a SCID base's description),
 * one generic way for every format instead of a per-format handle each. The format's
 * `properties` hook fills them at the first call after the open; the reader keeps them until
 * the base is closed, so that the strings handed out stay valid that long.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "core/reader.h"
#include "formats/format.h"

int gamedb__props_add(struct gamedb__props *p, const char *name, const char *value, size_t len)
{
	char *v;

	if (p->n >= GAMEDB__MAX_PROPERTIES)
		return -1;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 8;
		struct gamedb__prop *nv = realloc(p->v, cap * sizeof *nv);
		if (!nv)
			return -1;
		p->v = nv;
		p->cap = cap;
	}
	v = malloc(len + 1);
	if (!v)
		return -1;
	if (len)
		memcpy(v, value, len);
	v[len] = 0;
	p->v[p->n].name = name;
	p->v[p->n].value = v;
	p->n++;
	return 0;
}

void gamedb__props_clear(struct gamedb__props *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i].value);
	free(p->v);
	free(p->note);
	memset(p, 0, sizeof *p);
}

/*
 * The properties of r's open base, read from its format at the first call. Sets the reader's
 * error to the hook's warning (a value repaired) or clears it, at every call, so that each
 * call says the same. 0, or GAMEDB_FATAL (not open, out of memory) with the error set.
 */
static int32_t load(struct gamedb_reader *r, const char *fn)
{
	struct gamedb__props *p;
	int32_t rc;

	if (!r || r->magic != GAMEDB__READER_MAGIC)
		return GAMEDB_FATAL;
	if (r->state != GAMEDB__RS_OPEN)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_MISUSE, "%s: %s", fn,
				     r->state == GAMEDB__RS_FATAL ?
				     "the reader had a fatal error: only gamedb_reader_free() is valid" :
				     "no database is open");
	p = &r->props;
	gamedb__clear_error(r);
	if (!p->loaded) {
		p->loaded = 1;
		rc = r->fmt->properties ? r->fmt->properties(r->fmt_state, p) : GAMEDB_OK;
		if (rc == GAMEDB_FATAL) {
			gamedb__props_clear(p);
			if (r->errcode == GAMEDB_E_NONE)
				gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "%s: out of memory", fn);
			else if (r->state == GAMEDB__RS_OPEN)
				r->state = GAMEDB__RS_FATAL;
			return GAMEDB_FATAL;
		}
		if (rc == GAMEDB_WARN && r->errcode != GAMEDB_E_NONE) {
			p->note = strdup(r->errmsg);
			p->note_code = r->errcode;
		}
	}
	if (p->note)
		gamedb__error(r, GAMEDB_WARN, p->note_code, "%s", p->note);
	else
		gamedb__clear_error(r);
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_reader_get_property_count(struct gamedb_reader *r)
{
	int32_t rc = load(r, "gamedb_reader_get_property_count");

	return rc != GAMEDB_OK ? rc : (int32_t)r->props.n;
}

GAMEDB_EXPORT const char *gamedb_reader_get_property_name(struct gamedb_reader *r, int32_t i)
{
	if (load(r, "gamedb_reader_get_property_name") != GAMEDB_OK || i < 0 ||
	    (size_t)i >= r->props.n)
		return NULL;
	return r->props.v[i].name;
}

GAMEDB_EXPORT const char *gamedb_reader_get_property_value(struct gamedb_reader *r, int32_t i)
{
	if (load(r, "gamedb_reader_get_property_value") != GAMEDB_OK || i < 0 ||
	    (size_t)i >= r->props.n)
		return NULL;
	return r->props.v[i].value;
}

GAMEDB_EXPORT const char *gamedb_reader_get_property(struct gamedb_reader *r, const char *name)
{
	size_t i;

	if (load(r, "gamedb_reader_get_property") != GAMEDB_OK || !name)
		return NULL;
	for (i = 0; i < r->props.n; i++)
		if (strcmp(r->props.v[i].name, name) == 0)
			return r->props.v[i].value;
	return NULL;
}
