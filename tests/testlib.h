/*
 * libgamedb - a tiny in-tree assertion header for the C tests (no external dependency).
 *
 * Each test program defines its checks with CHECK()/CHECK_EQ_*() and ends main() with
 * `return testlib_done();`, which prints "N passed, N failed" and returns the exit status
 * meson expects (0 all good, 1 something failed, 77 skipped).
 */
#ifndef GAMEDB_TESTLIB_H
#define GAMEDB_TESTLIB_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
/*
 * MinGW has opendir() and readdir() but not scandir(): the tests list folders (real bases,
 * corpora) through this small stand-in, sorted by name as alphasort would.
 */
#include <dirent.h>

static inline int testlib_alphasort(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static inline int testlib_cmp_ent(const void *a, const void *b)
{
	return testlib_alphasort((const struct dirent **)a, (const struct dirent **)b);
}

static inline int testlib_scandir(const char *dir, struct dirent ***out,
				  int (*filter)(const struct dirent *),
				  int (*cmp)(const struct dirent **, const struct dirent **))
{
	DIR *d = opendir(dir);
	struct dirent *e, **list = NULL, **grown;
	size_t n = 0, cap = 0;

	(void)cmp; /* always by name */
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (filter && !filter(e))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(list, cap * sizeof *list);
			if (!grown)
				break;
			list = grown;
		}
		list[n] = malloc(sizeof *e);
		if (!list[n])
			break;
		memcpy(list[n++], e, sizeof *e);
	}
	closedir(d);
	if (n)
		qsort(list, n, sizeof *list, testlib_cmp_ent);
	*out = list;
	return (int)n;
}
#define scandir testlib_scandir
#define alphasort testlib_alphasort

/* mkdtemp(), which MinGW lacks: a new folder from tmpl ("...XXXXXX"). */
#include <io.h>
#include <direct.h>
static inline char *testlib_mkdtemp(char *tmpl)
{
	return _mktemp(tmpl) && _mkdir(tmpl) == 0 ? tmpl : NULL;
}
#define mkdtemp testlib_mkdtemp
#endif

static int testlib_passed;
static int testlib_failed;

#define CHECK(cond)                                                                            \
	do {                                                                                   \
		if (cond) {                                                                    \
			testlib_passed++;                                                      \
		} else {                                                                       \
			testlib_failed++;                                                      \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                              \
	} while (0)

#define CHECK_MSG(cond, ...)                                                                   \
	do {                                                                                   \
		if (cond) {                                                                    \
			testlib_passed++;                                                      \
		} else {                                                                       \
			testlib_failed++;                                                      \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                          \
			fputc('\n', stderr);                                                   \
		}                                                                              \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                                     \
	do {                                                                                   \
		long long testlib_a_ = (long long)(a), testlib_b_ = (long long)(b);            \
		if (testlib_a_ == testlib_b_) {                                                \
			testlib_passed++;                                                      \
		} else {                                                                       \
			testlib_failed++;                                                      \
			fprintf(stderr, "%s:%d: %s == %s: %lld != %lld\n", __FILE__, __LINE__, #a, \
				#b, testlib_a_, testlib_b_);                                   \
		}                                                                              \
	} while (0)

#define CHECK_EQ_STR(a, b)                                                                     \
	do {                                                                                   \
		const char *testlib_a_ = (a), *testlib_b_ = (b);                               \
		if (testlib_a_ && testlib_b_ && strcmp(testlib_a_, testlib_b_) == 0) {          \
			testlib_passed++;                                                      \
		} else {                                                                       \
			testlib_failed++;                                                      \
			fprintf(stderr, "%s:%d: %s == %s: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
				#a, #b, testlib_a_ ? testlib_a_ : "(null)",                   \
				testlib_b_ ? testlib_b_ : "(null)");                           \
		}                                                                              \
	} while (0)

/* Skips the whole program (meson counts exit status 77 as SKIP). */
#define TEST_SKIP(...)                                                                          \
	do {                                                                                   \
		printf("SKIP: ");                                                              \
		printf(__VA_ARGS__);                                                           \
		printf("\n");                                                                  \
		exit(77);                                                                      \
	} while (0)

/* Copies the file from into to (made or replaced), a block at a time: 0, or -1. */
static inline int testlib_copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
	char buf[4096];
	size_t n;
	int bad = !in || !out;

	while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0)
		bad = fwrite(buf, 1, n, out) != n;
	if (in && ferror(in))
		bad = 1;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		bad = 1;
	return bad ? -1 : 0;
}

static inline int testlib_done(void)
{
	printf("%d passed, %d failed\n", testlib_passed, testlib_failed);
	return testlib_failed ? 1 : 0;
}

#endif /* GAMEDB_TESTLIB_H */
