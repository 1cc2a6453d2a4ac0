/*
 * gamedb - convert legacy game databases to PGN or JSON Lines, or describe them.
 *
 *   gamedb info DB...
 *   gamedb pgn  DB... [-o FILE] [--range A:B] [--include-deleted] [--no-comments]
 *                     [--no-variations] [--no-nags] [--no-commands] [--charset CS|detect]
 *                     [--language LANG] [--notation iccs|wxf|chinese]
 *   gamedb json DB... (same options)
 *   (every command) [--password PW]: the password of an encrypted ChessBase archive (.cbz)
 *   gamedb fen|epd|uci DB... [--key] (and the pgn options that choose games)
 *   gamedb positions DB... [--csv] [--key]
 *   gamedb book DB... -o BOOK.bin [--max-ply N] [--min-game N] [--min-score PCT]
 *                     [--only-white|--only-black] [--uniform] [--standard-start]
 *                     [--memory MIB]
 *
 * Exit status: 0 all good, 1 some games failed, 2 a database cannot be opened or read (the
 * others are written), the output cannot be written, or bad usage.
 */
#include "gamedb-tool.h"

#ifdef __linux__
#include <fcntl.h>
#endif
#include <errno.h>
#include <inttypes.h>
#include <pthread.h> /* MinGW: winpthreads, linked statically (see meson.build) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef _WIN32
#include <sys/uio.h> /* writev() */
#endif
#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#endif


