/*
 * libgamedb - the PGN writer. It uses the public API only (tags, the move iterator), so
 * anything it does a caller can do too.
 *
 * Layout: Scid's export layout, so that a SCID base converts to the very bytes Scid writes.
 * Tags one per line in the game's tag order, a blank line, then the movetext as words wrapped
 * at 75 columns, where a move number ("12." or "12...") and its SAN are separate words with
 * no space between them, and a word that would pass the margin starts a new line. The game
 * ends with the result, a newline and a blank line.
 */
#include <stdio.h>
#include <string.h>

#include "gamedb-private.h"

#define PGN_WIDTH 75

struct pgnw {
	struct gamedb__buf out;
	size_t col;
	int err;
};

static void put(struct pgnw *w, const char *s, size_t len)
{
	if (gamedb__buf_append(&w->out, s, len) != 0)
		w->err = 1;
}

static void newline(struct pgnw *w)
{
	put(w, "\n", 1);
	w->col = 0;
}

/* A word: it starts a new line first when it would reach the margin. */
static void word(struct pgnw *w, const char *s, size_t len)
{
	if (w->col + len >= PGN_WIDTH)
		newline(w);
	put(w, s, len);
	w->col += len;
}

/* A space, or a new line instead when the space would reach the margin. */
static void space(struct pgnw *w)
{
	if (w->col + 1 >= PGN_WIDTH) {
		newline(w);
		return;
	}
	put(w, " ", 1);
	w->col++;
}

/*
 * Free text, word by word: every space and every newline ends a word (so runs of spaces are
 * kept, and a leading delimiter gives an empty word first); a space is written with space(),
 * a newline as a line break.
 */
static void text(struct pgnw *w, const char *s)
{
	for (;;) {
		size_t n = strcspn(s, " \n");
		word(w, s, n);
		s += n;
		if (!*s)
			return;
		if (*s == '\n')
			newline(w);
		else
			space(w);
		s++;
	}
}

static void comment(struct pgnw *w, const char *s)
{
	word(w, "{", 1);
	text(w, s);
	word(w, "}", 1);
}

/* A tag line; '"' and '\\' in the value are escaped as the PGN standard asks. */
static void tag_line(struct pgnw *w, const char *name, const char *value)
{
	put(w, "[", 1);
	put(w, name, strlen(name));
	put(w, " \"", 2);
	for (;;) {
		size_t n = strcspn(value, "\"\\");
		put(w, value, n);
		value += n;
		if (!*value)
			break;
		put(w, "\\", 1);
		put(w, value, 1);
		value++;
	}
	put(w, "\"]\n", 3);
}

/* What follows a move until the next move or variation: its NAGs and its comment. */
struct pending {
	int have_move;
	size_t nnags;
	int32_t nags[16];
	struct gamedb__buf comment;
};

static void flush_move(struct pgnw *w, struct pending *pm, int *print_number)
{
	size_t i;
	char num[16];

	if (!pm->have_move)
		return;
	for (i = 0; i < pm->nnags; i++) {
		int k = snprintf(num, sizeof num, "$%d", (int)pm->nags[i]);
		space(w);
		word(w, num, (size_t)k);
	}
	space(w);
	if (pm->comment.len) {
		comment(w, pm->comment.p);
		space(w);
		*print_number = 1;
	}
	pm->have_move = 0;
	pm->nnags = 0;
	gamedb__buf_clear(&pm->comment);
}

static int32_t flush(struct pgnw *w, gamedb_write_fn sink, void *user_data)
{
	int32_t rc = GAMEDB_OK;

	if (w->err)
		rc = GAMEDB_FAILED;
	else if (sink(user_data, w->out.p, w->out.len) != 0)
		rc = GAMEDB_FAILED;
	gamedb__buf_free(&w->out);
	return rc;
}

