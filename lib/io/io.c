/*
 * libgamedb - the I/O layer: the files of one database, from disk (pread into a window), from
 * memory, or through the caller's I/O callbacks. Formats see only views of bytes.
 *
 * Files on disk are not mapped. A base may be shrunk or rewritten by another program while it
 * is read (Scid or ChessBase compacting it, a sync tool replacing it), and touching a mapped
 * page past the new end of the file raises SIGBUS, which kills the program that links the
 * library. Reading with pread() turns that into a short read, reported as an error naming the
 * file and the offset. doc/io.md has the measurements behind this choice.
 *
 * What depends on the platform (open, read at an offset, a file's identity) is io-posix.c or
 * io-win.c (io-os.h), chosen by meson; the windows of bytes and everything else are here.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io-os.h"
#include "io/io.h"

/*
 * Records an error in the source's own record (the file's name, the offset or
 * GAMEDB__IO_NO_OFFSET, the whole message) and hands the record to the source's report hook
 * (the reader core copies it into the reader's error). Returns -1.
 */
/*
 * Records an error of the source (os_error: the errno of the failed OS call behind it, 0 when
 * none) and tells the owner; returns -1.
 */
static int io_error(struct gamedb__src *src, int os_error, int32_t status, int32_t code,
		    const char *file, uint64_t offset, const char *fmt, ...) GAMEDB__PRINTF(7, 8);

static int io_error(struct gamedb__src *src, int os_error, int32_t status, int32_t code,
		    const char *file, uint64_t offset, const char *fmt, ...)
{
	struct gamedb__io_error *e = &src->err;
	va_list ap;

	e->count++;
	e->os_error = os_error;
	e->status = status;
	e->code = code;
	snprintf(e->file, sizeof e->file, "%s", file ? file : "");
	e->offset = offset;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof e->message, fmt, ap);
	va_end(ap);
	if (src->report)
		src->report(src->report_ctx, e);
	return -1;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');
#ifdef _WIN32
	const char *bslash = strrchr(path, '\\'); /* both separate folders on Windows */
	if (bslash && (!slash || bslash > slash))
		slash = bslash;
#endif
	return slash ? slash + 1 : path;
}

char *gamedb__src_sibling_name(const struct gamedb__src *src, const char *ext)
{
	const char *base, *dot;
	size_t stem, elen;
	char *out;

	if (!src->primary)
		return NULL;
	base = basename_of(src->primary);
	dot = strrchr(base, '.');
	stem = dot ? (size_t)(dot - src->primary) : strlen(src->primary);
	elen = strlen(ext);
	out = malloc(stem + elen + 1);
	if (!out)
		return NULL;
	memcpy(out, src->primary, stem);
	memcpy(out + stem, ext, elen + 1);
	return out;
}

static void file_free(struct gamedb__file *f)
{
	if (!f)
		return;
	switch (f->kind) {
	case GAMEDB__FILE_FD:
		gamedb__os_close(f);
		break;
	case GAMEDB__FILE_CALLER:
		if (f->src->io.close)
			f->src->io.close(f->src->io_user_data, f->handle);
		break;
	default:
		break;
	}
	gamedb__buf_free(&f->win);
	free(f->name);
	free(f);
}

static int open_named(struct gamedb__src *src, const char *ext, int quiet,
		      struct gamedb__file **out)
{
	struct gamedb__file *f;
	size_t i;
	char *name;

	*out = NULL;
	name = ext ? gamedb__src_sibling_name(src, ext)
		   : (src->primary ? gamedb__strdup(src->primary) : NULL);
	if (!name)
		return io_error(src, 0, GAMEDB_FATAL, GAMEDB_E_NOMEM, src->primary,
				GAMEDB__IO_NO_OFFSET, "out of memory");
	for (i = 0; i < src->nfiles; i++) {
		if (strcmp(src->files[i]->name, name) == 0) {
			free(name);
			*out = src->files[i];
			return 0;
		}
	}
	if (src->nfiles == sizeof src->files / sizeof src->files[0]) {
		io_error(src, 0, GAMEDB_FATAL, GAMEDB_E_MISUSE, name, GAMEDB__IO_NO_OFFSET,
			 "too many files");
		free(name);
		return -1;
	}
	f = calloc(1, sizeof *f);
	if (!f) {
		io_error(src, 0, GAMEDB_FATAL, GAMEDB_E_NOMEM, name, GAMEDB__IO_NO_OFFSET,
			 "out of memory");
		free(name);
		return -1;
	}
	f->name = name;
	f->fd = -1;
	f->src = src;

