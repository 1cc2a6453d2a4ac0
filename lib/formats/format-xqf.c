/*
 * libgamedb - the XQF format: XQStudio xiangqi (Chinese chess) games, one game per file.
 *
 * Layout facts are in doc/formats/xqf.md. In short: a 1024-byte header (magic "XQ", version,
 * key bytes, a 32-byte piece table, Pascal strings), then from offset 0x400 a tree of move
 * records in pre-order, each with a child flag (the next move) and a sibling flag (an
 * alternative to this move). Versions 11 and later encrypt the piece table and every body
 * byte with keys derived from header bytes 3..15; version 12 and later also rotate the table.
 *
 * The whole file is read and its body decrypted at open (one game, at most XQF_MAX_FILE
 * bytes). The tree is parsed with an explicit stack into an array of nodes, then written out
 * in the order PGN wants (a move, its comment, the alternatives to it, then the next move),
 * again with an explicit stack: hostile files may nest variations or chain moves as deep as
 * their size allows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "formats/toolkit.h"

#define XQF_HEADER 1024u
/* The largest real file seen is 130 KiB; 4 MiB bounds what a hostile file can make us hold
 * (at most a million nodes). */
#define XQF_MAX_FILE (4u << 20)
#define XQF_MAX_VERSION 18
/* Variations nested deeper than this are dropped (with a warning), to bound the stack. */
#define XQF_MAX_DEPTH 10000u
#define NONE GAMEDB__XQ_NONE

/* Header offsets (see doc/formats/xqf.md). */
enum {
	H_VERSION = 2,
	H_KEYMASK = 3,
	H_KEYOR = 8,      /* 4 bytes: KeyOrA..D */
	H_KEYSUM = 12,
	H_KEYXY = 13,
	H_KEYXYF = 14,
	H_KEYXYT = 15,
	H_PIECES = 16,    /* 32 bytes */
	H_WHOPLAY = 50,
	H_RESULT = 51,
	H_TYPE = 64,
	H_TITLE = 80,     /* Pascal strings: a length byte, then the bytes */
	H_EVENT = 208,
	H_DATE = 272,
	H_SITE = 288,
	H_RED = 304,
	H_BLACK = 320,
	H_RULE = 336,
	H_REDTIME = 400,
	H_BLACKTIME = 416,
	H_COMMENTATOR = 464,
	H_AUTHOR = 480
};

/* The move tree: struct gamedb__xq_node (formats/toolkit.h), node 0 the root (the start
 * position); off is the record's file offset, com the comment's index in the body, from and
 * to XQF's squares as stored (x * 10 + y). Written out by gamedb__xq_walk_tree(). */



struct xqf {
	struct gamedb_reader *r;
	struct gamedb__file *f;
	int version;
	int done;           /* the game was handed out */
	const char *table_why; /* why the piece table is not playable (static text), or NULL */
	uint8_t hdr[XQF_HEADER];
	uint8_t key_from;   /* subtracted from move-from bytes */
	uint8_t key_to;     /* subtracted from move-to bytes */
	uint8_t key_xy;     /* piece-table key */
	uint32_t key_rmk;   /* subtracted from stored comment lengths */
	uint8_t *body;      /* decrypted bytes from 0x400 to the end of the file */
	size_t body_len;
	/* decoder scratch, kept between decodes */
	struct gamedb__xq_node *nodes;
	size_t nodes_cap;
	struct gamedb__stack pend;   /* struct gamedb__xq_pending */
	struct gamedb__stack frames; /* struct gamedb__xq_frame: the main line's, then the open variations */
};

/* What went wrong while decoding one game: the worst status and the first message for it. */
struct xproblems {
	int32_t status;
	unsigned more;  /* further problems of the same or lesser weight */
};

/* ---- keys ------------------------------------------------------------------------------- */

/* XQStudio's key polynomial ((((x*x*3+9)*3+8)*2+1)*3+8), which is 54x^2 + 221 mod 256. */
static uint8_t key_poly(uint8_t x)
{
	return (uint8_t)(54u * x * x + 221u);
}

