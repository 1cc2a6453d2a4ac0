/*
 * libgamedb - the reader: opening, container and format bidding, options, the game iterator.
 * Knows no format and no container: it calls them through their registries and vtables only.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "containers/container.h"
#include "core/reader.h"
#include "formats/format.h"

/*
 * The report hook of the reader's source: copies an error the I/O layer recorded into the
 * reader's error at once, status, code and message as they are, so that the format that made
 * the call finds it there (the I/O layer itself calls nothing of the core).
 */
static void reader_io_error(void *ctx, const struct gamedb__io_error *e)
{
	struct gamedb_reader *r = ctx;

	gamedb__error(r, e->status, e->code, "%s", e->message);
	r->os_error = e->os_error;
}

const char *gamedb__reader_charset(const struct gamedb_reader *r)
{
	if (r->text.charset[0])
		return r->text.charset;
	return r->fmt ? r->fmt->default_charset : "UTF-8";
}

const char *gamedb__reader_fallback(const struct gamedb_reader *r)
{
	if (r->text.fallback[0])
		return r->text.fallback;
	return r->fmt && r->fmt->default_fallback ? r->fmt->default_fallback : "CP1252";
}

/* Checks a handle passed to a public function; on misuse returns the status to return. */
static int32_t check(struct gamedb_reader *r, const char *fn, int need_open)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC)
		return GAMEDB_FATAL;
	if (r->state == GAMEDB__RS_FATAL)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_MISUSE,
				     "%s: the reader had a fatal error: only gamedb_reader_free() is valid",
				     fn);
	if (need_open && r->state != GAMEDB__RS_OPEN)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_MISUSE, "%s: no database is open", fn);
	if (!need_open && r->state != GAMEDB__RS_NEW)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_MISUSE,
				     "%s: must be called before the database is opened", fn);
	return GAMEDB_OK;
}

GAMEDB_EXPORT struct gamedb_reader *gamedb_reader_new(void)
{
	struct gamedb_reader *r = calloc(1, sizeof *r);

	if (!r)
		return NULL;
	r->magic = GAMEDB__READER_MAGIC;
	r->state = GAMEDB__RS_NEW;
	r->progress_at = UINT64_MAX;
	r->src.report = reader_io_error;
	r->src.report_ctx = r;
	r->game.magic = GAMEDB__GAME_MAGIC;
	r->game.reader = r;
	return r;
}

static void pending_clear(struct gamedb_reader *r)
{
	size_t i;

	for (i = 0; i < r->npending; i++) {
		free(r->pending[i].key);
		free(r->pending[i].value);
	}
	r->npending = 0;
}

/*
 * Closes the reader's source. The set a container unpacked, which it shows, may be held by
 * other readers too (gamedb_reader_open_shared()): it is let go of first, so that the close
 * frees only this reader's own part.
 */
static void src_close(struct gamedb_reader *r)
{
	gamedb__container_release(r->src.archive);
	r->src.archive = NULL;
	gamedb__src_close(&r->src);
}

/*
 * Closes the base r has open, so that r opens another (issue 28: a program's "Open another
 * base" keeps its reader): the format's state, the source and the borrowed game go, as at
 * gamedb_reader_free(); the formats, the options and the converter stay. The reader is new
 * again.
 */
static void close_base(struct gamedb_reader *r)
{
	gamedb__game_release(&r->game);
	gamedb__game_reset(&r->game);
	gamedb__props_clear(&r->props);
	if (r->fmt && r->fmt_state)
		r->fmt->close(r->fmt_state);
	r->fmt = NULL;
	r->fmt_state = NULL;
	src_close(r);
	r->forced = r->set_format; /* not the format of a base shared before */
	r->text.fallback_texts = 0;
	r->text.fallback_sample[0] = 0;
	r->text.fallback_file = NULL;
	gamedb__text_at(&r->text, NULL, 0);
	gamedb__clear_error(r);
	r->state = GAMEDB__RS_NEW;
}

/* The check of the open functions: a reader with a base open closes it first (a reopen). */
static int32_t check_open(struct gamedb_reader *r, const char *fn)
{
	if (r && r->magic == GAMEDB__READER_MAGIC && r->state == GAMEDB__RS_OPEN)
		close_base(r);
	return check(r, fn, 0);
}

