/*
 * libgamedb - the I/O layer's POSIX part (io-os.h): open() with O_NONBLOCK and fstat() so that
 * only regular files are read, pread() for every read (never mmap: see io.c and doc/io.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io-os.h"

/* What kind of file st describes, for the message that refuses it. */
static const char *kind_of(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	return "not a regular file";
}

/*
 * Only regular files are read: O_NONBLOCK keeps open() from waiting for a writer on a FIFO
 * (or for a device), and fstat() then refuses everything that is not a regular file.
 */
int gamedb__os_open(struct gamedb__file *f, char *why, size_t cap)
{
	struct stat st;
	int fd = open(f->name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0) {
		f->os_error = errno;
		snprintf(why, cap, "%s", strerror(f->os_error));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		f->os_error = errno;
		snprintf(why, cap, "%s", strerror(f->os_error));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		f->os_error = S_ISDIR(st.st_mode) ? EISDIR : 0;
		snprintf(why, cap, "%s", kind_of(&st));
		close(fd);
		return -1;
	}
	f->size = (uint64_t)st.st_size;
	f->dev = (uint64_t)st.st_dev;
	f->ino = (uint64_t)st.st_ino;
	f->has_id = 1;
	f->kind = GAMEDB__FILE_FD;
	f->fd = fd;
	return 0;
}

void gamedb__os_close(struct gamedb__file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

int64_t gamedb__os_read_at(struct gamedb__file *f, uint64_t off, uint8_t *buf, size_t n,
			   char *why, size_t cap)
{
	ssize_t got;

	do
		got = pread(f->fd, buf, n, (off_t)off);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		f->os_error = errno;
		snprintf(why, cap, "%s", strerror(f->os_error));
	}
	return got;
}

int gamedb__os_path_id(const char *path, uint64_t *dev, uint64_t *ino)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	*dev = (uint64_t)st.st_dev;
	*ino = (uint64_t)st.st_ino;
	return 1;
}
