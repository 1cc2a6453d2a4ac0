/*
 * libgamedb - the CCBridge (象棋桥) format's private parts, shared by format-ccbridge.c (bidding,
 * the library index, headers) and ccbridge-moves.c (the move tree). Layout facts are in
 * doc/formats/ccbridge.md.
 */
#ifndef GAMEDB_CCBRIDGE_H
#define GAMEDB_CCBRIDGE_H

#include "formats/format.h"
#include "formats/toolkit.h"

/* A record (.cbr, or one in a library): its header, then the move stream from this offset. */
#define CCB_REC_MOVES 2214u
#define CCB_REC_BOARD 2120u
#define CCB_SLOT 4096u
#define CCB_NONE GAMEDB__XQ_NONE
/* Variations nested deeper than this are left out (with a warning), to bound the stack. */
#define CCB_MAX_DEPTH 10000u

/* The move tree: struct gamedb__xq_node (formats/toolkit.h), node 0 the root (the start
 * position); off and com are offsets in the game's bytes, from and to CCBridge's board
 * indexes (0 = a9 ... 89 = i0). Written out by gamedb__xq_walk_tree(). */


/* One game of the base: where its record lies. */
struct ccb_entry {
	uint64_t off;     /* file offset of the record's first byte */
	uint32_t len;     /* bytes it uses (the index's count; a .cbr: the file size) */
	uint32_t entry;   /* index entry number (a .cbr: 0) */
	uint32_t slot;    /* first slot (a .cbr: 0) */
	uint32_t nslots;  /* slots it takes (a .cbr: 0) */
	uint8_t deleted;
	uint8_t have_guid;  /* the index entry names its record by a GUID (guid) */
	uint8_t guid[16];   /* as the record stores it at offset 20 (Windows byte order) */
	const char *why;  /* static text: why the entry cannot be read, or NULL */
};

struct ccb {
	struct gamedb_reader *r;
	struct gamedb__file *f;
	int library;              /* .cbl (else .cbr) */
	struct ccb_entry *ent;
	size_t nent, next;
	uint32_t slots_indexed;   /* a library's slots the index accounts for */
	uint64_t data_off;        /* a library's first slot */
	/* the current game's record bytes (copied: views do not outlive the next view) */
	uint8_t *rec;
	size_t rec_len, rec_cap;
	uint64_t rec_off;         /* its file offset, for messages */
	int have_rec;
	const char *table_why;    /* why the start board is not playable, or NULL */
	/* decoder scratch */
	struct gamedb__xq_node *nodes;
	size_t nodes_cap;
	struct gamedb__stack pend;
	struct gamedb__stack frames;
};

/* What went wrong decoding one game: the worst status and the first message for it. */
struct ccb_problems {
	int32_t status;
	unsigned more;
};

void gamedb__ccb_problem(struct ccb_problems *pb, struct gamedb_game *g, int32_t status,
			 const char *fmt, ...) GAMEDB__PRINTF(4, 5);
/*
 * The UTF-16LE text of n bytes at p (up to its first NUL letter) appended to out as UTF-8
 * through the text layer. *note gets a static description of what was replaced or dropped
 * (an unpaired surrogate, an odd byte, bytes after the NUL), or NULL. OK, WARN (something
 * was replaced), FAILED (out of memory).
 */
int32_t gamedb__ccb_text(struct ccb *s, const uint8_t *p, size_t n, struct gamedb__buf *out,
			 const char **note);
int32_t gamedb__ccb_decode(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb);

/* A record's board index (0 = a9, top left from Red's side) as our square; -1 off the board. */
static inline int gamedb__ccb_square(unsigned i)
{
	return i > 89 ? -1 : (int)((9 - i / 9) * 9 + i % 9);
}

#endif /* GAMEDB_CCBRIDGE_H */
