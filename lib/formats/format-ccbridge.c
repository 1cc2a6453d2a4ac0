/*
 * libgamedb - the CCBridge (象棋桥) format: xiangqi records (.cbr, one game) and libraries (.cbl,
 * many records). Layout facts, and where the public readers disagree, are in
 * doc/formats/ccbridge.md. In short: a record is a 2214-byte header (magic "CCBridge Record\0",
 * fixed-width UTF-16LE fields, a 90-byte start board, the side to move, the result) and then a
 * move stream in pre-order. A library is a 66624-byte header (magic "CCBridgeLibrary\0", its
 * name, source, creator, remarks), an index of 276-byte entries (as many as the count at offset
 * 60 says it was built for), then the records in 4096-byte slots. Each used index entry gives
 * the slots its record takes and the bytes it uses; the slots are handed out in index order,
 * so a long record takes two or more slots in a row and the slots after its first do not start
 * with the magic.
 *
 * This file bids, opens, reads the index and the headers; ccbridge-moves.c reads the moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ccbridge.h"

#define LIB_INDEX 66624u
#define LIB_ENTRY 276u
/* A record header and the root record of its move stream. */
#define REC_MIN (CCB_REC_MOVES + 4u)

static const char lib_magic[16] = "CCBridgeLibrary";
static const char rec_magic[16] = "CCBridge Record";

/* Record header fields (offset, bytes) turned into tags. */
static const struct {
	const char *tag;
	uint16_t off, len;
} rec_tags[] = {
	{ "Title", 180, 128 },     { "Source", 564, 64 },   { "Group", 820, 32 },
	{ "Board", 852, 32 },      { "TimeControl", 1012, 64 }, { "WhiteTeam", 1140, 64 },
	{ "BlackTeam", 1364, 64 }, { "Annotator", 1652, 64 }, { "Author", 1780, 64 },
};

/* ---- text --------------------------------------------------------------------------------- */

/*
 * The bytes of the UTF-16LE text at p before its NUL letter (two zero bytes on a letter's
 * boundary), within its first cap bytes (the last odd byte never counts): cap or cap - 1 when
 * it has none.
 */
static size_t u16_len(const uint8_t *p, size_t cap)
{
	size_t n;

	for (n = 0; n + 1 < cap && (p[n] || p[n + 1]); n += 2)
		;
	return n;
}

int32_t gamedb__ccb_text(struct ccb *s, const uint8_t *p, size_t n, struct gamedb__buf *out,
			 const char **note)
{
	struct gamedb_reader *r = s->r;
	size_t i, len;
	int32_t rc;

	*note = NULL;
	if (n % 2) {
		*note = "an odd last byte was dropped";
		n--;
	}
	len = u16_len(p, n);
	for (i = len; i < n; i++)
		if (p[i]) {
			*note = "the bytes after its NUL letter were not read";
			break;
		}
	/* A high surrogate must have a low one after it, and a low one a high one before it. */
	for (i = 0; i < len; i += 2) {
		unsigned u = gamedb__le16(p + i);
		if (u >= 0xD800 && u <= 0xDBFF) {
			unsigned v = i + 2 < len ? gamedb__le16(p + i + 2) : 0;
			if (v >= 0xDC00 && v <= 0xDFFF) {
				i += 2;
				continue;
			}
			*note = "an unpaired UTF-16 surrogate became U+FFFD";
		} else if (u >= 0xDC00 && u <= 0xDFFF) {
			*note = "an unpaired UTF-16 surrogate became U+FFFD";
		}
	}
	rc = gamedb__text_to_utf8(&r->text, gamedb__reader_charset(r), gamedb__reader_fallback(r),
				  (const char *)p, len, out);
	if (rc == GAMEDB_FAILED)
		return GAMEDB_FAILED;
	/* Any other loss of the conversion (a charset the caller set that lacks a letter). */
	if (rc == GAMEDB_WARN && !*note)
		*note = "text converted with loss";
	return *note ? GAMEDB_WARN : GAMEDB_OK;
}

