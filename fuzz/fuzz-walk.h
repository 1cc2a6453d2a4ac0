/*
 * libgamedb - the checks every fuzz target runs, whatever the format: included once by each
 * fuzz/<format>/target.c, which keeps only its own part: a struct fuzz_target saying how the
 * fuzz input becomes files and how they are opened, handed to fuzz_run(), which opens them from
 * memory and hands the open reader to fuzz_walk_reader().
 *
 * The walk uses the public API as a careful caller would: every game (tags, status, start and
 * final FEN, every event under each iterator flag combination, both writers, a copy), and the
 * SCID and ChessBase handles when the format has one. Whatever include/gamedb/gamedb.h does not
 * allow (a status not documented for the call, a string that is not UTF-8, a square off the
 * game's board, an unbalanced variation, a result that contradicts another call) aborts, so
 * that libFuzzer reports it and the corpus replay (fuzz-regression-<format>) fails.
 */
#ifndef GAMEDB_FUZZ_WALK_H
#define GAMEDB_FUZZ_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#include "../tests/text-n.h"
#include "../tests/utf8-check.h"

#define FUZZ_MAX_INPUT (1u << 20) /* bigger inputs only slow the fuzzer down */
#define FUZZ_MAX_EVENTS (1u << 23) /* more events than this means an iterator that never ends */
#define FUZZ_MAX_TEXTS 256u

