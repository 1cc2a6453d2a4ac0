/*
 * libgamedb - robustness against hostile input, through the public API only.
 *
 * For every real SCID base under $GAMEDB_REALDATA/scid (si4 and si3) and $GAMEDB_REALDATA/scid5
 * (si5), and with fewer variants for the small bases of $GAMEDB_TESTDATA/scid, the three files
 * (one of the file sets of the table `filesets` below) are loaded into memory and then damaged in
 * three ways before the base is opened with gamedb_reader_open_memory_set() and walked with every
 * accessor, both writers and gamedb_game_dup():
 *   (a) each file truncated at 64 points spread over its length;
 *   (b) random byte flips (a fixed-seed xorshift PRNG: 1, 4 or 32 flipped bytes, a few hundred
 *       variants per base, spread over the three files);
 *   (c) structured attacks: huge game counts, name counts larger than the file, record offsets
 *       and lengths past the end of the .sg file, lengths over 128 KiB, a name prefix longer than
 *       its name, deep variation nesting, a move byte for a piece slot that does not exist, ...
 *       For si5: a name-log length varint that runs past the end of the file or past 64 bits, a
 *       name longer than the file, an unknown name type, name, site and round ids out of range,
 *       game offsets and lengths past the end of the .sg5, an index that is not a whole number
 *       of records, empty files, database information that is too long or not UTF-8.
 *
 * What must hold: no crash, hang or sanitizer report (the test is meant to run under
 * ASan/UBSan in a -Db_sanitize=address,undefined build); every status is one the API
 * documents for that call; every message of a failed open or a failed game is non-empty, names
 * the file and gives an offset; and for flips in the .sg file, a game whose record bytes were
 * not touched still gives the same PGN as on the pristine base (our own output on unmodified
 * input is the reference only for this isolation property). An si5 base is told by its name, so
 * no open of its files may end in GAMEDB_E_UNRECOGNIZED_FORMAT, and every variant of it is also
 * walked by fuzz/fuzz-walk.h (whatever the API does not allow aborts).
 *
 * A last test opens a base from read-only files on disk and checks that a full walk leaves
 * them unchanged.
 *
 * Arguments: the index extensions of the file sets to test (".si4 .si3", ".si5"); none: all.
 * Without any base (no realdata and no testdata/scid) the test is skipped (exit 77).
 *
 * Which games get their moves decoded is bounded per variant (every game of a small base; the
 * touched games plus a sample on a large one) to keep the run to a few tens of seconds under
 * ASan. Every game's headers are always read.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gamedb/gamedb.h>

#include "../fuzz/fuzz-walk.h"
#include "load-file.h"
#include "testlib.h"
#include "walk-files.h"

#define NTRUNC 64
#define FLIP_VARIANTS 300 /* per base, spread over the three files */
#define NTRUNC_LIGHT 32   /* the same for the small bases of testdata/scid */
#define FLIP_VARIANTS_LIGHT 90
#define SMALL_BASE 100    /* bases with at most this many games are decoded in full */
#define SAMPLE 8          /* otherwise: the touched games plus this many others */
#define MAX_EVENTS ((size_t)1 << 23)
#define MAX_BASES 32

/* ---- reporting ------------------------------------------------------------------------- */

static int printed;
static char variant_desc[1500]; /* what the current variant did, for failure messages */

#define HCHECK(cond, ...)                                                                      \
	do {                                                                                   \
		if (cond) {                                                                    \
			testlib_passed++;                                                      \
		} else {                                                                       \
			testlib_failed++;                                                      \
			if (printed++ < 60) {                                                  \
				fprintf(stderr, "%s:%d: [%s] check failed: %s: ", __FILE__,     \
					__LINE__, variant_desc, #cond);                        \
				fprintf(stderr, __VA_ARGS__);                                  \
				fputc('\n', stderr);                                           \
			}                                                                      \
		}                                                                              \
	} while (0)

struct stats {
	unsigned long opens, open_fatal, open_warn;
	unsigned long games, games_failed, games_warn, decoded, decode_failed;
	unsigned long events, variants, isolation_checked;
};

static struct stats st;

/* ---- a fixed-seed PRNG (xorshift64*) ---------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

static uint64_t rnd_below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* ---- UTF-8 ---------------------------------------------------------------------------- */

#include "utf8-check.h"

/* The header promises that every string the library returns is UTF-8. NULL counts as valid. */
#define CHECK_UTF8(str, what)                                                                  \
	do {                                                                                   \
		const char *u8_ = (str);                                                       \
		HCHECK(!u8_ || utf8_valid(u8_, strlen(u8_)), "%s is not UTF-8", what);         \
	} while (0)

/* ---- hashing sinks ---------------------------------------------------------------------- */

struct hsink {
	uint64_t h;
	size_t n;
	int bad_utf8;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001B3ull;
	}
	return h;
}

static int32_t sink_hash(void *ud, const char *data, size_t len)
{
	struct hsink *s = ud;

	if (!utf8_valid(data, len))
		s->bad_utf8 = 1;
	s->h = fnv(s->h, data, len);
	s->n += len;
	return 0;
}

static int discard_bad_utf8; /* set by sink_discard */

static int32_t sink_discard(void *ud, const char *data, size_t len)
{
	size_t *total = ud;

	if (!utf8_valid(data, len))
		discard_bad_utf8 = 1;
	*total += len;
	return 0;
}

static int32_t sink_stop(void *ud, const char *data, size_t len)
{
	(void)ud;
	(void)data;
	(void)len;
	return 1;
}

/* ---- bases ----------------------------------------------------------------------------- */

enum { SI, SN, SG };

struct base;

/* A SCID file set: what differs between si4, si3 and si5 for this test. */
struct fileset {
	const char *ext[3];   /* index, names, games */
	int version;          /* as gamedb_scid_get_version() gives it */
	size_t hdr, rec;      /* index header and record size */
	size_t sn_hdr;        /* name file header */
	int by_name;          /* told by its name: no open ends in GAMEDB_E_UNRECOGNIZED_FORMAT */
	int fuzz_walk;        /* every variant is also walked by fuzz/fuzz-walk.h */
	void (*attacks)(struct base *b);
};

static void attacks_scid4(struct base *b);
static void attacks_scid5(struct base *b);

static const struct fileset filesets[] = {
	{ { ".si4", ".sn4", ".sg4" }, 400, 182, 47, 36, 0, 0, attacks_scid4 },
	{ { ".si3", ".sn3", ".sg3" }, 300, 128, 46, 36, 0, 0, attacks_scid4 },
	{ { ".si5", ".sn5", ".sg5" }, 500, 0, 56, 0, 1, 1, attacks_scid5 },
};

struct base {
	char path[1024];  /* index path, for messages */
	int light;        /* a testdata base: fewer variants */
	char stem[256];   /* "tactics" */
	char names[3][300];
	const struct fileset *set;
	int version;      /* 300, 400 or 500 */
	size_t hdr, rec;  /* index header and record size */
	uint8_t *data[3];
	size_t size[3];
	uint32_t ngames;  /* as the pristine index says */
	uint32_t *sg_off, *sg_len; /* pristine record locations, by game */
	uint64_t *pgn_hash;        /* pristine PGN hash, by game */
	int32_t *pgn_status;       /* pristine write status, by game */
};

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be24(const uint8_t *p) { return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]; }
static uint32_t be32(const uint8_t *p) { return be24(p) << 8 | p[3]; }
static void put_be16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put_be24(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 16); put_be16(p + 1, v); }
static void put_be32(uint8_t *p, uint32_t v) { put_be16(p, v >> 16); put_be16(p + 2, v); }

/* The record of game i in an index buffer (version v): offset and length in the .sg file. */
static void index_loc(const uint8_t *si, int version, size_t hdr, size_t rec, uint32_t i,
		      uint32_t *off, uint32_t *len)
{
	const uint8_t *p = si + hdr + (size_t)i * rec;

	/* si5: word 8 is length << 15 | offset bits 32..46; word 9 the offset's bits 0..31 */
	if (version == 500) {
		*off = fuzz_le32(p + 36);
		*len = fuzz_le32(p + 32) >> 15;
		return;
	}
	*off = be32(p);
	*len = be16(p + 4);
	if (version == 400 && (p[6] & 0x80))
		*len |= 0x10000;
}