GAMEDB_EXPORT void gamedb_reader_free(struct gamedb_reader *r)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC)
		return;
	gamedb__game_release(&r->game);
	gamedb__props_clear(&r->props);
	if (r->fmt && r->fmt_state)
		r->fmt->close(r->fmt_state);
	src_close(r);
	gamedb__text_close(&r->text);
	pending_clear(r);
	gamedb__container_options_clear(&r->container_options);
	r->magic = 0;
	free(r);
}

static int32_t add_format(struct gamedb_reader *r, const struct gamedb__format *f)
{
	size_t i;

	for (i = 0; i < r->nformats; i++)
		if (r->formats[i] == f)
			return GAMEDB_OK;
	if (r->nformats == GAMEDB__MAX_FORMATS)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_MISUSE, "too many formats");
	r->formats[r->nformats++] = f;
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_reader_support_format_all(struct gamedb_reader *r)
{
	size_t i;
	int32_t rc = check(r, "gamedb_reader_support_format_all", 0);

	for (i = 0; rc == GAMEDB_OK && i < gamedb__format_count(); i++)
		rc = add_format(r, gamedb__format_at(i));
	return rc;
}

GAMEDB_EXPORT int32_t gamedb_reader_support_format(struct gamedb_reader *r, const char *name)
{
	const struct gamedb__format *f;
	int32_t rc = check(r, "gamedb_reader_support_format", 0);

	if (rc != GAMEDB_OK)
		return rc;
	f = gamedb__format_find(name);
	if (!f)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_support_format: unknown format \"%s\"",
				     name ? name : "(null)");
	return add_format(r, f);
}

GAMEDB_EXPORT int32_t gamedb_reader_set_format(struct gamedb_reader *r, const char *name)
{
	int32_t rc = check(r, "gamedb_reader_set_format", 0);

	if (rc != GAMEDB_OK)
		return rc;
	r->forced = r->set_format = gamedb__format_find(name);
	if (r->forced)
		return GAMEDB_OK;
	return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_INVALID_ARGUMENT,
			     "gamedb_reader_set_format: unknown format \"%s\"", name ? name : "(null)");
}

static int32_t set_charset_field(struct gamedb_reader *r, char *field, size_t cap,
				 const char *key, const char *value)
{
	if (!value || !*value) {
		field[0] = 0;
		return GAMEDB_OK;
	}
	if (strlen(value) >= cap || !gamedb__text_charset_known(&r->text, value))
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
				     "option %s: charset \"%s\" is not known to iconv", key, value);
	strcpy(field, value);
	return GAMEDB_OK;
}

/*
 * Keeps an option of a format (the last value of a key wins): 0; -1 when there is no room
 * for another key, -2 without memory (no error set).
 */
static int pending_put(struct gamedb_reader *r, const struct gamedb__format *f, const char *key,
		       const char *value)
{
	struct gamedb__pending_option *p = NULL;
	char *k, *v;
	size_t i;

	for (i = 0; i < r->npending; i++)
		if (r->pending[i].format == f && strcmp(r->pending[i].key, key) == 0)
			p = &r->pending[i];
	if (!p && r->npending == GAMEDB__MAX_PENDING)
		return -1;
	k = gamedb__strdup(key);
	v = gamedb__strdup(value ? value : "");
	if (!k || !v) {
		free(k);
		free(v);
		return -2;
	}
	if (!p)
		p = &r->pending[r->npending++];
	else {
		free(p->key);
		free(p->value);
	}
	p->format = f;
	p->key = k;
	p->value = v;
	return 0;
}

/* Keeps an option of a format set before the open, for the format that will open the base. */
static int32_t pending_add(struct gamedb_reader *r, const struct gamedb__format *f,
			   const char *key, const char *value)
{
	const int rc = pending_put(r, f, key, value);

	if (rc == -1)
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_set_option: more than %d options before the open",
				     GAMEDB__MAX_PENDING);
	if (rc != 0)
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_NOMEM, "out of memory");
	return GAMEDB_OK;
}

/*
 * Hands the options set before the open to the format that opened the base. An option the
 * format refuses makes the open fail: the caller asked for something the base will not get.
 */
