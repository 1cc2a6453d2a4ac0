/*
 * libgamedb - tests of the ChessBase archive reader (lib/containers/cbv.c, doc/formats/cbv.md).
 *
 * Real archives ($GAMEDB_REALDATA/chessbase/uncbv, from uncbv's tests): small.cbv and
 * decrypted_small.cbv unpack to exactly the files of their unpacked twin small/ (every
 * member, byte for byte, and no file of the twin missing), and open through the public API
 * (by file name, and from memory by content) as the same base. So do the encrypted samples
 * small.cbz, small2.cbz and small3.cbz with the passwords uncbv's tests give them
 * ("password", "pass", "my long password"): DES (checked first on the standard's known
 * answers) under the key that password makes; without the password, or with a wrong one, they
 * fail with a message saying so. Hand-made archives cover what the samples do not use (Huffman
 * blocks) and hostile input: every truncation of a real archive, random byte changes,
 * decompression bombs (a member unpacking past its declared size, declared sizes past the
 * limit), bad Huffman tables and LZ references before the block. A .cbz is deciphered only as
 * far as it is read. gamedb_reader_open_shared() reads the same games on archives, on disk
 * and in memory, whichever reader is freed first; and gamedb --jobs 4 takes no more memory than
 * --jobs 1 on an archive (one unpacked copy for all its workers), with the same output. Meant
 * for the ASan/UBSan build and valgrind as well.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (glibc) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifndef _WIN32
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#endif

#include "formats/format.h"
#include "containers/cbv.h"
#include "cbv-grow.h"
#include "load-file.h"
#include "util/des.h"
#include "testlib.h"
#include "walk-files.h"

static char dir[1024];

static const char *member_base(const char *name)
{
	const char *c = strrchr(name, ':');
	return c ? c + 1 : name;
}

/* The password of the encrypted archive being tested (NULL: a plain .cbv). */
static const char *password;

/* Unpacks data (as "t.cbz" when password is set, else "t.cbv"); the reader's message in err. */
static int32_t unpack(const uint8_t *data, size_t size, struct gamedb__archive **a, char *err,
		      size_t cap)
{
	struct gamedb_reader *r = gamedb_reader_new();
	int32_t rc;

	CHECK(r != NULL);
	rc = password ? gamedb__cbz_unpack(r, "t.cbz", data, size, password, a)
		      : gamedb__cbv_unpack(r, "t.cbv", data, size, a);
	snprintf(err, cap, "%s", gamedb_reader_errmsg(r));
	gamedb_reader_free(r);
	return rc;
}

/* A file of the walk (walk_files()) over small/: counted in ctx. */
static void count_file(const char *folder, const char *name, const char *path, void *ctx)
{
	(void)folder;
	(void)name;
	(void)path;
	(*(size_t *)ctx)++;
}

/*
 * An archive against small/. pw: its password (NULL for a .cbv); key: the DES key that
 * password makes (doc/formats/cbv.md), worked out by hand, to read the plain header here.
 */
