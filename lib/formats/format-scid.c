/*
 * libgamedb - the SCID format: si4/si3 index, sn4/sn3 names, sg4/sg3 games; and SCID 5's
 * si5 index and sn5 name log, whose games (.sg5) are encoded as in .sg4.
 *
 * Layout facts are in doc/formats/scid.md. si4/sn4 integers are big-endian, si5 little-endian.
 * Header listing reads the index and the name file only; a game record (.sg4) is read when
 * the caller asks for a tag kept there or for the moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/scid.h"

/* ---- bidding and opening -------------------------------------------------------------- */

/*
 * A si5 index has no header and no magic: it is told by its name (".si5", any case), as
 * Scid itself tells it, and by a size that is a whole number of records.
 */
static int is_si5_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n >= 4 && name[n - 4] == '.' && (name[n - 3] | 0x20) == 's' &&
	       (name[n - 2] | 0x20) == 'i' && name[n - 1] == '5';
}

static int scid_bid(struct gamedb__src *src)
{
	struct gamedb__file *f = src->nfiles ? src->files[0] : NULL;
	const uint8_t *p;
	uint32_t version;

	if (!f)
		return -1;
	if (is_si5_name(f->name))
		return f->size % SI5_RECORD == 0 ? 100 : 60;
	if (gamedb__file_view(f, 0, 10, &p) != 10 || memcmp(p, SI_MAGIC, 8) != 0)
		return -1;
	version = gamedb__be16(p + 8);
	return (version == 300 || version == 400) ? 100 : 50;
}

static void names_free(struct scid_names *n)
{
	free(n->off);
	free(n->raw_off);
	free(n->raw_len);
	free(n->len);
	free(n->how);
	gamedb__buf_free(&n->pool);
	gamedb__buf_free(&n->raw);
}

/*
 * Keeps name id of n: its stored bytes and its UTF-8, converted once here (so that a game
 * header needs no conversion, strlen or compare). 0, or -1 when out of memory.
 */
static int name_store(struct scid *s, struct scid_names *n, uint32_t id, const char *b, uint32_t len)
{
	struct gamedb_reader *r = s->r;
	int32_t rc;

	/* Offsets into the pools are 32-bit: no base comes near, a hostile file is refused. */
	if (n->raw.len > UINT32_MAX - (size_t)len - 1 || n->pool.len > UINT32_MAX / 2 - 3 * (size_t)len - 1)
		return -1;
	n->raw_off[id] = (uint32_t)n->raw.len;
	n->raw_len[id] = len;
	if (gamedb__buf_append(&n->raw, b, len) != 0 || gamedb__buf_putc(&n->raw, 0) != 0)
		return -1;
	n->off[id] = (uint32_t)n->pool.len;
	rc = gamedb__text_to_utf8(&r->text, gamedb__reader_charset(r), gamedb__reader_fallback(r),
				  b, len, &n->pool);
	if (rc == GAMEDB_FAILED || gamedb__buf_putc(&n->pool, 0) != 0)
		return -1;
	n->len[id] = (uint32_t)strlen(n->pool.p + n->off[id]);
	n->how[id] = (uint8_t)((n->len[id] == len && memcmp(n->pool.p + n->off[id], b, len) == 0
					? NAME_SAME : 0) |
			       (rc == GAMEDB_WARN ? NAME_LOSSY : 0));
	return 0;
}

/*
 * Reads the name file: per type, `count` front-coded records {id, frequency, length, prefix,
 * suffix bytes}. Names are converted to UTF-8 once, here.
 */
static int32_t load_names(struct scid *s)
{
	static const char *const type_names[NAME_TYPES] = { "player", "event", "site", "round" };
	struct gamedb_reader *r = s->r;
	struct gamedb__cur c;
	uint32_t counts[NAME_TYPES], maxfreq[NAME_TYPES];
	int t;
	uint32_t i = 0;
	char prev[256], msg[320];

	if (gamedb__cur_view(&c, s->sn, 0, (size_t)s->sn->size) < 0)
		return GAMEDB_FATAL;
	if (c.len < SN_HEADER || memcmp(c.p, SN_MAGIC, 8) != 0)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
				     "%s: offset 0: not a SCID name file (bad magic or too short)",
				     s->sn->name);
	for (t = 0; t < NAME_TYPES; t++) {
		counts[t] = gamedb__be24(c.p + 12 + 3 * t);
		maxfreq[t] = gamedb__be24(c.p + 24 + 3 * t);
	}
	c.pos = SN_HEADER;
	for (t = 0; t < NAME_TYPES; t++) {
		struct scid_names *n = &s->names[t];
		uint32_t idbytes = counts[t] >= 65536 ? 3 : 2;
		uint32_t fbytes = maxfreq[t] >= 65536 ? 3 : (maxfreq[t] >= 256 ? 2 : 1);
		size_t prevlen = 0;

		/* Every record takes at least idbytes + fbytes + 1 bytes: a count the file cannot
		 * hold is corrupt, and we never allocate for more names than the file could hold. */
		if ((uint64_t)counts[t] * (idbytes + fbytes + 1) > gamedb__cur_left(&c))
			return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
					     "%s: offset %u: name count %u larger than the file",
					     s->sn->name, 12 + 3 * t, counts[t]);
		n->count = counts[t];
		n->off = malloc((counts[t] ? counts[t] : 1) * sizeof *n->off);
		n->raw_off = malloc((counts[t] ? counts[t] : 1) * sizeof *n->raw_off);
		n->raw_len = malloc((counts[t] ? counts[t] : 1) * sizeof *n->raw_len);
		n->len = malloc((counts[t] ? counts[t] : 1) * sizeof *n->len);
		n->how = malloc((counts[t] ? counts[t] : 1) * sizeof *n->how);
		if (!n->off || !n->raw_off || !n->raw_len || !n->len || !n->how)
			return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		for (i = 0; i < counts[t]; i++)
			n->off[i] = UINT32_MAX;
		for (i = 0; i < counts[t]; i++) {
			uint32_t id, len, prefix = 0;
			uint64_t rec = gamedb__cur_off(&c);
			const uint8_t *suffix;

			if (gamedb__cur_need(&c, idbytes + fbytes + 1) != 0)
				goto truncated;
			id = idbytes == 3 ? gamedb__cur_be24(&c) : gamedb__cur_be16(&c);
			gamedb__cur_skip(&c, fbytes);
			len = gamedb__cur_u8(&c);
			if (i > 0)
				prefix = gamedb__cur_u8(&c);
			if (gamedb__cur_failed(&c))
				goto truncated;
			if (prefix > len || prefix > prevlen)
				return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
						     "%s: offset %llu: name prefix %u longer than the name",
						     s->sn->name, (unsigned long long)rec, prefix);
			suffix = gamedb__cur_take(&c, len - prefix);
			if (!suffix)
				goto truncated;
			memcpy(prev + prefix, suffix, len - prefix);
			prevlen = len;
			if (id >= counts[t])
				return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
						     "%s: offset %llu: name id %u out of range (%u names)",
						     s->sn->name, (unsigned long long)rec, id, counts[t]);
			if (n->off[id] != UINT32_MAX)
				continue; /* duplicate id (old Scid bug): keep the first */
			gamedb__text_at(&r->text, s->sn->name, rec);
			if (name_store(s, n, id, prev, len) != 0)
				return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		}
	}
	gamedb__text_at(&r->text, NULL, 0);
	return GAMEDB_OK;
