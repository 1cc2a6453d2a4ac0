/*
 * Output: the sinks the library writes games into (a file, JSON Lines with the database's name
 * and place), the progress bar, the output file written whole or not at all (a temporary file
 * renamed at the end, removed by a signal, its blocks allocated ahead), and the end of
 * standard output.
 */
#include "gamedb-tool.h"

#ifdef __linux__
#include <fcntl.h>
#endif
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/resource.h> /* getrlimit() */
#endif

int32_t sink_file(void *user_data, const char *data, size_t len)
{
	return fwrite(data, 1, len, (FILE *)user_data) == len ? 0 : 1;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* What replaces the '{' that opens a JSON object: the object's "file" and "n". */
void json_prefix(FILE *f, const char *file, uint64_t n)
{
	fputs("{\"file\": ", f);
	json_string(f, file);
	fprintf(f, ", \"n\": %" PRIu64 ", ", n);
}

int32_t sink_json(void *user_data, const char *data, size_t len)
{
	struct json_sink *js = user_data;

	if (len == 0 || data[0] != '{')
		return sink_file(js->out, data, len);
	json_prefix(js->out, js->file, (*js->n)++);
	return sink_file(js->out, data + 1, len - 1);
}

void progress_show(struct progress *p, uint64_t done, int final)
{
	char bar[41];
	unsigned pct, i, fill;

	if (!p->on || p->total == 0)
		return;
	if (!final && done - p->last < p->total / 200 + 1)
		return;
	p->last = done;
	pct = (unsigned)(done * 100 / p->total);
	fill = pct * 40 / 100;
	for (i = 0; i < 40; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[40] = 0;
	fprintf(stderr, "\r[%s] %3u%% %" PRIu64 "/%" PRIu64, bar, pct, done, p->total);
	if (final)
		fputc('\n', stderr);
	fflush(stderr);
}

int32_t progress_report(int32_t unit, uint64_t done, uint64_t total, void *user_data)
{
	struct progress *p = user_data;

	if (unit == GAMEDB_PROGRESS_GAMES && !p->bytes) {
		progress_show(p, done < p->total ? done : p->total, 0);
	} else if (unit == GAMEDB_PROGRESS_BYTES && total && (p->bytes || p->total == 0)) {
		p->bytes = 1;
		p->total = total;
		progress_show(p, done, 0);
	}
	return 0;
}

int write_said, stdout_said;
uint64_t json_n;

/* The temporary file, for the signal handler: a run stopped by a signal removes it. */
static char *volatile pending_tmp;

/*
 * The signals are held while the temporary file comes into being and while it is renamed, so
 * that the file and pending_tmp change together: a signal between mkstemp() and pending_tmp
 * left the file behind (seen once in CI under ASan, whose slow start puts the test's SIGTERM
 * at that moment). Only the main thread runs here; the --jobs workers are gone by then.
 */
#ifndef _WIN32
static sigset_t held_from;
static void hold_signals(void)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &held_from);
}
static void release_signals(void)
{
	sigprocmask(SIG_SETMASK, &held_from, NULL);
}
#else
static void hold_signals(void) {}
static void release_signals(void) {}
#endif

/*
 * Linux: the temporary file's blocks are allocated ahead of the output, 16 MiB at a time
 * (fallocate()), and what is left over is cut off at the end. On ext4, renaming a file
 * written through delayed allocation over an existing one first allocates and starts writing
 * back all of its blocks (the auto_da_alloc safeguard), in the rename() call: 20-40 ms for the
 * 140 MB of the real base at the very end of the run, when no other work is left to overlap
 * it; the allocations along the way cost about a millisecond each. Nothing is done where
 * fallocate() is not supported (the first failure turns it off). Never past the file size
 * limit (ulimit -f): an allocation past it stopped the run at 275 KB of output with SIGXFSZ.
 */
