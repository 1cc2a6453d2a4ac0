/*
 * libgamedb - files that are not what a reader expects, or that change while it reads them
 * (issue 8): public API only.
 *
 * - Special files: a FIFO given as the base or standing where a sibling is expected (.sg4,
 *   .cba), a directory, a character device. Each must be refused at once with a message that
 *   names the file and says what it is; a watchdog (alarm) fails the test if open() blocks.
 * - A file that shrinks after the open: the games beyond the new end fail with a message that
 *   names the file and the offset; nothing crashes (mapped reads died of SIGBUS here).
 * - A file that grows after the open is read as it was at the open.
 * - A second process truncates and rewrites (or replaces) the files of a copy of a large base in
 *   a loop while this one reads it over and over (a bounded number of passes, at most 60 s):
 *   every error must name a file of the base, the rewrites must be seen, and the reader must
 *   never die of a signal or hang. Games that read are compared with the unchanged copy and
 *   the differences counted (a read racing with a cut can see the kernel's zeros).
 *
 * The large base is built with the real Scid by bench/make-bigbase.sh (GAMEDB_BIGBASE_SCRIPT),
 * large enough (over 1 MiB per file) that its files are read through the window, not whole.
 * Without Scid or the real data the same checks run on the SCID fixtures in testdata/scid,
 * which are read whole.
 *
 * On Windows (MinGW, under Wine) the directory, the NUL device and the file that shrinks or
 * grows under an open reader are checked as here; FIFOs, the watchdog (alarm) and the second
 * process (fork) are POSIX only, and those parts say that they are skipped.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#ifdef _WIN32
#include <direct.h>
#include <io.h>
#define mkdir(path, mode) _mkdir(path)
#define alarm(s) ((void)(s))
#else
#include <sys/wait.h>
#endif

#include <gamedb/gamedb.h>

#include "load-file.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/gamedb-test-io-XXXXXX";

/* ---- small helpers ---------------------------------------------------------------------- */

static char *path_in(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (!p)
		abort();
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Copies base.{si4,sn4,sg4} (base without extension) into dir as name.*; 0 on success. */
static int copy_base(const char *base, const char *dir, const char *name)
{
	static const char *const exts[] = { ".si4", ".sn4", ".sg4" };
	char from[4096], to[4096];
	size_t i;

	for (i = 0; i < 3; i++) {
		snprintf(from, sizeof from, "%s%s", base, exts[i]);
		snprintf(to, sizeof to, "%s/%s%s", dir, name, exts[i]);
		if (testlib_copy_file(from, to) != 0)
			return -1;
	}
	return 0;
}

static int32_t sink_hash(void *user_data, const char *data, size_t len)
{
	uint64_t *h = user_data;
	size_t i;

	for (i = 0; i < len; i++)
		*h = (*h ^ (unsigned char)data[i]) * 1099511628211ull;
	return 0;
}

/* FNV-1a of the game's PGN; 0 if it cannot be written. */
static uint64_t pgn_hash(struct gamedb_game *g)
{
	uint64_t h = 14695981039346656037ull;

	if (gamedb_game_write_pgn(g, 0, sink_hash, &h) != GAMEDB_OK)
		return 0;
	return h ? h : 1;
}

static struct gamedb_reader *open_reader(const char *path, int32_t *rc)
{
	struct gamedb_reader *r = gamedb_reader_new();

	if (!r)
		abort();
	gamedb_reader_support_format_all(r);
	*rc = gamedb_reader_open_filename(r, path);
	return r;
}

/* The PGN hash of every game of the base at path (0 for a game that fails); the count. */
static uint64_t *reference(const char *path, uint64_t *count)
{
	int32_t rc;
	struct gamedb_reader *r = open_reader(path, &rc);
	struct gamedb_game *g;
	uint64_t *h = NULL;

	*count = 0;
	if ((rc == GAMEDB_OK || rc == GAMEDB_WARN) &&
	    gamedb_reader_game_count(r, count) == GAMEDB_OK && *count) {
		h = calloc((size_t)*count, sizeof *h);
		if (!h)
			abort();
		while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
			if (rc == GAMEDB_FAILED)
				continue;
			h[gamedb_game_get_index(g)] = pgn_hash(g);
		}
	}
	gamedb_reader_free(r);
	return h;
}

#ifndef _WIN32 /* used by the rewrite test only */
static int names_base_file(const char *msg, const char *stem)
{
	return strstr(msg, stem) != NULL &&
	       (strstr(msg, ".si4") || strstr(msg, ".sn4") || strstr(msg, ".sg4"));
}
#endif