static void set_index_loc(uint8_t *si, int version, size_t hdr, size_t rec, uint32_t i,
			  uint32_t off, uint32_t len)
{
	uint8_t *p = si + hdr + (size_t)i * rec;

	if (version == 500) {
		put_le32(p + 36, off);
		put_le32(p + 32, len << 15);
		return;
	}
	put_be32(p, off);
	put_be16(p + 4, len & 0xFFFF);
	if (version == 400)
		p[6] = (uint8_t)((p[6] & 0x7F) | ((len >> 16) & 1 ? 0x80 : 0));
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static struct base *bases[MAX_BASES];
static int nbases;

static int adding_light;

static void add_base(const char *index_path, const struct fileset *set)
{
	int k;
	size_t plen = strlen(index_path);
	const char *slash = strrchr(index_path, '/');
	struct base *b;

	if (nbases == MAX_BASES || plen >= sizeof b->path)
		return;
	b = calloc(1, sizeof *b);
	if (!b)
		abort();
	memcpy(b->path, index_path, plen + 1);
	b->light = adding_light;
	snprintf(b->stem, sizeof b->stem, "%.*s", (int)(plen - 4 - (slash ? (size_t)(slash + 1 - index_path) : 0)),
		 slash ? slash + 1 : index_path);
	for (k = 0; k < 3; k++) {
		char p[1100];
		snprintf(b->names[k], sizeof b->names[k], "%s%s", b->stem, set->ext[k]);
		snprintf(p, sizeof p, "%.*s%s", (int)(plen - 4), index_path, set->ext[k]);
		b->data[k] = load_file(p, &b->size[k]);
		if (!b->data[k]) {
			fprintf(stderr, "cannot read %s: %s (base left out)\n", p, strerror(errno));
			while (k-- > 0)
				free(b->data[k]);
			free(b);
			return;
		}
	}
	b->set = set;
	b->version = set->version;
	b->hdr = set->hdr;
	b->rec = set->rec;
	if (b->size[SI] < b->hdr) {
		fprintf(stderr, "%s: shorter than its header (base left out)\n", b->path);
		for (k = 0; k < 3; k++)
			free(b->data[k]);
		free(b);
		return;
	}
	/* an si5 index has no header: its games are its whole records */
	b->ngames = b->hdr ? be24(b->data[SI] + 14) : (uint32_t)(b->size[SI] / b->rec);
	if (b->hdr + (uint64_t)b->ngames * b->rec > b->size[SI])
		b->ngames = (uint32_t)((b->size[SI] - b->hdr) / b->rec);
	b->sg_off = calloc(b->ngames + 1, sizeof *b->sg_off);
	b->sg_len = calloc(b->ngames + 1, sizeof *b->sg_len);
	b->pgn_hash = calloc(b->ngames + 1, sizeof *b->pgn_hash);
	b->pgn_status = calloc(b->ngames + 1, sizeof *b->pgn_status);
	if (!b->sg_off || !b->sg_len || !b->pgn_hash || !b->pgn_status)
		abort();
	for (uint32_t i = 0; i < b->ngames; i++)
		index_loc(b->data[SI], b->version, b->hdr, b->rec, i, &b->sg_off[i], &b->sg_len[i]);
	bases[nbases++] = b;
}

/* The index extensions named on the command line (none: every file set). */
static char **wanted_ext;
static int nwanted;

static int wanted(const struct fileset *set)
{
	int i;

	for (i = 0; i < nwanted; i++)
		if (strcmp(wanted_ext[i], set->ext[SI]) == 0)
			return 1;
	return nwanted == 0;
}

/*
 * A file of the walk (walk_files(): in name order, so that the PRNG sequence meets the bases in
 * a fixed order): a regular file with the index extension of a wanted file set is a base.
 */
static void find_base(const char *folder, const char *name, const char *path, void *ctx)
{
	struct stat sb;

	(void)folder;
	(void)name;
	(void)ctx;
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return;
	for (size_t f = 0; f < sizeof filesets / sizeof filesets[0]; f++)
		if (ends_with(path, filesets[f].ext[SI]) && wanted(&filesets[f]))
			add_base(path, &filesets[f]);
}

/* ---- the walk -------------------------------------------------------------------------- */

/* What a variant wants: which games to decode, and which games must match the pristine PGN. */
struct plan {
	const struct base *b;
	uint8_t *decode;       /* by game index below b->ngames: 1 decode the moves */
	uint8_t *same;         /* 1: the game's record is untouched, its PGN must be the pristine one */
	int decode_all;
	/* what the walk saw */
	int32_t open_rc;
	uint64_t count;
	int max_depth;         /* deepest variation seen */
	int32_t game0_decode;  /* move_iter_new() status of game 0 */
	char first_uci[8];     /* first main-line move of game 0 */
	unsigned long moves0;  /* moves of game 0 */
	unsigned long failed_headers, warned_headers, failed_games; /* next_game FAILED, WARN; games
								      that did not decode */
	char white0[64];       /* White of game 0 */
};

static int mentions_file(const char *msg, const struct base *b)
{
	const char *const *ext = b->set->ext;

	return strstr(msg, ext[SI]) || strstr(msg, ext[SN]) || strstr(msg, ext[SG]);
}

static void check_failure_msg(const char *msg, const struct plan *pl, const char *what)
{
	HCHECK(msg && msg[0], "%s: empty message", what);
	if (!msg || !msg[0])
		return;
	CHECK_UTF8(msg, what);
	HCHECK(mentions_file(msg, pl->b), "%s: message does not name the file: \"%s\"", what, msg);
	HCHECK(strstr(msg, "offset") != NULL, "%s: message gives no offset: \"%s\"", what, msg);
}

static int is_status(int32_t rc, int ok, int end, int warn, int failed, int fatal)
{
	return (ok && rc == GAMEDB_OK) || (end && rc == GAMEDB_END) || (warn && rc == GAMEDB_WARN) ||
	       (failed && rc == GAMEDB_FAILED) || (fatal && rc == GAMEDB_FATAL);
}

static char last_main_fen[128]; /* FEN after the last main-line move seen by walk_events() */

/*
 * Iterates over every event of g with every accessor. Returns the move_iter_new() status.
 * *max_depth receives the deepest variation, *first_uci the first main-line move.
 */
static int32_t walk_events(struct gamedb_game *g, uint32_t flags, int *max_depth, char *first_uci,
			   unsigned long *nmoves)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	int32_t rc = gamedb_move_iter_new(g, flags, &it), nrc;
	size_t n = 0;
	int depth = 0, saw_result = 0;

	HCHECK(is_status(rc, 1, 0, (flags & GAMEDB_ITER_PARTIAL) != 0, 1, 0),
	       "move_iter_new returned %d", (int)rc);
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		HCHECK(it == NULL, "move_iter_new failed but gave an iterator");
		return rc;
	}
	HCHECK(it != NULL, "move_iter_new succeeded without an iterator");
	if (!it)
		return GAMEDB_FAILED;
	while ((nrc = gamedb_move_iter_next(it, &ev)) == GAMEDB_OK) {
		int32_t type = gamedb_event_get_type(ev), from = -1, to = -1, promo = -1, colour = -1;
		int32_t mrc = gamedb_event_get_move(ev, &from, &to, &promo);
		int32_t piece = gamedb_event_get_piece(ev), nag = gamedb_event_get_nag(ev);
		int32_t num = gamedb_event_get_move_number(ev, &colour), d = gamedb_event_get_depth(ev);
		const char *san = gamedb_event_get_san(ev), *uci = gamedb_event_get_uci(ev);
		const char *fen = gamedb_event_get_fen(ev), *text = gamedb_event_get_text(ev);
		size_t rawlen = 12345;
		const char *raw = gamedb_event_get_text_raw(ev, &rawlen);

		CHECK_UTF8(san, "SAN");
		CHECK_UTF8(uci, "UCI");
		CHECK_UTF8(fen, "event FEN");
		CHECK_UTF8(text, "event text");
		if (++n > MAX_EVENTS) {
			HCHECK(0, "more than %zu events: the iterator does not end", MAX_EVENTS);
			break;
		}
		st.events++;
		HCHECK(saw_result == 0, "an event after the RESULT event");
		HCHECK(type >= GAMEDB_EVENT_MOVE && type <= GAMEDB_EVENT_RESULT, "event type %d", (int)type);
		HCHECK(d >= 0, "negative depth %d", (int)d);
		if (type == GAMEDB_EVENT_MOVE) {
			HCHECK(mrc == GAMEDB_OK && from >= 0 && from < 64 && to >= 0 && to < 64 &&
				       promo >= 0 && promo <= GAMEDB_PIECE_KING,
			       "move %d %d %d (rc %d)", (int)from, (int)to, (int)promo, (int)mrc);
			HCHECK(piece >= GAMEDB_PIECE_NONE && piece <= GAMEDB_PIECE_KING, "piece %d", (int)piece);
			HCHECK(san && san[0] && strlen(san) < 16, "SAN \"%s\"", san ? san : "(null)");
			HCHECK(uci && strlen(uci) >= 4 && strlen(uci) <= 5, "UCI \"%s\"", uci ? uci : "(null)");
			HCHECK(((flags & GAMEDB_ITER_FEN) != 0) == (fen != NULL), "FEN %s",
			       fen ? fen : "(null)");
			HCHECK(num >= 0 && (colour == 0 || colour == 1), "move number %d colour %d",
			       (int)num, (int)colour);
			HCHECK(nag == -1 && text == NULL, "a move with a NAG or a text");
			HCHECK(d == depth, "move at depth %d inside %d variations", (int)d, depth);
			if (d == 0 && fen)
				snprintf(last_main_fen, sizeof last_main_fen, "%s", fen);
			if (d == 0 && first_uci && !first_uci[0] && uci)
				snprintf(first_uci, 8, "%s", uci);
			if (nmoves)
				(*nmoves)++;
		} else {
			HCHECK(mrc == GAMEDB_FAILED && piece == 0 && !san && !uci && !fen && num == 0,
			       "a non-move event (type %d) answers as a move", (int)type);
		}
		if (type != GAMEDB_EVENT_COMMENT_BEFORE && type != GAMEDB_EVENT_COMMENT_AFTER)
			HCHECK(raw == NULL, "stored text bytes on an event of type %d", (int)type);
		switch (type) {
		case GAMEDB_EVENT_VARIATION_BEGIN:
			depth++;
			HCHECK(d == depth, "VARIATION_BEGIN depth %d, expected %d", (int)d, depth);
			if (max_depth && depth > *max_depth)
				*max_depth = depth;
			if (flags & GAMEDB_ITER_MAINLINE_ONLY)
				HCHECK(0, "a variation with GAMEDB_ITER_MAINLINE_ONLY");
			break;
		case GAMEDB_EVENT_VARIATION_END:
			HCHECK(depth > 0 && d == depth, "VARIATION_END depth %d at %d", (int)d, depth);
			if (depth > 0)
				depth--;
			break;
		case GAMEDB_EVENT_COMMENT_BEFORE:
		case GAMEDB_EVENT_COMMENT_AFTER:
			HCHECK(text != NULL, "a comment without text");
			HCHECK(raw != NULL && strlen(raw) == rawlen, "a comment's stored bytes (%zu)", rawlen);
			HCHECK(!(flags & GAMEDB_ITER_SKIP_COMMENTS), "a comment with GAMEDB_ITER_SKIP_COMMENTS");
			break;
		case GAMEDB_EVENT_NAG:
			HCHECK(nag >= 0 && nag <= 255, "NAG %d", (int)nag);
			break;
		case GAMEDB_EVENT_RESULT:
			HCHECK(text && text[0], "RESULT without text");
			HCHECK(depth == 0 && d == 0, "RESULT inside a variation");
			saw_result = 1;
			break;
		default:
			break;
		}
	}
	HCHECK(nrc == GAMEDB_END || n > MAX_EVENTS, "move_iter_next returned %d", (int)nrc);
	HCHECK(saw_result || n > MAX_EVENTS, "no RESULT event");
	HCHECK(depth == 0 || n > MAX_EVENTS, "%d variations left open", depth);
	if (nrc == GAMEDB_END)
		HCHECK(gamedb_move_iter_next(it, &ev) == GAMEDB_END && ev == NULL,
		       "move_iter_next after the end");
	gamedb_move_iter_free(it);
	return rc;
}

