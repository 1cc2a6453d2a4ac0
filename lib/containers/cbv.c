/*
 * libgamedb - the containers cbv and cbz: ChessBase archives (.cbv), a whole base in one
 * file, unpacked in memory into a set of files (never to disk), and the same encrypted (.cbz).
 * The layout (doc/formats/cbv.md), little-endian unless said:
 *
 *   header     08 00, member count (16), size of one member entry (8), 3 bytes unknown
 *   entries    per member: its name in a 132-byte field (NUL-terminated, Latin-1, folders
 *              separated by backslashes), the packed size (32), the unpacked size (32), the
 *              rest of the entry unknown
 *   data       per member, its packed size of blocks: block length (16), 16 bits unknown,
 *              then that many bytes: a flags byte (bit 0 LZ-compressed, bit 1 Huffman-coded)
 *              and the block's data
 *
 * A Huffman-coded block: the decoded length (16, big-endian), then, bit-packed from the most
 * significant bit, 256 code lengths of 4 bits each followed by that many bits of code (a
 * clear bit goes left), then the codes. An LZ-compressed block (after the Huffman step when
 * both are set): groups of a 16-bit control word, read from its top bit, and up to 16 items:
 * a clear bit is a literal byte; a set bit an item whose first byte's high nibble h and low
 * nibble l say: h 0, a run of l + 3 copies of the next byte; h 1, a run of
 * l + (next << 4) + 0x13 copies of the byte after; h 2, a copy of (byte after) + 0x10 bytes
 * from (next << 4) + l + 3 back; h 3-15, a copy of h bytes from (next << 4) + l + 3 back.
 * Back references stay inside the block's own output.
 *
 * Every length is checked against what holds it; a member may not unpack to more than it
 * declares, nor all of them to more than GAMEDB__ARCHIVE_MAX; a member must unpack to
 * exactly its declared size.
 *
 * An encrypted archive (.cbz) is a CBV enciphered with DES (lib/util/des.c), each 8-byte block
 * on its own (no chaining, no header), under a key made from the user's password: the password
 * itself when it has 8 bytes; repeated to 8 bytes when shorter; when longer, each byte i folded
 * into key byte i mod 8 (that byte doubled, modulo 256, then XORed with it). Bytes past the
 * last whole block carry nothing (a CBV ends before them). The password is the option
 * "password" of the cbz container; a wrong one is seen at once, as the first block is not a
 * CBV header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "containers/cbv.h"
#include "containers/container.h"
#include "core/error.h"
#include "util/buf.h"
#include "util/bytes.h"
#include "util/des.h"

#define NAME_FIELD 132
#define ENTRY_MIN (NAME_FIELD + 8)
#define MAX_MEMBERS 64
#define MAX_NODES (1 + 256 * 15)

/*
 * What the unpacker works with: the archive in memory and where errors point. An encrypted
 * archive is deciphered as the unpacker reads it (need()): the header, the member list, then
 * each block of each member in turn; so a damaged archive costs only what was read before the
 * damage was found, the rest never deciphered (DES is most of the time of a .cbz).
 */
struct cbv {
	struct gamedb_reader *r;
	const char *name;
	const uint8_t *data; /* the plain archive: data[0, ready) may be read */
	size_t size;
	size_t ready;        /* a plain archive: size; an encrypted one: what is deciphered */
	const uint8_t *cipher; /* an encrypted archive: its bytes (size: whole blocks); else NULL */
	uint8_t *plain;      /* where it is deciphered to (data) */
	struct gamedb__des des;
	const char *member; /* the member being unpacked, for messages */
	uint64_t total;     /* bytes unpacked so far, all members */
	size_t progress_at; /* the archive offset of the next progress report */
	uint16_t child[MAX_NODES][2];
	int16_t leaf[MAX_NODES];
	uint8_t tmp[65536]; /* a Huffman-decoded block */
};

/*
 * Makes data[0, end) readable (end at most size): deciphers the blocks of an encrypted archive
 * up to end, those before ready being done already.
 */
static void need(struct cbv *c, size_t end)
{
	if (end > c->size)
		end = c->size;
	if (c->ready < end) {
		const size_t n = (end - c->ready + 7) / 8;
		gamedb__des_blocks(&c->des, c->cipher + c->ready, c->plain + c->ready, n, 1);
		c->ready += 8 * n;
	}
}

