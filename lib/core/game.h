/*
 * libgamedb - games, their tags and the move buffer (lib/core/game.c, lib/core/iter.c), for
 * the reader core and the formats (a writer sees only core/cursor.h). Built on the board
 * engine and the bottom layer; text is converted through the game's reader (core/reader.h).
 * Never installed.
 */
#ifndef GAMEDB_CORE_GAME_H
#define GAMEDB_CORE_GAME_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gamedb/gamedb.h"
#include "board/board.h"
#include "core/cursor.h"
#include "board/xiangqi.h"
#include "util/buf.h"

struct gamedb_reader;

/* A position of either board; which one is the game's variant's business. */
union gamedb__anypos {
	struct gamedb__pos c;    /* chess, Chess960 */
	struct gamedb__xqpos x;  /* xiangqi */
};

/* Plays a completed legal move on a position of the given variant. */
static inline void gamedb__any_make(int32_t variant, union gamedb__anypos *pos,
				    const struct gamedb__move *m)
{
	if (variant == GAMEDB_VARIANT_XIANGQI)
		gamedb__xq_make(&pos->x, m);
	else
		gamedb__pos_make(&pos->c, m);
}

/* The FEN of a position of the given variant (see gamedb__pos_to_fen()). */
static inline size_t gamedb__any_to_fen(int32_t variant, const union gamedb__anypos *pos,
					char *buf, size_t cap)
{
	if (variant == GAMEDB_VARIANT_XIANGQI)
		return gamedb__xq_to_fen(&pos->x, buf, cap);
	return gamedb__pos_to_fen(&pos->c, buf, cap);
}

/*
 * One event of a decoded game, in iteration order. A MOVE node added by gamedb__mb_move_san()
 * (GAMEDB__NODE_SAN) carries what the iterator hands out for it without playing it again:
 * its SAN, the number of its full move and the colour that made it. One added by
 * gamedb__mb_move_kind() as GAMEDB__NODE_NUM carries the number and the colour, and the
 * iterator replays the game only when asked for its SAN (or a position). A MOVE node added by
 * gamedb__mb_move() carries the move only; the iterator then replays the game to learn them.
 */
struct gamedb__node {
	union {
		struct gamedb__move m; /* MOVE: the completed legal move */
		uint32_t text_size;    /* text nodes: the text's length + 1 (gamedb__mb_text_end(),
					  gamedb__mb_comment()), 0 where not known */
	};
	uint8_t type;          /* GAMEDB_EVENT_* */
	uint8_t kind;          /* GAMEDB__NODE_RAW when the stored bytes are kept apart;
				  MOVE: GAMEDB__NODE_SAN when san, san_len, val and aux are set,
				  GAMEDB__NODE_NUM when val and aux are set (no SAN),
				  GAMEDB__NODE_HAND when val locates the hands (no SAN) */
	uint8_t aux;           /* comments: language (GAMEDB__LANG_*, 0 = unknown/all);
				  ANNOTATION: the format's type code; MOVE: the mover's colour */
	uint8_t san_len;       /* MOVE with GAMEDB__NODE_SAN: the length of san */
	uint32_t val;          /* NAG number; COMMENT: offset of the UTF-8 text in text pool;
				  MOVE: the number of its full move */
	char san[GAMEDB__SAN_MAX]; /* MOVE with GAMEDB__NODE_SAN: the SAN, NUL-terminated */
};

/*
 * Languages of comments (struct gamedb__node aux). The library numbers them as the
 * one format that stores them does; 0 = unknown or every language.
 */