static void walk_tags(struct gamedb_game *g)
{
	size_t n = gamedb_game_get_tag_count(g), i, rawlen = 0;
	const char *name, *value, *cs = NULL, *raw;
	static const char *const some[] = { "Event", "Site", "Date", "Round", "White", "Black",
					    "Result", "ECO", "Annotator", "EventDate", "NoSuchTag" };

	HCHECK(n < 100000, "%zu tags", n);
	for (i = 0; i < n; i++) {
		name = value = NULL;
		HCHECK(gamedb_game_get_tag_at(g, i, &name, &value) == GAMEDB_OK && name && value,
		       "get_tag_at(%zu) of %zu", i, n);
		CHECK_UTF8(name, "tag name");
		CHECK_UTF8(value, "tag value");
		if (name && value) {
			HCHECK(gamedb_game_get_tag(g, name) != NULL, "get_tag(\"%s\") is NULL", name);
			raw = gamedb_game_get_tag_raw(g, name, &rawlen, &cs);
			HCHECK(raw != NULL && strlen(raw) <= rawlen, "get_tag_raw(\"%s\")", name);
		}
	}
	HCHECK(gamedb_game_get_tag_at(g, n, &name, &value) == GAMEDB_FAILED, "get_tag_at past the end");
	for (i = 0; i < sizeof some / sizeof some[0]; i++) {
		const char *v = gamedb_game_get_tag(g, some[i]);
		if (i < 7)
			HCHECK(v != NULL, "the roster tag %s is missing", some[i]);
		(void)gamedb_game_get_tag_raw(g, some[i], &rawlen, &cs);
	}
	HCHECK(gamedb_game_get_tag(g, "NoSuchTag") == NULL, "a tag that does not exist");
}

/* The full walk of one game; returns the PGN status and hash. */
static int32_t walk_game(struct gamedb_reader *r, struct gamedb_game *g, struct plan *pl,
			 uint64_t *hash)
{
	struct hsink hs = { 0xCBF29CE484222325ull, 0, 0 };
	size_t total = 0;
	int32_t rc, prc, jrc;
	struct gamedb_game *copy = NULL;
	const char *fen = gamedb_game_get_fen(g);
	uint64_t idx = gamedb_game_get_index(g);
	int md = 0;
	char uci[8] = "";
	unsigned long nm = 0;

	HCHECK(fen && strlen(fen) < 128, "get_fen");
	CHECK_UTF8(fen, "get_fen");
	/* an si5 index may flag a game as Chess960 */
	HCHECK(gamedb_game_get_variant(g) == GAMEDB_VARIANT_CHESS ||
		       (pl->b->version == 500 && gamedb_game_get_variant(g) == GAMEDB_VARIANT_CHESS960),
	       "variant %d", (int)gamedb_game_get_variant(g));
	HCHECK(gamedb_game_is_deleted(g) == 0 || gamedb_game_is_deleted(g) == 1, "is_deleted");
	(void)gamedb_scid_get_game_flags(gamedb_reader_get_scid(r), g);
	HCHECK(gamedb_game_errmsg(g) != NULL, "game errmsg is NULL");
	walk_tags(g);

	st.decoded++;
	last_main_fen[0] = 0;
	rc = walk_events(g, GAMEDB_ITER_FEN, &md, uci, &nm);
	{
		const char *ffen = gamedb_game_get_final_fen(g);
		CHECK_UTF8(ffen, "get_final_fen");
		HCHECK((ffen == NULL) == (rc == GAMEDB_FAILED), "get_final_fen %s with decoding %d",
		       ffen ? ffen : "(null)", (int)rc);
		if (ffen && rc != GAMEDB_FAILED)
			HCHECK(strcmp(ffen, last_main_fen[0] ? last_main_fen : gamedb_game_get_fen(g)) == 0,
			       "get_final_fen \"%s\", the last main-line move's FEN \"%s\"", ffen,
			       last_main_fen);
	}
	if (idx == 0) {
		const char *w = gamedb_game_get_tag(g, "White");
		snprintf(pl->white0, sizeof pl->white0, "%s", w ? w : "");
		pl->game0_decode = rc;
		pl->max_depth = md;
		snprintf(pl->first_uci, sizeof pl->first_uci, "%s", uci);
		pl->moves0 = nm;
	}
	if (rc == GAMEDB_FAILED) {
		st.decode_failed++;
		pl->failed_games++;
		check_failure_msg(gamedb_game_errmsg(g), pl, "failed game (game errmsg)");
		check_failure_msg(gamedb_reader_errmsg(r), pl, "failed game (reader errmsg)");
		HCHECK(gamedb_reader_errcode(r) != GAMEDB_E_NONE, "failed game without a detail code");
		int32_t wrc = walk_events(g, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_FEN, NULL, NULL, NULL);
		HCHECK(wrc == GAMEDB_WARN, "PARTIAL iterator on a failed game gave %d", (int)wrc);
	} else {
		(void)walk_events(g, GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS, NULL, NULL, NULL);
	}
	/* fen may have been refined by the decoder; read it again */
	fen = gamedb_game_get_fen(g);
	HCHECK(fen && strlen(fen) < 128, "get_fen after decoding");
	CHECK_UTF8(fen, "get_fen after decoding");
	CHECK_UTF8(gamedb_game_errmsg(g), "game errmsg");
	CHECK_UTF8(gamedb_reader_errmsg(r), "reader errmsg");

	prc = gamedb_game_write_pgn(g, 0, sink_hash, &hs);
	HCHECK(is_status(prc, 1, 0, 1, 1, 0), "write_pgn returned %d", (int)prc);
	HCHECK((prc == GAMEDB_FAILED) == (rc == GAMEDB_FAILED), "write_pgn %d but decoding %d",
	       (int)prc, (int)rc);
	if (prc == GAMEDB_FAILED)
		check_failure_msg(gamedb_game_errmsg(g), pl, "write_pgn failed");
	prc = gamedb_game_write_pgn(g, GAMEDB_WRITE_NO_COMMENTS | GAMEDB_WRITE_NO_VARIATIONS |
					       GAMEDB_WRITE_NO_NAGS, sink_discard, &total);
	HCHECK(is_status(prc, 1, 0, 1, 1, 0), "write_pgn(flags) returned %d", (int)prc);
	jrc = gamedb_game_write_json(g, 0, sink_discard, &total);
	HCHECK(is_status(jrc, 1, 0, 1, 1, 0), "write_json returned %d", (int)jrc);
	HCHECK((jrc == GAMEDB_FAILED) == (rc == GAMEDB_FAILED), "write_json %d but decoding %d",
	       (int)jrc, (int)rc);
	prc = gamedb_game_write_pgn(g, 0, sink_stop, NULL);
	HCHECK(prc == GAMEDB_FAILED, "write_pgn into a sink that stops returned %d", (int)prc);
	prc = gamedb_game_write_json(g, 0, sink_stop, NULL);
	HCHECK(prc == GAMEDB_FAILED, "write_json into a sink that stops returned %d", (int)prc);

	prc = gamedb_game_dup(g, &copy);
	HCHECK(is_status(prc, 1, 0, 1, 0, 0) && copy, "game_dup returned %d", (int)prc);
	HCHECK((prc == GAMEDB_WARN) == (rc == GAMEDB_FAILED), "game_dup %d but decoding %d", (int)prc,
	       (int)rc);
	if (copy) {
		struct hsink hc = { 0xCBF29CE484222325ull, 0, 0 };
		int32_t crc;
		walk_tags(copy);
		(void)walk_events(copy, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_FEN, NULL, NULL, NULL);
		crc = gamedb_game_write_pgn(copy, 0, sink_hash, &hc);
		if (rc != GAMEDB_FAILED)
			HCHECK(crc == gamedb_game_write_pgn(g, 0, sink_discard, &total) && hc.h == hs.h,
			       "the copy of game %llu writes another PGN", (unsigned long long)idx);
		(void)gamedb_game_write_json(copy, 0, sink_discard, &total);
		gamedb_game_free(copy);
	}
	*hash = hs.h;
	HCHECK(!hs.bad_utf8, "write_pgn wrote bytes that are not UTF-8");
	HCHECK(!discard_bad_utf8, "a writer wrote bytes that are not UTF-8");
	discard_bad_utf8 = 0;
	return gamedb_game_write_pgn(g, 0, sink_discard, &total);
}

static int want_decode(const struct plan *pl, uint64_t i)
{
	if (pl->decode_all)
		return 1;
	if (i < pl->b->ngames)
		return pl->decode[i];
	return i % 97 == 0;
}