/*
 * Derives the keys from header bytes 3..15 (versions 11 and later; earlier versions are
 * plain and all keys are 0) and decrypts the body: the byte at file offset p loses
 * F[p mod 32], where F is the copyright string masked byte by byte with four key bytes.
 */
static void derive_keys_and_decrypt(struct xqf *s, const uint8_t *file, size_t size)
{
	static const char copyright[33] = "[(C) Copyright Mr. Dong Shiwei.]";
	const uint8_t *h = s->hdr;
	uint8_t fkey[32] = { 0 };
	size_t i;

	s->key_xy = s->key_from = s->key_to = 0;
	s->key_rmk = 0;
	if (s->version >= 11) {
		uint8_t mask = h[H_KEYMASK], k[4];
		s->key_xy = (uint8_t)(key_poly(h[H_KEYXY]) * h[H_KEYXY]);
		s->key_from = (uint8_t)(key_poly(h[H_KEYXYF]) * s->key_xy);
		s->key_to = (uint8_t)(key_poly(h[H_KEYXYT]) * s->key_from);
		/* 16-bit arithmetic in XQStudio, not mod 256. */
		s->key_rmk = ((uint32_t)h[H_KEYSUM] * 256u + h[H_KEYXY]) % 32000u + 767u;
		for (i = 0; i < 4; i++)
			k[i] = (uint8_t)((h[H_KEYSUM + i] & mask) | h[H_KEYOR + i]);
		for (i = 0; i < 32; i++)
			fkey[i] = (uint8_t)(copyright[i] & k[i % 4]);
	}
	for (i = XQF_HEADER; i < size; i++)
		s->body[i - XQF_HEADER] = (uint8_t)(file[i] - fkey[i % 32]);
	/* The moves' own offsets: from - 0x18 - key_from, to - 0x20 - key_to. */
	s->key_from = (uint8_t)(s->key_from + 0x18);
	s->key_to = (uint8_t)(s->key_to + 0x20);
}

/* ---- bidding and opening ---------------------------------------------------------------- */

static int xqf_bid(struct gamedb__src *src)
{
	struct gamedb__file *f = src->nfiles ? src->files[0] : NULL;
	const uint8_t *p;

	if (!f || gamedb__file_view(f, 0, 3, &p) != 3 || p[0] != 'X' || p[1] != 'Q')
		return -1;
	/* Two magic bytes are weak: a known version and room for the header make it sure. An
	 * unknown version still wins when nothing else bids, so that open can say why. */
	if (p[2] >= 1 && p[2] <= XQF_MAX_VERSION)
		return f->size >= XQF_HEADER ? 100 : 60;
	return 30;
}

static void xqf_close(void *state)
{
	struct xqf *s = state;

	if (!s)
		return;
	free(s->body);
	free(s->nodes);
	gamedb__stack_free(&s->pend);
	gamedb__stack_free(&s->frames);
	free(s);
}