enum {
	GAMEDB__LANG_ALL = 0x00,
	GAMEDB__LANG_ENGLISH = 0x2A,
	GAMEDB__LANG_SPANISH = 0x2B,
	GAMEDB__LANG_FRENCH = 0x31,
	GAMEDB__LANG_GERMAN = 0x35,
	GAMEDB__LANG_ITALIAN = 0x46,
	GAMEDB__LANG_DUTCH = 0x67,
	GAMEDB__LANG_POLISH = 0x74,
	GAMEDB__LANG_PORTUGUESE = 0x75
};
/* The ISO 639-1 code of a language number ("en", "de", ...); "" for 0 and unknown numbers. */
const char *gamedb__language_iso(unsigned code);
/* The language number of an ISO 639-1 code (either case), or -1 if unknown. */
int gamedb__language_code(const char *iso);

/*
 * A text node whose stored (unconverted) bytes differ from its UTF-8 text: they lie in the
 * text pool, NUL-terminated, at the offset its san room holds (gamedb__node_set_raw(),
 * gamedb__node_raw()): after the text (gamedb__mb_raw()), or in a block of stored bytes a
 * format keeps in the pool once (ChessBase: a game's CBA block). An ANNOTATION node's text is
 * its payload in hex, so its stored bytes (which may hold NULs) number half the text's length.
 */
#define GAMEDB__NODE_RAW 1
/* A MOVE node whose val is the offset in the text pool of the hands before it (8 bytes). */
#define GAMEDB__NODE_HAND 2
/* A MOVE node that carries its SAN, move number and colour (struct gamedb__node). */
#define GAMEDB__NODE_SAN 4
/*
 * A MOVE node that carries its move number and colour but no SAN (san_len 0, san zeros): the
 * iterator hands the number out as for GAMEDB__NODE_SAN, and makes the SAN only when asked
 * (from the position before the move, which it replays then). Not a bit of GAMEDB__NODE_SAN.
 * Only MOVE nodes are of these two kinds (gamedb_event_get_move_number() reads the number
 * and colour from either).
 */
#define GAMEDB__NODE_NUM 8

struct gamedb__movebuf {
	struct gamedb__node *nodes;
	size_t n;
	size_t cap;
	struct gamedb__buf text; /* NUL-separated comment texts */
	int32_t status;          /* GAMEDB_OK, GAMEDB_WARN (lossy text), GAMEDB_FAILED (decode error) */
	/*
	 * The position after the main line, when the decoder that played it left it here
	 * (have_final set), so that gamedb_game_get_final_fen() need not play the game again.
	 */
	int have_final;
	union gamedb__anypos final;
};

int gamedb__mb_move(struct gamedb__movebuf *mb, const struct gamedb__move *m);
/* Room for one more node: 0, or -1 (out of memory, or the game holds too many nodes). */
int gamedb__mb_grow(struct gamedb__movebuf *mb);
/*
 * Room for one more node, at mb->nodes[mb->n]: 0, or -1 (out of memory, or the game holds too
 * many nodes). A decoder may let the engine write a move and its SAN straight into the node
 * there (gamedb__node_move(), gamedb__mb_move_done()).
 */
static inline int gamedb__mb_room(struct gamedb__movebuf *mb)
{
	return mb->n < mb->cap ? 0 : gamedb__mb_grow(mb);
}
/*
 * A MOVE node in the room gamedb__mb_room() made, in two steps, so that the engine can write
 * the move and its SAN straight into the node's m and san (GAMEDB__SAN_MAX bytes; the SAN at
 * most GAMEDB__SAN_MAX - 1 characters, NUL-terminated): gamedb__node_move() first sets the
 * number of its full move and the colour that made it (as in the position before the move),
 * gamedb__mb_move_done() then adds the node with the length of its SAN. The iterator hands
 * the move out without playing it again. Nothing is added until gamedb__mb_move_done().
 */