/* The walk of fuzz/fuzz-walk.h, with every format bidding: aborts on what the API does not allow. */
static void fuzz_walk_set(const char *const names[3], const void *const datas[3], const size_t size[3])
{
	struct gamedb_reader *r = gamedb_reader_new();

	if (!r || gamedb_reader_support_format_all(r) != GAMEDB_OK)
		abort();
	(void)fuzz_walk_reader(r, gamedb_reader_open_memory_set(r, names, datas, size, 3));
	gamedb_reader_free(r);
}

/* Opens the files given and walks every game. */
static void open_and_walk(const struct base *b, uint8_t *const data[3], const size_t size[3],
			  struct plan *pl, int bidding)
{
	const char *names[3] = { b->names[0], b->names[1], b->names[2] };
	const void *datas[3] = { data[0], data[1], data[2] };
	struct gamedb_reader *r = gamedb_reader_new();
	struct gamedb_game *g;
	int32_t rc;
	uint64_t count = 0, seen = 0, guard;
	struct gamedb_scid *sh;

	pl->b = b;
	pl->max_depth = 0;
	pl->game0_decode = 0;
	pl->first_uci[0] = 0;
	pl->moves0 = 0;
	pl->failed_headers = pl->warned_headers = pl->failed_games = 0;
	pl->white0[0] = 0;
	st.opens++;
	st.variants++;
	if (!r)
		abort();
	if (b->set->fuzz_walk)
		fuzz_walk_set(names, datas, size);
	if (bidding)
		HCHECK(gamedb_reader_support_format_all(r) == GAMEDB_OK, "support_format_all");
	else
		HCHECK(gamedb_reader_set_format(r, "scid") == GAMEDB_OK, "set_format");
	rc = gamedb_reader_open_memory_set(r, names, datas, size, 3);
	pl->open_rc = rc;
	HCHECK(is_status(rc, 1, 0, 1, 0, 1), "open returned %d", (int)rc);
	if (rc == GAMEDB_FATAL) {
		const char *msg = gamedb_reader_errmsg(r);
		int32_t code = gamedb_reader_errcode(r);
		st.open_fatal++;
		HCHECK(code >= GAMEDB_E_NOMEM && code <= GAMEDB_E_UNKNOWN_OPTION, "open detail code %d",
		       (int)code);
		if (code == GAMEDB_E_UNRECOGNIZED_FORMAT) {
			/* bidding: no format claimed the bytes; there is no one offset to name */
			HCHECK(msg && mentions_file(msg, b), "unrecognized: \"%s\"", msg ? msg : "");
			HCHECK(!b->set->by_name, "a %s was not recognised: %s", b->set->ext[SI],
			       msg ? msg : "");
		} else {
			check_failure_msg(msg, pl, "failed open");
		}
		HCHECK(gamedb_reader_next_game(r, &g) == GAMEDB_FATAL && g == NULL,
		       "next_game after a failed open");
		HCHECK(gamedb_reader_get_scid(r) == NULL, "SCID handle after a failed open");
		gamedb_reader_free(r);
		return;
	}
	if (rc == GAMEDB_WARN) {
		st.open_warn++;
		check_failure_msg(gamedb_reader_errmsg(r), pl, "open warning");
	}
	HCHECK(gamedb_reader_game_count(r, &count) == GAMEDB_OK, "game_count");
	pl->count = count;
	HCHECK(strcmp(gamedb_reader_format(r) ? gamedb_reader_format(r) : "", "scid") == 0, "format");
	sh = gamedb_reader_get_scid(r);
	HCHECK(sh != NULL, "no SCID handle");
	if (sh) {
		int32_t n;
		HCHECK(gamedb_scid_get_version(sh) == b->version, "version %d",
		       (int)gamedb_scid_get_version(sh));
		HCHECK(gamedb_scid_get_description(sh) != NULL, "description");
		(void)gamedb_scid_get_base_type(sh);
		(void)gamedb_scid_get_autoload(sh);
		for (n = 0; n <= 7; n++) {
			const char *fl = gamedb_scid_get_flag_name(sh, n);
			HCHECK((n >= 1 && n <= 6) == (fl != NULL), "flag name %d", (int)n);
		}
	}
	guard = count + 2;
	for (;;) {
		uint64_t h;
		rc = gamedb_reader_next_game(r, &g);
		HCHECK(is_status(rc, 1, 1, 1, 1, 1), "next_game returned %d", (int)rc);
		if (rc == GAMEDB_END) {
			HCHECK(seen == count, "END after %llu games of %llu", (unsigned long long)seen,
			       (unsigned long long)count);
			HCHECK(gamedb_reader_next_game(r, &g) == GAMEDB_END, "next_game after END");
			break;
		}
		if (++seen > guard) {
			HCHECK(0, "next_game does not end (%llu games, count %llu)",
			       (unsigned long long)seen, (unsigned long long)count);
			break;
		}
		if (rc == GAMEDB_FATAL) {
			check_failure_msg(gamedb_reader_errmsg(r), pl, "fatal next_game");
			HCHECK(g == NULL, "a game with FATAL");
			HCHECK(gamedb_reader_next_game(r, &g) == GAMEDB_FATAL, "next_game after FATAL");
			break;
		}
		if (rc == GAMEDB_FAILED) {
			st.games_failed++;
			pl->failed_headers++;
			HCHECK(g == NULL, "a game with FAILED");
			check_failure_msg(gamedb_reader_errmsg(r), pl, "failed next_game");
			continue;
		}
		st.games++;
		if (rc == GAMEDB_WARN) {
			/* a name id out of range names the index and the offset; a name that
			 * converts with loss (a flipped byte in a name) says only which tag */
			const char *m = gamedb_reader_errmsg(r);
			st.games_warn++;
			pl->warned_headers++;
			HCHECK(m[0] != 0, "a warning without a message");
			if (strstr(m, "out of range"))
				check_failure_msg(m, pl, "header warning");
		}
		HCHECK(g != NULL, "next_game OK without a game");
		if (!g)
			continue;
		HCHECK(gamedb_game_get_index(g) == seen - 1, "game index %llu, expected %llu",
		       (unsigned long long)gamedb_game_get_index(g), (unsigned long long)seen - 1);
		if (!want_decode(pl, seen - 1)) {
			walk_tags(g);
			(void)gamedb_game_get_fen(g);
			(void)gamedb_game_is_deleted(g);
			continue;
		}
		rc = walk_game(r, g, pl, &h);
		if (pl->same && seen - 1 < b->ngames && pl->same[seen - 1]) {
			st.isolation_checked++;
			HCHECK(rc == b->pgn_status[seen - 1] && h == b->pgn_hash[seen - 1],
			       "game %llu: record untouched, but PGN (status %d) differs from the pristine "
			       "one (status %d)", (unsigned long long)seen, (int)rc,
			       (int)b->pgn_status[seen - 1]);
		}
	}
	/* Seeking: in range and past the end. */
	if (count && gamedb_reader_seek_game(r, count - 1) == GAMEDB_OK) {
		rc = gamedb_reader_next_game(r, &g);
		HCHECK(is_status(rc, 1, 0, 1, 1, 1), "next_game after seek returned %d", (int)rc);
	}
	if (gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK) {
		rc = gamedb_reader_seek_game(r, count);
		HCHECK(rc == GAMEDB_FAILED || rc == GAMEDB_FATAL, "seek past the end returned %d", (int)rc);
	}
	gamedb_reader_free(r);
}

/* ---- plans ----------------------------------------------------------------------------- */

static struct plan *plan_new(const struct base *b)
{
	struct plan *pl = calloc(1, sizeof *pl);

	if (!pl)
		abort();
	pl->b = b;
	pl->decode = calloc(b->ngames + 1, 1);
	pl->same = calloc(b->ngames + 1, 1);
	if (!pl->decode || !pl->same)
		abort();
	pl->decode_all = b->ngames <= SMALL_BASE;
	return pl;
}

static void plan_reset(struct plan *pl)
{
	memset(pl->decode, 0, pl->b->ngames + 1);
	memset(pl->same, 0, pl->b->ngames + 1);
	pl->decode_all = pl->b->ngames <= SMALL_BASE;
}

static void plan_free(struct plan *pl)
{
	free(pl->decode);
	free(pl->same);
	free(pl);
}

/* Adds a few pseudo-random games, and the first and last, to the decode set. */
static void plan_sample(struct plan *pl)
{
	uint32_t n = pl->b->ngames, k;

	if (!n)
		return;
	pl->decode[0] = pl->decode[n - 1] = 1;
	for (k = 0; k < SAMPLE; k++)
		pl->decode[rnd_below(n)] = 1;
}

/* Marks the games whose pristine .sg record holds byte off (and decodes them). */
static void plan_touch_sg(struct plan *pl, uint64_t off)
{
	const struct base *b = pl->b;
	uint32_t i;

	for (i = 0; i < b->ngames; i++)
		if (off >= b->sg_off[i] && off < (uint64_t)b->sg_off[i] + b->sg_len[i])
			pl->decode[i] = 1;
}

/* ---- the pristine walk ------------------------------------------------------------------ */

