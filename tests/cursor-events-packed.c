/*
 * libgamedb - the packed writer with its runs turned off, for test-cursor.c: lib/write/packed.c
 * built again here, its step through a game (gamedb__cursor_next()) replaced by the public
 * event stream alone (gamedb_move_iter_next(), never a run), and its entry point renamed
 * test_events_write_packed(). What the writer does with each event is the same code; only the
 * path of the moves differs, which is what the test compares.
 */
#include "core/cursor.h"

static int32_t events_only(struct gamedb_move_iter *it, struct gamedb__run *r,
			   const struct gamedb_event **out)
{
	r->n = 0;
	return gamedb_move_iter_next(it, out);
}

#define gamedb__cursor_next(it, what, r, out) ((void)(what), events_only((it), (r), (out)))
int32_t test_events_write_packed(struct gamedb_game *g, uint32_t flags, void *buf, size_t cap,
				 size_t *out_len);

#define gamedb_game_write_packed test_events_write_packed
#include "../lib/write/packed.c"