static inline void gamedb__node_move(struct gamedb__node *nd, uint32_t fullmove, int colour)
{
	nd->type = GAMEDB_EVENT_MOVE;
	nd->kind = GAMEDB__NODE_SAN;
	nd->aux = (uint8_t)colour;
	nd->val = fullmove;
}
static inline void gamedb__mb_move_done(struct gamedb__movebuf *mb, struct gamedb__node *nd,
					size_t len)
{
	nd->san_len = (uint8_t)len;
	mb->n++;
}
/*
 * Adds a move of the kind given (gamedb__node_fill(): the same in a node of the caller's),
 * with the number of its full move and the colour that made it, as gamedb__node_move() takes
 * them: GAMEDB__NODE_SAN with its SAN (len characters, below GAMEDB__SAN_MAX, NUL-terminated,
 * in a buffer of GAMEDB__SAN_MAX bytes, all of which are copied), or GAMEDB__NODE_NUM without
 * it (len 0, san GAMEDB__SAN_MAX zero bytes; m->check must not say GAMEDB__CHECK_CHECK for a
 * mate: GAMEDB__CHECK_UNKNOWN as gamedb__move_play_fast() leaves it, or the SAN made later
 * would write '+' for '#'). A decoder that chooses once per
 * game whether its moves get their SAN passes the kind as a variable: no test per move.
 * Inline: the decoders call it for every move.
 */
static inline void gamedb__node_fill(struct gamedb__node *nd, const struct gamedb__move *m,
				     uint32_t fullmove, int colour, const char *san, size_t len,
				     int kind)
{
	gamedb__node_move(nd, fullmove, colour);
	nd->kind = (uint8_t)kind;
	nd->san_len = (uint8_t)len;
	nd->m = *m;
	/* All of san's room in one copy of constant size: what follows its NUL is not read. */
	memcpy(nd->san, san, GAMEDB__SAN_MAX);
}
static inline int gamedb__mb_move_kind(struct gamedb__movebuf *mb, const struct gamedb__move *m,
				       uint32_t fullmove, int colour, const char *san, size_t len,
				       int kind)
{
	if (gamedb__mb_room(mb) != 0)
		return -1;
	gamedb__node_fill(&mb->nodes[mb->n++], m, fullmove, colour, san, len, kind);
	return 0;
}
/*
 * Adds a node made beforehand (a MOVE node gamedb__node_fill() made, kept by a decoder that
 * writes its moves in another order than it reads them), whole.
 */
static inline int gamedb__mb_node(struct gamedb__movebuf *mb, const struct gamedb__node *nd)
{
	if (gamedb__mb_room(mb) != 0)
		return -1;
	mb->nodes[mb->n++] = *nd;
	return 0;
}
/*
 * Adds a move with its SAN (len characters, at most GAMEDB__SAN_MAX - 1, NUL-terminated, in a
 * buffer of GAMEDB__SAN_MAX bytes, all of which are copied), the number of its full move and
 * the colour that made it, as gamedb__node_move() takes them.
 * Inline: the decoders call it for every move.
 */
static inline int gamedb__mb_move_san(struct gamedb__movebuf *mb, const struct gamedb__move *m,
				      uint32_t fullmove, int colour, const char *san, size_t len)
{
	if (len >= GAMEDB__SAN_MAX)
		return gamedb__mb_move(mb, m); /* cannot happen for chess: SAN by replay */
	return gamedb__mb_move_kind(mb, m, fullmove, colour, san, len, GAMEDB__NODE_SAN);
}
/*
 * A move made with the men in hand set from outside first (bughouse: they come from the
 * partner's board): the hands before the move go into the text pool and the node is marked
 * GAMEDB__NODE_HAND; whatever replays the moves (the move iterator, the final FEN) sets them
 * with gamedb__node_hand() before making the move, so each FEN has the real hands.
 */
