/*
 * libgamedb - a game packed into one caller buffer (gamedb_game_write_packed()): its start
 * position, its tags and every event of its move iterator with all that the event accessors
 * give, laid out for a binding to take in one call and unpack with a few bulk operations
 * (Python's struct.iter_unpack() over fixed-size records, one bytes.split() of the strings)
 * instead of a call through the FFI per accessor per event. The layout is in the public header
 * and doc/packed.md; this file is its only writer. Public API only, like the other writers, and
 * the writers' cursor (core/cursor.h): a run of moves and NAGs is packed from the cursor's view
 * of them, without an event and its calls per move.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cursor.h"
#include "util/buf.h"

#define PACK_MAGIC "GDBK"
#define PACK_VERSION 1u
#define PACK_HEADER 56u
#define PACK_HEADER_GROUPED 80u /* GAMEDB_PACK_GROUPED: and the offsets of the six groups */
#define PACK_GROUPS 6
#define PACK_RECORD 32u
/* Most games fit in these on the stack; a longer one moves its section to the heap. */
#define PACK_INLINE_RECORDS 8192
#define PACK_INLINE_STRINGS 4096
#define PACK_INLINE_GROUP 1024

/* The bits of a record's byte 1: which of the event's values follow in the sections. */
enum {
	HAS_SAN = 1, HAS_UCI = 2, HAS_CHINESE = 4, HAS_FEN = 8,
	HAS_TEXT = 16, HAS_LANGUAGE = 32, HAS_RAW = 64, HAS_KEY = 128
};

struct pack {
	struct gamedb__buf rec, str, raw;
	/* GAMEDB_PACK_GROUPED: the events' strings of each bit, HAS_SAN ... HAS_LANGUAGE */
	struct gamedb__buf group[PACK_GROUPS];
	int grouped, err;
};

static void put_le(unsigned char *d, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++)
		d[i] = (unsigned char)(v >> (8 * i));
}

/* A string of the string section: its bytes and a NUL (one copy when the room is there: a
 * SAN and a UCI per move make this the writer's most frequent step). */
static void put_str(struct pack *p, struct gamedb__buf *b, const char *s, size_t len)
{
	if (b->cap - b->len > len + 1) { /* the string, its NUL, and the buffer's own NUL */
		memcpy(b->p + b->len, s, len);
		b->len += len;
		b->p[b->len++] = 0;
		b->p[b->len] = 0;
		return;
	}
	if (gamedb__buf_put(b, s, len) != 0 || gamedb__buf_put(b, "", 1) != 0)
		p->err = 1;
}

static void str(struct pack *p, const char *s)
{
	put_str(p, &p->str, s, strlen(s));
}

/* An event's string of the value of bit (HAS_SAN ... HAS_LANGUAGE): after the event's
 * others, or in the bit's group (GAMEDB_PACK_GROUPED). */
static void ev_str_n(struct pack *p, unsigned bit, const char *s, size_t len)
{
	/* the group of each bit: HAS_SAN 0, HAS_UCI 1, HAS_CHINESE 2, HAS_FEN 3 ... */
	static const unsigned char group_of[HAS_LANGUAGE + 1] = {
		[HAS_SAN] = 0, [HAS_UCI] = 1, [HAS_CHINESE] = 2, [HAS_FEN] = 3, [HAS_TEXT] = 4,
		[HAS_LANGUAGE] = 5
	};

	put_str(p, p->grouped ? &p->group[group_of[bit]] : &p->str, s, len);
}

static void ev_str(struct pack *p, unsigned bit, const char *s)
{
	ev_str_n(p, bit, s, strlen(s));
}

/* The start of an event's record: its type and depth, no squares (-1 and -1, as the layout
 * says), the rest zero. */
static void record_start(unsigned char r[PACK_RECORD], int32_t type, int32_t depth)
{
	memset(r, 0, PACK_RECORD);
	r[0] = (unsigned char)type;
	put_le(r + 4, 0xffffffffu, 4);
	put_le(r + 8, (uint32_t)depth, 4);
}