static int32_t pending_apply(struct gamedb_reader *r)
{
	size_t i;

	for (i = 0; i < r->npending; i++) {
		const struct gamedb__pending_option *p = &r->pending[i];
		int32_t rc;
		if ((p->format && p->format != r->fmt) || !gamedb__format_has_option(r->fmt, p->key) ||
		    !r->fmt->set_option)
			continue;
		rc = r->fmt->set_option(r->fmt_state, p->key, p->value);
		if (rc != GAMEDB_OK && rc != GAMEDB_WARN)
			return GAMEDB_FATAL; /* the format's message names the option */
	}
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_reader_set_option(struct gamedb_reader *r, const char *format,
					       const char *key, const char *value)
{
	const struct gamedb__format *f = NULL;

	if (!r || r->magic != GAMEDB__READER_MAGIC)
		return GAMEDB_FATAL;
	if (r->state == GAMEDB__RS_FATAL)
		return check(r, "gamedb_reader_set_option", 1);
	if (!key)
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_set_option: key is NULL");
	if (format) {
		f = gamedb__format_find(format);
		if (!f)
			return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
					     "gamedb_reader_set_option: unknown format \"%s\"", format);
	}
	/* Options every format shares live in the core. */
	if (strcmp(key, "charset") == 0 || strcmp(key, "fallback-charset") == 0) {
		if (f && r->fmt && r->fmt != f)
			return GAMEDB_WARN; /* addressed to a format that is not the open one */
		if (key[0] == 'c')
			return set_charset_field(r, r->text.charset, sizeof r->text.charset, key, value);
		return set_charset_field(r, r->text.fallback, sizeof r->text.fallback, key, value);
	}
	/* An option of a container (the password of an encrypted one): used when the open
	 * unpacks it, so after the open it changes nothing. */
	if (gamedb__container_has_option(key)) {
		int rc;
		if (r->state != GAMEDB__RS_NEW)
			return GAMEDB_WARN;
		rc = gamedb__container_option_set(&r->container_options, key, value);
		if (rc == -1)
			return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
					     "gamedb_reader_set_option: more than %d container options",
					     GAMEDB__CONTAINER_MAX_OPTIONS);
		if (rc != 0)
			return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_NOMEM, "out of memory");
		return GAMEDB_OK;
	}
	/* A key no format has is an error at once, before or after the open. */
	if (!gamedb__format_has_option(f, key))
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_UNKNOWN_OPTION,
				     "gamedb_reader_set_option: %s%s%sno format knows the option \"%s\"",
				     f ? "format " : "", f ? f->name : "", f ? " has no such option; " : "",
				     key);
	/* Before the open: kept for the format that will open the base. */
	if (r->state == GAMEDB__RS_NEW)
		return pending_add(r, f, key, value);
	/* After: the open format takes it; an option of another format is no error (WARN). */
	if ((f && f != r->fmt) || !gamedb__format_has_option(r->fmt, key) || !r->fmt->set_option)
		return GAMEDB_WARN;
	{
		const int32_t rc = r->fmt->set_option(r->fmt_state, key, value);
		/* Kept as well, for the readers opened on this one (gamedb_reader_open_shared()). */
		if ((rc == GAMEDB_OK || rc == GAMEDB_WARN) && pending_put(r, f, key, value) != 0)
			r->options_lost = 1;
		return rc;
	}
}

GAMEDB_EXPORT int32_t gamedb_reader_set_converter(struct gamedb_reader *r,
						  gamedb_text_converter_fn fn, void *user_data)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC)
		return GAMEDB_FATAL;
	r->text.hook = fn;
	r->text.hook_user_data = fn ? user_data : NULL;
	return GAMEDB_OK;
}

/* Picks the format (forced, or the best bid) and opens the database. */
static char *with_ext(const char *path, const char *ext, int upper)
{
	size_t n = strlen(path), e = strlen(ext), i;
	char *out = malloc(n + e + 1);

	if (!out)
		return NULL;
	memcpy(out, path, n);
	for (i = 0; i <= e; i++)
		out[n + i] = (char)(upper && ext[i] >= 'a' && ext[i] <= 'z' ? ext[i] - 'a' + 'A' : ext[i]);
	return out;
}

/*
 * When path ends in an extension that some format lists as a sibling (a file of a base that
 * does not open it), the file beside it that opens that base, if there is one (the caller
 * frees it); else NULL. Used for the message of a file no format bids on.
 */