GAMEDB_EXPORT int32_t gamedb_game_write_pgn(struct gamedb_game *g, uint32_t flags,
					    gamedb_write_fn sink, void *user_data)
{
	struct pgnw w = { { 0 }, 0, 0 };
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	uint32_t iflags = 0;
	size_t i, n;
	int32_t rc;
	int print_number = 1, moves_seen = 0;
	struct pending pm;
	char num[24];

	if (!g || !sink)
		return GAMEDB_FAILED;
	memset(&pm, 0, sizeof pm);
	if (flags & GAMEDB_WRITE_NO_COMMENTS)
		iflags |= GAMEDB_ITER_SKIP_COMMENTS;
	if (flags & GAMEDB_WRITE_NO_VARIATIONS)
		iflags |= GAMEDB_ITER_MAINLINE_ONLY;
	rc = gamedb_move_iter_new(g, iflags, &it);
	if (rc != GAMEDB_OK)
		return GAMEDB_FAILED;

	n = gamedb_game_get_tag_count(g);
	for (i = 0; i < n; i++) {
		const char *name, *value;
		if (gamedb_game_get_tag_at(g, i, &name, &value) == GAMEDB_OK)
			tag_line(&w, name, value);
	}
	put(&w, "\n", 1);

	while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
		int32_t type = gamedb_event_get_type(ev);
		switch (type) {
		case GAMEDB_EVENT_MOVE: {
			int32_t colour, mn = gamedb_event_get_move_number(ev, &colour);
			const char *san = gamedb_event_get_san(ev);
			flush_move(&w, &pm, &print_number);
			if (colour == 0 || print_number) {
				int k = snprintf(num, sizeof num, colour ? "%d..." : "%d.", (int)mn);
				word(&w, num, (size_t)k);
			}
			word(&w, san, strlen(san));
			print_number = 0;
			pm.have_move = 1;
			break;
		}
		case GAMEDB_EVENT_NAG:
			if (!(flags & GAMEDB_WRITE_NO_NAGS) && pm.have_move &&
			    pm.nnags < sizeof pm.nags / sizeof pm.nags[0])
				pm.nags[pm.nnags++] = gamedb_event_get_nag(ev);
			break;
		case GAMEDB_EVENT_COMMENT_AFTER:
		case GAMEDB_EVENT_COMMENT_BEFORE: {
			const char *t = gamedb_event_get_text(ev);
			if (type == GAMEDB_EVENT_COMMENT_AFTER && pm.have_move) {
				/* Several comments on one move are joined, as Scid joins them. */
				if (gamedb__buf_append(&pm.comment, t, strlen(t)) != 0)
					w.err = 1;
				break;
			}
			flush_move(&w, &pm, &print_number);
			if (!*t)
				break;
			comment(&w, t);
			space(&w);
			if (!moves_seen && gamedb_event_get_depth(ev) == 0)
				newline(&w); /* the pre-game comment ends its line */
			print_number = 1;
			break;
		}
		case GAMEDB_EVENT_VARIATION_BEGIN:
			flush_move(&w, &pm, &print_number);
			word(&w, "(", 1);
			space(&w);
			print_number = 1;
			break;
		case GAMEDB_EVENT_VARIATION_END:
			flush_move(&w, &pm, &print_number);
			word(&w, ")", 1);
			space(&w);
			print_number = 1;
			break;
		case GAMEDB_EVENT_RESULT: {
			const char *res = gamedb_event_get_text(ev);
			flush_move(&w, &pm, &print_number);
			word(&w, res, strlen(res));
			break;
		}
		default:
			break;
		}
		if (type == GAMEDB_EVENT_MOVE)
			moves_seen = 1;
	}
	gamedb_move_iter_free(it);
	gamedb__buf_free(&pm.comment);
	put(&w, "\n\n", 2);
	rc = flush(&w, sink, user_data);
	if (rc == GAMEDB_OK && g->text_status == GAMEDB_WARN)
		rc = GAMEDB_WARN;
	return rc;
}