/* Sets the reader's error: the archive, the offset, the member being unpacked. -1. */
static int bad(struct cbv *c, size_t off, const char *what)
{
	if (c->member)
		gamedb__error(c->r, GAMEDB_FATAL, GAMEDB_E_CORRUPT, "%s: offset %zu: member %s: %s",
			      c->name, off, c->member, what);
	else
		gamedb__error(c->r, GAMEDB_FATAL, GAMEDB_E_CORRUPT, "%s: offset %zu: %s", c->name,
			      off, what);
	return -1;
}

/* An unpacked member being written: at most cap bytes. */
struct out {
	uint8_t *p;
	size_t len, alloc, cap;
};

/* Room for n more bytes; -1 (error set) past the member's declared size or the limit. */
static int room(struct cbv *c, struct out *o, size_t n, size_t off)
{
	size_t want;
	uint8_t *np;

	if (n > o->cap - o->len) {
		bad(c, off, "unpacks to more bytes than the archive declares for it");
		return -1;
	}
	if (o->len + n <= o->alloc)
		return 0;
	want = o->alloc ? o->alloc : 4096;
	while (want < o->len + n)
		want = want > o->cap / 2 ? o->cap : want * 2;
	np = realloc(o->p, want);
	if (!np) {
		gamedb__error(c->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		return -1;
	}
	o->p = np;
	o->alloc = want;
	return 0;
}

/* Huffman: the block's code table, then n symbols into c->tmp. in/len: after the length. */
static int huffman(struct cbv *c, const uint8_t *in, size_t len, size_t n, size_t off)
{
	size_t bit = 0, nodes = 1, i;
	const size_t bits = len * 8;
	int sym, k;

#define GETBIT() ((in[bit / 8] >> (7 - bit % 8)) & 1)
	memset(c->child[0], 0, sizeof c->child[0]);
	c->leaf[0] = -1;
	for (sym = 0; sym < 256; sym++) {
		unsigned l = 0, node = 0;
		if (bit > bits || bits - bit < 4)
			return bad(c, off, "the Huffman table is cut off");
		for (k = 0; k < 4; k++, bit++)
			l = l << 1 | GETBIT();
		if (bits - bit < l)
			return bad(c, off, "the Huffman table is cut off");
		if (l == 0)
			continue;
		for (k = 0; k < (int)l; k++, bit++) {
			const int b = GETBIT();
			if (c->leaf[node] >= 0)
				return bad(c, off, "bad Huffman table (a code is a prefix of another)");
			if (!c->child[node][b]) {
				if (nodes == MAX_NODES)
					return bad(c, off, "bad Huffman table");
				c->child[node][b] = (uint16_t)nodes;
				memset(c->child[nodes], 0, sizeof c->child[nodes]);
				c->leaf[nodes] = -1;
				nodes++;
			}
			node = c->child[node][b];
		}
		if (c->leaf[node] >= 0 || c->child[node][0] || c->child[node][1])
			return bad(c, off, "bad Huffman table (a code is a prefix of another)");
		c->leaf[node] = (int16_t)sym;
	}
	for (i = 0; i < n; i++) {
		unsigned node = 0;
		do {
			if (bit >= bits)
				return bad(c, off, "the Huffman-coded data is cut off");
			node = c->child[node][GETBIT()];
			bit++;
			if (!node)
				return bad(c, off, "a code not in the Huffman table");
		} while (c->leaf[node] < 0);
		c->tmp[i] = (uint8_t)c->leaf[node];
	}
#undef GETBIT
	return 0;
}

/* LZ/run-length: in (len bytes) appended to o; references stay in this block's output. */
static int lz(struct cbv *c, struct out *o, const uint8_t *in, size_t len, size_t off)
{
	const size_t start = o->len;
	size_t p = 0;

	while (p < len) {
		unsigned ctrl;
		int k;
		if (len - p < 2)
			return bad(c, off + p, "an LZ control word is cut off");
		ctrl = gamedb__le16(in + p);
		p += 2;
		for (k = 0; k < 16 && p < len; k++, ctrl <<= 1) {
			if (!(ctrl & 0x8000)) {
				if (room(c, o, 1, off + p) != 0)
					return -1;
				o->p[o->len++] = in[p++];
				continue;
			}
			{
				const unsigned hi = in[p] >> 4, lo = in[p] & 15;
				size_t n, dist, need = hi == 0 ? 2 : hi == 1 ? 3 : hi == 2 ? 3 : 2;
				if (len - p < need)
					return bad(c, off + p, "an LZ item is cut off");
				if (hi <= 1) {
					const uint8_t v = in[p + need - 1];
					n = hi == 0 ? lo + 3 : lo + ((size_t)in[p + 1] << 4) + 0x13;
					if (room(c, o, n, off + p) != 0)
						return -1;
					memset(o->p + o->len, v, n);
					o->len += n;
				} else {
					size_t i;
					dist = ((size_t)in[p + 1] << 4) + lo + 3;
					n = hi == 2 ? (size_t)in[p + 2] + 0x10 : hi;
					if (dist > o->len - start)
						return bad(c, off + p, "an LZ reference before the block's start");
					if (room(c, o, n, off + p) != 0)
						return -1;
					for (i = 0; i < n; i++, o->len++)
						o->p[o->len] = o->p[o->len - dist];
				}
				p += need;
			}
		}
	}
	return 0;
}

/* One member's blocks, [pos, end) of the archive, into o. */
static int member(struct cbv *c, struct out *o, size_t pos, size_t end)
{
	while (pos < end) {
		size_t blen, dlen;
		const uint8_t *b;
		uint8_t flags;
		/* The reader's progress, in bytes of the archive read: once a step (blocks are at
		 * most 64 KiB), and a cancel stops the unpack (the error set). */
		if (pos >= c->progress_at) {
			if (gamedb__progress(c->r, GAMEDB_PROGRESS_BYTES, pos, c->size) != 0)
				return -1;
			c->progress_at = pos + GAMEDB_PROGRESS_BYTES_STEP;
		}
		if (end - pos < 4)
			return bad(c, pos, "a block header is cut off");
		need(c, pos + 4);
		blen = gamedb__le16(c->data + pos);
		if (blen < 1 || blen > end - pos - 4)
			return bad(c, pos, "a block's length runs past the member's data");
		need(c, pos + 4 + blen);
		b = c->data + pos + 4;
		flags = b[0];
		if (flags > 3)
			return bad(c, pos + 4, "unknown block flags");
		b++;
		dlen = blen - 1;
		if (flags & 2) {
			size_t n;
			if (dlen < 2)
				return bad(c, pos + 5, "a Huffman block is cut off");
			n = (size_t)b[0] << 8 | b[1];
			if (huffman(c, b + 2, dlen - 2, n, pos + 5) != 0)
				return -1;
			b = c->tmp;
			dlen = n;
		}
		if (flags & 1) {
			if (lz(c, o, b, dlen, pos + 5) != 0)
				return -1;
		} else {
			if (room(c, o, dlen, pos + 5) != 0)
				return -1;
			if (dlen)
				memcpy(o->p + o->len, b, dlen);
			o->len += dlen;
		}
		pos += 4 + blen;
	}
	return 0;
}


/* "ARCHIVE:file" of a member's name field (folders dropped); NULL if bad (error set). */
static char *member_name(struct cbv *c, const uint8_t *field, size_t off)
{
	size_t n = 0, i, base = 0, len;
	char *out;

	while (n < NAME_FIELD && field[n])
		n++;
	for (i = 0; i < n; i++) {
		if (field[i] < 0x20 || field[i] == 0x7F) {
			bad(c, off, "a member name holds a control character");
			return NULL;
		}
		if (field[i] == '\\' || field[i] == '/')
			base = i + 1;
	}
	if (base == n || n == NAME_FIELD) {
		bad(c, off, "a member has no name, or one without its end");
		return NULL;
	}
	out = malloc(strlen(c->name) + 1 + 2 * (n - base) + 1);
	if (!out) {
		gamedb__error(c->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		return NULL;
	}
	/* Latin-1 into UTF-8 (names and messages are UTF-8). */
	sprintf(out, "%s:", c->name);
	len = strlen(out);
	for (i = base; i < n; i++) {
		if (field[i] < 0x80) {
			out[len++] = (char)field[i];
		} else {
			out[len++] = (char)(0xC0 | field[i] >> 6);
			out[len++] = (char)(0x80 | (field[i] & 0x3F));
		}
	}
	out[len] = 0;
	return out;
}

/* A new unpacker of the archive data (size bytes, plain); NULL without memory (error set). */
static struct cbv *cbv_new(struct gamedb_reader *r, const char *name, const uint8_t *data,
			   size_t size)
{
	struct cbv *c = malloc(sizeof *c);

	if (!c) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		return NULL;
	}
	c->r = r;
	c->name = name;
	c->data = data;
	c->size = size;
	c->ready = size;
	c->cipher = NULL;
	c->plain = NULL;
	c->member = NULL;
	c->total = 0;
	c->progress_at = GAMEDB_PROGRESS_BYTES_STEP;
	return c;
}

/* Unpacks c's archive into *outp (GAMEDB_OK), or GAMEDB_FATAL with the error set. */
static int32_t unpack(struct cbv *c, struct gamedb__archive **outp)
{
	struct gamedb__archive *a = NULL;
	const uint8_t *data = c->data;
	const size_t size = c->size;
	size_t count, esize, i, pos;
	uint64_t declared = 0;

	*outp = NULL;
	need(c, 8);
	if (size < 8 || data[0] != 8 || data[1] != 0) {
		bad(c, 0, "not a ChessBase archive");
		goto fail;
	}
	count = gamedb__le16(data + 2);
	esize = data[4];
	if (count == 0 || count > MAX_MEMBERS || esize < ENTRY_MIN) {
		bad(c, 2, count > MAX_MEMBERS ? "more members than a base has" : "bad archive header");
		goto fail;
	}
	if ((size - 8) / esize < count) {
		bad(c, 8, "the member list runs past the end of the archive");
		goto fail;
	}
	need(c, 8 + count * esize);
	a = gamedb__container_set_new();
	if (!a || !(a->names = calloc(count, sizeof *a->names)) ||
	    !(a->data = calloc(count, sizeof *a->data)) ||
	    !(a->sizes = calloc(count, sizeof *a->sizes))) {
		gamedb__error(c->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		goto fail;
	}
	a->n = count;
	pos = 8 + count * esize;
	for (i = 0; i < count; i++) {
		const size_t eoff = 8 + i * esize;
		const uint8_t *e = data + eoff;
		const uint32_t packed = gamedb__le32(e + NAME_FIELD), unpacked = gamedb__le32(e + NAME_FIELD + 4);
		struct out o = { NULL, 0, 0, 0 };
		a->names[i] = member_name(c, e, eoff);
		if (!a->names[i])
			goto fail;
		c->member = a->names[i] + strlen(c->name) + 1;
		if (packed > size - pos) {
			bad(c, eoff + NAME_FIELD, "the member's data runs past the end of the archive");
			goto fail;
		}
		declared += unpacked;
		if (declared > GAMEDB__ARCHIVE_MAX) {
			bad(c, eoff + NAME_FIELD + 4, "the archive unpacks to more than 1 GiB");
			goto fail;
		}
		o.cap = unpacked;
		if (member(c, &o, pos, pos + packed) != 0) {
			free(o.p);
			goto fail;
		}
		if (o.len != unpacked) {
			char msg[96];
			snprintf(msg, sizeof msg, "unpacks to %zu bytes, not the %lu declared", o.len,
				 (unsigned long)unpacked);
			free(o.p);
			bad(c, pos, msg);
			goto fail;
		}
		a->data[i] = o.p;
		a->sizes[i] = o.len;
		pos += packed;
		c->member = NULL;
	}
	/* The whole archive read: the last report, done equal to the total. */
	if (gamedb__progress(c->r, GAMEDB_PROGRESS_BYTES, size, size) != 0)
		goto fail;
	*outp = a;
	return GAMEDB_OK;
fail:
	gamedb__archive_free(a);
	return GAMEDB_FATAL;
}

int32_t gamedb__cbv_unpack(struct gamedb_reader *r, const char *name, const uint8_t *data,
			   size_t size, struct gamedb__archive **outp)
{
	struct cbv *c = cbv_new(r, name, data, size);
	int32_t rc;

	*outp = NULL;
	if (!c)
		return GAMEDB_FATAL;
	rc = unpack(c, outp);
	free(c);
	return rc;
}

/* 1 if the first 8 bytes are a CBV header: 08 00, a member count of 1..64, an entry size
 * that holds a name. */
static int cbv_header(const uint8_t *p)
{
	return p[0] == 8 && p[1] == 0 && gamedb__le16(p + 2) != 0 &&
	       gamedb__le16(p + 2) <= MAX_MEMBERS && p[4] >= ENTRY_MIN;
}

/* The DES key of a .cbz made with password (not empty). */
static void cbz_key(const char *password, uint8_t key[8])
{
	const size_t n = strlen(password);
	size_t i;

	if (n <= 8) {
		for (i = 0; i < 8; i++)
			key[i] = (uint8_t)password[i % n];
		return;
	}
	memset(key, 0, 8);
	for (i = 0; i < n; i++)
		key[i % 8] = (uint8_t)((key[i % 8] << 1) ^ (uint8_t)password[i]);
}

/* 1 if data's first block deciphers under password into a CBV header. */
static int cbz_opens(const char *password, const uint8_t *data, size_t size)
{
	struct gamedb__des d;
	uint8_t key[8], first[8];
	int yes;

	if (size < 8)
		return 0;
	cbz_key(password, key);
	gamedb__des_init(&d, key);
	gamedb__des_block(&d, data, first, 1);
	yes = cbv_header(first);
	memset(key, 0, sizeof key);
	memset(&d, 0, sizeof d);
	return yes;
}

int32_t gamedb__cbz_unpack(struct gamedb_reader *r, const char *name, const uint8_t *data,
			   size_t size, const char *password, struct gamedb__archive **outp)
{
	struct cbv *c;
	uint8_t key[8];
	int32_t rc;

	*outp = NULL;
	if (!password || !*password)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNSUPPORTED,
				     "%s: an encrypted ChessBase archive (.cbz): it needs the password "
				     "it was made with (the reader option \"password\"; gamedb "
				     "--password)", name);
	if (size < 8)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
				     "%s: offset 0: too short for an encrypted ChessBase archive", name);
	/* Only whole blocks carry the archive: the bytes after the last are left out. */
	c = cbv_new(r, name, NULL, size / 8 * 8);
	if (!c)
		return GAMEDB_FATAL;
	c->plain = malloc(c->size);
	if (!c->plain) {
		free(c);
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	}
	c->data = c->plain;
	c->cipher = data;
	c->ready = 0;
	cbz_key(password, key);
	gamedb__des_init(&c->des, key);
	memset(key, 0, sizeof key);
	need(c, 8);
	if (!cbv_header(c->plain))
		rc = gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_INVALID_ARGUMENT,
				   "%s: offset 0: the password does not open this encrypted ChessBase "
				   "archive (its first block does not decipher to an archive header)",
				   name);
	else
		rc = unpack(c, outp);
	memset(&c->des, 0, sizeof c->des);
	free(c->plain);
	free(c);
	return rc;
}

