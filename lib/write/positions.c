/*
 * libgamedb - positions of a game's main line, for engine tooling (gamedb_game_write_positions):
 * FEN lines, EPD, one UCI `position` command, or training rows (JSON Lines or CSV). Public API
 * only, in one pass over the move iterator.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <gamedb/gamedb.h>

struct pw {
	char buf[8192];
	size_t len;
	gamedb_write_fn sink;
	void *user;
	int err;
};

static void flush(struct pw *w)
{
	if (w->len && !w->err && w->sink(w->user, w->buf, w->len) != 0)
		w->err = 1;
	w->len = 0;
}

static void put(struct pw *w, const char *s, size_t n)
{
	while (n && !w->err) {
		size_t room = sizeof w->buf - w->len, k = n < room ? n : room;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
		if (w->len == sizeof w->buf)
			flush(w);
	}
}

static void puts_(struct pw *w, const char *s)
{
	put(w, s, strlen(s));
}

static void putu(struct pw *w, uint64_t v)
{
	char t[24];
	int n = snprintf(t, sizeof t, "%" PRIu64, v);

	if (n > 0)
		put(w, t, (size_t)n);
}

/* A FEN's fields: the first four (EPD's position) and the two counters. */
static void fen_split(const char *fen, size_t *four, unsigned *half, unsigned *full)
{
	const char *p = fen;
	int spaces = 0;

	*half = 0;
	*full = 1;
	while (*p && spaces < 4) {
		if (*p == ' ')
			spaces++;
		if (spaces < 4)
			p++;
	}
	*four = (size_t)(p - fen);
	if (*p == ' ')
		sscanf(p, " %u %u", half, full);
}

/* The game's result from the view of the side to move (0 white): "1", "0.5", "0" or "". */
static const char *result_for(const char *res, int colour)
{
	if (!res)
		return "";
	if (!strcmp(res, "1/2-1/2"))
		return "0.5";
	if (!strcmp(res, "1-0"))
		return colour ? "0" : "1";
	if (!strcmp(res, "0-1"))
		return colour ? "1" : "0";
	return "";
}

/* One position (ply, FEN, key) and the move played from it (UCI, or NULL at the end). */
static void row(struct pw *w, int32_t format, uint32_t flags, uint64_t game, uint64_t ply,
		const char *fen, uint64_t key, const char *uci, const char *res)
{
	char k[24];
	int colour = strstr(fen, " b ") != NULL;

	snprintf(k, sizeof k, "%016" PRIx64, key);
	switch (format) {
	case GAMEDB_POSITIONS_FEN:
		putu(w, game);
		put(w, "\t", 1);
		putu(w, ply);
		put(w, "\t", 1);
		puts_(w, fen);
		if (flags & GAMEDB_WRITE_KEY) {
			put(w, "\t", 1);
			puts_(w, k);
		}
		put(w, "\n", 1);
		break;
	case GAMEDB_POSITIONS_EPD: {
		size_t four;
		unsigned half, full;
		fen_split(fen, &four, &half, &full);
		put(w, fen, four);
		puts_(w, " id \"game ");
		putu(w, game);
		puts_(w, " ply ");
		putu(w, ply);
		puts_(w, "\";");
		puts_(w, " c0 \"");
		puts_(w, res ? res : "*");
		puts_(w, "\";");
		puts_(w, " hmvc ");
		putu(w, half);
		puts_(w, "; fmvn ");
		putu(w, full);
		put(w, ";", 1);
		if (flags & GAMEDB_WRITE_KEY) {
			puts_(w, " c1 \"polyglot ");
			puts_(w, k);
			puts_(w, "\";");
		}
		put(w, "\n", 1);
		break;
	}
	case GAMEDB_POSITIONS_JSON:
		if (!uci)
			break;
		puts_(w, "{\"game\": ");
		putu(w, game);
		puts_(w, ", \"ply\": ");
		putu(w, ply);
		puts_(w, ", \"fen\": \"");
		puts_(w, fen); /* FEN and UCI hold no character JSON must escape */
		puts_(w, "\", \"move\": \"");
		puts_(w, uci);
		puts_(w, "\", \"result\": ");
		puts_(w, *result_for(res, colour) ? result_for(res, colour) : "null");
		if (flags & GAMEDB_WRITE_KEY) {
			puts_(w, ", \"key\": \"");
			puts_(w, k);
			put(w, "\"", 1);
		}
		puts_(w, "}\n");
		break;
	case GAMEDB_POSITIONS_CSV:
		if (!uci)
			break;
		putu(w, game);
		put(w, ",", 1);
		putu(w, ply);
		put(w, ",", 1);
		puts_(w, fen);
		put(w, ",", 1);
		puts_(w, uci);
		put(w, ",", 1);
		puts_(w, result_for(res, colour));
		if (flags & GAMEDB_WRITE_KEY) {
			put(w, ",", 1);
			puts_(w, k);
		}
		put(w, "\n", 1);
		break;
	default:
		break;
	}
}

GAMEDB_EXPORT int32_t gamedb_game_write_positions(struct gamedb_game *g, int32_t format,
						  uint32_t flags, gamedb_write_fn sink,
						  void *user_data)
{
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	struct pw w;
	const char *res;
	char fen[128];
	uint64_t key = 0, game, ply = 0;
	int32_t rc;

	if (!g || !sink || format < GAMEDB_POSITIONS_FEN || format > GAMEDB_POSITIONS_CSV)
		return GAMEDB_FAILED;
	if (gamedb_game_get_start_key(g, &key) != GAMEDB_OK ||
	    gamedb_move_iter_new(g, GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS |
					    GAMEDB_ITER_FEN, &it) != GAMEDB_OK)
		return GAMEDB_FAILED;
	memset(&w, 0, sizeof w);
	w.sink = sink;
	w.user = user_data;
	game = gamedb_game_get_index(g) + 1;
	res = gamedb_game_get_tag(g, "Result");
	snprintf(fen, sizeof fen, "%s", gamedb_game_get_fen(g));
	if (format == GAMEDB_POSITIONS_UCI) {
		if (!strcmp(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")) {
			puts_(&w, "position startpos");
		} else {
			puts_(&w, "position fen ");
			puts_(&w, fen);
		}
	}
	while (!w.err && (rc = gamedb_move_iter_next(it, &ev)) == GAMEDB_OK) {
		const char *uci, *next;
		if (gamedb_event_get_type(ev) != GAMEDB_EVENT_MOVE)
			continue;
		uci = gamedb_event_get_uci(ev);
		if (format == GAMEDB_POSITIONS_UCI) {
			puts_(&w, ply ? " " : " moves ");
			puts_(&w, uci ? uci : "0000");
		} else {
			row(&w, format, flags, game, ply, fen, key, uci ? uci : "0000", res);
		}
		next = gamedb_event_get_fen(ev);
		if (!next || gamedb_event_get_key(ev, &key) != GAMEDB_OK) {
			w.err = 2;
			break;
		}
		snprintf(fen, sizeof fen, "%s", next);
		ply++;
	}
	gamedb_move_iter_free(it);
	if (format == GAMEDB_POSITIONS_UCI)
		put(&w, "\n", 1);
	else
		row(&w, format, flags, game, ply, fen, key, NULL, res); /* the final position */
	flush(&w);
	return w.err ? GAMEDB_FAILED : GAMEDB_OK;
}
