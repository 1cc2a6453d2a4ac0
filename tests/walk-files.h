/*
 * libgamedb - the tests' walk over a folder of bases (test-cursor, test-cbh-lazysan): each
 * file below it, folder by folder in name order. Needs scandir() (POSIX 2008; testlib.h's
 * stand-in on Windows): include it after testlib.h.
 */
#ifndef GAMEDB_TESTS_WALK_FILES_H
#define GAMEDB_TESTS_WALK_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * Every file below dir (names that start with '.' left out), folder by folder in name order,
 * down to max_depth folders deep: fn(folder, name, path, ctx). How the tests find the real
 * bases under GAMEDB_REALDATA and GAMEDB_TESTDATA.
 */
static inline void walk_files(const char *dir, int max_depth,
				void (*fn)(const char *folder, const char *name, const char *path,
					   void *ctx),
				void *ctx)
{
	struct dirent **list;
	int n, i;

	n = scandir(dir, &list, NULL, alphasort);
	if (n < 0)
		return;
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		char path[4096];
		DIR *d;
		if (name[0] != '.' &&
		    (size_t)snprintf(path, sizeof path, "%s/%s", dir, name) < sizeof path) {
			if ((d = opendir(path)) != NULL) {
				closedir(d);
				if (max_depth > 0)
					walk_files(path, max_depth - 1, fn, ctx);
			} else {
				fn(dir, name, path, ctx);
			}
		}
		free(list[i]);
	}
	free(list);
}

#endif /* GAMEDB_TESTS_WALK_FILES_H */