/*
 * A fixed-width text field of the record at off: the tag `name` (UTF-8, with the stored bytes
 * as its raw value), or nothing when empty and no default. A field with no NUL letter was cut
 * by its writer or damaged: read to its end, with a warning. 0, or -1 out of memory.
 */
static int add_field(struct ccb *s, struct gamedb_game *g, const char *name, size_t off,
		     size_t cap, const char *dflt)
{
	const uint8_t *p = s->rec + off;
	struct gamedb__buf b = { 0 };
	const char *note = NULL, *text_note = NULL;
	size_t n, vlen;
	const char *value;
	int32_t rc;
	int ret = 0;

	n = u16_len(p, cap);
	rc = gamedb__ccb_text(s, p, n, &b, &text_note);
	/* A missing terminator is said first: what follows from it is that the text runs on. */
	note = n + 1 >= cap && cap >= 2 ? "it has no NUL terminator (read to the field's end)" :
					  text_note;
	if (rc == GAMEDB_FAILED) {
		ret = -1;
		goto out;
	}
	value = b.p;
	vlen = b.len;
	if (vlen == 0) { /* an empty field: the default, or no tag */
		if (!dflt)
			goto out;
		value = dflt;
		vlen = strlen(dflt);
	}
	if (gamedb__tags_add(&g->head, name, value, vlen, n ? (const char *)p : NULL, n,
			     gamedb__reader_charset(s->r)) != 0) {
		ret = -1;
		goto out;
	}
	if (note) {
		g->text_status = GAMEDB_WARN;
		gamedb__game_seterr(g, "%s: offset %llu: tag %s: %s", s->f->name,
				    (unsigned long long)(s->rec_off + off), name, note);
	}
out:
	gamedb__buf_free(&b);
	return ret;
}

/*
 * The GUID an index entry names its record by: "{970110B5-F494-410D-ACA4-26D7C4E37994}" in
 * UTF-16LE at entry offset 20, stored in the record at offset 20 as 16 bytes with the first
 * three groups little-endian. 0, or -1 when the text is not a GUID.
 */
static int parse_guid(const uint8_t *p, uint8_t out[16])
{
	static const uint8_t order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	uint8_t v[16];
	unsigned i, k = 0;

	if (gamedb__le16(p) != '{' || gamedb__le16(p + 74) != '}')
		return -1;
	for (i = 1; i < 37 && k < 32; i++) {
		unsigned c = gamedb__le16(p + 2 * i), d;
		if (c == '-' && (i == 9 || i == 14 || i == 19 || i == 24))
			continue;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 32) >= 'a' && (c | 32) <= 'f')
			d = (c | 32) - 'a' + 10;
		else
			return -1;
		v[k / 2] = (uint8_t)(k % 2 ? v[k / 2] | d : d << 4);
		k++;
	}
	if (k != 32)
		return -1;
	for (i = 0; i < 16; i++)
		out[order[i]] = v[i];
	return 0;
}

/* ---- bidding and opening ------------------------------------------------------------------ */

static int ccb_bid(struct gamedb__src *src)
{
	struct gamedb__file *f = src->nfiles ? src->files[0] : NULL;
	const uint8_t *p;

	if (!f || gamedb__file_view(f, 0, 16, &p) != 16)
		return -1;
	if (memcmp(p, lib_magic, 16) == 0 || memcmp(p, rec_magic, 16) == 0)
		return 100;
	return -1;
}

static void ccb_close(void *state)
{
	struct ccb *s = state;

	if (!s)
		return;
	free(s->ent);
	free(s->rec);
	free(s->nodes);
	gamedb__stack_free(&s->pend);
	gamedb__stack_free(&s->frames);
	free(s);
}

/*
 * Reads the library's index into s->ent: one game per used entry (flags not 0), in index order,
 * its first slot the sum of the slots of the used entries before it. An entry whose slots or
 * length cannot be right keeps its place (the game is reported when it is read). 0, or -1
 * with the reader's error set.
 */