static int32_t xqf_open(struct gamedb_reader *r, void **state)
{
	struct xqf *s = calloc(1, sizeof *s);
	const uint8_t *p;
	int64_t got;
	int32_t rc = GAMEDB_OK;
	size_t size;

	if (!s)
		return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
	s->r = r;
	gamedb__stack_init(&s->pend, sizeof(struct gamedb__xq_pending), SIZE_MAX);
	gamedb__stack_init(&s->frames, sizeof(struct gamedb__xq_frame), XQF_MAX_DEPTH);
	*state = s;
	if (gamedb__src_open(&r->src, NULL, 0, &s->f) != 0)
		goto fail;
	if (s->f->size < XQF_HEADER) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
			      "%s: offset %llu: truncated header (an XQF header takes %u bytes)",
			      s->f->name, (unsigned long long)s->f->size, XQF_HEADER);
		goto fail;
	}
	if (s->f->size > XQF_MAX_FILE) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT,
			      "%s: offset 0: %llu bytes, more than any XQF game takes (limit %u)",
			      s->f->name, (unsigned long long)s->f->size, XQF_MAX_FILE);
		goto fail;
	}
	size = (size_t)s->f->size;
	got = gamedb__file_view(s->f, 0, size, &p);
	if (got < 0)
		goto fail;
	if ((size_t)got != size) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_IO, "%s: offset %lld: cannot read the file",
			      s->f->name, (long long)got);
		goto fail;
	}
	if (p[0] != 'X' || p[1] != 'Q') {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CORRUPT, "%s: offset 0: not an XQF file (no \"XQ\")",
			      s->f->name);
		goto fail;
	}
	memcpy(s->hdr, p, XQF_HEADER);
	s->version = p[H_VERSION];
	if (s->version < 1 || s->version > XQF_MAX_VERSION) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_UNSUPPORTED_VERSION,
			      "%s: offset 2: XQF version %d (this library reads 1 to %d)", s->f->name,
			      s->version, XQF_MAX_VERSION);
		goto fail;
	}
	s->body_len = size - XQF_HEADER;
	s->body = malloc(s->body_len ? s->body_len : 1);
	if (!s->body) {
		gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
		goto fail;
	}
	derive_keys_and_decrypt(s, p, size);
	/* XQStudio refuses encrypted files whose four key bytes do not sum to 0 mod 256; we
	 * read them anyway (the keys are what they are) but say so. */
	if (s->version >= 11 &&
	    (uint8_t)(s->hdr[H_KEYSUM] + s->hdr[H_KEYXY] + s->hdr[H_KEYXYF] + s->hdr[H_KEYXYT]) != 0)
		rc = gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT,
				   "%s: offset 12: the key bytes fail XQStudio's checksum; moves may decode wrongly",
				   s->f->name);
	return rc;
fail:
	xqf_close(s);
	*state = NULL;
	return GAMEDB_FATAL;
}

/* ---- the tree records ------------------------------------------------------------------- */

struct xrec {
	uint8_t from, to;
	uint8_t child, sib;
	uint32_t com, clen;
	size_t next;        /* body index after the record */
};

/*
 * Reads the record at body index p. Versions up to 10: flag byte & 0xF0 = has a child, & 0x0F
 * = has a sibling, and a 4-byte comment length always follows. Later versions: 0x80 child,
 * 0x40 sibling, 0x20 a comment length follows (stored plus key_rmk). 0; -1 with *why when
 * the file ends inside the record; -2 with *why when its comment length cannot be right.
 */
static int read_record(const struct xqf *s, size_t p, struct xrec *rc, const char **why)
{
	const uint8_t *b;
	size_t left;
	uint8_t tag;
	int has_com;

	if (p > s->body_len || s->body_len - p < 4) {
		*why = "the file ends inside a move record";
		return -1;
	}
	b = s->body + p;
	left = s->body_len - p - 4;
	tag = b[2];
	rc->from = (uint8_t)(b[0] - s->key_from);
	rc->to = (uint8_t)(b[1] - s->key_to);
	if (s->version <= 10) {
		rc->child = (tag & 0xF0) != 0;
		rc->sib = (tag & 0x0F) != 0;
		has_com = 1;
	} else {
		rc->child = (tag & 0x80) != 0;
		rc->sib = (tag & 0x40) != 0;
		has_com = (tag & 0x20) != 0;
	}
	rc->com = (uint32_t)(p + 4);
	rc->clen = 0;
	if (has_com) {
		int64_t clen;
		if (left < 4) {
			*why = "the file ends inside a comment length";
			return -1;
		}
		clen = (int64_t)gamedb__le32(b + 4) - (int64_t)s->key_rmk;
		left -= 4;
		rc->com += 4;
		if (clen < 0) {
			*why = "negative comment length";
			return -2;
		}
		if ((uint64_t)clen > left) {
			*why = "comment length larger than the rest of the file";
			return -2;
		}
		rc->clen = (uint32_t)clen;
	}
	rc->next = (size_t)rc->com + rc->clen;
	return 0;
}

