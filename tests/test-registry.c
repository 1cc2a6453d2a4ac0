/*
 * libgamedb - the format registry, through the public listing (gamedb_format_*), and options
 * set before the open (issue 19).
 *
 * Every registered format must be complete: a name and a description, at least one extension
 * that opens a base (lower case, with its dot) and its other extensions, a default charset
 * iconv knows, options each with a default and a description, a test base (testdata/<name>/
 * or realdata/<name>/ holding a file that opens), a doc/formats/<name>.md and a line in the
 * README's format table. A new format that misses one of these fails here.
 *
 * Options: a format's option set before the open is kept and reaches the format (the same
 * games as setting it after the open); a bad value set before makes the open fail with the
 * format's message; a key no format knows fails at once; an option of another format is no
 * error. Opening by base name finds every format's index extension, in either case.
 *
 * Archives (issue 28): every extension a base can be opened by is listed, the archives that
 * hold a whole base included: ChessBase lists .cbv and .cbz (doc/formats/cbv.md) as opening a
 * base and as archives, after .cbh and before its siblings (.cbg: neither); an archive flag
 * never comes without the opening one; and each archive extension opens a real base of its
 * format (realdata chessbase/uncbv; the .cbz with the password uncbv's tests give it).
 */
#define _XOPEN_SOURCE 700
#ifndef _WIN32
#include <iconv.h>
#endif
#include <sys/stat.h>
#include <unistd.h>

#include <gamedb/gamedb.h>

#include "load-file.h"
#include "testlib.h"
#include "walk-files.h"

static const char *srcdir(void)
{
	static char buf[4096];
	const char *td = getenv("GAMEDB_TESTDATA");
	char *slash;

	if (!td || strlen(td) >= sizeof buf)
		return NULL;
	strcpy(buf, td);
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = 0; /* GAMEDB_TESTDATA is <srcdir>/testdata */
	return buf;
}

/* What dir_has() looks for (ext) and whether it was found. */
struct ext_search {
	const char *ext;
	int found;
};

/* A file of the walk (walk_files()): found when its name ends in the extension (any case). */
static void ext_match(const char *folder, const char *name, const char *path, void *ctx)
{
	struct ext_search *s = ctx;
	struct stat st;
	size_t n = strlen(name), m = strlen(s->ext), i;

	(void)folder;
	/* Once found, the rest of the walk is only listed. */
	if (s->found || n < m || stat(path, &st) != 0 || S_ISDIR(st.st_mode))
		return;
	for (i = 0; i < m; i++) {
		char a = name[n - m + i], b = s->ext[i];
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (a != b)
			break;
	}
	s->found = i == m;
}

/* 1 if dir (searched 3 levels deep) holds a file whose name ends in ext (any case). */
static int dir_has(const char *dir, const char *ext, int depth)
{
	struct ext_search s = { ext, 0 };

	walk_files(dir, depth, ext_match, &s);
	return s.found;
}