/* 1 if name ends with ext (".cbz"), letters in either case. */
static int ends_with(const char *name, const char *ext)
{
	const size_t n = strlen(name), e = strlen(ext);
	size_t i;

	if (n < e)
		return 0;
	for (i = 0; i < e; i++) {
		char ch = name[n - e + i];
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if (ch != ext[i])
			return 0;
	}
	return 1;
}

/* ---- the containers ------------------------------------------------------------------------ */

/* The password of a .cbz (the option "password"), or NULL when none is set. */
static const char *password_of(const struct gamedb__container_options *o)
{
	const char *pw = gamedb__container_option_get(o, "password");
	return pw && *pw ? pw : NULL;
}

/*
 * The whole of the archive's file f into *p (a view, valid until the source is closed): OK, or
 * FATAL with the error set when it is over 1 GiB or cannot be read.
 */
static int32_t read_whole(struct gamedb_reader *r, const char *name, struct gamedb__file *f,
			  const uint8_t **p, size_t *size)
{
	int64_t got;

	if (f->size > GAMEDB__ARCHIVE_MAX)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNSUPPORTED,
				     "%s: an archive larger than 1 GiB", name);
	got = gamedb__file_view(f, 0, (size_t)f->size, p);
	if (got < 0)
		return GAMEDB_FATAL;
	if ((uint64_t)got != f->size)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_IO, "%s: cannot read the archive",
				     name);
	*size = (size_t)got;
	return GAMEDB_OK;
}

