/*
 * libgamedb - the I/O layer: the files of one database, from disk (mmap, read() fallback),
 * from memory, or through the caller's I/O callbacks. Formats see only views of bytes.
 */
#define _DEFAULT_SOURCE /* madvise() */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gamedb-private.h"

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');
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
	case GAMEDB__FILE_MMAP:
		if (f->map && f->size)
			munmap((void *)f->map, (size_t)f->size);
		break;
	case GAMEDB__FILE_FD:
		if (f->fd >= 0)
			close(f->fd);
		break;
	case GAMEDB__FILE_CALLER:
		if (f->src->io.close)
			f->src->io.close(f->src->io_user_data, f->handle);
		break;
	default:
		break;
	}
	gamedb__buf_free(&f->scratch);
	free(f->name);
	free(f);
}

static int open_path(struct gamedb__file *f)
{
	struct stat st;
	int fd = open(f->name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	f->size = (uint64_t)st.st_size;
	if (f->size == 0) {
		close(fd);
		f->fd = -1;
		f->kind = GAMEDB__FILE_MEM;
		f->map = (const uint8_t *)"";
		return 0;
	}
	if ((uint64_t)(size_t)f->size == f->size) {
		void *m = mmap(NULL, (size_t)f->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			close(fd);
			f->kind = GAMEDB__FILE_MMAP;
			f->map = m;
			return 0;
		}
	}
	f->kind = GAMEDB__FILE_FD;
	f->fd = fd;
	return 0;
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
		return gamedb__error(src->reader, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory"), -1;
	for (i = 0; i < src->nfiles; i++) {
		if (strcmp(src->files[i]->name, name) == 0) {
			free(name);
			*out = src->files[i];
			return 0;
		}
	}
	if (src->nfiles == sizeof src->files / sizeof src->files[0]) {
		free(name);
		return gamedb__error(src->reader, GAMEDB_FATAL, GAMEDB_E_MISUSE, "too many files"), -1;
	}
	f = calloc(1, sizeof *f);
	if (!f) {
		free(name);
		return gamedb__error(src->reader, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory"), -1;
	}
	f->name = name;
	f->fd = -1;
	f->src = src;

	switch (src->kind) {
	case GAMEDB__SRC_PATH:
		if (open_path(f) != 0) {
			int e = errno;
			if (!quiet)
				gamedb__error(src->reader, GAMEDB_FATAL, GAMEDB_E_IO, "%s: cannot open: %s",
					      name, strerror(e));
			file_free(f);
			return -1;
		}
		break;
	case GAMEDB__SRC_MEMSET:
		for (i = 0; i < src->nmem; i++) {
			/* Match the full name, else the file name without directories. */
			if (strcmp(src->mem_names[i], name) == 0 ||
			    strcmp(basename_of(src->mem_names[i]), basename_of(name)) == 0)
				break;
		}
		if (i == src->nmem) {
			if (!quiet)
				gamedb__error(src->reader, GAMEDB_FATAL, GAMEDB_E_IO,
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
				gamedb__error(src->reader, GAMEDB_FATAL, GAMEDB_E_IO,
					      "%s: the caller's I/O could not open it", name);
			file_free(f);
			return -1;
		}
		f->kind = GAMEDB__FILE_CALLER;
		break;
	default:
		file_free(f);
		return gamedb__error(src->reader, GAMEDB_FATAL, GAMEDB_E_MISUSE, "no source"), -1;
	}
	src->files[src->nfiles++] = f;
	*out = f;
	return 0;
}

int64_t gamedb__file_view(struct gamedb__file *f, uint64_t off, size_t len, const uint8_t **out)
{
	size_t avail, done = 0;

	*out = NULL;
	if (off >= f->size) {
		*out = (const uint8_t *)"";
		return 0;
	}
	avail = (f->size - off < (uint64_t)len) ? (size_t)(f->size - off) : len;
	if (f->map) {
#ifdef MADV_DONTNEED
		/*
		 * A pass over a large mapped file keeps every page it touched resident. Give back
		 * the pages more than 1 MiB behind the current view: they stay valid (a private,
		 * read-only, never-written mapping refaults them from the file if they are viewed
		 * again), but no longer count in the process's memory.
		 */
		if (f->kind == GAMEDB__FILE_MMAP && off > f->released + ((uint64_t)2 << 20)) {
			uint64_t upto = (off - ((uint64_t)1 << 20)) & ~(uint64_t)0xFFFF;
			if (upto > f->released) {
				madvise((void *)(f->map + f->released), (size_t)(upto - f->released),
					MADV_DONTNEED);
				f->released = upto;
			}
		}
#endif
		*out = f->map + off;
		return (int64_t)avail;
	}
	gamedb__buf_clear(&f->scratch);
	if (gamedb__buf_reserve(&f->scratch, avail) != 0) {
		gamedb__error(f->src->reader, GAMEDB_FATAL, GAMEDB_E_NOMEM,
			      "%s: out of memory reading %zu bytes at offset %llu", f->name, avail,
			      (unsigned long long)off);
		return -1;
	}
	while (done < avail) {
		ssize_t got;
		if (f->kind == GAMEDB__FILE_FD) {
			got = pread(f->fd, f->scratch.p + done, avail - done, (off_t)(off + done));
			if (got < 0 && errno == EINTR)
				continue;
		} else {
			got = (ssize_t)f->src->io.read_at(f->src->io_user_data, f->handle, off + done,
							  f->scratch.p + done, avail - done);
		}
		if (got < 0) {
			gamedb__error(f->src->reader, GAMEDB_FATAL, GAMEDB_E_IO,
				      "%s: read error at offset %llu", f->name,
				      (unsigned long long)(off + done));
			return -1;
		}
		if (got == 0)
			break; /* the file shrank */
		done += (size_t)got;
	}
	*out = (const uint8_t *)f->scratch.p;
	return (int64_t)done;
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
	int32_t before = src->reader ? src->reader->errcode : 0;
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
	if (src->reader && src->reader->errcode != before)
		return -1; /* out of memory or no room for another file: not "absent" */
	if (open_named(src, b, 1, out) == 0)
		return 0;
	if (src->reader && src->reader->errcode != before)
		return -1;
	return quiet ? -1 : open_named(src, a, 0, out); /* once more, for the message */
}
