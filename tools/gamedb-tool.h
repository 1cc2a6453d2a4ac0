/*
 * What the files of the command share (a private header, not installed; the library's API is
 * include/gamedb/gamedb.h):
 *
 *   gamedb.c   dispatch: main(), the command table, usage
 *   cmdline.c  the option table and the parsing of the command line
 *   input.c    opening a database; standard input as caller I/O
 *   info.c     the info command
 *   convert.c  pgn, json, fen, epd, uci, positions and book: the run and its ledger
 *   jobs.c     --jobs: the games of a database in chunks over several threads
 *   tree.c     the tree command; the query (--fen, --moves, --where) every command filters by
 *   output.c   the output file (written whole or not at all), sinks, progress bar
 *   books.c    book-probe, book-dump, book --from: opening books read (.abk, .ctg)
 *   win.c      the Windows layer (wmain(), UTF-8 file names through the wide API)
 */
#ifndef GAMEDB_TOOL_H
#define GAMEDB_TOOL_H

#define _XOPEN_SOURCE 700 /* realpath(), fchmod() */
#ifdef __linux__
#define _GNU_SOURCE /* fallocate() */
#endif
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include <gamedb/gamedb.h>

/* win.c: file names are UTF-8; on Windows they go through the wide API. */
#ifdef _WIN32
#define stat_t struct _stat64
int os_stat(const char *path, struct _stat64 *st);
FILE *os_fopen_write(const char *path);
int os_unlink(const char *path);
/* Replaces to with from; 0, or -1 with errno set. */
int os_replace(const char *from, const char *to);
/* Creates tmpl ("...XXXXXX") as a new file of its own; the descriptor, or -1 with errno set. */
int os_mkstemp(char *tmpl);
#define os_realpath(p) ((char *)NULL) /* the name as given: a link is replaced, not followed */
#else
#define stat_t struct stat
#define os_stat stat
#define os_unlink unlink
#define os_replace rename
#define os_mkstemp mkstemp
#define os_fopen_write(p) fopen((p), "w")
/* The file a write to path lands on, links followed (malloc'd), or NULL to use path. */
char *os_realpath(const char *path);
#endif

/* books.c: 1 when the command line is book-probe, book-dump or book --from; their run. */
int is_books_command(int argc, char **argv);
int cmd_books(int argc, char **argv);
/* gamedb.c: the command line (UTF-8) to the exit status, before standard output's end. */
int run(int argc, char **argv);
/* gamedb.c: the general help (gamedb --help, gamedb help), on standard output or error. */
void usage(FILE *f);
/* gamedb.c: the help of one command (gamedb pgn --help, gamedb help pgn). */
void command_usage(FILE *f, const char *cmd);
/* gamedb.c: after a message about the command line, where help is: "Try 'gamedb --help'." */
void try_help(const char *cmd);

/* The commands, as bits: which commands an option is for (cmdline.c's table, the help). */
enum {
	C_INFO = 1, C_PGN = 2, C_JSON = 4, C_FEN = 8, C_EPD = 16, C_UCI = 32, C_POSITIONS = 64,
	C_BOOK = 128, C_SEARCH = 256, C_TREE = 512, C_INDEX = 1024
};

/* The command line: the command, its options and its databases. */
struct opts {
	const char *cmd;
	unsigned cmdbit;      /* the command, as one of C_INFO ... C_BOOK */
	const char *out;
	const char *charset;  /* --charset: of every format, before the open ("detect": the format
				 option charset-detect, as old scripts spell it) */
	const char *password; /* --password: of an encrypted archive (.cbz), before the open */
	const char **fkeys;   /* the options of the formats (the library's registry), each once */
	const char **fvals;   /* their values from the command line, NULL when not given */
	size_t nfopts;
	uint64_t from, to; /* games [from, to), 0-based */
	uint64_t (*games)[2]; /* --games: sorted inclusive 1-based ranges (Scid's numbers) */
	size_t ngames;
	int include_deleted;
	uint32_t wflags;
	const char **dbs;
	int ndbs;
	const char *bookopt[8][2]; /* book: option key, value */
	int nbookopt;
	int32_t positions;         /* fen, epd, uci, positions: a gamedb_positions_format */
	int jobs;                  /* games decoded at once (--jobs), >= 1; not for book */
	const char *qfen;          /* search, tree: --fen, the position */
	const char *qmoves;        /* search, tree: --moves, played from it */
	const char **where;        /* --where: header filters, every command */
	size_t nwhere;
	int search_pgn;            /* search: --pgn (else JSON Lines) */
	int tree_json;             /* tree: --json */
	const char *index;         /* search, tree: --index, a position index (gamedb index) */
};