static void test_twins(const char *archive, const char *pw, const char *key)
{
	char path[1200], err[512];
	const char *tname = pw ? "t.cbz: " : "t.cbv: ";
	uint8_t *data, *plain;
	size_t size, i, twin_files = 0;
	struct gamedb__archive *a = NULL;
	int32_t rc;

	snprintf(path, sizeof path, "%s/%s", dir, archive);
	data = load_file(path, &size);
	if (!data) {
		printf("%s not found: skipped\n", path);
		return;
	}
	password = pw;
	plain = malloc(size);
	CHECK(plain != NULL);
	if (!plain)
		return;
	memcpy(plain, data, size);
	if (pw) {
		struct gamedb__des des;
		gamedb__des_init(&des, (const uint8_t *)key);
		for (i = 0; i + 8 <= size; i += 8)
			gamedb__des_block(&des, data + i, plain + i, 1);
		/* uncbv's decrypted_small.cbv is small.cbz deciphered: so is ours, to the byte. */
		if (strcmp(archive, "small.cbz") == 0) {
			size_t dsize;
			uint8_t *dec;
			snprintf(path, sizeof path, "%s/decrypted_small.cbv", dir);
			dec = load_file(path, &dsize);
			CHECK_MSG(dec && dsize == size && memcmp(dec, plain, size) == 0,
				  "small.cbz deciphered differs from decrypted_small.cbv");
			free(dec);
		}
	}
	rc = unpack(data, size, &a, err, sizeof err);
	CHECK_MSG(rc == GAMEDB_OK, "%s: %s", archive, err);
	for (i = 0; a && i < a->n; i++) {
		size_t tsize;
		uint8_t *twin;
		snprintf(path, sizeof path, "%s/small/%s", dir, member_base(a->names[i]));
		twin = load_file(path, &tsize);
		CHECK_MSG(twin && tsize == a->sizes[i] && memcmp(twin, a->data[i], tsize) == 0,
			  "%s: member %s differs from %s", archive, a->names[i], path);
		free(twin);
	}
	snprintf(path, sizeof path, "%s/small", dir);
	walk_files(path, 0, count_file, &twin_files);
	CHECK_MSG(a && a->n == twin_files, "%s: %zu members, the twin has %zu files", archive,
		  a ? a->n : 0, twin_files);
	printf("%s: %zu members, each equal to its twin in small/\n", archive, a ? a->n : 0);
	gamedb__archive_free(a);

	/* Through the public API: by file name, and from memory by content. */
	{
		struct gamedb_reader *r = gamedb_reader_new(), *t = gamedb_reader_new();
		uint64_t n = 99, tn = 98;
		snprintf(path, sizeof path, "%s/%s", dir, archive);
		if (pw)
			CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "password", pw), GAMEDB_OK);
		CHECK_MSG(gamedb_reader_open_filename(r, path) == GAMEDB_OK, "%s",
			  gamedb_reader_errmsg(r));
		CHECK_EQ_STR(gamedb_reader_format(r), "chessbase");
		/* Closed once unpacked, the archive is still a file of the base (gamedb pgn -o). */
		CHECK_EQ_INT(gamedb_reader_uses_file(r, path), 1);
		snprintf(path, sizeof path, "%s/small/small.cbh", dir);
		CHECK_EQ_INT(gamedb_reader_open_filename(t, path), GAMEDB_OK);
		CHECK(gamedb_reader_game_count(r, &n) == GAMEDB_OK &&
		      gamedb_reader_game_count(t, &tn) == GAMEDB_OK && n == tn);
		gamedb_reader_free(r);
		gamedb_reader_free(t);
		r = gamedb_reader_new();
		/* From memory, under a name that says nothing: with the password, found by its
		 * first block deciphered. */
		if (pw)
			CHECK_EQ_INT(gamedb_reader_set_option(r, "chessbase", "password", pw), GAMEDB_OK);
		CHECK_MSG(gamedb_reader_open_memory(r, "any-name", data, size) == GAMEDB_OK, "%s",
			  gamedb_reader_errmsg(r));
		CHECK_EQ_STR(gamedb_reader_format(r), "chessbase");
		/* After the open, the password changes nothing. */
		CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "password", "x"), GAMEDB_WARN);
		gamedb_reader_free(r);
	}

	/*
	 * Every truncation before the end of the members' data (read here from the plain header:
	 * the entries, then the packed sizes; decrypted_small.cbv has 4 bytes of padding after it)
	 * fails cleanly, naming the archive and an offset; from there on it unpacks. Encrypted,
	 * only whole blocks count: a cut inside the last block that holds data fails too.
	 */
	{
		size_t cut, clean = 0, end = 8 + (size_t)(plain[2] | plain[3] << 8) * plain[4];
		for (i = 0; i < (size_t)(plain[2] | plain[3] << 8); i++) {
			const uint8_t *e = plain + 8 + i * plain[4] + 132;
			end += (size_t)e[0] | (size_t)e[1] << 8 | (size_t)e[2] << 16 | (size_t)e[3] << 24;
		}
		CHECK(end <= size && size - end < 8);
		for (cut = 0; cut < size; cut++) {
			const size_t usable = pw ? cut / 8 * 8 : cut;
			char want[32];
			snprintf(want, sizeof want, "%soffset ", tname);
			rc = unpack(data, cut, &a, err, sizeof err);
			if (usable < end ? rc == GAMEDB_FATAL && strncmp(err, want, strlen(want)) == 0
					 : rc == GAMEDB_OK)
				clean++;
			else
				printf("  cut at %zu: %d %s\n", cut, (int)rc, err);
			gamedb__archive_free(rc == GAMEDB_OK ? a : NULL);
		}
		CHECK_EQ_INT(clean, size);
	}
	/* Random byte changes: unpacked within the declared sizes, or a clean failure. */
	{
		uint64_t x = 0x9E3779B97F4A7C15u;
		size_t k, ok = 0, failed = 0;
		uint8_t *copy = malloc(size);
		for (k = 0; k < 4000 && copy; k++) {
			memcpy(copy, data, size);
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			copy[x % size] = (uint8_t)(x >> 32);
			if (k & 1) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				copy[x % size] ^= (uint8_t)(1u << (x >> 40) % 8);
			}
			rc = unpack(copy, size, &a, err, sizeof err);
			if (rc == GAMEDB_OK) {
				ok++;
				gamedb__archive_free(a);
			} else {
				CHECK_MSG(rc == GAMEDB_FATAL && strncmp(err, tname, 7) == 0, "%s", err);
				failed++;
			}
		}
		printf("%s: 4000 damaged copies: %zu unpacked, %zu failed cleanly\n", archive, ok,
		       failed);
		free(copy);
	}
	free(plain);
	free(data);
	password = NULL;
}