static int read_index(struct ccb *s, uint32_t cap)
{
	struct gamedb_reader *r = s->r;
	const uint64_t size = s->f->size;
	const uint64_t nslots = (size - s->data_off + CCB_SLOT - 1) / CCB_SLOT;
	uint64_t slot = 0, k, stray = 0;
	uint32_t i;

	s->ent = calloc(cap, sizeof *s->ent);
	if (!s->ent) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		return -1;
	}
	for (i = 0; i < cap; i++) {
		const uint64_t at = LIB_INDEX + (uint64_t)i * LIB_ENTRY;
		const uint8_t *p;
		struct ccb_entry *e;
		uint32_t flags, ns, len;

		if (gamedb__file_view(s->f, at, 100, &p) != 100) {
			gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_IO, "%s: offset %llu: cannot read index entry %u",
				      s->f->name, (unsigned long long)at, i);
			return -1;
		}
		flags = gamedb__le32(p);
		ns = gamedb__le32(p + 8);
		len = gamedb__le32(p + 12);
		if (flags == 0)
			continue; /* a free entry: no record, no slot */
		e = &s->ent[s->nent++];
		e->entry = i;
		e->slot = slot > UINT32_MAX ? UINT32_MAX : (uint32_t)slot;
		e->nslots = ns;
		e->len = len;
		/* Bit 1 clear: deleted (CCBridge writes 7 for a live entry, 5 for a deleted one). */
		e->deleted = (flags & 2) == 0;
		e->off = s->data_off + slot * CCB_SLOT;
		e->have_guid = parse_guid(p + 20, e->guid) == 0;
		if (ns == 0)
			e->why = "the index entry gives its record no slot";
		else if (slot + ns > nslots)
			e->why = "the slots the index gives it lie past the end of the file";
		else if (len < REC_MIN)
			e->why = "the index gives it fewer bytes than a record header takes";
		else if (len > (uint64_t)ns * CCB_SLOT || e->off + len > size)
			e->why = "the index gives it more bytes than its slots hold";
		if (ns == 0 || slot + ns > nslots) {
			/*
			 * A slot count that cannot be right: the record's length, when that fits, says
			 * how many slots it took, so that the entries after it stay in place (their
			 * GUIDs check it).
			 */
			const uint64_t need = ((uint64_t)len + CCB_SLOT - 1) / CCB_SLOT;
			if (len >= REC_MIN && slot + need <= nslots)
				ns = (uint32_t)need;
		}
		slot += ns;
		if (slot > nslots + 1)
			slot = nslots + 1; /* saturate: the entries after it are out of range too */
	}
	s->slots_indexed = (uint32_t)(slot > nslots ? nslots : slot);
	/* Records in slots after the indexed ones belong to no entry: said, not read. */
	for (k = s->slots_indexed; k < nslots; k++) {
		const uint8_t *p;
		if (gamedb__file_view(s->f, s->data_off + k * CCB_SLOT, 16, &p) == 16 &&
		    memcmp(p, rec_magic, 16) == 0)
			stray++;
	}
	if (stray)
		return gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
				     "%s: offset %llu: %llu record%s in the slots after the %u the index uses belong%s to no index entry (not read)",
				     s->f->name,
				     (unsigned long long)(s->data_off + (uint64_t)s->slots_indexed * CCB_SLOT),
				     (unsigned long long)stray, stray == 1 ? "" : "s", s->slots_indexed,
				     stray == 1 ? "s" : "") == GAMEDB_FATAL ? -1 : 1;
	return 0;
}