static char *index_of(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	struct stat st;
	size_t i, k, j, n;
	int upper;

	if (!dot || (slash && dot < slash))
		return NULL;
	n = (size_t)(dot - path);
	for (i = 0; i < gamedb__format_count(); i++) {
		const struct gamedb__format *f = gamedb__format_at(i);
		for (k = f->opens; f->extensions[k]; k++) {
			if (strcasecmp(dot, f->extensions[k]) != 0)
				continue;
			for (upper = 0; upper < 2; upper++) {
				for (j = 0; j < f->opens; j++) {
					char *base = malloc(n + 1), *cand;
					if (!base)
						return NULL;
					memcpy(base, path, n);
					base[n] = 0;
					cand = with_ext(base, f->extensions[j], upper);
					free(base);
					if (cand && stat(cand, &st) == 0)
						return cand;
					free(cand);
				}
			}
		}
	}
	return NULL;
}

/*
 * Whether the primary file f of src, which no format reads, is PGN text: named .pgn, or
 * starting (after blanks and a UTF-8 byte order mark) with an [Event tag. Its message then
 * says so, for every caller: a user gives PGN to a library that turns databases into PGN.
 */
static int looks_like_pgn(struct gamedb__src *src, struct gamedb__file *f)
{
	const char *name = src->primary ? src->primary : "";
	size_t n = strlen(name), i = 0;
	const uint8_t *p;
	int64_t got;

	if (n > 4 && name[n - 4] == '.' && strcasecmp(name + n - 3, "pgn") == 0)
		return 1;
	got = f ? gamedb__file_view(f, 0, 64, &p) : -1;
	if (got <= 0)
		return 0;
	while (i < (size_t)got && p[i] && strchr(" \t\r\n\xef\xbb\xbf", p[i]))
		i++;
	return (size_t)got - i >= 7 && memcmp(p + i, "[Event ", 7) == 0;
}

/*
 * Arms the games unit of the progress callback on an open reader: due at the next multiple of
 * GAMEDB_PROGRESS_GAMES_STEP calls of next_game, for a format that counts its games (a stream
 * reports its bytes itself). The count is read once, here; its error, if any, is not kept (the
 * open's own message stays).
 */
static void progress_arm(struct gamedb_reader *r)
{
	char msg[sizeof r->errmsg];
	int32_t code = r->errcode;
	uint64_t n = 0;

	r->progress_at = UINT64_MAX;
	if (!r->progress || !r->fmt || !r->fmt->game_count || r->state != GAMEDB__RS_OPEN)
		return;
	memcpy(msg, r->errmsg, sizeof msg);
	if (r->fmt->game_count(r->fmt_state, &n) != GAMEDB_OK)
		n = 0;
	r->errcode = code;
	memcpy(r->errmsg, msg, sizeof msg);
	r->progress_total = n;
	r->progress_at = (r->progress_calls / GAMEDB_PROGRESS_GAMES_STEP + 1) *
			 GAMEDB_PROGRESS_GAMES_STEP;
}

/*
 * The games unit's report, from next_game: the games read so far (the calls before this one),
 * or at the end the whole (a count below the games read is raised to them). Then the next one
 * is due a step later, or never after the end.
 */
static int32_t progress_games(struct gamedb_reader *r, int end)
{
	uint64_t done = r->progress_calls - 1;

	if (r->progress_total < done)
		r->progress_total = done;
	if (end)
		done = r->progress_total;
	r->progress_at = end ? UINT64_MAX : r->progress_at + GAMEDB_PROGRESS_GAMES_STEP;
	return gamedb__progress(r, GAMEDB_PROGRESS_GAMES, done, r->progress_total) ? GAMEDB_FATAL
										    : GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_reader_set_progress(struct gamedb_reader *r, gamedb_progress_fn fn,
						 void *user_data)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC)
		return GAMEDB_FATAL;
	if (r->state == GAMEDB__RS_FATAL)
		return check(r, "gamedb_reader_set_progress", 0);
	r->progress = fn;
	r->progress_data = user_data;
	progress_arm(r);
	return GAMEDB_OK;
}

/*
 * Opens the base r's source names. unpack: the containers bid first, and the one whose file it
 * is (a whole base in one file) unpacks it in memory, the base inside then read; 0 for a source
 * that shows an unpacked set already (gamedb_reader_open_shared()).
 */