/* A move's fields of its record: piece, promotion, squares, number and colour. */
static void record_move(unsigned char r[PACK_RECORD], int32_t from, int32_t to, int32_t promo,
			int32_t piece, int32_t number, int32_t colour)
{
	r[2] = (unsigned char)piece;
	r[3] = (unsigned char)promo;
	put_le(r + 4, (uint16_t)(int16_t)from, 2);
	put_le(r + 6, (uint16_t)(int16_t)to, 2);
	put_le(r + 12, (uint32_t)number, 4);
	r[16] = (unsigned char)(colour != 0);
}

/* One event's record, and its values in the string and raw sections. */
static void event(struct pack *p, const struct gamedb_event *ev, uint32_t flags, int xiangqi)
{
	unsigned char r[PACK_RECORD];
	int32_t type = gamedb_event_get_type(ev);
	unsigned bits = 0;
	const char *s;
	size_t len;

	record_start(r, type, gamedb_event_get_depth(ev));
	switch (type) {
	case GAMEDB_EVENT_MOVE:
		{
			int32_t from = -1, to = -1, promo = 0, colour = 0, number;
			if (gamedb_event_get_move(ev, &from, &to, &promo) != GAMEDB_OK)
				from = to = -1, promo = 0;
			number = gamedb_event_get_move_number(ev, &colour);
			record_move(r, from, to, promo, gamedb_event_get_piece(ev), number, colour);
		}
		if ((s = gamedb__event_san(ev, &len)) != NULL) {
			bits |= HAS_SAN;
			ev_str_n(p, HAS_SAN, s, len);
		}
		if ((s = gamedb_event_get_uci(ev)) != NULL) {
			bits |= HAS_UCI;
			ev_str(p, HAS_UCI, s);
		}
		if (xiangqi && (s = gamedb_event_get_notation(ev, GAMEDB_NOTATION_CHINESE)) != NULL) {
			bits |= HAS_CHINESE;
			ev_str(p, HAS_CHINESE, s);
		}
		if ((flags & GAMEDB_ITER_FEN) && (s = gamedb_event_get_fen(ev)) != NULL) {
			bits |= HAS_FEN;
			ev_str(p, HAS_FEN, s);
		}
		if (flags & GAMEDB_PACK_KEYS) {
			uint64_t key;
			if (gamedb_event_get_key(ev, &key) == GAMEDB_OK) {
				bits |= HAS_KEY;
				put_le(r + 24, key, 8);
			}
		}
		break;
	case GAMEDB_EVENT_COMMENT_BEFORE:
	case GAMEDB_EVENT_COMMENT_AFTER:
	case GAMEDB_EVENT_RESULT:
	case GAMEDB_EVENT_CLOCK:
	case GAMEDB_EVENT_COMMAND:
		if ((s = gamedb_event_get_text(ev)) != NULL) {
			bits |= HAS_TEXT;
			ev_str(p, HAS_TEXT, s);
		}
		if (type != GAMEDB_EVENT_COMMENT_BEFORE && type != GAMEDB_EVENT_COMMENT_AFTER)
			break;
		if ((s = gamedb_event_get_language(ev)) != NULL) {
			bits |= HAS_LANGUAGE;
			ev_str(p, HAS_LANGUAGE, s);
		}
		/* a comment's stored bytes, as an annotation's */
		/* fall through */
	case GAMEDB_EVENT_ANNOTATION:
		if (type == GAMEDB_EVENT_ANNOTATION)
			put_le(r + 12, (uint32_t)gamedb_event_get_annotation_type(ev), 4);
		len = 0;
		if ((s = gamedb_event_get_text_raw(ev, &len)) != NULL) {
			if (len > UINT32_MAX || gamedb__buf_put(&p->raw, s, len) != 0)
				p->err = 1;
			bits |= HAS_RAW;
			put_le(r + 20, (uint32_t)len, 4);
		}
		break;
	case GAMEDB_EVENT_NAG:
		put_le(r + 12, (uint32_t)gamedb_event_get_nag(ev), 4);
		break;
	default:
		break;
	}
	r[1] = (unsigned char)bits;
	if (gamedb__buf_put(&p->rec, r, sizeof r) != 0)
		p->err = 1;
}

