/*
 * libgamedb - fuzz target for the style 12 live API (gamedb_style12_line_*, and the session).
 *
 * Input: a first byte choosing the chunk size (1 + byte % 64, or 4096 when it is 0), then
 * server output. Each line of it goes through gamedb_style12_line_parse() and every getter
 * (every integer and text field, known or not; holdings given to the boards they fit); the
 * whole output is fed to a session in those chunks, its games walked (fuzz/fuzz-walk.h) and
 * its games in flight snapshot as they go; and the games must be, PGN for PGN, those the
 * style12 reader gives for the same bytes read from memory, with the same lines it could not
 * use (the messages of their failures) in the same places. Seeds: fuzz/style12-line/corpus.
 */
#include "../fuzz-walk.h"

struct fuzz_text {
	char *p;
	size_t len, cap;
};

static int32_t fuzz_append(void *ud, const char *data, size_t len)
{
	struct fuzz_text *t = ud;

	if (t->len + len + 1 > t->cap) {
		size_t cap = (t->len + len + 1) * 2;
		char *p = realloc(t->p, cap);
		REQUIRE(p != NULL);
		t->p = p;
		t->cap = cap;
	}
	memcpy(t->p + t->len, data, len);
	t->len += len;
	return 0;
}

static void fuzz_line(struct gamedb_style12_line *l, struct gamedb_style12_line *b1,
		      const char *text, size_t len)
{
	int32_t rc = gamedb_style12_line_parse(l, text, len), kind = gamedb_style12_line_get_kind(l);
	int32_t f;
	int64_t v;

	/* WARN: a board whose names needed the fallback charset. */
	REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN || rc == GAMEDB_FAILED);
	REQUIRE((rc != GAMEDB_FAILED) == (kind != GAMEDB_STYLE12_NONE));
	REQUIRE(rc != GAMEDB_WARN || kind == GAMEDB_STYLE12_BOARD);
	REQUIRE(kind == GAMEDB_STYLE12_NONE || kind == GAMEDB_STYLE12_BOARD ||
		kind == GAMEDB_STYLE12_HOLDINGS);
	REQUIRE(fuzz_str(gamedb_style12_line_errmsg(l)) != NULL);
	REQUIRE((rc == GAMEDB_OK) == !gamedb_style12_line_errmsg(l)[0]);
	REQUIRE((fuzz_str(gamedb_style12_line_get_fen(l)) != NULL) == (kind == GAMEDB_STYLE12_BOARD));
	for (f = -1; f <= 18; f++) {
		int32_t g = gamedb_style12_line_get_int(l, f, &v);
		REQUIRE(g == GAMEDB_OK || g == GAMEDB_FAILED);
		if (kind == GAMEDB_STYLE12_BOARD)
			REQUIRE((g == GAMEDB_OK) == (f >= 1 && f <= 17));
		if (kind == GAMEDB_STYLE12_HOLDINGS)
			REQUIRE((g == GAMEDB_OK) == (f == GAMEDB_STYLE12_GAME_NUMBER));
	}
	for (f = -1; f <= 10; f++)
		(void)fuzz_str(gamedb_style12_line_get_text(l, f));
	if (kind == GAMEDB_STYLE12_BOARD) {
		REQUIRE(fuzz_nonempty(gamedb_style12_line_get_text(l, GAMEDB_STYLE12_WHITE_NAME)));
		REQUIRE(fuzz_nonempty(gamedb_style12_line_get_text(l, GAMEDB_STYLE12_MOVE_VERBOSE)));
		if (gamedb_style12_line_get_kind(b1) == GAMEDB_STYLE12_HOLDINGS) {
			int64_t a = 0, b = 0;
			gamedb_style12_line_get_int(l, GAMEDB_STYLE12_GAME_NUMBER, &a);
			gamedb_style12_line_get_int(b1, GAMEDB_STYLE12_GAME_NUMBER, &b);
			REQUIRE((gamedb_style12_line_set_holdings(l, b1) == GAMEDB_OK) == (a == b));
			REQUIRE(fuzz_nonempty(gamedb_style12_line_get_fen(l)));
		}
	}
	REQUIRE(gamedb_style12_line_set_holdings(b1, l) == GAMEDB_FAILED ||
		gamedb_style12_line_get_kind(b1) == GAMEDB_STYLE12_BOARD);
}

/*
 * The games ready in the session: walked, and their PGN appended to t; a line it could not
 * use (FAILED) appends its message.
 */
