/*
 * libgamedb - the tests' walk over a folder of bases (test-cursor, test-cbh-lazysan and most
 * tests that read real bases): each file below it, folder by folder in name order. Needs
 * scandir() (POSIX 2008; testlib.h's stand-in on Windows): include it after testlib.h.
 */
#ifndef GAMEDB_TESTS_WALK_FILES_H
#define GAMEDB_TESTS_WALK_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * An option of walk_files_opt(): every name of a folder goes to fn, the folders and the names
 * that start with '.' too (but "." and ".."); folders are still walked into. For a test that
 * counts what a folder holds, so that no new entry of any kind goes unseen.
 */
#define WALK_EVERY_NAME 1

/*
 * Every file below dir (names that start with '.' left out), folder by folder in name order,
 * down to max_depth folders deep: fn(folder, name, path, ctx). How the tests find the real
 * bases under GAMEDB_REALDATA and GAMEDB_TESTDATA. opts: 0 or WALK_EVERY_NAME.
 */
static inline void walk_files_opt(const char *dir, int max_depth, int opts,
				  void (*fn)(const char *folder, const char *name,
					     const char *path, void *ctx),
				  void *ctx)
{
	const int every = (opts & WALK_EVERY_NAME) != 0;
	struct dirent **list;
	int n, i;

	n = scandir(dir, &list, NULL, alphasort);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		char path[4096];
		DIR *d;
		if ((every ? strcmp(name, ".") != 0 && strcmp(name, "..") != 0 : name[0] != '.') &&
		    (size_t)snprintf(path, sizeof path, "%s/%s", dir, name) < sizeof path) {
			if ((d = opendir(path)) != NULL) {
				closedir(d);
				if (every)
					fn(dir, name, path, ctx);
				if (max_depth > 0)
					walk_files_opt(path, max_depth - 1, opts, fn, ctx);
			} else {
				fn(dir, name, path, ctx);
			}
		}
		free(list[i]);
	}
	free(list);
}

/* walk_files_opt() with no option: the files only, no name that starts with '.'. */
static inline void walk_files(const char *dir, int max_depth,
			      void (*fn)(const char *folder, const char *name, const char *path,
					 void *ctx),
			      void *ctx)
{
	walk_files_opt(dir, max_depth, 0, fn, ctx);
}

#endif /* GAMEDB_TESTS_WALK_FILES_H */