/*
 * Unpacks src's archive (encrypted: password not NULL, known to open it) and finds the base's
 * index inside: what both containers' unpack end with.
 */
static int32_t unpack_file(struct gamedb_reader *r, struct gamedb__src *src,
			   struct gamedb__file *f, const char *password,
			   struct gamedb__archive **out, size_t *primary)
{
	const char *name = src->primary;
	const uint8_t *p = NULL;
	size_t size = 0, i;
	int32_t rc = read_whole(r, name, f, &p, &size);

	if (rc != GAMEDB_OK)
		return rc;
	rc = password ? gamedb__cbz_unpack(r, name, p, size, password, out)
		      : gamedb__cbv_unpack(r, name, p, size, out);
	if (rc != GAMEDB_OK)
		return rc;
	for (i = 0; i < (*out)->n && !ends_with((*out)->names[i], ".cbh"); i++)
		;
	if (i == (*out)->n) {
		gamedb__archive_free(*out);
		*out = NULL;
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNRECOGNIZED_FORMAT,
				     "%s: the archive holds no ChessBase index (.cbh)", name);
	}
	*primary = i;
	return GAMEDB_OK;
}

/* A CBV: by its header, whatever its name. */
static int cbv_bid(const char *name, const uint8_t *head, size_t n,
		   const struct gamedb__container_options *o)
{
	(void)name;
	(void)o;
	return n >= 8 && cbv_header(head) ? 100 : -1;
}