static int32_t ccb_open(struct gamedb_reader *r, void **state)
{
	struct ccb *s = calloc(1, sizeof *s);
	const uint8_t *p;
	int32_t rc = GAMEDB_OK;

	if (!s)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	s->r = r;
	gamedb__stack_init(&s->pend, sizeof(struct gamedb__xq_pending), SIZE_MAX);
	gamedb__stack_init(&s->frames, sizeof(struct gamedb__xq_frame), CCB_MAX_DEPTH);
	*state = s;
	if (gamedb__src_open(&r->src, NULL, 0, &s->f) != 0)
		goto fail;
	if (gamedb__file_view(s->f, 0, 16, &p) != 16 ||
	    (memcmp(p, lib_magic, 16) != 0 && memcmp(p, rec_magic, 16) != 0)) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
			      "%s: offset 0: not a CCBridge file (no \"CCBridgeLibrary\" or \"CCBridge Record\")",
			      s->f->name);
		goto fail;
	}
	s->library = memcmp(p, lib_magic, 16) == 0;
	if (!s->library) {
		/* A record file: one game, all of the file. */
		s->ent = calloc(1, sizeof *s->ent);
		if (!s->ent) {
			gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
			goto fail;
		}
		s->nent = 1;
		s->ent[0].len = s->f->size > UINT32_MAX ? UINT32_MAX : (uint32_t)s->f->size;
		if (s->f->size < REC_MIN)
			s->ent[0].why = "the file is shorter than a record header";
		else if (s->f->size > UINT32_MAX)
			s->ent[0].why = "the file is larger than a record can be";
		return GAMEDB_OK;
	} else {
		uint32_t cap;
		int ix;
		if (gamedb__file_view(s->f, 60, 4, &p) != 4 || s->f->size < LIB_INDEX) {
			gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
				      "%s: offset %llu: truncated library header (it takes %u bytes)",
				      s->f->name, (unsigned long long)s->f->size, LIB_INDEX);
			goto fail;
		}
		cap = gamedb__le32(p);
		if (cap == 0 || (uint64_t)LIB_INDEX + (uint64_t)cap * LIB_ENTRY > s->f->size) {
			gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
				      "%s: offset 60: an index of %u entries (%llu bytes from offset %u) does not fit in the file's %llu bytes",
				      s->f->name, cap, (unsigned long long)cap * LIB_ENTRY, LIB_INDEX,
				      (unsigned long long)s->f->size);
			goto fail;
		}
		s->data_off = LIB_INDEX + (uint64_t)cap * LIB_ENTRY;
		ix = read_index(s, cap);
		if (ix < 0)
			goto fail;
		if (ix > 0)
			rc = GAMEDB_WARN;
	}
	return rc;
fail:
	ccb_close(s);
	*state = NULL;
	return GAMEDB_FATAL;
}

/* ---- headers ------------------------------------------------------------------------------ */

/* The start position from the record's 90 board bytes. 0, or -1 with *why. */
static int build_start(const struct ccb *s, struct gamedb__xqpos *pos, const char **why)
{
	static const uint8_t types[8] = { 0, GAMEDB__XQ_CHARIOT, GAMEDB__XQ_HORSE,
					  GAMEDB__XQ_ELEPHANT, GAMEDB__XQ_ADVISOR,
					  GAMEDB__XQ_GENERAL, GAMEDB__XQ_CANNON, GAMEDB__XQ_PAWN };
	unsigned i;

	memset(pos, 0, sizeof *pos);
	for (i = 0; i < 90; i++) {
		const uint8_t v = s->rec[CCB_REC_BOARD + i];
		if (v == 0)
			continue;
		if ((v >> 4) < 1 || (v >> 4) > 2 || (v & 15) < 1 || (v & 15) > 7) {
			*why = "a board byte that is no piece";
			return -1;
		}
		pos->sq[gamedb__ccb_square(i)] = GAMEDB__XQPC(types[v & 15], (v >> 4) - 1);
	}
	gamedb__xq_sync(pos);
	return 0;
}