static void usage(FILE *f)
{
	size_t i;

	fputs("usage: gamedb info DB...\n"
	      "       gamedb pgn DB... [-o FILE] [--range A:B] [--games LIST] [--include-deleted]\n"
	      "                        [--no-comments] [--no-variations] [--no-nags]\n"
	      "                        [--no-commands] [--charset CS|detect] [--language LANG]\n"
	      "                        [--notation iccs|wxf|chinese] [--layout standard|scid]\n"
	      "                        [--commands common|all|none] [--partial] [--jobs N]\n"
	      "                        [--direction auto|right|left]\n"
	      "       gamedb json DB... (the same options as pgn)\n"
	      "       gamedb fen|epd|uci DB... [--key] [-o FILE] [--range A:B] [--include-deleted]\n"
	      "                        [--jobs N]\n"
	      "       gamedb positions DB... [--csv] [--key] (the same options)\n"
	      "       gamedb book DB... -o BOOK.bin [--max-ply N] [--min-game N] [--min-score PCT]\n"
	      "                         [--only-white|--only-black] [--uniform] [--standard-start]\n"
	      "                         [--memory MIB]\n"
	      "       gamedb --version\n"
	      "\n"
	      "DB is a database file (base.si4, base.cbh, base.cbv, game.xqf) or its base name\n"
	      "(base); - reads standard input as a stream (style 12 logs). --password PW opens an\n"
	      "encrypted ChessBase archive (base.cbz) made with that password (any command).\n"
	      "Formats (the file a base is opened by first):\n",
	      f);
	for (i = 0; i < gamedb_format_count(); i++) {
		uint32_t flags;
		const char *ext;
		char exts[64] = "";
		size_t k, n = 0;
		for (k = 0; (ext = gamedb_format_get_extension(i, k, &flags)) != NULL; k++)
			if ((flags & GAMEDB_EXTENSION_OPENS) && n + strlen(ext) + 2 < sizeof exts)
				n += (size_t)sprintf(exts + n, "%s%s", n ? " " : "", ext);
		fprintf(f, "  %-15s %-15s %s\n", gamedb_format_get_name(i), exts,
			gamedb_format_get_description(i));
	}
	fputs(
	      "ChessBase and Chess Assistant text is CP1251 or CP1252 as the name tables show\n"
	      "(--charset CS forces one; --charset detect, the default, is kept for old scripts).\n"
	      "SCID text that is not UTF-8 is read as Latin-1, with a warning per game.\n"
	      "--language LANG keeps ChessBase texts in LANG (en, de, fr, ...) and in no language.\n"
	      "--direction: which way Chess Assistant move codes count columns (auto by default:\n"
	      "chosen by legality). An option a database's format does not have is ignored for\n"
	      "it, with a note on stderr.\n"
	      "--notation: xiangqi moves in PGN (ICCS by default).\n"
	      "--layout scid: PGN byte for byte as Scid exports it; the default is the PGN\n"
	      "standard's export form that every common reader takes. --commands all keeps the\n"
	      "markup commands no other tool reads ([%medal], [%crit], ...); by default only\n"
	      "%cal, %csl, %clk, %emt and %eval are written. --partial writes the legal part of a\n"
	      "game that cannot be read to its end, with a comment saying where (still exit 1).\n"
	      "--range A:B converts games A to B-1, counted from 0 (either side may be empty), in\n"
	      "each database; --games 1,5,10-20 takes those games, counted from 1 as Scid does.\n"
	      "--jobs N decodes N games at once (default: the number of cores); the output is the\n"
	      "same as with --jobs 1, in the same order (standard input, style 12 logs and book:\n"
	      "one job).\n"
	      "fen: game, ply, FEN per position of the main line; epd: EPD with id, c0 (result),\n"
	      "hmvc, fmvn; uci: a 'position ... moves ...' line per game; positions: FEN, move,\n"
	      "result for the side to move, ply, game, as JSON Lines or --csv. --key adds each\n"
	      "position's Polyglot key (json: --fen and --key add them to every move).\n"
	      "book: a Polyglot opening book from the games' main lines, as PolyGlot's make-book\n"
	      "builds it from their PGN (defaults: --max-ply 1024 --min-game 3 --min-score 0);\n"
	      "--standard-start leaves out games from set-up positions (PolyGlot cannot read them);\n"
	      "--memory caps the table (MiB, default 256) before it spills to temporary files.\n"
	      "Deleted games are skipped unless --include-deleted is given.\n"
	      "-o FILE is written whole or not at all (a temporary file renamed at the end), and\n"
	      "never over a file of a database being read; a database that cannot be opened costs\n"
	      "only its own games. When anything failed or was reported, a line per database ends\n"
	      "the run: N games written, M failed, K with warnings.\n"
	      "Exit status: 0 all good, 1 some games failed, 2 a database could not be opened or\n"
	      "read (the others are written), or the output could not be written.\n",
	      f);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/*
 * --games 1,5,10-20: game numbers counted from 1 as Scid shows them, single or A-B. Sets
 * o->games (sorted) and narrows --range to span them. 0, or -1 on a bad list.
 */
static int cmp_span(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int parse_games(const char *arg, struct opts *o)
{
	const char *p = arg;
	size_t n = 1, k = 0;

	for (; *p; p++)
		n += *p == ',';
	free(o->games);
	o->games = calloc(n, sizeof *o->games);
	if (!o->games)
		return -1;
	for (p = arg; k < n; k++) {
		char item[64];
		size_t len = strcspn(p, ",");
		char *dash;
		if (len == 0 || len >= sizeof item)
			return -1;
		memcpy(item, p, len);
		item[len] = 0;
		p += len + (p[len] == ',');
		dash = strchr(item, '-');
		if (dash)
			*dash = 0;
		if (parse_u64(item, &o->games[k][0]) != 0 || o->games[k][0] == 0)
			return -1;
		o->games[k][1] = o->games[k][0];
		if (dash && (parse_u64(dash + 1, &o->games[k][1]) != 0 ||
			     o->games[k][1] < o->games[k][0]))
			return -1;
	}
	o->ngames = n;
	qsort(o->games, n, sizeof *o->games, cmp_span);
	if (o->games[0][0] - 1 > o->from)
		o->from = o->games[0][0] - 1;
	return 0;
}

/* Whether --games takes game idx (0-based); all when there is no --games. */
static int game_wanted(const struct opts *o, uint64_t idx)
{
	size_t i;

	for (i = 0; i < o->ngames; i++)
		if (idx + 1 >= o->games[i][0] && idx + 1 <= o->games[i][1])
			return 1;
	return o->ngames == 0;
}

static int parse_range(const char *arg, struct opts *o)
{
	const char *colon = strchr(arg, ':');
	char a[32];
	size_t alen;

	if (!colon)
		return -1;
	alen = (size_t)(colon - arg);
	if (alen >= sizeof a)
		return -1;
	memcpy(a, arg, alen);
	a[alen] = 0;
	o->from = 0;
	o->to = UINT64_MAX;
	if (alen && parse_u64(a, &o->from) != 0)
		return -1;
	if (colon[1] && parse_u64(colon + 1, &o->to) != 0)
		return -1;
	return o->from <= o->to ? 0 : -1;
}

/*
 * Where the games of one database go. One job: straight into the output file, messages to
 * standard error. --jobs: into the chunk a worker fills (struct chunk), whose output and
 * messages that worker writes out when the chunk's turn comes (database order).
 */
struct membuf {
	char *p;
	size_t len, cap;
	int oom;
};

/* Appends n bytes; 0, or -1 (and oom set) when memory runs out. */
static int membuf_add(struct membuf *b, const char *s, size_t n)
{
	if (b->oom)
		return -1;
	if (b->cap - b->len < n) {
		size_t ncap = b->cap ? b->cap : 4096;
		char *np;
		while (ncap - b->len < n) {
			if (ncap > SIZE_MAX / 2) {
				b->oom = 1;
				return -1;
			}
			ncap *= 2;
		}
		np = realloc(b->p, ncap);
		if (!np) {
			b->oom = 1;
			return -1;
		}
		b->p = np;
		b->cap = ncap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

/*
 * --jobs: a chunk's output is a list of blocks of one size (BLOCK_BYTES) from a store that the
 * workers share. A written chunk gives its blocks back to the store for the next chunks; they
 * are freed when the database is done. One buffer per chunk grown by realloc() kept the
 * largest output a slot ever held and left the heaps of the threads fragmented: the peak
 * memory of --jobs 2 grew with the base (6.6 MiB for a tenth of the real-game base, 8.8 MiB
 * for all of it). Nor is a block freed when more are kept than the window of chunks usually
 * needs: freed and allocated again, among the readers' own allocations, they fragmented the
 * heaps the same way (JSON: 5.7 MiB for a tenth, 6.9 MiB for all). Kept, the blocks are as
 * many as the most that were ever in flight at once, which is the peak anyway.
 */
#define BLOCK_BYTES ((size_t)32 << 10)

struct block {
	struct block *next;
	size_t len;
	char data[BLOCK_BYTES];
};

struct store {
	struct block *free; /* blocks written out, for reuse */
};

/* A block from the store, or a new one; NULL when memory runs out. */
static struct block *block_get(struct store *s)
{
	struct block *b = s->free;

	if (b)
		s->free = b->next;
	else
		b = malloc(sizeof *b);
	if (b) {
		b->next = NULL;
		b->len = 0;
	}
	return b;
}

/* Gives the blocks of list (a chunk's, written out) back to the store. */
static void blocks_put(struct store *s, struct block *list)
{
	struct block *last = list;

	if (!list)
		return;
	while (last->next)
		last = last->next;
	last->next = s->free;
	s->free = list;
}

/* Frees the blocks of list. */
static void blocks_free(struct block *list)
{
	while (list) {
		struct block *b = list;
		list = b->next;
		free(b);
	}
}

/* A run of games [start, end) of one database, converted by one worker of --jobs. */
struct chunk {
	uint64_t start, end;
	int last;             /* the last chunk: read on to --range's end as one job does */
	struct store *store;  /* where its blocks come from: its worker's */
	int owner;            /* the worker that fills it and writes it out */
	struct block *head, *tail; /* the output */
	size_t len;           /* its bytes */
	int oom;              /* memory ran out: the output is incomplete */
	struct membuf msgs;   /* the messages for standard error */
	size_t *objs;         /* json: where each object's '{' was (left out of the output) */
	size_t nobjs, capobjs;
	uint64_t done;        /* games counted by the progress bar */
	struct tally tally;   /* its games: written, failed, with warnings */
	int status;           /* ST_OK, ST_FAILED, ST_BASE or ST_STOP: the database or the run
				 stops after this chunk */
	int ready;            /* filled, not yet written (set under the pool's mutex, read atomically) */
};

/* Appends n bytes to c's output; 0, or -1 (and oom set) when memory runs out. */
static int chunk_add(struct chunk *c, const char *s, size_t n)
{
	while (n > 0) {
		size_t room;
		if (c->oom)
			return -1;
		if (!c->tail || c->tail->len == BLOCK_BYTES) {
			struct block *b = block_get(c->store);
			if (!b) {
				c->oom = 1;
				return -1;
			}
			if (c->tail)
				c->tail->next = b;
			else
				c->head = b;
			c->tail = b;
		}
		room = BLOCK_BYTES - c->tail->len;
		if (room > n)
			room = n;
		memcpy(c->tail->data + c->tail->len, s, room);
		c->tail->len += room;
		c->len += room;
		s += room;
		n -= room;
	}
	return 0;
}

struct emit {
	const struct opts *o;
	int mode;
	const char *db;
	FILE *out;             /* one job */
	struct json_sink js;   /* one job, json */
	struct gamedb_book *book;
	struct chunk *c;       /* --jobs: the chunk being filled (then out is NULL) */
	struct tally *t;       /* where the games are counted: the database's, or the chunk's */
};

static void say(struct emit *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!e->c) {
		vfprintf(stderr, fmt, ap);
	} else {
		struct membuf *b = &e->c->msgs;
		va_list again;
		int n;
		va_copy(again, ap);
		n = vsnprintf(NULL, 0, fmt, again);
		va_end(again);
		if (n > 0 && !b->oom) {
			size_t need = (size_t)n + 1;
			char *tmp = malloc(need);
			if (tmp && vsnprintf(tmp, need, fmt, ap) == n)
				membuf_add(b, tmp, (size_t)n);
			else
				b->oom = 1;
			free(tmp);
		}
	}
	va_end(ap);
}

static int32_t sink_chunk(void *user_data, const char *data, size_t len)
{
	struct emit *e = user_data;

	return chunk_add(e->c, data, len) == 0 ? 0 : 1;
}

static int32_t sink_chunk_json(void *user_data, const char *data, size_t len)
{
	struct chunk *c = ((struct emit *)user_data)->c;

	if (len > 0 && data[0] == '{') {
		if (c->nobjs == c->capobjs) {
			size_t ncap = c->capobjs ? 2 * c->capobjs : 256;
			size_t *n = realloc(c->objs, ncap * sizeof *n);
			if (!n) {
				c->oom = 1;
				return 1;
			}
			c->objs = n;
			c->capobjs = ncap;
		}
		c->objs[c->nobjs++] = c->len;
		data++;
		len--;
	}
	return chunk_add(c, data, len) == 0 ? 0 : 1;
}

/*
 * Whether the moves of g cannot all be read (--partial wrote it in part). A game whose moves
 * are read keeps the message of its write's warning (a text read with loss), said as one.
 */
static int moves_fail(struct gamedb_game *g)
{
	struct gamedb_move_iter *it = NULL;
	int failed = gamedb_move_iter_new(g, 0, &it) == GAMEDB_FAILED;

	gamedb_move_iter_free(it);
	return failed;
}

/*
 * One game the loop reached and keeps (OK or WARN, wanted, not a skipped deleted game):
 * written, added to the book, or reported, and counted in e->t. The status so far, updated;
 * ST_STOP after a message when the run cannot go on (write error, out of memory, the book
 * failed).
 */
static int take_game(struct emit *e, struct gamedb_game *g, uint64_t idx, int status)
{
	const struct opts *o = e->o;
	int32_t rc;

	if (e->mode == OUT_BOOK) {
		rc = gamedb_book_add_game(e->book, g);
		if (rc == GAMEDB_FATAL) {
			say(e, "gamedb: book: %s\n", gamedb_book_errmsg(e->book));
			return ST_STOP;
		}
		if (rc == GAMEDB_FAILED) {
			say(e, "gamedb: %s: game %" PRIu64 ": %s\n", e->db, idx + 1,
			    gamedb_book_errmsg(e->book));
			e->t->failed++;
			status = status ? status : ST_FAILED;
		} else {
			e->t->written++;
		}
		return status;
	}
	if (e->c)
		rc = e->mode == OUT_JSON ? gamedb_game_write_json(g, o->wflags, sink_chunk_json, e)
		     : e->mode == OUT_POSITIONS
			     ? gamedb_game_write_positions(g, o->positions, o->wflags, sink_chunk, e)
			     : gamedb_game_write_pgn(g, o->wflags, sink_chunk, e);
	else
		rc = e->mode == OUT_JSON ? gamedb_game_write_json(g, o->wflags, sink_json, &e->js)
		     : e->mode == OUT_POSITIONS
			     ? gamedb_game_write_positions(g, o->positions, o->wflags, sink_file, e->out)
			     : gamedb_game_write_pgn(g, o->wflags, sink_file, e->out);
	if (rc == GAMEDB_FAILED) {
		if (e->c && e->c->oom) {
			say(e, "gamedb: out of memory\n");
			return ST_STOP;
		}
		if (!e->c && ferror(e->out)) {
			fprintf(stderr, "gamedb: write error: %s\n", strerror(errno));
			write_said = 1;
			return ST_STOP;
		}
		say(e, "gamedb: %s: game %" PRIu64 ": %s\n", e->db, idx + 1, gamedb_game_errmsg(g));
		e->t->failed++;
		status = status ? status : ST_FAILED;
	} else if (rc == GAMEDB_WARN && (o->wflags & GAMEDB_WRITE_PARTIAL) && moves_fail(g)) {
		/* Written in part: its moves fail (a WARN may also be a lossy text, said below). */
		say(e, "gamedb: %s: game %" PRIu64 ": written in part: %s\n", e->db, idx + 1,
		    gamedb_game_errmsg(g));
		e->t->failed++;
		status = status ? status : ST_FAILED;
	} else if (rc == GAMEDB_WARN && gamedb_game_errmsg(g)[0]) {
		/* Written whole with a warning (text read in the fallback charset or with loss, a
		 * field repaired): the message names the file and the game. */
		say(e, "gamedb: warning: %s\n", gamedb_game_errmsg(g));
		e->t->written++;
		e->t->warned++;
	} else {
		e->t->written++;
	}
	return status;
}

/*
 * --jobs: the games of one database in chunks. Each worker has a reader of its own (the
 * library's rule: one reader per thread) and takes the next chunk, seeks to it and converts
 * its games into the chunk's memory. The output goes out in database order, so that it and
 * the messages are those of one job, and each chunk is written out by the worker that filled
 * it, when its turn comes: at once when it is next, else as soon as the chunk before it is
 * out (the worker looks between two games of the chunk it fills then, or waits when it has
 * nothing left to take). A chunk's text is then still in the cache of the core that made it;
 * written out by the other worker (as it was before), every byte crossed between the cores'
 * caches once more, and `--jobs 2` spent 5-10 % more CPU than `--jobs 1` in the kernel's copy
 * of the text and in the copy into the blocks. The calling thread is a worker as well: there
 * is no thread that only writes, and nobody waits except when `window` chunks (eight per job)
 * are taken and not yet written, which bounds the memory whatever the size of the database,
 * or at the end. Eight small chunks rather than three larger ones: the same memory gives the
 * other workers more slack while one of them is held up (a read or a write that waits for the
 * disk, a thread the system runs late); with three chunks of 128 games, the workers of --jobs
 * 2 waited 20-80 ms per run for room, with eight of 64 they hardly wait.
 */
struct pool {
	pthread_mutex_t mu;
	pthread_cond_t turn;  /* a chunk was written: the next one's turn, and a slot is free */
	struct chunk *slots;  /* chunk k is in slots[k % window] */
	size_t window;
	uint64_t next_take;
	uint64_t next_write;  /* set under mu, read atomically (a worker's look between games) */
	uint64_t next_start;  /* the first game of the next chunk taken */
	int stop;
	uint64_t end;         /* games [.., end) */
	int jobs;
	size_t per_game;      /* output bytes per game of the last chunk filled (0: none yet) */
	const struct opts *o;
	int mode;
	const char *db;
	/* The output side: used by one worker at a time, the one whose chunk's turn it is. */
	FILE *out;
	struct progress *pr;
	uint64_t done;
	struct tally tally;   /* the games of the chunks written */
	int status;
	int werrno;           /* errno of a write that failed, in the worker that wrote */
};

struct worker {
	struct pool *p;
	int id;
	struct gamedb_reader *r;
	struct store store;   /* its chunks' blocks */
	int pending;          /* its chunks filled and not yet written */
	pthread_t t;
};

/*
 * The output a chunk is meant to hold (chunk_games()). Counted in games alone, a run of long
 * annotated games (9 KB each in the real base) made chunks of 580 KB; in bytes, the window of
 * chunks in flight holds about as much whatever the games.
 */
#define CHUNK_BYTES ((size_t)96 << 10)

/*
 * The games in the next chunk: large enough that a chunk's seek and handoff cost nothing next
 * to its games (up to 64 of them), about CHUNK_BYTES of output going by the last chunk's
 * bytes per game, so that memory stays flat however large the base, and smaller towards the
 * end so that the workers finish at about the same time.
 */
static uint64_t chunk_games(const struct pool *p)
{
	uint64_t left = p->end - p->next_start;
	uint64_t n = left / ((uint64_t)p->jobs * 4);

	n = n < 16 ? 16 : n > 64 ? 64 : n;
	if (p->per_game > 0 && n > CHUNK_BYTES / p->per_game)
		n = CHUNK_BYTES / p->per_game < 4 ? 4 : CHUNK_BYTES / p->per_game;
	return n < left ? n : left;
}

static void poll_turn(struct pool *p, struct worker *w);

/*
 * Converts the games of chunk c with w's reader, as the one-job loop does for them; between
 * two games, writes out w's filled chunks when their turn has come (poll_turn()).
 */
static void fill_chunk(struct pool *p, struct worker *w, struct chunk *c)
{
	struct gamedb_reader *r = w->r;
	struct emit e;
	struct gamedb_game *g;
	uint64_t k = c->start;
	int32_t rc;

	memset(&e, 0, sizeof e);
	e.o = p->o;
	e.mode = p->mode;
	e.db = p->db;
	e.c = c;
	e.t = &c->tally;
	if (gamedb_reader_seek_game(r, k) == GAMEDB_FATAL) {
		say(&e, "gamedb: %s: %s\n", p->db, gamedb_reader_errmsg(r));
		c->status = ST_BASE;
		return;
	}
	while (c->last || k < c->end) {
		uint64_t idx;
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END)
			break;
		if (rc == GAMEDB_FATAL) {
			say(&e, "gamedb: %s: %s\n", p->db, gamedb_reader_errmsg(r));
			c->status = ST_BASE;
			break;
		}
		if (rc == GAMEDB_FAILED) {
			/* Every format gives one game per call, read or not. */
			say(&e, "gamedb: %s: %s\n", p->db, gamedb_reader_errmsg(r));
			c->tally.failed++;
			c->status = c->status ? c->status : ST_FAILED;
			k++;
			continue;
		}
		idx = gamedb_game_get_index(g);
		k = idx + 1;
		if (idx >= p->o->to || (!c->last && idx >= c->end))
			break; /* past the range, or the next chunk's game */
		if (!game_wanted(p->o, idx))
			continue;
		c->done++;
		if (gamedb_game_is_deleted(g) && !p->o->include_deleted)
			continue;
		c->status = take_game(&e, g, idx, c->status);
		if (c->status == ST_STOP)
			break;
		if (w->pending)
			poll_turn(p, w);
	}
}

/* A place in a chunk's output (NULL block: its end). */
struct cursor {
	const struct block *b;
	size_t off;
};

static void cursor_skip(struct cursor *at, size_t n)
{
	while (at->b && n >= at->b->len - at->off) {
		n -= at->b->len - at->off;
		at->b = at->b->next;
		at->off = 0;
	}
	at->off += n;
}

/*
 * Writes the next n bytes of a chunk's output to out. Tens of kilobytes go to the file
 * descriptor in one system call per 64 blocks (after what out's buffer holds) rather than
 * through stdio, which would first copy most of them into its buffer; a few bytes (the JSON
 * between two objects' prefixes) go through stdio. Should a write fail, the rest goes
 * through stdio after all, which fails the same way and leaves out in error, as one job would
 * (the same messages).
 */
static void write_out(FILE *out, struct cursor *at, size_t n)
{
	if (n >= 16384 && fflush(out) == 0) {
		int fd = fileno(out);
		while (n > 0) {
#ifdef _WIN32
			size_t piece = at->b->len - at->off;
			int got = _write(fd, at->b->data + at->off, (unsigned)(piece < n ? piece : n));
#else
			struct iovec v[64];
			struct cursor c = *at;
			size_t left = n;
			int k = 0;
			ssize_t got;
			for (; k < 64 && left > 0; k++) {
				size_t piece = c.b->len - c.off;
				piece = piece < left ? piece : left;
				v[k].iov_base = (void *)(c.b->data + c.off);
				v[k].iov_len = piece;
				left -= piece;
				c.b = c.b->next;
				c.off = 0;
			}
			got = writev(fd, v, k);
#endif
			if (got <= 0)
				break;
			cursor_skip(at, (size_t)got);
			n -= (size_t)got;
		}
	}
	while (n > 0) {
		size_t piece = at->b->len - at->off;
		piece = piece < n ? piece : n;
		fwrite(at->b->data + at->off, 1, piece, out);
		cursor_skip(at, piece);
		n -= piece;
	}
}

/* Writes chunk c (the next in turn) to the output; by the worker that is writing. */
static void write_chunk(struct pool *p, struct chunk *c)
{
	FILE *out = p->out;
	struct cursor at = { c->head, 0 };
	size_t pos = 0, j;

	for (j = 0; j < c->nobjs; j++) {
		write_out(out, &at, c->objs[j] - pos);
		json_prefix(out, p->db, json_n++);
		pos = c->objs[j];
	}
	write_out(out, &at, c->len - pos);
	blocks_put(c->store, c->head);
	c->head = c->tail = NULL;
	c->len = 0;
	if (c->msgs.len)
		fwrite(c->msgs.p, 1, c->msgs.len, stderr);
	if (c->msgs.oom)
		fprintf(stderr, "gamedb: out of memory\n");
	p->done += c->done;
	p->tally.written += c->tally.written;
	p->tally.failed += c->tally.failed;
	p->tally.warned += c->tally.warned;
	prealloc_more(out);
	progress_show(p->pr, p->done, 0);
	if (c->status > p->status || c->msgs.oom)
		p->status = c->msgs.oom ? ST_STOP : c->status;
	if (ferror(out)) {
		p->werrno = errno;
		fprintf(stderr, "gamedb: write error: %s\n", strerror(p->werrno));
		write_said = 1;
		p->status = ST_STOP;
	}
}

/*
 * Writes out w's chunks while it is their turn (the chunk next in turn is filled and w's);
 * with the pool's mutex held, which is let go during each write.
 */
static void write_turns(struct pool *p, struct worker *w)
{
	while (!p->stop && p->next_write < p->next_take) {
		struct chunk *n = &p->slots[p->next_write % p->window];
		if (!n->ready || n->owner != w->id)
			break;
		pthread_mutex_unlock(&p->mu);
		write_chunk(p, n);
		pthread_mutex_lock(&p->mu);
		__atomic_store_n(&n->ready, 0, __ATOMIC_RELAXED);
		w->pending--;
		__atomic_store_n(&p->next_write, p->next_write + 1, __ATOMIC_RELEASE);
		if (p->status >= ST_BASE)
			p->stop = 1;
		pthread_cond_broadcast(&p->turn);
	}
}

/*
 * Between two games of a chunk: w writes out its filled chunks if their turn has come. A look
 * without the mutex first (the chunk next in turn, its owner and whether it is filled); taken
 * only when the look says so, and write_turns() looks again under it.
 */
static void poll_turn(struct pool *p, struct worker *w)
{
	uint64_t k = __atomic_load_n(&p->next_write, __ATOMIC_ACQUIRE);
	struct chunk *n = &p->slots[k % p->window];

	if (__atomic_load_n(&n->owner, __ATOMIC_RELAXED) != w->id ||
	    !__atomic_load_n(&n->ready, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&p->mu);
	write_turns(p, w);
	pthread_mutex_unlock(&p->mu);
}

/*
 * Takes, fills and writes chunks until there are none left and w's are written out (or the
 * run stops).
 */
static void work(struct pool *p, struct worker *w)
{
	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct chunk *c;
		write_turns(p, w);
		if (p->stop || (p->next_start >= p->end && !w->pending))
			break;
		if (p->next_start >= p->end || p->next_take >= p->next_write + p->window) {
			/* Its chunks wait for their turn, or the window is full: a turn must pass. */
			pthread_cond_wait(&p->turn, &p->mu);
			continue;
		}
		/* The slot's last chunk (next_take - window) is written: it is ours until then. */
		c = &p->slots[p->next_take++ % p->window];
		c->start = p->next_start;
		p->next_start += chunk_games(p);
		c->end = p->next_start;
		c->last = p->next_start == p->end;
		c->store = &w->store;
		__atomic_store_n(&c->owner, w->id, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&p->mu);

		c->msgs.len = 0;
		c->oom = c->msgs.oom = 0;
		c->nobjs = 0;
		c->done = 0;
		memset(&c->tally, 0, sizeof c->tally);
		c->status = 0;
		fill_chunk(p, w, c);

		pthread_mutex_lock(&p->mu);
		if (c->end > c->start)
			p->per_game = c->len / (size_t)(c->end - c->start) + 1;
		w->pending++;
		__atomic_store_n(&c->ready, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&p->mu);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	/* Opened here, not by the calling thread: the opens overlap the first chunks. */
	w->r = open_db(w->p->db, w->p->o, 1);
	if (w->r)
		work(w->p, w);
	return NULL;
}

/* The number of processors online (the default of --jobs). */
static int online_cores(void)
{
#ifdef _WIN32
	SYSTEM_INFO si;

	GetSystemInfo(&si);
	return si.dwNumberOfProcessors > 0 ? (int)si.dwNumberOfProcessors : 1;
#else
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (n > 256 ? 256 : (int)n) : 1;
#endif
}

/*
 * Games [from, end) of r (more than one job's worth) with --jobs workers: the calling thread
 * with r and the others with readers of their own, opened the same way. The database's
 * status, its games counted in t; -1 when the workers could not be set up (then nothing was
 * written).
 */
static int convert_jobs(struct gamedb_reader *r, const char *db, const struct opts *o, int mode,
			FILE *out, uint64_t from, uint64_t end, struct progress *pr,
			struct tally *t)
{
	struct pool p;
	struct worker *ws = calloc((size_t)o->jobs, sizeof *ws);
	int n = 0, i;
	size_t k;

	memset(&p, 0, sizeof p);
	p.o = o;
	p.mode = mode;
	p.db = db;
	p.next_start = from;
	p.end = end;
	p.jobs = o->jobs;
	p.out = out;
	p.pr = pr;
	p.window = (size_t)o->jobs * 8;
	p.slots = calloc(p.window, sizeof *p.slots);
	if (!ws || !p.slots || pthread_mutex_init(&p.mu, NULL) != 0) {
		free(ws);
		free(p.slots);
		return -1;
	}
	if (pthread_cond_init(&p.turn, NULL) != 0) {
		pthread_mutex_destroy(&p.mu);
		free(ws);
		free(p.slots);
		return -1;
	}
	for (i = 0; i < o->jobs; i++) {
		ws[i].p = &p;
		ws[i].id = i;
	}
	ws[0].r = r;
	/* Worker 0 is this thread; a worker that cannot start leaves its share to the others. */
	for (i = 1; i < o->jobs && (uint64_t)i < end - from; i++) {
		if (pthread_create(&ws[i].t, NULL, worker_main, &ws[i]) != 0)
			break;
		n++;
	}
	work(&p, &ws[0]);
	for (i = 1; i <= n; i++) {
		pthread_join(ws[i].t, NULL);
		gamedb_reader_free(ws[i].r);
	}
	/*
	 * errno is each thread's own: a write that failed in another worker leaves its errno
	 * here, for the message of the output's close (as one job, which wrote it all here).
	 */
	if (p.werrno)
		errno = p.werrno;
	progress_show(pr, p.done, 1);
	*t = p.tally;
	for (k = 0; k < p.window; k++) {
		blocks_free(p.slots[k].head); /* chunks left when the run stopped */
		free(p.slots[k].msgs.p);
		free(p.slots[k].objs);
	}
	for (i = 0; i < o->jobs; i++)
		blocks_free(ws[i].store.free);
	free(p.slots);
	free(ws);
	pthread_cond_destroy(&p.turn);
	pthread_mutex_destroy(&p.mu);
	return p.status;
}

/*
 * Writes the games of r to out, counted in t; the database's status (ST_BASE: it could not be
 * read to its end; ST_STOP: the run stops).
 */
static int convert_one(struct gamedb_reader *r, const char *db, const struct opts *o, int mode,
		       FILE *out, struct gamedb_book *book, struct tally *t)
{
	struct gamedb_game *g;
	struct progress pr = { 0, 0, 0 };
	uint64_t done = 0, count = 0;
	int counted, seekable, status = ST_OK;
	struct emit e;
	int32_t rc;

	memset(&e, 0, sizeof e);
	memset(t, 0, sizeof *t);
	e.t = t;
	e.o = o;
	e.mode = mode;
	e.db = db;
	e.out = out;
	e.book = book;
	e.js.out = out;
	e.js.file = db;
	e.js.n = &json_n;
	pr.on = isatty(STDERR_FILENO);
	counted = gamedb_reader_game_count(r, &count) == GAMEDB_OK;
	seekable = (gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK) != 0;
	if (counted) {
		uint64_t end = o->to < count ? o->to : count;
		pr.total = end > o->from ? end - o->from : 0;
	}
	if (o->from > 0 && seekable && o->from >= count) {
		fprintf(stderr, "gamedb: warning: %s: --range starts at game %" PRIu64
			" (counted from 0), past its %" PRIu64 " games\n", db, o->from, count);
		return status;
	}
	/*
	 * --jobs (pgn, json, fen, epd, uci, positions; a book is one table): a database that can
	 * seek and count, not a stream (style 12, standard input).
	 */
	if (o->jobs > 1 && mode != OUT_BOOK && seekable && counted &&
	    strcmp(db, "-") != 0 && pr.total > 1) {
		int st = convert_jobs(r, db, o, mode, out, o->from, o->from + pr.total, &pr, t);
		if (st >= 0)
			return st;
	}
	if (o->from > 0 && seekable)
		gamedb_reader_seek_game(r, o->from);
	for (;;) {
		uint64_t idx;
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END)
			break;
		if (rc == GAMEDB_FATAL) {
			fprintf(stderr, "gamedb: %s: %s\n", db, gamedb_reader_errmsg(r));
			status = ST_BASE;
			break;
		}
		if (rc == GAMEDB_FAILED) {
			fprintf(stderr, "gamedb: %s: %s\n", db, gamedb_reader_errmsg(r));
			t->failed++;
			status = status ? status : ST_FAILED;
			continue;
		}
		idx = gamedb_game_get_index(g);
		if (idx < o->from)
			continue; /* formats that cannot seek */
		if (idx >= o->to)
			break;
		if (!game_wanted(o, idx))
			continue;
		progress_show(&pr, ++done, 0);
		if ((done & 255) == 0 && mode != OUT_BOOK)
			prealloc_more(out);
		if (gamedb_game_is_deleted(g) && !o->include_deleted)
			continue;
		status = take_game(&e, g, idx, status);
		if (status == ST_STOP)
			return ST_STOP;
	}
	progress_show(&pr, done, 1);
	return status;
}

/* n with thousands separators ("6,113") in buf (27 bytes or more). */
static const char *thousands(uint64_t n, char *buf)
{
	char digits[21];
	int len = snprintf(digits, sizeof digits, "%" PRIu64, n), i, j = 0;

	for (i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = digits[i];
	}
	buf[j] = 0;
	return buf;
}

/* What became of one database of the run (the ledger's line). */
struct ledger {
	int opened;
	int status;   /* its own: ST_OK, ST_FAILED, ST_BASE (not read to its end) */
	struct tally t;
};

/*
 * The ledger at the end of a run where anything failed or was reported: a line per database
 * on stderr, "gamedb: BASE: N games written, M failed, K with warnings", so that every game of
 * every base is accounted for in one place after the messages of the games themselves.
 * Nothing when every game was written without a word.
 */
static void print_ledger(const struct opts *o, const struct ledger *l)
{
	int i, any = 0;

	for (i = 0; i < o->ndbs; i++)
		any |= !l[i].opened || l[i].status >= ST_BASE || l[i].t.failed || l[i].t.warned;
	for (i = 0; any && i < o->ndbs; i++) {
		char w[27], f[27], k[27];
		if (!l[i].opened) {
			fprintf(stderr, "gamedb: %s: not opened\n", o->dbs[i]);
			continue;
		}
		fprintf(stderr, "gamedb: %s: %s games written, %s failed, %s with warnings%s\n",
			o->dbs[i], thousands(l[i].t.written, w), thousands(l[i].t.failed, f),
			thousands(l[i].t.warned, k),
			l[i].status >= ST_BASE ? "; not read to its end" : "");
	}
}

/*
 * Whether the output would write over what database i reads (1, after a message; 0 if not).
 * r: its reader, or NULL to open it for the question alone (closed at once, so that one
 * database at a time is open). Standard input ("-") is compared by device and inode: a stream
 * cannot be opened twice. Asked before the output is created, and only when a file is there
 * under the output's name (no database reads a file that is not there).
 */
static int output_is_input(const struct opts *o, int i, struct gamedb_reader *r)
{
	const char *db = o->dbs[i];
	int32_t used;

	if (strcmp(db, "-") == 0) {
#ifndef _WIN32 /* (no inode numbers there: st_ino is 0) */
		struct stat in, out;
		if (fstat(STDIN_FILENO, &in) == 0 && stat(o->out, &out) == 0 &&
		    in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
			fprintf(stderr, "gamedb: %s: refusing to write over standard input, "
				"which is read as the database -\n", o->out);
			return 1;
		}
#endif
		return 0;
	}
	if (!r) {
		struct gamedb_reader *own = open_db(db, o, 1);
		if (!own)
			return 0; /* said at its turn, when it is opened for the run */
		used = gamedb_reader_uses_file(own, o->out);
		gamedb_reader_free(own);
	} else {
		used = gamedb_reader_uses_file(r, o->out);
	}
	if (used == 1) {
		fprintf(stderr, "gamedb: %s: refusing to write over a file of the database %s\n",
			o->out, db);
		return 1;
	}
	if (used < 0) {
		fprintf(stderr, "gamedb: %s: cannot tell whether it belongs to %s: %s\n", o->out,
			db, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * pgn, json, fen, epd, uci, positions and book. Each database is opened when its turn comes
 * and closed after it, so that a run holds the files of one database at a time however many it
 * names (400 bases under `ulimit -n 1024` stopped at the 340th). The output is checked against
 * every file the databases read before it is created, so that the command never writes over its
 * input: the first database is opened for the run before it, the others for the question alone.
 * A database that cannot be opened or read is reported and the others are all written; the
 * output is kept unless the run stops (ST_STOP: a write error, memory, the book).
 */
static int cmd_convert(const struct opts *o, int mode)
{
	static char outbuf[1 << 16];
	struct ledger *led = calloc((size_t)o->ndbs, sizeof *led);
	struct output out = { NULL, NULL, NULL, NULL };
	struct gamedb_book *book = NULL;
	struct gamedb_reader *first = NULL; /* the first database, when opened before the output */
	int i, status = ST_OK, first_tried = 0;

	if (!led) {
		fprintf(stderr, "gamedb: out of memory\n");
		return 2;
	}
	if (mode == OUT_BOOK) {
		if (!o->out && isatty(STDOUT_FILENO)) {
			fprintf(stderr, "gamedb: book: a book is binary: give -o BOOK.bin\n");
			free(led);
			return 2;
		}
		if (gamedb_book_new(&book) != GAMEDB_OK) {
			fprintf(stderr, "gamedb: out of memory\n");
			free(led);
			return 2;
		}
		for (i = 0; i < o->nbookopt; i++) {
			if (gamedb_book_set_option(book, o->bookopt[i][0], o->bookopt[i][1]) != GAMEDB_OK) {
				fprintf(stderr, "gamedb: book: --%s %s: %s\n", o->bookopt[i][0],
					o->bookopt[i][1], gamedb_book_errmsg(book));
				gamedb_book_free(book);
				free(led);
				return 2;
			}
		}
	}
	if (o->out) {
		stat_t st;
		int there = os_stat(o->out, &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
		for (i = o->ndbs - 1; there && i > 0; i--) {
			if (output_is_input(o, i, NULL)) {
				status = ST_STOP;
				goto done;
			}
		}
		if (strcmp(o->dbs[0], "-") != 0) {
			first = open_db(o->dbs[0], o, 0);
			first_tried = 1;
		}
		if (there && (first || !first_tried) && output_is_input(o, 0, first)) {
			status = ST_STOP;
			goto done;
		}
	}
	if (output_open(&out, o->out) != 0) {
		output_close(&out, 0);
		status = ST_STOP;
		goto done;
	}
	setvbuf(out.f, outbuf, _IOFBF, sizeof outbuf);
	if (mode == OUT_POSITIONS && o->positions == GAMEDB_POSITIONS_CSV)
		fputs((o->wflags & GAMEDB_WRITE_KEY) ? "game,ply,fen,move,result,key\n"
						       : "game,ply,fen,move,result\n",
		      out.f);
	for (i = 0; i < o->ndbs && !ferror(out.f); i++) {
		struct gamedb_reader *r = i == 0 && first_tried ? first : open_db(o->dbs[i], o, 0);
		first = NULL;
		if (!r) {
			status = status > ST_BASE ? status : ST_BASE;
			continue; /* reported; the others are still written */
		}
		led[i].opened = 1;
		led[i].status = convert_one(r, o->dbs[i], o, mode, out.f, book, &led[i].t);
		gamedb_reader_free(r);
		if (led[i].status > status)
			status = led[i].status;
		if (status == ST_STOP)
			break;
	}
	if (ferror(out.f))
		status = ST_STOP;
	if (mode == OUT_BOOK && status != ST_STOP &&
	    gamedb_book_write(book, sink_file, out.f) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: book: %s\n", ferror(out.f) ? strerror(errno)
							  : gamedb_book_errmsg(book));
		status = ST_STOP;
	}
	if (output_close(&out, status != ST_STOP) != 0)
		status = ST_STOP;
	if (status != ST_STOP)
		print_ledger(o, led);
done:
	gamedb_reader_free(first);
	free(led);
	gamedb_book_free(book);
	return status == ST_STOP ? 2 : status;
}

/* The book option an argument names ("--max-ply" or PolyGlot's "-max-ply"), or NULL. */
static const char *book_key(const char *a)
{
	static const char *const keys[] = { "max-ply", "min-game", "min-score", "only-white",
					    "only-black", "uniform", "memory", "standard-start" };
	size_t k;

	a += a[1] == '-' ? 2 : 1;
	for (k = 0; k < sizeof keys / sizeof keys[0]; k++)
		if (strcmp(a, keys[k]) == 0)
			return keys[k];
	return NULL;
}

/*
 * The value of the option at argv[*i]: its "=value" part (*inl, then consumed), else the next
 * argument (*i moves on to it); NULL when there is none.
 */
static const char *opt_value(int argc, char **argv, int *i, const char **inl)
{
	const char *v = *inl;

	if (v) {
		*inl = NULL;
		return v;
	}
	return ++*i < argc ? argv[*i] : NULL;
}

#ifndef _WIN32 /* (Windows: wmain() in win.c) */
int main(int argc, char **argv)
{
	return finish_stdout(run(argc, argv));
}
#endif

int run(int argc, char **argv)
{
	struct opts o;
	int i, stdin_named = 0;

	memset(&o, 0, sizeof o);
	o.to = UINT64_MAX;
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("gamedb %s\n", gamedb_version_string());
		return 0;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	o.cmd = argv[1];
	if (!strcmp(o.cmd, "fen"))
		o.positions = GAMEDB_POSITIONS_FEN;
	else if (!strcmp(o.cmd, "epd"))
		o.positions = GAMEDB_POSITIONS_EPD;
	else if (!strcmp(o.cmd, "uci"))
		o.positions = GAMEDB_POSITIONS_UCI;
	else if (!strcmp(o.cmd, "positions"))
		o.positions = GAMEDB_POSITIONS_JSON;
	if (strcmp(o.cmd, "info") != 0 && strcmp(o.cmd, "pgn") != 0 && strcmp(o.cmd, "json") != 0 &&
	    strcmp(o.cmd, "book") != 0 && !o.positions) {
		fprintf(stderr, "gamedb: unknown command \"%s\"\n", o.cmd);
		usage(stderr);
		return 2;
	}
	o.dbs = calloc((size_t)argc, sizeof *o.dbs);
	if (!o.dbs)
		return 2;
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *inl = NULL, *v = NULL, *eq;
		char name[32];
		if (a[0] == '-' && a[1] == '-' && (eq = strchr(a, '=')) != NULL &&
		    (size_t)(eq - a) < sizeof name) {
			/* --name=value: the same option as --name value, for every option */
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = 0;
			inl = eq + 1;
			a = name;
		}
		if (strcmp(a, "--") == 0) { /* the rest are databases, even when they start with '-' */
			while (++i < argc)
				o.dbs[o.ndbs++] = argv[i];
			break;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			free(o.dbs);
			free(o.games);
			return 0;
		}
		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			o.out = v;
		} else if (strcmp(a, "--range") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			if (parse_range(v, &o) != 0) {
				fprintf(stderr, "gamedb: --range wants A:B with A <= B, got \"%s\"\n", v);
				goto fail;
			}
		} else if (strcmp(a, "--charset") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			o.charset = v;
		} else if (strcmp(a, "--direction") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			if (strcmp(v, "auto") != 0 && strcmp(v, "right") != 0 &&
			    strcmp(v, "left") != 0) {
				fprintf(stderr, "gamedb: --direction wants auto, right or left, got "
					"\"%s\"\n", v);
				goto fail;
			}
			o.direction = v;
		} else if (strcmp(a, "--password") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			o.password = v;
		} else if (strcmp(a, "--layout") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			if (strcmp(v, "scid") == 0) {
				o.wflags |= GAMEDB_WRITE_LAYOUT_SCID;
			} else if (strcmp(v, "standard") == 0) {
				o.wflags &= ~(uint32_t)GAMEDB_WRITE_LAYOUT_SCID;
			} else {
				fprintf(stderr, "gamedb: --layout wants standard or scid, got \"%s\"\n",
					v);
				goto fail;
			}
		} else if (strcmp(a, "--commands") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			o.wflags &= ~(uint32_t)(GAMEDB_WRITE_ALL_COMMANDS | GAMEDB_WRITE_NO_COMMANDS);
			if (strcmp(v, "all") == 0) {
				o.wflags |= GAMEDB_WRITE_ALL_COMMANDS;
			} else if (strcmp(v, "none") == 0) {
				o.wflags |= GAMEDB_WRITE_NO_COMMANDS;
			} else if (strcmp(v, "common") != 0) {
				fprintf(stderr, "gamedb: --commands wants common, all or none, got \"%s\"\n",
					v);
				goto fail;
			}
		} else if (strcmp(a, "--games") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			if (parse_games(v, &o) != 0) {
				fprintf(stderr, "gamedb: --games wants numbers from 1 and ranges, as "
					"1,5,10-20, got \"%s\"\n", v);
				goto fail;
			}
		} else if (strcmp(a, "--jobs") == 0 || strcmp(a, "-j") == 0) {
			uint64_t n;
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			if (parse_u64(v, &n) != 0 || n < 1 || n > 256) {
				fprintf(stderr, "gamedb: --jobs wants a number from 1 to 256, got \"%s\"\n", v);
				goto fail;
			}
			o.jobs = (int)n;
		} else if (strcmp(a, "--partial") == 0) {
			o.wflags |= GAMEDB_WRITE_PARTIAL;
		} else if (strcmp(a, "--key") == 0) {
			o.wflags |= GAMEDB_WRITE_KEY;
		} else if (strcmp(a, "--fen") == 0) {
			o.wflags |= GAMEDB_WRITE_FEN;
		} else if (strcmp(a, "--csv") == 0 && o.positions) {
			o.positions = GAMEDB_POSITIONS_CSV;
		} else if (strcmp(a, "--include-deleted") == 0) {
			o.include_deleted = 1;
		} else if (strcmp(a, "--no-comments") == 0) {
			o.wflags |= GAMEDB_WRITE_NO_COMMENTS;
		} else if (strcmp(a, "--no-variations") == 0) {
			o.wflags |= GAMEDB_WRITE_NO_VARIATIONS;
		} else if (strcmp(a, "--no-nags") == 0) {
			o.wflags |= GAMEDB_WRITE_NO_NAGS;
		} else if (strcmp(a, "--no-commands") == 0) {
			o.wflags |= GAMEDB_WRITE_NO_COMMANDS;
		} else if (strcmp(a, "--language") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			o.language = v;
		} else if (strcmp(a, "--notation") == 0) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			o.wflags &= ~(uint32_t)(GAMEDB_WRITE_WXF | GAMEDB_WRITE_CHINESE);
			if (strcmp(v, "wxf") == 0) {
				o.wflags |= GAMEDB_WRITE_WXF;
			} else if (strcmp(v, "chinese") == 0) {
				o.wflags |= GAMEDB_WRITE_CHINESE;
			} else if (strcmp(v, "iccs") != 0) {
				fprintf(stderr, "gamedb: --notation wants iccs, wxf or chinese, got \"%s\"\n",
					v);
				goto fail;
			}
		} else if (strcmp(o.cmd, "book") == 0 && a[0] == '-' && a[1] &&
			   (book_key(a) != NULL)) {
			/* PolyGlot's spellings (-max-ply) and ours (--max-ply) */
			const char *key = book_key(a);
			int flag = !strcmp(key, "only-white") || !strcmp(key, "only-black") ||
				   !strcmp(key, "uniform") || !strcmp(key, "standard-start");
			if (!flag && !(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			if (o.nbookopt == (int)(sizeof o.bookopt / sizeof o.bookopt[0])) {
				fprintf(stderr, "gamedb: too many book options\n");
				goto fail;
			}
			o.bookopt[o.nbookopt][0] = key;
			o.bookopt[o.nbookopt][1] = flag ? "1" : v;
			o.nbookopt++;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "gamedb: unknown option \"%s\"\n", a);
			usage(stderr);
			goto fail;
		} else {
			o.dbs[o.ndbs++] = a;
		}
		if (inl) {
			fprintf(stderr, "gamedb: %s takes no value, got \"%s\"\n", a, argv[i]);
			goto fail;
		}
	}
	if (o.ndbs == 0) {
		fprintf(stderr, "gamedb: no database given\n");
		usage(stderr);
		goto fail;
	}
	/* Standard input is one stream: named twice, the second read took what the first left. */
	for (i = 0; i < o.ndbs; i++) {
		if (strcmp(o.dbs[i], "-") != 0)
			continue;
		if (stdin_named++) {
			fprintf(stderr, "gamedb: - (standard input) is named more than once; "
				"it can be read once\n");
			goto fail;
		}
	}
	if (o.jobs == 0)
		o.jobs = online_cores();
	catch_signals();
	i = strcmp(o.cmd, "info") == 0	 ? cmd_info(&o)
	    : strcmp(o.cmd, "json") == 0 ? cmd_convert(&o, OUT_JSON)
	    : strcmp(o.cmd, "book") == 0 ? cmd_convert(&o, OUT_BOOK)
	    : o.positions		 ? cmd_convert(&o, OUT_POSITIONS)
					 : cmd_convert(&o, OUT_PGN);
	free(o.dbs);
	free(o.games);
	return i;
missing:
	fprintf(stderr, "gamedb: %s needs a value\n", argv[i - 1]);
fail:
	free(o.dbs);
	free(o.games);
	return 2;
}