/* ---- headers ---------------------------------------------------------------------------- */

/*
 * The text of the Pascal string at off (a length byte, at most cap bytes): up to the first NUL,
 * and without a last double-byte letter that XQStudio's fixed field cut in half (the bytes
 * stay available as the tag's raw value only through the field; see doc/formats/xqf.md).
 */
static size_t field(const struct xqf *s, int off, size_t cap, const uint8_t **text)
{
	const uint8_t *p = s->hdr + off + 1;
	size_t n = s->hdr[off];
	const uint8_t *nul;

	if (n > cap)
		n = cap;
	nul = memchr(p, 0, n);
	if (nul)
		n = (size_t)(nul - p);
	*text = p;
	return gamedb__text_complete_len(&s->r->text, gamedb__reader_charset(s->r),
					 (const char *)p, n);
}

static int add_text_tag(struct xqf *s, struct gamedb_game *g, const char *name, int off,
			size_t cap, const char *dflt)
{
	const uint8_t *t;
	size_t n = field(s, off, cap, &t);

	if (n == 0) {
		if (!dflt)
			return 0;
		return gamedb__tags_add(&g->head, name, dflt, strlen(dflt), NULL, 0, NULL) ? -1 : 0;
	}
	return gamedb__game_add_tag_raw(g, &g->head, name, (const char *)t, n,
					gamedb__reader_charset(s->r)) == GAMEDB_FAILED ? -1 : 0;
}

/* Piece types of the 16 slots of each side in the piece table. */
static const uint8_t slot_type[16] = {
	GAMEDB__XQ_CHARIOT, GAMEDB__XQ_HORSE, GAMEDB__XQ_ELEPHANT, GAMEDB__XQ_ADVISOR,
	GAMEDB__XQ_GENERAL, GAMEDB__XQ_ADVISOR, GAMEDB__XQ_ELEPHANT, GAMEDB__XQ_HORSE,
	GAMEDB__XQ_CHARIOT, GAMEDB__XQ_CANNON, GAMEDB__XQ_CANNON, GAMEDB__XQ_PAWN,
	GAMEDB__XQ_PAWN, GAMEDB__XQ_PAWN, GAMEDB__XQ_PAWN, GAMEDB__XQ_PAWN
};

/* An XQF square (x * 10 + y, x = file from Red's left, y = rank from Red's side) as ours. */
static int xq_square(unsigned v)
{
	return v > 89 ? -1 : (int)((v % 10) * 9 + v / 10);
}

static void square_name(uint8_t v, char out[4])
{
	if (v > 89) {
		snprintf(out, 4, "%u", v);
		return;
	}
	out[0] = (char)('a' + v / 10);
	out[1] = (char)('0' + v % 10);
	out[2] = 0;
}

/*
 * The start position from the piece table: version 12 and later rotate it by key_xy + 1,
 * version 11 and later add key_xy to every square; > 89 is an absent piece. 0, or -1 with
 * *why when two pieces share a square (pos then holds the first of them); the rest is checked
 * by gamedb__xq_validate().
 */
static int build_start(const struct xqf *s, struct gamedb__xqpos *pos, const char **why)
{
	uint8_t table[32];
	int i, shared = 0;

	for (i = 0; i < 32; i++) {
		int at = s->version >= 12 ? (s->key_xy + 1 + i) % 32 : i;
		table[at] = s->hdr[H_PIECES + i];
	}
	memset(pos, 0, sizeof *pos);
	for (i = 0; i < 32; i++) {
		int sq = xq_square((uint8_t)(table[i] - s->key_xy));
		if (sq < 0)
			continue;
		if (pos->sq[sq])
			shared = 1; /* the first piece keeps the square (for the FEN shown) */
		else
			pos->sq[sq] = GAMEDB__XQPC(slot_type[i % 16], i / 16);
	}
	pos->fullmove = 1;
	gamedb__xq_sync(pos);
	if (shared) {
		*why = "two pieces on one square";
		return -1;
	}
	return 0;
}

