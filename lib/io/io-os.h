/*
 * libgamedb - the I/O layer's platform part: opening, reading and identifying files on disk.
 * One file per platform, chosen by meson: io-posix.c (open, fstat, pread) and io-win.c
 * (CreateFileW, GetFileInformationByHandle, ReadFile at an offset). Everything else of the
 * layer (windows of bytes, siblings, memory and caller I/O, errors) is io.c, shared.
 * Private to lib/io.
 */
#ifndef GAMEDB_IO_OS_H
#define GAMEDB_IO_OS_H

#include <stddef.h>
#include <stdint.h>

#include "io/io.h"

/*
 * Opens f->name (UTF-8) for reading: only a regular file, without waiting on a FIFO or a
 * device. Sets f->kind (GAMEDB__FILE_FD), the handle, f->size and the identity (f->dev,
 * f->ino, f->has_id). Returns 0, or -1 with why (cap bytes) saying why not and f->os_error
 * set to the errno of the cause (EISDIR for a folder; 0 for another kind of file, which no
 * errno names).
 */
int gamedb__os_open(struct gamedb__file *f, char *why, size_t cap);
void gamedb__os_close(struct gamedb__file *f);
/*
 * Reads up to n bytes at off: the count read, 0 at the end of the file, or -1 with why (cap
 * bytes) saying why and f->os_error set (errno, as for gamedb__os_open()).
 */
int64_t gamedb__os_read_at(struct gamedb__file *f, uint64_t off, uint8_t *buf, size_t n,
			   char *why, size_t cap);
/*
 * The identity of the file at path (device/volume and inode/file index, as a gamedb__file's
 * dev and ino): 1 with *dev and *ino set, 0 when there is no such file, -1 (errno set) when
 * it cannot be told.
 */
int gamedb__os_path_id(const char *path, uint64_t *dev, uint64_t *ino);

#endif /* GAMEDB_IO_OS_H */
