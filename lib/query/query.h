/*
 * libgamedb - search and the opening tree (lib/query): what query.c, where.c and tree.c share.
 * Never installed.
 *
 * The work is split so that a position index can replace the scan without touching the rest:
 *  - where.c tests a game's headers (no moves decoded);
 *  - query.c finds where a game reaches the position: gamedb__query_locate() decodes the main
 *    line and fills a struct gamedb__hit (the ply, and the move played there);
 *  - tree.c counts hits: gamedb__tree_add_hit() takes a hit and the game's header numbers
 *    (struct gamedb__gamestat), whoever found the hit.
 * An index maps gamedb__query_key() (chess: gamedb__pos_key_board(), xiangqi: gamedb__xq_key())
 * to (game, ply, move) and hands those hits to gamedb__tree_add_hit() with the game's header
 * numbers, never decoding a game's moves.
 */
#ifndef GAMEDB_QUERY_QUERY_H
#define GAMEDB_QUERY_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "gamedb/gamedb.h"
#include "board/board.h"
#include "board/xiangqi.h"

#define GAMEDB__QUERY_MAGIC 0x51525931u /* "QRY1" */
#define GAMEDB__TREE_MAGIC 0x54524531u  /* "TRE1" */

/* A header filter (gamedb_query_add_where()). */
enum {
	GAMEDB__W_EQ, GAMEDB__W_NE, GAMEDB__W_LT, GAMEDB__W_LE, GAMEDB__W_GT, GAMEDB__W_GE,
	GAMEDB__W_CONTAINS
};
struct gamedb__where {
	char tag[48];  /* the tag name, or "Player" (White or Black) */
	int op;        /* GAMEDB__W_* */
	char *value;   /* malloc'd, unquoted */
};

/*
 * Parses expr into w (w->value malloc'd); 0, or -1 with a message in err (cap bytes), or -2
 * when memory ran out.
 */
int gamedb__where_parse(struct gamedb__where *w, const char *expr, char *err, size_t cap);
/* 1 if game g passes w. */
int gamedb__where_test(const struct gamedb__where *w, struct gamedb_game *g);

/* The position searched for, in each kind of game. */
struct gamedb__target {
	int valid;                 /* this kind has a target */
	struct gamedb__pos c;      /* chess */
	struct gamedb__xqpos x;    /* xiangqi */
	uint64_t key;              /* gamedb__pos_key_board() / gamedb__xq_key() */
	/* chess pruning (men only ever leave the board, pawns never come back to their rank) */
	int men[2], pawns[2];
	uint64_t home[2];          /* squares of the pawns on their second rank */
};

struct gamedb_query {
	uint32_t magic;
	int have_pos;
	struct gamedb__target chess, xq;
	struct gamedb__where *where;
	size_t nwhere;
	int32_t ply;               /* of the last match, -1 */
	char errmsg[400];
	/* with an index (gamedb_query_set_index()): the hits of its base, in game order */
	struct gamedb_index *ix;
	long ixbase;
	struct gamedb__ixhit *hits;
	size_t nhits, next;        /* next: of gamedb_query_next_hit() */
};

/* Where a game reaches the position. */
struct gamedb__hit {
	int32_t ply;               /* 0 = the game's start position */
	int has_move;              /* 0: the game ends there */
	int colour;                /* the side to move there (0 White/Red) */
	char san[24];              /* of the move played there ("" at the end) */
	char uci[8];
};

/* The header numbers of a game a tree counts. */
struct gamedb__gamestat {
	int result;                /* 1 White won, 2 draw, 3 Black won, 0 none */
	int white_elo, black_elo;  /* 0 unknown */
	int year;                  /* 0 unknown */
};

struct gamedb__ixhit;
/* Loads q's hits from its index for its position; 0, or -1 with q's message. */
int gamedb__query_load_hits(struct gamedb_query *q);
/* With an index: the hit of game idx, or NULL (the game does not reach the position). */
const struct gamedb__ixhit *gamedb__query_hit_of(const struct gamedb_query *q, uint64_t idx);
/* Counts an index's hit in t (no game decoded); 0, or -1 when memory ran out. */
int gamedb__tree_add_ixhit(struct gamedb_tree *t, const struct gamedb_query *q,
			   const struct gamedb__ixhit *h);

/* The key of q's position in games of variant (0 when q has none for it). */
uint64_t gamedb__query_key(const struct gamedb_query *q, int32_t variant);
/*
 * Decodes g's main line and looks for q's position: 1 and *hit filled, 0 not reached,
 * GAMEDB_FAILED (g cannot be decoded; q's message set).
 */
int32_t gamedb__query_locate(struct gamedb_query *q, struct gamedb_game *g, struct gamedb__hit *hit);
/*
 * Calls fn for each position of g's main line (the start, then after each main-line move; a
 * position met again is called again: the caller keeps the first) with its query key and a
 * hit (ply, side to move, the move played there or none at the end). z: from
 * gamedb__query_ztable(), or NULL (each key computed whole). GAMEDB_OK; GAMEDB_FAILED
 * (g cannot be decoded: the message in err); GAMEDB_FATAL when fn returned non-zero.
 */
typedef int (*gamedb__walk_fn)(void *ud, uint64_t key, const struct gamedb__hit *hit);
int32_t gamedb__query_walk(struct gamedb_game *g, gamedb__walk_fn fn, void *ud,
			   const uint64_t z[16][64], char *err, size_t cap);
/*
 * The numbers gamedb__pos_key_board() adds up, for gamedb__query_walk() to follow a chess key
 * move by move instead of summing 64 squares at each: z[man][square] (z[0] empty: 0), z[7][0]
 * the side to move.
 */
void gamedb__query_ztable(uint64_t z[16][64]);
/* The header numbers of g. */
void gamedb__gamestat(struct gamedb_game *g, struct gamedb__gamestat *st);
/* Counts a hit in t: 0, or -1 when memory ran out. */
int gamedb__tree_add_hit(struct gamedb_tree *t, const struct gamedb__hit *hit,
			 const struct gamedb__gamestat *st);

#endif /* GAMEDB_QUERY_QUERY_H */