static int32_t xqf_next_game(void *state, struct gamedb_game *g)
{
	struct xqf *s = state;
	struct gamedb_reader *r = s->r;
	static const char *const results[5] = { "*", "1-0", "0-1", "1/2-1/2", "1/2-1/2" };
	static const char *const types[4] = { "full", "opening", "middlegame", "endgame" };
	const char *res, *why = NULL, *rwhy;
	const uint8_t *t;
	size_t n;
	char date[11], num[8];
	struct gamedb__xqpos pos;
	struct xrec root, first;
	int side, bad_table;

	if (s->done)
		return GAMEDB_END;
	s->done = 1;
	g->index = 0;
	g->variant = GAMEDB_VARIANT_XIANGQI;

	/* The Seven Tag Roster: Red is White, as xiangqi PGN has it. */
	n = field(s, H_EVENT, 63, &t);
	if (add_text_tag(s, g, "Event", n ? H_EVENT : H_TITLE, 63, "?") ||
	    add_text_tag(s, g, "Site", H_SITE, 15, "?"))
		goto nomem;
	n = field(s, H_DATE, 15, &t);
	gamedb__date_from_text(t, n, date);
	/* The stored text stays reachable as the tag's raw value. */
	if (gamedb__tags_add(&g->head, "Date", date, 10, n ? (const char *)t : NULL, n,
			     gamedb__reader_charset(r)) ||
	    gamedb__tags_add(&g->head, "Round", "?", 1, NULL, 0, NULL) ||
	    add_text_tag(s, g, "White", H_RED, 15, "?") ||
	    add_text_tag(s, g, "Black", H_BLACK, 15, "?"))
		goto nomem;
	res = s->hdr[H_RESULT] <= 4 ? results[s->hdr[H_RESULT]] : "*";
	if (gamedb__tags_add(&g->head, "Result", res, strlen(res), NULL, 0, NULL) ||
	    gamedb__tags_add(&g->head, "Variant", "xiangqi", 7, NULL, 0, NULL))
		goto nomem;

	/* The start position. The side to move is the colour of the first move's piece (what
	 * XQStudio plays); header byte 50 only when there is no move to tell. */
	bad_table = build_start(s, &pos, &why) != 0;
	side = s->hdr[H_WHOPLAY] == 1;
	if (read_record(s, 0, &root, &rwhy) == 0 && root.child &&
	    read_record(s, root.next, &first, &rwhy) == 0) {
		int sq = xq_square(first.from);
		if (sq >= 0 && pos.sq[sq])
			side = GAMEDB__XQPC_COLOUR(pos.sq[sq]);
	}
	pos.stm = (uint8_t)side;
	if (!bad_table && gamedb__xq_validate(&pos, &why) != 0)
		bad_table = 1;
	gamedb__xq_to_fen(&pos, g->fen, sizeof g->fen);
	g->xqstart = pos;
	g->have_start = !bad_table;
	if (strcmp(g->fen, GAMEDB__XQ_START_FEN) != 0 &&
	    (gamedb__tags_add(&g->head, "SetUp", "1", 1, NULL, 0, NULL) ||
	     gamedb__tags_add(&g->head, "FEN", g->fen, strlen(g->fen), NULL, 0, NULL)))
		goto nomem;

	if (add_text_tag(s, g, "Title", H_TITLE, 63, NULL) ||
	    add_text_tag(s, g, "TimeControl", H_RULE, 63, NULL) ||
	    add_text_tag(s, g, "RedTime", H_REDTIME, 15, NULL) ||
	    add_text_tag(s, g, "BlackTime", H_BLACKTIME, 15, NULL) ||
	    add_text_tag(s, g, "Annotator", H_COMMENTATOR, 15, NULL) ||
	    add_text_tag(s, g, "Author", H_AUTHOR, 15, NULL))
		goto nomem;
	if (s->hdr[H_TYPE] < 4) {
		if (gamedb__tags_add(&g->head, "GameType", types[s->hdr[H_TYPE]],
				     strlen(types[s->hdr[H_TYPE]]), NULL, 0, NULL))
			goto nomem;
	} else {
		snprintf(num, sizeof num, "%u", s->hdr[H_TYPE]);
		if (gamedb__tags_add(&g->head, "GameType", num, strlen(num), NULL, 0, NULL))
			goto nomem;
	}
	s->table_why = bad_table ? (why ? why : "") : NULL;
	if (bad_table) {
		/* The header is fine; the moves cannot be played (decode says so too). */
		gamedb__game_seterr(g, "%s: offset %d: the piece table is not a playable position: %s",
				    s->f->name, H_PIECES, why ? why : "");
		return gamedb__error(r, GAMEDB_WARN, GAMEDB_E_CORRUPT, "%s", g->errmsg);
	}
	return GAMEDB_OK;
nomem:
	return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_NOMEM, "out of memory");
}