/*
 * The plain items of a run (core/cursor.h) from its first on: a move's record with its SAN
 * and UCI, a NAG's record, as event() writes them for the same events, without an event and
 * its calls per move. The number of items written (at least the first, unless out of memory).
 */
static size_t pack_run(struct pack *p, const struct gamedb_move_iter *it,
		       const struct gamedb__run *run)
{
	size_t k;

	for (k = 0; k < run->n && !p->err; k++) {
		unsigned char r[PACK_RECORD];
		struct gamedb__ply pl;

		gamedb__run_ply(run, k, &pl);
		if (!gamedb__ply_plain(run, &pl))
			break;
		record_start(r, pl.type, run->depth);
		if (pl.type == GAMEDB_EVENT_MOVE) {
			struct gamedb__run_move m;
			char uci[8];
			size_t n;
			gamedb__cursor_move(run, k, &m);
			r[1] = HAS_SAN | HAS_UCI;
			record_move(r, m.from, m.to, m.promo, m.piece, (int32_t)pl.num, pl.colour);
			ev_str_n(p, HAS_SAN, gamedb__run_san(run, k), pl.san_len);
			n = gamedb__cursor_uci(it, run, k, uci);
			ev_str_n(p, HAS_UCI, uci, n);
		} else {
			put_le(r + 12, pl.num, 4); /* the NAG's number */
		}
		if (gamedb__buf_put(&p->rec, r, sizeof r) != 0)
			p->err = 1;
	}
	return k;
}