/* ---- hand-made archives --------------------------------------------------------------- */

struct w {
	uint8_t b[70000];
	size_t n;
};

static void put16(struct w *w, unsigned v)
{
	w->b[w->n++] = (uint8_t)v;
	w->b[w->n++] = (uint8_t)(v >> 8);
}

static void put32(struct w *w, uint32_t v)
{
	put16(w, v & 0xFFFF);
	put16(w, v >> 16);
}

/* An archive of one member "x/b.cbh" whose data is the given blocks (bytes as given). */
static void one_member(struct w *w, uint32_t unpacked, const uint8_t *blocks, size_t n)
{
	w->n = 0;
	w->b[w->n++] = 8;
	w->b[w->n++] = 0;
	put16(w, 1);
	w->b[w->n++] = 140;
	w->b[w->n++] = 0;
	w->b[w->n++] = 0;
	w->b[w->n++] = 0;
	memset(w->b + w->n, 0, 132);
	memcpy(w->b + w->n, "x\\b.cbh", 7);
	w->n += 132;
	put32(w, (uint32_t)n);
	put32(w, unpacked);
	memcpy(w->b + w->n, blocks, n);
	w->n += n;
}

/* Bits, most significant first. */
struct bitw {
	uint8_t b[2048];
	size_t bit;
};

static void bits(struct bitw *bw, unsigned v, int n)
{
	while (n-- > 0) {
		if ((v >> n) & 1)
			bw->b[bw->bit / 8] |= (uint8_t)(0x80 >> (bw->bit % 8));
		bw->bit++;
	}
}

static void test_handmade(void)
{
	struct w w;
	struct gamedb__archive *a = NULL;
	char err[512];
	int32_t rc;

	/* Stored, then LZ: a literal, a run of 3 + 2, a copy of 3 from 3 back. */
	{
		static const uint8_t blocks[] = {
			4, 0, 0, 0, 0, 'a', 'b', 'c',                         /* stored "abc" */
			8, 0, 0, 0, 1, 0x00, 0x60, 'x', 0x02, 'y', 0x30, 0x00 /* LZ */
		};
		one_member(&w, 3 + 1 + 5 + 3, blocks, sizeof blocks);
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_OK, "%s", err);
		CHECK(a && a->n == 1 && a->sizes[0] == 12 && memcmp(a->data[0], "abcxyyyyyyyy", 12) == 0);
		CHECK(a && strcmp(a->names[0], "t.cbv:b.cbh") == 0);
		gamedb__archive_free(a);
		/* Names are Latin-1: in UTF-8 in the memory set and in messages. */
		w.b[8 + 2] = 0xE9;
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK(rc == GAMEDB_OK && a && strcmp(a->names[0], "t.cbv:\xc3\xa9.cbh") == 0);
		gamedb__archive_free(a);
	}
	/* Huffman: 'a' = 0, 'b' = 10, 'c' = 11; "abcab". */
	{
		struct bitw bw;
		uint8_t blocks[400];
		size_t n, i;
		int s;
		memset(&bw, 0, sizeof bw);
		for (s = 0; s < 256; s++) {
			if (s == 'a') {
				bits(&bw, 1, 4);
				bits(&bw, 0, 1);
			} else if (s == 'b' || s == 'c') {
				bits(&bw, 2, 4);
				bits(&bw, s == 'b' ? 2 : 3, 2);
			} else {
				bits(&bw, 0, 4);
			}
		}
		bits(&bw, 0, 1);
		bits(&bw, 2, 2);
		bits(&bw, 3, 2);
		bits(&bw, 0, 1);
		bits(&bw, 2, 2);
		n = (bw.bit + 7) / 8;
		blocks[0] = (uint8_t)(n + 3);
		blocks[1] = (uint8_t)((n + 3) >> 8);
		blocks[2] = blocks[3] = 0;
		blocks[4] = 2;     /* Huffman only */
		blocks[5] = 0;     /* 5 symbols, big-endian */
		blocks[6] = 5;
		for (i = 0; i < n; i++)
			blocks[7 + i] = bw.b[i];
		one_member(&w, 5, blocks, 7 + n);
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_OK, "%s", err);
		CHECK(a && a->sizes[0] == 5 && memcmp(a->data[0], "abcab", 5) == 0);
		gamedb__archive_free(a);
		/* Asking one symbol more than the coded bits hold: cut off. */
		blocks[6] = 9;
		one_member(&w, 9, blocks, 7 + n);
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "member b.cbh") &&
			  (strstr(err, "cut off") || strstr(err, "not in the Huffman table")), "%s", err);
		/* A code that is a prefix of another: 'b' = 0 as well. */
		memset(&bw, 0, sizeof bw);
		for (s = 0; s < 256; s++) {
			bits(&bw, s == 'a' || s == 'b' ? 1 : 0, 4);
			if (s == 'a' || s == 'b')
				bits(&bw, 0, 1);
		}
		n = (bw.bit + 7) / 8 + 1;
		blocks[0] = (uint8_t)(n + 3);
		blocks[1] = (uint8_t)((n + 3) >> 8);
		blocks[6] = 1;
		for (i = 0; i < n; i++)
			blocks[7 + i] = bw.b[i];
		one_member(&w, 1, blocks, 7 + n);
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "bad Huffman table"), "%s", err);
	}
	/* A bomb: a run of 4114 bytes in a member that declares 100. */
	{
		static const uint8_t blocks[] = { 6, 0, 0, 0, 1, 0x00, 0x80, 0x1F, 0xFF, 'z' };
		one_member(&w, 100, blocks, sizeof blocks);
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "more bytes than the archive declares"),
			  "%s", err);
		/* Declared sizes past the limit fail before anything is unpacked. */
		one_member(&w, 0x7FFFFFFF, blocks, sizeof blocks);
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "more than 1 GiB"), "%s", err);
		/* A member that unpacks to less than it declares. */
		one_member(&w, 5000, blocks, sizeof blocks);
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "unpacks to 4114 bytes, not the 5000"),
			  "%s", err);
	}
	/* An LZ reference before the block's start; a block length past the member. */
	{
		static const uint8_t ref[] = { 5, 0, 0, 0, 1, 0x00, 0x80, 0x30, 0x00 };
		static const uint8_t len[] = { 40, 0, 0, 0, 0, 'a' };
		one_member(&w, 3, ref, sizeof ref);
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "before the block's start"), "%s", err);
		one_member(&w, 1, len, sizeof len);
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "t.cbv: offset 148: member b.cbh: a block's "
							   "length runs past"), "%s", err);
	}
	/* Not an archive; a member count past a base's. */
	{
		static const uint8_t junk[16] = { 8, 0, 200, 0, 140 };
		rc = unpack(junk, sizeof junk, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "more members"), "%s", err);
		rc = unpack((const uint8_t *)"PK\3\4", 4, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "not a ChessBase archive"), "%s", err);
	}
}

