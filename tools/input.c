/*
 * Input: a database opened with the options of the command line, and standard input ("-") as
 * caller I/O.
 */
#include "gamedb-tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * "-": standard input, read as a stream through caller I/O (the I/O layer itself opens only
 * regular files). Its length is unknown (UINT64_MAX); the library reads it forward, and only
 * what the last read asked for is kept, so a pipe of any length is read in bounded memory.
 * Only stream formats (style12) can be read this way; others fail cleanly.
 */
struct stdin_stream {
	uint8_t *buf;
	size_t len, cap;
	uint64_t base; /* stream offset of buf[0] */
	int eof;
};

static struct stdin_stream stdin_stream;

static int32_t stdin_open(void *user_data, const char *name, void **handle, uint64_t *size)
{
	if (strcmp(name, "-") != 0)
		return 1; /* no sibling files */
	*handle = user_data;
	*size = UINT64_MAX;
	return 0;
}

static int64_t stdin_read_at(void *user_data, void *handle, uint64_t off, void *buf, size_t len)
{
	struct stdin_stream *s = handle;
	size_t have;

	(void)user_data;
	if (off < s->base)
		return -1; /* behind what is kept: a stream is read forward only */
	for (;;) {
		/* Forget what comes before off. */
		size_t drop = off - s->base < s->len ? (size_t)(off - s->base) : s->len;
		if (drop > 0 && s->len > drop) /* (nothing kept yet: buf may still be NULL) */
			memmove(s->buf, s->buf + drop, s->len - drop);
		s->len -= drop;
		s->base += drop;
		if ((s->base == off && s->len >= len) || s->eof)
			break;
		if (s->cap - s->len < 65536) {
			size_t ncap = s->cap ? s->cap * 2 : 131072;
			uint8_t *nb;
			if (ncap < s->len + 65536 || ncap > ((size_t)64 << 20))
				return -1;
			nb = realloc(s->buf, ncap);
			if (!nb)
				return -1;
			s->buf = nb;
			s->cap = ncap;
		}
		{
			ssize_t got = read(STDIN_FILENO, s->buf + s->len, s->cap - s->len);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				return -1;
			if (got == 0)
				s->eof = 1;
			s->len += (size_t)got;
		}
	}
	if (s->base != off)
		return 0; /* off is past the end */
	have = s->len < len ? s->len : len;
	memcpy(buf, s->buf, have);
	return (int64_t)have;
}

static void stdin_close(void *user_data, void *handle)
{
	struct stdin_stream *s = handle;

	(void)user_data;
	free(s->buf);
	memset(s, 0, sizeof *s);
}

/*
 * Opens the database at path with the options of o; NULL after a message. quiet: no message
 * at all (the extra readers of --jobs, on a database already opened once).
 */
struct gamedb_reader *open_db(const char *path, const struct opts *o, int quiet)
{
	struct gamedb_reader *r = gamedb_reader_new();
	int32_t rc;

	if (!r) {
		if (!quiet)
			fprintf(stderr, "gamedb: out of memory\n");
		return NULL;
	}
	gamedb_reader_support_format_all(r);
	int detect = o->charset && strcmp(o->charset, "detect") == 0;

	if (o->charset && !detect &&
	    gamedb_reader_set_option(r, NULL, "charset", o->charset) != GAMEDB_OK) {
		if (!quiet)
			fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return NULL;
	}
	if (o->password && gamedb_reader_set_option(r, NULL, "password", o->password) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return NULL;
	}
	if (strcmp(path, "-") == 0) {
		struct gamedb_io io;
		gamedb_io_init(&io, sizeof io);
		io.open = stdin_open;
		io.read_at = stdin_read_at;
		io.close = stdin_close;
		rc = gamedb_reader_open_io(r, &io, "-", &stdin_stream);
	} else {
		rc = gamedb_reader_open_filename(r, path);
	}
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		if (quiet) {
			gamedb_reader_free(r);
			return NULL;
		}
		fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return NULL;
	}
	if (rc == GAMEDB_WARN && !quiet)
		fprintf(stderr, "gamedb: warning: %s\n", gamedb_reader_errmsg(r));
	/*
	 * The options of the formats (the registry's, as given on the command line; first
	 * --charset detect, old scripts' spelling of charset-detect): the database's format takes
	 * those it knows; for the others a note says they are ignored (GAMEDB_WARN), once per
	 * database, never an abort. A value the format refuses costs this database.
	 */
	{
		size_t k;
		for (k = 0; k <= o->nfopts; k++) {
			const char *key = k ? o->fkeys[k - 1] : "charset-detect";
			const char *value = k ? o->fvals[k - 1] : detect ? "yes" : NULL;
			if (!value)
				continue;
			rc = gamedb_reader_set_option(r, NULL, key, value);
			if (rc == GAMEDB_WARN) {
				if (!quiet)
					fprintf(stderr, "gamedb: note: %s: the %s format has no option "
						"'%s'; ignored\n", path, gamedb_reader_format(r), key);
			} else if (rc != GAMEDB_OK) {
				if (!quiet)
					fprintf(stderr, "gamedb: %s: --%s: %s\n", path,
						k ? key : "charset", gamedb_reader_errmsg(r));
				gamedb_reader_free(r);
				return NULL;
			}
		}
	}
	return r;
}