static int32_t open_source(struct gamedb_reader *r, int unpack)
{
	const struct gamedb__format *best = NULL;
	int best_bid = 0;
	size_t i;
	int32_t rc;

	if (unpack && gamedb__container_open(r, &r->src, &r->container_options) != GAMEDB_OK)
		goto fatal;
	if (r->forced) {
		best = r->forced;
	} else {
		struct gamedb__file *f;
		if (r->nformats == 0)
			gamedb_reader_support_format_all(r);
		if (gamedb__src_open(&r->src, NULL, 0, &f) != 0)
			goto fatal;
		for (i = 0; i < r->nformats; i++) {
			int bid = r->formats[i]->bid(&r->src);
			if (bid > best_bid) {
				best_bid = bid;
				best = r->formats[i];
			}
		}
		if (!best) {
			char *index = r->src.kind == GAMEDB__SRC_PATH ? index_of(r->src.primary) : NULL;
			if (index)
				gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNRECOGNIZED_FORMAT,
					      "%s: a file of a base, not the file it is opened by: open "
					      "%s", r->src.primary, index);
			else if (looks_like_pgn(&r->src, f))
				gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNRECOGNIZED_FORMAT,
					      "%s: not a database of any format this library reads: "
					      "it is PGN already; any PGN reader reads this file as it "
					      "is", r->src.primary);
			else
				gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNRECOGNIZED_FORMAT,
					      "%s: not a database of any format this library reads",
					      r->src.primary);
			free(index);
			goto fatal;
		}
	}
	r->fmt = best;
	r->state = GAMEDB__RS_OPEN;
	rc = best->open(r, &r->fmt_state);
	gamedb__text_at(&r->text, NULL, 0); /* a format's place hint ends with its call */
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		r->fmt_state = NULL;
		r->fmt = NULL;
		goto fatal;
	}
	if (pending_apply(r) != GAMEDB_OK) {
		best->close(r->fmt_state);
		r->fmt_state = NULL;
		r->fmt = NULL;
		goto fatal;
	}
	/* Texts read at the open (name tables) that needed the fallback: one warning. */
	if (r->text.fallback_texts && rc == GAMEDB_OK) {
		char where[64] = "";
		if (r->text.fallback_file)
			snprintf(where, sizeof where, "offset %llu: ",
				 (unsigned long long)r->text.fallback_off);
		rc = gamedb__error(r, GAMEDB_WARN, GAMEDB_E_ENCODING,
				   "%s: %s%llu text%s not %s, read as %s (the fallback charset); the "
				   "first: \"%s\"",
				   r->text.fallback_file ? r->text.fallback_file :
				   r->src.primary ? r->src.primary : "the database", where,
				   (unsigned long long)r->text.fallback_texts,
				   r->text.fallback_texts == 1 ? " is" : "s are",
				   gamedb__reader_charset(r), gamedb__reader_fallback(r),
				   r->text.fallback_sample);
	}
	r->text.fallback_texts = 0;
	r->text.fallback_sample[0] = 0;
	progress_arm(r);
	return rc;
fatal:
	r->state = GAMEDB__RS_FATAL;
	src_close(r);
	return GAMEDB_FATAL;
}

/*
 * A base name (path names no file): sets r->src.primary to the first file next to it that
 * opens a base: a registered format's extensions first, then the containers' (an archive
 * such as base.cbv, which holds a base of a format), in lower case and then, for copies from
 * Windows, in upper case. Leaves it NULL when there is none.
 */