/* Whether the real sample data are on this machine. */
static int realdata_here(const char *realdata)
{
	struct stat sb;

	return realdata && stat(realdata, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static void test_entries(void)
{
	const char *src = srcdir(), *realdata = getenv("GAMEDB_REALDATA");
	size_t n = gamedb_format_count(), i, j;
	char *readme = NULL;
	size_t readme_len = 0;

	CHECK(n >= 3);
	CHECK(gamedb_format_get_name(n) == NULL);
	CHECK(gamedb_format_get_description(n) == NULL);
	CHECK(gamedb_format_get_extension(n, 0, NULL) == NULL);
	CHECK(gamedb_format_get_capabilities(n) == 0);
	if (src) {
		char path[4200];
		snprintf(path, sizeof path, "%s/README.md", src);
		readme = (char *)load_file(path, &readme_len);
	}
	for (i = 0; i < n; i++) {
		const char *name = gamedb_format_get_name(i), *desc = gamedb_format_get_description(i);
		const char *cs = gamedb_format_get_charset(i), *ext, *key, *def, *what;
		uint32_t flags;
		size_t opens = 0, k;
		int has_base = 0;

		CHECK_MSG(name && *name, "format %zu has no name", i);
		if (!name)
			continue;
		CHECK_MSG(desc && strlen(desc) > 10, "%s: no description", name);
		for (j = 0; j < i; j++)
			CHECK_MSG(strcmp(gamedb_format_get_name(j), name) != 0, "%s: twice", name);
		/* Extensions: the opening ones first, all lower case with their dot. */
		for (k = 0; (ext = gamedb_format_get_extension(i, k, &flags)) != NULL; k++) {
			size_t c;
			CHECK_MSG(ext[0] == '.' && ext[1], "%s: extension \"%s\"", name, ext);
			for (c = 1; ext[c]; c++)
				CHECK_MSG(!(ext[c] >= 'A' && ext[c] <= 'Z'), "%s: \"%s\" not lower case",
					  name, ext);
			if (flags & GAMEDB_EXTENSION_OPENS) {
				CHECK_MSG(opens == k, "%s: %s opens a base but comes after a sibling",
					  name, ext);
				opens++;
				if (src) {
					char dir[4200];
					snprintf(dir, sizeof dir, "%s/testdata/%s", src, name);
					if (dir_has(dir, ext, 3))
						has_base = 1;
				}
				if (realdata) {
					char dir[4200];
					snprintf(dir, sizeof dir, "%s/%s", realdata, name);
					if (dir_has(dir, ext, 3))
						has_base = 1;
				}
				if (readme)
					CHECK_MSG(strstr(readme, ext) != NULL,
						  "%s: %s is not in the README's format table", name, ext);
			}
		}
		CHECK_MSG(opens >= 1, "%s: no extension opens a base", name);
		if (has_base || realdata_here(realdata))
			CHECK_MSG(has_base, "%s: no test base (testdata/%s/ or realdata/%s/ with a file "
				  "that opens a base)", name, name, name);
		else /* its bases are all real data, which this machine does not have */
			printf("%s: no test base here (no real data at %s)\n", name,
			       realdata ? realdata : "(unset)");
		/* The default charset is one iconv knows. */
		CHECK_MSG(cs && *cs, "%s: no default charset", name);
#ifndef _WIN32 /* Windows: no iconv; test-text checks the code-page backend's names */
		if (cs) {
			iconv_t cd = iconv_open("UTF-8", cs);
			CHECK_MSG(cd != (iconv_t)-1, "%s: iconv does not know charset %s", name, cs);
			if (cd != (iconv_t)-1)
				iconv_close(cd);
		}
#endif
		/* Options: each with a default and a description; none named like a core option. */
		for (k = 0; (key = gamedb_format_get_option(i, k, &def, &what)) != NULL; k++) {
			CHECK_MSG(*key && def && what && *what, "%s: option %s lacks a default or a "
				  "description", name, key);
			CHECK_MSG(strcmp(key, "charset") != 0 && strcmp(key, "fallback-charset") != 0,
				  "%s: option %s is the core's", name, key);
		}
		CHECK(gamedb_format_get_option(i, k, &def, &what) == NULL && def == NULL);
		/* Documented. */
		if (src) {
			char path[4200];
			snprintf(path, sizeof path, "%s/doc/formats/%s.md", src, name);
			CHECK_MSG(access(path, R_OK) == 0, "%s: no doc/formats/%s.md", name, name);
		}
		/* Known by name to the reader. */
		{
			struct gamedb_reader *r = gamedb_reader_new();
			CHECK_EQ_INT(gamedb_reader_support_format(r, name), GAMEDB_OK);
			gamedb_reader_free(r);
		}
	}
	{
		struct gamedb_reader *r = gamedb_reader_new();
		CHECK_EQ_INT(gamedb_reader_support_format(r, "no-such-format"), GAMEDB_FATAL);
		CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
		gamedb_reader_free(r);
	}
	free(readme);
}

static int32_t sink_buf(void *user_data, const char *data, size_t len)
{
	FILE *f = user_data;
	return fwrite(data, 1, len, f) == len ? 0 : 1;
}

/* All games of the base at path as PGN (malloc'd), with option key=value set before or after. */
static char *pgn_with(const char *path, const char *format, const char *key, const char *value,
		      int before, int32_t *open_rc, char *msg, size_t msgcap)
{
	struct gamedb_reader *r = gamedb_reader_new();
	struct gamedb_game *g;
	char *out = NULL;
	long len;
	FILE *f = tmpfile(); /* not open_memstream(): MinGW has none */
	int32_t rc;

	if (!f)
		abort();

	gamedb_reader_support_format_all(r);
	if (before && key)
		CHECK_EQ_INT(gamedb_reader_set_option(r, format, key, value), GAMEDB_OK);
	*open_rc = gamedb_reader_open_filename(r, path);
	snprintf(msg, msgcap, "%s", gamedb_reader_errmsg(r));
	if (*open_rc == GAMEDB_OK || *open_rc == GAMEDB_WARN) {
		if (!before && key)
			CHECK_EQ_INT(gamedb_reader_set_option(r, format, key, value), GAMEDB_OK);
		while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL)
			if (rc != GAMEDB_FAILED)
				gamedb_game_write_pgn(g, 0, sink_buf, f);
	}
	len = ftell(f);
	out = len >= 0 ? malloc((size_t)len + 1) : NULL;
	rewind(f);
	if (!out || fread(out, 1, (size_t)len, f) != (size_t)len)
		abort();
	out[len] = 0;
	fclose(f);
	gamedb_reader_free(r);
	return out;
}

static void test_options(void)
{
	const char *realdata = getenv("GAMEDB_REALDATA"), *testdata = getenv("GAMEDB_TESTDATA");
	char cb[4096], scid[4096], msg[600];
	char *a, *b, *c;
	int32_t rc;
	struct gamedb_reader *r;

	/* A key no format knows: refused at once, before and after the open. */
	r = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "no-such-option", "1"), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNKNOWN_OPTION);
	CHECK_EQ_INT(gamedb_reader_set_option(r, "scid", "language", "en"), GAMEDB_FAILED);
	CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNKNOWN_OPTION);
	CHECK_EQ_INT(gamedb_reader_set_option(r, "no-such-format", "language", "en"),
		     GAMEDB_FAILED);
	gamedb_reader_free(r);

	if (!testdata)
		return;
	snprintf(scid, sizeof scid, "%s/scid/annotations.si4", testdata);
	/* An option of another format, set before the open of a SCID base: no error. */
	a = pgn_with(scid, NULL, NULL, NULL, 1, &rc, msg, sizeof msg);
	b = pgn_with(scid, "chessbase", "language", "de", 1, &rc, msg, sizeof msg);
	CHECK_MSG(rc == GAMEDB_OK, "scid with a chessbase option: %s", msg);
	CHECK(a && b && strcmp(a, b) == 0);
	free(a);
	free(b);

	if (!realdata)
		return;
	/* linares holds texts in several languages: language=de changes its PGN. */
	snprintf(cb, sizeof cb, "%s/chessbase/morphy/linares/linares.cbh", realdata);
	if (access(cb, R_OK) != 0)
		return;
	/* Before the open = after the open, and different from not setting it. */
	a = pgn_with(cb, "chessbase", "language", "de", 1, &rc, msg, sizeof msg);
	CHECK_MSG(rc == GAMEDB_OK || rc == GAMEDB_WARN, "%s", msg);
	b = pgn_with(cb, "chessbase", "language", "de", 0, &rc, msg, sizeof msg);
	c = pgn_with(cb, NULL, NULL, NULL, 0, &rc, msg, sizeof msg);
	CHECK(a && b && c);
	if (a && b && c) {
		CHECK_MSG(strcmp(a, b) == 0, "language=de before the open differs from after it");
		CHECK_MSG(strcmp(a, c) != 0, "language=de has no effect on %s", cb);
	}
	free(a);
	free(b);
	free(c);
	/* Unaddressed (format NULL) works the same. */
	a = pgn_with(cb, NULL, "language", "de", 1, &rc, msg, sizeof msg);
	b = pgn_with(cb, "chessbase", "language", "de", 0, &rc, msg, sizeof msg);
	CHECK(a && b && strcmp(a, b) == 0);
	free(a);
	free(b);
	/* A bad value set before the open: the open fails with the format's message. */
	a = pgn_with(cb, "chessbase", "language", "klingon", 1, &rc, msg, sizeof msg);
	CHECK_EQ_INT(rc, GAMEDB_FATAL);
	CHECK_MSG(strstr(msg, "language") && strstr(msg, "klingon"), "message: %s", msg);
	free(a);
	/* charset-detect set before the open. */
	snprintf(cb, sizeof cb, "%s/chessbase/morphy/Hedgehog/Hedgehog.cbh", realdata);
	if (access(cb, R_OK) == 0) {
		a = pgn_with(cb, NULL, "charset-detect", "yes", 1, &rc, msg, sizeof msg);
		b = pgn_with(cb, NULL, "charset-detect", "yes", 0, &rc, msg, sizeof msg);
		c = pgn_with(cb, NULL, "charset", "CP1251", 1, &rc, msg, sizeof msg);
		CHECK(a && b && c && strcmp(a, b) == 0 && strcmp(a, c) == 0);
		free(a);
		free(b);
		free(c);
	}
}