static int32_t cbv_open(struct gamedb_reader *r, struct gamedb__src *src, struct gamedb__file *f,
			const uint8_t *head, size_t n, const struct gamedb__container_options *o,
			struct gamedb__archive **out, size_t *primary)
{
	(void)head;
	(void)n;
	(void)o;
	return unpack_file(r, src, f, NULL, out, primary);
}

/*
 * A CBZ: by its name, or, with a password, by its first block deciphered into a CBV header. A
 * CBV named .cbz bids as much, and the cbv container, listed first, takes it.
 */
static int cbz_bid(const char *name, const uint8_t *head, size_t n,
		   const struct gamedb__container_options *o)
{
	const char *pw = password_of(o);

	if (ends_with(name, ".cbz") || (pw && cbz_opens(pw, head, n)))
		return 100;
	return -1;
}

static int32_t cbz_open(struct gamedb_reader *r, struct gamedb__src *src, struct gamedb__file *f,
			const uint8_t *head, size_t n, const struct gamedb__container_options *o,
			struct gamedb__archive **out, size_t *primary)
{
	const char *pw = password_of(o);

	/* No password, or one that does not open it: gamedb__cbz_unpack() says which. */
	if (!pw || !cbz_opens(pw, head, n))
		return gamedb__cbz_unpack(r, src->primary, head, n, pw, out);
	return unpack_file(r, src, f, pw, out, primary);
}

static const char *const cbv_extensions[] = { ".cbv", NULL };
static const char *const cbz_extensions[] = { ".cbz", NULL };
static const struct gamedb__container_option cbz_options[] = {
	{ "password", "", "the password the encrypted archive was made with" },
	{ NULL, NULL, NULL },
};

const struct gamedb__container gamedb__container_cbv = {
	GAMEDB__CONTAINER_ABI_1, "cbv", "ChessBase archive: a whole base in one file",
	cbv_extensions, "chessbase", NULL, cbv_bid, cbv_open,
};

const struct gamedb__container gamedb__container_cbz = {
	GAMEDB__CONTAINER_ABI_1, "cbz", "ChessBase archive, encrypted with a password",
	cbz_extensions, "chessbase", cbz_options, cbz_bid, cbz_open,
};