#define PREALLOC_STEP ((int64_t)16 << 20)
static struct {
	int fd;           /* the temporary file, or -1 */
	int64_t reserved; /* allocated up to here (the file's size meanwhile) */
	int64_t limit;    /* RLIMIT_FSIZE, or INT64_MAX */
} prealloc = { -1, 0, INT64_MAX };

/* Allocates the next step of the output file when its writes come near the end of the last. */
void prealloc_more(FILE *f)
{
#ifdef __linux__
	int64_t at;
	int64_t step = PREALLOC_STEP;

	if (prealloc.fd < 0)
		return;
	at = (int64_t)ftello(f);
	if (at < 0 || at + PREALLOC_STEP / 2 < prealloc.reserved)
		return;
	if (step > prealloc.limit - prealloc.reserved)
		step = prealloc.limit - prealloc.reserved;
	if (step <= 0 || fallocate(prealloc.fd, 0, (off_t)prealloc.reserved, (off_t)step) != 0) {
		prealloc.fd = -1;
		return;
	}
	prealloc.reserved += step;
#else
	(void)f;
#endif
}

static void on_signal(int sig)
{
	char *tmp = pending_tmp;

	if (tmp)
		os_unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Every signal whose default is to end the process (SIGUSR1 and SIGALRM left the temporary
 * file behind) goes through on_signal(), which removes the temporary file and ends the process
 * by the same signal; the ones a program's own bugs raise (SIGSEGV, SIGABRT, ...) are left to
 * the sanitizers and debuggers. SIGXFSZ is ignored, so that a write past the file size limit
 * (ulimit -f) fails with EFBIG and is reported as a write error, the temporary file removed.
 */
void catch_signals(void)
{
	static const int sigs[] = {
		SIGINT, SIGTERM,
#ifndef _WIN32
		SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM, SIGPROF,
#endif
#ifdef SIGPOLL
		SIGPOLL,
#endif
#ifdef SIGPWR
		SIGPWR,
#endif
#ifdef SIGSTKFLT
		SIGSTKFLT,
#endif
#ifdef SIGBREAK
		SIGBREAK, /* Windows: Ctrl+Break */
#endif
	};
	size_t k;

	for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
		signal(sigs[k], on_signal);
#ifdef SIGRTMIN
	{
		int sig;
		for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
			signal(sig, on_signal);
	}
#endif
#ifdef SIGXFSZ
	signal(SIGXFSZ, SIG_IGN);
#endif
}

int output_open(struct output *out, const char *path)
{
	stat_t st;
	const char *slash;
	size_t dirlen;
#ifndef _WIN32
	mode_t mode, mask;
#endif
	int fd;

	out->f = stdout;
	out->path = path;
	out->target = NULL;
	out->tmp = NULL;
	if (!path)
		return 0;
	/* A symbolic link is written through, as a shell redirection would: its target is replaced. */
	out->target = os_realpath(path);
	if (out->target)
		path = out->target;
	if (os_stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, "gamedb: %s: is a directory\n", path);
			return -1;
		}
		out->f = os_fopen_write(path);
		if (!out->f) {
			fprintf(stderr, "gamedb: %s: %s\n", path, strerror(errno));
			return -1;
		}
		return 0;
	}
#ifndef _WIN32
	/* A file that is there keeps its permissions; a new one gets 0666 less the umask. */
	mask = umask(0);
	umask(mask);
	mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : (0666 & ~mask);
#endif
	slash = strrchr(path, '/');
#ifdef _WIN32
	if (strrchr(path, '\\') > slash)
		slash = strrchr(path, '\\');