/* Reads entry e's record into s->rec. 0, or -1 with g's message set (FAILED) or out of memory. */
static int load_record(struct ccb *s, struct gamedb_game *g, const struct ccb_entry *e)
{
	const uint8_t *p;
	int64_t got;

	if (gamedb__grow((void **)&s->rec, &s->rec_cap, e->len, 1) != 0) {
		gamedb__game_seterr(g, "%s: out of memory reading game %zu", s->f->name, s->next);
		return -1;
	}
	got = gamedb__file_view(s->f, e->off, e->len, &p);
	if (got != (int64_t)e->len) {
		gamedb__game_seterr(g, "%s: offset %llu: game %zu: cannot read its %u bytes",
				    s->f->name, (unsigned long long)e->off, s->next, e->len); /* s->next: the game counted from 1 */
		return -1;
	}
	memcpy(s->rec, p, e->len);
	s->rec_len = e->len;
	s->rec_off = e->off;
	if (memcmp(s->rec, rec_magic, 16) != 0) {
		gamedb__game_seterr(g, "%s: offset %llu: game %zu (index entry %u, slot %u): no \"CCBridge Record\" magic where its record starts",
				    s->f->name, (unsigned long long)e->off, s->next, e->entry, e->slot);
		return -1;
	}
	return 0;
}

static int32_t ccb_next_game(void *state, struct gamedb_game *g)
{
	static const char *const results[5] = { "*", "1-0", "0-1", "1/2-1/2", "*" };
	struct ccb *s = state;
	struct gamedb_reader *r = s->r;
	const struct ccb_entry *e;
	struct gamedb__xqpos pos;
	struct gamedb__buf dt = { 0 };
	const char *res, *why = NULL, *note;
	char date[11];
	size_t i, n;
	int bad_board;
	uint8_t first;

	if (s->next >= s->nent)
		return GAMEDB_END;
	e = &s->ent[s->next];
	g->index = s->next;
	g->deleted = e->deleted;
	g->variant = GAMEDB_VARIANT_XIANGQI;
	s->have_rec = 0;
	s->next++;
	if (e->why) {
		gamedb__game_seterr(g, "%s: offset %llu: game %llu (index entry %u): %s", s->f->name,
				    (unsigned long long)(s->library ? LIB_INDEX + (uint64_t)e->entry * LIB_ENTRY : 0),
				    (unsigned long long)g->index + 1, e->entry, e->why);
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "%s", g->errmsg);
	}
	if (load_record(s, g, e) != 0)
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "%s", g->errmsg);
	s->have_rec = 1;
	static const uint8_t zero[16];
	if (e->have_guid && memcmp(s->rec + 20, zero, 16) != 0 && memcmp(s->rec + 20, e->guid, 16) != 0) {
		/* The slots are not where the index says: the record read is another entry's. */
		gamedb__game_seterr(g, "%s: offset %llu: game %llu (index entry %u, slot %u): the record there is not the one the index entry names (its GUID differs)",
				    s->f->name, (unsigned long long)e->off, (unsigned long long)g->index + 1,
				    e->entry, e->slot);
		return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "%s", g->errmsg);
	}

	/* The Seven Tag Roster: Red is White, as xiangqi PGN has it. */
	if (add_field(s, g, "Event", 692, 64, "?") || add_field(s, g, "Site", 948, 64, "?"))
		goto nomem;
	n = u16_len(s->rec + 884, 64);
	if (gamedb__ccb_text(s, s->rec + 884, n, &dt, &note) == GAMEDB_FAILED)
		goto nomem;
	gamedb__date_from_text(dt.len ? (const uint8_t *)dt.p : (const uint8_t *)"", dt.len, date);
	gamedb__buf_free(&dt);
	if (gamedb__tags_add(&g->head, "Date", date, 10, n ? (const char *)s->rec + 884 : NULL, n,
			     gamedb__reader_charset(r)) ||
	    add_field(s, g, "Round", 756, 64, "?") || add_field(s, g, "White", 1076, 64, "?") ||
	    add_field(s, g, "Black", 1300, 64, "?"))
		goto nomem;
	res = s->rec[2076] <= 4 ? results[s->rec[2076]] : "*";
	if (gamedb__tags_add(&g->head, "Result", res, strlen(res), NULL, 0, NULL) ||
	    gamedb__tags_add(&g->head, "Variant", "xiangqi", 7, NULL, 0, NULL))
		goto nomem;

	/*
	 * The start position. The side to move is the colour of the first move's piece (what
	 * CCBridge plays); byte 2112 (1 Red, 2 Black) only when there is no move to tell.
	 */
	bad_board = build_start(s, &pos, &why) != 0;
	pos.stm = s->rec[2112] == 2;
	first = s->rec[CCB_REC_MOVES];
	if (!bad_board && !(first & 1) && s->rec_len >= REC_MIN + 4) {
		uint64_t at = REC_MIN + ((first & 4) ? 4 + (uint64_t)gamedb__le32(s->rec + REC_MIN) : 0);
		if (at + 4 <= s->rec_len) {
			int sq = gamedb__ccb_square(s->rec[at + 2]);
			if (sq >= 0 && pos.sq[sq])
				pos.stm = (uint8_t)GAMEDB__XQPC_COLOUR(pos.sq[sq]);
		}
	}
	if (bad_board || (first & 1)) {
		/*
		 * A record with no moves and an empty board is a section heading in a library (its
		 * title and comment are the text): a game with no moves from the standard start.
		 */
		for (i = 0; i < 90 && s->rec[CCB_REC_BOARD + i] == 0; i++)
			;
		if ((first & 1) && i == 90) {
			gamedb__xq_startpos(&pos);
			bad_board = 0;
		}
	}
	n = gamedb__le16(s->rec + 2116);
	pos.fullmove = n >= 1 && n <= 999 ? (uint32_t)n : 1;
	if (!bad_board && gamedb__xq_validate(&pos, &why) != 0)
		bad_board = 1;
	gamedb__xq_to_fen(&pos, g->fen, sizeof g->fen);
	g->xqstart = pos;
	g->have_start = !bad_board;
	if (strcmp(g->fen, GAMEDB__XQ_START_FEN) != 0 &&
	    (gamedb__tags_add(&g->head, "SetUp", "1", 1, NULL, 0, NULL) ||
	     gamedb__tags_add(&g->head, "FEN", g->fen, strlen(g->fen), NULL, 0, NULL)))
		goto nomem;
	for (i = 0; i < sizeof rec_tags / sizeof rec_tags[0]; i++)
		if (add_field(s, g, rec_tags[i].tag, rec_tags[i].off, rec_tags[i].len, NULL))
			goto nomem;
	s->table_why = bad_board ? (why ? why : "") : NULL;
	if (bad_board) {
		gamedb__game_seterr(g, "%s: offset %llu: game %llu: the start board is not a playable position: %s",
				    s->f->name, (unsigned long long)(s->rec_off + CCB_REC_BOARD),
				    (unsigned long long)g->index + 1, s->table_why);
		return gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT, "%s", g->errmsg);
	}
	return GAMEDB_OK;
