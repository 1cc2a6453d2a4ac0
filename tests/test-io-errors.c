/*
 * libgamedb - the I/O layer's own error record (lib/io/io.h, struct gamedb__io_error), below
 * the reader: what it records (status, code, file, offset, message) for a missing sibling, a
 * failing caller read and a file that ends early; that a quiet open records nothing; that the
 * report hook gets each record once; and that a reader's hook copies the record into the
 * reader's error word for word.
 *
 * The expected messages and offsets are worked out here from the I/O layer's rules
 * (doc/io.md: a file of up to 1 MiB is read whole from offset 0 on its first view; a larger
 * one through a window that starts at the view's offset), not taken from its output.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp(), mkfifo() */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "gamedb/gamedb.h"
#include "io/io.h"
#include "testlib.h"

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

/* A memory set of one file, "dir/t.si4", opened by that name (as the reader would set it). */
static void memset_one(struct gamedb__src *src, const void *data, size_t len)
{
	memset(src, 0, sizeof *src);
	src->kind = GAMEDB__SRC_MEMSET;
	src->primary = dup_str("dir/t.si4");
	src->nmem = 1;
	src->mem_names = calloc(1, sizeof(char *));
	src->mem_data = calloc(1, sizeof(void *));
	src->mem_sizes = calloc(1, sizeof(size_t));
	src->mem_names[0] = dup_str("dir/t.si4");
	src->mem_data[0] = data;
	src->mem_sizes[0] = len;
}

/* The report hook: counts its calls and keeps the last record it was given. */
struct seen {
	int calls;
	struct gamedb__io_error last;
};

static void on_error(void *ctx, const struct gamedb__io_error *e)
{
	struct seen *s = ctx;

	s->calls++;
	s->last = *e;
}

static void test_missing_sibling(void)
{
	static const char bytes[16] = "index";
	struct gamedb__src src;
	struct gamedb__file *f = NULL;
	struct seen seen = { 0 };

	memset_one(&src, bytes, sizeof bytes);
	src.report = on_error;
	src.report_ctx = &seen;

	CHECK_EQ_INT(gamedb__src_open(&src, NULL, 0, &f), 0);
	CHECK(f != NULL);
	CHECK_EQ_INT(src.err.count, 0);

	/* Quiet: -1, and nothing recorded or reported (the format may try another name). */
	CHECK_EQ_INT(gamedb__src_open(&src, ".sg4", 1, &f), -1);
	CHECK_EQ_INT(src.err.count, 0);
	CHECK_EQ_INT(seen.calls, 0);

	/* Loud: one record, handed to the hook once. */
	CHECK_EQ_INT(gamedb__src_open(&src, ".sg4", 0, &f), -1);
	CHECK_EQ_INT(src.err.count, 1);
	CHECK_EQ_INT(src.err.status, GAMEDB_FATAL);
	CHECK_EQ_INT(src.err.code, GAMEDB_E_IO);
	CHECK_EQ_STR(src.err.file, "dir/t.sg4");
	CHECK(src.err.offset == GAMEDB__IO_NO_OFFSET);
	CHECK_EQ_STR(src.err.message, "dir/t.sg4: no such file in the memory set");
	CHECK_EQ_INT(seen.calls, 1);
	CHECK_EQ_STR(seen.last.message, src.err.message);
	CHECK_EQ_INT(seen.last.count, 1);
	gamedb__src_close(&src);
}

/* Caller I/O over a file of `size` bytes whose bytes stop at `ends` (shrunk since the open);
 * with fail set every read fails. */
struct fake {
	uint64_t size, ends;
	int fail;
};

static int32_t fake_open(void *ud, const char *name, void **handle, uint64_t *size)
{
	struct fake *fk = ud;

	(void)name;
	*handle = fk;
	*size = fk->size;
	return 0;
}

static int64_t fake_read_at(void *ud, void *handle, uint64_t off, void *buf, size_t len)
{
	struct fake *fk = ud;

	(void)handle;
	if (fk->fail)
		return -1;
	if (off >= fk->ends)
		return 0;
	if (len > fk->ends - off)
		len = (size_t)(fk->ends - off);
	memset(buf, 'x', len);
	return (int64_t)len;
}

