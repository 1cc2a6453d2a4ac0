/*
 * libgamedb - fuzz target for the XQF reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input: one XQF file as it is (an XQF game is a single file), opened from memory with only
 * the XQF format enabled, so that mutations of the header (version, key bytes, piece table)
 * and of the encrypted move tree all reach the reader. Every accessor of the game and of each event is
 * used, in the notations xiangqi has, and both writers run; a status the API does not document
 * for a call aborts, so the fuzzer reports it. Seeds: fuzz/xqf/corpus (written by
 * tests/make-xqf-fixtures.py from the game trees there).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#define MAX_INPUT (1u << 20)
#define MAX_EVENTS (1u << 23)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "../../tests/utf8-check.h"

#define REQUIRE(cond)                                                                           \
	do {                                                                                   \
		if (!(cond))                                                                   \
			abort();                                                               \
	} while (0)

/* Writers hand over whole games; what they write must be UTF-8 too. */
static int32_t sink(void *ud, const char *data, size_t len)
{
	size_t *total = ud;

	REQUIRE(utf8_valid(data, len));
	if (len) /* touch both ends, so that a bad pointer or length shows under ASan */
		*total += (unsigned char)data[0] + (unsigned char)data[len - 1];
	*total += len;
	return 0;
}

static size_t use_string(const char *s)
{
	if (!s)
		return 0;
	REQUIRE(utf8_valid(s, strlen(s)));
	return strlen(s);
}

static void walk_events(struct gamedb_game *g, uint32_t flags)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	int32_t rc = gamedb_move_iter_new(g, flags, &it);
	size_t n = 0;
	int depth = 0;

	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_FAILED ||
		(rc == GAMEDB_WARN && (flags & GAMEDB_ITER_PARTIAL)));
	if (rc == GAMEDB_FAILED) {
		REQUIRE(it == NULL && use_string(gamedb_game_errmsg(g)) != 0);
		return;
	}
	REQUIRE(it != NULL);
	while ((rc = gamedb_move_iter_next(it, &ev)) == GAMEDB_OK) {
		int32_t type = gamedb_event_get_type(ev), from = -1, to = -1, promo, colour, k;
		size_t rawlen = 0;

		REQUIRE(++n < MAX_EVENTS);
		REQUIRE(type >= GAMEDB_EVENT_MOVE && type <= GAMEDB_EVENT_ANNOTATION);
		(void)gamedb_event_get_move(ev, &from, &to, &promo);
		(void)gamedb_event_get_piece(ev);
		(void)use_string(gamedb_event_get_san(ev));
		(void)use_string(gamedb_event_get_uci(ev));
		(void)use_string(gamedb_event_get_fen(ev));
		for (k = GAMEDB_NOTATION_SAN; k <= GAMEDB_NOTATION_CHINESE; k++)
			(void)use_string(gamedb_event_get_notation(ev, k));
		(void)use_string(gamedb_event_get_text(ev));
		(void)gamedb_event_get_text_raw(ev, &rawlen);
		(void)use_string(gamedb_event_get_language(ev));
		(void)gamedb_event_get_nag(ev);
		(void)gamedb_event_get_move_number(ev, &colour);
		REQUIRE(gamedb_event_get_depth(ev) >= 0);
		switch (type) {
		case GAMEDB_EVENT_MOVE:
			/* xiangqi squares are rank * 9 + file */
			REQUIRE(from >= 0 && from < 90 && to >= 0 && to < 90 && from != to);
			REQUIRE(use_string(gamedb_event_get_uci(ev)) == 4);
			REQUIRE(gamedb_event_get_notation(ev, GAMEDB_NOTATION_WXF) != NULL);
			REQUIRE(gamedb_event_get_notation(ev, GAMEDB_NOTATION_CHINESE) != NULL);
			break;
		case GAMEDB_EVENT_VARIATION_BEGIN:
			depth++;
			break;
		case GAMEDB_EVENT_VARIATION_END:
			REQUIRE(depth > 0);
			depth--;
			break;
		case GAMEDB_EVENT_COMMENT_BEFORE:
		case GAMEDB_EVENT_COMMENT_AFTER:
			REQUIRE(use_string(gamedb_event_get_text(ev)) != 0);
			break;
		default:
			break;
		}
	}
	REQUIRE(rc == GAMEDB_END);
	REQUIRE(depth == 0);
	gamedb_move_iter_free(it);
}