/* Opening by base name: every format's opening extension, lower and upper case. */
static void test_base_names(void)
{
	const char *testdata = getenv("GAMEDB_TESTDATA");
	char dir[] = "/tmp/gamedb-test-registry-XXXXXX";
	static const char *const pairs[][3] = {
		{ "scid/tags.si4", "T", ".si4" }, { "scid/tags.sn4", "T", ".sn4" },
		{ "scid/tags.sg4", "T", ".sg4" }, { "xqf/plain-v10.xqf", "X", ".xqf" },
	};
	size_t i;
	int up;

	if (!testdata || !mkdtemp(dir))
		return;
	for (up = 0; up < 2; up++) {
		for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
			char from[4200], to[4200], ext[8];
			size_t len, k;
			unsigned char *data;
			FILE *f;
			snprintf(from, sizeof from, "%s/%s", testdata, pairs[i][0]);
			for (k = 0; pairs[i][2][k]; k++)
				ext[k] = (char)(up && pairs[i][2][k] >= 'a' ? pairs[i][2][k] - 32
									       : pairs[i][2][k]);
			ext[k] = 0;
			snprintf(to, sizeof to, "%s/%s%d%s", dir, pairs[i][1], up, ext);
			data = load_file(from, &len);
			CHECK(data != NULL);
			f = fopen(to, "wb");
			CHECK(f && data && fwrite(data, 1, len, f) == len);
			if (f)
				fclose(f);
			free(data);
		}
		for (i = 0; i < 2; i++) {
			char base[4200];
			struct gamedb_reader *r = gamedb_reader_new();
			int32_t rc;
			snprintf(base, sizeof base, "%s/%s%d", dir, i ? "X" : "T", up);
			gamedb_reader_support_format_all(r);
			rc = gamedb_reader_open_filename(r, base);
			CHECK_MSG(rc == GAMEDB_OK || rc == GAMEDB_WARN, "%s: %s", base,
				  gamedb_reader_errmsg(r));
			CHECK_EQ_STR(gamedb_reader_format(r), i ? "xqf" : "scid");
			gamedb_reader_free(r);
		}
	}
	{
		char cmd[4200];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0);
	}
}