int gamedb__mb_move_hand(struct gamedb__movebuf *mb, const struct gamedb__move *m, uint64_t hand);
/* Adds a node of an event other than a move (its number, text offset or the like in val). */
static inline int gamedb__mb_event(struct gamedb__movebuf *mb, int type, uint32_t val)
{
	struct gamedb__node *nd;

	if (gamedb__mb_room(mb) != 0)
		return -1;
	nd = &mb->nodes[mb->n++];
	memset(nd, 0, sizeof *nd);
	nd->type = (uint8_t)type;
	nd->val = val;
	return 0;
}
/*
 * Ends the UTF-8 text written into the text pool from offset off on (as the text layer writes
 * it: no NUL inside) with its NUL, as text node nd's (whose val says where it starts): nd
 * keeps its length (gamedb_event_get_text_n()). For a format that made its text nodes before
 * their texts (SCID's comment markers); -1 if out of memory.
 */
static inline int gamedb__node_text_end(struct gamedb__movebuf *mb, struct gamedb__node *nd,
					size_t off)
{
	/* (gamedb__buf_put(): its room test inline; a comment-heavy base ends thousands a pass) */
	if (gamedb__buf_put(&mb->text, "", 1) != 0)
		return -1;
	nd->text_size = (uint32_t)(mb->text.len - off);
	return 0;
}
/* gamedb__node_text_end() for a new node of type, added now; -1 if out of memory. */
static inline int gamedb__mb_text_end(struct gamedb__movebuf *mb, int type, size_t off)
{
	if (gamedb__mb_event(mb, type, (uint32_t)off) != 0)
		return -1;
	return gamedb__node_text_end(mb, &mb->nodes[mb->n - 1], off);
}
/*
 * Adds a comment given as UTF-8 with no NUL inside (the text layer's output, or text a format
 * builds), keeping its length as gamedb__mb_text_end() does.
 */
int gamedb__mb_comment(struct gamedb__movebuf *mb, int type, const char *utf8, size_t len);
/*
 * Keeps the stored bytes of the text node just added (gamedb__mb_comment() or a text put into
 * the pool by hand, the last thing written there) after its UTF-8 text and its NUL, for
 * gamedb_event_get_text_raw(); marks the node GAMEDB__NODE_RAW. A comment whose stored bytes
 * are its very UTF-8 text keeps nothing more (gamedb_event_get_text_raw() then gives the text).
 */
int gamedb__mb_raw(struct gamedb__movebuf *mb, const void *raw, size_t len);
/* Marks text node nd GAMEDB__NODE_RAW, its stored bytes at offset off of the text pool. */
static inline void gamedb__node_set_raw(struct gamedb__node *nd, uint32_t off)
{
	_Static_assert(GAMEDB__SAN_MAX >= sizeof off, "no room for the offset");
	nd->kind = GAMEDB__NODE_RAW;
	memcpy(nd->san, &off, sizeof off);
}
/* The offset in the text pool of a GAMEDB__NODE_RAW node's stored bytes. */
static inline uint32_t gamedb__node_raw(const struct gamedb__node *nd)
{
	uint32_t off;

	memcpy(&off, nd->san, sizeof off);
	return off;
}
void gamedb__mb_reset(struct gamedb__movebuf *mb);
void gamedb__mb_free(struct gamedb__movebuf *mb);

/* Sets a chess position's hands to those a MOVE node carries (GAMEDB__NODE_HAND), if any. */
static inline void gamedb__node_hand(const struct gamedb__movebuf *mb,
				     const struct gamedb__node *nd, struct gamedb__pos *pos)
{
	if (nd->kind == GAMEDB__NODE_HAND && (size_t)nd->val + 8 <= mb->text.len)
		memcpy(&pos->hand, mb->text.p + nd->val, 8);
}

struct gamedb__tag {
	uint32_t name;   /* offsets into the game's pool */
	uint32_t value;
	uint32_t raw;
	uint32_t raw_len;
	uint32_t charset; /* offset of the charset name in the pool, or GAMEDB__TAG_NO_CHARSET:
			     the name is copied, so that it lives as long as the game (a copy
			     made by gamedb_game_dup() outlives the reader whose option it is) */
};

#define GAMEDB__TAG_NO_CHARSET UINT32_MAX