#define REQUIRE(cond)                                                                           \
	do {                                                                                   \
		if (!(cond))                                                                   \
			abort();                                                               \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a walk found, for the facts only a target knows (an XQF file holds one game). */
struct fuzz_walk {
	uint64_t count; /* gamedb_reader_game_count() */
	uint64_t read;  /* games delivered (OK or WARN) in the pass from the first game */
	int32_t end;    /* what ended that pass: GAMEDB_END, or GAMEDB_FATAL (also a failed open) */
};

static inline uint32_t fuzz_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Every string the library returns is UTF-8 (the header promises it): check it, hand it back. */
static const char *fuzz_str(const char *s)
{
	REQUIRE(!s || utf8_valid(s, strlen(s)));
	return s;
}

static int fuzz_nonempty(const char *s)
{
	return fuzz_str(s) && s[0];
}

struct fuzz_sink {
	unsigned calls;
	size_t newlines;
	char last;
};

/* Writers hand over a whole game per call; what they write must be UTF-8. utf8_valid() reads
 * every byte, so a bad pointer or length shows under ASan. */
static int32_t fuzz_sink(void *ud, const char *data, size_t len)
{
	struct fuzz_sink *s = ud;
	const char *p, *end = data + len;

	REQUIRE(len > 0 && utf8_valid(data, len));
	for (p = data; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		s->newlines++;
	s->last = data[len - 1];
	s->calls++;
	return 0;
}

static int32_t fuzz_sink_stop(void *ud, const char *data, size_t len)
{
	(void)ud;
	(void)data;
	(void)len;
	return 1;
}

/* One writer run; decoded is what gamedb_move_iter_new() said without GAMEDB_ITER_PARTIAL. */
static void fuzz_write(struct gamedb_game *g, int json, uint32_t flags, int32_t decoded)
{
	int32_t (*writer)(struct gamedb_game *, uint32_t, gamedb_write_fn, void *) =
		json ? gamedb_game_write_json : gamedb_game_write_pgn;
	struct fuzz_sink s = { 0, 0, 0 };
	int32_t rc = writer(g, flags, fuzz_sink, &s);

	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	/* Once per game; nothing, and FAILED, exactly when the moves cannot be decoded. */
	REQUIRE(s.calls == (rc != GAMEDB_FAILED));
	REQUIRE((rc == GAMEDB_FAILED) == (decoded == GAMEDB_FAILED));
	/* PGN ends its game with a blank line; JSON Lines is one line per game. */
	REQUIRE(!s.calls || (s.last == '\n' && (!json || s.newlines == 1)));
}

static int fuzz_same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* The checks of one event; *depth counts the variations open before it. */
static void fuzz_event(const struct gamedb_event *ev, uint32_t flags, int xiangqi, int *depth)
{
	int32_t type = gamedb_event_get_type(ev), from = -1, to = -1, promo = -1, colour = -1, k;
	int32_t moved = gamedb_event_get_move(ev, &from, &to, &promo), squares = xiangqi ? 90 : 64;
	int32_t piece = gamedb_event_get_piece(ev), evdepth = gamedb_event_get_depth(ev);
	int32_t number = gamedb_event_get_move_number(ev, &colour);
	const char *san = fuzz_str(gamedb_event_get_san(ev));
	const char *uci = fuzz_str(gamedb_event_get_uci(ev));
	const char *text = fuzz_str(gamedb_event_get_text(ev)), *raw, *notation[6];
	const char *fen = fuzz_str(gamedb_event_get_fen(ev));
	const char *language = fuzz_str(gamedb_event_get_language(ev));
	int comment = type == GAMEDB_EVENT_COMMENT_BEFORE || type == GAMEDB_EVENT_COMMENT_AFTER;
	volatile unsigned char touched;
	size_t rawlen = (size_t)-1, i;

	REQUIRE(type >= GAMEDB_EVENT_MOVE && type <= GAMEDB_EVENT_ANNOTATION);
	REQUIRE(text_n_agrees(ev)); /* the text with its length */
	REQUIRE(evdepth >= 0 && (evdepth == 0 || !(flags & GAMEDB_ITER_MAINLINE_ONLY)));
	REQUIRE(!comment || !(flags & GAMEDB_ITER_SKIP_COMMENTS));
	REQUIRE(moved == (type == GAMEDB_EVENT_MOVE ? GAMEDB_OK : GAMEDB_FAILED));
	REQUIRE(piece >= GAMEDB_PIECE_NONE && piece <= GAMEDB_PIECE_CANNON);
	for (k = GAMEDB_NOTATION_SAN; k <= GAMEDB_NOTATION_CHINESE; k++)
		notation[k] = fuzz_str(gamedb_event_get_notation(ev, k));
	REQUIRE((gamedb_event_get_nag(ev) >= 0) == (type == GAMEDB_EVENT_NAG));
	REQUIRE(gamedb_event_get_nag(ev) >= -1);
	REQUIRE(type == GAMEDB_EVENT_ANNOTATION || gamedb_event_get_annotation_type(ev) == -1);
	REQUIRE((language != NULL) == comment);

	/* Stored bytes: a comment's are NUL-terminated text; an annotation's payload may hold
	 * NULs, so all rawlen bytes are read, for ASan to see a bad length. */
	raw = gamedb_event_get_text_raw(ev, &rawlen);
	REQUIRE((raw != NULL) == (comment || type == GAMEDB_EVENT_ANNOTATION));
	for (i = 0; raw && i < rawlen; i++)
		touched = (unsigned char)raw[i];
	(void)touched;
	REQUIRE(!comment || rawlen == strlen(raw));

	if (type != GAMEDB_EVENT_MOVE) {
		REQUIRE(!san && !uci && !fen && piece == 0 && number == 0);
		for (k = GAMEDB_NOTATION_SAN; k <= GAMEDB_NOTATION_CHINESE; k++)
			REQUIRE(notation[k] == NULL);
	}
	switch (type) {
	case GAMEDB_EVENT_MOVE:
		/* A drop (crazyhouse, bughouse) comes from no square: from == -1, "P@e4". */
		REQUIRE(from >= (xiangqi ? 0 : -1) && from < squares && to >= 0 && to < squares &&
			!text);
		REQUIRE((from == -1) == (uci && strchr(uci, '@') != NULL) &&
			(from != -1 || (piece >= GAMEDB_PIECE_PAWN && piece <= GAMEDB_PIECE_QUEEN &&
					promo == 0 && san && strchr(san, '@'))));
		REQUIRE(san && uci && number >= 0 && (colour == 0 || colour == 1));
		REQUIRE(!(flags & GAMEDB_ITER_FEN) || fuzz_nonempty(fen));
		/* SAN is WXF for xiangqi, UCI is ICCS; WXF and Chinese are xiangqi's only. */
		REQUIRE(fuzz_same(notation[GAMEDB_NOTATION_SAN], san) &&
			fuzz_same(notation[GAMEDB_NOTATION_UCI], uci) &&
			fuzz_same(notation[GAMEDB_NOTATION_ICCS], uci));
		REQUIRE(!notation[GAMEDB_NOTATION_WXF] == !xiangqi &&
			!notation[GAMEDB_NOTATION_CHINESE] == !xiangqi);
		if (xiangqi) /* squares are rank * 9 + file; there is no null move */
			REQUIRE(from != to && promo == 0 && strlen(uci) == 4 &&
				fuzz_same(notation[GAMEDB_NOTATION_WXF], san));
		else /* a null move is from == to, "0000", no piece; so is a castling whose king
		      * stays on its square, but with the king, and its UCI the king taking its
		      * rook (two squares) */
			REQUIRE((promo == 0 ||
				 (promo >= GAMEDB_PIECE_KNIGHT && promo <= GAMEDB_PIECE_QUEEN)) &&
				(strlen(uci) == 4 || strlen(uci) == 5) &&
				!strcmp(uci, "0000") == (piece == 0) &&
				(from != to || piece == 0 ||
				 (piece == GAMEDB_PIECE_KING && !strncmp(san, "O-O", 3) &&
				  strncmp(uci, uci + 2, 2) != 0)) &&
				(piece != 0 || from == to));
		break;
	case GAMEDB_EVENT_VARIATION_BEGIN:
		REQUIRE(!text);
		++*depth;
		break;
	case GAMEDB_EVENT_VARIATION_END:
		REQUIRE(!text && (*depth)-- > 0);
		break;
	case GAMEDB_EVENT_NAG:
		REQUIRE(!text);
		break;
	case GAMEDB_EVENT_COMMENT_BEFORE:
	case GAMEDB_EVENT_COMMENT_AFTER:
		/* XQF (the xiangqi format) stores no empty comment; SCID may. */
		REQUIRE(text && (!xiangqi || text[0]));
		break;
	case GAMEDB_EVENT_RESULT: /* on the main line */
		REQUIRE(text && *depth == 0 && evdepth == 0);
		break;
	case GAMEDB_EVENT_CLOCK:
	case GAMEDB_EVENT_COMMAND:
		REQUIRE(text != NULL);
		break;
	default:
		break;
	}
}

/* Walks every event of g under the iterator flags; returns what gamedb_move_iter_new() said,
 * *count the number of events. */
static int32_t fuzz_walk_events(struct gamedb_game *g, uint32_t flags, size_t *count)
{
	int xiangqi = gamedb_game_get_variant(g) == GAMEDB_VARIANT_XIANGQI, depth = 0, ended = 0;
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	int32_t rc = gamedb_move_iter_new(g, flags, &it), next;

	*count = 0;
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_FAILED ||
		(rc == GAMEDB_WARN && (flags & GAMEDB_ITER_PARTIAL)));
	if (rc == GAMEDB_FAILED) {
		REQUIRE(it == NULL && fuzz_nonempty(gamedb_game_errmsg(g)));
		return rc;
	}
	REQUIRE(it != NULL);
	while ((next = gamedb_move_iter_next(it, &ev)) == GAMEDB_OK) {
		REQUIRE(++*count < FUZZ_MAX_EVENTS && !ended); /* the result comes last */
		fuzz_event(ev, flags, xiangqi, &depth);
		ended = gamedb_event_get_type(ev) == GAMEDB_EVENT_RESULT;
	}
	REQUIRE(next == GAMEDB_END && depth == 0);
	gamedb_move_iter_free(it);
	return rc;
}

/* The game packed (gamedb_game_write_packed()) with flags: the size asked with no room, then
 * written into exactly that room; the same status as the iterator's (want), as many records
 * as it has events. */
static void fuzz_packed(struct gamedb_game *g, uint32_t flags, int32_t want, size_t events)
{
	size_t need = 1, len = 0;
	unsigned char *buf;
	int32_t rc = gamedb_game_write_packed(g, flags, NULL, 0, &need);

	REQUIRE(rc == want);
	if (rc == GAMEDB_FAILED) {
		REQUIRE(need == 0);
		return;
	}
	REQUIRE(need >= 56 + 32 * events);
	buf = malloc(need);
	REQUIRE(buf != NULL);
	REQUIRE(gamedb_game_write_packed(g, flags, buf, need - 1, &len) == want && len == need);
	REQUIRE(gamedb_game_write_packed(g, flags, buf, need, &len) == want && len == need);
	REQUIRE(!memcmp(buf, "GDBK", 4) && buf[16] == (unsigned char)events &&
		buf[17] == (unsigned char)(events >> 8));
	free(buf);
}

/* The ChessBase fields of a game of the base: 1..12 are known (>= 0), 13 (the encoding mode)
 * is 0..63 or -1 when the .cbg record cannot be read, others are not known (-1). A copy is
 * taken as a game of the base it came from: its fields are the original's, held in v. */
static void fuzz_cb_fields(struct gamedb_chessbase *cb, const struct gamedb_game *g, int copy,
			   int64_t v[15])
{
	int32_t f;

	for (f = 0; f < 15; f++) {
		int64_t x = gamedb_chessbase_get_game_field(cb, g, f);
		REQUIRE(f == GAMEDB_CB_ENCODING_MODE ? x >= -1 && x <= 63 :
			f >= GAMEDB_CB_RECORD_FLAGS && f <= GAMEDB_CB_MAINLINE_MOVES ? x >= 0
										     : x == -1);
		REQUIRE(!copy || x == v[f]);
		v[f] = x;
	}
}

static void fuzz_walk_game(struct gamedb_reader *r, struct gamedb_game *g, uint64_t index)
{
	static const char *const roster[7] = { "Event", "Site", "Date", "Round",
					       "White", "Black", "Result" };
	struct gamedb_scid *sh = gamedb_reader_get_scid(r);
	struct gamedb_chessbase *cb = gamedb_reader_get_chessbase(r);
	struct gamedb_game *copy = NULL;
	const char *name, *value, *cs, *raw;
	size_t i, n, rawlen, events, partial_events, ignored;
	int32_t rc, decoded, partial, variant = gamedb_game_get_variant(g);
	int64_t fields[15];

	REQUIRE(gamedb_game_get_index(g) == index);
	REQUIRE(variant >= GAMEDB_VARIANT_CHESS && variant <= GAMEDB_VARIANT_CRAZYHOUSE);
	REQUIRE((variant == GAMEDB_VARIANT_XIANGQI) ==
		!!(gamedb_reader_capabilities(r) & GAMEDB_CAP_XIANGQI));
	/* Tags from the index first (ChessBase reads no .cbg for them), then all of them. */
	(void)fuzz_str(gamedb_game_get_tag(g, "White"));
	(void)fuzz_str(gamedb_game_get_tag(g, "Annotator"));
	(void)fuzz_str(gamedb_game_get_tag(g, "FEN"));
	n = gamedb_game_get_tag_count(g);
	REQUIRE(n >= 7);
	for (i = 0; i <= n; i++) {
		name = value = NULL;
		rc = gamedb_game_get_tag_at(g, i, &name, &value);
		REQUIRE((rc == GAMEDB_OK) == (i < n));
		if (rc != GAMEDB_OK)
			continue;
		/* the Seven Tag Roster first, always */
		REQUIRE(fuzz_nonempty(name) && fuzz_str(value) &&
			(i >= 7 || !strcmp(name, roster[i])));
		REQUIRE(fuzz_str(gamedb_game_get_tag(g, name)) != NULL);
		raw = gamedb_game_get_tag_raw(g, name, &rawlen, &cs);
		REQUIRE(raw != NULL && raw[rawlen] == 0);
	}
	REQUIRE(fuzz_nonempty(gamedb_game_get_fen(g)));
	REQUIRE(gamedb_game_is_deleted(g) == 0 || gamedb_game_is_deleted(g) == 1);
	REQUIRE(gamedb_game_get_status(g) == GAMEDB_OK || gamedb_game_get_status(g) == GAMEDB_WARN);
	(void)fuzz_str(gamedb_game_errmsg(g));
	if (sh) /* flag bit 3: deleted */
		REQUIRE((gamedb_scid_get_game_flags(sh, g) >> 3 & 1) ==
			(uint32_t)gamedb_game_is_deleted(g));
	if (cb)
		fuzz_cb_fields(cb, g, 0, fields);

	/* Every iterator flag combination, each judged against the plain walk: whether the moves
	 * decode does not depend on the flags, and a partial walk of a good game is the whole. */
	decoded = fuzz_walk_events(g, GAMEDB_ITER_FEN, &events);
	REQUIRE((fuzz_str(gamedb_game_get_final_fen(g)) != NULL) == (decoded == GAMEDB_OK));
	(void)fuzz_str(gamedb_game_errmsg(g));
	REQUIRE(fuzz_nonempty(gamedb_game_get_fen(g)));
	partial = fuzz_walk_events(g, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_FEN, &partial_events);
	REQUIRE((partial == GAMEDB_OK) == (decoded == GAMEDB_OK));
	REQUIRE(decoded != GAMEDB_OK || partial_events == events);
	REQUIRE(fuzz_walk_events(g, GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS,
				 &ignored) == decoded);
	REQUIRE(fuzz_walk_events(g, GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS |
					    GAMEDB_ITER_PARTIAL, &ignored) == partial);
	REQUIRE(fuzz_walk_events(g, GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_PARTIAL, &ignored) ==
		partial);

	fuzz_packed(g, GAMEDB_ITER_FEN | GAMEDB_PACK_KEYS, decoded, events);
	fuzz_packed(g, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_FEN, partial, partial_events);
	fuzz_write(g, 0, 0, decoded);
	fuzz_write(g, 0, GAMEDB_WRITE_NO_COMMENTS | GAMEDB_WRITE_NO_VARIATIONS |
				 GAMEDB_WRITE_NO_NAGS, decoded);
	if (variant == GAMEDB_VARIANT_XIANGQI) { /* the notations only xiangqi has */
		fuzz_write(g, 0, GAMEDB_WRITE_NO_COMMANDS | GAMEDB_WRITE_WXF, decoded);
		fuzz_write(g, 0, GAMEDB_WRITE_CHINESE, decoded);
	}
	fuzz_write(g, 1, 0, decoded);
	fuzz_write(g, 1, GAMEDB_WRITE_NO_COMMENTS, decoded);
	REQUIRE(gamedb_game_write_pgn(g, 0, fuzz_sink_stop, NULL) == GAMEDB_FAILED);

	/* A copy holds the same game (the legal part of a broken one). */
	rc = gamedb_game_dup(g, &copy);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	REQUIRE((copy != NULL) == (rc != GAMEDB_FAILED));
	if (!copy)
		return;
	REQUIRE(decoded == GAMEDB_OK || rc == GAMEDB_WARN);
	REQUIRE(gamedb_game_get_index(copy) == index && gamedb_game_get_variant(copy) == variant);
	rc = fuzz_walk_events(copy, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_FEN, &events);
	REQUIRE(partial == GAMEDB_FAILED || events == partial_events);
	REQUIRE(fuzz_walk_events(copy, GAMEDB_ITER_PARTIAL, &events) == rc);
	fuzz_write(copy, 0, 0, decoded);
	fuzz_write(copy, 1, 0, decoded);
	if (cb)
		fuzz_cb_fields(cb, copy, 1, fields);
	gamedb_game_free(copy);
}

/* The guiding texts of a ChessBase base, and one past the last. */
static void fuzz_cb_texts(struct gamedb_chessbase *cb)
{
	uint64_t i, nt = gamedb_chessbase_get_text_count(cb);

	for (i = 0; i <= nt && i <= FUZZ_MAX_TEXTS; i++) {
		int32_t rc = gamedb_chessbase_load_text(cb, i), k, nk, fmt;
		const char *lang, *content;
		size_t len;

		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
		REQUIRE(i < nt || rc == GAMEDB_FAILED);
		nk = gamedb_chessbase_get_text_title_count(cb);
		REQUIRE(nk >= 0 && (rc != GAMEDB_FAILED || nk == 0));
		for (k = -1; k <= nk; k++) {
			const char *t = fuzz_str(gamedb_chessbase_get_text_title(cb, k, &lang));
			REQUIRE((t != NULL) == (k >= 0 && k < nk));
			REQUIRE(!t || fuzz_str(lang) != NULL);
		}
		content = gamedb_chessbase_get_text_content(cb, &fmt, &len);
		REQUIRE((content != NULL) == (rc != GAMEDB_FAILED));
		REQUIRE(!content || (strlen(content) == len && utf8_valid(content, len)));
	}
}

/* After GAMEDB_FATAL the reader says so, with a reason, to every call. */
static void fuzz_fatal(struct gamedb_reader *r)
{
	struct gamedb_game *g = NULL;

	REQUIRE(fuzz_nonempty(gamedb_reader_errmsg(r)) && gamedb_reader_errcode(r) != 0);
	REQUIRE(gamedb_reader_next_game(r, &g) == GAMEDB_FATAL);
	REQUIRE(fuzz_nonempty(gamedb_reader_errmsg(r)));
}

/*
 * Walks a reader the target has opened (open_rc: what the open returned): its format handle,
 * every game in order, then (with GAMEDB_CAP_SEEK) a seek past the end and back to the last
 * game. The caller still frees the reader.
 */
static struct fuzz_walk fuzz_walk_reader(struct gamedb_reader *r, int32_t open_rc)
{
	struct fuzz_walk w = { 0, 0, GAMEDB_FATAL };
	struct gamedb_scid *sh;
	struct gamedb_chessbase *cb;
	struct gamedb_game *g;
	const char *format;
	int32_t rc, last = GAMEDB_END, k;
	uint64_t seen = 0;

	REQUIRE(open_rc == GAMEDB_OK || open_rc == GAMEDB_WARN || open_rc == GAMEDB_FATAL);
	REQUIRE(fuzz_str(gamedb_reader_errmsg(r)) != NULL);
	if (open_rc == GAMEDB_FATAL) {
		fuzz_fatal(r);
		return w;
	}
	format = fuzz_str(gamedb_reader_format(r));
	sh = gamedb_reader_get_scid(r);
	cb = gamedb_reader_get_chessbase(r);
	REQUIRE(format && (sh != NULL) == !strcmp(format, "scid") &&
		(cb != NULL) == !strcmp(format, "chessbase"));
	if (gamedb_reader_capabilities(r) & GAMEDB_CAP_COUNT) {
		REQUIRE(gamedb_reader_game_count(r, &w.count) == GAMEDB_OK);
	} else {
		/* A stream (style12): its games are counted as they come. */
		REQUIRE(gamedb_reader_game_count(r, &w.count) == GAMEDB_FAILED &&
			gamedb_reader_errcode(r) == GAMEDB_E_UNSUPPORTED);
		w.count = UINT64_MAX;
	}
	if (sh) {
		REQUIRE(gamedb_scid_get_version(sh) == 300 || gamedb_scid_get_version(sh) == 400 ||
			gamedb_scid_get_version(sh) == 500);
		REQUIRE(fuzz_str(gamedb_scid_get_description(sh)) != NULL);
		(void)gamedb_scid_get_base_type(sh);
		(void)gamedb_scid_get_autoload(sh);
		for (k = 0; k <= 7; k++) /* custom flags are 1..6 */
			REQUIRE(!fuzz_str(gamedb_scid_get_flag_name(sh, k)) == (k < 1 || k > 6));
	}
	if (cb) {
		REQUIRE(fuzz_nonempty(gamedb_chessbase_get_charset(cb)));
		fuzz_cb_texts(cb);
	}
	{
		/* The base's own properties: UTF-8 names (lower case, hyphens) and values, each
		 * found by its name; a repair is a warning of the documented kinds. */
		const int32_t n = gamedb_reader_get_property_count(r);
		const int32_t e = gamedb_reader_errcode(r);
		REQUIRE(n >= 0 && n <= 64);
		REQUIRE(e == GAMEDB_E_NONE || e == GAMEDB_E_ENCODING || e == GAMEDB_E_CORRUPT ||
			e == GAMEDB_E_IO);
		for (k = 0; k < n; k++) {
			const char *name = fuzz_str(gamedb_reader_get_property_name(r, k));
			const char *v = fuzz_str(gamedb_reader_get_property_value(r, k));
			REQUIRE(name && name[0] && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
							     strlen(name));
			REQUIRE(v && gamedb_reader_get_property(r, name) == v);
		}
		REQUIRE(!gamedb_reader_get_property_name(r, n) && !gamedb_reader_get_property_value(r, -1));
	}
	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_END ||
			rc == GAMEDB_FAILED || rc == GAMEDB_FATAL);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		REQUIRE(++seen <= w.count);
		last = rc;
		if (rc == GAMEDB_FAILED) {
			REQUIRE(g == NULL && fuzz_nonempty(gamedb_reader_errmsg(r)));
			continue;
		}
		REQUIRE(g != NULL && fuzz_str(gamedb_reader_errmsg(r)) != NULL);
		w.read++;
		fuzz_walk_game(r, g, seen - 1);
		(void)fuzz_str(gamedb_reader_errmsg(r));
		if (cb && seen == 1) {
			/* The options change how the rest is read: names, texts, comments. */
			rc = gamedb_reader_set_option(r, "chessbase", "charset-detect", "yes");
			REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_FAILED);
			rc = gamedb_reader_set_option(r, "chessbase", "language", "de");
			REQUIRE(rc == GAMEDB_OK);
			REQUIRE(fuzz_nonempty(gamedb_chessbase_get_charset(cb)));
		}
	}
	w.end = rc;
	if (w.count == UINT64_MAX)
		w.count = seen;
	if (rc == GAMEDB_FATAL)
		fuzz_fatal(r);
	else
		REQUIRE(seen == w.count);
	if (cb) /* the texts stay readable (or fail cleanly) even after a fatal error */
		fuzz_cb_texts(cb);
	if (rc == GAMEDB_FATAL || !(gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK))
		return w;
	REQUIRE(gamedb_reader_seek_game(r, w.count) == GAMEDB_FAILED &&
		gamedb_reader_errcode(r) == GAMEDB_E_RANGE);
	if (w.count) {
		/* The last game again, readable exactly when it was the first time. */
		REQUIRE(gamedb_reader_seek_game(r, w.count - 1) == GAMEDB_OK);
		rc = gamedb_reader_next_game(r, &g);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
		REQUIRE((rc == GAMEDB_FAILED) == (last == GAMEDB_FAILED));
		if (rc != GAMEDB_FAILED)
			fuzz_walk_game(r, g, w.count - 1);
	}
	return w;
}