truncated:
	return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT, "%s",
			     gamedb__cur_message(&c, msg, sizeof msg, "%s name %u", type_names[t], i + 1));
}

static void header_text(struct scid *s, const uint8_t *raw, size_t cap, char *out, size_t outcap)
{
	struct gamedb__buf b = { 0 };
	size_t len = 0;

	while (len < cap && raw[len])
		len++;
	out[0] = 0;
	if (gamedb__text_to_utf8(&s->r->text, gamedb__reader_charset(s->r),
				 gamedb__reader_fallback(s->r), (const char *)raw, len, &b) != GAMEDB_FAILED &&
	    b.p) {
		/* Longer than the room (only an si5 value can be): cut at a character boundary. */
		len = b.len;
		if (len >= outcap) {
			len = outcap - 1;
			while (len && ((unsigned char)b.p[len] & 0xC0) == 0x80)
				len--;
		}
		memcpy(out, b.p, len);
		out[len] = 0;
	}
	gamedb__buf_free(&b);
}

/* Room for one more name of n (the si5 name log has no counts up front). 0, or -1. */
static int names_grow(struct scid_names *n, uint32_t *cap)
{
	uint32_t nc;

	if (n->count < *cap)
		return 0;
	if (*cap >= UINT32_MAX / 2)
		return -1;
	nc = *cap ? *cap * 2 : 64;
#define GROW(field)                                                                     \
	do {                                                                            \
		void *q = realloc(n->field, (size_t)nc * sizeof *n->field);             \
		if (!q)                                                                 \
			return -1;                                                      \
		n->field = q;                                                           \
	} while (0)
	GROW(off);
	GROW(raw_off);
	GROW(raw_len);
	GROW(len);
	GROW(how);
#undef GROW
	*cap = nc;
	return 0;
}

/* A decimal number of a database-info value; 0 when it is not one. */
static int64_t info_number(const uint8_t *v, size_t len)
{
	int64_t x = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (v[i] < '0' || v[i] > '9' || x > (INT64_MAX - 9) / 10)
			return 0;
		x = x * 10 + (v[i] - '0');
	}
	return x;
}

/*
 * The si5 database information: a name-log record of type 4 is a key and its value, run
 * together ("description" "My games"). A later record replaces an earlier one; unknown keys
 * are ignored, as Scid ignores them.
 */
static void db_info(struct scid *s, const uint8_t *v, size_t len)
{
	static const char *const flag_keys[6] = { "flag1", "flag2", "flag3", "flag4", "flag5", "flag6" };
	size_t i;

	if (len >= 4 && memcmp(v, "type", 4) == 0) {
		s->handle.base_type = (int32_t)info_number(v + 4, len - 4);
	} else if (len >= 11 && memcmp(v, "description", 11) == 0) {
		header_text(s, v + 11, len - 11, s->handle.description, sizeof s->handle.description);
	} else if (len >= 8 && memcmp(v, "autoload", 8) == 0) {
		s->handle.autoload = info_number(v + 8, len - 8);
	} else {
		for (i = 0; i < 6; i++)
			if (len >= 5 && memcmp(v, flag_keys[i], 5) == 0)
				header_text(s, v + 5, len - 5, s->handle.flag_names[i],
					    sizeof s->handle.flag_names[i]);
	}
}

/*
 * Reads the si5 name log: records of varint(length << 3 | type) and the bytes; types 0..3 are
 * players, events, sites and rounds, numbered 0, 1, 2 ... per type in file order; type 4 is
 * database information. Names are converted to UTF-8 once, here.
 */
static int32_t load_names5(struct scid *s)
{
	struct gamedb_reader *r = s->r;
	const char *fn = s->sn->name;
	struct gamedb__cur c;
	uint32_t cap[NAME_TYPES] = { 0 };
	int t;

	if (s->sn->size > SIZE_MAX)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT, "%s: offset 0: file too large",
				     fn);
	if (gamedb__cur_view(&c, s->sn, 0, (size_t)s->sn->size) < 0)
		return GAMEDB_FATAL;
	if (c.len != s->sn->size)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_IO, "%s: offset %llu: cannot read the file",
				     fn, (unsigned long long)c.len);
	while (c.pos < c.len) {
		size_t rec = c.pos;
		uint64_t v = 0, len;
		unsigned shift = 0;
		const uint8_t *b;

		for (;;) {
			uint8_t x;
			if (c.pos >= c.len)
				return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
						     "%s: offset %llu: name record: length runs past the end of the file",
						     fn, (unsigned long long)rec);
			x = c.p[c.pos++];
			if (shift > 63 || (shift == 63 && (x & 0x7E)))
				return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
						     "%s: offset %llu: name record: length longer than 64 bits",
						     fn, (unsigned long long)rec);
			v |= (uint64_t)(x & 127) << shift;
			if (x < 128)
				break;
			shift += 7;
		}
		t = (int)(v & 7);
		len = v >> 3;
		if (t > 4)
			return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
					     "%s: offset %llu: name record of unknown type %d",
					     fn, (unsigned long long)rec, t);
		if (len > gamedb__cur_left(&c))
			return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
					     "%s: offset %llu: name record of %llu bytes runs past the end of the file (%llu left)",
					     fn, (unsigned long long)rec, (unsigned long long)len,
					     (unsigned long long)gamedb__cur_left(&c));
		b = gamedb__cur_take(&c, (size_t)len);
		gamedb__text_at(&r->text, fn, rec);
		if (t == 4) {
			db_info(s, b, (size_t)len);
			continue;
		}
		if (len > UINT32_MAX / 4 || names_grow(&s->names[t], &cap[t]) != 0 ||
		    name_store(s, &s->names[t], s->names[t].count, (const char *)b, (uint32_t)len) != 0)
			return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM,
					     "%s: offset %llu: out of memory for the names", fn,
					     (unsigned long long)rec);
		s->names[t].count++;
	}
	gamedb__text_at(&r->text, NULL, 0);
	return GAMEDB_OK;
}

static void scid_close(void *state);