struct gamedb__tagset {
	struct gamedb__tag *v;
	size_t n, cap;
	struct gamedb__buf pool;
	uint32_t charset_last; /* offset of the charset name added last (tags of one game share
				  it: one copy per pool), valid while charset_have is set */
	const char *charset_ptr; /* the pointer that name was given as (compared, never read) */
	int charset_have;
};

#define GAMEDB__GAME_MAGIC 0x47414d45u /* "GAME" */

enum { GAMEDB__MOVES_NONE = 0, GAMEDB__MOVES_DONE = 1 };

struct gamedb_game {
	uint32_t magic;
	struct gamedb_reader *reader; /* NULL for a copy made by gamedb_game_dup() */
	uint64_t index;
	int32_t variant;
	int32_t deleted;
	uint32_t fmt_flags;   /* the format's own per-game flags */
	uint64_t loc[3];      /* the format's own: where the game is (e.g. a record's offset and
				 length, and where its move data starts once known, else 0) */
	char fen[128];
	/*
	 * Tags: the ones the format gives at next_game() in head; the ones it keeps outside its
	 * index (loaded on demand) in extra. Two pools, so that pointers handed out stay valid.
	 */
	struct gamedb__tagset head;
	struct gamedb__tagset extra;
	int extra_loaded;     /* 0 not yet, 1 loaded (or none), -1 failed */
	int fen_pending;      /* fen is known only once the extra tags are loaded */
	char final_fen[128];  /* after the main line; "" until asked for */
	int have_start;       /* start (chess) or xqstart (xiangqi) holds the position of fen (set
				 by the format once parsed) */
	struct gamedb__pos start;
	struct gamedb__xqpos xqstart;
	int moves_state;
	struct gamedb__movebuf mb;
	int32_t text_status;  /* GAMEDB_WARN if a tag was converted with loss */
	int fallback;         /* 1 once a text of the game was read in the fallback charset */
	char errmsg[320];
};

/*
 * Adds a tag (value already UTF-8) to a tag set; raw bytes may be NULL (then raw = value).
 * A tag set is filled by one call of its format (between two resets): within it, a charset
 * passed as the same pointer as the last one must be the same name (the copy is shared).
 */
int gamedb__tags_add_full(struct gamedb__tagset *ts, const char *name, size_t nlen,
			  const char *value, size_t vlen, const char *raw, size_t raw_len,
			  const char *charset);
/*
 * Room in ts for n more tags and bytes more bytes of pool (names, values and raw bytes with
 * their NULs, as gamedb__tags_put() writes them): 0, or -1 (out of memory, or too many). A
 * format that knows a game's tags at once makes room for them once and puts them.
 */
int gamedb__tags_room(struct gamedb__tagset *ts, size_t n, size_t bytes);
/*
 * The offset of the charset name in ts's pool, for gamedb__tags_put(), in *cs: copied there
 * once per fill of the tag set (see gamedb__tags_add_n()). 0, or -1 (out of memory, or a
 * name of more than 255 bytes).
 */
int gamedb__tags_charset(struct gamedb__tagset *ts, const char *charset, uint32_t *cs);
/*
 * Writes a tag into room made already (one more tag in ts->v; need bytes, as counted by
 * gamedb__tags_add_n(), and the buffer's NUL in the pool): name, value and raw bytes (when
 * not NULL) one after the other, each NUL-terminated. cs: the charset name's offset in the
 * pool, or GAMEDB__TAG_NO_CHARSET.
 */