static void fuzz_drain(struct gamedb_style12_session *s, uint64_t *index, struct fuzz_text *t)
{
	struct gamedb_game *g;
	int32_t rc;

	while ((rc = gamedb_style12_session_next_game(s, &g)) == GAMEDB_OK || rc == GAMEDB_WARN ||
	       rc == GAMEDB_FAILED) {
		if (rc == GAMEDB_FAILED) {
			const char *m = gamedb_style12_session_errmsg(s);
			REQUIRE(g == NULL && fuzz_nonempty(m));
			fuzz_append(t, m, strlen(m));
			++*index; /* a failure takes a game number, as from a reader */
			continue;
		}
		REQUIRE(g != NULL);
		fuzz_walk_game(NULL, g, *index);
		(void)gamedb_game_write_pgn(g, 0, fuzz_append, t);
		++*index;
	}
	REQUIRE(rc == GAMEDB_END && g == NULL);
	(void)fuzz_str(gamedb_style12_session_errmsg(s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gamedb_style12_line *l, *b1;
	struct gamedb_style12_session *s;
	struct gamedb_reader *r;
	struct gamedb_game *g;
	struct fuzz_text fed = { NULL, 0, 0 }, read = { NULL, 0, 0 };
	const char *p, *end;
	size_t chunk, off, lines = 0;
	uint64_t index = 0;
	int32_t rc;

	(void)fuzz_walk_reader; /* the reader is walked by fuzz/style12/target.c */
	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	chunk = data[0] ? 1 + data[0] % 64u : 4096;
	p = (const char *)data + 1;
	end = (const char *)data + size;

	/* Each line alone, and the boards given the holdings of the <b1> line before them. */
	l = gamedb_style12_line_new();
	b1 = gamedb_style12_line_new();
	REQUIRE(l && b1);
	REQUIRE(gamedb_style12_line_get_kind(l) == GAMEDB_STYLE12_NONE);
	REQUIRE(gamedb_style12_line_get_fen(l) == NULL);
	for (off = 0; p + off <= end && lines < 2000; lines++) {
		const char *q = p + off, *nl = memchr(q, '\n', (size_t)(end - q));
		size_t n = nl ? (size_t)(nl - q) + 1 : (size_t)(end - q);
		fuzz_line(l, b1, q, n);
		if (gamedb_style12_line_get_kind(l) == GAMEDB_STYLE12_HOLDINGS) {
			struct gamedb_style12_line *t = l;
			l = b1;
			b1 = t;
		}
		if (!nl)
			break;
		off += n;
	}
	gamedb_style12_line_free(l);
	gamedb_style12_line_free(b1);

	/* The session, fed in chunks; its games in flight snapshot after each chunk. */
	s = gamedb_style12_session_new("fuzz.log");
	REQUIRE(s != NULL);
	for (off = 0; p + off < end; off += chunk) {
		size_t n = (size_t)(end - (p + off)) < chunk ? (size_t)(end - (p + off)) : chunk;
		size_t live, k;
		REQUIRE(gamedb_style12_session_feed(s, p + off, n) == GAMEDB_OK);
		fuzz_drain(s, &index, &fed);
		live = gamedb_style12_session_get_live_count(s);
		REQUIRE(live <= 4096);
		for (k = 0; k <= live && k < 2; k++) {
			size_t events;
			rc = gamedb_style12_session_peek_game(s, k, &g);
			REQUIRE((rc == GAMEDB_OK || rc == GAMEDB_WARN) == (k < live));
			if (!g)
				continue;
			REQUIRE(fuzz_same(gamedb_game_get_tag(g, "Result"), "*"));
			(void)fuzz_walk_events(g, GAMEDB_ITER_FEN | GAMEDB_ITER_PARTIAL, &events);
			gamedb_game_free(g);
		}
	}
	REQUIRE(gamedb_style12_session_end(s) == GAMEDB_OK);
	fuzz_drain(s, &index, &fed);
	REQUIRE(gamedb_style12_session_get_live_count(s) == 0);
	REQUIRE(gamedb_style12_session_feed(s, "x", 1) == GAMEDB_FATAL);
	REQUIRE(gamedb_style12_session_end(s) == GAMEDB_FATAL);
	gamedb_style12_session_free(s);

	/* The reader on the same bytes: the same games. */
	r = gamedb_reader_new();
	REQUIRE(r != NULL);
	REQUIRE(gamedb_reader_set_format(r, "style12") == GAMEDB_OK);
	rc = gamedb_reader_open_memory(r, "fuzz.log", p, (size_t)(end - p));
	if (rc == GAMEDB_OK || rc == GAMEDB_WARN) {
		while ((rc = gamedb_reader_next_game(r, &g)) == GAMEDB_OK || rc == GAMEDB_WARN ||
		       rc == GAMEDB_FAILED) {
			if (rc == GAMEDB_FAILED)
				fuzz_append(&read, gamedb_reader_errmsg(r), strlen(gamedb_reader_errmsg(r)));
			else
				(void)gamedb_game_write_pgn(g, 0, fuzz_append, &read);
		}
		REQUIRE(rc == GAMEDB_END);
		REQUIRE(fed.len == read.len && (!fed.len || !memcmp(fed.p, read.p, fed.len)));
	} else {
		REQUIRE(fed.len == 0);
	}
	gamedb_reader_free(r);
	free(fed.p);
	free(read.p);
	return 0;
}
