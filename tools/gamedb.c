/*
 * gamedb - convert legacy game databases to PGN or JSON Lines, or describe them.
 *
 *   gamedb COMMAND [OPTION]... DB...   (info, pgn, json, fen, epd, uci, positions, book,
 *                                        search, tree, index)
 *   gamedb COMMAND --help, gamedb help [COMMAND], gamedb --version
 *
 * The options of each command are in cmdline.c's option table, which both parses the command
 * line and writes each command's help; the formats and their options come from the library's
 * registry. Games are counted from 1 everywhere the user sees them (--range FIRST-LAST,
 * --games, the messages, the EPD id).
 *
 * Exit status: 0 all good, 1 some games failed, 2 a database cannot be opened or read (the
 * others are written), the output cannot be written, or bad usage.
 *
 * This file: main(), the command table and the usage; gamedb-tool.h lists the others.
 */
#include "gamedb-tool.h"

#include <ctype.h>
#include <string.h>

/* The commands: what each does, how it converts (info: -1) and the positions it writes. */
static const struct command {
	const char *name;
	unsigned bit;
	int mode;
	int32_t positions; /* a gamedb_positions_format, or 0 */
	const char *args, *what;
} commands[] = {
	{ "info", C_INFO, -1, 0, "DB...", "describe each database: format, games, what it records" },
	{ "pgn", C_PGN, OUT_PGN, 0, "DB...", "write the games as PGN" },
	{ "json", C_JSON, OUT_JSON, 0, "DB...", "write the games as JSON Lines, one object per game" },
	{ "fen", C_FEN, OUT_POSITIONS, GAMEDB_POSITIONS_FEN, "DB...",
	  "write game, ply and FEN of each position of the main lines" },
	{ "epd", C_EPD, OUT_POSITIONS, GAMEDB_POSITIONS_EPD, "DB...",
	  "write each position as EPD (id, c0 result, hmvc, fmvn)" },
	{ "uci", C_UCI, OUT_POSITIONS, GAMEDB_POSITIONS_UCI, "DB...",
	  "write a UCI 'position ... moves ...' line per game" },
	{ "positions", C_POSITIONS, OUT_POSITIONS, GAMEDB_POSITIONS_JSON, "DB...",
	  "write FEN, move, result, ply, game per position" },
	{ "book", C_BOOK, OUT_BOOK, 0, "DB... -o BOOK.bin",
	  "make a Polyglot opening book from the games' main lines" },
	{ "search", C_SEARCH, OUT_JSON, 0, "(--fen FEN | --moves MOVES) [--where F]... DB...",
	  "write the games that reach a position (JSON Lines, or --pgn)" },
	{ "tree", C_TREE, -2, 0, "(--fen FEN | --moves MOVES) DB...",
	  "list the moves played from a position, with results and score (as Scid's tree)" },
	{ "index", C_INDEX, -3, 0, "DB... -o FILE",
	  "build a position index of the games' main lines (for search and tree --index)" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *find_command(const char *name)
{
	size_t k;

	for (k = 0; k < NCOMMANDS; k++)
		if (strcmp(name, commands[k].name) == 0)
			return &commands[k];
	return NULL;
}

/* The formats of the library's registry: name, the extensions a base is opened by, what. */
static void formats_help(FILE *f)
{
	size_t i;

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
}

void usage(FILE *f)
{
	size_t k;

	fputs("usage: gamedb COMMAND [OPTION]... DB...\n"
	      "       gamedb COMMAND --help | gamedb help [COMMAND] | gamedb --version\n"
	      "\n"
	      "Commands:\n",
	      f);
	for (k = 0; k < NCOMMANDS; k++)
		fprintf(f, "  %-11s %s\n", commands[k].name, commands[k].what);
	fputs("  book-probe  BOOK --fen FEN [--json]: the moves an opening book (.abk, .ctg) has for a position\n"
	      "  book-dump   BOOK [--max-ply N] --json: every position of the book, JSON Lines\n"
	      "  book --from BOOK -o OUT.bin: convert an opening book (.abk, .ctg) to Polyglot\n",
	      f);
	fputs("\n"
	      "DB is a database file or its base name (base for base.si4); - reads standard\n"
	      "input as a stream (style 12 logs). Formats, and the files a base is opened by:\n",
	      f);
	formats_help(f);
	fputs("\n"
	      "Games are counted from 1 (--games, the messages). A database that cannot be\n"
	      "opened costs only its own games; when anything failed, a line per database ends\n"
	      "the run. Exit status: 0 all good, 1 some games failed, 2 a database could not be\n"
	      "opened or read (the others are written), the output could not be written, or\n"
	      "bad usage.\n"
	      "'gamedb COMMAND --help' lists the options of a command; man gamedb says more.\n",
	      f);
}

void command_usage(FILE *f, const char *cmd)
{
	const struct command *c = find_command(cmd);

	if (!c)
		return;
	fprintf(f, "usage: gamedb %s [OPTION]... %s\n%c%s.\n", c->name, c->args,
		toupper((unsigned char)c->what[0]), c->what + 1);
	options_help(f, c->bit);
	fputs("\nDB: a database file or its base name, - for standard input (gamedb --help lists\n"
	      "the formats). --name=value is --name value.\n",
	      f);
}

void try_help(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "Try 'gamedb %s --help'.\n", cmd);
	else
		fputs("Try 'gamedb --help'.\n", stderr);
}

#ifndef _WIN32 /* (Windows: wmain() in win.c) */
int main(int argc, char **argv)
{
	return finish_stdout(run(argc, argv));
}
#endif

int run(int argc, char **argv)
{
	const struct command *c = NULL;
	struct opts o;
	int rc;

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
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    (strcmp(argv[1], "help") == 0 && argc == 2)) {
		usage(stdout);
		return 0;
	}
	if (is_books_command(argc, argv))
		return cmd_books(argc, argv);
	if (strcmp(argv[1], "help") == 0) { /* gamedb help COMMAND */
		if (argc == 3 && (c = find_command(argv[2])) != NULL) {
			command_usage(stdout, c->name);
			return 0;
		}
		fprintf(stderr, argc == 3 ? "gamedb: help: unknown command \"%s\"\n"
					  : "gamedb: help takes one command\n", argv[2]);
		try_help(NULL);
		return 2;
	}
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "gamedb: unknown command \"%s\"\n", argv[1]);
		try_help(NULL);
		return 2;
	}
	o.cmd = c->name;
	o.cmdbit = c->bit;
	o.positions = c->positions;
	rc = parse_command_line(argc, argv, &o);
	if (rc != 0) {
		opts_free(&o);
		return rc > 0 ? 0 : 2;
	}
	if (o.jobs == 0)
		o.jobs = online_cores();
	catch_signals();
	if (c->bit == C_SEARCH && !o.qfen && !o.qmoves && o.nwhere == 0) {
		fprintf(stderr, "gamedb: search: give a position (--fen, --moves) or a filter (--where)\n");
		try_help(c->name);
		opts_free(&o);
		return 2;
	}
	rc = c->mode == -1 ? cmd_info(&o) : c->mode == -2 ? cmd_tree(&o) : c->mode == -3 ? cmd_index(&o)
	     : cmd_convert(&o, c->bit == C_SEARCH && o.search_pgn ? OUT_PGN : c->mode);
	opts_free(&o);
	return rc;
}