nomem:
	return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
}

static int32_t ccb_seek(void *state, uint64_t index)
{
	struct ccb *s = state;

	if (index >= s->nent)
		return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_RANGE,
				     "gamedb_reader_seek_game: game %llu of %zu",
				     (unsigned long long)index, s->nent);
	s->next = (size_t)index;
	return GAMEDB_OK;
}

static int32_t ccb_count(void *state, uint64_t *out)
{
	*out = ((struct ccb *)state)->nent;
	return GAMEDB_OK;
}

/* ---- the library's own properties ---------------------------------------------------------- */

/*
 * The library header's text fields (doc/formats/ccbridge.md), in the order the properties are
 * given: UTF-16LE, each to its first NUL letter. The remarks are a memo box's text.
 */
static const struct {
	const char *name;
	uint32_t off, len;
} lib_props[] = {
	{ "name", 64, 512 },         { "source", 576, 256 },  { "creator", 832, 64 },
	{ "creator-email", 896, 64 }, { "created", 960, 64 }, { "modified", 1024, 64 },
	{ "remarks", 1088, 65536 },
};

/*
 * A library's name, source, creator, dates, remarks, GUID and index size (a record has no
 * properties: all it holds is its game's). A field with no NUL letter is read to its end and
 * an unpaired surrogate becomes U+FFFD: the first such repair is the warning.
 */