/* DES against known answers: FIPS 46-3's worked example and the all-zero and all-one keys. */
static void test_des(void)
{
	static const struct {
		uint8_t key[8], plain[8], cipher[8];
	} kat[] = {
		{ { 0x13, 0x34, 0x57, 0x79, 0x9B, 0xBC, 0xDF, 0xF1 },
		  { 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF },
		  { 0x85, 0xE8, 0x13, 0x54, 0x0F, 0x0A, 0xB4, 0x05 } },
		{ { 0 }, { 0 }, { 0x8C, 0xA6, 0x4D, 0xE9, 0xC1, 0xB1, 0x23, 0xA7 } },
		{ { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF },
		  { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF },
		  { 0x73, 0x59, 0xB2, 0x16, 0x3E, 0x4E, 0xDC, 0x58 } },
		{ { 1, 1, 1, 1, 1, 1, 1, 1 }, { 0x80 }, { 0x95, 0xF8, 0xA5, 0xE5, 0xDD, 0x31, 0xD9, 0x00 } },
	};
	size_t i;

	for (i = 0; i < sizeof kat / sizeof kat[0]; i++) {
		struct gamedb__des d;
		uint8_t out[8], back[8];
		gamedb__des_init(&d, kat[i].key);
		gamedb__des_block(&d, kat[i].plain, out, 0);
		CHECK_MSG(memcmp(out, kat[i].cipher, 8) == 0, "DES known answer %zu", i);
		gamedb__des_block(&d, out, back, 1);
		CHECK_MSG(memcmp(back, kat[i].plain, 8) == 0, "DES known answer %zu deciphered", i);
	}
}

/* Enciphers w (padded with zeros to whole blocks) under key, as a .cbz holds a .cbv. */
static void encipher(struct w *w, const char *key)
{
	struct gamedb__des d;
	size_t i;

	while (w->n % 8)
		w->b[w->n++] = 0;
	gamedb__des_init(&d, (const uint8_t *)key);
	for (i = 0; i < w->n; i += 8)
		gamedb__des_block(&d, w->b + i, w->b + i, 0);
}

