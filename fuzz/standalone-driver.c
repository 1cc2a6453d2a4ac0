/*
 * libgamedb - runs a fuzz target's LLVMFuzzerTestOneInput() over files, without libFuzzer: for
 * replaying a corpus (and the crashes added to it) in ordinary test runs, under ASan/UBSan.
 *
 *   fuzz-<format>-replay PATH...
 *
 * Each PATH is a file or a directory (whose regular files are run, in name order, one level
 * deep; names starting with '.' and README* are skipped). Exit status 0 when every input ran,
 * 1 when a path could not be read. A crash in the target ends the program, as it should.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			uint8_t *nb;
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				fprintf(stderr, "%s: out of memory\n", path);
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: read error\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	/* An exact-size copy, so that ASan sees a read past the input's end. */
	{
		uint8_t *exact = malloc(len ? len : 1);
		if (!exact) {
			free(buf);
			return -1;
		}
		memcpy(exact, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned long *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int bad = 0;

	if (!d) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char *p;
		if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
			continue;
		if (n == cap) {
			char **nn;
			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof *nn);
			if (!nn) {
				bad = -1;
				break;
			}
			names = nn;
		}
		p = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (!p) {
			bad = -1;
			break;
		}
		sprintf(p, "%s/%s", dir, e->d_name);
		names[n++] = p;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	for (i = 0; i < n; i++) {
		struct stat sb;
		if (stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode)) {
			if (run_file(names[i]) != 0)
				bad = -1;
			else
				(*count)++;
		}
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	unsigned long count = 0;
	int i, bad = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE-OR-DIRECTORY...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		struct stat sb;
		if (stat(argv[i], &sb) != 0) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			bad = 1;
		} else if (S_ISDIR(sb.st_mode)) {
			if (run_dir(argv[i], &count) != 0)
				bad = 1;
		} else if (run_file(argv[i]) != 0) {
			bad = 1;
		} else {
			count++;
		}
	}
	printf("%lu input(s) run\n", count);
	return bad;
}
