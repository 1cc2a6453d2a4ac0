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
 * Exit status: 0 all good, 1 some games failed, 2 a database cannot be opened or bad usage.
 */
#define _XOPEN_SOURCE 700 /* realpath(), fchmod() */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <fcntl.h>
#include <io.h>
#include <windows.h>
#endif

#include <gamedb/gamedb.h>

/*
 * The few things the command does differently on Windows (MinGW): file names are UTF-8 inside
 * the program (argv is rebuilt from the wide command line in wmain()) and go through the wide
 * API; the temporary output file replaces the target with MoveFileExW(), which, unlike
 * rename() there, replaces a file that exists; standard input and output are binary, so that
 * the PGN written is byte for byte the Linux build's.
 */
#ifdef _WIN32
/* name (UTF-8) as a malloc'd wide string, or NULL. */
static wchar_t *widen(const char *name)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, name, -1, NULL, 0);
	wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;

	if (w && MultiByteToWideChar(CP_UTF8, 0, name, -1, w, n) != n) {
		free(w);
		w = NULL;
	}
	return w;
}

/* w as a malloc'd UTF-8 string, or NULL. */
static char *narrow(const wchar_t *w)
{
	int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
	char *s = n > 0 ? malloc((size_t)n) : NULL;

	if (s && WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL) != n) {
		free(s);
		s = NULL;
	}
	return s;
}

static int os_stat(const char *path, struct _stat64 *st)
{
	wchar_t *w = widen(path);
	int rc = w ? _wstat64(w, st) : -1;

	free(w);
	return rc;
}

static FILE *os_fopen_write(const char *path)
{
	wchar_t *w = widen(path);
	FILE *f = w ? _wfopen(w, L"wb") : NULL;

	free(w);
	return f;
}

static int os_unlink(const char *path)
{
	wchar_t *w = widen(path);
	int rc = w && DeleteFileW(w) ? 0 : -1;

	free(w);
	return rc;
}

/* Replaces to with from; 0, or -1 with errno set. */
static int os_replace(const char *from, const char *to)
{
	wchar_t *wf = widen(from), *wt = widen(to);
	int rc = wf && wt && MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING) ? 0 : -1;

	if (rc != 0)
		errno = GetLastError() == ERROR_ACCESS_DENIED ? EACCES : EIO;
	free(wf);
	free(wt);
	return rc;
}