	switch (src->kind) {
	case GAMEDB__SRC_PATH: {
		char why[128] = "";
		if (gamedb__os_open(f, why, sizeof why) != 0) {
			if (!quiet)
				io_error(src, f->os_error, GAMEDB_FATAL, GAMEDB_E_IO, name,
					 GAMEDB__IO_NO_OFFSET, "%s: cannot open: %s", name, why);
			file_free(f);
			return -1;
		}
		break;
	}
	case GAMEDB__SRC_MEMSET:
		for (i = 0; i < src->nmem; i++) {
			/* Match the full name, else the file name without directories. */
			if (strcmp(src->mem_names[i], name) == 0 ||
			    strcmp(basename_of(src->mem_names[i]), basename_of(name)) == 0)
				break;
		}
		if (i == src->nmem) {
			if (!quiet)
				io_error(src, 0, GAMEDB_FATAL, GAMEDB_E_IO, name, GAMEDB__IO_NO_OFFSET,
					 "%s: no such file in the memory set", name);
			file_free(f);
			return -1;
		}
		f->kind = GAMEDB__FILE_MEM;
		f->map = src->mem_data[i] ? src->mem_data[i] : (const void *)"";
		f->size = src->mem_sizes[i];
		break;
	case GAMEDB__SRC_CALLER:
		if (!src->io.open || !src->io.read_at ||
		    src->io.open(src->io_user_data, name, &f->handle, &f->size) != 0) {
			if (!quiet)
				io_error(src, 0, GAMEDB_FATAL, GAMEDB_E_IO, name, GAMEDB__IO_NO_OFFSET,
					 "%s: the caller's I/O could not open it", name);
			file_free(f);
			return -1;
		}
		f->kind = GAMEDB__FILE_CALLER;
		break;
	default:
		file_free(f);
		return io_error(src, 0, GAMEDB_FATAL, GAMEDB_E_MISUSE, name, GAMEDB__IO_NO_OFFSET,
				"no source");
	}
	src->files[src->nfiles++] = f;
	*out = f;
	return 0;
}

/*
 * Window sizes. Files up to WHOLE_FILE are read whole on their first view (name tables, index
 * headers, XQF games): every later view is a hit. Larger files are read through a window that
 * starts at CHUNK_MIN and doubles, up to CHUNK_MAX, while each refill continues forward from
 * the last (a pass over the games), and falls back to CHUNK_MIN on a jump (random lookups).
 */
/*
 * The size a caller's open() gives for a stream whose length it cannot know (a pipe): views
 * then go forward, and the first read that finds nothing more sets the size (only stream
 * formats such as style12 read such a source; see gamedb.h, struct gamedb_io).
 */
#define GAMEDB__SIZE_UNKNOWN UINT64_MAX

enum {
	WHOLE_FILE = 1 << 20,
	CHUNK_MIN = 16 << 10,
	CHUNK_MAX = 256 << 10,
	RUN_GAP = 256,        /* a forward gap up to this is still the same run */
	RUN_MIN = 1 << 10,    /* shorter runs predict nothing */
	RUN_SLACK = 1 << 10,  /* read this much past the predicted end of a run */
};

/*
 * Runs. A reader that reads a base in pieces (the workers of gamedb --jobs: runs of games, each
 * worker skipping the runs of the others) views a file in runs of forward views (a view may
 * go back inside its run: a game's record, then its parts) separated by jumps. A window that
 * doubles up to CHUNK_MAX would read far into the runs the reader skips (gamedb --jobs 2
 * read 1.7 times the .sg4). So the length of the last run is kept, and while
 * the current run has not yet reached that length, a refill reads only up to where the run is
 * expected to end (plus RUN_SLACK). One pass over the whole file is a single run and is read as
 * before.
 */
static void note_view(struct gamedb__file *f, uint64_t off, size_t len)
{
	if (off < f->run_start || (off > f->pos && off - f->pos > RUN_GAP)) {
		f->last_run = f->pos - f->run_start;
		f->run_start = off;
		f->pos = off;
	}
	if (off + len > f->pos)
		f->pos = off + len;
}