static void pristine(struct base *b)
{
	const char *names[3] = { b->names[0], b->names[1], b->names[2] };
	const void *datas[3] = { b->data[0], b->data[1], b->data[2] };
	struct gamedb_reader *r = gamedb_reader_new();
	struct gamedb_game *g;
	int32_t rc;
	uint32_t i = 0;
	uint64_t count = 0;

	snprintf(variant_desc, sizeof variant_desc, "%s pristine", b->path);
	if (b->set->fuzz_walk)
		fuzz_walk_set(names, datas, b->size);
	rc = gamedb_reader_open_memory_set(r, names, datas, b->size, 3);
	CHECK_MSG(rc == GAMEDB_OK, "%s: pristine open returned %d: %s", b->path, (int)rc,
		  gamedb_reader_errmsg(r));
	if (rc == GAMEDB_OK) {
		CHECK(gamedb_reader_game_count(r, &count) == GAMEDB_OK && count == b->ngames);
		while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN) {
			struct hsink hs = { 0xCBF29CE484222325ull, 0, 0 };
			if (i >= b->ngames)
				break;
			CHECK_MSG(rc == GAMEDB_OK, "%s: game %u of the pristine base warns: %s", b->path,
				  i + 1, gamedb_reader_errmsg(r));
			b->pgn_status[i] = gamedb_game_write_pgn(g, 0, sink_hash, &hs);
			b->pgn_hash[i] = hs.h;
			/* OK, or the warning of text read in the fallback charset (latin1). */
			CHECK_MSG(b->pgn_status[i] == GAMEDB_OK ||
				  (b->pgn_status[i] == GAMEDB_WARN &&
				   strstr(gamedb_game_errmsg(g), "(the fallback charset)")),
				  "%s: game %u of the pristine base: %d %s",
				  b->path, i + 1, (int)b->pgn_status[i], gamedb_game_errmsg(g));
			i++;
		}
		CHECK_MSG(rc == GAMEDB_END && i == b->ngames, "%s: pristine walk gave %u of %u games (%d)",
			  b->path, i, b->ngames, (int)rc);
	}
	gamedb_reader_free(r);
}

/* ---- (a) truncation --------------------------------------------------------------------- */

static size_t first_record_inside(const struct base *b, int k)
{
	switch (k) {
	case SI:
		return b->hdr + b->rec / 2;
	case SN:
		return b->set->sn_hdr + 3;
	default:
		return b->ngames ? b->sg_off[0] + b->sg_len[0] / 2 : 1;
	}
}

static void truncations(struct base *b)
{
	uint8_t *data[3] = { b->data[0], b->data[1], b->data[2] };
	size_t size[3], pts[NTRUNC], hdrs[3] = { b->hdr, b->set->sn_hdr, 1 };
	int npts = b->light ? NTRUNC_LIGHT : NTRUNC;
	struct plan *pl = plan_new(b);
	int k, j;

	for (k = 0; k < 3; k++) {
		size_t n = b->size[k];
		int np = 0;

		pts[np++] = 0;
		pts[np++] = 1;
		pts[np++] = hdrs[k] ? hdrs[k] - 1 : 0;
		pts[np++] = first_record_inside(b, k);
		pts[np++] = n ? n - 1 : 0;
		while (np < npts) {
			pts[np] = (size_t)((uint64_t)n * (size_t)(np - 4) / (size_t)(npts - 4));
			np++;
		}
		for (j = 0; j < npts; j++) {
			size_t cut = pts[j] > n ? n : pts[j];
			uint32_t i;

			memcpy(size, b->size, sizeof size);
			size[k] = cut;
			plan_reset(pl);
			plan_sample(pl);
			if (k == SG) {
				/* records past the cut fail at once; the one across it is the interesting one */
				for (i = 0; i < b->ngames; i++) {
					if ((uint64_t)b->sg_off[i] + b->sg_len[i] > cut)
						pl->decode[i] = 1;
					else
						pl->same[i] = 1;
				}
			} else if (k == SI && cut > b->hdr) {
				uint32_t last = (uint32_t)((cut - b->hdr) / b->rec);
				if (last > 0 && last - 1 < b->ngames)
					pl->decode[last - 1] = 1;
				if (last < b->ngames)
					pl->decode[last] = 1;
			}
			snprintf(variant_desc, sizeof variant_desc, "%s: %s truncated to %zu of %zu bytes",
				 b->path, b->names[k], cut, n);
			open_and_walk(b, data, size, pl, j & 1);
			if (k == SI && cut < b->hdr)
				HCHECK(pl->open_rc == GAMEDB_FATAL, "an index shorter than its header opened");
			if (k == SN && cut < b->set->sn_hdr)
				HCHECK(pl->open_rc == GAMEDB_FATAL, "a name file shorter than its header opened");
			if (k == SI && cut >= b->hdr && pl->open_rc != GAMEDB_FATAL)
				HCHECK(pl->count == (cut - b->hdr) / b->rec || cut == n,
				       "index cut to %zu bytes gives %llu games", cut,
				       (unsigned long long)pl->count);
		}
	}
	plan_free(pl);
}

/* ---- (b) byte flips --------------------------------------------------------------------- */

static void flips(struct base *b)
{
	static const int counts[3] = { 1, 4, 32 };
	uint8_t *data[3];
	struct plan *pl = plan_new(b);
	int v, k;

	for (k = 0; k < 3; k++) {
		data[k] = malloc(b->size[k] + 1);
		if (!data[k])
			abort();
	}
	for (v = 0; v < (b->light ? FLIP_VARIANTS_LIGHT : FLIP_VARIANTS); v++) {
		int f = v % 3, nflip = counts[(v / 3) % 3], j;
		size_t n = b->size[f];
		uint32_t i;

		if (n == 0)
			continue;
		for (k = 0; k < 3; k++)
			memcpy(data[k], b->data[k], b->size[k]);
		plan_reset(pl);
		plan_sample(pl);
		for (j = 0; j < nflip; j++) {
			/* one flip in eight lands in the first 256 bytes, where the headers are */
			size_t off = (rnd() & 7) == 0 ? (size_t)rnd_below(n < 256 ? n : 256) : (size_t)rnd_below(n);
			data[f][off] ^= (uint8_t)(1 + rnd_below(255));
			if (f == SG)
				plan_touch_sg(pl, off);
			else if (f == SI && off >= b->hdr && (off - b->hdr) / b->rec < b->ngames)
				pl->decode[(off - b->hdr) / b->rec] = 1;
		}
		if (f == SG) {
			/* Every game whose record holds no flipped byte must give the pristine PGN. */
			for (i = 0; i < b->ngames; i++) {
				uint32_t x;
				int touched = 0;
				for (x = b->sg_off[i]; x < b->sg_off[i] + b->sg_len[i] && x < n && !touched; x++)
					touched = data[SG][x] != b->data[SG][x];
				pl->same[i] = !touched;
			}
		}
		snprintf(variant_desc, sizeof variant_desc, "%s: %d byte(s) flipped in %s (variant %d)",
			 b->path, nflip, b->names[f], v);
		open_and_walk(b, data, b->size, pl, v & 1);
	}
	for (k = 0; k < 3; k++)
		free(data[k]);
	plan_free(pl);
}

/* ---- (c) structured attacks ------------------------------------------------------------- */

struct work {
	uint8_t *data[3];
	size_t size[3];
	size_t cap[3];
};

/* Makes room for need bytes in file k of w (what it holds is kept). */
static void work_room(struct work *w, int k, size_t need)
{
	if (w->cap[k] < need) {
		uint8_t *p = realloc(w->data[k], need);
		if (!p)
			abort();
		w->data[k] = p;
		w->cap[k] = need;
	}
}

/* w: a copy of the pristine files of b. */
static void work_reset(struct work *w, const struct base *b)
{
	int k;

	for (k = 0; k < 3; k++) {
		work_room(w, k, b->size[k] + 1);
		memcpy(w->data[k], b->data[k], b->size[k]);
		w->size[k] = b->size[k];
	}
}

/* Appends n bytes to file k of w. */
static void work_append(struct work *w, int k, const void *p, size_t n)
{
	work_room(w, k, w->size[k] + n + 1);
	memcpy(w->data[k] + w->size[k], p, n);
	w->size[k] += n;
}

static void work_free(struct work *w)
{
	int k;

	for (k = 0; k < 3; k++)
		free(w->data[k]);
}

/*
 * Appends a game record to the .sg file and points game 0 at it. Returns the plan after the
 * walk (game 0 decoded).
 */
static void run_record(const struct base *b, struct work *w, struct plan *pl, const uint8_t *rec,
		       size_t len, const char *what)
{
	work_reset(w, b);
	set_index_loc(w->data[SI], b->version, b->hdr, b->rec, 0, (uint32_t)w->size[SG], (uint32_t)len);
	work_append(w, SG, rec, len);
	plan_reset(pl);
	pl->decode[0] = 1;
	pl->decode[b->ngames > 1 ? 1 : 0] = 1;
	if (b->ngames > 1)
		pl->same[1] = 1;
	snprintf(variant_desc, sizeof variant_desc, "%s: %s", b->path, what);
	open_and_walk(b, w->data, w->size, pl, 0);
}

/* The move byte that plays `uci` as the first move from the standard position, found by trying. */
static int probe_move_byte(const struct base *b, struct work *w, const char *uci)
{
	struct plan *pl = plan_new(b);
	uint8_t rec[4] = { 0x00, 0x00, 0x00, 0x0F };
	int v, found = -1;
	int saved_printed = printed;

	for (v = 0; v < 256 && found < 0; v++) {
		rec[2] = (uint8_t)v;
		run_record(b, w, pl, rec, sizeof rec, "probing move bytes");
		if (pl->game0_decode == GAMEDB_OK && strcmp(pl->first_uci, uci) == 0 && pl->moves0 == 1)
			found = v;
	}
	printed = saved_printed;
	plan_free(pl);
	return found;
}

static int byte_e4 = -2, byte_d4 = -2;