/* The flags format name lists ext with: -1 when it does not list it. */
static long listed_flags(const char *name, const char *ext, size_t *at)
{
	size_t i, k;
	uint32_t flags;
	const char *e;

	for (i = 0; i < gamedb_format_count(); i++) {
		if (strcmp(gamedb_format_get_name(i), name) != 0)
			continue;
		for (k = 0; (e = gamedb_format_get_extension(i, k, &flags)) != NULL; k++)
			if (strcmp(e, ext) == 0) {
				if (at)
					*at = k;
				return (long)flags;
			}
	}
	return -1;
}

/* A real sample of each archive extension (under realdata) and the option that opens it. */
struct archive_sample {
	const char *ext, *path, *password;
};
static const struct archive_sample archive_samples[] = {
	{ ".cbv", "chessbase/uncbv/small.cbv", NULL },
	{ ".cbz", "chessbase/uncbv/small.cbz", "password" }, /* uncbv's tests give it */
	{ NULL, NULL, NULL },
};

static void test_archives(void)
{
	const char *realdata = getenv("GAMEDB_REALDATA");
	size_t i, k, cbh = 99, cbv = 99, cbz = 99, cbg = 99;
	uint32_t flags;
	const char *ext;

	CHECK_EQ_INT(listed_flags("chessbase", ".cbh", &cbh), GAMEDB_EXTENSION_OPENS);
	CHECK_EQ_INT(listed_flags("chessbase", ".cbv", &cbv),
		     GAMEDB_EXTENSION_OPENS | GAMEDB_EXTENSION_ARCHIVE);
	CHECK_EQ_INT(listed_flags("chessbase", ".cbz", &cbz),
		     GAMEDB_EXTENSION_OPENS | GAMEDB_EXTENSION_ARCHIVE);
	CHECK_EQ_INT(listed_flags("chessbase", ".cbg", &cbg), 0);
	CHECK_MSG(cbh < cbv && cbv < cbz && cbz < cbg, "chessbase: .cbh %zu .cbv %zu .cbz %zu .cbg "
		  "%zu: the index, then the archives, then the siblings", cbh, cbv, cbz, cbg);
	/* No other format claims them. */
	CHECK_EQ_INT(listed_flags("scid", ".cbv", NULL), -1);
	for (i = 0; i < gamedb_format_count(); i++)
		for (k = 0; (ext = gamedb_format_get_extension(i, k, &flags)) != NULL; k++)
			CHECK_MSG(!(flags & GAMEDB_EXTENSION_ARCHIVE) || (flags & GAMEDB_EXTENSION_OPENS),
				  "%s: %s is an archive that opens no base", gamedb_format_get_name(i),
				  ext);
	/* Each archive extension opens a real base of its format: a sample of each is below. */
	if (!realdata_here(realdata)) {
		printf("archives: no real data at %s\n", realdata ? realdata : "(unset)");
		return;
	}
	for (i = 0; i < gamedb_format_count(); i++) {
		for (k = 0; (ext = gamedb_format_get_extension(i, k, &flags)) != NULL; k++) {
			const struct archive_sample *s = archive_samples;
			char path[4200];
			struct gamedb_reader *r;
			int32_t rc;
			if (!(flags & GAMEDB_EXTENSION_ARCHIVE))
				continue;
			while (s->ext && strcmp(s->ext, ext) != 0)
				s++;
			CHECK_MSG(s->ext != NULL, "%s: archive %s has no sample in archive_samples",
				  gamedb_format_get_name(i), ext);
			if (!s->ext)
				continue;
			snprintf(path, sizeof path, "%s/%s", realdata, s->path);
			r = gamedb_reader_new();
			gamedb_reader_support_format_all(r);
			if (s->password)
				gamedb_reader_set_option(r, NULL, "password", s->password);
			rc = gamedb_reader_open_filename(r, path);
			CHECK_MSG(rc == GAMEDB_OK || rc == GAMEDB_WARN, "%s: %s", path,
				  gamedb_reader_errmsg(r));
			CHECK_EQ_STR(gamedb_reader_format(r) ? gamedb_reader_format(r) : "(none)",
				     gamedb_format_get_name(i));
			gamedb_reader_free(r);
		}
	}
}

int main(void)
{
	test_archives();
	test_entries();
	test_options();
	test_base_names();
	return testlib_done();
}