enum { OUT_PGN, OUT_JSON, OUT_BOOK, OUT_POSITIONS };

/*
 * How a database's run ended, in order of gravity; the exit status is the gravest, with
 * ST_STOP as 2. ST_BASE stops that database only: the others are still written and the
 * output is kept (a database that cannot be opened or read must not cost the games of the
 * others). ST_STOP stops the run and the output is not kept: the output cannot be written,
 * memory ran out, the book failed.
 */
enum { ST_OK = 0, ST_FAILED = 1, ST_BASE = 2, ST_STOP = 3 };

/*
 * The loss ledger of one database: what became of the games the run reached and took (the
 * games --range, --games and deleted games leave out on purpose are not counted). A game is
 * written (warned: with a warning that says what it lost) or failed (reported with its
 * reason; a game written in part by --partial counts as failed).
 */
struct tally {
	uint64_t written, failed, warned;
};

/*
 * cmdline.c: the options and databases of argv[2...] into o (o->cmd and o->positions set): 0;
 * 1 when the help was asked for (and printed); -1 after a message (bad usage).
 */
int parse_command_line(int argc, char **argv, struct opts *o);
/* Frees what parse_command_line() allocated in o. */
void opts_free(struct opts *o);
/*
 * cmdline.c: the options of the command cmdbit (C_PGN, ...), a line each, from the option
 * table, the book's options and the formats' options (the library's registry).
 */
void options_help(FILE *f, unsigned cmdbit);

/* Whether --games takes game idx (0-based); all when there is no --games. */
static inline int game_wanted(const struct opts *o, uint64_t idx)
{
	size_t i;

	for (i = 0; i < o->ngames; i++)
		if (idx + 1 >= o->games[i][0] && idx + 1 <= o->games[i][1])
			return 1;
	return o->ngames == 0;
}

/*
 * input.c: opens the database at path with the options of o; NULL after a message (quiet: no
 * message at all, for the extra readers of --jobs on a database already opened once).
 */
struct gamedb_reader *open_db(const char *path, const struct opts *o, int quiet);

/*
 * tree.c: the query of o's --fen, --moves and --where (NULL when o has none, or after a message
 * with *bad set); the caller frees it with gamedb_query_free().
 */
struct gamedb_query *make_query(const struct opts *o, int *bad);
/* tree.c: the tree command; the exit status. */
int cmd_tree(const struct opts *o);
/* index.c: the index command; the exit status. */
int cmd_index(const struct opts *o);
/*
 * index.c: the index of --index (NULL when none is given; exits with status 2 after a message
 * when it cannot be opened). Freed with gamedb_index_free().
 */
struct gamedb_index *open_index(const struct opts *o);
/*
 * index.c: q (may be NULL: nothing to do) finds its games of r (database db) through ix (may be
 * NULL); 0, or -1 after a message (the index is stale or was not built from db).
 */
int use_index(struct gamedb_query *q, struct gamedb_index *ix, struct gamedb_reader *r, const char *db);
/*
 * index.c: the next hit of q (on its index) that a scan of the database under o's --range,
 * --games and --include-deleted would meet: 1 with the game's index and flags, 0 at the end.
 * A place where the base could not deliver a game when the index was built
 * (GAMEDB_HIT_UNREAD, its message in gamedb_query_errmsg()) comes where the scan would meet
 * it, for the caller to say; the games left out on purpose do not come at all. For the loops
 * that take the index's hits instead of reading every game (tree and search --index).
 */
int next_wanted_hit(struct gamedb_query *q, const struct opts *o, uint64_t *idx, uint32_t *flags);

/* info.c: the info command; the exit status. */
int cmd_info(const struct opts *o);

/*
 * output.c
 */
int32_t sink_file(void *user_data, const char *data, size_t len); /* user_data: a FILE */
/*
 * JSON Lines of several databases: each object gets "file" (the database as named on the
 * command line) and "n" (its place in the whole output, from 0) before the library's "index"
 * (its place in its database).
 */