/* Which formats a target's reader has before the open. */
enum fuzz_formats {
	FUZZ_FORMATS_NONE,  /* none enabled: what a reader does with none */
	FUZZ_FORMATS_ALL,   /* gamedb_reader_support_format_all(): every format bids */
	FUZZ_FORMAT_BIDS,   /* gamedb_reader_support_format(format): that format alone bids */
	FUZZ_FORMAT_FORCED  /* gamedb_reader_set_format(format): no bidding */
};

#define FUZZ_MAX_FILES 16

/*
 * A target: the files its input becomes and how they are opened. With nlengths > 0 the input
 * starts with nlengths little-endian uint32 lengths, of files 0 .. nlengths-1 in turn, each
 * clipped to what is left; file nlengths is the rest. With nlengths 0 the input is file 0 as it
 * is. names[k] is the name of file from[k] (from NULL: of file k), so that one file can be
 * offered under several names.
 */
struct fuzz_target {
	enum fuzz_formats formats;
	const char *format; /* for FUZZ_FORMAT_BIDS and FUZZ_FORMAT_FORCED */
	size_t nlengths;
	size_t nnames;
	const char *const *names;
	const unsigned char *from;
	/* a reader option set before the open (gamedb_reader_set_option(), any format); or NULL */
	const char *option, *option_value;
	/* the format's own facts about the walked reader (open_rc: what the open said); or NULL */
	void (*check)(struct gamedb_reader *r, int32_t open_rc, struct fuzz_walk w);
};