/* Creates tmpl ("...XXXXXX") as a new file of its own; the descriptor, or -1 with errno set. */
static int os_mkstemp(char *tmpl)
{
	size_t n = strlen(tmpl);
	unsigned long seed = GetTickCount() ^ ((unsigned long)GetCurrentProcessId() << 16);
	int tries, fd = -1;

	for (tries = 0; tries < 100 && fd < 0; tries++) {
		unsigned long v = seed + (unsigned long)tries * 7919u;
		wchar_t *w;
		size_t i;
		for (i = n - 6; i < n; i++, v /= 36)
			tmpl[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[v % 36];
		w = widen(tmpl);
		if (!w) {
			errno = ENOMEM;
			return -1;
		}
		fd = _wopen(w, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
		free(w);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	return fd;
}
#define stat_t struct _stat64
#define os_realpath(p) ((char *)NULL) /* the name as given: a link is replaced, not followed */
#else
#define stat_t struct stat
#define os_stat stat
#define os_unlink unlink
#define os_replace rename
#define os_mkstemp mkstemp
#define os_realpath(p) realpath((p), NULL)
#define os_fopen_write(p) fopen((p), "w")
#endif

struct opts {
	const char *cmd;
	const char *out;
	const char *charset;
	const char *language;
	const char *direction; /* Chess Assistant: auto, right or left */
	const char *password; /* --password: of an encrypted archive (.cbz) */
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
};

enum { OUT_PGN, OUT_JSON, OUT_BOOK, OUT_POSITIONS };

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: gamedb info DB...\n"
	      "       gamedb pgn DB... [-o FILE] [--range A:B] [--games LIST] [--include-deleted]\n"
	      "                        [--no-comments] [--no-variations] [--no-nags]\n"
	      "                        [--no-commands] [--charset CS|detect] [--language LANG]\n"
	      "                        [--notation iccs|wxf|chinese] [--layout standard|scid]\n"
	      "                        [--commands common|all|none] [--partial]\n"
	      "                        [--direction auto|right|left]\n"
	      "       gamedb json DB... (the same options as pgn)\n"
	      "       gamedb fen|epd|uci DB... [--key] [-o FILE] [--range A:B] [--include-deleted]\n"
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
	      "fen: game, ply, FEN per position of the main line; epd: EPD with id, c0 (result),\n"
	      "hmvc, fmvn; uci: a 'position ... moves ...' line per game; positions: FEN, move,\n"
	      "result for the side to move, ply, game, as JSON Lines or --csv. --key adds each\n"
	      "position's Polyglot key (json: --fen and --key add them to every move).\n"
	      "book: a Polyglot opening book from the games' main lines, as PolyGlot's make-book\n"
	      "builds it from their PGN (defaults: --max-ply 1024 --min-game 3 --min-score 0);\n"
	      "--standard-start leaves out games from set-up positions (PolyGlot cannot read them);\n"
	      "--memory caps the table (MiB, default 256) before it spills to temporary files.\n"
	      "Deleted games are skipped unless --include-deleted is given.\n"
	      "-o FILE is written whole or not at all (a temporary file renamed on success), and\n"
	      "never over a file of a database being read.\n"
	      "Exit status: 0 all good, 1 some games failed, 2 a database could not be opened or\n"
	      "read, or the output could not be written.\n",
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

static int32_t sink_file(void *user_data, const char *data, size_t len)
{
	return fwrite(data, 1, len, (FILE *)user_data) == len ? 0 : 1;
}

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

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static int32_t sink_json(void *user_data, const char *data, size_t len)
{
	struct json_sink *js = user_data;

	if (len == 0 || data[0] != '{')
		return sink_file(js->out, data, len);
	fputs("{\"file\": ", js->out);
	json_string(js->out, js->file);
	fprintf(js->out, ", \"n\": %" PRIu64 ", ", (*js->n)++);
	return sink_file(js->out, data + 1, len - 1);
}

struct progress {
	int on;
	uint64_t total, last;
};

static void progress_show(struct progress *p, uint64_t done, int final)
{
	char bar[41];
	unsigned pct, i, fill;

	if (!p->on || p->total == 0)
		return;
	if (!final && done - p->last < p->total / 200 + 1)
		return;
	p->last = done;
	pct = (unsigned)(done * 100 / p->total);
	fill = pct * 40 / 100;
	for (i = 0; i < 40; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[40] = 0;
	fprintf(stderr, "\r[%s] %3u%% %" PRIu64 "/%" PRIu64, bar, pct, done, p->total);
	if (final)
		fputc('\n', stderr);
	fflush(stderr);
}

/*
 * "-": standard input, read as a stream through caller I/O (the I/O layer itself opens only
 * regular files). Its length is unknown (UINT64_MAX); the library reads it forward, and only
 * what the last read asked for is kept, so a pipe of any length is read in bounded memory.
 * Only stream formats (style12) can be read this way; others fail cleanly.
 */
struct stdin_stream {
	uint8_t *buf;
	size_t len, cap;
	uint64_t base; /* stream offset of buf[0] */
	int eof;
};

static struct stdin_stream stdin_stream;

static int32_t stdin_open(void *user_data, const char *name, void **handle, uint64_t *size)
{
	if (strcmp(name, "-") != 0)
		return 1; /* no sibling files */
	*handle = user_data;
	*size = UINT64_MAX;
	return 0;
}

static int64_t stdin_read_at(void *user_data, void *handle, uint64_t off, void *buf, size_t len)
{
	struct stdin_stream *s = handle;
	size_t have;

	(void)user_data;
	if (off < s->base)
		return -1; /* behind what is kept: a stream is read forward only */
	for (;;) {
		/* Forget what comes before off. */
		size_t drop = off - s->base < s->len ? (size_t)(off - s->base) : s->len;
		memmove(s->buf, s->buf + drop, s->len - drop);
		s->len -= drop;
		s->base += drop;
		if ((s->base == off && s->len >= len) || s->eof)
			break;
		if (s->cap - s->len < 65536) {
			size_t ncap = s->cap ? s->cap * 2 : 131072;
			uint8_t *nb;
			if (ncap < s->len + 65536 || ncap > ((size_t)64 << 20))
				return -1;
			nb = realloc(s->buf, ncap);
			if (!nb)
				return -1;
			s->buf = nb;
			s->cap = ncap;
		}
		{
			ssize_t got = read(STDIN_FILENO, s->buf + s->len, s->cap - s->len);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				return -1;
			if (got == 0)
				s->eof = 1;
			s->len += (size_t)got;
		}
	}
	if (s->base != off)
		return 0; /* off is past the end */
	have = s->len < len ? s->len : len;
	memcpy(buf, s->buf, have);
	return (int64_t)have;
}

static void stdin_close(void *user_data, void *handle)
{
	struct stdin_stream *s = handle;

	(void)user_data;
	free(s->buf);
	memset(s, 0, sizeof *s);
}

/* Whether a file that no format reads is PGN text: named .pgn, or starting with a tag. */
static int looks_like_pgn(const char *path)
{
	size_t n = strlen(path), got;
	char head[64];
	FILE *f;

	if (n > 4 && path[n - 4] == '.' && (path[n - 3] | 32) == 'p' && (path[n - 2] | 32) == 'g' &&
	    (path[n - 1] | 32) == 'n')
		return 1;
	f = strcmp(path, "-") ? fopen(path, "rb") : NULL;
	if (!f)
		return 0;
	got = fread(head, 1, sizeof head - 1, f);
	fclose(f);
	head[got] = 0;
	n = strspn(head, " \t\r\n\xef\xbb\xbf");
	return head[n] == '[' && strncmp(head + n, "[Event ", 7) == 0;
}

static struct gamedb_reader *open_db(const char *path, const struct opts *o)
{
	struct gamedb_reader *r = gamedb_reader_new();
	int32_t rc;

	if (!r) {
		fprintf(stderr, "gamedb: out of memory\n");
		return NULL;
	}
	gamedb_reader_support_format_all(r);
	int detect = o->charset && strcmp(o->charset, "detect") == 0;

	if (o->charset && !detect &&
	    gamedb_reader_set_option(r, NULL, "charset", o->charset) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return NULL;
	}
	if (o->password && gamedb_reader_set_option(r, NULL, "password", o->password) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return NULL;
	}
	if (strcmp(path, "-") == 0) {
		struct gamedb_io io;
		gamedb_io_init(&io, sizeof io);
		io.open = stdin_open;
		io.read_at = stdin_read_at;
		io.close = stdin_close;
		rc = gamedb_reader_open_io(r, &io, "-", &stdin_stream);
	} else {
		rc = gamedb_reader_open_filename(r, path);
	}
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
		if (gamedb_reader_errcode(r) == GAMEDB_E_UNRECOGNIZED_FORMAT && looks_like_pgn(path))
			fprintf(stderr, "gamedb: %s is PGN already: this command reads databases and "
				"writes PGN; any PGN reader reads this file as it is\n", path);
		gamedb_reader_free(r);
		return NULL;
	}
	if (rc == GAMEDB_WARN)
		fprintf(stderr, "gamedb: warning: %s\n", gamedb_reader_errmsg(r));
	/*
	 * Options of some formats only: the database's format takes those it knows; for the
	 * others a note says they are ignored (GAMEDB_WARN), once per database, never an abort.
	 */
	{
		const char *fo[3][2] = { { "charset-detect", detect ? "yes" : NULL },
					 { "language", o->language },
					 { "direction", o->direction } };
		size_t k;
		for (k = 0; k < sizeof fo / sizeof fo[0]; k++) {
			if (!fo[k][1])
				continue;
			rc = gamedb_reader_set_option(r, NULL, fo[k][0], fo[k][1]);
			if (rc == GAMEDB_WARN) {
				fprintf(stderr, "gamedb: note: %s: the %s format has no option '%s'; "
					"ignored\n", path, gamedb_reader_format(r), fo[k][0]);
			} else if (rc != GAMEDB_OK) {
				fprintf(stderr, "gamedb: %s: %s\n", path, gamedb_reader_errmsg(r));
				gamedb_reader_free(r);
				return NULL;
			}
		}
	}
	return r;
}

static int cmd_info(const struct opts *o)
{
	int i, status = 0;

	for (i = 0; i < o->ndbs; i++) {
		struct gamedb_reader *r = open_db(o->dbs[i], o);
		struct gamedb_scid *s;
		struct gamedb_chessbase *cb;
		struct gamedb_game *g;
		uint64_t count = 0, deleted = 0, failed = 0;
		uint64_t modes[65]; /* ChessBase: games per encoding mode; [64] unreadable */
		int32_t rc;

		if (!r) {
			status = 2;
			continue;
		}
		printf("file: %s\n", o->dbs[i]);
		printf("format: %s\n", gamedb_reader_format(r));
		if (gamedb_reader_game_count(r, &count) == GAMEDB_OK)
			printf("games: %" PRIu64 "\n", count);
		cb = gamedb_reader_get_chessbase(r);
		memset(modes, 0, sizeof modes);
		while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
			if (rc == GAMEDB_FAILED)
				failed++;
			else if (gamedb_game_is_deleted(g))
				deleted++;
			if (cb && rc != GAMEDB_FAILED) {
				/* How each game's moves are stored: one .cbg byte per game. */
				const int64_t m = gamedb_chessbase_get_game_field(cb, g,
										  GAMEDB_CB_ENCODING_MODE);
				modes[m >= 0 && m < 64 ? m : 64]++;
			}
		}
		printf("deleted: %" PRIu64 "\n", deleted);
		if (failed)
			printf("unreadable headers: %" PRIu64 "\n", failed);
		if (rc == GAMEDB_FATAL) {
			fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
			status = 2;
		}
		s = gamedb_reader_get_scid(r);
		if (s) {
			int32_t k;
			int32_t v = gamedb_scid_get_version(s);
			/* SCID 3, 4 or 5, then the index it was read from (si5 has no version) */
			printf("scid version: %d (.si%d, index version %d)\n", (int)(v / 100),
			       (int)(v / 100), (int)v);
			printf("description: %s\n", gamedb_scid_get_description(s));
			printf("base type: %d\n", (int)gamedb_scid_get_base_type(s));
			for (k = 1; k <= 6; k++) {
				const char *fn = gamedb_scid_get_flag_name(s, k);
				if (fn && *fn)
					printf("custom flag %d: %s\n", (int)k, fn);
			}
		}
		if (cb) {
			uint64_t k, nt = gamedb_chessbase_get_text_count(cb);
			const char *sep = "";
			printf("encoding modes:");
			for (k = 0; k < 65; k++) {
				if (!modes[k])
					continue;
				if (k < 64)
					printf("%s %" PRIu64 " x%" PRIu64 "%s", sep, k, modes[k],
					       k >= 10 && k <= 11 ? " (Chess960)" :
					       k > 7 ? " (not read)" : "");
				else
					printf("%s unreadable x%" PRIu64, sep, modes[k]);
				sep = ",";
			}
			printf("%s\n", *sep ? "" : " none");
			printf("charset: %s\n", gamedb_chessbase_get_charset(cb));
			printf("guiding texts: %" PRIu64 "\n", nt);
			for (k = 0; k < nt; k++) {
				const char *title = NULL, *lang = NULL;
				if (gamedb_chessbase_load_text(cb, k) != GAMEDB_FAILED &&
				    gamedb_chessbase_get_text_title_count(cb) > 0)
					title = gamedb_chessbase_get_text_title(cb, 0, &lang);
				printf("text %" PRIu64 ": %s%s%s%s\n", k + 1, title ? title : "?",
				       lang && *lang ? " (" : "", lang && *lang ? lang : "",
				       lang && *lang ? ")" : "");
			}
		}
		if (i + 1 < o->ndbs)
			putchar('\n');
		gamedb_reader_free(r);
	}
	return status;
}

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

/* The temporary file, for the signal handler: a run stopped by a signal removes it. */
static char *volatile pending_tmp;

static void on_signal(int sig)
{
	char *tmp = pending_tmp;

	if (tmp)
		os_unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int output_open(struct output *out, const char *path)
{
	stat_t st;
	const char *slash;
	size_t dirlen;
#ifndef _WIN32
	mode_t mode, mask;
#endif
	int fd;

	out->f = stdout;
	out->path = path;
	out->target = NULL;
	out->tmp = NULL;
	if (!path)
		return 0;
	/* A symbolic link is written through, as a shell redirection would: its target is replaced. */
	out->target = os_realpath(path);
	if (out->target)
		path = out->target;
	if (os_stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, "gamedb: %s: is a directory\n", path);
			return -1;
		}
		out->f = os_fopen_write(path);
		if (!out->f) {
			fprintf(stderr, "gamedb: %s: %s\n", path, strerror(errno));
			return -1;
		}
		return 0;
	}
#ifndef _WIN32
	/* A file that is there keeps its permissions; a new one gets 0666 less the umask. */
	mask = umask(0);
	umask(mask);
	mode = stat(path, &st) == 0 ? (st.st_mode & 07777) : (0666 & ~mask);
#endif
	slash = strrchr(path, '/');
#ifdef _WIN32
	if (strrchr(path, '\\') > slash)
		slash = strrchr(path, '\\');
#endif
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	out->tmp = malloc(dirlen + sizeof ".gamedb-XXXXXX");
	if (!out->tmp) {
		fprintf(stderr, "gamedb: out of memory\n");
		return -1;
	}
	memcpy(out->tmp, path, dirlen);
	memcpy(out->tmp + dirlen, ".gamedb-XXXXXX", sizeof ".gamedb-XXXXXX");
	fd = os_mkstemp(out->tmp);
	if (fd < 0) {
		fprintf(stderr, "gamedb: %s: cannot create a file in its folder: %s\n", out->path,
			strerror(errno));
		free(out->tmp);
		out->tmp = NULL;
		return -1;
	}
	pending_tmp = out->tmp;
#ifdef _WIN32
	if (!(out->f = fdopen(fd, "wb"))) {
#else
	if (fchmod(fd, mode) != 0 || !(out->f = fdopen(fd, "w"))) {
#endif
		fprintf(stderr, "gamedb: %s: %s\n", out->tmp, strerror(errno));
		close(fd);
		out->f = NULL;
		return -1;
	}
	return 0;
}

/*
 * Finishes the output: flushes it and, when keep is set, renames the temporary file into
 * place; otherwise removes it. Returns 0, or -1 after a message.
 */
static int output_close(struct output *out, int keep)
{
	int rc = 0;

	if (out->f && (fflush(out->f) != 0 || ferror(out->f))) {
		fprintf(stderr, "gamedb: write error: %s\n", strerror(errno));
		keep = 0;
		rc = -1;
	}
	if (out->f && out->f != stdout && fclose(out->f) != 0 && rc == 0) {
		fprintf(stderr, "gamedb: write error: %s\n", strerror(errno));
		keep = 0;
		rc = -1;
	}
	out->f = NULL;
	if (out->tmp) {
		if (keep && os_replace(out->tmp, out->target ? out->target : out->path) != 0) {
			fprintf(stderr, "gamedb: %s: %s\n", out->path, strerror(errno));
			keep = 0;
			rc = -1;
		}
		if (!keep) {
			os_unlink(out->tmp);
			fprintf(stderr, "gamedb: %s: not written\n", out->path);
		}
		pending_tmp = NULL;
		free(out->tmp);
		out->tmp = NULL;
	}
	free(out->target);
	out->target = NULL;
	return rc;
}

/* 1 (after a message) if any open database reads the file at path, else 0. */
static int output_is_input(const char *path, struct gamedb_reader **rs, const struct opts *o)
{
	int i;

	for (i = 0; i < o->ndbs; i++) {
		int32_t used;
		if (!rs[i])
			continue;
		used = gamedb_reader_uses_file(rs[i], path);
		if (used == 1) {
			fprintf(stderr, "gamedb: %s: refusing to write over a file of the database %s\n",
				path, o->dbs[i]);
			return 1;
		}
		if (used < 0) {
			fprintf(stderr, "gamedb: %s: cannot tell whether it belongs to %s: %s\n", path,
				o->dbs[i], strerror(errno));
			return 1;
		}
	}
	return 0;
}

/* Writes the games of r to out; the exit status so far, updated. */
static int convert_one(struct gamedb_reader *r, const char *db, const struct opts *o, int mode,
		       FILE *out, struct gamedb_book *book, int status)
{
	struct gamedb_game *g;
	struct progress pr = { 0, 0, 0 };
	uint64_t done = 0, count = 0;
	static uint64_t json_n; /* objects written so far, over all databases */
	struct json_sink js;
	int32_t rc;

	js.out = out;
	js.file = db;
	js.n = &json_n;
	pr.on = isatty(STDERR_FILENO);
	if (gamedb_reader_game_count(r, &count) == GAMEDB_OK) {
		uint64_t end = o->to < count ? o->to : count;
		pr.total = end > o->from ? end - o->from : 0;
	}
	if (o->from > 0 && (gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK)) {
		if (o->from >= count) {
			fprintf(stderr, "gamedb: warning: %s: --range starts at game %" PRIu64
				" (counted from 0), past its %" PRIu64 " games\n", db, o->from, count);
			return status;
		}
		gamedb_reader_seek_game(r, o->from);
	}
	for (;;) {
		uint64_t idx;
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END)
			break;
		if (rc == GAMEDB_FATAL) {
			fprintf(stderr, "gamedb: %s: %s\n", db, gamedb_reader_errmsg(r));
			status = 2;
			break;
		}
		if (rc == GAMEDB_FAILED) {
			fprintf(stderr, "gamedb: %s: %s\n", db, gamedb_reader_errmsg(r));
			status = status ? status : 1;
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
		if (gamedb_game_is_deleted(g) && !o->include_deleted)
			continue;
		if (mode == OUT_BOOK) {
			rc = gamedb_book_add_game(book, g);
			if (rc == GAMEDB_FATAL) {
				fprintf(stderr, "gamedb: book: %s\n", gamedb_book_errmsg(book));
				return 2;
			}
			if (rc == GAMEDB_FAILED) {
				fprintf(stderr, "gamedb: %s: game %" PRIu64 ": %s\n", db, idx + 1,
					gamedb_book_errmsg(book));
				status = status ? status : 1;
			}
			continue;
		}
		rc = mode == OUT_JSON	   ? gamedb_game_write_json(g, o->wflags, sink_json, &js)
		     : mode == OUT_POSITIONS ? gamedb_game_write_positions(g, o->positions, o->wflags,
									    sink_file, out)
					     : gamedb_game_write_pgn(g, o->wflags, sink_file, out);
		if (rc == GAMEDB_FAILED) {
			if (ferror(out)) {
				fprintf(stderr, "gamedb: write error: %s\n", strerror(errno));
				return 2;
			}
			fprintf(stderr, "gamedb: %s: game %" PRIu64 ": %s\n", db, idx + 1,
				gamedb_game_errmsg(g));
			status = status ? status : 1;
		} else if (rc == GAMEDB_WARN && (o->wflags & GAMEDB_WRITE_PARTIAL)) {
			/* Written in part when its moves fail (a WARN may also be a lossy text). */
			struct gamedb_move_iter *it = NULL;
			if (gamedb_move_iter_new(g, 0, &it) == GAMEDB_FAILED) {
				fprintf(stderr, "gamedb: %s: game %" PRIu64 ": written in part: %s\n", db,
					idx + 1, gamedb_game_errmsg(g));
				status = status ? status : 1;
			}
			gamedb_move_iter_free(it);
		} else if (rc == GAMEDB_WARN && gamedb_game_errmsg(g)[0]) {
			/* Written whole with a warning (text read in the fallback charset or with
			 * loss, a field repaired): the message names the file and the game. */
			fprintf(stderr, "gamedb: warning: %s\n", gamedb_game_errmsg(g));
		}
	}
	progress_show(&pr, done, 1);
	return status;
}

/*
 * pgn and json. Every database is opened first, so that the output can be checked against
 * every file they read before it is created: the command never writes over its input.
 * The output is kept when the status is 0 or 1 (every database was read; some games may
 * have failed) and removed when it is 2.
 */
static int cmd_convert(const struct opts *o, int mode)
{
	static char outbuf[1 << 16];
	struct gamedb_reader **rs = calloc((size_t)o->ndbs, sizeof *rs);
	struct output out = { NULL, NULL, NULL, NULL };
	struct gamedb_book *book = NULL;
	int i, status = 0;

	if (!rs) {
		fprintf(stderr, "gamedb: out of memory\n");
		return 2;
	}
	if (mode == OUT_BOOK) {
		if (!o->out && isatty(STDOUT_FILENO)) {
			fprintf(stderr, "gamedb: book: a book is binary: give -o BOOK.bin\n");
			free(rs);
			return 2;
		}
		if (gamedb_book_new(&book) != GAMEDB_OK) {
			fprintf(stderr, "gamedb: out of memory\n");
			free(rs);
			return 2;
		}
		for (i = 0; i < o->nbookopt; i++) {
			if (gamedb_book_set_option(book, o->bookopt[i][0], o->bookopt[i][1]) != GAMEDB_OK) {
				fprintf(stderr, "gamedb: book: --%s %s: %s\n", o->bookopt[i][0],
					o->bookopt[i][1], gamedb_book_errmsg(book));
				gamedb_book_free(book);
				free(rs);
				return 2;
			}
		}
	}
	for (i = 0; i < o->ndbs; i++)
		if (!(rs[i] = open_db(o->dbs[i], o)))
			status = 2;
	if (o->out && output_is_input(o->out, rs, o)) {
		status = 2;
		goto done;
	}
	if (status == 2 && o->out) {
		fprintf(stderr, "gamedb: %s: not written\n", o->out);
		goto done;
	}
	if (output_open(&out, o->out) != 0) {
		output_close(&out, 0);
		status = 2;
		goto done;
	}
	setvbuf(out.f, outbuf, _IOFBF, sizeof outbuf);
	if (mode == OUT_POSITIONS && o->positions == GAMEDB_POSITIONS_CSV)
		fputs((o->wflags & GAMEDB_WRITE_KEY) ? "game,ply,fen,move,result,key\n"
						       : "game,ply,fen,move,result\n",
		      out.f);
	for (i = 0; i < o->ndbs && !ferror(out.f); i++) {
		if (!rs[i])
			continue; /* not opened (standard output only): the others are still written */
		status = convert_one(rs[i], o->dbs[i], o, mode, out.f, book, status);
		gamedb_reader_free(rs[i]);
		rs[i] = NULL;
		if (status == 2 && mode == OUT_BOOK)
			break;
	}
	if (mode == OUT_BOOK && status != 2 && gamedb_book_write(book, sink_file, out.f) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: book: %s\n", ferror(out.f) ? strerror(errno)
							  : gamedb_book_errmsg(book));
		status = 2;
	}
	if (output_close(&out, status != 2) != 0)
		status = 2;
done:
	for (i = 0; i < o->ndbs; i++)
		gamedb_reader_free(rs[i]);
	free(rs);
	gamedb_book_free(book);
	return status;
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

#ifdef _WIN32
static int utf8_main(int argc, char **argv);

/* Windows: the arguments as UTF-8 (argv would be in the ANSI code page), binary stdio. */
int wmain(int argc, wchar_t **wargv);
int wmain(int argc, wchar_t **wargv)
{
	char **argv = calloc((size_t)argc + 1, sizeof *argv);
	int i;

	if (!argv)
		return 2;
	for (i = 0; i < argc; i++) {
		argv[i] = narrow(wargv[i]);
		if (!argv[i]) {
			fprintf(stderr, "gamedb: out of memory\n");
			return 2;
		}
	}
	_setmode(_fileno(stdout), _O_BINARY);
	_setmode(_fileno(stdin), _O_BINARY);
	i = utf8_main(argc, argv);
	fflush(stdout);
	return i;
}

static int utf8_main(int argc, char **argv)
#else
int main(int argc, char **argv)
#endif
{
	struct opts o;
	int i;

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
		const char *a = argv[i];
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
			if (++i == argc)
				goto missing;
			o.out = argv[i];
		} else if (strcmp(a, "--range") == 0) {
			if (++i == argc)
				goto missing;
			if (parse_range(argv[i], &o) != 0) {
				fprintf(stderr, "gamedb: --range wants A:B with A <= B, got \"%s\"\n", argv[i]);
				goto fail;
			}
		} else if (strncmp(a, "--range=", 8) == 0) {
			if (parse_range(a + 8, &o) != 0) {
				fprintf(stderr, "gamedb: --range wants A:B with A <= B, got \"%s\"\n", a + 8);
				goto fail;
			}
		} else if (strcmp(a, "--charset") == 0) {
			if (++i == argc)
				goto missing;
			o.charset = argv[i];
		} else if (strcmp(a, "--direction") == 0) {
			if (++i == argc)
				goto missing;
			if (strcmp(argv[i], "auto") != 0 && strcmp(argv[i], "right") != 0 &&
			    strcmp(argv[i], "left") != 0) {
				fprintf(stderr, "gamedb: --direction wants auto, right or left, got "
					"\"%s\"\n", argv[i]);
				goto fail;
			}
			o.direction = argv[i];
		} else if (strcmp(a, "--password") == 0) {
			if (++i == argc)
				goto missing;
			o.password = argv[i];
		} else if (strcmp(a, "--layout") == 0) {
			if (++i == argc)
				goto missing;
			if (strcmp(argv[i], "scid") == 0) {
				o.wflags |= GAMEDB_WRITE_LAYOUT_SCID;
			} else if (strcmp(argv[i], "standard") == 0) {
				o.wflags &= ~(uint32_t)GAMEDB_WRITE_LAYOUT_SCID;
			} else {
				fprintf(stderr, "gamedb: --layout wants standard or scid, got \"%s\"\n",
					argv[i]);
				goto fail;
			}
		} else if (strcmp(a, "--commands") == 0) {
			if (++i == argc)
				goto missing;
			o.wflags &= ~(uint32_t)(GAMEDB_WRITE_ALL_COMMANDS | GAMEDB_WRITE_NO_COMMANDS);
			if (strcmp(argv[i], "all") == 0) {
				o.wflags |= GAMEDB_WRITE_ALL_COMMANDS;
			} else if (strcmp(argv[i], "none") == 0) {
				o.wflags |= GAMEDB_WRITE_NO_COMMANDS;
			} else if (strcmp(argv[i], "common") != 0) {
				fprintf(stderr, "gamedb: --commands wants common, all or none, got \"%s\"\n",
					argv[i]);
				goto fail;
			}
		} else if (strcmp(a, "--games") == 0) {
			if (++i == argc)
				goto missing;
			if (parse_games(argv[i], &o) != 0) {
				fprintf(stderr, "gamedb: --games wants numbers from 1 and ranges, as "
					"1,5,10-20, got \"%s\"\n", argv[i]);
				goto fail;
			}
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
			if (++i == argc)
				goto missing;
			o.language = argv[i];
		} else if (strcmp(a, "--notation") == 0) {
			if (++i == argc)
				goto missing;
			o.wflags &= ~(uint32_t)(GAMEDB_WRITE_WXF | GAMEDB_WRITE_CHINESE);
			if (strcmp(argv[i], "wxf") == 0) {
				o.wflags |= GAMEDB_WRITE_WXF;
			} else if (strcmp(argv[i], "chinese") == 0) {
				o.wflags |= GAMEDB_WRITE_CHINESE;
			} else if (strcmp(argv[i], "iccs") != 0) {
				fprintf(stderr, "gamedb: --notation wants iccs, wxf or chinese, got \"%s\"\n",
					argv[i]);
				goto fail;
			}
		} else if (strcmp(o.cmd, "book") == 0 && a[0] == '-' && a[1] &&
			   (book_key(a) != NULL)) {
			/* PolyGlot's spellings (-max-ply) and ours (--max-ply) */
			const char *key = book_key(a);
			int flag = !strcmp(key, "only-white") || !strcmp(key, "only-black") ||
				   !strcmp(key, "uniform") || !strcmp(key, "standard-start");
			if (!flag && ++i == argc)
				goto missing;
			if (o.nbookopt == (int)(sizeof o.bookopt / sizeof o.bookopt[0])) {
				fprintf(stderr, "gamedb: too many book options\n");
				goto fail;
			}
			o.bookopt[o.nbookopt][0] = key;
			o.bookopt[o.nbookopt][1] = flag ? "1" : argv[i];
			o.nbookopt++;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "gamedb: unknown option \"%s\"\n", a);
			usage(stderr);
			goto fail;
		} else {
			o.dbs[o.ndbs++] = a;
		}
	}
	if (o.ndbs == 0) {
		fprintf(stderr, "gamedb: no database given\n");
		usage(stderr);
		goto fail;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
#ifdef SIGHUP
	signal(SIGHUP, on_signal);
#endif
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