/* ---- special files ---------------------------------------------------------------------- */

#ifndef _WIN32
static void on_alarm(int sig)
{
	static const char msg[] = "test-io: an open() blocked: watchdog fired\n";

	(void)sig;
	if (write(2, msg, sizeof msg - 1) < 0)
		_exit(1);
	_exit(1);
}
#endif

/* Opens path, which must be refused at once with a message holding every one of want[]. */
static void expect_refused(const char *path, const char *const *want, size_t nwant)
{
	int32_t rc;
	struct gamedb_reader *r;
	const char *msg;
	size_t i;

	alarm(10);
	r = open_reader(path, &rc);
	alarm(0);
	msg = gamedb_reader_errmsg(r);
	CHECK_MSG(rc == GAMEDB_FATAL, "%s: opened (%d): %s", path, (int)rc, msg);
	CHECK_MSG(gamedb_reader_errcode(r) == GAMEDB_E_IO ||
			  gamedb_reader_errcode(r) == GAMEDB_E_UNRECOGNIZED_FORMAT,
		  "%s: detail %d", path, (int)gamedb_reader_errcode(r));
	for (i = 0; i < nwant; i++)
		CHECK_MSG(strstr(msg, want[i]) != NULL, "%s: message \"%s\" lacks \"%s\"", path, msg,
			  want[i]);
	gamedb_reader_free(r);
}

static void test_special_files(const char *fixture, const char *realdata)
{
	char *dir = path_in(tmpdir, "special");
	char *fifo_base = path_in(dir, "fifo.si4");
	char *sib = path_in(dir, "sib");
	char *sib_sg4 = path_in(dir, "sib.sg4");
	char *sib_si4 = path_in(dir, "sib.si4");
	const char *want_fifo[] = { "fifo.si4", "FIFO" };
	const char *want_sg4[] = { "sib.sg4", "FIFO" };
	const char *want_dir[] = { "special", "directory" };
#ifdef _WIN32
	const char *want_dev[] = { "NUL", "character device" };

	(void)want_fifo;
	(void)want_sg4;

	(void)fixture;
	(void)realdata;
	CHECK(mkdir(dir, 0700) == 0);
	expect_refused(dir, want_dir, 2);
	expect_refused("NUL", want_dev, 2);
	printf("special files: FIFOs skipped on Windows (no mkfifo)\n");
#else
	const char *want_dev[] = { "/dev/null", "character device" };

	signal(SIGALRM, on_alarm);
	CHECK(mkdir(dir, 0700) == 0);

	/* A FIFO given as the base. */
	CHECK(mkfifo(fifo_base, 0600) == 0);
	expect_refused(fifo_base, want_fifo, 2);
	/* A FIFO where the game file should be. */
	CHECK(copy_base(fixture, dir, "sib") == 0);
	CHECK(unlink(sib_sg4) == 0 && mkfifo(sib_sg4, 0600) == 0);
	expect_refused(sib_si4, want_sg4, 2);
	expect_refused(sib, want_sg4, 2); /* by base name */
	/* A directory and a character device. */
	expect_refused(dir, want_dir, 2);
	expect_refused("/dev/null", want_dev, 2);

	/* A ChessBase base with a FIFO for its (optional) annotation file: opens without it. */
	if (realdata) {
		static const char *const exts[] = { ".cbh", ".cbg", ".cbp", ".cbt", ".cbc", ".cbs",
						    ".cbe", ".cbj" };
		char from[4096], to[4096];
		size_t i;
		int ok = 1;
		for (i = 0; i < sizeof exts / sizeof exts[0]; i++) {
			snprintf(from, sizeof from, "%s/chessbase/morphy/linares/linares%s", realdata,
				 exts[i]);
			snprintf(to, sizeof to, "%s/lin%s", dir, exts[i]);
			if (access(from, R_OK) == 0 && testlib_copy_file(from, to) != 0)
				ok = 0;
		}
		snprintf(from, sizeof from, "%s/chessbase/morphy/linares/linares.cbh", realdata);
		if (ok && access(from, R_OK) == 0) {
			int32_t rc;
			struct gamedb_reader *r;
			struct gamedb_game *g;
			uint64_t games = 0, warned = 0;
			snprintf(to, sizeof to, "%s/lin.cba", dir);
			CHECK(mkfifo(to, 0600) == 0);
			snprintf(to, sizeof to, "%s/lin.cbh", dir);
			alarm(10);
			r = open_reader(to, &rc);
			CHECK_MSG(rc == GAMEDB_OK || rc == GAMEDB_WARN, "lin.cbh: %s",
				  gamedb_reader_errmsg(r));
			/* Every game is written; those whose annotations are in the .cba that cannot be
			 * read say so (a warning: the ledger rule, doc/ledger.md). */
			while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
				uint64_t h = 0;
				if (rc == GAMEDB_FAILED)
					continue;
				rc = gamedb_game_write_pgn(g, 0, sink_hash, &h);
				games += rc == GAMEDB_OK || rc == GAMEDB_WARN;
				warned += rc == GAMEDB_WARN && strstr(gamedb_game_errmsg(g), "lin.cba");
			}
			alarm(0);
			CHECK_EQ_INT(games, 503);
			CHECK_MSG(warned > 0, "lin.cba a FIFO: the games annotated there say so");
			gamedb_reader_free(r);
		}
	}