/*
 * Opens "c.xqf" through caller I/O over fk; views 4 bytes at good (unless it is
 * GAMEDB__IO_NO_OFFSET), which must work and record nothing; then views len bytes at off,
 * which must fail with one record: FAILED, E_IO, "c.xqf", want_off and want_msg.
 */
static void view_fails(struct fake fk, uint64_t good, uint64_t off, size_t len, uint64_t want_off,
		       const char *want_msg)
{
	struct gamedb__src src;
	struct gamedb__file *f = NULL;
	struct seen seen = { 0 };
	const uint8_t *p;

	memset(&src, 0, sizeof src);
	src.kind = GAMEDB__SRC_CALLER;
	src.primary = dup_str("c.xqf");
	src.io.size = sizeof src.io;
	src.io.open = fake_open;
	src.io.read_at = fake_read_at;
	src.io_user_data = &fk;
	src.report = on_error;
	src.report_ctx = &seen;
	CHECK_EQ_INT(gamedb__src_open(&src, NULL, 0, &f), 0);
	if (good != GAMEDB__IO_NO_OFFSET)
		CHECK_EQ_INT(gamedb__file_view(f, good, 4, &p), 4);
	CHECK_EQ_INT(seen.calls, 0);
	CHECK_EQ_INT(gamedb__file_view(f, off, len, &p), -1);
	CHECK_EQ_INT(seen.calls, 1);
	CHECK_EQ_INT(src.err.status, GAMEDB_FAILED);
	CHECK_EQ_INT(src.err.code, GAMEDB_E_IO);
	CHECK_EQ_STR(src.err.file, "c.xqf");
	CHECK_EQ_INT(src.err.offset, want_off);
	CHECK_EQ_STR(src.err.message, want_msg);
	CHECK_EQ_STR(seen.last.message, want_msg);
	gamedb__src_close(&src);
}

static void test_caller_read_fails(void)
{
	struct fake fk = { 100, 100, 1 };

	/* A 100-byte file is read whole on its first view: the read that fails is at 0. */
	view_fails(fk, GAMEDB__IO_NO_OFFSET, 10, 4, 0, "c.xqf: read error at offset 0: caller I/O");
}

static void test_file_ends_early(void)
{
	/* 3 MB at the open, 2,000,000 bytes now. A view before the new end works; one across it
	 * refills the window from 1999995, gets five bytes, then none: short at 2000000. */
	struct fake fk = { 3000000, 2000000, 0 };

	view_fails(fk, 1999990, 1999995, 20, 2000000,
		   "c.xqf: offset 2000000: the file ends early: it held 3000000 bytes when it was "
		   "opened and has changed since");
}

static int32_t refuse_open(void *ud, const char *name, void **handle, uint64_t *size)
{
	(void)ud;
	(void)name;
	(void)handle;
	(void)size;
	return -1;
}

/* A reader's own source: the reader core's hook copies each record into the reader's error. */
static void test_reader_copies_the_record(void)
{
	struct gamedb_reader *r = gamedb_reader_new();
	struct gamedb_io io;
	struct fake fk = { 100, 100, 0 };

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ_INT(gamedb_io_init(&io, sizeof io), GAMEDB_OK);
	io.open = refuse_open;
	io.read_at = fake_read_at;
	CHECK_EQ_INT(gamedb_reader_open_io(r, &io, "c.xqf", &fk), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_IO);
	CHECK_EQ_STR(gamedb_reader_errmsg(r), "c.xqf: the caller's I/O could not open it");
	CHECK_EQ_INT(gamedb_reader_get_os_error(r), 0); /* an I/O error the system did not give */
	gamedb_reader_free(r);
}