#endif
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	out->tmp = malloc(dirlen + sizeof ".gamedb-XXXXXX");
	if (!out->tmp) {
		fprintf(stderr, "gamedb: out of memory\n");
		return -1;
	}
	memcpy(out->tmp, path, dirlen);
	memcpy(out->tmp + dirlen, ".gamedb-XXXXXX", sizeof ".gamedb-XXXXXX");
	hold_signals();
	fd = os_mkstemp(out->tmp);
	if (fd >= 0)
		pending_tmp = out->tmp;
	release_signals();
	if (fd < 0) {
		fprintf(stderr, "gamedb: cannot create %s: %s\n", out->path, strerror(errno));
		free(out->tmp);
		out->tmp = NULL;
		return -1;
	}
#ifdef _WIN32
	if (!(out->f = fdopen(fd, "wb"))) {
#else
	if (fchmod(fd, mode) != 0 || !(out->f = fdopen(fd, "w"))) {
#endif
		fprintf(stderr, "gamedb: %s: %s\n", out->tmp, strerror(errno));
		close(fd);
		out->f = NULL;
		return -1;
	}
	prealloc.fd = fd;
	prealloc.reserved = 0;
	prealloc.limit = INT64_MAX;
#ifdef RLIMIT_FSIZE
	{
		struct rlimit rl;
		if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
		    rl.rlim_cur < (rlim_t)INT64_MAX)
			prealloc.limit = (int64_t)rl.rlim_cur;
	}
#endif
	return 0;
}

/*
 * Finishes the output: flushes it and, when keep is set, renames the temporary file into
 * place; otherwise removes it. Returns 0, or -1 after a message.
 */
int output_close(struct output *out, int keep)
{
	int rc = 0;

	if (out->f && (fflush(out->f) != 0 || ferror(out->f))) {
		if (!write_said)
			fprintf(stderr, "gamedb: write error: %s\n", strerror(errno));
		stdout_said |= out->f == stdout;
		keep = 0;
		rc = -1;
	}
	if (out->f && prealloc.reserved > 0) {
		/* The blocks allocated past the output (prealloc_more()) are cut off. */
		off_t end = ftello(out->f);
		if (keep && (end < 0 || ftruncate(fileno(out->f), end) != 0)) {
			fprintf(stderr, "gamedb: write error: %s\n", strerror(errno));
			keep = 0;
			rc = -1;
		}
	}
	prealloc.fd = -1;
	prealloc.reserved = 0;
	if (out->f && out->f != stdout && fclose(out->f) != 0 && rc == 0) {
		fprintf(stderr, "gamedb: write error: %s\n", strerror(errno));
		keep = 0;
		rc = -1;
	}
	out->f = NULL;
	if (out->tmp) {
		int replaced = 0;
		hold_signals();
		if (keep) {
			replaced = os_replace(out->tmp, out->target ? out->target : out->path) == 0;
			if (replaced)
				pending_tmp = NULL;
		}
		release_signals();
		if (keep && !replaced) {
			fprintf(stderr, "gamedb: %s: %s\n", out->path, strerror(errno));
			keep = 0;
			rc = -1;
		}
		if (!keep) {
			os_unlink(out->tmp);
			fprintf(stderr, "gamedb: %s: not written\n", out->path);
		}
		pending_tmp = NULL;
		free(out->tmp);
		out->tmp = NULL;
	}
	free(out->target);
	out->target = NULL;
	return rc;
}

/*
 * The end of every command: standard output's last bytes and its close, so that a command whose
 * output was lost exits 2 with a message (`gamedb info > /dev/full` said nothing and exited 0).
 * A standard output closed from the start (EBADF) is no error for a command that wrote nothing.
 */
int finish_stdout(int status)
{
	int bad = ferror(stdout) != 0, err = bad ? errno : 0;

	if (fflush(stdout) != 0) {
		err = err ? err : errno;
		bad = 1;
	}
	if (fclose(stdout) != 0 && errno != EBADF) {
		err = err ? err : errno;
		bad = 1;
	}
	if (bad && !stdout_said)
		fprintf(stderr, "gamedb: write error: %s\n", err ? strerror(err) : "output lost");
	return bad ? 2 : status;
}