static int32_t find_base(struct gamedb_reader *r, const char *path, char **also)
{
	struct stat st;
	size_t i, k, j;
	int upper;

	*also = NULL;
	for (upper = 0; upper < 2; upper++) {
		for (i = 0; i < gamedb__format_count() + gamedb__container_count(); i++) {
			const struct gamedb__format *f = NULL;
			const char *const *exts;
			size_t n;
			if (i < gamedb__format_count()) {
				f = gamedb__format_at(i);
				exts = f->extensions;
				n = f->opens;
			} else {
				exts = gamedb__container_at(i - gamedb__format_count())->extensions;
				n = SIZE_MAX;
			}
			for (k = 0; exts && k < n && exts[k]; k++) {
				char *cand = with_ext(path, exts[k], upper);
				if (!cand)
					return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM,
							     "out of memory");
				if (stat(cand, &st) != 0) {
					free(cand);
					continue;
				}
				r->src.primary = cand;
				/*
				 * Another base of the same format and name (two index versions of
				 * one format side by side): the first extension wins, and the caller
				 * is told.
				 */
				for (j = k + 1; f && j < n && exts[j] && !*also; j++) {
					char *other = with_ext(path, exts[j], upper);
					if (other && stat(other, &st) == 0)
						*also = other;
					else
						free(other);
				}
				return GAMEDB_OK;
			}
		}
	}
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_reader_open_filename(struct gamedb_reader *r, const char *path)
{
	struct stat st;
	char *also = NULL;
	int32_t rc = check_open(r, "gamedb_reader_open_filename");

	if (rc != GAMEDB_OK)
		return rc;
	if (!path)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_open_filename: path is NULL");
	r->src.kind = GAMEDB__SRC_PATH;
	if (stat(path, &st) != 0) {
		/* A base name: look for a file that opens a base of some format next to it. */
		rc = find_base(r, path, &also);
		if (rc != GAMEDB_OK)
			return rc;
	}
	if (!r->src.primary)
		r->src.primary = gamedb__strdup(path);
	if (!r->src.primary) {
		free(also);
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	}
	rc = open_source(r, 1);
	if (also && (rc == GAMEDB_OK || rc == GAMEDB_WARN)) {
		/* Say which of the two bases of that name was read (and keep the format's note). */
		char prev[sizeof r->errmsg];
		snprintf(prev, sizeof prev, "%s", rc == GAMEDB_WARN ? r->errmsg : "");
		rc = gamedb__error(r, GAMEDB_WARN, GAMEDB_E_NONE,
				   "%s: opened %s; %s has the same base name and was not read "
				   "(name that file to read it)%s%s",
				   path, r->src.primary, also, *prev ? "; " : "", prev);
	}
	free(also);
	return rc;
}

GAMEDB_EXPORT int32_t gamedb_reader_open_memory(struct gamedb_reader *r, const char *name,
						const void *data, size_t size)
{
	const char *names[1];
	const void *datas[1];
	size_t sizes[1];

	names[0] = name ? name : "memory";
	datas[0] = data;
	sizes[0] = size;
	return gamedb_reader_open_memory_set(r, names, datas, sizes, 1);
}

GAMEDB_EXPORT int32_t gamedb_reader_open_memory_set(struct gamedb_reader *r,
						    const char *const *names,
						    const void *const *data, const size_t *sizes,
						    size_t count)
{
	struct gamedb__src *src;
	size_t i;
	int32_t rc = check_open(r, "gamedb_reader_open_memory_set");

	if (rc != GAMEDB_OK)
		return rc;
	if (!names || !data || !sizes || count == 0 || count > 64)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_open_memory_set: no files given");
	src = &r->src;
	src->kind = GAMEDB__SRC_MEMSET;
	src->mem_names = calloc(count, sizeof *src->mem_names);
	src->mem_data = calloc(count, sizeof *src->mem_data);
	src->mem_sizes = calloc(count, sizeof *src->mem_sizes);
	if (!src->mem_names || !src->mem_data || !src->mem_sizes)
		goto nomem;
	src->nmem = count;
	for (i = 0; i < count; i++) {
		if (!names[i] || (!data[i] && sizes[i]))
			return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_INVALID_ARGUMENT,
					     "gamedb_reader_open_memory_set: file %zu has no name or data", i);
		src->mem_names[i] = gamedb__strdup(names[i]);
		if (!src->mem_names[i])
			goto nomem;
		src->mem_data[i] = data[i];
		src->mem_sizes[i] = sizes[i];
	}
	src->primary = gamedb__strdup(names[0]);
	if (!src->primary)
		goto nomem;
	return open_source(r, 1);
nomem:
	r->state = GAMEDB__RS_FATAL;
	return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
}

GAMEDB_EXPORT int32_t gamedb_io_init(struct gamedb_io *io, size_t size)
{
	if (!io || size != sizeof *io)
		return GAMEDB_FAILED;
	memset(io, 0, sizeof *io);
	io->size = size;
	return GAMEDB_OK;
}