struct json_sink {
	FILE *out;
	const char *file;
	uint64_t *n;
};
int32_t sink_json(void *user_data, const char *data, size_t len); /* user_data: a json_sink */
/* What replaces the '{' that opens a JSON object: the object's "file" and "n". */
void json_prefix(FILE *f, const char *file, uint64_t n);
extern uint64_t json_n; /* JSON objects written so far, over all databases */

/*
 * The progress bar on standard error (on: it is a terminal), redrawn every half percent at
 * most. bytes: the bar counts the bytes of a stream (a database that does not count its games).
 */
struct progress {
	int on, bytes;
	uint64_t total, last;
};
void progress_show(struct progress *p, uint64_t done, int final);
/*
 * The bar on the library's progress callback (gamedb_reader_set_progress(), user_data the
 * struct progress): games of a base (done capped at the total, which may be a --range), bytes
 * of a stream. Never stops the work.
 */
int32_t progress_report(int32_t unit, uint64_t done, uint64_t total, void *user_data);

/*
 * The output file. A regular file (or a new one) is written as a temporary file in the same
 * folder and renamed into place only when the run succeeds, so that a failed or interrupted
 * run leaves no half file and never truncates what was there. A FIFO, a terminal or a device
 * given with -o (/dev/null, /dev/stdout) is written directly.
 */
struct output {
	FILE *f;
	const char *path; /* as given; NULL: standard output */
	char *target;     /* the file replaced: path with symbolic links resolved */
	char *tmp;        /* the temporary file, NULL when writing directly */
};
/* Opens path (NULL: standard output) for writing; 0, or -1 after a message. */
int output_open(struct output *out, const char *path);
/* Flushes; renames the temporary file into place (keep) or removes it. 0, or -1 after a message. */
int output_close(struct output *out, int keep);
/* Linux: allocates the next blocks of the temporary file as the writes come near their end. */
void prealloc_more(FILE *f);
/* Signals that end the process remove the temporary file first. */
void catch_signals(void);
/*
 * A write error was reported: on the output (output_close() says no more), on standard output
 * (finish_stdout() says no more).
 */
extern int write_said, stdout_said;
/* Standard output's end; the exit status (2 when the output was lost). */
int finish_stdout(int status);

/*
 * convert.c
 */
/*
 * Where the games of one database go. One job: straight into the output file, messages to
 * standard error. --jobs: into the chunk a worker fills (struct chunk), whose output and
 * messages that worker writes out when the chunk's turn comes (database order).
 */
struct chunk; /* jobs.c */
struct emit {
	const struct opts *o;
	int mode;
	const char *db;
	FILE *out;             /* one job */
	struct json_sink js;   /* one job, json */
	struct gamedb_book *book;
	struct chunk *c;       /* --jobs: the chunk being filled (then out is NULL) */
	struct gamedb_query *q; /* --where, --fen, --moves: the games taken; NULL: all */
	struct tally *t;       /* where the games are counted: the database's, or the chunk's */
};
void say(struct emit *e, const char *fmt, ...);
/* A reader's message about e's database, the database named once (convert.c). */
void say_reader(struct emit *e, const char *msg);
int names_its_file(const char *db, const char *msg);
int next_read(struct emit *e, struct gamedb_reader *r, int32_t rc, int *status);
/*
 * One game the loop reached and keeps: written, added to the book, or reported, and counted
 * in e->t. The status so far, updated; ST_STOP after a message when the run cannot go on.
 */
int take_game(struct emit *e, struct gamedb_game *g, uint64_t idx, int status);
/* pgn, json, fen, epd, uci, positions (mode OUT_POSITIONS) and book; the exit status. */
int cmd_convert(const struct opts *o, int mode);

/*
 * jobs.c
 */
/* The sinks of a chunk being filled; user_data: the struct emit. */
int32_t sink_chunk(void *user_data, const char *data, size_t len);
int32_t sink_chunk_json(void *user_data, const char *data, size_t len);
int chunk_oom(const struct chunk *c);
void chunk_say(struct chunk *c, const char *fmt, va_list ap);
/*
 * Games [from, end) of r with --jobs workers; the database's status, its games counted in t;
 * -1 when the workers could not be set up (then nothing was written).
 */
int convert_jobs(struct gamedb_reader *r, const char *db, const struct opts *o, int mode,
		 FILE *out, uint64_t from, uint64_t end, struct progress *pr, struct tally *t);
/* The number of processors online (the default of --jobs). */
int online_cores(void);

#endif