/* Opens path in a new reader: the status, detail code and OS error (the reader freed). */
static void open_gives(const char *path, int32_t status, int32_t code, int32_t os_error)
{
	struct gamedb_reader *r = gamedb_reader_new();

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ_INT(gamedb_reader_open_filename(r, path), status);
	CHECK_EQ_INT(gamedb_reader_errcode(r), code);
	CHECK_MSG(gamedb_reader_get_os_error(r) == os_error, "%s: os error %d, want %d (%s)", path,
		  (int)gamedb_reader_get_os_error(r), (int)os_error, gamedb_reader_errmsg(r));
	gamedb_reader_free(r);
}

/*
 * gamedb_reader_get_os_error() (issue 28's leftover: a binding learnt the errno by opening the
 * file again): the errno of the system call that failed, for files made here to fail each way;
 * 0 for an error the system did not give.
 */
static void test_os_error(void)
{
	char dir[] = "io-errors-XXXXXX", path[256];
	struct gamedb_reader *r;
	FILE *fp;

	CHECK(gamedb_reader_get_os_error(NULL) == 0);
	r = gamedb_reader_new();
	CHECK(r && gamedb_reader_get_os_error(r) == 0); /* no error yet */
	gamedb_reader_free(r);
	if (!mkdtemp(dir)) {
		CHECK_MSG(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof path, "%s/missing.si4", dir);
	open_gives(path, GAMEDB_FATAL, GAMEDB_E_IO, ENOENT);
	/* A folder where the base should be: the system opens it, the library refuses it. */
	snprintf(path, sizeof path, "%s/folder.si4", dir);
#ifdef _WIN32
	CHECK(_mkdir(path) == 0);
#else
	CHECK(mkdir(path, 0700) == 0);
#endif
	open_gives(path, GAMEDB_FATAL, GAMEDB_E_IO, EISDIR);
	/* A file where a folder of the path should be. */
	snprintf(path, sizeof path, "%s/file", dir);
	fp = fopen(path, "wb");
	CHECK(fp != NULL);
	if (fp)
		fclose(fp);
	snprintf(path, sizeof path, "%s/file/x.si4", dir);
#ifdef _WIN32
	open_gives(path, GAMEDB_FATAL, GAMEDB_E_IO, ENOENT); /* ERROR_PATH_NOT_FOUND */
#else
	open_gives(path, GAMEDB_FATAL, GAMEDB_E_IO, ENOTDIR);
	/* A FIFO: not a regular file, and no errno says what it is. */
	snprintf(path, sizeof path, "%s/fifo.si4", dir);
	if (mkfifo(path, 0600) == 0) {
		open_gives(path, GAMEDB_FATAL, GAMEDB_E_IO, 0);
		remove(path);
	}
	/* A file that may not be read (root reads it anyway: then not checked). */
	snprintf(path, sizeof path, "%s/locked.pgn", dir);
	fp = fopen(path, "wb");
	if (fp) {
		fputs("[Event \"x\"]\n\n1. e4 *\n", fp);
		fclose(fp);
	}
	if (geteuid() != 0 && chmod(path, 0) == 0)
		open_gives(path, GAMEDB_FATAL, GAMEDB_E_IO, EACCES);
	remove(path);
#endif
	/* A file that opens but is no base: another detail code, and no errno. */
	snprintf(path, sizeof path, "%s/junk.si4", dir);
	fp = fopen(path, "wb");
	if (fp) {
		fputs("not a scid index", fp);
		fclose(fp);
	}
	r = gamedb_reader_new();
	CHECK(r != NULL);
	if (r) {
		CHECK(gamedb_reader_open_filename(r, path) < 0);
		CHECK(gamedb_reader_errcode(r) != GAMEDB_E_IO);
		CHECK_EQ_INT(gamedb_reader_get_os_error(r), 0);
		gamedb_reader_free(r);
	}
	remove(path);
	snprintf(path, sizeof path, "%s/file", dir);
	remove(path);
	snprintf(path, sizeof path, "%s/folder.si4", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	test_os_error();
	test_missing_sibling();
	test_caller_read_fails();
	test_file_ends_early();
	test_reader_copies_the_record();
	return testlib_done();
}