#endif
	free(dir);
	free(fifo_base);
	free(sib);
	free(sib_sg4);
	free(sib_si4);
}

/* ---- files that shrink or grow after the open ------------------------------------------- */

static void test_shrink_and_grow(const char *base, const char *label)
{
	char *dir = path_in(tmpdir, label);
	char *si4, *sg4;
	uint64_t count = 0, n, ok = 0, failed = 0, early = 0, mismatch = 0;
	uint64_t *ref;
	struct gamedb_reader *r;
	struct gamedb_game *g;
	struct stat st;
	int32_t rc;

	CHECK(mkdir(dir, 0700) == 0);
	CHECK(copy_base(base, dir, "b") == 0);
	si4 = path_in(dir, "b.si4");
	sg4 = path_in(dir, "b.sg4");
	ref = reference(si4, &count);
	CHECK_MSG(ref && count > 0, "%s: no reference", base);
	if (!ref)
		goto out;

	/* Shrinks to half after the open. */
	r = open_reader(si4, &rc);
	CHECK(rc == GAMEDB_OK || rc == GAMEDB_WARN);
	CHECK(stat(sg4, &st) == 0);
	CHECK(truncate(sg4, st.st_size / 2) == 0);
	while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
		uint64_t h;
		if (rc == GAMEDB_FAILED)
			continue;
		h = pgn_hash(g);
		if (h) {
			ok++;
			if (h != ref[gamedb_game_get_index(g)])
				mismatch++;
		} else {
			const char *msg = gamedb_game_errmsg(g);
			failed++;
			if (strstr(msg, "b.sg4") && strstr(msg, "offset") &&
			    strstr(msg, "the file ends early"))
				early++;
			else if (failed - early < 4)
				fprintf(stderr, "%s: shrunk: unexpected message: %s\n", label, msg);
		}
	}
	CHECK_MSG(mismatch == 0, "%s: %llu games differ after the game file shrank", label,
		  (unsigned long long)mismatch);
	CHECK_MSG(failed > 0 && early == failed,
		  "%s: shrunk: %llu failed, %llu with the file and offset named", label,
		  (unsigned long long)failed, (unsigned long long)early);
	printf("%s: game file cut to half after the open: %llu games read, %llu failed cleanly\n",
	       label, (unsigned long long)ok, (unsigned long long)failed);
	gamedb_reader_free(r);

	/* Grows after the open: read as it was. */
	CHECK(copy_base(base, dir, "b") == 0);
	r = open_reader(si4, &rc);
	CHECK(rc == GAMEDB_OK || rc == GAMEDB_WARN);
	{
		FILE *f = fopen(sg4, "ab");
		FILE *fi = fopen(si4, "ab");
		char junk[4096];
		int i;
		memset(junk, 0xA5, sizeof junk);
		for (i = 0; f && fi && i < 256; i++) {
			CHECK(fwrite(junk, 1, sizeof junk, f) == sizeof junk);
			CHECK(fwrite(junk, 1, sizeof junk, fi) == sizeof junk);
		}
		CHECK(f && fclose(f) == 0);
		CHECK(fi && fclose(fi) == 0);
	}
	n = mismatch = 0;
	while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
		if (rc != GAMEDB_FAILED && pgn_hash(g) == ref[gamedb_game_get_index(g)])
			n++;
		else
			mismatch++;
	}
	CHECK_EQ_INT(rc, GAMEDB_END);
	CHECK_EQ_INT(mismatch, 0);
	CHECK_EQ_INT(n, count);
	gamedb_reader_free(r);