static void attacks_scid4(struct base *b)
{
	struct work w = { { 0 }, { 0 }, { 0 } };
	struct plan *pl = plan_new(b);
	uint8_t *rec;
	size_t cap = 140000, len, i;
	int t;

	rec = malloc(cap);
	if (!rec)
		abort();

	/* Game counts the index cannot hold. */
	{
		static const uint32_t huge[] = { 0xFFFFFF, 0x800000 };
		for (i = 0; i < 3; i++) {
			uint32_t c = i < 2 ? huge[i] : b->ngames + 1;
			work_reset(&w, b);
			put_be24(w.data[SI] + 14, c);
			plan_reset(pl);
			plan_sample(pl);
			snprintf(variant_desc, sizeof variant_desc, "%s: index header says %u games", b->path, c);
			open_and_walk(b, w.data, w.size, pl, 0);
			HCHECK(pl->open_rc == GAMEDB_WARN, "a game count the index cannot hold: open gave %d",
			       (int)pl->open_rc);
			HCHECK(pl->count == (w.size[SI] - b->hdr) / b->rec, "count %llu",
			       (unsigned long long)pl->count);
		}
	}

	/* Name counts larger than the name file. */
	for (t = 0; t < 4; t++) {
		static const uint32_t c[2] = { 0xFFFFFF, 70000 };
		for (i = 0; i < 2; i++) {
			work_reset(&w, b);
			put_be24(w.data[SN] + 12 + 3 * t, c[i]);
			plan_reset(pl);
			snprintf(variant_desc, sizeof variant_desc, "%s: name type %d count %u", b->path, t, c[i]);
			open_and_walk(b, w.data, w.size, pl, 1);
			HCHECK(pl->open_rc == GAMEDB_FATAL, "a name count the file cannot hold: open gave %d",
			       (int)pl->open_rc);
		}
	}

	/* A name prefix longer than its name (second player name), and longer than the name before. */
	if (be24(b->data[SN] + 12) >= 2) {
		uint32_t count = be24(b->data[SN] + 12), maxf = be24(b->data[SN] + 24);
		size_t idb = count >= 65536 ? 3 : 2, fb = maxf >= 65536 ? 3 : (maxf >= 256 ? 2 : 1);
		size_t r1 = 36, l1 = b->data[SN][r1 + idb + fb], r2 = r1 + idb + fb + 1 + l1;
		if (r2 + idb + fb + 2 <= b->size[SN]) {
			size_t lpos = r2 + idb + fb, ppos = lpos + 1;
			uint8_t l2 = b->data[SN][lpos];
			const uint8_t prefixes[3] = { (uint8_t)(l2 < 255 ? l2 + 1 : 255), 255,
						      (uint8_t)(l1 < 255 ? l1 + 1 : 255) };
			for (i = 0; i < 3; i++) {
				work_reset(&w, b);
				w.data[SN][ppos] = prefixes[i];
				if (i == 2)
					w.data[SN][lpos] = 255;
				plan_reset(pl);
				snprintf(variant_desc, sizeof variant_desc, "%s: name prefix %u, length %u",
					 b->path, w.data[SN][ppos], w.data[SN][lpos]);
				open_and_walk(b, w.data, w.size, pl, 0);
				if (w.data[SN][ppos] > w.data[SN][lpos] || w.data[SN][ppos] > l1)
					HCHECK(pl->open_rc == GAMEDB_FATAL, "prefix > length: open gave %d",
					       (int)pl->open_rc);
			}
		}
		/* A name that claims 255 bytes at the very end of the file. */
		work_reset(&w, b);
		w.data[SN][r1 + idb + fb] = 255;
		plan_reset(pl);
		snprintf(variant_desc, sizeof variant_desc, "%s: first name 255 bytes long", b->path);
		open_and_walk(b, w.data, w.size, pl, 0);
	}

	/* Record locations past the end of the .sg file, and lengths over 128 KiB. */
	if (b->ngames) {
		static const struct { uint32_t off, len; int past_end; } locs[] = {
			{ 0xFFFFFFF0u, 10, 1 }, { 0xFFFFFFFFu, 0xFFFF, 1 }, { 0, 0x1FFFF, 2 },
			{ 0, 0x10000, 2 }, { 0, 0, 0 }, { 1, 1, 0 },
		};
		for (i = 0; i < sizeof locs / sizeof locs[0] + 2; i++) {
			uint32_t off, len2;
			int past_end;
			if (i < sizeof locs / sizeof locs[0]) {
				off = locs[i].off;
				len2 = locs[i].len;
				past_end = locs[i].past_end == 1 ||
					   (locs[i].past_end == 2 && (uint64_t)off + len2 > b->size[SG]);
			} else if (i == sizeof locs / sizeof locs[0]) {
				off = (uint32_t)b->size[SG] - 1; /* starts inside, ends outside */
				len2 = 100;
				past_end = 1;
			} else {
				off = (uint32_t)b->size[SG]; /* starts at the end */
				len2 = 1;
				past_end = 1;
			}
			if (b->version == 300 && len2 > 0xFFFF)
				continue; /* si3 lengths have 16 bits */
			work_reset(&w, b);
			set_index_loc(w.data[SI], b->version, b->hdr, b->rec, 0, off, len2);
			plan_reset(pl);
			plan_sample(pl);
			pl->decode[0] = 1;
			for (uint32_t gi = 1; gi < b->ngames; gi++)
				pl->same[gi] = 1;
			snprintf(variant_desc, sizeof variant_desc, "%s: game 1 at offset %u, %u bytes",
				 b->path, off, len2);
			open_and_walk(b, w.data, w.size, pl, 0);
			HCHECK(pl->open_rc != GAMEDB_FATAL, "a bad record location made the open fail");
			if (past_end || len2 == 0)
				HCHECK(pl->game0_decode == GAMEDB_FAILED,
				       "a record past the end decoded (%d)", (int)pl->game0_decode);
		}
		/* Every game of the index pointing at the same bytes, with the largest length. */
		work_reset(&w, b);
		for (uint32_t gi = 0; gi < b->ngames; gi++)
			set_index_loc(w.data[SI], b->version, b->hdr, b->rec, gi, 0,
				      b->version == 400 ? 0x1FFFF : 0xFFFF);
		plan_reset(pl);
		plan_sample(pl);
		snprintf(variant_desc, sizeof variant_desc, "%s: every record at offset 0, maximal length", b->path);
		open_and_walk(b, w.data, w.size, pl, 0);
	}

	/* Name ids out of range: the game is delivered with "?" and a warning. */
	if (b->ngames) {
		work_reset(&w, b);
		{
			uint8_t *p = w.data[SI] + b->hdr + (b->version == 400 ? 1 : 0);
			p[8] = 0xFF; /* high bits of both player ids */
			put_be16(p + 9, 0xFFFF);
		}
		plan_reset(pl);
		pl->decode[0] = 1;
		snprintf(variant_desc, sizeof variant_desc, "%s: player ids out of range", b->path);
		open_and_walk(b, w.data, w.size, pl, 0);
		HCHECK(pl->open_rc != GAMEDB_FATAL, "open failed");
	}

	if (!b->ngames)
		goto out;

	/* Hand-made records. */
	if (byte_e4 == -2) {
		byte_e4 = probe_move_byte(b, &w, "e2e4");
		byte_d4 = probe_move_byte(b, &w, "d2d4");
		CHECK_MSG(byte_e4 >= 0 && byte_d4 >= 0, "no move byte plays e2e4 (%d) or d2d4 (%d)",
			  byte_e4, byte_d4);
	}
	if (byte_e4 >= 0 && byte_d4 >= 0) {
		static const size_t depths[] = { 10000, 43000 };
		size_t di;
		/* e4 ( d4 ( e4 ( d4 ... ) ) ) : nesting as deep as the record allows */
		for (di = 0; di < sizeof depths / sizeof depths[0]; di++) {
			size_t depth = depths[di];
			char what[80];
			len = 0;
			rec[len++] = 0x00; /* no extra tags */
			rec[len++] = 0x00; /* standard start */
			rec[len++] = (uint8_t)byte_e4;
			for (i = 0; i < depth; i++) {
				rec[len++] = 0x0D;
				rec[len++] = (uint8_t)(i & 1 ? byte_e4 : byte_d4);
			}
			for (i = 0; i < depth; i++)
				rec[len++] = 0x0E;
			rec[len++] = 0x0F;
			if (len > 0x1FFFF || (b->version == 300 && len > 0xFFFF))
				continue;
			snprintf(what, sizeof what, "variations nested %zu deep", depth);
			run_record(b, &w, pl, rec, len, what);
			HCHECK(pl->game0_decode == GAMEDB_OK, "nesting %zu: decoding gave %d", depth,
			       (int)pl->game0_decode);
			HCHECK(pl->max_depth == (int)depth, "nesting %zu: the iterator reached depth %d",
			       depth, pl->max_depth);
			HCHECK(pl->moves0 == depth + 1, "nesting %zu: %lu moves", depth, pl->moves0);
		}
		/* a move, then 10,000 variation-start bytes */
		len = 0;
		rec[len++] = 0x00;
		rec[len++] = 0x00;
		rec[len++] = (uint8_t)byte_e4;
		memset(rec + len, 0x0D, 10000);
		len += 10000;
		rec[len++] = 0x0F;
		run_record(b, &w, pl, rec, len, "10,000 variation-start bytes");
		HCHECK(pl->game0_decode == GAMEDB_FAILED, "10,000 variation starts decoded (%d)",
		       (int)pl->game0_decode);
		/* 10,000 variation-start bytes before any move */
		memset(rec + 2, 0x0D, 10000);
		rec[10002] = 0x0F;
		run_record(b, &w, pl, rec, 10003, "10,000 variation-start bytes, no move");
		HCHECK(pl->game0_decode == GAMEDB_FAILED, "variation before any move decoded");
		/* 10,000 variation ends, 10,000 comment markers without texts, 10,000 NAGs */
		{
			static const uint8_t fill[3] = { 0x0E, 0x0C, 0x0B };
			static const char *const names[3] = { "10,000 variation ends",
							      "10,000 comments without text",
							      "NAG marker at the end" };
			for (i = 0; i < 3; i++) {
				rec[0] = 0x00;
				rec[1] = 0x00;
				rec[2] = (uint8_t)byte_e4;
				memset(rec + 3, fill[i], 10000);
				run_record(b, &w, pl, rec, 10003, names[i]);
				HCHECK(pl->game0_decode == GAMEDB_FAILED, "%s decoded", names[i]);
			}
		}
		/* 20,000 comments and NAGs, all well formed */
		len = 0;
		rec[len++] = 0x00;
		rec[len++] = 0x00;
		rec[len++] = 0x0C;
		rec[len++] = (uint8_t)byte_e4;
		for (i = 0; i < 10000; i++) {
			rec[len++] = 0x0B;
			rec[len++] = (uint8_t)i;
			rec[len++] = 0x0C;
		}
		rec[len++] = 0x0F;
		for (i = 0; i < 10001; i++) {
			rec[len++] = (uint8_t)('a' + i % 26);
			rec[len++] = 0x00;
		}
		run_record(b, &w, pl, rec, len, "10,000 NAGs and comments");
		HCHECK(pl->game0_decode == GAMEDB_OK, "10,000 NAGs and comments: decoding gave %d",
		       (int)pl->game0_decode);
	}
	/* A move byte for a piece slot that does not exist (kings only: slots 1..15 are empty). */
	{
		static const char fen[] = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
		static const uint8_t moves[] = { 0x10, 0x51, 0xF1, 0x18 };
		for (i = 0; i < sizeof moves; i++) {
			char what[80];
			len = 0;
			rec[len++] = 0x00;
			rec[len++] = 0x01; /* start position follows */
			memcpy(rec + len, fen, sizeof fen);
			len += sizeof fen;
			rec[len++] = moves[i];
			rec[len++] = 0x0F;
			snprintf(what, sizeof what, "move byte 0x%02x with two kings", moves[i]);
			run_record(b, &w, pl, rec, len, what);
			HCHECK(pl->game0_decode == GAMEDB_FAILED, "%s decoded", what);
		}
	}
	/* Bad start positions and tag sections. */
	{
#define REC(s, what) { s, sizeof(s) - 1, what }
		static const struct { const char *bytes; size_t len; const char *what; } recs[] = {
			REC("\x00\x01" "8/8/8/8 w - -", "FEN without its NUL"),
			REC("\x00\x01" "k7/8/8/8/8/8/8/8 w - - 0 1\x00\x0F", "FEN without a white king"),
			REC("\x00\x01" "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/8/k6K w - - 0 1\x00\x0F",
			  "FEN with 25 white pieces"),
			REC("\x00\x01" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 "
			  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
			  "xxxxxxx\x00\x0F", "FEN of 140 bytes"),
			REC("\xF0", "tag name of 240 bytes past the end"),
			REC("\x05" "Abcde\xFF", "tag value of 255 bytes past the end"),
			REC("\xFF\x01", "compact event date cut short"),
			REC("\xFB\x03xyz\x00\x00\x0F", "tag code 251"),
			REC("\x03\x00\x00\x00\x01x\x00\x00\x0F", "tag name with NUL bytes"),
			REC("\x00", "no start flags"),
			REC("\x00\x00", "no moves and no end marker"),
			REC("\x00\x00\x0F\x00", "empty game"),
		};
		for (i = 0; i < sizeof recs / sizeof recs[0]; i++)
			run_record(b, &w, pl, (const uint8_t *)recs[i].bytes, recs[i].len, recs[i].what);
	}
out:
	free(rec);
	work_free(&w);
	plan_free(pl);
}

