/*
 * The few things the command does differently on Windows (MinGW): file names are UTF-8 inside
 * the program (argv is rebuilt from the wide command line in wmain()) and go through the wide
 * API; the temporary output file replaces the target with MoveFileExW(), which, unlike
 * rename() there, replaces a file that exists; standard input and output are binary, so that
 * the PGN written is byte for byte the Linux build's. Elsewhere the os_* names are the POSIX
 * calls (gamedb-tool.h), and os_realpath() is here.
 */
#include "gamedb-tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#endif

#ifdef _WIN32
/* name (UTF-8) as a malloc'd wide string, or NULL. */
static wchar_t *widen(const char *name)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, name, -1, NULL, 0);
	wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;

	if (w && MultiByteToWideChar(CP_UTF8, 0, name, -1, w, n) != n) {
		free(w);
		w = NULL;
	}
	return w;
}

/* w as a malloc'd UTF-8 string, or NULL. */
static char *narrow(const wchar_t *w)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	char *s = n > 0 ? malloc((size_t)n) : NULL;

	if (s && WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) != n) {
		free(s);
		s = NULL;
	}
	return s;
}

int os_stat(const char *path, struct _stat64 *st)
{
	wchar_t *w = widen(path);
	int rc = w ? _wstat64(w, st) : -1;

	free(w);
	return rc;
}

FILE *os_fopen_write(const char *path)
{
	wchar_t *w = widen(path);
	FILE *f = w ? _wfopen(w, L"wb") : NULL;

	free(w);
	return f;
}

int os_unlink(const char *path)
{
	wchar_t *w = widen(path);
	int rc = w && DeleteFileW(w) ? 0 : -1;

	free(w);
	return rc;
}

/* Replaces to with from; 0, or -1 with errno set. */
int os_replace(const char *from, const char *to)
{
	wchar_t *wf = widen(from), *wt = widen(to);
	int rc = wf && wt && MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING) ? 0 : -1;

	if (rc != 0)
		errno = GetLastError() == ERROR_ACCESS_DENIED ? EACCES : EIO;
	free(wf);
	free(wt);
	return rc;
}

/* Creates tmpl ("...XXXXXX") as a new file of its own; the descriptor, or -1 with errno set. */
int os_mkstemp(char *tmpl)
{
	size_t n = strlen(tmpl);
	unsigned long seed = GetTickCount() ^ ((unsigned long)GetCurrentProcessId() << 16);
	int tries, fd = -1;

	for (tries = 0; tries < 100 && fd < 0; tries++) {
		unsigned long v = seed + (unsigned long)tries * 7919u;
		wchar_t *w;
		size_t i;
		for (i = n - 6; i < n; i++, v /= 36)
			tmpl[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[v % 36];
		w = widen(tmpl);
		if (!w) {
			errno = ENOMEM;
			return -1;
		}
		fd = _wopen(w, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
		free(w);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	return fd;
}

/* Windows: the arguments as UTF-8 (argv would be in the ANSI code page), binary stdio. */
int wmain(int argc, wchar_t **wargv);
int wmain(int argc, wchar_t **wargv)
{
	char **argv = calloc((size_t)argc + 1, sizeof *argv);
	int i;

	if (!argv)
		return 2;
	for (i = 0; i < argc; i++) {
		argv[i] = narrow(wargv[i]);
		if (!argv[i]) {
			fprintf(stderr, "gamedb: out of memory\n");
			return 2;
		}
	}
	_setmode(_fileno(stdout), _O_BINARY);
	_setmode(_fileno(stdin), _O_BINARY);
	return finish_stdout(run(argc, argv));
}
#else
/*
 * The file a write to path lands on, as a shell's redirection finds it: path with its symbolic
 * links followed, also when the last one points at a file that is not there yet (a dangling
 * link: the file it names is created, the link stays). A malloc'd name, or NULL to use path as
 * it is (no link, or one that cannot be followed: then the run fails on the name given).
 */
char *os_realpath(const char *path)
{
	char *cur = realpath(path, NULL);
	int hops;

	if (cur || errno != ENOENT)
		return cur;
	cur = strdup(path);
	for (hops = 0; cur && hops < 40; hops++) {
		struct stat st;
		char link[4096];
		const char *slash;
		size_t dirlen;
		ssize_t n;
		char *next;
		if (lstat(cur, &st) != 0) {
			if (hops > 0 && errno == ENOENT)
				return cur; /* where the last link points: created there */
			break;
		}
		if (!S_ISLNK(st.st_mode))
			break;
		n = readlink(cur, link, sizeof link);
		if (n <= 0 || (size_t)n >= sizeof link)
			break;
		link[n] = 0;
		/* A relative target is relative to the link's folder. */
		slash = strrchr(cur, '/');
		dirlen = link[0] != '/' && slash ? (size_t)(slash - cur) + 1 : 0;
		next = malloc(dirlen + (size_t)n + 1);
		if (!next)
			break;
		memcpy(next, cur, dirlen);
		memcpy(next + dirlen, link, (size_t)n + 1);
		free(cur);
		cur = next;
	}
	free(cur);
	return NULL;
}
#endif
