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

static inline int testlib_done(void)
{
	printf("%d passed, %d failed\n", testlib_passed, testlib_failed);
	return testlib_failed ? 1 : 0;
}

#endif /* GAMEDB_TESTLIB_H */