GAMEDB_EXPORT int32_t gamedb_game_write_packed(struct gamedb_game *g, uint32_t flags, void *buf,
					       size_t cap, size_t *out_len)
{
	static const uint32_t known = GAMEDB_ITER_MAINLINE_ONLY | GAMEDB_ITER_SKIP_COMMENTS |
		GAMEDB_ITER_FEN | GAMEDB_ITER_PARTIAL | GAMEDB_ITER_UCI_KING_TAKES_ROOK |
		GAMEDB_PACK_KEYS | GAMEDB_PACK_NO_MOVES | GAMEDB_PACK_GROUPED;
	struct pack p;
	struct gamedb_move_iter *it = NULL;
	const struct gamedb_event *ev;
	unsigned char head[PACK_HEADER_GROUPED];
	char rec_storage[PACK_INLINE_RECORDS], str_storage[PACK_INLINE_STRINGS], raw_storage[256];
	char group_storage[PACK_GROUPS][PACK_INLINE_GROUP];
	size_t i, ntags, nevents = 0, total, hsize, at, strs;
	int32_t rc = GAMEDB_OK;
	const char *fen;
	int xiangqi;

	if (out_len)
		*out_len = 0;
	if (!g || !out_len || (!buf && cap) || (flags & ~known))
		return GAMEDB_FAILED;
	if (!(flags & GAMEDB_PACK_NO_MOVES)) {
		gamedb__game_want_san(g); /* every move's SAN: made as the decoder plays them */
		rc = gamedb_move_iter_new(g, flags & (GAMEDB_ITER_MAINLINE_ONLY |
			GAMEDB_ITER_SKIP_COMMENTS | GAMEDB_ITER_FEN | GAMEDB_ITER_PARTIAL |
			GAMEDB_ITER_UCI_KING_TAKES_ROOK), &it);
		if (rc != GAMEDB_OK && rc != GAMEDB_WARN)
			return GAMEDB_FAILED; /* the moves cannot be decoded: gamedb_game_errmsg() */
	}
	memset(&p, 0, sizeof p);
	gamedb__buf_init_fixed(&p.rec, rec_storage, sizeof rec_storage);
	gamedb__buf_init_fixed(&p.str, str_storage, sizeof str_storage);
	gamedb__buf_init_fixed(&p.raw, raw_storage, sizeof raw_storage);
	p.grouped = (flags & GAMEDB_PACK_GROUPED) != 0;
	for (i = 0; i < PACK_GROUPS; i++)
		gamedb__buf_init_fixed(&p.group[i], group_storage[i], sizeof group_storage[i]);

	ntags = gamedb_game_get_tag_count(g);
	for (i = 0; i < ntags; i++) {
		const char *name = "", *value = "";
		/* As C strings, up to a NUL, as every caller of the accessor sees them. */
		if (gamedb_game_get_tag_at(g, i, &name, &value) != GAMEDB_OK)
			name = value = "";
		str(&p, name ? name : "");
		str(&p, value ? value : "");
	}
	/* After the tags: SCID reads a non-standard start position with them. */
	fen = gamedb_game_get_fen(g);
	str(&p, fen ? fen : "");
	xiangqi = gamedb_game_get_variant(g) == GAMEDB_VARIANT_XIANGQI;
	if (it) {
		/* Runs of moves and NAGs, unless each move asks for its position (a FEN, a key)
		 * or its Chinese notation, which only the event gives. */
		const unsigned what = (flags & (GAMEDB_ITER_FEN | GAMEDB_PACK_KEYS)) || xiangqi
					      ? 0 : GAMEDB__RUN_MOVES | GAMEDB__RUN_NAGS;
		struct gamedb__run run;
		while (!p.err && gamedb__cursor_next(it, what, &run, &ev) == GAMEDB_OK) {
			if (run.n) {
				const size_t k = pack_run(&p, it, &run);
				if (k == 0)
					break; /* out of memory */
				gamedb__cursor_pass(it, &run, k);
				nevents += k;
				continue;
			}
			event(&p, ev, flags, xiangqi);
			nevents++;
		}
		gamedb_move_iter_free(it);
	}

	hsize = p.grouped ? PACK_HEADER_GROUPED : PACK_HEADER;
	strs = p.str.len;
	for (i = 0; i < PACK_GROUPS; i++)
		strs += p.group[i].len;
	total = hsize + p.rec.len + strs + p.raw.len;
	if (p.err || total > UINT32_MAX || nevents > UINT32_MAX || ntags > UINT32_MAX) {
		rc = GAMEDB_FAILED; /* out of memory, or over the size cap of a buffer */
		goto out;
	}
	*out_len = total;
	if (total > cap)
		goto out; /* the caller asks again with room for total bytes */
	memcpy(head, PACK_MAGIC, 4);
	put_le(head + 4, PACK_VERSION, 4);
	put_le(head + 8, hsize, 4);
	put_le(head + 12, flags, 4);
	put_le(head + 16, nevents, 4);
	put_le(head + 20, ntags, 4);
	put_le(head + 24, hsize + p.rec.len, 4);
	put_le(head + 28, strs, 4);
	put_le(head + 32, hsize + p.rec.len + strs, 4);
	put_le(head + 36, p.raw.len, 4);
	put_le(head + 40, gamedb_game_get_index(g), 8);
	put_le(head + 48, (uint32_t)gamedb_game_get_variant(g), 4);
	put_le(head + 52, gamedb_game_is_deleted(g) ? 1 : 0, 4);
	at = hsize + p.rec.len + p.str.len;
	for (i = 0; i < PACK_GROUPS && p.grouped; i++) {
		put_le(head + PACK_HEADER + 4 * i, at, 4);
		if (p.group[i].len)
			memcpy((char *)buf + at, p.group[i].p, p.group[i].len);
		at += p.group[i].len;
	}
	memcpy(buf, head, hsize);
	if (p.rec.len)
		memcpy((char *)buf + hsize, p.rec.p, p.rec.len);
	memcpy((char *)buf + hsize + p.rec.len, p.str.p, p.str.len);
	if (p.raw.len)
		memcpy((char *)buf + at, p.raw.p, p.raw.len);
out:
	gamedb__buf_free(&p.rec);
	gamedb__buf_free(&p.str);
	gamedb__buf_free(&p.raw);
	for (i = 0; i < PACK_GROUPS; i++)
		gamedb__buf_free(&p.group[i]);
	return rc;
}