/* Where game record p of a si5 index ends in the .sg5 (its offset plus its length). */
static uint64_t si5_end(const uint8_t *p)
{
	uint32_t w = gamedb__le32(p + 32);

	return ((uint64_t)(w & 0x7FFF) << 32 | gamedb__le32(p + 36)) + (w >> 15);
}

/*
 * A si5 index has no game count: cut at a record boundary, it loses the games of its last
 * records without a trace in the index itself. Their bytes are still in the .sg5, which Scid
 * only ever appends to (a game replaced is written anew at its end): a .sg5 that goes on past
 * the end of every game the index points to says records are missing. Usually the last
 * record's game ends the file, and one view tells; else every record is looked at. OK, WARN
 * (message set), or FATAL (I/O error).
 */
static int32_t si5_tail_check(struct scid *s)
{
	const uint8_t *p;
	uint64_t max = 0, i = 0, n = s->ngames;
	int64_t got;

	if (s->sg->size == 0)
		return GAMEDB_OK;
	if (n) {
		got = gamedb__file_view(s->si, (n - 1) * SI5_RECORD, SI5_RECORD, &p);
		if (got < 0)
			return GAMEDB_FATAL;
		if (got == SI5_RECORD && si5_end(p) >= s->sg->size)
			return GAMEDB_OK;
	}
	while (i < n) {
		uint64_t k = n - i < 4096 ? n - i : 4096, j;
		got = gamedb__file_view(s->si, i * SI5_RECORD, (size_t)k * SI5_RECORD, &p);
		if (got < 0)
			return GAMEDB_FATAL;
		if (got != (int64_t)(k * SI5_RECORD))
			return GAMEDB_OK; /* the next_game of the record says it */
		for (j = 0; j < k; j++)
			if (si5_end(p + j * SI5_RECORD) > max)
				max = si5_end(p + j * SI5_RECORD);
		if (max >= s->sg->size)
			return GAMEDB_OK;
		i += k;
	}
	return gamedb__error(s->r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
			     "%s: offset %llu: %llu bytes past the end of every game of %s (%u "
			     "records): the index may be cut short, the games there are not read",
			     s->sg->name, (unsigned long long)max,
			     (unsigned long long)(s->sg->size - max), s->si->name, s->ngames);
}

/* The rest of the open of a si5 base (index, name log, games). */
static int32_t scid5_open(struct scid *s, void **state)
{
	struct gamedb_reader *r = s->r;
	uint64_t n = s->si->size / SI5_RECORD;
	int32_t rc = GAMEDB_OK;

	s->version = 500;
	s->handle.version = 500;
	s->hdr_size = 0;
	s->rec_size = SI5_RECORD;
	if (n > UINT32_MAX - 1) /* Scid's own limit: 2^32 - 2 games */
		n = UINT32_MAX - 1;
	s->ngames = (uint32_t)n;
	if (s->si->size % SI5_RECORD) {
		gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
			      "%s: offset %llu: index truncated: %llu bytes are not a whole number of "
			      "%d-byte records; read the %u whole ones",
			      s->si->name, (unsigned long long)(n * SI5_RECORD),
			      (unsigned long long)s->si->size, SI5_RECORD, s->ngames);
		rc = GAMEDB_WARN;
	}
	if (gamedb__src_open(&r->src, ".sn5", 0, &s->sn) != 0 ||
	    gamedb__src_open(&r->src, ".sg5", 0, &s->sg) != 0 || load_names5(s) != GAMEDB_OK)
		goto fail;
	/* A truncation warning above stays the message: the check adds nothing to it. */
	if (rc == GAMEDB_OK) {
		rc = si5_tail_check(s);
		if (rc == GAMEDB_FATAL)
			goto fail;
	}
	return rc;
fail:
	scid_close(s);
	*state = NULL;
	return GAMEDB_FATAL;
}

static int32_t scid_open(struct gamedb_reader *r, void **state)
{
	struct scid *s = calloc(1, sizeof *s);
	const uint8_t *p;
	const char *gext, *next;
	int64_t got;
	int32_t rc;
	uint64_t need;
	int i;

	if (!s)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	s->r = r;
	gamedb__stack_init(&s->levels, sizeof(struct scid_level), SIZE_MAX);
	*state = s;
	if (gamedb__src_open(&r->src, NULL, 0, &s->si) != 0)
		goto fail;
	if (is_si5_name(s->si->name))
		return scid5_open(s, state);
	got = gamedb__file_view(s->si, 0, SI_HEADER_V400, &p);
	if (got < 0)
		goto fail;
	if (got < SI_HEADER_V300 || memcmp(p, SI_MAGIC, 8) != 0) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
			      "%s: offset 0: not a SCID index (bad magic or shorter than its header)",
			      s->si->name);
		goto fail;
	}
	s->version = (int)gamedb__be16(p + 8);
	if (s->version != 300 && s->version != 400) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNSUPPORTED_VERSION,
			      "%s: offset 8: SCID index version %d (this library reads 300 and 400)",
			      s->si->name, s->version);
		goto fail;
	}
	s->hdr_size = s->version == 400 ? SI_HEADER_V400 : SI_HEADER_V300;
	s->rec_size = s->version == 400 ? SI_RECORD_V400 : SI_RECORD_V300;
	if ((uint64_t)got < s->hdr_size) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT, "%s: offset %lld: truncated header",
			      s->si->name, (long long)got);
		goto fail;
	}
	s->handle.version = s->version;
	s->handle.base_type = (int32_t)gamedb__be32(p + 10);
	s->ngames = gamedb__be24(p + 14);
	s->handle.autoload = gamedb__be24(p + 17);
	gamedb__text_at(&s->r->text, s->si->name, 20);
	header_text(s, p + 20, 108, s->handle.description, sizeof s->handle.description);
	for (i = 0; i < 6; i++) {
		gamedb__text_at(&s->r->text, s->si->name, 128 + 9 * (uint64_t)i);
		if (s->version == 400)
			header_text(s, p + 128 + 9 * i, 9, s->handle.flag_names[i],
				    sizeof s->handle.flag_names[i]);
	}
	gamedb__text_at(&s->r->text, NULL, 0);
	need = s->hdr_size + (uint64_t)s->ngames * s->rec_size;
	rc = GAMEDB_OK;
	if (need > s->si->size) {
		uint32_t have = (uint32_t)((s->si->size - s->hdr_size) / s->rec_size);
		gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
			      "%s: offset %llu: index truncated: header says %u games, the file holds %u",
			      s->si->name, (unsigned long long)s->si->size, s->ngames, have);
		s->ngames = have;
		rc = GAMEDB_WARN;
	} else if (s->si->size - s->hdr_size >= ((uint64_t)s->ngames + 1) * s->rec_size) {
		/*
		 * More records than the header counts: a broken header (or a write cut off before
		 * the count was updated) must not hide the games past the count, which may be a
		 * user's only copy of them. They are read like the others; one that does not
		 * decode fails as any game does.
		 */
		uint64_t have = (s->si->size - s->hdr_size) / s->rec_size;
		if (have > UINT32_MAX - 1)
			have = UINT32_MAX - 1;
		gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
			      "%s: offset 14: the header counts %u games, the file holds %llu records: "
			      "all %llu are read",
			      s->si->name, s->ngames, (unsigned long long)have, (unsigned long long)have);
		s->ngames = (uint32_t)have;
		rc = GAMEDB_WARN;
	}

	gext = s->version == 400 ? ".sg4" : ".sg3";
	next = s->version == 400 ? ".sn4" : ".sn3";
	if (gamedb__src_open(&r->src, next, 0, &s->sn) != 0 ||
	    gamedb__src_open(&r->src, gext, 0, &s->sg) != 0)
		goto fail;
	if (load_names(s) != GAMEDB_OK)
		goto fail;
	return rc;
