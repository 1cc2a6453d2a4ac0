/*
 * pgn, json, fen, epd, uci, positions and book: the games of every database into one output,
 * each game written or reported, and the ledger of the run.
 */
#include "gamedb-tool.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A message on standard error, or in the messages of the chunk being filled (--jobs). */
void say(struct emit *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!e->c)
		vfprintf(stderr, fmt, ap);
	else
		chunk_say(e->c, fmt, ap);
	va_end(ap);
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
 * What became of the games a book was given (the summary that ends a book run: an empty book
 * was written without a word). A game is used, left out (not chess, or --standard-start and a
 * set-up position) or failed; the book's entries and positions are counted as it is written.
 */
static struct {
	uint64_t read, used, variant, setup, failed;
} booked;

static const char *thousands(uint64_t n, char *buf);

/* The book's bytes on their way out: 16-byte entries sorted by key (8 bytes, big-endian). */
struct book_count {
	FILE *out;
	uint64_t entries, positions, key;
	unsigned char part[16];
	size_t have;
};

static int32_t sink_book(void *user_data, const char *data, size_t len)
{
	struct book_count *bc = user_data;
	size_t i;

	for (i = 0; i < len; i++) {
		bc->part[bc->have++] = (unsigned char)data[i];
		if (bc->have == 16) {
			uint64_t key = 0;
			int k;
			for (k = 0; k < 8; k++)
				key = key << 8 | bc->part[k];
			bc->positions += bc->entries == 0 || key != bc->key;
			bc->key = key;
			bc->entries++;
			bc->have = 0;
		}
	}
	return sink_file(bc->out, data, len);
}

/*
 * "gamedb: book: 1,212 games read, 0 used (1,212 start from a set-up position: see
 * --standard-start), 0 positions, 0 entries written to BOOK.bin", and an empty book says why.
 */
static void say_book(const struct opts *o, const struct book_count *bc)
{
	char a[27], b[27], c[27];
	const char *min_game = "3", *sep = " (";
	int i;

	for (i = 0; i < o->nbookopt; i++)
		if (strcmp(o->bookopt[i][0], "min-game") == 0)
			min_game = o->bookopt[i][1];
	fprintf(stderr, "gamedb: book: %s games read, %s used", thousands(booked.read, a),
		thousands(booked.used, b));
	if (booked.failed) {
		fprintf(stderr, "%s%s failed", sep, thousands(booked.failed, a));
		sep = ", ";
	}
	if (booked.variant) {
		fprintf(stderr, "%s%s not of standard chess", sep, thousands(booked.variant, a));
		sep = ", ";
	}
	if (booked.setup) {
		fprintf(stderr, "%s%s start from a set-up position: see --standard-start", sep,
			thousands(booked.setup, a));
		sep = ", ";
	}
	fprintf(stderr, "%s%s positions, %s entries written to %s", *sep == ',' ? "), " : ", ",
		thousands(bc->positions, b), thousands(bc->entries, c),
		o->out ? o->out : "standard output");
	if (bc->entries == 0 && booked.read == 0)
		fputs(": empty, no game was read", stderr);
	else if (bc->entries == 0 && booked.used == 0)
		fputs(": empty, no game was used", stderr);
	else if (bc->entries == 0)
		fprintf(stderr, ": empty, no move was played in %s or more of the games used (see "
			"--min-game; --min-score, --only-white and --only-black leave entries out "
			"too)", min_game);
	fputc('\n', stderr);
}

/*
 * The message msg of game idx (its 0-based index) of database db, after "gamedb: " and lead
 * ("warning: " or ""), with what it says about the game first (what: "written in part: " or
 * ""). The library's messages name their file (the base's own, or a file of it: base.cbg for
 * base.cbh) and often the game ("offset 58: game 1: ..."), so the command's "db: game N: "
 * says only what the message does not (it said both again: "base.cbh: game 1: base.cbg:
 * offset 58: game 1: ..."). A warning that names its file is said as it is.
 */
/* Whether the library's message msg starts with a file of database db: db itself, or a file
 * of the same base (db's name up to its extension: base.cbg for base.cbh). */