static inline void gamedb__tags_put(struct gamedb__tagset *ts, const char *name, size_t nlen,
				    const char *value, size_t vlen, const char *raw,
				    size_t raw_len, uint32_t cs)
{
	struct gamedb__buf *pool = &ts->pool;
	struct gamedb__tag *t = &ts->v[ts->n++];
	char *d = pool->p + pool->len;

	t->name = (uint32_t)pool->len;
	memcpy(d, name, nlen);
	d[nlen] = 0;
	t->value = t->name + (uint32_t)nlen + 1;
	if (vlen)
		memcpy(d + nlen + 1, value, vlen);
	d[nlen + 1 + vlen] = 0;
	if (raw) {
		t->raw = t->value + (uint32_t)vlen + 1;
		if (raw_len)
			memcpy(d + nlen + 1 + vlen + 1, raw, raw_len);
		d[nlen + 1 + vlen + 1 + raw_len] = 0;
		t->raw_len = (uint32_t)raw_len;
		pool->len += nlen + 1 + vlen + 1 + raw_len + 1;
	} else {
		t->raw = t->value;
		t->raw_len = (uint32_t)vlen;
		pool->len += nlen + 1 + vlen + 1;
	}
	pool->p[pool->len] = 0;
	t->charset = cs;
}
/*
 * gamedb__tags_add_full() with its common case inline: room enough in the tag array and the
 * pool, and no charset or the same charset pointer as the last tag's. Every tag of every game
 * passes here; inline, a literal name is copied by the compiler and the tests for absent raw
 * bytes and charset fold away.
 */
static inline int gamedb__tags_add_n(struct gamedb__tagset *ts, const char *name, size_t nlen,
				     const char *value, size_t vlen, const char *raw,
				     size_t raw_len, const char *charset)
{
	const struct gamedb__buf *pool = &ts->pool;
	const size_t need = nlen + 1 + vlen + 1 + (raw ? raw_len + 1 : 0);
	uint32_t cs;

	if (!charset)
		cs = GAMEDB__TAG_NO_CHARSET;
	else if (ts->charset_have && charset == ts->charset_ptr)
		cs = ts->charset_last;
	else
		return gamedb__tags_add_full(ts, name, nlen, value, vlen, raw, raw_len, charset);
	if (ts->n == ts->cap || nlen > UINT32_MAX / 4 || vlen > UINT32_MAX / 4 ||
	    (raw && raw_len > UINT32_MAX / 4) || pool->len > UINT32_MAX - need ||
	    pool->cap - pool->len <= need)
		return gamedb__tags_add_full(ts, name, nlen, value, vlen, raw, raw_len, charset);
	gamedb__tags_put(ts, name, nlen, value, vlen, raw, raw_len, cs);
	return 0;
}
/* gamedb__tags_add_n() with the name's length counted here: for a literal name, by the compiler. */
static inline int gamedb__tags_add(struct gamedb__tagset *ts, const char *name, const char *value,
				   size_t vlen, const char *raw, size_t raw_len, const char *charset)
{
	return gamedb__tags_add_n(ts, name, strlen(name), value, vlen, raw, raw_len, charset);
}
/* Adds a tag converting raw bytes through the reader's text layer. */
int32_t gamedb__game_add_tag_raw(struct gamedb_game *g, struct gamedb__tagset *ts,
				 const char *name, const char *raw, size_t raw_len,
				 const char *charset);
void gamedb__game_reset(struct gamedb_game *g);
void gamedb__game_release(struct gamedb_game *g);
/*
 * The start position of g: the one its format left in g->start, else its FEN parsed. 0, or -1
 * with a reason in *why.
 */
int gamedb__game_start_pos(struct gamedb_game *g, union gamedb__anypos *pos, const char **why);
/* Decodes the moves of g once (lazily); returns the decode status (OK, WARN, FAILED). */
int32_t gamedb__game_decode(struct gamedb_game *g);
void gamedb__game_seterr(struct gamedb_game *g, const char *fmt, ...) GAMEDB__PRINTF(2, 3);
/*
 * A text of g needed the fallback charset (the text layer counted it): the game's status
 * becomes GAMEDB_WARN and its message, when it has none, names the file, the game, the
 * charsets and the text. Once per game.
 */
void gamedb__game_fallback_warning(struct gamedb_game *g);

#endif /* GAMEDB_CORE_GAME_H */
