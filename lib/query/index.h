/*
 * libgamedb - the position index (lib/query/index-write.c, index-read.c): the file layout of
 * doc/index.md and what the reader and the query share. Never installed.
 */
#ifndef GAMEDB_QUERY_INDEX_H
#define GAMEDB_QUERY_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "gamedb/gamedb.h"
#include "io/io.h"

#define GAMEDB__INDEX_MAGIC 0x49445831u  /* "IDX1": the handle's magic */
#define GAMEDB__IXW_MAGIC 0x49585731u    /* "IXW1": the writer's */

/* The file: "GDBINDX1", then the header numbers and the section table (doc/index.md). */
#define GAMEDB__IX_SIG "GDBINDX1"
#define GAMEDB__IX_VERSION 1u
#define GAMEDB__IX_HEAD 64           /* bytes of the header before the section table */
enum { IXS_BASES, IXS_GAMES, IXS_KEYS, IXS_FENCE, IXS_OFFS, IXS_POST, IXS_MOVES, IXS_FAILED,
       IXS_COUNT };
#define GAMEDB__IX_TABLE (IXS_COUNT * 16) /* (offset, size) of each section */
#define GAMEDB__IX_FENCE 128         /* every 128th key is in the fence */
#define GAMEDB__IX_MOVE 32           /* a move of the dictionary: UCI[8], SAN[24] */
#define GAMEDB__IX_HASHED 65536      /* a base file's hash: its first and last 64 KiB */
#define GAMEDB__IX_MAX_FILES 16      /* of one base, as the I/O layer holds them */
#define GAMEDB__IX_MAX_NAME 4096
#define GAMEDB__IX_MAX_MSG 1000      /* of a failure's message */
enum { GAMEDB__IXF_DECODE = 1, GAMEDB__IXF_UNREAD = 2 }; /* a failure: a game's moves, a read */

/* A game's record (8 bytes): its result, flags, Elos and year, packed. */
#define GAMEDB__G_RESULT(v) ((int)((v) & 3u))
#define GAMEDB__G_DELETED (UINT64_C(1) << 2)
#define GAMEDB__G_FAILED (UINT64_C(1) << 3)
#define GAMEDB__G_XIANGQI (UINT64_C(1) << 4)
#define GAMEDB__G_PRESENT (UINT64_C(1) << 5)
#define GAMEDB__G_WELO(v) ((int)(((v) >> 6) & 0x1FFFFu))
#define GAMEDB__G_BELO(v) ((int)(((v) >> 23) & 0x1FFFFu))
#define GAMEDB__G_YEAR(v) ((int)(((v) >> 40) & 0x3FFFu))

/* A base file as the index saw it. */
struct gamedb__ixfile {
	char *name;        /* as the reader opened it */
	uint64_t size, hash;
	int64_t mtime;     /* seconds */
};

struct gamedb__ixbase {
	uint64_t first, n;  /* its games: global numbers [first, first + n) */
	size_t nfiles;
	struct gamedb__ixfile files[GAMEDB__IX_MAX_FILES];
};

struct gamedb_index {
	uint32_t magic;
	struct gamedb__src src;
	struct gamedb__file *f;
	uint64_t fsize;
	uint64_t off[IXS_COUNT], size[IXS_COUNT];
	uint64_t nbases, ngames, nkeys, nmoves, nfailed, nfence;
	struct gamedb__ixbase *bases;
	uint64_t *fence;       /* read whole at open: nkeys / 128 keys */
	char (*moves)[GAMEDB__IX_MOVE]; /* read whole at open */
	struct gamedb__ixfail {
		uint64_t base, slot;
		uint32_t kind;
		char *msg;
	} *fails;              /* read whole at open, in base and slot order */
	char errmsg[600];
};

/* One game of a base that reaches a position: where it stands, what it does there. */
struct gamedb__ixhit {
	uint64_t game;     /* in its base, 0-based */
	uint64_t rec;      /* its record */
	uint32_t move;     /* 0: the game ends there; else the dictionary's move - 1 */
	const char *msg;   /* a failure (rec GAMEDB__G_FAILED): its message */
	uint32_t kind;     /* a failure: GAMEDB__IXF_* */
};

/*
 * The archive file of a base read from a memory set an archive was unpacked to (its primary
 * "ARCHIVE:member"), into buf: 0, or -1 when none is on disk.
 */
int gamedb__ix_archive_path(const char *primary, char *buf, size_t cap);
/* Fills a file's size, time and hash from the file at path; 0, or -1 (cannot be read). */
int gamedb__ix_stat(const char *path, struct gamedb__ixfile *out);
/*
 * The games of base b (of ix) that reach key (in a game of the kind xq), in game order, with
 * the base's failures (rec GAMEDB__G_FAILED, move 0, msg, kind) merged in when failures is
 * set: *out malloc'd, *n.
 * 0; -1 with ix's message (a damaged index, or out of memory).
 */
int gamedb__ix_hits(struct gamedb_index *ix, size_t b, uint64_t key, int xq, int failures,
		    struct gamedb__ixhit **out, size_t *n);
/* The base of ix that r was opened from, checked against its files: its number, or -1 with
 * a message in ix (not built from it; stale). */
long gamedb__ix_base_of(struct gamedb_index *ix, struct gamedb_reader *r);

#endif /* GAMEDB_QUERY_INDEX_H */