GAMEDB_EXPORT int32_t gamedb_reader_open_io(struct gamedb_reader *r, const struct gamedb_io *io,
					    const char *name, void *user_data)
{
	int32_t rc = check_open(r, "gamedb_reader_open_io");

	if (rc != GAMEDB_OK)
		return rc;
	if (!io || !name)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_open_io: io or name is NULL");
	/* Version 1 of the struct is the only one so far: older is impossible, newer unknown. */
	if (io->size != sizeof *io)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_STRUCT_SIZE,
				     "gamedb_reader_open_io: struct gamedb_io has size %zu, expected %zu",
				     io->size, sizeof *io);
	if (!io->open || !io->read_at)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_open_io: open and read_at are required");
	r->src.kind = GAMEDB__SRC_CALLER;
	r->src.io = *io;
	r->src.io_user_data = user_data;
	r->src.primary = gamedb__strdup(name);
	if (!r->src.primary)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	return open_source(r, 1);
}

GAMEDB_EXPORT int32_t gamedb_reader_open_shared(struct gamedb_reader *r,
						const struct gamedb_reader *base)
{
	const struct gamedb__src *from;
	struct gamedb__pending_option own[GAMEDB__MAX_PENDING];
	size_t nown, i;
	int32_t rc = check_open(r, "gamedb_reader_open_shared");

	if (rc != GAMEDB_OK)
		return rc;
	/*
	 * base may be in use in another thread: only what its open set and nothing after it
	 * changes is read (magic, fmt, the source's kind, names and archive, the options). fmt is
	 * set once its open has succeeded.
	 */
	if (!base || base == r || base->magic != GAMEDB__READER_MAGIC || !base->fmt)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_open_shared: base is not a reader with a database "
				     "open");
	from = &base->src;
	if (from->kind == GAMEDB__SRC_CALLER && !from->archive)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNSUPPORTED,
				     "gamedb_reader_open_shared: %s is read through caller I/O, whose "
				     "callbacks may not be used from two readers: open it with "
				     "gamedb_reader_open_io()", from->primary);
	if (base->options_lost)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNSUPPORTED,
				     "gamedb_reader_open_shared: %s has more options set than a reader "
				     "keeps (%d): open it with the options wanted", from->primary,
				     GAMEDB__MAX_PENDING);
	/* The same format, no bidding: the base is the one base has open. */
	r->forced = base->fmt;
	if (!r->text.charset[0])
		memcpy(r->text.charset, base->text.charset, sizeof r->text.charset);
	if (!r->text.fallback[0])
		memcpy(r->text.fallback, base->text.fallback, sizeof r->text.fallback);
	/* base's options, then r's own (set before this call), which win. */
	nown = r->npending;
	memcpy(own, r->pending, sizeof own);
	r->npending = 0;
	for (i = 0; i < base->npending && rc == GAMEDB_OK; i++)
		rc = pending_add(r, base->pending[i].format, base->pending[i].key,
				 base->pending[i].value);
	for (i = 0; i < nown; i++) {
		if (rc == GAMEDB_OK)
			rc = pending_add(r, own[i].format, own[i].key, own[i].value);
		free(own[i].key);
		free(own[i].value);
	}
	if (rc != GAMEDB_OK) { /* pending_add() said why */
		r->state = GAMEDB__RS_FATAL;
		return GAMEDB_FATAL;
	}
	if (from->archive) {
		/* The unpacked members, shared: not unpacked (nor deciphered) again. */
		if (gamedb__container_share(r, &r->src, from) != GAMEDB_OK) {
			r->state = GAMEDB__RS_FATAL;
			src_close(r);
			return GAMEDB_FATAL;
		}
		return open_source(r, 0);
	}
	if (from->kind == GAMEDB__SRC_MEMSET)
		return gamedb_reader_open_memory_set(r, (const char *const *)from->mem_names,
						     from->mem_data, from->mem_sizes, from->nmem);
	/* A file on disk: the same file (the one base found), opened again. */
	r->src.kind = GAMEDB__SRC_PATH;
	r->src.primary = gamedb__strdup(from->primary);
	if (!r->src.primary)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	return open_source(r, 1);
}