/* The samples without their password or with a wrong one; hostile hand-made .cbz. */
static void test_cbz_errors(void)
{
	static const char *const names[] = { "small.cbz", "small2.cbz", "small3.cbz" };
	static struct w w;
	struct gamedb__archive *a = NULL;
	char err[512];
	size_t i;
	int32_t rc;

	for (i = 0; i < 3; i++) {
		char path[1200];
		struct gamedb_reader *r;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (access(path, R_OK) != 0)
			continue;
		r = gamedb_reader_new();
		CHECK_EQ_INT(gamedb_reader_open_filename(r, path), GAMEDB_FATAL);
		CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNSUPPORTED);
		CHECK_MSG(strstr(gamedb_reader_errmsg(r), "encrypted ChessBase archive (.cbz): it "
							  "needs the password") != NULL,
			  "%s", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		/* An empty password is no password. */
		r = gamedb_reader_new();
		CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "password", ""), GAMEDB_OK);
		CHECK_EQ_INT(gamedb_reader_open_filename(r, path), GAMEDB_FATAL);
		CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNSUPPORTED);
		gamedb_reader_free(r);
		/* small2's password does not open small.cbz, and so on round. */
		r = gamedb_reader_new();
		CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "password",
						      i == 0 ? "pass" : i == 1 ? "my long password"
									: "password"),
			     GAMEDB_OK);
		CHECK_EQ_INT(gamedb_reader_open_filename(r, path), GAMEDB_FATAL);
		CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_INVALID_ARGUMENT);
		CHECK_MSG(strstr(gamedb_reader_errmsg(r), "offset 0: the password does not open") !=
				  NULL,
			  "%s", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		/* Opened from memory without the password, it is no base at all. */
		{
			size_t size;
			uint8_t *data = load_file(path, &size);
			r = gamedb_reader_new();
			CHECK_EQ_INT(gamedb_reader_open_memory(r, "any-name", data, size), GAMEDB_FATAL);
			CHECK_EQ_INT(gamedb_reader_errcode(r), GAMEDB_E_UNRECOGNIZED_FORMAT);
			gamedb_reader_free(r);
			free(data);
		}
	}
	/* A password does not disturb a base that is not encrypted. */
	{
		char path[1200];
		struct gamedb_reader *r = gamedb_reader_new();
		snprintf(path, sizeof path, "%s/small/small.cbh", dir);
		if (access(path, R_OK) == 0) {
			CHECK_EQ_INT(gamedb_reader_set_option(r, NULL, "password", "password"), GAMEDB_OK);
			CHECK_EQ_INT(gamedb_reader_open_filename(r, path), GAMEDB_OK);
			CHECK_EQ_STR(gamedb_reader_format(r), "chessbase");
		}
		gamedb_reader_free(r);
	}

	password = "password";
	/* Hand-made, enciphered under "password": the LZ member of test_handmade opens. */
	{
		static const uint8_t blocks[] = {
			4, 0, 0, 0, 0, 'a', 'b', 'c',
			8, 0, 0, 0, 1, 0x00, 0x60, 'x', 0x02, 'y', 0x30, 0x00,
		};
		one_member(&w, 12, blocks, sizeof blocks);
		encipher(&w, "password");
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_OK, "%s", err);
		CHECK(a && a->n == 1 && a->sizes[0] == 12 && memcmp(a->data[0], "abcxyyyyyyyy", 12) == 0);
		CHECK(a && strcmp(a->names[0], "t.cbz:b.cbh") == 0);
		gamedb__archive_free(a);
		/* Under another key the first block is no archive header. */
		one_member(&w, 12, blocks, sizeof blocks);
		encipher(&w, "passpasx");
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "t.cbz: offset 0: the password does not"),
			  "%s", err);
	}
	/* A bomb, enciphered: a run of 4114 bytes in a member that declares 100; declared sizes
	 * past the limit. */
	{
		static const uint8_t blocks[] = { 6, 0, 0, 0, 1, 0x00, 0x80, 0x1F, 0xFF, 'z' };
		one_member(&w, 100, blocks, sizeof blocks);
		encipher(&w, "password");
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "t.cbz: offset ") &&
				  strstr(err, "more bytes than the archive declares"),
			  "%s", err);
		one_member(&w, 0x7FFFFFFF, blocks, sizeof blocks);
		encipher(&w, "password");
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "more than 1 GiB"), "%s", err);
	}
	/* Lengths past the end: a block's, a member's packed size. */
	{
		static const uint8_t len[] = { 40, 0, 0, 0, 0, 'a' };
		one_member(&w, 1, len, sizeof len);
		encipher(&w, "password");
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "t.cbz: offset 148: member b.cbh: a block's "
							   "length runs past"),
			  "%s", err);
		one_member(&w, 1, len, sizeof len);
		w.b[8 + 132] = 0xFF; /* packed size 255 */
		encipher(&w, "password");
		rc = unpack(w.b, w.n, &a, err, sizeof err);
		CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "runs past the end of the archive"), "%s",
			  err);
	}
	/* Shorter than a block; nothing at all. */
	rc = unpack((const uint8_t *)"\x47\x87\x2b", 3, &a, err, sizeof err);
	CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "t.cbz: offset 0: too short"), "%s", err);
	rc = unpack((const uint8_t *)"", 0, &a, err, sizeof err);
	CHECK_MSG(rc == GAMEDB_FATAL && strstr(err, "too short"), "%s", err);
	password = NULL;
}