/*
 * Reads n bytes at off into buf through the file's kind; the count read, 0 at the end, -1 with
 * why (cap bytes) saying why.
 */
static int64_t read_at(struct gamedb__file *f, uint64_t off, uint8_t *buf, size_t n, char *why,
		       size_t cap)
{
	int64_t got;

	if (f->kind == GAMEDB__FILE_FD)
		return gamedb__os_read_at(f, off, buf, n, why, cap);
	got = f->src->io.read_at(f->src->io_user_data, f->handle, off, buf, n);
	if (got < 0)
		snprintf(why, cap, "caller I/O");
	return got;
}

/*
 * Refills the window so that it holds [off, off + avail), then points *out at off. An error is
 * recorded (io_error()) with the FAILED status: the format decides whether it ends the game
 * (FAILED) or the reader (FATAL).
 */
static int64_t refill(struct gamedb__file *f, uint64_t off, size_t avail, const uint8_t **out)
{
	uint64_t start = off;
	size_t want = avail, done = 0;

	if (f->size <= WHOLE_FILE) {
		start = 0;
		want = (size_t)f->size;
	} else {
		size_t ask;
		if (f->chunk == 0)
			f->chunk = CHUNK_MIN;
		else if (f->win.len && off >= f->win_off &&
			 off - f->win_off <= (uint64_t)f->win.len + f->chunk)
			f->chunk = f->chunk < CHUNK_MAX ? f->chunk * 2 : CHUNK_MAX;
		else
			f->chunk = CHUNK_MIN;
		ask = f->chunk;
		if (f->last_run >= RUN_MIN && off - f->run_start < f->last_run) {
			/* Inside a run no longer than the last one so far: read to its likely end. */
			uint64_t rest = f->run_start + f->last_run - off + RUN_SLACK;
			if (rest < ask)
				ask = (size_t)rest;
		} else if (f->last_run >= RUN_MIN && f->last_run / 4 < ask) {
			/* Longer than the last run: on by a quarter of it (at least RUN_SLACK * 4). */
			ask = f->last_run / 4 < RUN_SLACK * 4 ? RUN_SLACK * 4 : (size_t)f->last_run / 4;
		}
		if (want < ask)
			want = f->size - off < ask ? (size_t)(f->size - off) : ask;
	}
	f->win.len = 0;
	if (gamedb__buf_reserve(&f->win, want) != 0) {
		return io_error(f->src, 0, GAMEDB_FAILED, GAMEDB_E_NOMEM, f->name, start,
				"%s: out of memory reading %zu bytes at offset %llu", f->name, want,
				(unsigned long long)start);
	}
	while (done < want) {
		char why[128] = "";
		int64_t got = read_at(f, start + done, (uint8_t *)f->win.p + done, want - done, why,
				      sizeof why);
		if (got < 0) {
			return io_error(f->src, f->os_error, GAMEDB_FAILED, GAMEDB_E_IO, f->name,
					start + done, "%s: read error at offset %llu: %s", f->name,
					(unsigned long long)(start + done), why);
		}
		if (got == 0 && f->size == GAMEDB__SIZE_UNKNOWN) {
			/* A stream of unknown length (caller I/O that said so): it ends here. */
			f->size = start + done;
			want = done;
			if (start + done <= off)
				avail = 0;
			else if (avail > start + done - off)
				avail = (size_t)(start + done - off);
			break;
		}
		if (got == 0 && done >= (size_t)(off - start) + avail) {
			want = done; /* only the read-ahead is missing: the view itself is whole */
			break;
		}
		if (got == 0 || (uint64_t)got > want - done) {
			/* Less than the size at open: another program shrank or rewrote the file. */
			return io_error(f->src, 0, GAMEDB_FAILED, GAMEDB_E_IO, f->name, start + done,
					"%s: offset %llu: the file ends early: it held %llu bytes "
					"when it was opened and has changed since",
					f->name, (unsigned long long)(start + done),
					(unsigned long long)f->size);
		}
		done += (size_t)got;
	}
	f->win_off = start;
	f->win.len = want;
	*out = avail ? (const uint8_t *)f->win.p + (off - start) : (const uint8_t *)"";
	return (int64_t)avail;
}