static int32_t xqf_seek(void *state, uint64_t index)
{
	struct xqf *s = state;

	if (index != 0)
		return gamedb__error(s->r, GAMEDB_FAILED, GAMEDB_E_RANGE,
				     "gamedb_reader_seek_game: game %llu of 1 (an XQF file holds one game)",
				     (unsigned long long)index);
	s->done = 0;
	return GAMEDB_OK;
}

static int32_t xqf_count(void *state, uint64_t *out)
{
	(void)state;
	*out = 1;
	return GAMEDB_OK;
}

/* ---- moves ------------------------------------------------------------------------------ */

/* Records a problem; the game's message is the first problem of the worst kind. */
static void problem(struct xproblems *pb, struct gamedb_game *g, int32_t status, const char *fmt, ...)
	GAMEDB__PRINTF(4, 5);

static void problem(struct xproblems *pb, struct gamedb_game *g, int32_t status, const char *fmt, ...)
{
	va_list ap;

	if (status >= pb->status && pb->status != GAMEDB_OK) {
		pb->more++; /* not worse than what is already reported */
		return;
	}
	if (pb->status != GAMEDB_OK)
		pb->more++;
	pb->status = status;
	va_start(ap, fmt);
	vsnprintf(g->errmsg, sizeof g->errmsg, fmt, ap);
	va_end(ap);
}

/*
 * Reads the whole tree into s->nodes (node 0 the root). A record that cannot be read ends the
 * tree there: the nodes before it stay. Returns the node count, or 0 when out of memory.
 */
