/*
 * libgamedb - the writers' cursor: all a writer (lib/write) uses of the core beyond the public
 * API. A writer walks a game with the public move iterator, one step at a time
 * (gamedb__cursor_next()): an event as gamedb_move_iter_next() gives it, or for speed a whole
 * run of plain moves and NAGs, which the iterator passes as that many events: one state
 * machine (iter.c) serves both, so a writer can write nothing a caller of the public event
 * stream could not.
 * Defined in lib/core (iter.c, game.c); never installed. Includes only the public header, so
 * that a writer sees neither the move buffer's nodes nor the game's insides (check-layers.py).
 */
#ifndef GAMEDB_CORE_CURSOR_H
#define GAMEDB_CORE_CURSOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gamedb/gamedb.h"

/* The room of a plain move's SAN (xiangqi: WXF) in a struct gamedb__ply. */
#define GAMEDB__PLY_SAN 8

/*
 * One item of a run, as a writer reads it (gamedb__run_ply()): a move that carries its SAN
 * (the decoder that played it left it there), or a NAG.
 */
struct gamedb__ply {
	uint8_t type;    /* GAMEDB_EVENT_MOVE or GAMEDB_EVENT_NAG */
	uint8_t kind;    /* MOVE: GAMEDB__PLY_SAN_SET when it carries san (see gamedb__ply_plain()) */
	uint8_t colour;  /* MOVE: the side that made it, 0 White (Red), 1 Black */
	uint8_t san_len; /* MOVE: the length of san */
	uint32_t num;    /* MOVE: the number of its full move; NAG: the NAG's number */
	/* MOVE: as gamedb_event_get_san() gives it, NUL-terminated; all of its bytes may be read
	 * (a writer copies them in one move of constant size) */
	char san[GAMEDB__PLY_SAN];
};

/* A move item's kind when the move carries its SAN, number and colour. */
#define GAMEDB__PLY_SAN_SET 4

/* What a writer's step hands out in runs (flags, or-ed). */
enum {
	GAMEDB__RUN_MOVES = 1, /* runs of moves (else every event alone, as the iterator's) */
	GAMEDB__RUN_NAGS = 2   /* NAGs too in a run (else a NAG ends it) */
};

/*
 * A run (gamedb__cursor_next()): a view of the iterator's own records from its place to the
 * game's end, which hold each item's struct gamedb__ply as its bytes, stride bytes apart
 * (iter.c checks the layout when it is built). The run is its plain items from the first on
 * (gamedb__ply_plain()); what follows them is not to be read but to stop at. Read an item
 * with gamedb__run_ply() or gamedb__run_san() only.
 */
struct gamedb__run {
	const unsigned char *at; /* the first item's bytes */
	size_t n;                /* the number of items to the game's end: the run is shorter */
	size_t stride;           /* bytes from one item to the next */
	size_t first;            /* the cursor's own: where the run starts */
	unsigned what;           /* the step's GAMEDB__RUN_* */
	int32_t depth;           /* every item's depth (they are on one line), as
				    gamedb_event_get_depth() gives it */
};

/* Item k (below r->n) of a run, copied into *p: no more than a load of its fields, inline. */
static inline void gamedb__run_ply(const struct gamedb__run *r, size_t k, struct gamedb__ply *p)
{
	memcpy(p, r->at + k * r->stride, sizeof *p);
}

/* The SAN of item k (a move) of a run, in place: GAMEDB__PLY_SAN bytes to read. */
static inline const char *gamedb__run_san(const struct gamedb__run *r, size_t k)
{
	return (const char *)r->at + k * r->stride + offsetof(struct gamedb__ply, san);
}

/*
 * Whether an item belongs to the run: a move that carries its SAN, or with GAMEDB__RUN_NAGS a
 * NAG. The first item that does not ends the run; the iterator gives it as an event.
 */
static inline int gamedb__ply_plain(const struct gamedb__run *r, const struct gamedb__ply *p)
{
	return p->type == GAMEDB_EVENT_MOVE ? p->kind == GAMEDB__PLY_SAN_SET :
	       p->type == GAMEDB_EVENT_NAG && (r->what & GAMEDB__RUN_NAGS);
}

/*
 * A writer's step through a game: with GAMEDB__RUN_MOVES in what, when the iterator is at a
 * move that carries its SAN, a run from there on in *r (r->n > 0), *out NULL and GAMEDB_OK:
 * the writer writes the run's items, then passes them with gamedb__cursor_pass(). Else r->n =
 * 0 and the next event as gamedb_move_iter_next() gives it (*out, its return value).
 */
int32_t gamedb__cursor_next(struct gamedb_move_iter *it, unsigned what, struct gamedb__run *r,
			    const struct gamedb_event **out);

/*
 * Passes the first k items of the run the last step gave (k at least 1, all of them plain:
 * at most the run), as that many gamedb_move_iter_next() calls would: the current event is
 * then the last of them (no flag of the iterator skips a move or a NAG).
 */
void gamedb__cursor_pass(struct gamedb_move_iter *it, const struct gamedb__run *r, size_t k);

/*
 * The UCI (xiangqi: ICCS) of item k (a move) of a run of it, as gamedb_event_get_uci() gives
 * it, in buf (8 bytes); its length.
 */
size_t gamedb__cursor_uci(const struct gamedb_move_iter *it, const struct gamedb__run *r,
			  size_t k, char *buf);

/* What gamedb_event_get_move() and gamedb_event_get_piece() give of a run's move. */
struct gamedb__run_move {
	int32_t from, to, promo, piece;
};

/* The squares, promotion and piece of item k (a move) of a run. */
void gamedb__cursor_move(const struct gamedb__run *r, size_t k, struct gamedb__run_move *m);

/*
 * gamedb_event_get_san() with the SAN's length in *len (the writers take it for every move,
 * so a move that carries its SAN hands out the length it keeps instead of a strlen()).
 */
const char *gamedb__event_san(const struct gamedb_event *ev, size_t *len);

/*
 * Tag i (head tags, then extra tags) with the lengths of its name and UTF-8 value:
 * gamedb_game_get_tag_at() without the strlen()s. 0, or -1 when there is no tag i.
 */
int gamedb__game_tag_at(struct gamedb_game *g, size_t i, const char **name, size_t *nlen,
			const char **value, size_t *vlen);

/*
 * The writer is about to write every move's SAN of g (call it before the game's moves are
 * decoded, i.e. before gamedb_move_iter_new()): the game's reader then has its decoders make
 * the SAN as they play the moves, which costs less than making it afterwards. A game decoded
 * before without it still gives the right SAN (made on demand), and so does a copy of a game.
 */
void gamedb__game_want_san(struct gamedb_game *g);

/*
 * Adds what a writer changed of the game (a note, UTF-8) to the game's message, which
 * gamedb_game_errmsg() gives: after the message there ("; " between), else as the reader's
 * messages are, "FILE: game N: NOTE". A note the message holds already is not added again (the
 * game written twice). The game's status is left as it is: the writer returns GAMEDB_WARN.
 */
void gamedb__game_add_warning(struct gamedb_game *g, const char *note);

#endif /* GAMEDB_CORE_CURSOR_H */