out:
	free(ref);
	free(si4);
	free(sg4);
	free(dir);
}

#ifdef _WIN32
static void test_concurrent_rewrite(const char *base, const char *label, int min_passes)
{
	(void)base;
	(void)min_passes;
	printf("%s: skipped on Windows (the rewriter is a second process made with fork())\n",
	       label);
}
#else
/* ---- a second process rewrites the base while this one reads it ------------------------ */

struct original {
	char *path;
	unsigned char *data;
	size_t len;
};

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/*
 * The child, until the parent stops it: one of the files is either cut at a random length and
 * written back whole after a pause (a program compacting the base in place), or written anew
 * under a temporary name and renamed over it (a sync tool replacing it).
 */
static void rewriter(struct original *files, size_t nfiles, unsigned seed)
{
	srand(seed);
	for (;;) {
		struct original *o = &files[(size_t)rand() % nfiles];
		size_t done = 0;
		int fd;
		if (rand() % 4 == 0) {
			char tmp[4200];
			snprintf(tmp, sizeof tmp, "%s.new", o->path);
			fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			if (fd < 0)
				_exit(3);
		} else {
			fd = open(o->path, O_WRONLY);
			if (fd < 0 ||
			    ftruncate(fd, (off_t)((size_t)rand() % (o->len ? o->len : 1))) != 0)
				_exit(3);
			sleep_us(rand() % 10000);
		}
		while (done < o->len) {
			ssize_t w = pwrite(fd, o->data + done, o->len - done, (off_t)done);
			if (w <= 0)
				_exit(3);
			done += (size_t)w;
		}
		close(fd);
		if (done == o->len) {
			char tmp[4200];
			snprintf(tmp, sizeof tmp, "%s.new", o->path);
			if (access(tmp, F_OK) == 0 && rename(tmp, o->path) != 0)
				_exit(3);
		}
		sleep_us(rand() % 3000);
	}
}

static void test_concurrent_rewrite(const char *base, const char *label, int min_passes)
{
	static const char *const exts[] = { ".si4", ".sn4", ".sg4" };
	char *dir = path_in(tmpdir, label);
	struct original files[3];
	char *si4;
	uint64_t count = 0, *ref;
	uint64_t passes = 0, games = 0, failed = 0, fatal = 0, mismatch = 0, unnamed = 0;
	/* The mismatches are reported, not failed: see below. */
	int status = 0;
	struct timespec t0, t1;
	pid_t pid;
	size_t i;

	CHECK(mkdir(dir, 0700) == 0);
	CHECK(copy_base(base, dir, "c") == 0);
	si4 = path_in(dir, "c.si4");
	ref = reference(si4, &count);
	CHECK_MSG(ref && count > 0, "%s: no reference", base);
	for (i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof name, "c%s", exts[i]);
		files[i].path = path_in(dir, name);
		files[i].data = load_file(files[i].path, &files[i].len);
		CHECK(files[i].data != NULL);
	}
	if (!ref || !files[0].data || !files[1].data || !files[2].data)
		goto out;

	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0)
		rewriter(files, 3, 12345u);
	/*
	 * Read the base over and over while the child rewrites it: at least min_passes passes and
	 * until the rewrites have been seen a few times, for at most 60 seconds (valgrind).
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int32_t rc;
		struct gamedb_reader *r;
		struct gamedb_game *g;
		double elapsed;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		elapsed = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		if ((passes >= (uint64_t)min_passes && failed + fatal >= 3) || elapsed > 60)
			break;
		if (waitpid(pid, &status, WNOHANG) == pid)
			break; /* the rewriter died: reported below */
		passes++;
		r = open_reader(si4, &rc);
		if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
			fatal++;
			if (!names_base_file(gamedb_reader_errmsg(r), "c.s") && unnamed++ < 4)
				fprintf(stderr, "%s: open: %s\n", label, gamedb_reader_errmsg(r));
			gamedb_reader_free(r);
			continue;
		}
		while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END) {
			uint64_t h, idx;
			if (rc == GAMEDB_FATAL || rc == GAMEDB_FAILED) {
				const char *msg = gamedb_reader_errmsg(r);
				if (rc == GAMEDB_FATAL)
					fatal++;
				else
					failed++;
				if (!names_base_file(msg, "c.s") && unnamed++ < 4)
					fprintf(stderr, "%s: %s\n", label, msg);
				if (rc == GAMEDB_FATAL)
					break;
				continue;
			}
			idx = gamedb_game_get_index(g);
			h = pgn_hash(g);
			if (!h) {
				failed++;
				if (!names_base_file(gamedb_game_errmsg(g), "c.s") && unnamed++ < 4)
					fprintf(stderr, "%s: game %llu: %s\n", label,
						(unsigned long long)idx + 1, gamedb_game_errmsg(g));
				continue;
			}
			games++;
			/*
			 * The same bytes are written back, but a read that races with a truncation
			 * can see the kernel's zeros where the cut was (no reader can prevent that):
			 * such a game still decoded with every move legal. Counted, not failed.
			 */
			if (idx >= count || h != ref[idx])
				mismatch++;
		}
		gamedb_reader_free(r);
	}
	CHECK_MSG(waitpid(pid, &status, WNOHANG) == 0, "%s: the rewriter stopped by itself", label);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	CHECK_MSG(unnamed == 0, "%s: %llu errors name no file of the base", label,
		  (unsigned long long)unnamed);
	CHECK_MSG(games > 0, "%s: no game was read", label);
	CHECK_MSG(failed + fatal >= 3, "%s: the rewrites were seen only %llu times", label,
		  (unsigned long long)(failed + fatal));
	printf("%s: rewritten while read: %llu passes; %llu games read (%llu of them saw "
	       "bytes of a cut, and still decoded legally); %llu games failed and %llu opens or "
	       "passes stopped, each error naming the file\n",
	       label, (unsigned long long)passes, (unsigned long long)games,
	       (unsigned long long)mismatch, (unsigned long long)failed,
	       (unsigned long long)fatal);