static size_t parse_tree(struct xqf *s, struct gamedb_game *g, struct xproblems *pb)
{
	size_t n = 0, p = 0;
	struct xrec rc;
	struct gamedb__xq_pending *top;
	const char *why = NULL;

	if (gamedb__grow((void **)&s->nodes, &s->nodes_cap, 1, sizeof *s->nodes) != 0)
		return 0;
	memset(&s->nodes[0], 0, sizeof s->nodes[0]);
	s->nodes[0].off = XQF_HEADER;
	s->nodes[0].child = s->nodes[0].sib = NONE;
	s->nodes[0].main = 1;
	n = 1;
	if (read_record(s, 0, &rc, &why) != 0) {
		problem(pb, g, GAMEDB_WARN, "%s: offset %u: no start record: %s", s->f->name,
			XQF_HEADER, why);
		return n;
	}
	/* The root's move bytes mean nothing; its comment comes before the first move, and a
	 * sibling flag on it would be meaningless too (the root has no parent). */
	s->nodes[0].com = rc.com;
	s->nodes[0].clen = rc.clen;
	p = rc.next;
	gamedb__stack_clear(&s->pend);
	if (rc.child && gamedb__xq_promise(&s->pend, 0, NONE) != 0)
		return 0;
	/* Pre-order: a node, then its child's subtree, then its next sibling's. */
	while ((top = gamedb__stack_pop(&s->pend)) != NULL) {
		const struct gamedb__xq_pending pd = *top;
		struct gamedb__xq_node *nd;
		uint32_t id;
		int rd;

		rd = read_record(s, p, &rc, &why);
		if (rd != 0) {
			const struct gamedb__xq_node *par = &s->nodes[pd.parent];
			/* The main line is cut when the lost record was its next move. */
			int on_main = par->main && pd.prev == NONE;
			const char *what = pd.prev == NONE ? "next move" : "alternative move";
			uint32_t of = pd.prev == NONE ? par->off : s->nodes[pd.prev].off;
			if (rd == -1)
				problem(pb, g, on_main ? GAMEDB_FAILED : GAMEDB_WARN,
					"%s: offset %llu: the %s promised by the record at offset %u is missing: %s",
					s->f->name, (unsigned long long)(p + XQF_HEADER), what, of, why);
			else
				problem(pb, g, on_main ? GAMEDB_FAILED : GAMEDB_WARN,
					"%s: offset %llu: %s (in the %s of the record at offset %u); the records from there on are lost",
					s->f->name, (unsigned long long)(p + XQF_HEADER), why, what, of);
			break;
		}
		if (n >= UINT32_MAX - 1 ||
		    gamedb__grow((void **)&s->nodes, &s->nodes_cap, n + 1, sizeof *s->nodes) != 0)
			return 0;
		id = (uint32_t)n++;
		nd = &s->nodes[id];
		nd->off = (uint32_t)(p + XQF_HEADER);
		nd->child = nd->sib = NONE;
		nd->com = rc.com;
		nd->clen = rc.clen;
		nd->from = rc.from;
		nd->to = rc.to;
		p = rc.next;
		if (gamedb__xq_link(s->nodes, &pd, id, rc.child, rc.sib, &s->pend) != 0)
			return 0;
	}
	/* The tree ended before the file: said, not read. */
	if (!top && gamedb__xq_unread_after(s->body, p, s->body_len))
		problem(pb, g, GAMEDB_WARN,
			"%s: offset %llu: %llu bytes after the end of the move tree are not read "
			"(records no child or sibling flag leads to?)",
			s->f->name, (unsigned long long)(p + XQF_HEADER),
			(unsigned long long)(s->body_len - p));
	return n;
}

/* Adds a node's comment (GB18030 by default), its stored bytes kept after the UTF-8 text. */
static int add_comment(struct xqf *s, struct gamedb__movebuf *mb, const struct gamedb__xq_node *nd, int type,
		       int32_t *text_status)
{
	const char *raw = (const char *)s->body + nd->com;
	size_t len = nd->clen, off = mb->text.len;
	int32_t rc;

	while (len > 0 && raw[len - 1] == 0) /* some writers pad with NULs */
		len--;
	if (len == 0)
		return 0;
	if (off > UINT32_MAX / 2 || len > UINT32_MAX / 8)
		return -1;
	rc = gamedb__text_to_utf8(&s->r->text, gamedb__reader_charset(s->r),
				  gamedb__reader_fallback(s->r), raw, len, &mb->text);
	if (rc == GAMEDB_FAILED)
		return -1;
	gamedb__tidy_comment(&mb->text, off);
	if (mb->text.len == off) /* only blank lines */
		return 0;
	if (gamedb__mb_text_end(mb, type, off) != 0 ||
	    gamedb__mb_raw(mb, raw, len) != 0)
		return -1;
	if (rc == GAMEDB_WARN)
		*text_status = GAMEDB_WARN;
	return 0;
}

/* What gamedb__xq_walk_tree() calls back with: the base, the game, its problems. */
struct xq_walk {
	struct xqf *s;
	struct gamedb_game *g;
	struct gamedb__movebuf *mb;
	struct xproblems *pb;
	int32_t *text_status;
};