GAMEDB_EXPORT int32_t gamedb_reader_next_game(struct gamedb_reader *r, struct gamedb_game **out)
{
	int32_t rc = check(r, "gamedb_reader_next_game", 1);

	if (out)
		*out = NULL;
	if (rc != GAMEDB_OK)
		return rc;
	if (!out)
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_next_game: out is NULL");
	gamedb__clear_error(r);
	gamedb__game_reset(&r->game);
	r->text.fallback_texts = 0;
	r->text.fallback_sample[0] = 0;
	/* The progress callback's games unit: a counter compared, the report once a step. */
	if (r->progress_calls++ >= r->progress_at && progress_games(r, 0) != GAMEDB_OK)
		return GAMEDB_FATAL;
	rc = r->fmt->next_game(r->fmt_state, &r->game);
	if (rc == GAMEDB_END && r->progress_at != UINT64_MAX && progress_games(r, 1) != GAMEDB_OK)
		return GAMEDB_FATAL;
	gamedb__text_at(&r->text, NULL, 0);
	if ((rc == GAMEDB_OK || rc == GAMEDB_WARN) && r->text.fallback_texts)
		gamedb__game_fallback_warning(&r->game);
	if (rc == GAMEDB_OK || rc == GAMEDB_WARN) {
		if (r->game.text_status == GAMEDB_WARN && rc == GAMEDB_OK) {
			rc = GAMEDB_WARN;
			if (r->errmsg[0])
				; /* the format's own warning stays */
			else if (r->game.fallback) /* the message names file and game */
				gamedb__error(r, GAMEDB_WARN, GAMEDB_E_ENCODING, "%s", r->game.errmsg);
			else
				gamedb__error(r, GAMEDB_WARN, GAMEDB_E_ENCODING,
					      "game %llu: text converted with loss: %s",
					      (unsigned long long)r->game.index + 1, r->game.errmsg);
		}
		*out = &r->game;
	}
	if (rc == GAMEDB_FATAL)
		r->state = GAMEDB__RS_FATAL;
	return rc;
}

GAMEDB_EXPORT int32_t gamedb_reader_seek_game(struct gamedb_reader *r, uint64_t index)
{
	int32_t rc = check(r, "gamedb_reader_seek_game", 1);

	if (rc != GAMEDB_OK)
		return rc;
	if (!r->fmt->seek_game)
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_UNSUPPORTED,
				     "gamedb_reader_seek_game: the %s format cannot seek", r->fmt->name);
	gamedb__clear_error(r);
	gamedb__game_reset(&r->game);
	return r->fmt->seek_game(r->fmt_state, index);
}

GAMEDB_EXPORT int32_t gamedb_reader_game_count(struct gamedb_reader *r, uint64_t *out)
{
	int32_t rc = check(r, "gamedb_reader_game_count", 1);

	if (rc != GAMEDB_OK)
		return rc;
	if (!out)
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_INVALID_ARGUMENT,
				     "gamedb_reader_game_count: out is NULL");
	if (!r->fmt->game_count)
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_UNSUPPORTED,
				     "gamedb_reader_game_count: the %s format cannot count games",
				     r->fmt->name);
	return r->fmt->game_count(r->fmt_state, out);
}

GAMEDB_EXPORT uint32_t gamedb_reader_capabilities(const struct gamedb_reader *r)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC || !r->fmt)
		return 0;
	return r->fmt->caps;
}

GAMEDB_EXPORT const char *gamedb_reader_format(const struct gamedb_reader *r)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC || !r->fmt)
		return NULL;
	return r->fmt->name;
}

GAMEDB_EXPORT int32_t gamedb_reader_uses_file(const struct gamedb_reader *r, const char *path)
{
	int used;

	if (!r || r->magic != GAMEDB__READER_MAGIC || !path)
		return GAMEDB_FATAL;
	used = gamedb__src_uses_path(&r->src, path);
	return used < 0 ? GAMEDB_FATAL : used;
}

GAMEDB_EXPORT const char *gamedb_reader_errmsg(const struct gamedb_reader *r)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC)
		return "invalid reader handle";
	return r->errmsg;
}

GAMEDB_EXPORT int32_t gamedb_reader_errcode(const struct gamedb_reader *r)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC)
		return GAMEDB_E_MISUSE;
	return r->errcode;
}

GAMEDB_EXPORT int32_t gamedb_reader_get_os_error(const struct gamedb_reader *r)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC)
		return 0;
	return r->os_error;
}

void *gamedb__reader_handle(struct gamedb_reader *r, const struct gamedb__format *f)
{
	if (!r || r->magic != GAMEDB__READER_MAGIC || r->fmt != f || !f->handle ||
	    r->state != GAMEDB__RS_OPEN)
		return NULL;
	return f->handle(r->fmt_state);
}