int names_its_file(const char *db, const char *msg)
{
	const char *base = strrchr(db, '/'), *dot;
	size_t stem;

	base = base ? base + 1 : db;
	dot = strrchr(base, '.');
	stem = dot ? (size_t)(dot - db) : strlen(db);
	return strncmp(msg, db, stem) == 0 && (msg[stem] == '.' || msg[stem] == ':');
}

/* A reader's message (msg) about e's database: "gamedb: ", the database unless the message
 * names its file already (a stream's failed line: "log.txt: line 52: ..."), the message. */
void say_reader(struct emit *e, const char *msg)
{
	if (names_its_file(e->db, msg))
		say(e, "gamedb: %s\n", msg);
	else
		say(e, "gamedb: %s: %s\n", e->db, msg);
}

/*
 * What a status rc of gamedb_reader_next_game() on r means for a loop over e's database: 0 a
 * game to take; 1 a game that failed (reported, counted, *status at least ST_FAILED); -1 the
 * end, or a reader gone fatal (reported, *status ST_BASE). One copy for convert_one() and the
 * --jobs workers (jobs.c).
 */
int next_read(struct emit *e, struct gamedb_reader *r, int32_t rc, int *status)
{
	if (rc == GAMEDB_END)
		return -1;
	if (rc == GAMEDB_FATAL) {
		say_reader(e, gamedb_reader_errmsg(r));
		*status = ST_BASE;
		return -1;
	}
	if (rc == GAMEDB_FAILED) {
		say_reader(e, gamedb_reader_errmsg(r));
		e->t->failed++;
		*status = *status ? *status : ST_FAILED;
		return 1;
	}
	return 0;
}

static void say_game(struct emit *e, uint64_t idx, const char *lead, const char *what,
		     const char *msg)
{
	const char *db = e->db, *p;
	size_t dblen = strlen(db), glen;
	char game[32];
	int file, own, named = 0;

	file = names_its_file(db, msg);
	own = strncmp(msg, db, dblen) == 0 && msg[dblen] == ':' && msg[dblen + 1] == ' ';
	glen = (size_t)snprintf(game, sizeof game, "game %" PRIu64 ":", idx + 1);
	for (p = msg; (p = strstr(p, game)) != NULL; p += glen)
		named |= p == msg || p[-1] == ' ';
	if (file && (named || *lead))
		say(e, "gamedb: %s%s%s\n", lead, what, msg);
	else if (own) /* db's own name, not the game: "db: game N: " and the rest */
		say(e, "gamedb: %s%s: %s %s%s\n", lead, db, game, what, msg + dblen + 2);
	else if (named)
		say(e, "gamedb: %s%s: %s%s\n", lead, db, what, msg);
	else
		say(e, "gamedb: %s%s: %s %s%s\n", lead, db, game, what, msg);
}

/*
 * One game the loop reached and keeps (OK or WARN, wanted, not a skipped deleted game):
 * written, added to the book, or reported, and counted in e->t. The status so far, updated;
 * ST_STOP after a message when the run cannot go on (write error, out of memory, the book
 * failed).
 */
