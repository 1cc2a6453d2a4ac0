/*
 * libgamedb - fuzz target for the SCID reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input framing (our own, tiny): two little-endian uint32 lengths A and B, then A bytes of the
 * index file, B bytes of the name file, and the rest is the game file. Lengths larger than what
 * is left are clipped. The three files are offered under both the si4 and the si3 names, so
 * that either index version finds its siblings:
 *
 *   [A:le32][B:le32][index: A bytes][names: B bytes][games: the rest]
 *
 * fuzz/make-corpus.py writes seeds in this framing. Every game, every event and every accessor
 * is walked, and both writers run, as a caller would use them; a status the API does not
 * document for a call aborts, so the fuzzer reports it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#define MAX_INPUT (1u << 20)
#define MAX_EVENTS (1u << 23)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#include "../../tests/utf8-check.h"

/* The writers' output is UTF-8 too (each writer hands over a whole game per call). */
static int32_t sink(void *ud, const char *data, size_t len)
{
	size_t *total = ud;

	if (!utf8_valid(data, len))
		abort();

	/* read the first and last byte, so that a bad pointer or length shows under ASan */
	if (len)
		*total += (unsigned char)data[0] + (unsigned char)data[len - 1];
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

#define REQUIRE(cond)                                                                           \
	do {                                                                                   \
		if (!(cond))                                                                   \
			abort();                                                               \
	} while (0)


/* Every string the library returns is UTF-8 (the header promises it): check, then use it. */
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
		REQUIRE(it == NULL);
		REQUIRE(use_string(gamedb_game_errmsg(g)) != 0);
		return;
	}
	REQUIRE(it != NULL);
	while ((rc = gamedb_move_iter_next(it, &ev)) == GAMEDB_OK) {
		int32_t type = gamedb_event_get_type(ev), from, to, promo, colour;
		size_t rawlen = 0;

		REQUIRE(++n < MAX_EVENTS);
		REQUIRE(type >= GAMEDB_EVENT_MOVE && type <= GAMEDB_EVENT_RESULT);
		(void)gamedb_event_get_move(ev, &from, &to, &promo);
		(void)gamedb_event_get_piece(ev);
		(void)use_string(gamedb_event_get_san(ev));
		(void)use_string(gamedb_event_get_uci(ev));
		(void)use_string(gamedb_event_get_fen(ev));
		(void)use_string(gamedb_event_get_text(ev));
		(void)gamedb_event_get_text_raw(ev, &rawlen);
		(void)gamedb_event_get_nag(ev);
		(void)gamedb_event_get_move_number(ev, &colour);
		REQUIRE(gamedb_event_get_depth(ev) >= 0);
		if (type == GAMEDB_EVENT_MOVE) {
			REQUIRE(gamedb_event_get_san(ev) != NULL && gamedb_event_get_uci(ev) != NULL);
			REQUIRE(from >= 0 && from < 64 && to >= 0 && to < 64);
		} else if (type == GAMEDB_EVENT_VARIATION_BEGIN) {
			depth++;
		} else if (type == GAMEDB_EVENT_VARIATION_END) {
			REQUIRE(depth > 0);
			depth--;
		} else if (type == GAMEDB_EVENT_COMMENT_BEFORE || type == GAMEDB_EVENT_COMMENT_AFTER) {
			REQUIRE(gamedb_event_get_text(ev) != NULL);
		}
	}
	REQUIRE(rc == GAMEDB_END);
	REQUIRE(depth == 0);
	gamedb_move_iter_free(it);
}