/* si5: opens w and walks every game; pl says what the walk saw. */
static void run_scid5(const struct base *b, struct work *w, struct plan *pl, const char *what)
{
	plan_reset(pl);
	pl->decode_all = 1;
	snprintf(variant_desc, sizeof variant_desc, "%s: %s", b->path, what);
	open_and_walk(b, w->data, w->size, pl, 1);
}

/* si5: the name log with n more bytes at its end. */
static void attack_names(const struct base *b, struct work *w, struct plan *pl, const void *tail,
			 size_t n, const char *what)
{
	work_reset(w, b);
	work_append(w, SN, tail, n);
	run_scid5(b, w, pl, what);
}

/* si5: word `word` of the index record of game 0 set to (word & keep) | set. */
static void attack_index(const struct base *b, struct work *w, struct plan *pl, int word,
			 uint32_t keep, uint32_t set, const char *what)
{
	uint8_t *p;

	work_reset(w, b);
	p = w->data[SI] + 4 * (size_t)word;
	put_le32(p, (fuzz_le32(p) & keep) | set);
	run_scid5(b, w, pl, what);
}

static void attacks_scid5(struct base *b)
{
	struct work w = { { 0 }, { 0 }, { 0 } };
	struct plan *pl = plan_new(b);
	static const struct {
		const char *bytes;
		size_t len;
		const char *what;
	} names[] = {
		{ "\xFF\xFF\xFF", 3, "name-log varint runs past the end" },
		{ "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11, "name-log varint over 64 bits" },
		{ "\x80\x80\x80\x80\x80\x80\x80\x80\x01", 9, "name of 2^53 bytes" },
		{ "\xC0\x00" "ab", 4, "name longer than the rest of the file" }, /* 40 << 3 | 0x80 */
		{ "\x05", 1, "name type 5" },
		{ "\x17xy", 3, "name type 7" }, /* 2 << 3 | 7 */
	};
	uint8_t info[2100];
	size_t i;

	if (!b->ngames)
		goto out;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		attack_names(b, &w, pl, names[i].bytes, names[i].len, names[i].what);
		HCHECK(pl->open_rc == GAMEDB_FATAL, "open %d", (int)pl->open_rc);
	}

	/* database information: a 2000-byte description, not UTF-8, then flag names */
	i = 0;
	info[i++] = (uint8_t)(((2011u << 3) | 4) | 0x80);
	info[i++] = (uint8_t)(((2011u << 3) | 4) >> 7);
	memcpy(info + i, "description", 11);
	i += 11;
	memset(info + i, 0xE9, 2000); /* Latin-1 'é', invalid as UTF-8 */
	i += 2000;
	info[i++] = (uint8_t)((10u << 3) | 4);
	memcpy(info + i, "flag3\xC3\xA9xyz", 10);
	i += 10;
	info[i++] = (uint8_t)((8u << 3) | 4);
	memcpy(info + i, "type9999", 8);
	i += 8;
	info[i++] = (uint8_t)((9u << 3) | 4);
	memcpy(info + i, "unknown!!", 9);
	i += 9;
	attack_names(b, &w, pl, info, i, "long database information");
	/* The Latin-1 description is read in the fallback charset: a warning at the open. */
	HCHECK(pl->open_rc == GAMEDB_WARN, "open %d", (int)pl->open_rc);
	{
		const char *names3[3] = { b->names[0], b->names[1], b->names[2] };
		const void *datas[3] = { w.data[0], w.data[1], w.data[2] };
		struct gamedb_reader *r = gamedb_reader_new();
		struct gamedb_scid *sh;
		if (!r)
			abort();
		HCHECK(gamedb_reader_open_memory_set(r, names3, datas, w.size, 3) == GAMEDB_WARN &&
		       strstr(gamedb_reader_errmsg(r), ".sn5: offset ") &&
		       strstr(gamedb_reader_errmsg(r), "(the fallback charset)"),
		       "the Latin-1 description: %s", gamedb_reader_errmsg(r));
		sh = gamedb_reader_get_scid(r);
		HCHECK(sh != NULL, "no SCID handle");
		if (sh) {
			const char *d = gamedb_scid_get_description(sh), *f3 = gamedb_scid_get_flag_name(sh, 3);
			HCHECK(d && strlen(d) > 100 && strncmp(d, "\xC3\xA9\xC3\xA9", 4) == 0,
			       "description \"%.20s...\"", d ? d : "(null)");
			HCHECK(f3 && strcmp(f3, "\xC3\xA9xyz") == 0, "flag 3 \"%s\"", f3 ? f3 : "(null)");
			HCHECK(gamedb_scid_get_base_type(sh) == 9999, "base type %d",
			       (int)gamedb_scid_get_base_type(sh));
			HCHECK(gamedb_scid_get_version(sh) == 500, "version %d",
			       (int)gamedb_scid_get_version(sh));
		}
		gamedb_reader_free(r);
	}

	/* ids out of range: the name becomes "?" and the header warns */
	attack_index(b, &w, pl, 0, 0xF0000000u, 0x0FFFFFFFu, "white id 2^28-1");
	HCHECK(pl->open_rc != GAMEDB_FATAL && pl->warned_headers >= 1 && strcmp(pl->white0, "?") == 0,
	       "open %d, %lu warned, White \"%s\"", (int)pl->open_rc, pl->warned_headers, pl->white0);
	attack_index(b, &w, pl, 3, 0, 0xFFFFFFFFu, "site id 2^32-1");
	HCHECK(pl->warned_headers >= 1, "%lu warned", pl->warned_headers);
	attack_index(b, &w, pl, 4, 0x80000000u, 0x7FFFFFFFu, "round id 2^31-1");
	HCHECK(pl->warned_headers >= 1, "%lu warned", pl->warned_headers);
	/* game data past the end of the .sg5 */
	attack_index(b, &w, pl, 9, 0, 0xFFFFFFF0u, "offset past the end");
	HCHECK(pl->failed_games >= 1, "%lu failed", pl->failed_games);
	attack_index(b, &w, pl, 8, 0xFFFF8000u, 0x7FFFu, "offset 2^47 - x");
	HCHECK(pl->failed_games >= 1, "%lu failed", pl->failed_games);
	attack_index(b, &w, pl, 8, 0x00007FFFu, 0xFFFF8000u, "length 2^17 - 1");
	HCHECK(pl->failed_games >= 1, "%lu failed", pl->failed_games);
	attack_index(b, &w, pl, 8, 0x00007FFFu, 0, "length 0");
	HCHECK(pl->failed_games >= 1, "%lu failed", pl->failed_games);
	attack_index(b, &w, pl, 4, 0x7FFFFFFFu, 0x80000000u, "chess960 bit");
	HCHECK(pl->open_rc != GAMEDB_FATAL, "open %d", (int)pl->open_rc);

	/* an index that is not a whole number of records: the whole ones are read */
	work_reset(&w, b);
	work_append(&w, SI, "\x01\x02\x03", 3);
	run_scid5(b, &w, pl, "3 bytes after the last record");
	HCHECK(pl->open_rc == GAMEDB_WARN && pl->count == b->ngames, "open %d, %llu games",
	       (int)pl->open_rc, (unsigned long long)pl->count);
	/* empty files */
	work_reset(&w, b);
	w.size[SI] = 0;
	run_scid5(b, &w, pl, "empty index");
	/* The .sg5 holds games no record points to: the open warns (the index may be cut). */
	HCHECK(pl->open_rc == GAMEDB_WARN && pl->count == 0, "open %d, %llu games", (int)pl->open_rc,
	       (unsigned long long)pl->count);
	w.size[SI] = b->size[SI];
	w.size[SN] = 0;
	run_scid5(b, &w, pl, "empty name log");
	HCHECK(pl->open_rc == GAMEDB_OK && pl->warned_headers == b->ngames && strcmp(pl->white0, "?") == 0,
	       "open %d, %lu warned", (int)pl->open_rc, pl->warned_headers);
	w.size[SN] = b->size[SN];
	w.size[SG] = 0;
	run_scid5(b, &w, pl, "empty game file");
	HCHECK(pl->failed_games == b->ngames, "%lu failed", pl->failed_games);
out:
	work_free(&w);
	plan_free(pl);
}