fail:
	scid_close(s);
	*state = NULL;
	return GAMEDB_FATAL;
}

static void scid_close(void *state)
{
	struct scid *s = state;
	int t;

	if (!s)
		return;
	for (t = 0; t < NAME_TYPES; t++)
		names_free(&s->names[t]);
	gamedb__stack_free(&s->levels);
	free(s->comment_node);
	free(s);
}

/* ---- headers -------------------------------------------------------------------------- */

/* A stored date: year << 9 | month << 5 | day (11, 4 and 5 bits; 0 = unknown). */
static void scid_date(char *out, uint32_t d)
{
	gamedb__pgn_date(out, (d >> 9) & 0x7FF, (d >> 5) & 15, d & 31);
}

/* ECO: 0 none; else letter*13100 + d1*1310 + d2*131 + ext + 1, ext 0 or 1 + 5*subletter + digit. */
static int format_eco(char *out, uint32_t eco)
{
	uint32_t x, basic, ext;

	if (eco == 0)
		return 0;
	x = eco - 1;
	basic = x / 131;
	ext = x % 131;
	if (basic >= 500)
		return 0;
	out[0] = (char)('A' + basic / 100);
	out[1] = (char)('0' + (basic / 10) % 10);
	out[2] = (char)('0' + basic % 10);
	out[3] = 0;
	if (ext) {
		uint32_t e = ext - 1;
		out[3] = (char)('a' + e / 5);
		out[4] = 0;
		if (e % 5) {
			out[4] = (char)('0' + e % 5);
			out[5] = 0;
		}
	}
	return 1;
}

/*
 * The pool bytes put_name_tag() puts for a name id (with a tag name of up to 5 letters):
 * scid_next_game() makes room for all of a game's tags at once.
 */
static size_t name_tag_room(const struct scid *s, int type, uint32_t id)
{
	const struct scid_names *n = &s->names[type];

	if (id >= n->count || n->off[id] == UINT32_MAX)
		return 6 + 2;
	return 6 + n->len[id] + 1 + ((n->how[id] & NAME_SAME) ? 0 : n->raw_len[id] + 1);
}

/*
 * Puts the tag for a name id, in room made for it (name_tag_room()): its UTF-8 and, when they
 * differ, its stored bytes; "?" for an id with no name. cs: the offset of the names' charset
 * in the pool. A name converted with loss makes the game's text lossy.
 */
static inline void put_name_tag(struct scid *s, struct gamedb_game *g, const char *tag,
				size_t taglen, int type, uint32_t id, uint32_t cs)
{
	struct scid_names *n = &s->names[type];
	int same;

	if (id >= n->count || n->off[id] == UINT32_MAX) {
		gamedb__tags_put(&g->head, tag, taglen, "?", 1, NULL, 0, GAMEDB__TAG_NO_CHARSET);
		return;
	}
	if (n->how[id] & NAME_LOSSY) {
		g->text_status = GAMEDB_WARN;
		gamedb__game_seterr(g, "tag %s could not be converted from %s without loss", tag,
				    gamedb__reader_charset(s->r));
	}
	same = n->how[id] & NAME_SAME;
	gamedb__tags_put(&g->head, tag, taglen, n->pool.p + n->off[id], n->len[id],
			 same ? NULL : n->raw.p + n->raw_off[id], same ? 0 : n->raw_len[id], cs);
}
/* put_name_tag() for a literal tag name, whose length the compiler knows. */
#define PUT_NAME_TAG(s, g, tag, type, id, cs) put_name_tag(s, g, tag, sizeof tag - 1, type, id, cs)

/* The rating tags of each side (0 White, 1 Black) by the stored rating type (type 7 is Elo). */
static const char *const rating_tags[2][8] = {
	{ "WhiteElo", "WhiteRating", "WhiteRapid", "WhiteICCF", "WhiteUSCF", "WhiteDWZ", "WhiteECF",
	  "WhiteElo" },
	{ "BlackElo", "BlackRating", "BlackRapid", "BlackICCF", "BlackUSCF", "BlackDWZ", "BlackECF",
	  "BlackElo" }
};
static const uint8_t rating_tag_len[8] = { 8, 11, 10, 9, 9, 8, 8, 8 };

/*
 * Puts "WhiteElo" (etc.) for a stored rating (type in the top 4 bits, value in the low 12),
 * in room made for it (at most 17 bytes).
 */
static void put_rating_tag(struct gamedb_game *g, int side, uint32_t rating)
{
	const unsigned type = (rating >> 12) & 7;
	uint32_t v = rating & 0xFFF;
	char num[8];
	size_t n = 0;

	if (v >= 1000)
		num[n++] = (char)('0' + v / 1000);
	if (v >= 100)
		num[n++] = (char)('0' + v / 100 % 10);
	if (v >= 10)
		num[n++] = (char)('0' + v / 10 % 10);
	num[n++] = (char)('0' + v % 10);
	num[n] = 0;
	gamedb__tags_put(&g->head, rating_tags[side][type], rating_tag_len[type], num, n, NULL, 0,
			 GAMEDB__TAG_NO_CHARSET);
}

/* One index record, whichever version wrote it. */
struct scid_entry {
	uint64_t offset;
	uint32_t len, flags;
	uint32_t wid, bid, eid, sid, rid; /* name ids */
	uint32_t result, eco;
	uint32_t date, edate;             /* full dates (year << 9 | month << 5 | day); 0 unknown */
	uint32_t wr, br;                  /* rating type << 12 | rating */
	int chess960;
};