static void walk_game(struct gamedb_reader *r, struct gamedb_game *g)
{
	size_t i, n, total = 0, rawlen;
	const char *name, *value, *cs;
	struct gamedb_game *copy = NULL;
	int32_t rc;

	(void)gamedb_game_get_index(g);
	n = gamedb_game_get_tag_count(g);
	for (i = 0; i <= n; i++) {
		name = value = NULL;
		rc = gamedb_game_get_tag_at(g, i, &name, &value);
		REQUIRE((rc == GAMEDB_OK) == (i < n));
		if (rc == GAMEDB_OK) {
			total += use_string(name) + use_string(value);
			total += use_string(gamedb_game_get_tag(g, name));
			(void)gamedb_game_get_tag_raw(g, name, &rawlen, &cs);
		}
	}
	(void)gamedb_game_get_tag(g, "FEN");
	(void)use_string(gamedb_game_get_fen(g));
	(void)gamedb_game_get_variant(g);
	(void)gamedb_game_is_deleted(g);
	(void)gamedb_scid_get_game_flags(gamedb_reader_get_scid(r), g);
	(void)use_string(gamedb_game_errmsg(g));

	walk_events(g, GAMEDB_ITER_FEN);
	(void)use_string(gamedb_game_get_final_fen(g));
	(void)use_string(gamedb_game_errmsg(g));
	(void)use_string(gamedb_game_get_fen(g));
	walk_events(g, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_FEN);
	walk_events(g, GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS);
	rc = gamedb_game_write_pgn(g, 0, sink, &total);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	rc = gamedb_game_write_pgn(g, GAMEDB_WRITE_NO_COMMENTS | GAMEDB_WRITE_NO_VARIATIONS |
					      GAMEDB_WRITE_NO_NAGS, sink, &total);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	rc = gamedb_game_write_json(g, 0, sink, &total);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	REQUIRE(gamedb_game_write_pgn(g, 0, sink_stop, NULL) == GAMEDB_FAILED);

	rc = gamedb_game_dup(g, &copy);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	if (copy) {
		walk_events(copy, GAMEDB_ITER_PARTIAL | GAMEDB_ITER_FEN);
		rc = gamedb_game_write_pgn(copy, 0, sink, &total);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
		rc = gamedb_game_write_json(copy, 0, sink, &total);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
		gamedb_game_free(copy);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[5] = { "fuzz.si4", "fuzz.sn4", "fuzz.sg4", "fuzz.sn3",
					      "fuzz.sg3" };
	const void *files[5];
	size_t sizes[5], left, a, b;
	struct gamedb_reader *r;
	struct gamedb_game *g;
	struct gamedb_scid *sh;
	uint64_t count = 0, seen = 0;
	int32_t rc;

	if (size > MAX_INPUT || size < 8)
		return 0;
	left = size - 8;
	a = le32(data);
	b = le32(data + 4);
	if (a > left)
		a = left;
	if (b > left - a)
		b = left - a;
	files[0] = data + 8;
	sizes[0] = a;
	files[1] = files[3] = data + 8 + a;
	sizes[1] = sizes[3] = b;
	files[2] = files[4] = data + 8 + a + b;
	sizes[2] = sizes[4] = left - a - b;

	r = gamedb_reader_new();
	if (!r)
		return 0;
	gamedb_reader_support_format_all(r);
	rc = gamedb_reader_open_memory_set(r, names, files, sizes, 5);
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FATAL);
	REQUIRE(gamedb_reader_errmsg(r) != NULL);
	(void)use_string(gamedb_reader_errmsg(r));
	if (rc == GAMEDB_FATAL) {
		REQUIRE(gamedb_reader_errmsg(r)[0] != 0);
		REQUIRE(gamedb_reader_next_game(r, &g) == GAMEDB_FATAL);
		gamedb_reader_free(r);
		return 0;
	}
	REQUIRE(gamedb_reader_game_count(r, &count) == GAMEDB_OK);
	sh = gamedb_reader_get_scid(r);
	if (sh) {
		int32_t k;
		(void)gamedb_scid_get_version(sh);
		(void)use_string(gamedb_scid_get_description(sh));
		(void)gamedb_scid_get_base_type(sh);
		(void)gamedb_scid_get_autoload(sh);
		for (k = 1; k <= 6; k++)
			(void)use_string(gamedb_scid_get_flag_name(sh, k));
	}
	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_END ||
			rc == GAMEDB_FAILED || rc == GAMEDB_FATAL);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		REQUIRE(++seen <= count + 1);
		if (rc == GAMEDB_FAILED) {
			REQUIRE(g == NULL && use_string(gamedb_reader_errmsg(r)) != 0);
			continue;
		}
		REQUIRE(g != NULL);
		(void)use_string(gamedb_reader_errmsg(r));
		walk_game(r, g);
		(void)use_string(gamedb_reader_errmsg(r));
	}
	if (rc == GAMEDB_END)
		REQUIRE(seen == count);
	if (count && gamedb_reader_seek_game(r, count - 1) == GAMEDB_OK &&
	    gamedb_reader_next_game(r, &g) == GAMEDB_OK)
		walk_game(r, g);
	gamedb_reader_free(r);
	return 0;
}
