/*
 * libgamedb - the I/O layer (lib/io): the files of one database, from disk, from memory or
 * through the caller's I/O. Includes only the bottom layer (util/buf.h) and the public header;
 * knows nothing of readers, games or formats. Never installed.
 *
 * Errors: the I/O layer records each error in the source's own record (struct
 * gamedb__io_error: status, detail code, file, offset, message) and hands the record to the
 * source's report hook. The reader core sets that hook when it creates a reader and copies
 * the record into the reader's error, so that a format sees the message in the reader at once,
 * as it did when the I/O layer wrote there itself, and this layer calls nothing above it.
 */
#ifndef GAMEDB_IO_H
#define GAMEDB_IO_H

#include <stdint.h>

#include "gamedb/gamedb.h"
#include "util/buf.h"

/* ---- I/O layer (lib/io) --------------------------------------------------------------- */

#define GAMEDB__IO_NO_OFFSET UINT64_MAX

/* One error of the I/O layer, as recorded in its source (struct gamedb__src err). */
struct gamedb__io_error {
	unsigned long count;  /* errors recorded so far on the source (0: none yet) */
	int32_t status;       /* GAMEDB_FAILED (a view: the format decides), GAMEDB_FATAL (an open) */
	int32_t code;         /* GAMEDB_E_IO, GAMEDB_E_NOMEM, GAMEDB_E_MISUSE */
	char file[256];       /* the file's name ("" when none), cut to fit */
	uint64_t offset;      /* the byte offset, or GAMEDB__IO_NO_OFFSET */
	char message[512];    /* the whole text, naming the file (and the offset) */
	int os_error;         /* errno of the failed OS call behind it (0: none, or not the OS) */
};

/*
 * One open file of a database. Formats read it only through gamedb__file_view().
 *
 * Files on disk and caller I/O are read with pread() (ReadFile() at an offset on Windows; or
 * the caller's read_at) into a window,
 * never mapped: another program may shrink or rewrite a base while it is read, and a mapped
 * page past the new end would kill the process with SIGBUS. A view is served from the window
 * when it lies inside it; otherwise the window is refilled. Small files are read whole on the
 * first view; large ones through a window that grows while the reads run forward (doc/io.md).
 */
struct gamedb__file {
	char *name;           /* as given or derived ("dir/base.sg4"), for messages */
	uint64_t size;        /* at open: views never reach past it, so a file that grows is
	                         read as it was, and one that shrinks is an error, not a crash */
	const uint8_t *map;   /* memory files: the whole file; else NULL */
	int kind;             /* GAMEDB__FILE_* */
	int fd;               /* files on disk (POSIX: io-posix.c) */
	void *os_handle;      /* files on disk (Windows: io-win.c's HANDLE) */
	void *handle;         /* caller I/O */
	struct gamedb__src *src;
	struct gamedb__buf win;  /* read window: win.len bytes from offset win_off */
	uint64_t win_off;
	size_t chunk;         /* how much the next refill asks for (adapts to the access pattern) */
	uint64_t pos;         /* the end of the last view: where a pass over the file stands */
	uint64_t run_start;   /* where the current run of forward views began */
	uint64_t last_run;    /* the length of the run before it (0: none yet) */
	uint64_t dev, ino;    /* files on disk: identity, for gamedb_reader_uses_file() */
	int has_id;
	int os_error;          /* files on disk: errno of the last failed open or read (0: none) */
};

enum { GAMEDB__FILE_MEM = 2, GAMEDB__FILE_FD = 3, GAMEDB__FILE_CALLER = 4 };

enum { GAMEDB__SRC_NONE = 0, GAMEDB__SRC_PATH = 1, GAMEDB__SRC_MEMSET = 2, GAMEDB__SRC_CALLER = 3 };

/* Where a database's files come from: a path, a set of memory files, or caller I/O. */
/*
 * What an archive (a whole base in one file, e.g. a ChessBase .cbv) unpacks to: built by the
 * unpacker in lib/containers/cbv.c, owned by the source (src->archive) once the source shows
 * its members as a memory set, freed with the source.
 */
struct gamedb__archive {
	size_t n;
	char **names;    /* "ARCHIVE:member" */
	uint8_t **data;
	size_t *sizes;
	uint64_t dev, ino; /* the archive's file on disk (has_id), so that gamedb pgn -o never
			      writes over it although it is closed once unpacked */
	int has_id;
};

/* The most an archive may unpack to, all members together (decompression bombs). */
#define GAMEDB__ARCHIVE_MAX ((uint64_t)1 << 30)

void gamedb__archive_free(struct gamedb__archive *a);

struct gamedb__src {
	int kind;
	char *primary;               /* the name the database was opened by */
	/* memory set */
	size_t nmem;
	char **mem_names;
	const void **mem_data;
	size_t *mem_sizes;
	/* caller I/O */
	struct gamedb_io io;
	void *io_user_data;
	struct gamedb__io_error err; /* the last error of this source's files */
	/*
	 * Called with err each time an error is recorded, so that the owner (the reader core)
	 * copies it into its own error at once; NULL: the error is only recorded.
	 */
	void (*report)(void *ctx, const struct gamedb__io_error *err);
	void *report_ctx;
	struct gamedb__file *files[16]; /* ChessBase bases have up to 9 files */
	size_t nfiles;
	struct gamedb__archive *archive; /* an unpacked archive the memory set shows (owned) */
};

/*
 * Opens a file of the database: name NULL = the primary file; otherwise the primary name with
 * its extension replaced by ext (".sg4"), tried in the case of the primary's extension first
 * (BASE.SI4 has BASE.SG4) and then in the other. Returns 0, or -1 with an error recorded
 * (E_IO, naming the file) unless quiet is set; out of memory and a source that holds no more
 * files are reported even when quiet. Files stay open until the source is closed.
 */
int gamedb__src_open(struct gamedb__src *src, const char *ext, int quiet, struct gamedb__file **out);
/* The primary name with its extension replaced by ext (malloc'd), or NULL. */
char *gamedb__src_sibling_name(const struct gamedb__src *src, const char *ext);
void gamedb__src_close(struct gamedb__src *src);
/*
 * 1 if path names (following symbolic links) one of the files on disk that src has open, 0 if
 * not or if path does not exist, -1 if it cannot be told (errno set).
 */
int gamedb__src_uses_path(const struct gamedb__src *src, const char *path);

/*
 * A view of len bytes at off. On success *out points at the bytes, valid until the next view
 * of the same file (memory files: until the source is closed). Returns the number of bytes
 * available (len, or fewer at the end of the file as it was at open), or -1 on an I/O error,
 * which includes a file that became shorter than it was at open (error recorded with the
 * FAILED status, naming the file and the offset).
 */
int64_t gamedb__file_view(struct gamedb__file *f, uint64_t off, size_t len, const uint8_t **out);

#endif /* GAMEDB_IO_H */