/* A si4/si3 record (big-endian; v400 has one more byte after the length). */
static void entry_si4(const struct scid *s, const uint8_t *p, struct scid_entry *e)
{
	int k = s->version == 400 ? 1 : 0;
	uint32_t date, edate;

	e->offset = gamedb__be32(p);
	e->len = gamedb__be16(p + 4);
	e->flags = gamedb__be16(p + 6 + k);
	if (k) {
		if (p[6] & 0x80)
			e->len |= 0x10000;
		e->flags |= (uint32_t)(p[6] & 0x3F) << 16;
	}
	e->wid = (uint32_t)(p[8 + k] >> 4) << 16 | gamedb__be16(p + 9 + k);
	e->bid = (uint32_t)(p[8 + k] & 15) << 16 | gamedb__be16(p + 11 + k);
	e->eid = (uint32_t)(p[13 + k] >> 5) << 16 | gamedb__be16(p + 14 + k);
	e->sid = (uint32_t)((p[13 + k] >> 2) & 7) << 16 | gamedb__be16(p + 16 + k);
	e->rid = (uint32_t)(p[13 + k] & 3) << 16 | gamedb__be16(p + 18 + k);
	e->result = gamedb__be16(p + 20 + k) >> 12 & 3;
	e->eco = gamedb__be16(p + 22 + k);
	date = gamedb__be32(p + 24 + k);
	e->wr = gamedb__be16(p + 28 + k);
	e->br = gamedb__be16(p + 30 + k);
	edate = date >> 20;
	date &= 0xFFFFF;
	e->date = date;
	e->edate = 0;
	if (edate >> 9) {
		/* The event year is stored as an offset of -3..+3 from the game's year. */
		int32_t ey = (int32_t)((date >> 9) & 0x7FF) + (int32_t)(edate >> 9) - 4;
		e->edate = ((uint32_t)(ey < 0 ? 0 : ey) << 9) | (edate & 0x1FF);
	}
	e->chess960 = 0;
}

/*
 * A si5 record: twelve little-endian 32-bit words, each packing two fields (the first named
 * in the high bits), then 8 bytes of home-pawn data. doc/formats/scid.md lists them.
 */
static void entry_si5(const uint8_t *p, struct scid_entry *e)
{
	uint32_t w;

	e->wid = gamedb__le32(p) & 0x0FFFFFFF;      /* high 4 bits: comment count class */
	e->bid = gamedb__le32(p + 4) & 0x0FFFFFFF;  /* high 4 bits: variation count class */
	e->eid = gamedb__le32(p + 8) & 0x0FFFFFFF;  /* high 4 bits: NAG count class */
	e->sid = gamedb__le32(p + 12);
	w = gamedb__le32(p + 16);
	e->chess960 = (int)(w >> 31);
	e->rid = w & 0x7FFFFFFF;
	w = gamedb__le32(p + 20);
	e->wr = w >> 20;
	e->date = w & 0xFFFFF;
	w = gamedb__le32(p + 24);
	e->br = w >> 20;
	e->edate = w & 0xFFFFF;
	e->flags = gamedb__le32(p + 28) & 0x3FFFFF; /* high 10 bits: ply count */
	w = gamedb__le32(p + 32);
	e->len = w >> 15;
	e->offset = (uint64_t)(w & 0x7FFF) << 32 | gamedb__le32(p + 36);
	/* p + 40: stored line code and final material: search data only */
	w = gamedb__le32(p + 44);
	e->eco = w & 0xFFFF;
	e->result = (w >> 16) & 3;
	e->br |= ((w >> 18) & 7) << 12;
	e->wr |= ((w >> 21) & 7) << 12;
}

static int32_t scid_next_game(void *state, struct gamedb_game *g)
{
	struct scid *s = state;
	struct gamedb_reader *r = s->r;
	const uint8_t *p;
	uint64_t off;
	int64_t got;
	struct scid_entry e;
	char buf[32];
	int bad_ids = 0;
	static const char *const results[4] = { "*", "1-0", "0-1", "1/2-1/2" };
	static const uint8_t result_len[4] = { 1, 3, 3, 7 };
	const char *cs = gamedb__reader_charset(r); /* the names' charset, for every name tag */
	uint32_t csoff;

	if (s->next >= s->ngames)
		return GAMEDB_END;
	g->index = s->next++;
	off = s->hdr_size + g->index * s->rec_size;
	got = gamedb__file_view(s->si, off, s->rec_size, &p);
	if (got < 0)
		return GAMEDB_FATAL; /* the I/O layer's message names the file and offset */
	if (got != (int64_t)s->rec_size)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_IO, "%s: offset %llu: cannot read record",
				     s->si->name, (unsigned long long)off);
	if (s->version == 500)
		entry_si5(p, &e);
	else
		entry_si4(s, p, &e);
	g->loc[0] = e.offset;
	g->loc[1] = e.len;
	g->fmt_flags = e.flags;
	g->deleted = (e.flags >> 3) & 1;

	bad_ids = e.wid >= s->names[NAME_PLAYER].count || e.bid >= s->names[NAME_PLAYER].count ||
		  e.eid >= s->names[NAME_EVENT].count || e.sid >= s->names[NAME_SITE].count ||
		  e.rid >= s->names[NAME_ROUND].count;
	/*
	 * The game's tags from the index, at most 12, in room made once: the five name tags
	 * (name_tag_room()) and 96 bytes for the others (Date 16, Result 15, ECO 10, EventDate 21
	 * and two rating tags of 17).
	 */
	if (gamedb__tags_charset(&g->head, cs, &csoff) != 0 ||
	    gamedb__tags_room(&g->head, 12,
			      96 + name_tag_room(s, NAME_EVENT, e.eid) +
				      name_tag_room(s, NAME_SITE, e.sid) +
				      name_tag_room(s, NAME_ROUND, e.rid) +
				      name_tag_room(s, NAME_PLAYER, e.wid) +
				      name_tag_room(s, NAME_PLAYER, e.bid)) != 0)
		goto nomem;
	PUT_NAME_TAG(s, g, "Event", NAME_EVENT, e.eid, csoff);
	PUT_NAME_TAG(s, g, "Site", NAME_SITE, e.sid, csoff);
	scid_date(buf, e.date);
	gamedb__tags_put(&g->head, "Date", 4, buf, 10, NULL, 0, GAMEDB__TAG_NO_CHARSET);
	PUT_NAME_TAG(s, g, "Round", NAME_ROUND, e.rid, csoff);
	PUT_NAME_TAG(s, g, "White", NAME_PLAYER, e.wid, csoff);
	PUT_NAME_TAG(s, g, "Black", NAME_PLAYER, e.bid, csoff);
	gamedb__tags_put(&g->head, "Result", 6, results[e.result], result_len[e.result], NULL, 0,
			 GAMEDB__TAG_NO_CHARSET);
	if (e.wr & 0xFFF)
		put_rating_tag(g, 0, e.wr);
	if (e.br & 0xFFF)
		put_rating_tag(g, 1, e.br);
	if (format_eco(buf, e.eco))
		gamedb__tags_put(&g->head, "ECO", 3, buf, strlen(buf), NULL, 0,
				 GAMEDB__TAG_NO_CHARSET);
	if (e.edate) { /* an all-unknown event date is not written */
		scid_date(buf, e.edate);
		gamedb__tags_put(&g->head, "EventDate", 9, buf, 10, NULL, 0, GAMEDB__TAG_NO_CHARSET);
	}
	g->fen_pending = (e.flags & 1) != 0; /* non-standard start: the FEN is in the record */
	if (e.chess960) /* castling as in Chess960: the board engine's rules already are */
		g->variant = GAMEDB_VARIANT_CHESS960;
	if (bad_ids) {
		/* The game's status says it too: the writers and the command report the loss. */
		gamedb__game_seterr(g, "%s: offset %llu: game %llu: a name id is out of range, replaced by \"?\"",
				    s->si->name, (unsigned long long)off,
				    (unsigned long long)g->index + 1);
		g->text_status = GAMEDB_WARN;
		return gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT, "%s", g->errmsg);
	}
	return GAMEDB_OK;