/*
 * An encrypted archive is deciphered only as far as it is read, what keeps fuzz/cbz fast (its
 * inputs are mostly damaged early): a .cbz whose first member is damaged, the data of its
 * second member in pages that cannot be read, fails on the first member's damage without
 * touching them (deciphered whole first, it read them and died).
 */
static void test_cbz_lazy(void)
{
#ifndef _WIN32
	static const uint8_t bad_block[] = { 2, 0, 0, 0, 7, 'a' }; /* flags 7: unknown */
	const long page = sysconf(_SC_PAGESIZE);
	struct gamedb__archive *a = NULL;
	struct gamedb__des d;
	static struct w w;
	uint8_t *map;
	char err[512];
	int32_t rc;
	int k;

	if (page < 512 || page > 65536) {
		printf("page size %ld: lazy deciphering not tested\n", page);
		return;
	}
	map = mmap(NULL, 3 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		   0);
	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED)
		return;
	/* Two members: the first up to the end of the first page, the second the two after. */
	w.n = 0;
	w.b[w.n++] = 8;
	w.b[w.n++] = 0;
	put16(&w, 2);
	w.b[w.n++] = 140;
	w.b[w.n++] = 0;
	w.b[w.n++] = 0;
	w.b[w.n++] = 0;
	for (k = 0; k < 2; k++) {
		memset(w.b + w.n, 0, 132);
		memcpy(w.b + w.n, k ? "x\\b.cbg" : "x\\b.cbh", 7);
		w.n += 132;
		put32(&w, (uint32_t)(k ? 2 * page : page - 288));
		put32(&w, 100);
	}
	CHECK_EQ_INT(w.n, 288);
	memcpy(w.b + w.n, bad_block, sizeof bad_block);
	memset(w.b + w.n + sizeof bad_block, 0, (size_t)page - 288 - sizeof bad_block);
	gamedb__des_init(&d, (const uint8_t *)"password");
	for (k = 0; k < page; k += 8)
		gamedb__des_block(&d, w.b + k, map + k, 0);
	CHECK_EQ_INT(mprotect(map + page, 2 * (size_t)page, PROT_NONE), 0);
	password = "password";
	rc = unpack(map, 3 * (size_t)page, &a, err, sizeof err);
	password = NULL;
	CHECK_MSG(rc == GAMEDB_FATAL &&
			  strstr(err, "t.cbz: offset 292: member b.cbh: unknown block flags"),
		  "%s", err);
	printf("a .cbz damaged in its first member: failed on it, the rest never deciphered\n");
	munmap(map, 3 * (size_t)page);
#endif
}

/* ---- readers opened on another (gamedb_reader_open_shared()) ----------------------- */

/* Appends the PGN of every game of r (read from its first) to *buf (*len bytes). */
static int32_t pgn_sink(void *ud, const char *data, size_t len)
{
	struct w *t = ud;

	if (len > sizeof t->b - t->n)
		return 1;
	memcpy(t->b + t->n, data, len);
	t->n += len;
	return 0;
}

static void all_pgn(struct gamedb_reader *r, struct w *out)
{
	struct gamedb_game *g;
	int32_t rc;

	out->n = 0;
	while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL)
		if (g)
			CHECK(gamedb_game_write_pgn(g, 0, pgn_sink, out) != GAMEDB_FAILED);
	CHECK_EQ_INT(rc, GAMEDB_END);
}

/*
 * A reader opened on another reads the same games, whichever of the two is freed first: on an
 * archive (.cbv; .cbz with its password), on the base on disk, on a base in memory; with the
 * other's options (charset); and refuses what it cannot share.
 */