int take_game(struct emit *e, struct gamedb_game *g, uint64_t idx, int status)
{
	const struct opts *o = e->o;
	int32_t rc;

	if (e->q) { /* --where, --fen, --moves: a game that does not match is left out on purpose */
		rc = gamedb_query_match(e->q, g);
		if (rc == 0)
			return status;
		if (rc < 0) {
			say_game(e, idx, "", "", gamedb_query_errmsg(e->q));
			e->t->failed++;
			return status ? status : ST_FAILED;
		}
	}
	if (e->mode == OUT_BOOK) {
		booked.read++;
		rc = gamedb_book_add_game(e->book, g);
		if (rc == GAMEDB_FATAL) {
			say(e, "gamedb: book: %s\n", gamedb_book_errmsg(e->book));
			return ST_STOP;
		}
		if (rc == GAMEDB_FAILED) {
			say_game(e, idx, "", "", gamedb_book_errmsg(e->book));
			e->t->failed++;
			booked.failed++;
			status = status ? status : ST_FAILED;
		} else {
			/* Left out on purpose (not chess; --standard-start) is not a failure. */
			if (rc == GAMEDB_WARN && gamedb_game_get_variant(g) != GAMEDB_VARIANT_CHESS)
				booked.variant++;
			else if (rc == GAMEDB_WARN)
				booked.setup++;
			else
				booked.used++;
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
		if (e->c && chunk_oom(e->c)) {
			say(e, "gamedb: out of memory\n");
			return ST_STOP;
		}
		if (!e->c && ferror(e->out)) {
			fprintf(stderr, "gamedb: write error: %s\n", strerror(errno));
			write_said = 1;
			return ST_STOP;
		}
		say_game(e, idx, "", "", gamedb_game_errmsg(g));
		e->t->failed++;
		status = status ? status : ST_FAILED;
	} else if (rc == GAMEDB_WARN && (o->wflags & GAMEDB_WRITE_PARTIAL) && moves_fail(g)) {
		/* Written in part: its moves fail (a WARN may also be a lossy text, said below). */
		say_game(e, idx, "", "written in part: ", gamedb_game_errmsg(g));
		e->t->failed++;
		status = status ? status : ST_FAILED;
	} else if (rc == GAMEDB_WARN && gamedb_game_errmsg(g)[0]) {
		/* Written whole with a warning (text read in the fallback charset or with loss, a
		 * field repaired): the message names the file and the game. */
		say_game(e, idx, "warning: ", "", gamedb_game_errmsg(g));
		e->t->written++;
		e->t->warned++;
	} else {
		e->t->written++;
	}
	return status;
}

/*
 * The games of e's database through the index (--index with --fen or --moves, a base that can
 * seek): only the games the index names are read, each by a seek to it, and taken as the scan
 * takes them (take_game(): matched, written, reported); the games left out and the places
 * where the base could not deliver a game as next_wanted_hit() gives them, the latter said as
 * the scan says them. *done counts the games read. The database's status, from status.
 */
static int convert_indexed(struct emit *e, struct gamedb_reader *r, int status, uint64_t *done)
{
	const struct opts *o = e->o;
	uint64_t idx, at = UINT64_MAX; /* at: the game the reader gives next, when known */
	uint32_t flags;

	while (next_wanted_hit(e->q, o, &idx, &flags)) {
		struct gamedb_game *g;
		int rc;
		if (flags & GAMEDB_HIT_UNREAD) {
			say_reader(e, gamedb_query_errmsg(e->q));
			e->t->failed++;
			status = status ? status : ST_FAILED;
			continue;
		}
		++*done;
		if ((*done & 255) == 0 && e->mode != OUT_BOOK)
			prealloc_more(e->out);
		if (idx != at && gamedb_reader_seek_game(r, idx) != GAMEDB_OK) {
			say_reader(e, gamedb_reader_errmsg(r));
			return ST_BASE;
		}
		at = idx + 1;
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END) { /* the index was checked against the base: not met */
			say_game(e, idx, "", "", "the base ends before this game, which the index names");
			e->t->failed++;
			return ST_BASE;
		}
		rc = next_read(e, r, rc, &status);
		if (rc < 0)
			return status;
		if (rc > 0)
			continue;
		status = take_game(e, g, gamedb_game_get_index(g), status);
		if (status == ST_STOP)
			break;
	}
	return status;
}

/*
 * Writes the games of r to out, counted in t; the database's status (ST_BASE: it could not be
 * read to its end; ST_STOP: the run stops).
 */