static int32_t ccb_properties(void *state, struct gamedb__props *out)
{
	struct ccb *s = state;
	struct gamedb_reader *r = s->r;
	struct gamedb__buf b = { 0 };
	const char *note = NULL, *what = NULL;
	uint32_t note_off = 0;
	int32_t note_code = 0;
	const uint8_t *p;
	char text[40];
	size_t i, n;

	if (!s->library)
		return GAMEDB_OK;
	for (i = 0; i < sizeof lib_props / sizeof lib_props[0]; i++) {
		const char *tnote;
		if (gamedb__file_view(s->f, lib_props[i].off, lib_props[i].len, &p) !=
		    (int64_t)lib_props[i].len)
			goto io; /* the open checked that the header is there */
		n = u16_len(p, lib_props[i].len);
		gamedb__buf_clear(&b);
		if (gamedb__ccb_text(s, p, n, &b, &tnote) == GAMEDB_FAILED)
			goto nomem;
		if (n + 1 >= lib_props[i].len)
			tnote = "it has no NUL terminator (read to the field's end)";
		if (tnote && !note) {
			note = tnote;
			what = lib_props[i].name;
			note_off = lib_props[i].off;
			note_code = n + 1 >= lib_props[i].len ? GAMEDB_E_CORRUPT : GAMEDB_E_ENCODING;
		}
		if (strcmp(lib_props[i].name, "remarks") == 0)
			gamedb__tidy_comment(&b, 0);
		if (gamedb__props_add(out, lib_props[i].name, b.len ? b.p : "", b.len) != 0)
			goto nomem;
	}
	/* The library's GUID, stored as a record's is (the first three groups little-endian). */
	if (gamedb__file_view(s->f, 20, 16, &p) != 16)
		goto io;
	snprintf(text, sizeof text, "{%08lX-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}",
		 (unsigned long)gamedb__le32(p), (unsigned)gamedb__le16(p + 4),
		 (unsigned)gamedb__le16(p + 6), p[8], p[9],
		 p[10], p[11], p[12], p[13], p[14], p[15]);
	if (gamedb__props_add(out, "guid", text, strlen(text)) != 0)
		goto nomem;
	if (gamedb__file_view(s->f, 60, 4, &p) != 4)
		goto io;
	snprintf(text, sizeof text, "%lu", (unsigned long)gamedb__le32(p));
	if (gamedb__props_add(out, "index-size", text, strlen(text)) != 0)
		goto nomem;
	gamedb__buf_free(&b);
	if (note)
		return gamedb__error(r, GAMEDB_WARN, note_code, "%s: offset %lu: library %s: %s",
				     s->f->name, (unsigned long)note_off, what, note);
	return GAMEDB_OK;
io:
	/* The open read this header: a caller's I/O that fails now. The rest is not given. */
	gamedb__buf_free(&b);
	return gamedb__error(r, GAMEDB_WARN, GAMEDB_E_IO,
			     "%s: cannot read the library header again (its properties after %s are not given)",
			     s->f->name, out->n ? out->v[out->n - 1].name : "none");
nomem:
	gamedb__buf_free(&b);
	return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
}

static const char *const ccb_extensions[] = { ".cbl", ".cbr", NULL };

const struct gamedb__format gamedb__format_ccbridge = {
	.abi = GAMEDB__FORMAT_ABI_1,
	.name = "ccbridge",
	.description = "CCBridge (象棋桥) Chinese chess libraries (.cbl) and records (.cbr)",
	.extensions = ccb_extensions,
	.opens = 2,
	.options = NULL,
	.caps = GAMEDB_CAP_XIANGQI | GAMEDB_CAP_VARIATIONS | GAMEDB_CAP_SEEK | GAMEDB_CAP_COUNT,
	.default_charset = "UTF-16LE",
	.default_fallback = NULL,
	.bid = ccb_bid,
	.open = ccb_open,
	.set_option = NULL,
	.next_game = ccb_next_game,
	.seek_game = ccb_seek,
	.game_count = ccb_count,
	.load_tags = NULL,
	.tag_surely_absent = NULL,
	.decode_moves = gamedb__ccb_decode,
	.properties = ccb_properties,
	.handle = NULL,
	.close = ccb_close,
};