out:
	for (i = 0; i < 3; i++) {
		free(files[i].path);
		free(files[i].data);
	}
	free(ref);
	free(si4);
	free(dir);
}

/* Builds the large base with the real Scid; its path without extension, or NULL. */
#endif

static char *big_base(void)
{
#ifdef _WIN32
	return NULL; /* built with the real Scid and a shell script: not on Windows */
#else
	const char *script = getenv("GAMEDB_BIGBASE_SCRIPT");
	const char *realdata = getenv("GAMEDB_REALDATA");
	char cmd[8192];
	char *base = path_in(tmpdir, "big");

	if (!script || !realdata || access(script, X_OK) != 0 || access("/usr/games/tkscid", X_OK))
		goto none;
	snprintf(cmd, sizeof cmd,
		 "BIGBASE_MIN_GAMES=30000 GAMEDB_REALDATA='%s' '%s' '%s' > /dev/null 2>&1",
		 realdata, script, base);
	if (system(cmd) == 0)
		return base;
	fprintf(stderr, "test-io: %s failed; using the fixtures\n", script);
none:
	free(base);
	return NULL;
#endif
}

static int remove_tree(const char *dir)
{
	char cmd[4200];

#ifdef _WIN32
	size_t i;
	snprintf(cmd, sizeof cmd, "rmdir /s /q \"%s\"", dir);
	for (i = 0; cmd[i]; i++)
		if (cmd[i] == '/' && i > 5 && cmd[i - 1] != ' ')
			cmd[i] = '\\';
#else
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
#endif
	return system(cmd);
}

int main(void)
{
	const char *testdata = getenv("GAMEDB_TESTDATA");
	const char *realdata = getenv("GAMEDB_REALDATA");
	char fixture[4096], probe[4200];
	char *big;

	if (!testdata)
		TEST_SKIP("GAMEDB_TESTDATA is not set");
	snprintf(fixture, sizeof fixture, "%s/scid/long", testdata);
	if (!mkdtemp(tmpdir))
		TEST_SKIP("cannot make a temporary folder");
	snprintf(probe, sizeof probe, "%s/chessbase/morphy/linares/linares.cbh",
		 realdata ? realdata : "");
	if (!realdata || access(probe, R_OK) != 0)
		realdata = NULL;

	test_special_files(fixture, realdata);
	test_shrink_and_grow(fixture, "small");
	test_concurrent_rewrite(fixture, "small-rewrite", 2000);
	big = big_base();
	if (big) {
		test_shrink_and_grow(big, "large");
		test_concurrent_rewrite(big, "large-rewrite", 20);
		free(big);
	} else {
		printf("large base not built (no Scid or real data): the fixtures stand in\n");
	}
	remove_tree(tmpdir);
	return testlib_done();
}