static void walk_game(struct gamedb_game *g)
{
	size_t i, n, total = 0, rawlen;
	const char *name, *value, *cs;
	struct gamedb_game *copy = NULL;
	int32_t rc;

	REQUIRE(gamedb_game_get_index(g) == 0);
	REQUIRE(gamedb_game_get_variant(g) == GAMEDB_VARIANT_XIANGQI);
	n = gamedb_game_get_tag_count(g);
	for (i = 0; i <= n; i++) {
		name = value = NULL;
		rc = gamedb_game_get_tag_at(g, i, &name, &value);
		REQUIRE((rc == GAMEDB_OK) == (i < n));
		if (rc == GAMEDB_OK) {
			total += use_string(name) + use_string(value);
			REQUIRE(gamedb_game_get_tag(g, name) != NULL);
			REQUIRE(gamedb_game_get_tag_raw(g, name, &rawlen, &cs) != NULL);
		}
	}
	/* The Seven Tag Roster is always there. */
	REQUIRE(gamedb_game_get_tag(g, "Event") && gamedb_game_get_tag(g, "Site") &&
		gamedb_game_get_tag(g, "Date") && gamedb_game_get_tag(g, "Round") &&
		gamedb_game_get_tag(g, "White") && gamedb_game_get_tag(g, "Black") &&
		gamedb_game_get_tag(g, "Result"));
	REQUIRE(use_string(gamedb_game_get_fen(g)) != 0);
	(void)gamedb_game_is_deleted(g);
	(void)gamedb_game_get_status(g);
	(void)use_string(gamedb_game_errmsg(g));

	walk_events(g, GAMEDB_ITER_FEN);
	(void)use_string(gamedb_game_get_final_fen(g));
	walk_events(g, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_FEN);
	walk_events(g, GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS | GAMEDB_ITER_PARTIAL);
	rc = gamedb_game_write_pgn(g, 0, sink, &total);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	rc = gamedb_game_write_json(g, GAMEDB_WRITE_NO_COMMENTS, sink, &total);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);

	rc = gamedb_game_dup(g, &copy);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	if (copy) {
		walk_events(copy, GAMEDB_ITER_PARTIAL);
		rc = gamedb_game_write_json(copy, 0, sink, &total);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
		gamedb_game_free(copy);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gamedb_reader *r;
	struct gamedb_game *g;
	uint64_t count = 0;
	int32_t rc;
	int seen = 0;

	if (size > MAX_INPUT)
		return 0;
	r = gamedb_reader_new();
	if (!r)
		return 0;
	REQUIRE(gamedb_reader_support_format_xqf(r) == GAMEDB_OK);
	rc = gamedb_reader_open_memory(r, "fuzz.xqf", data, size);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FATAL);
	(void)use_string(gamedb_reader_errmsg(r));
	if (rc == GAMEDB_FATAL) {
		REQUIRE(gamedb_reader_errmsg(r)[0] != 0);
		gamedb_reader_free(r);
		return 0;
	}
	REQUIRE(gamedb_reader_game_count(r, &count) == GAMEDB_OK && count == 1);
	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_END);
		if (rc == GAMEDB_END)
			break;
		REQUIRE(g != NULL && ++seen == 1);
		walk_game(g);
	}
	/* One game, and seeking to it again gives it again; past it is a range error. */
	REQUIRE(gamedb_reader_seek_game(r, 1) == GAMEDB_FAILED);
	REQUIRE(gamedb_reader_seek_game(r, 0) == GAMEDB_OK);
	rc = gamedb_reader_next_game(r, &g);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN);
	walk_game(g);
	gamedb_reader_free(r);
	return 0;
}
