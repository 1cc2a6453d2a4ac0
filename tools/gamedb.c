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