static void test_open_shared(void)
{
	static struct w ref, got;
	char cbv[1200], cbh[1200], cbz[1200];
	struct gamedb_reader *a, *b;
	uint64_t n = 0;
	size_t size;
	uint8_t *data;
	int k;

	snprintf(cbv, sizeof cbv, "%s/../cb2pgn-srenault/test/test.cbv", dir);
	snprintf(cbh, sizeof cbh, "%s/../cb2pgn-srenault/test/test.cbh", dir);
	snprintf(cbz, sizeof cbz, "%s/small3.cbz", dir);
	if (access(cbv, R_OK) != 0 || access(cbh, R_OK) != 0 || access(cbz, R_OK) != 0) {
		printf("%s or %s not found: gamedb_reader_open_shared() not tested\n", cbv, cbz);
		return;
	}
	/* The reference: the base on disk, read by one reader. */
	a = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_filename(a, cbh), GAMEDB_OK);
	all_pgn(a, &ref);
	gamedb_reader_free(a);
	CHECK(ref.n > 1000);
	for (k = 0; k < 4; k++) {
		/* The archive by name, then the base on disk; the first reader freed first, then
		 * the other way round. */
		a = gamedb_reader_new();
		CHECK_EQ_INT(gamedb_reader_set_option(a, NULL, "charset", "CP1251"), GAMEDB_OK);
		CHECK_EQ_INT(gamedb_reader_open_filename(a, k < 2 ? cbv : cbh), GAMEDB_OK);
		CHECK_EQ_INT(gamedb_reader_next_game(a, &(struct gamedb_game *){ NULL }), GAMEDB_OK);
		b = gamedb_reader_new();
		CHECK_EQ_INT(gamedb_reader_open_shared(b, a), GAMEDB_OK);
		CHECK_EQ_STR(gamedb_reader_format(b), "chessbase");
		CHECK_EQ_STR(gamedb_chessbase_get_charset(gamedb_reader_get_chessbase(b)), "CP1251");
		CHECK_EQ_INT(gamedb_reader_uses_file(b, k < 2 ? cbv : cbh), 1);
		if (k % 2 == 0)
			gamedb_reader_free(a);
		CHECK_EQ_INT(gamedb_reader_set_option(b, NULL, "charset", "CP1252"), GAMEDB_OK);
		all_pgn(b, &got); /* from game 0, whatever a's position */
		CHECK_MSG(got.n == ref.n && memcmp(got.b, ref.b, ref.n) == 0,
			  "open_shared %d: the games differ from one reader's", k);
		if (k % 2 == 0) {
			gamedb_reader_free(b);
		} else {
			gamedb_reader_free(b);
			all_pgn(a, &got); /* a still reads its own (CP1251) */
			CHECK(got.n > 1000);
			gamedb_reader_free(a);
		}
	}
	/* An encrypted archive: the second reader needs no password, deciphers nothing. */
	a = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_set_option(a, NULL, "password", "my long password"), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_open_filename(a, cbz), GAMEDB_OK);
	b = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_shared(b, a), GAMEDB_OK);
	gamedb_reader_free(a);
	CHECK_EQ_INT(gamedb_reader_game_count(b, &n), GAMEDB_OK);
	CHECK_EQ_INT(gamedb_reader_uses_file(b, cbz), 1);
	gamedb_reader_free(b);
	/* A base in memory: the same memory. */
	data = load_file(cbv, &size);
	a = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_memory(a, "x.cbv", data, size), GAMEDB_OK);
	b = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_shared(b, a), GAMEDB_OK);
	gamedb_reader_free(a);
	all_pgn(b, &got);
	CHECK_EQ_INT(got.n, ref.n);
	/* What cannot be shared: itself (an open on an open reader closes its base first, as
	 * any reopen does, and then there is nothing to share); a reader with nothing open. */
	a = gamedb_reader_new();
	CHECK_EQ_INT(gamedb_reader_open_shared(b, b), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(b), GAMEDB_E_INVALID_ARGUMENT);
	CHECK_EQ_INT(gamedb_reader_open_shared(a, a), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(a), GAMEDB_E_INVALID_ARGUMENT);
	CHECK_EQ_INT(gamedb_reader_open_shared(a, NULL), GAMEDB_FATAL);
	CHECK_EQ_INT(gamedb_reader_errcode(a), GAMEDB_E_INVALID_ARGUMENT);
	CHECK_EQ_INT(gamedb_reader_open_shared(NULL, b), GAMEDB_FATAL);
	gamedb_reader_free(a);
	gamedb_reader_free(b);
	free(data);
}

#ifndef _WIN32
/* Runs the gamedb command (argv, NULL-terminated) with stdout to out; its exit status, and its
 * peak resident memory in KiB into *maxrss. */