int64_t gamedb__file_view(struct gamedb__file *f, uint64_t off, size_t len, const uint8_t **out)
{
	size_t avail;

	*out = NULL;
	if (off >= f->size) {
		*out = (const uint8_t *)"";
		return 0;
	}
	avail = (f->size - off < (uint64_t)len) ? (size_t)(f->size - off) : len;
	if (f->map) {
		*out = f->map + off;
		return (int64_t)avail;
	}
	note_view(f, off, avail);
	if (off >= f->win_off && off - f->win_off <= f->win.len &&
	    avail <= f->win.len - (size_t)(off - f->win_off)) {
		*out = (const uint8_t *)f->win.p + (off - f->win_off);
		return (int64_t)avail;
	}
	return refill(f, off, avail, out);
}

int gamedb__src_uses_path(const struct gamedb__src *src, const char *path)
{
	uint64_t dev = 0, ino = 0;
	size_t i;
	int found = gamedb__os_path_id(path, &dev, &ino);

	if (found <= 0)
		return found;
	for (i = 0; i < src->nfiles; i++) {
		const struct gamedb__file *f = src->files[i];
		if (f->has_id && f->dev == dev && f->ino == ino)
			return 1;
	}
	/* The archive a memory set was unpacked from. */
	if (src->archive && src->archive->has_id && src->archive->dev == dev &&
	    src->archive->ino == ino)
		return 1;
	return 0;
}

void gamedb__src_close(struct gamedb__src *src)
{
	size_t i;

	for (i = 0; i < src->nfiles; i++)
		file_free(src->files[i]);
	src->nfiles = 0;
	for (i = 0; i < src->nmem; i++)
		free(src->mem_names[i]);
	free(src->mem_names);
	free(src->mem_data);
	free(src->mem_sizes);
	src->mem_names = NULL;
	src->mem_data = NULL;
	src->mem_sizes = NULL;
	src->nmem = 0;
	gamedb__archive_free(src->archive);
	src->archive = NULL;
	free(src->primary);
	src->primary = NULL;
	src->kind = GAMEDB__SRC_NONE;
}

/* 1 if the primary file's extension is written in upper case ("BASE.SI4", "GAME.XQF"). */
static int primary_ext_upper(const struct gamedb__src *src)
{
	const char *dot = src->primary ? strrchr(basename_of(src->primary), '.') : NULL;

	return dot && dot[1] >= 'A' && dot[1] <= 'Z';
}

/* ext with its letters in upper (up) or lower case, into buf (cap bytes); NULL if too long. */
static const char *ext_in_case(const char *ext, int up, char *buf, size_t cap)
{
	size_t i;

	if (strlen(ext) >= cap)
		return NULL;
	for (i = 0; ext[i]; i++) {
		char c = ext[i];
		if (up && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		else if (!up && c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		buf[i] = c;
	}
	buf[i] = 0;
	return buf;
}

int gamedb__src_open(struct gamedb__src *src, const char *ext, int quiet, struct gamedb__file **out)
{
	char first[16], second[16];
	const char *a, *b;
	unsigned long before = src->err.count;
	int up;

	if (!ext)
		return open_named(src, NULL, quiet, out);
	/*
	 * Bases copied from Windows or DOS often have upper-case names (BASE.CBH, BASE.CBG): a
	 * sibling's extension is tried in the case of the primary file's first, then in the other.
	 */
	up = primary_ext_upper(src);
	a = ext_in_case(ext, up, first, sizeof first);
	b = ext_in_case(ext, !up, second, sizeof second);
	if (!a || !b || strcmp(a, b) == 0)
		return open_named(src, ext, quiet, out);
	if (open_named(src, a, 1, out) == 0)
		return 0;
	if (src->err.count != before)
		return -1; /* out of memory or no room for another file: not "absent" */
	if (open_named(src, b, 1, out) == 0)
		return 0;
	if (src->err.count != before)
		return -1;
	return quiet ? -1 : open_named(src, a, 0, out); /* once more, for the message */
}

/* The archive a source owns (io.h); its unpacker is lib/containers/cbv.c. */
void gamedb__archive_free(struct gamedb__archive *a)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < a->n; i++) {
		free(a->names[i]);
		free(a->data[i]);
	}
	free(a->names);
	free(a->data);
	free(a->sizes);
	free(a);
}