static void bad_move(void *ctx, int32_t status, const struct gamedb__xqpos *pos,
		     const struct gamedb__xq_node *nd, const char *why)
{
	const struct xq_walk *w = ctx;
	struct xqf *s = w->s;
	char mv[24], a[4], b[4];

	square_name(nd->from, a);
	square_name(nd->to, b);
	if (nd->from <= 89 && nd->to <= 89)
		snprintf(mv, sizeof mv, "%s%s", a, b);
	else
		snprintf(mv, sizeof mv, "(squares %s to %s)", a, b);
	problem(w->pb, w->g, status, "%s: offset %u: move %u%s %s: %s%s", s->f->name, nd->off,
		(unsigned)pos->fullmove, pos->stm ? "..." : ".", mv, why,
		status == GAMEDB_FAILED ? "" : " (the variation from there is left out)");
}

static void walk_too_deep(void *ctx, const struct gamedb__xq_node *nd)
{
	struct xq_walk *w = ctx;

	problem(w->pb, w->g, GAMEDB_WARN, "%s: offset %u: variations nested deeper than %u are left out",
		w->s->f->name, nd->off, XQF_MAX_DEPTH);
}

static int walk_comment(void *ctx, const struct gamedb__xq_node *nd)
{
	struct xq_walk *w = ctx;

	return add_comment(w->s, w->mb, nd, GAMEDB_EVENT_COMMENT_AFTER, w->text_status);
}

static int32_t xqf_decode(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb)
{
	struct xqf *s = state;
	struct xproblems pb = { GAMEDB_OK, 0 };
	int32_t text_status = GAMEDB_OK;
	struct xq_walk xw = { s, g, mb, &pb, &text_status };
	struct gamedb__xq_walk w = { NULL,          &s->frames,   xq_square,   bad_move,
				     walk_too_deep, walk_comment, &xw };
	size_t nn;

	if (!g->have_start) {
		gamedb__game_seterr(g, "%s: offset %d: the piece table is not a playable position: %s",
				    s->f->name, H_PIECES, s->table_why ? s->table_why : "");
		return GAMEDB_FAILED;
	}
	nn = parse_tree(s, g, &pb);
	if (nn == 0)
		goto nomem;
	if (s->nodes[0].clen && add_comment(s, mb, &s->nodes[0], GAMEDB_EVENT_COMMENT_BEFORE,
					    &text_status) != 0)
		goto nomem;
	w.nodes = s->nodes; /* as parse_tree() left them (it may move them) */
	if (gamedb__xq_walk_tree(&w, &g->xqstart, mb) != 0)
		goto nomem;
	if (pb.more) {
		size_t len = strlen(g->errmsg);
		snprintf(g->errmsg + len, sizeof g->errmsg - len, " (and %u more problem%s)", pb.more,
			 pb.more == 1 ? "" : "s");
	}
	if (pb.status != GAMEDB_OK)
		return pb.status;
	if (text_status == GAMEDB_WARN)
		gamedb__game_seterr(g, "%s: a comment could not be converted from %s without loss",
				    s->f->name, gamedb__reader_charset(s->r));
	return text_status;
nomem:
	gamedb__game_seterr(g, "%s: out of memory decoding the moves", s->f->name);
	/* The legal part stays a well-formed stream: close the variations left open. */
	gamedb__var_close_open(mb);
	return GAMEDB_FAILED;
}

static const char *const xqf_extensions[] = { ".xqf", NULL };

const struct gamedb__format gamedb__format_xqf = {
	.abi = GAMEDB__FORMAT_ABI_1,
	.name = "xqf",
	.description = "XQF Chinese chess games (XQStudio, versions 1.0 to 18)",
	.extensions = xqf_extensions,
	.opens = 1,
	.options = NULL,
	.caps = GAMEDB_CAP_XIANGQI | GAMEDB_CAP_VARIATIONS | GAMEDB_CAP_SEEK | GAMEDB_CAP_COUNT,
	.default_charset = "GB18030",
	.default_fallback = NULL,
	.bid = xqf_bid,
	.open = xqf_open,
	.set_option = NULL,
	.next_game = xqf_next_game,
	.seek_game = xqf_seek,
	.game_count = xqf_count,
	.load_tags = NULL,
	.tag_surely_absent = NULL,
	.decode_moves = xqf_decode,
	.handle = NULL,
	.close = xqf_close,
};