static int run_tool(char *const argv[], const char *out, long *maxrss)
{
	struct rusage ru;
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	*maxrss = 0;
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		return -1;
	*maxrss = ru.ru_maxrss;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
#endif

/*
 * gamedb --jobs N unpacks an archive once, for all its workers (gamedb_reader_open_shared()):
 * the real test.cbv with a member of 96 MiB more (LZ runs: 64 KiB of archive), converted to
 * JSON with --jobs 1 and --jobs 4, gives the same bytes, and --jobs 4 takes at most 1.3 times
 * the memory of --jobs 1 (each worker unpacking its own copy, it took 3.9 times).
 */
static void test_jobs_memory(void)
{
#ifndef _WIN32
	enum { ITEMS = 24576, PER_BLOCK = 768 * 16 }; /* runs of 4096 bytes: 96 MiB */
	const char *tool = getenv("GAMEDB_TOOL"), *tmp = getenv("TMPDIR");
	char path[1200], tdir[1024], arch[1100], out1[1100], out4[1100];
	size_t size, i, j, outlen[2] = { 0, 0 };
	uint8_t *data, *big, *p, *o[2];
	long rss1 = 0, rss4 = 0;
	FILE *f;
	int rc1, rc4;

	snprintf(path, sizeof path, "%s/../cb2pgn-srenault/test/test.cbv", dir);
	data = load_file(path, &size);
	if (!tool || !data) {
		printf("GAMEDB_TOOL or %s missing: --jobs memory not tested\n", path);
		free(data);
		return;
	}
	/* The archive grown by a member of blocks of 768 groups of 16 runs (control word FFFF;
	 * 1x yy xx: l + (yy << 4) + 0x13 copies of xx, here 13 + (254 << 4) + 0x13 = 4096 of 'x'). */
	big = cbv_grow(data, size,
		       (ITEMS / PER_BLOCK) * (4 + 1 + PER_BLOCK / 16 * 2 + PER_BLOCK * 3),
		       ITEMS * 4096u, 4 * (ITEMS / PER_BLOCK) + ITEMS * 3 + ITEMS / 16 * 2 + 64, &p);
	free(data);
	CHECK(big != NULL);
	if (!big)
		return;
	for (i = 0; i < ITEMS / PER_BLOCK; i++) {
		const size_t body = 1 + PER_BLOCK / 16 * 2 + PER_BLOCK * 3;
		*p++ = (uint8_t)body;
		*p++ = (uint8_t)(body >> 8);
		*p++ = 0;
		*p++ = 0;
		*p++ = 1; /* LZ */
		for (j = 0; j < PER_BLOCK; j++) {
			if (j % 16 == 0) {
				*p++ = 0xFF;
				*p++ = 0xFF;
			}
			*p++ = 0x1D;
			*p++ = 254;
			*p++ = 'x';
		}
	}
	snprintf(tdir, sizeof tdir, "%s/gamedb-jobs-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	CHECK(mkdtemp(tdir) != NULL);
	snprintf(arch, sizeof arch, "%s/big.cbv", tdir);
	snprintf(out1, sizeof out1, "%s/jobs1.json", tdir);
	snprintf(out4, sizeof out4, "%s/jobs4.json", tdir);
	f = fopen(arch, "wb");
	CHECK(f && fwrite(big, 1, (size_t)(p - big), f) == (size_t)(p - big) && fclose(f) == 0);
	{
		char *argv1[] = { (char *)tool, "json", "--jobs", "1", arch, NULL };
		char *argv4[] = { (char *)tool, "json", "--jobs", "4", arch, NULL };
		rc1 = run_tool(argv1, out1, &rss1);
		rc4 = run_tool(argv4, out4, &rss4);
	}
	o[0] = load_file(out1, &outlen[0]);
	o[1] = load_file(out4, &outlen[1]);
	CHECK_MSG(rc1 == 0 && rc4 == 0, "gamedb json: exit %d with --jobs 1, %d with --jobs 4", rc1,
		  rc4);
	CHECK_MSG(o[0] && o[1] && outlen[0] > 1000 && outlen[0] == outlen[1] &&
			  memcmp(o[0], o[1], outlen[0]) == 0,
		  "gamedb json --jobs 4 differs from --jobs 1 (%zu / %zu bytes)", outlen[1],
		  outlen[0]);
	/* The archive is in the measure: --jobs 1 holds its 96 MiB. */
	CHECK_MSG(rss1 >= 96 * 1024, "gamedb json --jobs 1: %ld KiB at most, less than the archive",
		  rss1);
	CHECK_MSG(rss4 * 10 <= rss1 * 13, "gamedb json --jobs 4: %ld KiB, --jobs 1: %ld KiB (%.2fx)",
		  rss4, rss1, rss1 ? (double)rss4 / (double)rss1 : 0.0);
	printf("a .cbv unpacking to 96 MiB: gamedb json --jobs 1 %ld KiB, --jobs 4 %ld KiB (%.2fx)\n",
	       rss1, rss4, rss1 ? (double)rss4 / (double)rss1 : 0.0);
	remove(out1);
	remove(out4);
	remove(arch);
	rmdir(tdir);
	free(o[0]);
	free(o[1]);
	free(big);
#endif
}

int main(void)
{
	const char *root = getenv("GAMEDB_REALDATA");

	snprintf(dir, sizeof dir, "%s/chessbase/uncbv", root ? root : "../shared/realdata");
	test_des();
	test_handmade();
	test_twins("small.cbv", NULL, NULL);
	test_twins("decrypted_small.cbv", NULL, NULL);
	/* uncbv's tests decrypt these with these passwords; the keys by the rule of
	 * doc/formats/cbv.md: as it is, repeated, and folded ("my long password": key byte i is
	 * (byte i doubled) XOR byte i + 8). */
	test_twins("small.cbz", "password", "password");
	test_twins("small2.cbz", "pass", "passpass");
	test_twins("small3.cbz", "my long password", "\xaa\x93\x33\xab\xa9\xb3\xbc\x24");
	test_cbz_errors();
	test_cbz_lazy();
	test_open_shared();
	test_jobs_memory();
	return testlib_done();
}