static int convert_one(struct gamedb_reader *r, const char *db, const struct opts *o, int mode,
		       FILE *out, struct gamedb_book *book, struct tally *t)
{
	struct gamedb_game *g;
	struct progress pr = { 0, 0, 0, 0 };
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
	e.q = make_query(o, NULL);
	if (use_index(e.q, open_index(o), r, db) != 0) { /* --index: stale, or not of this base */
		gamedb_query_free(e.q);
		return ST_BASE;
	}
	pr.on = isatty(STDERR_FILENO);
	counted = gamedb_reader_game_count(r, &count) == GAMEDB_OK;
	/* The bar is drawn from the library's progress reports (once every 4,096 games or MiB of
	 * a stream): nothing is done per game but a count. */
	if (pr.on)
		gamedb_reader_set_progress(r, progress_report, &pr);
	seekable = (gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK) != 0;
	if (counted) {
		uint64_t end = o->to < count ? o->to : count;
		pr.total = end > o->from ? end - o->from : 0;
	}
	if (o->from > 0 && seekable && o->from >= count) {
		fprintf(stderr, "gamedb: warning: %s: --range starts at game %" PRIu64
			", past its %" PRIu64 " games\n", db, o->from + 1, count);
		gamedb_query_free(e.q);
		return status;
	}
	/*
	 * --jobs (pgn, json, fen, epd, uci, positions; a book is one table): a database that can
	 * seek and count, not a stream (style 12, standard input).
	 */
	if (o->jobs > 1 && mode != OUT_BOOK && seekable && counted && !o->index &&
	    strcmp(db, "-") != 0 && pr.total > 1) {
		int st = convert_jobs(r, db, o, mode, out, o->from, o->from + pr.total, &pr, t);
		if (st >= 0) {
			gamedb_query_free(e.q);
			return st;
		}
	}
	/*
	 * --index with a position, a base that can seek: the games the index names, and no other
	 * (a scan would read every game's header only for the index to turn it away).
	 */
	if (e.q && o->index && (o->qfen || o->qmoves) && seekable && strcmp(db, "-") != 0) {
		status = convert_indexed(&e, r, status, &done);
		gamedb_query_free(e.q);
		if (status == ST_STOP)
			return ST_STOP;
		progress_show(&pr, done, 1);
		return status;
	}
	if (o->from > 0 && seekable)
		gamedb_reader_seek_game(r, o->from);
	for (;;) {
		uint64_t idx;
		rc = next_read(&e, r, gamedb_reader_next_game(r, &g), &status);
		if (rc < 0)
			break;
		if (rc > 0)
			continue;
		idx = gamedb_game_get_index(g);
		if (idx < o->from)
			continue; /* formats that cannot seek */
		if (idx >= o->to)
			break;
		if (!game_wanted(o, idx))
			continue;
		++done;
		if ((done & 255) == 0 && mode != OUT_BOOK)
			prealloc_more(out);
		if (gamedb_game_is_deleted(g) && !o->include_deleted)
			continue;
		status = take_game(&e, g, idx, status);
		if (status == ST_STOP)
			break;
	}
	gamedb_query_free(e.q);
	if (status == ST_STOP)
		return ST_STOP;
	progress_show(&pr, pr.bytes ? pr.total : done, 1);
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
int cmd_convert(const struct opts *o, int mode)
{
	static char outbuf[1 << 16];
	struct ledger *led = calloc((size_t)o->ndbs, sizeof *led);
	struct output out = { NULL, NULL, NULL, NULL };
	struct gamedb_book *book = NULL;
	struct book_count bc;
	struct gamedb_reader *first = NULL; /* the first database, when opened before the output */
	int i, status = ST_OK, first_tried = 0;

	if (!led) {
		fprintf(stderr, "gamedb: out of memory\n");
		return 2;
	}
	{ /* a bad --fen, --moves or --where stops the run before anything is opened */
		int bad = 0;
		gamedb_query_free(make_query(o, &bad));
		open_index(o); /* --index: a bad one stops the run here too */
		if (bad) {
			free(led);
			return 2;
		}
	}
	memset(&bc, 0, sizeof bc);
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
		int there = os_stat(o->out, &st) == 0;
		if (!there && errno != ENOENT && errno != ENOTDIR) {
			/* Not there, and its folder cannot be looked into (EACCES, ELOOP, ...): it
			 * cannot be made either; said as such, not as a question about a database. */
			fprintf(stderr, "gamedb: cannot create %s: %s\n", o->out, strerror(errno));
			status = ST_STOP;
			goto done;
		}
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
	bc.out = out.f;
	if (mode == OUT_BOOK && status != ST_STOP &&
	    gamedb_book_write(book, sink_book, &bc) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: book: %s\n", ferror(out.f) ? strerror(errno)
							  : gamedb_book_errmsg(book));
		status = ST_STOP;
	}
	if (output_close(&out, status != ST_STOP) != 0)
		status = ST_STOP;
	if (status != ST_STOP)
		print_ledger(o, led);
	if (status != ST_STOP && mode == OUT_BOOK)
		say_book(o, &bc);
done:
	gamedb_reader_free(first);
	free(led);
	gamedb_book_free(book);
	return status == ST_STOP ? 2 : status;
}