nomem:
	return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
}

static int32_t scid_seek(void *state, uint64_t index)
{
	struct scid *s = state;

	if (index >= s->ngames)
		return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_RANGE,
				     "gamedb_reader_seek_game: game %llu of %u",
				     (unsigned long long)index, s->ngames);
	s->next = index;
	return GAMEDB_OK;
}

static int32_t scid_count(void *state, uint64_t *out)
{
	*out = ((struct scid *)state)->ngames;
	return GAMEDB_OK;
}

/* ---- game records --------------------------------------------------------------------- */

/* A game record: a cursor over it, whose base is the record's offset in the .sg4. */
int32_t gamedb__scid_rec_load(struct scid *s, struct gamedb_game *g, struct gamedb__cur *rc)
{
	int64_t got;

	if (g->loc[1] > SG_MAX_RECORD || g->loc[0] + g->loc[1] > s->sg->size) {
		gamedb__cur_init(rc, s->sg->name, g->loc[0], NULL, 0);
		gamedb__game_seterr(g, "%s: offset %llu: game %llu: record of %llu bytes runs past the end of the file",
				    s->sg->name, (unsigned long long)g->loc[0],
				    (unsigned long long)g->index + 1, (unsigned long long)g->loc[1]);
		return GAMEDB_FAILED;
	}
	got = gamedb__cur_view(rc, s->sg, g->loc[0], (size_t)g->loc[1]);
	if (got < 0) {
		/* The file could not be read or became shorter: the I/O layer's message says so. */
		gamedb__game_seterr(g, "%s", s->r->errmsg);
		return GAMEDB_FAILED;
	}
	if (got != (int64_t)g->loc[1]) {
		gamedb__game_seterr(g, "%s: offset %llu: game %llu: cannot read the record",
				    s->sg->name, (unsigned long long)g->loc[0],
				    (unsigned long long)g->index + 1);
		return GAMEDB_FAILED;
	}
	return GAMEDB_OK;
}

static const char *const common_tags[] = {
	"WhiteCountry", "BlackCountry", "Annotator", "PlyCount", "EventDate",
	"Opening", "Variation", "Setup", "Source", "SetUp"
};

/* Adds to g's message (what it says already stays, before a "; "). */
void gamedb__scid_game_note(struct gamedb_game *g, const char *what)
{
	size_t n = strlen(g->errmsg);

	snprintf(g->errmsg + n, sizeof g->errmsg - n, "%s%s", n ? "; " : "", what);
}

/*
 * An extra tag whose stored name (tl bytes at name, at offset off of the .sg4) holds NUL
 * bytes: Scid never writes one, a damaged record may. The tag is kept under its name with
 * each NUL as U+FFFD (each part between them as UTF-8, converted as any stored name), with
 * a warning on the game; dropping it would lose its value without a word. 0, or -1 (out of
 * memory, message set).
 */
static int nul_tag_name(struct scid *s, struct gamedb_game *g, const char *name, uint32_t tl,
			uint64_t off, const uint8_t *vp, uint32_t vl)
{
	const char *cs = gamedb__reader_charset(s->r);
	struct gamedb__buf out = { 0 };
	uint32_t i = 0;
	char what[160];
	int bad = 0;

	gamedb__text_at(&s->r->text, s->sg->name, off);
	while (!bad) {
		const char *nul = memchr(name + i, 0, tl - i);
		uint32_t len = nul ? (uint32_t)(nul - (name + i)) : tl - i;
		if (gamedb__utf8_valid(name + i, len))
			bad = gamedb__buf_append(&out, name + i, len) != 0;
		else
			bad = gamedb__text_to_utf8(&s->r->text, cs, gamedb__reader_fallback(s->r),
						   name + i, len, &out) == GAMEDB_FAILED;
		if (!nul)
			break;
		bad = bad || gamedb__buf_append(&out, "\xEF\xBF\xBD", 3) != 0;
		i += len + 1;
	}
	if (bad || gamedb__buf_append(&out, "", 1) != 0 ||
	    gamedb__game_add_tag_raw(g, &g->extra, out.p, (const char *)vp, vl, cs) == GAMEDB_FAILED) {
		gamedb__buf_free(&out);
		gamedb__game_seterr(g, "out of memory");
		return -1;
	}
	snprintf(what, sizeof what, "%s: offset %llu: game %llu: a tag name holds a NUL byte, "
		 "replaced by U+FFFD",
		 s->sg->name, (unsigned long long)off, (unsigned long long)g->index + 1);
	gamedb__scid_game_note(g, what);
	g->text_status = GAMEDB_WARN;
	gamedb__buf_free(&out);
	return 0;
}

/*
 * Parses the extra tags at the start of a record into g->extra (if want; want 2: all but
 * "Variant", which variant_tag() added) and skips them.
 */