/* ---- the library never writes ----------------------------------------------------------- */

#ifdef _WIN32
static void read_only(const struct base *b)
{
	/* POSIX permissions (a folder made 0555), utimensat() and ctime: not on Windows. */
	printf("read-only: %s: skipped on Windows (POSIX permissions and times)\n", b->path);
}
#else
struct snap {
	struct stat sb;
	uint64_t hash;
};

static int snap_file(const char *path, struct snap *s)
{
	size_t n;
	uint8_t *d = load_file(path, &n);

	if (!d || stat(path, &s->sb) != 0) {
		free(d);
		return -1;
	}
	s->hash = fnv(0xCBF29CE484222325ull, d, n);
	free(d);
	return 0;
}

/* An entry of the walk (walk_files_opt()) over the copy's folder: counted in ctx. */
static void count_entry(const char *folder, const char *name, const char *path, void *ctx)
{
	(void)folder;
	(void)name;
	(void)path;
	(*(int *)ctx)++;
}

/*
 * The names in dir, of every kind: files, folders and names that start with '.' (not "." and
 * "..").
 */
static int count_entries(const char *dir)
{
	int n = 0;

	walk_files_opt(dir, 0, WALK_EVERY_NAME, count_entry, &n);
	return n;
}

static void read_only(const struct base *b)
{
	char dir[] = "/tmp/gamedb-hostile-XXXXXX";
	char paths[3][1200], stem[1200];
	struct snap before[3], after[3];
	struct gamedb_reader *r;
	struct gamedb_game *g;
	int k, entries, pass;
	int32_t rc;
	unsigned long games = 0;

	if (!mkdtemp(dir)) {
		CHECK_MSG(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(stem, sizeof stem, "%s/%s", dir, b->stem);
	for (k = 0; k < 3; k++) {
		FILE *f;
		snprintf(paths[k], sizeof paths[k], "%s/%s", dir, b->names[k]);
		f = fopen(paths[k], "wb");
		CHECK(f != NULL);
		if (!f)
			goto cleanup;
		CHECK(fwrite(b->data[k], 1, b->size[k], f) == b->size[k]);
		fclose(f);
		CHECK(chmod(paths[k], 0444) == 0);
	}
	/* Old times, so that any write would surely move them. */
	for (k = 0; k < 3; k++) {
		struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
		CHECK(utimensat(AT_FDCWD, paths[k], ts, 0) == 0);
		CHECK(snap_file(paths[k], &before[k]) == 0);
	}
	CHECK(chmod(dir, 0555) == 0);
	entries = count_entries(dir);

	snprintf(variant_desc, sizeof variant_desc, "%s: read-only copy", b->path);
	for (pass = 0; pass < 2; pass++) {
		r = gamedb_reader_new();
		rc = gamedb_reader_open_filename(r, pass == 0 ? paths[SI] : stem);
		CHECK_MSG(rc == GAMEDB_OK, "open of the read-only copy (%s) gave %d: %s",
			  pass == 0 ? paths[SI] : stem, (int)rc, gamedb_reader_errmsg(r));
		while (rc == GAMEDB_OK && ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN)) {
			size_t total = 0;
			struct gamedb_game *c = NULL;
			walk_tags(g);
			(void)walk_events(g, GAMEDB_ITER_FEN, NULL, NULL, NULL);
			CHECK(gamedb_game_write_pgn(g, 0, sink_discard, &total) == GAMEDB_OK);
			CHECK(gamedb_game_write_json(g, 0, sink_discard, &total) == GAMEDB_OK);
			CHECK(gamedb_game_dup(g, &c) == GAMEDB_OK);
			gamedb_game_free(c);
			games++;
		}
		CHECK_MSG(rc == GAMEDB_END || rc == GAMEDB_OK, "walk of the read-only copy ended with %d", (int)rc);
		gamedb_reader_free(r);
	}
	CHECK_EQ_INT(games, 2 * (unsigned long)b->ngames);
	CHECK_EQ_INT(count_entries(dir), entries);
	for (k = 0; k < 3; k++) {
		CHECK(snap_file(paths[k], &after[k]) == 0);
		CHECK_MSG(after[k].hash == before[k].hash, "%s: content changed", paths[k]);
		CHECK_MSG(after[k].sb.st_size == before[k].sb.st_size, "%s: size changed", paths[k]);
		CHECK_MSG(after[k].sb.st_mtim.tv_sec == before[k].sb.st_mtim.tv_sec &&
				  after[k].sb.st_mtim.tv_nsec == before[k].sb.st_mtim.tv_nsec,
			  "%s: mtime changed", paths[k]);
		CHECK_MSG(after[k].sb.st_ctime == before[k].sb.st_ctime, "%s: ctime changed", paths[k]);
		CHECK_MSG((after[k].sb.st_mode & 07777) == 0444, "%s: mode changed", paths[k]);
	}
	printf("read-only: %s walked twice (%lu games), files unchanged\n", b->path, games);
cleanup:
	chmod(dir, 0755);
	for (k = 0; k < 3; k++)
		unlink(paths[k]);
	rmdir(dir);
}
#endif

/* ---- main ------------------------------------------------------------------------------- */

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	const char *real = getenv("GAMEDB_REALDATA"), *td = getenv("GAMEDB_TESTDATA");
	char dir[1024];
	struct timespec t0, t1;
	int i, smallest = -1, nreal;

	wanted_ext = argv + 1;
	nwanted = argc - 1;

	/* The real bases, then (with fewer variants) the project's own small test bases. */
	if (real && *real) {
		snprintf(dir, sizeof dir, "%s/scid", real);
		walk_files(dir, 8, find_base, NULL);
		snprintf(dir, sizeof dir, "%s/scid5", real);
		walk_files(dir, 8, find_base, NULL);
	}
	nreal = nbases;
	if (nreal == 0)
		printf("no real SCID base (GAMEDB_REALDATA=%s): testdata only\n", real ? real : "");
	if (td && *td) {
		adding_light = 1;
		snprintf(dir, sizeof dir, "%s/scid", td);
		walk_files(dir, 8, find_base, NULL);
	}
	if (nbases == 0)
		TEST_SKIP("no SCID base under $GAMEDB_REALDATA/scid, $GAMEDB_REALDATA/scid5 or "
			  "$GAMEDB_TESTDATA/scid");
	clock_gettime(CLOCK_MONOTONIC, &t0);

	for (i = 0; i < nbases; i++) {
		struct base *b = bases[i];
		struct stats before = st;
		struct timespec tb;
		clock_gettime(CLOCK_MONOTONIC, &tb);
		pristine(b);
		truncations(b);
		flips(b);
		b->set->attacks(b);
		printf("%s (%u games): %.1f s, %lu variants, %lu opens (%lu failed, %lu warned), "
		       "%lu games read (%lu warned), %lu decoded (%lu failed), %lu isolation checks\n",
		       b->path, b->ngames, seconds_since(&tb), st.variants - before.variants, st.opens - before.opens,
		       st.open_fatal - before.open_fatal, st.open_warn - before.open_warn,
		       st.games - before.games, st.games_warn - before.games_warn,
		       st.decoded - before.decoded, st.decode_failed - before.decode_failed,
		       st.isolation_checked - before.isolation_checked);
		fflush(stdout);
		if (b->ngames && (smallest < 0 || b->size[SG] < bases[smallest]->size[SG]))
			smallest = i;
	}
	if (smallest >= 0)
		read_only(bases[smallest]);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("total: %d bases, %lu opens (%lu failed), %lu games read, %lu decoded (%lu failed), "
	       "%lu events, %lu isolation checks, %.1f s\n",
	       nbases, st.opens, st.open_fatal, st.games, st.decoded, st.decode_failed, st.events,
	       st.isolation_checked, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (i = 0; i < nbases; i++) {
		int k;
		for (k = 0; k < 3; k++)
			free(bases[i]->data[k]);
		free(bases[i]->sg_off);
		free(bases[i]->sg_len);
		free(bases[i]->pgn_hash);
		free(bases[i]->pgn_status);
		free(bases[i]);
	}
	return testlib_done();
}
