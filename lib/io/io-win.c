/*
 * libgamedb - the I/O layer's Windows part (io-os.h). Names are UTF-8 (as everywhere in the
 * library) and are opened through the wide-character API after MultiByteToWideChar, so that
 * any name opens whatever the process's ANSI code page. The sharing mode lets another program
 * keep the base open, write it, or replace and delete it while it is read. Every read is a
 * ReadFile() at an offset (the pread() of Windows); nothing is mapped: a mapped view of a file
 * that another program shrinks raises an in-page error that kills the process, as SIGBUS does
 * on POSIX, while a short read becomes an error naming the file and the offset (doc/io.md).
 */
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io-os.h"

/* The text of Windows error code err, without its line break, into why (cap bytes). */
static void win_error(DWORD err, char *why, size_t cap)
{
	char msg[160];
	DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
				 err, MAKELANGID(LANG_ENGLISH, SUBLANG_DEFAULT), msg, sizeof msg,
				 NULL);

	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == ' ' ||
			 msg[n - 1] == '.'))
		n--;
	msg[n] = 0;
	if (n == 0)
		snprintf(why, cap, "Windows error %lu", (unsigned long)err);
	else
		snprintf(why, cap, "%s (Windows error %lu)", msg, (unsigned long)err);
}

/*
 * The errno a Windows error stands for, as the C runtime and Python map them, so that a caller
 * tells a missing file from a refused one the same way on every system; EIO for the rest.
 */
static int errno_of(DWORD err)
{
	switch (err) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_NAME:
	case ERROR_INVALID_DRIVE:
	case ERROR_BAD_NETPATH:
	case ERROR_BAD_NET_NAME:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
	case ERROR_LOCK_VIOLATION:
		return EACCES;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return ENOMEM;
	case ERROR_DIRECTORY:
		return ENOTDIR;
	default:
		return EIO;
	}
}

/* name (UTF-8) as a malloc'd wide string, or NULL (not UTF-8, or out of memory). */
static wchar_t *wide_name(const char *name)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, name, -1, NULL, 0);
	wchar_t *w;

	if (n <= 0)
		return NULL;
	w = malloc((size_t)n * sizeof *w);
	if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, name, -1, w, n) != n) {
		free(w);
		w = NULL;
	}
	return w;
}

/*
 * Opens name for reading with every sharing flag; INVALID_HANDLE_VALUE with why set and *err
 * the Windows error code.
 */
static HANDLE open_wide(const char *name, char *why, size_t cap, DWORD *err)
{
	wchar_t *w = wide_name(name);
	HANDLE h;

	if (!w) {
		*err = ERROR_INVALID_NAME;
		snprintf(why, cap, "the name is not valid UTF-8 (or out of memory)");
		return INVALID_HANDLE_VALUE;
	}
	/*
	 * FILE_FLAG_BACKUP_SEMANTICS lets a folder open, so that it is refused below with the same
	 * message as on POSIX ("a directory") rather than "access is denied".
	 */
	h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
			NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS, NULL);
	*err = h == INVALID_HANDLE_VALUE ? GetLastError() : 0;
	free(w);
	if (h == INVALID_HANDLE_VALUE)
		win_error(*err, why, cap);
	return h;
}

int gamedb__os_open(struct gamedb__file *f, char *why, size_t cap)
{
	BY_HANDLE_FILE_INFORMATION info;
	DWORD type, err;
	HANDLE h = open_wide(f->name, why, cap, &err);

	if (h == INVALID_HANDLE_VALUE) {
		f->os_error = errno_of(err);
		return -1;
	}
	/* Only regular files: not a pipe, a console or a device, not a folder. */
	type = GetFileType(h);
	if (type != FILE_TYPE_DISK) {
		f->os_error = 0;
		snprintf(why, cap, "%s", type == FILE_TYPE_PIPE ? "a pipe"
					 : type == FILE_TYPE_CHAR ? "a character device"
								  : "not a regular file");
		CloseHandle(h);
		return -1;
	}
	if (!GetFileInformationByHandle(h, &info)) {
		err = GetLastError();
		f->os_error = errno_of(err);
		win_error(err, why, cap);
		CloseHandle(h);
		return -1;
	}
	if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
		f->os_error = EISDIR;
		snprintf(why, cap, "a directory");
		CloseHandle(h);
		return -1;
	}
	f->size = ((uint64_t)info.nFileSizeHigh << 32) | info.nFileSizeLow;
	f->dev = info.dwVolumeSerialNumber;
	f->ino = ((uint64_t)info.nFileIndexHigh << 32) | info.nFileIndexLow;
	f->has_id = 1;
	f->kind = GAMEDB__FILE_FD;
	f->os_handle = h;
	return 0;
}

void gamedb__os_close(struct gamedb__file *f)
{
	if (f->os_handle)
		CloseHandle((HANDLE)f->os_handle);
	f->os_handle = NULL;
}

int64_t gamedb__os_read_at(struct gamedb__file *f, uint64_t off, uint8_t *buf, size_t n,
			   char *why, size_t cap)
{
	OVERLAPPED ov;
	DWORD got = 0, err;

	/* One ReadFile() reads at most 4 GiB - 1; the caller loops over short reads. */
	if (n > 0x7FFFFFFF)
		n = 0x7FFFFFFF;
	memset(&ov, 0, sizeof ov);
	ov.Offset = (DWORD)(off & 0xFFFFFFFFu);
	ov.OffsetHigh = (DWORD)(off >> 32);
	if (ReadFile((HANDLE)f->os_handle, buf, (DWORD)n, &got, &ov))
		return (int64_t)got;
	err = GetLastError();
	if (err == ERROR_HANDLE_EOF)
		return 0; /* at or past the end: as pread() gives 0 */
	f->os_error = errno_of(err);
	win_error(err, why, cap);
	return -1;
}

int gamedb__os_path_id(const char *path, uint64_t *dev, uint64_t *ino)
{
	BY_HANDLE_FILE_INFORMATION info;
	char why[128];
	DWORD err;
	HANDLE h = open_wide(path, why, sizeof why, &err);

	if (h == INVALID_HANDLE_VALUE) {
		if (err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND ||
		    err == ERROR_INVALID_NAME)
			return 0;
		errno = EACCES;
		return -1;
	}
	if (!GetFileInformationByHandle(h, &info)) {
		CloseHandle(h);
		errno = EIO;
		return -1;
	}
	CloseHandle(h);
	*dev = info.dwVolumeSerialNumber;
	*ino = ((uint64_t)info.nFileIndexHigh << 32) | info.nFileIndexLow;
	return 1;
}