int32_t gamedb__scid_parse_tags(struct scid *s, struct gamedb_game *g, struct gamedb__cur *rc,
				int want)
{
	const char *cs = gamedb__reader_charset(s->r);

	for (;;) {
		uint32_t tl, vl;
		char name[256];
		const char *tname;
		const uint8_t *tp, *vp;

		tl = gamedb__cur_u8(rc);
		if (gamedb__cur_failed(rc))
			goto truncated;
		if (tl == 0)
			return GAMEDB_OK;
		if (tl == 255) { /* legacy compact event date: three bytes, no length */
			if (gamedb__cur_skip(rc, 3) != 0)
				goto truncated;
			continue;
		}
		if (tl <= 240) {
			tp = gamedb__cur_take(rc, tl);
			if (!tp)
				goto truncated;
			memcpy(name, tp, tl);
			name[tl] = 0;
			tname = name;
		} else {
			tname = tl <= 250 ? common_tags[tl - 241] : NULL;
		}
		vl = gamedb__cur_u8(rc);
		vp = gamedb__cur_take(rc, vl);
		if (gamedb__cur_failed(rc))
			goto truncated;
		if (want == 2 && tl == 7 && memcmp(name, "Variant", 7) == 0)
			continue;
		if (want && !tname) {
			/* Codes 251-254 name no tag (Scid has ten common names, 241-250): said. */
			char what[200];
			snprintf(what, sizeof what, "%s: offset %llu: game %llu: a tag with the unknown "
				 "name code %u (a value of %u bytes) is left out",
				 s->sg->name, (unsigned long long)(gamedb__cur_off(rc) - vl - 2),
				 (unsigned long long)g->index + 1, tl, vl);
			gamedb__scid_game_note(g, what);
			g->text_status = GAMEDB_WARN;
			continue;
		}
		if (want && tname && tl <= 240 && memchr(name, 0, tl) != NULL) {
			/* A NUL in a stored name: the tag is kept, the NULs replaced and said. */
			if (nul_tag_name(s, g, name, tl, gamedb__cur_off(rc) - vl - 1 - tl, vp, vl) != 0)
				return GAMEDB_FAILED;
		} else if (want && tname) {
			struct gamedb__buf conv = { 0 };
			int32_t trc = GAMEDB_OK;
			gamedb__text_at(&s->r->text, s->sg->name, gamedb__cur_off(rc) - vl);
			/* A stored tag name is bytes like its value: hand it out as UTF-8 too. */
			if (tname == name && !gamedb__utf8_valid(name, tl)) {
				trc = gamedb__text_to_utf8(&s->r->text, cs, gamedb__reader_fallback(s->r),
							   name, tl, &conv);
				tname = conv.p ? conv.p : "";
				if (trc == GAMEDB_WARN)
					g->text_status = GAMEDB_WARN;
			}
			if (trc == GAMEDB_FAILED ||
			    gamedb__game_add_tag_raw(g, &g->extra, tname, (const char *)vp, vl,
						     cs) == GAMEDB_FAILED) {
				gamedb__buf_free(&conv);
				return GAMEDB_FAILED;
			}
			if (conv.p)
				gamedb__buf_free(&conv);
		}
	}
truncated:
	gamedb__cur_message(rc, g->errmsg, sizeof g->errmsg, "game %llu: tag section",
			    (unsigned long long)g->index + 1);
	return GAMEDB_FAILED;
}

/*
 * A Chess960 game of a si5 base (its index says so): Scid 5 gives it the tag Variant
 * "Chess960" before the record's own tags, and a Variant tag stored in the record sets that
 * tag's value in place (Scid's export of such a game has one Variant tag, the first extra
 * one). Adds it to g->extra, reading the record's tags with a cursor of its own.
 */
static int32_t variant_tag(struct scid *s, struct gamedb_game *g, const struct gamedb__cur *rc)
{
	struct gamedb__cur c = *rc;
	const uint8_t *vp = (const uint8_t *)"Chess960";
	uint32_t vl = 8;

	for (;;) {
		uint32_t tl = gamedb__cur_u8(&c), l;
		const uint8_t *tp = NULL, *v;
		if (gamedb__cur_failed(&c) || tl == 0)
			break; /* parse_tags reports a short record */
		if (tl == 255) {
			if (gamedb__cur_skip(&c, 3) != 0)
				break;
			continue;
		}
		if (tl <= 240 && !(tp = gamedb__cur_take(&c, tl)))
			break;
		l = gamedb__cur_u8(&c);
		v = gamedb__cur_take(&c, l);
		if (!v)
			break;
		if (tp && tl == 7 && memcmp(tp, "Variant", 7) == 0) {
			vp = v;
			vl = l;
			break;
		}
	}
	return gamedb__game_add_tag_raw(g, &g->extra, "Variant", (const char *)vp, vl,
					gamedb__reader_charset(s->r)) == GAMEDB_FAILED ? GAMEDB_FAILED
										: GAMEDB_OK;
}

/* Reads the start position of a record (after the tags): sets g->fen; 0 or -1 (message set). */
int gamedb__scid_read_start(struct scid *s, struct gamedb_game *g, struct gamedb__cur *rc,
			    int *nonstandard)
{
	const uint8_t *nul;
	size_t flen;
	uint32_t flags;

	*nonstandard = 0;
	flags = gamedb__cur_u8(rc);
	if (gamedb__cur_failed(rc)) {
		gamedb__cur_message(rc, g->errmsg, sizeof g->errmsg, "game %llu: start position",
				    (unsigned long long)g->index + 1);
		return -1;
	}
	if (!(flags & 1))
		return 0;
	*nonstandard = 1;
	nul = memchr(rc->p + rc->pos, 0, rc->len - rc->pos);
	flen = nul ? (size_t)(nul - (rc->p + rc->pos)) : 0;
	if (!nul || flen >= sizeof g->fen) {
		gamedb__game_seterr(g, "%s: offset %llu: game %llu: start position FEN %s",
				    s->sg->name, (unsigned long long)gamedb__cur_off(rc),
				    (unsigned long long)g->index + 1, nul ? "too long" : "not terminated");
		return -1;
	}
	memcpy(g->fen, rc->p + rc->pos, flen);
	g->fen[flen] = 0;
	rc->pos += flen + 1;
	return 0;
}

/*
 * Whether a tag the index lacks can be among a record's extra tags. Scid's PGN import keeps
 * ECO and the Seven Tag Roster in the index only. A side's first rating tag (White or Black +
 * Elo, Rating, Rapid, ICCF, USCF, DWZ, ECF) goes to the index while that side has no
 * rating there; only later rating tags of the side become extra tags. So with no rating of a
 * side in the index, no rating tag of that side is stored elsewhere, and asking for one needs
 * no read of the game file.
 */
static int scid_tag_surely_absent(void *state, const struct gamedb_game *g, const char *name)
{
	static const char *const index_only[] = { "Event", "Site", "Date", "Round", "White",
						  "Black", "Result", "ECO" };
	/* Scid's seven rating types; "WhiteBCF" and the like are ordinary extra tags. */
	static const char *const rating_names[] = { "Elo", "Rating", "Rapid", "ICCF", "USCF",
						    "DWZ", "ECF" };
	const size_t nr = sizeof rating_names / sizeof rating_names[0];
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof index_only / sizeof index_only[0]; i++)
		if (strcmp(name, index_only[i]) == 0)
			return 1;
	if (strncmp(name, "White", 5) != 0 && strncmp(name, "Black", 5) != 0)
		return 0;
	for (k = 0; k < nr && strcmp(name + 5, rating_names[k]) != 0; k++)
		;
	if (k == nr)
		return 0;
	/* The index holds a rating for this side if the header has a rating tag of the side. */
	for (i = 0; i < g->head.n; i++) {
		const char *t = g->head.pool.p + g->head.v[i].name;
		if (strncmp(t, name, 5) != 0)
			continue;
		for (k = 0; k < nr; k++)
			if (strcmp(t + 5, rating_names[k]) == 0)
				return 0;
	}
	return 1;
}

