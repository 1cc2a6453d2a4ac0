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
 *
 * This file: main(), the command table and the usage; gamedb-tool.h lists the others.
 */
#include "gamedb-tool.h"

#include <string.h>

void usage(FILE *f)
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

#ifndef _WIN32 /* (Windows: wmain() in win.c) */
int main(int argc, char **argv)
{
	return finish_stdout(run(argc, argv));
}
#endif

/* The commands: how each converts (info: -1) and the positions it writes. */
static const struct command {
	const char *name;
	int mode;
	int32_t positions; /* a gamedb_positions_format, or 0 */
} commands[] = {
	{ "info", -1, 0 },
	{ "pgn", OUT_PGN, 0 },
	{ "json", OUT_JSON, 0 },
	{ "fen", OUT_POSITIONS, GAMEDB_POSITIONS_FEN },
	{ "epd", OUT_POSITIONS, GAMEDB_POSITIONS_EPD },
	{ "uci", OUT_POSITIONS, GAMEDB_POSITIONS_UCI },
	{ "positions", OUT_POSITIONS, GAMEDB_POSITIONS_JSON },
	{ "book", OUT_BOOK, 0 },
};

int run(int argc, char **argv)
{
	const struct command *c = NULL;
	struct opts o;
	size_t k;
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
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	for (k = 0; k < sizeof commands / sizeof commands[0] && !c; k++)
		if (strcmp(argv[1], commands[k].name) == 0)
			c = &commands[k];
	if (!c) {
		fprintf(stderr, "gamedb: unknown command \"%s\"\n", argv[1]);
		usage(stderr);
		return 2;
	}
	o.cmd = c->name;
	o.positions = c->positions;
	rc = parse_command_line(argc, argv, &o);
	if (rc != 0) {
		opts_free(&o);
		return rc > 0 ? 0 : 2;
	}
	if (o.jobs == 0)
		o.jobs = online_cores();
	catch_signals();
	rc = c->mode < 0 ? cmd_info(&o) : cmd_convert(&o, c->mode);
	opts_free(&o);
	return rc;
}