/* A target's LLVMFuzzerTestOneInput(): splits the input into files, opens them from memory,
 * walks the reader, then runs the target's own check. */
static inline int fuzz_run(const struct fuzz_target *t, const uint8_t *data, size_t size)
{
	const void *part[FUZZ_MAX_FILES], *files[FUZZ_MAX_FILES];
	size_t psize[FUZZ_MAX_FILES], sizes[FUZZ_MAX_FILES], left, pos, k;
	struct gamedb_reader *r;
	struct fuzz_walk w;
	int32_t rc;

	REQUIRE(t->nlengths < FUZZ_MAX_FILES && t->nnames <= FUZZ_MAX_FILES);
	if (size > FUZZ_MAX_INPUT || size < 4 * t->nlengths)
		return 0;
	pos = 4 * t->nlengths;
	left = size - pos;
	for (k = 0; k < t->nlengths; k++) {
		size_t n = fuzz_le32(data + 4 * k);
		if (n > left)
			n = left;
		part[k] = data + pos;
		psize[k] = n;
		pos += n;
		left -= n;
	}
	part[k] = data + pos;
	psize[k] = left;
	for (k = 0; k < t->nnames; k++) {
		size_t f = t->from ? t->from[k] : k;
		REQUIRE(f <= t->nlengths);
		files[k] = part[f];
		sizes[k] = psize[f];
	}

	r = gamedb_reader_new();
	if (!r)
		return 0;
	if (t->formats == FUZZ_FORMATS_ALL)
		REQUIRE(gamedb_reader_support_format_all(r) == GAMEDB_OK);
	else if (t->formats == FUZZ_FORMAT_BIDS)
		REQUIRE(gamedb_reader_support_format(r, t->format) == GAMEDB_OK);
	else if (t->formats == FUZZ_FORMAT_FORCED)
		REQUIRE(gamedb_reader_set_format(r, t->format) == GAMEDB_OK);
	if (t->option)
		REQUIRE(gamedb_reader_set_option(r, NULL, t->option, t->option_value) == GAMEDB_OK);
	rc = gamedb_reader_open_memory_set(r, t->names, files, sizes, t->nnames);
	w = fuzz_walk_reader(r, rc);
	if (t->check)
		t->check(r, rc, w);
	gamedb_reader_free(r);
	return 0;
}

#endif /* GAMEDB_FUZZ_WALK_H */