static int32_t scid_load_tags(void *state, struct gamedb_game *g)
{
	struct scid *s = state;
	struct gamedb__cur rc;
	int nonstandard = 0;
	int32_t st = gamedb__scid_rec_load(s, g, &rc);

	if (st == GAMEDB_OK && g->variant == GAMEDB_VARIANT_CHESS960)
		st = variant_tag(s, g, &rc);
	if (st == GAMEDB_OK)
		st = gamedb__scid_parse_tags(s, g, &rc, g->variant == GAMEDB_VARIANT_CHESS960 ? 2 : 1);
	if (st == GAMEDB_OK && gamedb__scid_read_start(s, g, &rc, &nonstandard) != 0)
		st = GAMEDB_FAILED;
	if (st == GAMEDB_OK && nonstandard) {
		/*
		 * Scid writes the FEN last, after the extra tags, in its own normalised form. The
		 * position stays on the game for the decode, which then need not parse it again.
		 */
		const char *why;
		size_t flen;
		if (gamedb__pos_from_fen_normal(&g->start, g->fen, g->fen, sizeof g->fen, &flen,
						&why) == 0) {
			if (flen >= sizeof g->fen) /* cannot happen: a FEN is under 100 bytes */
				flen = strlen(g->fen);
			g->have_start = 1;
			if (gamedb__tags_add(&g->extra, "FEN", g->fen, flen, NULL, 0, NULL) != 0)
				st = GAMEDB_FAILED;
		} else {
			/* Not a position (the decode reports it): no FEN tag, and get_fen() must not
			 * hand out the stored bytes, which need not even be UTF-8. */
			strcpy(g->fen, GAMEDB__START_FEN);
			nonstandard = -1;
		}
	}
	/* Where the move data starts, for the decode; not when the start must be re-read. */
	if (st == GAMEDB_OK && nonstandard >= 0)
		g->loc[2] = rc.pos;
	if (st == GAMEDB_FAILED)
		gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "%s", g->errmsg);
	return st;
}

static void *scid_handle(void *state)
{
	return &((struct scid *)state)->handle;
}

/* The base's own properties: what gamedb_reader_get_scid() gives, by name (gamedb.h). */
static int32_t scid_properties(void *state, struct gamedb__props *out)
{
	const struct gamedb_scid *h = scid_handle(state);
	static const char *const flags[6] = { "custom-flag-1", "custom-flag-2", "custom-flag-3",
					      "custom-flag-4", "custom-flag-5", "custom-flag-6" };
	const char *d = gamedb_scid_get_description(h);
	char num[24];
	int k;

	snprintf(num, sizeof num, "%ld", (long)gamedb_scid_get_version(h));
	if (gamedb__props_add(out, "version", num, strlen(num)) ||
	    gamedb__props_add(out, "description", d, strlen(d)))
		goto nomem;
	snprintf(num, sizeof num, "%ld", (long)gamedb_scid_get_base_type(h));
	if (gamedb__props_add(out, "base-type", num, strlen(num)))
		goto nomem;
	for (k = 0; k < 6; k++) {
		const char *f = gamedb_scid_get_flag_name(h, k + 1);
		if (gamedb__props_add(out, flags[k], f, strlen(f)))
			goto nomem;
	}
	snprintf(num, sizeof num, "%lld", (long long)gamedb_scid_get_autoload(h));
	if (gamedb__props_add(out, "autoload", num, strlen(num)))
		goto nomem;
	return GAMEDB_OK;
nomem:
	return gamedb__error(((struct scid *)state)->r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
}

static const char *const scid_extensions[] = {
	".si4", ".si3", ".si5", ".sn4", ".sg4", ".sn3", ".sg3", ".sn5", ".sg5", NULL
};

const struct gamedb__format gamedb__format_scid = {
	.abi = GAMEDB__FORMAT_ABI_1,
	.name = "scid",
	.description = "SCID 5, SCID 4 and SCID 3 bases (Scid, Scid vs. PC, ChessX)",
	.extensions = scid_extensions,
	.opens = 3,
	.options = NULL,
	.caps = GAMEDB_CAP_SEEK | GAMEDB_CAP_COUNT | GAMEDB_CAP_MULTIFILE | GAMEDB_CAP_VARIATIONS,
	.default_charset = "UTF-8",
	.default_fallback = "ISO-8859-1",
	.bid = scid_bid,
	.open = scid_open,
	.set_option = NULL,
	.next_game = scid_next_game,
	.seek_game = scid_seek,
	.game_count = scid_count,
	.load_tags = scid_load_tags,
	.tag_surely_absent = scid_tag_surely_absent,
	.decode_moves = gamedb__scid_decode,
	.properties = scid_properties,
	.handle = scid_handle,
	.close = scid_close,
};

/* ---- the public SCID handle ----------------------------------------------------------- */

GAMEDB_EXPORT struct gamedb_scid *gamedb_reader_get_scid(struct gamedb_reader *r)
{
	return gamedb__reader_handle(r, &gamedb__format_scid);
}

GAMEDB_EXPORT int32_t gamedb_scid_get_version(const struct gamedb_scid *s)
{
	return s ? s->version : 0;
}

GAMEDB_EXPORT const char *gamedb_scid_get_description(const struct gamedb_scid *s)
{
	return s ? s->description : NULL;
}

GAMEDB_EXPORT int32_t gamedb_scid_get_base_type(const struct gamedb_scid *s)
{
	return s ? s->base_type : 0;
}

GAMEDB_EXPORT const char *gamedb_scid_get_flag_name(const struct gamedb_scid *s, int32_t n)
{
	if (!s || n < 1 || n > 6)
		return NULL;
	return s->flag_names[n - 1];
}

GAMEDB_EXPORT int64_t gamedb_scid_get_autoload(const struct gamedb_scid *s)
{
	return s ? s->autoload : 0;
}

GAMEDB_EXPORT uint32_t gamedb_scid_get_game_flags(const struct gamedb_scid *s,
						  const struct gamedb_game *g)
{
	if (!s || !g || g->magic != GAMEDB__GAME_MAGIC)
		return 0;
	return g->fmt_flags;
}
