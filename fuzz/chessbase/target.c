/*
 * libgamedb - fuzz target for the ChessBase reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input framing (our own): eight little-endian uint32 lengths, then the files of a base in this
 * order, each clipped to what is left; whatever follows is the .cbj:
 *
 *   [8 x le32: cbh cbg cba cbp cbt cbc cbs cbe][cbh][cbg][cba][cbp][cbt][cbc][cbs][cbe][cbj]
 *
 * fuzz/chessbase/make-corpus.py writes seeds in this framing. The base is opened from memory;
 * every game (tags, the ChessBase fields, every event, both writers, a copy), every guiding
 * text and both ChessBase options are walked. A status the API does not document for a call,
 * or a string that is not UTF-8, aborts, so that the fuzzer reports it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#include "../../tests/utf8-check.h"

#define MAX_INPUT (1u << 20)
#define MAX_EVENTS (1u << 23)
#define MAX_TEXTS 256u
#define NFILES 9

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                                           \
	do {                                                                                   \
		if (!(cond))                                                                   \
			abort();                                                               \
	} while (0)

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static size_t use_string(const char *s)
{
	if (!s)
		return 0;
	REQUIRE(utf8_valid(s, strlen(s)));
	return strlen(s);
}

static int32_t sink(void *ud, const char *d, size_t len)
{
	size_t *total = ud;

	REQUIRE(utf8_valid(d, len));
	if (len)
		*total += (unsigned char)d[0] + (unsigned char)d[len - 1];
	*total += len;
	return 0;
}

static void walk_events(struct gamedb_game *g, uint32_t flags)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	int32_t rc = gamedb_move_iter_new(g, flags, &it);
	size_t n = 0, rawlen;
	int depth = 0;

	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_FAILED ||
		(rc == GAMEDB_WARN && (flags & GAMEDB_ITER_PARTIAL)));
	if (rc == GAMEDB_FAILED) {
		REQUIRE(it == NULL && use_string(gamedb_game_errmsg(g)) != 0);
		return;
	}
	while ((rc = gamedb_move_iter_next(it, &ev)) == GAMEDB_OK) {
		int32_t type = gamedb_event_get_type(ev), from, to, promo, colour;

		REQUIRE(++n < MAX_EVENTS);
		REQUIRE(type >= GAMEDB_EVENT_MOVE && type <= GAMEDB_EVENT_ANNOTATION);
		(void)gamedb_event_get_move(ev, &from, &to, &promo);
		(void)gamedb_event_get_piece(ev);
		(void)use_string(gamedb_event_get_san(ev));
		(void)use_string(gamedb_event_get_uci(ev));
		(void)use_string(gamedb_event_get_fen(ev));
		(void)use_string(gamedb_event_get_text(ev));
		(void)use_string(gamedb_event_get_language(ev));
		(void)gamedb_event_get_text_raw(ev, &rawlen);
		(void)gamedb_event_get_nag(ev);
		(void)gamedb_event_get_annotation_type(ev);
		(void)gamedb_event_get_move_number(ev, &colour);
		if (type == GAMEDB_EVENT_MOVE)
			REQUIRE(from >= 0 && from < 64 && to >= 0 && to < 64 &&
				gamedb_event_get_san(ev) != NULL);
		else if (type == GAMEDB_EVENT_VARIATION_BEGIN)
			depth++;
		else if (type == GAMEDB_EVENT_VARIATION_END)
			REQUIRE(depth-- > 0);
	}
	REQUIRE(rc == GAMEDB_END && depth == 0);
	gamedb_move_iter_free(it);
}

static void walk_game(struct gamedb_chessbase *cb, struct gamedb_game *g)
{
	size_t i, n, total = 0, rawlen;
	const char *name, *value, *cs;
	struct gamedb_game *copy = NULL;
	int32_t rc, f;

	/* The index tags first (no .cbg read), then the rest. */
	(void)use_string(gamedb_game_get_tag(g, "White"));
	(void)use_string(gamedb_game_get_tag(g, "Annotator"));
	n = gamedb_game_get_tag_count(g);
	for (i = 0; i <= n; i++) {
		rc = gamedb_game_get_tag_at(g, i, &name, &value);
		REQUIRE((rc == GAMEDB_OK) == (i < n));
		if (rc == GAMEDB_OK) {
			total += use_string(name) + use_string(value);
			(void)gamedb_game_get_tag_raw(g, name, &rawlen, &cs);
		}
	}
	(void)use_string(gamedb_game_get_fen(g));
	(void)gamedb_game_get_variant(g);
	(void)gamedb_game_is_deleted(g);
	for (f = 0; f <= 13; f++)
		REQUIRE(gamedb_chessbase_get_game_field(cb, g, f) >= -1);
	walk_events(g, GAMEDB_ITER_FEN);
	(void)use_string(gamedb_game_get_final_fen(g));
	walk_events(g, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_MAINLINE_ONLY);
	rc = gamedb_game_write_pgn(g, 0, sink, &total);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	rc = gamedb_game_write_json(g, 0, sink, &total);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	rc = gamedb_game_dup(g, &copy);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	if (copy) {
		for (f = 1; f <= 12; f++)
			REQUIRE(gamedb_chessbase_get_game_field(cb, copy, f) >= -1);
		rc = gamedb_game_write_pgn(copy, 0, sink, &total);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
		gamedb_game_free(copy);
	}
}

