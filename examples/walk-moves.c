/*
 * walk-moves: print every event of one game, one per line, indented by variation depth:
 * moves with SAN, UCI and the FEN after them, NAGs, comments.
 *
 *   walk-moves base.si4 [GAME]     (GAME counted from 1; default 1)
 */
#include <stdio.h>
#include <stdlib.h>

#include <gamedb/gamedb.h>

int main(int argc, char **argv)
{
	struct gamedb_reader *r;
	struct gamedb_game *g;
	struct gamedb_move_iter *it;
	const struct gamedb_event *ev;
	long n = argc > 2 ? atol(argv[2]) : 1;
	int32_t rc;

	if (argc < 2 || n < 1) {
		fprintf(stderr, "usage: %s DATABASE [GAME]\n", argv[0]);
		return 2;
	}
	r = gamedb_reader_new();
	if (!r)
		return 2;
	gamedb_reader_support_format_all(r);
	rc = gamedb_reader_open_filename(r, argv[1]);
	if (rc == GAMEDB_OK || rc == GAMEDB_WARN)
		rc = gamedb_reader_seek_game(r, (uint64_t)(n - 1));
	if (rc == GAMEDB_OK)
		rc = gamedb_reader_next_game(r, &g);
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		fprintf(stderr, "%s\n", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return 2;
	}
	printf("start: %s\n", gamedb_game_get_fen(g));
	if (gamedb_move_iter_new(g, GAMEDB_ITER_FEN, &it) != GAMEDB_OK) {
		fprintf(stderr, "%s\n", gamedb_game_errmsg(g));
		gamedb_reader_free(r);
		return 1;
	}
	while (gamedb_move_iter_next(it, &ev) == GAMEDB_OK) {
		int32_t depth = gamedb_event_get_depth(ev), colour, num;
		printf("%*s", (int)depth * 2, "");
		switch (gamedb_event_get_type(ev)) {
		case GAMEDB_EVENT_MOVE:
			num = gamedb_event_get_move_number(ev, &colour);
			printf("%d%s %s %s %s\n", (int)num, colour ? "..." : ".", gamedb_event_get_san(ev),
			       gamedb_event_get_uci(ev), gamedb_event_get_fen(ev));
			break;
		case GAMEDB_EVENT_NAG:
			printf("$%d\n", (int)gamedb_event_get_nag(ev));
			break;
		case GAMEDB_EVENT_COMMENT_BEFORE:
		case GAMEDB_EVENT_COMMENT_AFTER:
			printf("{%s}\n", gamedb_event_get_text(ev));
			break;
		case GAMEDB_EVENT_VARIATION_BEGIN:
			printf("(\n");
			break;
		case GAMEDB_EVENT_VARIATION_END:
			printf(")\n");
			break;
		case GAMEDB_EVENT_RESULT:
			printf("%s\n", gamedb_event_get_text(ev));
			break;
		default:
			break;
		}
	}
	gamedb_move_iter_free(it);
	gamedb_reader_free(r);
	return 0;
}
