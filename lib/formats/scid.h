/*
 * libgamedb - SCID: what the index, names and game records part (format-scid.c) and the
 * move decoder (scid-moves.c) share. Private to lib/formats; layout facts in
 * doc/formats/scid.md.
 */
#ifndef GAMEDB_SCID_H
#define GAMEDB_SCID_H

#include "formats/format.h"
#include "formats/toolkit.h"

#define SI_MAGIC "Scid.si\0"
#define SN_MAGIC "Scid.sn\0"
#define SI_HEADER_V400 182
#define SI_HEADER_V300 128
#define SI_RECORD_V400 47
#define SI_RECORD_V300 46
#define SN_HEADER 36
#define SI5_RECORD 56
#define SG_MAX_RECORD 131071u

enum { NAME_PLAYER, NAME_EVENT, NAME_SITE, NAME_ROUND, NAME_TYPES };

/* How a name was converted: unchanged (its UTF-8 is its stored bytes), or with loss. */
enum { NAME_SAME = 1, NAME_LOSSY = 2 };

struct gamedb_scid {
	int32_t version;
	int32_t base_type;
	int64_t autoload;
	char description[4 * 108 + 4];
	char flag_names[6][4 * 9 + 4];
};

struct scid_names {
	uint32_t count;
	uint32_t *off;      /* by id: offset of the UTF-8 name in pool, UINT32_MAX if unused */
	uint32_t *raw_off;  /* by id: offset of the raw bytes in raw pool */
	uint32_t *raw_len;
	uint32_t *len;      /* by id: length of the UTF-8 name */
	uint8_t *how;       /* by id: NAME_SAME, NAME_LOSSY bits */
	struct gamedb__buf pool;
	struct gamedb__buf raw;
};

/* One line of play while decoding: the position and slots now, and before the last move. */
struct scid_level {
	struct gamedb__pos pos;
	struct gamedb__slots slots;
	/*
	 * The position before the line's last move, and its slots, for a variation that starts
	 * there: kept only when a variation follows that move (variation_follows()), and not
	 * set before (a variation before a line's first move is refused).
	 */
	struct gamedb__pos prev;
	struct gamedb__slots prev_slots;
	int moves; /* moves decoded on this line so far */
	int chk, prev_chk; /* 1 if the side to move is in check in pos, in prev */
};

struct scid {
	struct gamedb_reader *r;
	struct gamedb__file *si, *sn, *sg;
	int version;
	uint32_t ngames;
	size_t hdr_size, rec_size;
	uint64_t next;
	struct scid_names names[NAME_TYPES];
	struct gamedb_scid handle;
	/* decoder scratch, kept to avoid an allocation per game: the lines of play (struct
	 * scid_level), the main line's first */
	struct gamedb__stack levels;
	/*
	 * Where the usual move goes, by side to move, the man's type, its square and the move
	 * code (scid_targets()): filled at the first decode.
	 */
	int have_target;
	uint8_t target[2][8][64][16];
	/* The node of each comment marker of the game being decoded (comment_cap of them). */
	uint32_t *comment_node;
	size_t comment_cap;
};

/* A game record: a cursor over it, whose base is the record's offset in the .sg4. */
int32_t gamedb__scid_rec_load(struct scid *s, struct gamedb_game *g, struct gamedb__cur *rc);
/* Adds to g's message (what it says already stays, before a "; "). */
void gamedb__scid_game_note(struct gamedb_game *g, const char *what);
/*
 * Parses the extra tags at the start of a record into g->extra (if want; want 2: all but
 * "Variant") and skips them.
 */
int32_t gamedb__scid_parse_tags(struct scid *s, struct gamedb_game *g, struct gamedb__cur *rc,
				int want);
/* Reads the start position of a record (after the tags): sets g->fen; 0 or -1 (message set). */
int gamedb__scid_read_start(struct scid *s, struct gamedb_game *g, struct gamedb__cur *rc,
			    int *nonstandard);
/* The format's decode_moves (scid-moves.c): the moves, comments, NAGs and variations of g. */
int32_t gamedb__scid_decode(void *state, struct gamedb_game *g, struct gamedb__movebuf *mb);

#endif /* GAMEDB_SCID_H */