static void walk_texts(struct gamedb_chessbase *cb)
{
	uint64_t i, nt = gamedb_chessbase_get_text_count(cb);

	for (i = 0; i <= nt && i <= MAX_TEXTS; i++) {
		int32_t rc = gamedb_chessbase_load_text(cb, i), k, nk, fmt;
		const char *lang, *content;
		size_t len;

		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
		REQUIRE(i < nt || rc == GAMEDB_FAILED);
		nk = gamedb_chessbase_get_text_title_count(cb);
		REQUIRE(nk >= 0 && (rc != GAMEDB_FAILED || nk == 0));
		for (k = -1; k <= nk; k++) {
			const char *t = gamedb_chessbase_get_text_title(cb, k, &lang);
			REQUIRE((t != NULL) == (k >= 0 && k < nk));
			if (t)
				(void)use_string(t), (void)use_string(lang);
		}
		content = gamedb_chessbase_get_text_content(cb, &fmt, &len);
		REQUIRE((content != NULL) == (rc != GAMEDB_FAILED));
		if (content)
			REQUIRE(strlen(content) == len && utf8_valid(content, len));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[NFILES] = { "fuzz.cbh", "fuzz.cbg", "fuzz.cba",
						   "fuzz.cbp", "fuzz.cbt", "fuzz.cbc",
						   "fuzz.cbs", "fuzz.cbe", "fuzz.cbj" };
	const void *files[NFILES];
	size_t sizes[NFILES], left, pos = 32;
	struct gamedb_reader *r;
	struct gamedb_chessbase *cb;
	struct gamedb_game *g;
	uint64_t count = 0, seen = 0;
	int32_t rc;
	int k;

	if (size > MAX_INPUT || size < 32)
		return 0;
	left = size - 32;
	for (k = 0; k < NFILES - 1; k++) {
		size_t n = le32(data + 4 * k);
		if (n > left)
			n = left;
		files[k] = data + pos;
		sizes[k] = n;
		pos += n;
		left -= n;
	}
	files[NFILES - 1] = data + pos;
	sizes[NFILES - 1] = left;

	r = gamedb_reader_new();
	if (!r)
		return 0;
	REQUIRE(gamedb_reader_set_format(r, "chessbase") == GAMEDB_OK);
	rc = gamedb_reader_open_memory_set(r, names, files, sizes, NFILES);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FATAL);
	(void)use_string(gamedb_reader_errmsg(r));
	if (rc == GAMEDB_FATAL) {
		REQUIRE(gamedb_reader_errmsg(r)[0] != 0);
		gamedb_reader_free(r);
		return 0;
	}
	cb = gamedb_reader_get_chessbase(r);
	REQUIRE(cb != NULL);
	REQUIRE(gamedb_reader_game_count(r, &count) == GAMEDB_OK);
	(void)use_string(gamedb_chessbase_get_charset(cb));
	walk_texts(cb);
	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_END ||
			rc == GAMEDB_FAILED || rc == GAMEDB_FATAL);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		REQUIRE(++seen <= count);
		if (rc == GAMEDB_FAILED)
			continue;
		walk_game(cb, g);
		if (seen == 1) {
			/* The options change how the rest is read: names, texts, comments. */
			rc = gamedb_reader_set_option(r, "chessbase", "charset-detect", "yes");
			REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_FAILED);
			REQUIRE(gamedb_reader_set_option(r, "chessbase", "language", "de") == GAMEDB_OK);
			(void)use_string(gamedb_chessbase_get_charset(cb));
		}
	}
	if (rc == GAMEDB_END)
		REQUIRE(seen == count);
	walk_texts(cb);
	if (count && gamedb_reader_seek_game(r, count - 1) == GAMEDB_OK &&
	    gamedb_reader_next_game(r, &g) == GAMEDB_OK)
		walk_game(cb, g);
	gamedb_reader_free(r);
	return 0;
}
