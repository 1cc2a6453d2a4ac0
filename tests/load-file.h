/*
 * libgamedb - reading a whole file into memory, for the tests and the benchmarks (which feed
 * real databases to the library from memory).
 */
#ifndef GAMEDB_LOAD_FILE_H
#define GAMEDB_LOAD_FILE_H

#include <stdio.h>
#include <stdlib.h>

/*
 * The bytes of the file at path in a malloc'd buffer (one NUL byte after them, so text files
 * can be read as strings) and their number in *size; NULL (and *size 0) if it cannot be read.
 */
static void *load_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n;

	*size = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		p = malloc((size_t)n + 1);
		if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
			free(p);
			p = NULL;
		}
		if (p) {
			p[n] = 0;
			*size = (size_t)n;
		}
	}
	fclose(f);
	return p;
}

#endif /* GAMEDB_LOAD_FILE_H */
