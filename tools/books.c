/*
 * gamedb book-probe, book-dump and book --from: opening books of other programs (Arena .abk,
 * ChessBase .ctg) read through the library's gamedb_book_reader_*.
 *
 *   gamedb book-probe BOOK --fen FEN [--json]     the book moves of one position
 *   gamedb book-dump BOOK [--max-ply N] --json    every position of the walk, JSON Lines
 *   gamedb book --from BOOK -o OUT.bin            the whole book converted to Polyglot
 *
 * JSON: {"fen": ..., "ply": N, "stats": {the position's own, when the format stores any},
 * "moves": [{"uci", "san", "weight", the format's statistics}]}.
 * Exit status: 0 all delivered (warnings allowed), 1 some moves or positions left out (each
 * reported on standard error), 2 the book cannot be opened, bad usage, or output lost.
 */
#include "gamedb-tool.h"

#include <stdlib.h>
#include <string.h>

static void put_moves_json(struct gamedb_book_reader *br, FILE *f)
{
	int32_t i, k;

	fputs("\"moves\":[", f);
	for (i = 0; i < gamedb_book_reader_move_count(br); i++) {
		const char *name;
		fprintf(f, "%s{\"uci\":\"%s\",\"san\":\"%s\"", i ? "," : "",
			gamedb_book_reader_move_get_uci(br, i), gamedb_book_reader_move_get_san(br, i));
		for (k = 0; (name = gamedb_book_reader_stat_name(br, k)) != NULL; k++) {
			int64_t v = 0;
			gamedb_book_reader_move_get_stat(br, i, name, &v);
			fprintf(f, ",\"%s\":%lld", name, (long long)v);
		}
		fputc('}', f);
	}
	fputc(']', f);
}

static void put_position_json(struct gamedb_book_reader *br, FILE *f, int with_ply)
{
	const char *name;
	int64_t v;
	int32_t k;

	fprintf(f, "{\"fen\":\"%s\",", gamedb_book_reader_get_fen(br));
	if (with_ply)
		fprintf(f, "\"ply\":%d,", (int)gamedb_book_reader_get_ply(br));
	/* the position's own statistics, when the format stores any (ChessBase) */
	for (k = 0; (name = gamedb_book_reader_position_stat_name(br, k)) != NULL; k++)
		if (gamedb_book_reader_get_stat(br, name, &v) == GAMEDB_OK)
			fprintf(f, "%s\"%s\":%lld%s", k ? "," : "\"stats\":{", name, (long long)v,
				gamedb_book_reader_position_stat_name(br, k + 1) ? "" : "},");
	put_moves_json(br, f);
	fputs("}\n", f);
}

static void book_commands(FILE *f)
{
	fputs("usage: gamedb book-probe BOOK --fen FEN [--json]\n"
	      "       gamedb book-dump BOOK [--max-ply N] --json\n"
	      "       gamedb book --from BOOK -o OUT.bin\n", f);
}

static int book_usage(const char *cmd, const char *msg)
{
	fprintf(stderr, "gamedb: %s: %s\n", cmd, msg);
	book_commands(stderr);
	return 2;
}

/* gamedb book-probe --help (and the others): what they do, on standard output. */
static int book_help(void)
{
	book_commands(stdout);
	fputs("\nOpening books of other programs: Arena (.abk) and ChessBase (.ctg, with its .ctb and\n"
	      ".cto beside it).\n"
	      "  book-probe  the book's moves for the position FEN: SAN, UCI and weight a line, or\n"
	      "              with --json one object with every statistic the format stores\n"
	      "  book-dump   every position reached from the start through book moves, each once,\n"
	      "              as JSON Lines (at most N plies from the start with --max-ply)\n"
	      "  book --from the book as a Polyglot book (weights: doc/formats/abk.md, ctg.md)\n"
	      "Exit status: 0 all read, 1 moves of the book left out (said on standard error),\n"
	      "2 the book cannot be opened, bad usage, or output lost. man gamedb says more.\n",
	      stdout);
	return 0;
}

/* Opens the book; NULL after a message. A warning of the open is said and counted. */
static struct gamedb_book_reader *open_book(const char *path, int *warned)
{
	struct gamedb_book_reader *br;
	int32_t st;

	if (gamedb_book_reader_new(&br) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: out of memory\n");
		return NULL;
	}
	st = gamedb_book_reader_open_filename(br, path);
	if (st == GAMEDB_FATAL) {
		fprintf(stderr, "gamedb: %s\n", gamedb_book_reader_errmsg(br));
		gamedb_book_reader_free(br);
		return NULL;
	}
	if (*gamedb_book_reader_errmsg(br))
		fprintf(stderr, "gamedb: %s\n", gamedb_book_reader_errmsg(br));
	if (st == GAMEDB_WARN)
		*warned = 1;
	return br;
}

static int cmd_book_probe(int argc, char **argv)
{
	const char *book = NULL, *fen = NULL;
	struct gamedb_book_reader *br;
	int json = 0, warned = 0, i, rc = 0;
	int32_t st;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--fen") && i + 1 < argc)
			fen = argv[++i];
		else if (!strncmp(argv[i], "--fen=", 6))
			fen = argv[i] + 6;
		else if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (argv[i][0] == '-' || book)
			return book_usage(argv[1], "bad argument");
		else
			book = argv[i];
	}
	if (!book || !fen)
		return book_usage(argv[1], "a book and --fen FEN are needed");
	if (!(br = open_book(book, &warned)))
		return 2;
	st = gamedb_book_reader_probe(br, fen);
	if (st == GAMEDB_FAILED) {
		fprintf(stderr, "gamedb: %s\n", gamedb_book_reader_errmsg(br));
		gamedb_book_reader_free(br);
		return 2;
	}
	if (st == GAMEDB_WARN) {
		fprintf(stderr, "gamedb: %s: %s\n", book, gamedb_book_reader_errmsg(br));
		rc = 1;
	}
	if (json)
		put_position_json(br, stdout, 0);
	else
		for (i = 0; i < gamedb_book_reader_move_count(br); i++) {
			int64_t w = 0;
			gamedb_book_reader_move_get_stat(br, i, "weight", &w);
			printf("%-7s %-6s %lld\n", gamedb_book_reader_move_get_san(br, i),
			       gamedb_book_reader_move_get_uci(br, i), (long long)w);
		}
	gamedb_book_reader_free(br);
	return rc;
}

static int cmd_book_dump(int argc, char **argv)
{
	const char *book = NULL;
	struct gamedb_book_reader *br;
	long max_ply = -1;
	int json = 0, warned = 0, i, rc = 0;
	unsigned long npos = 0, nbad = 0;
	int32_t st;

	for (i = 2; i < argc; i++) {
		const char *v = NULL;
		char *end;
		if (!strcmp(argv[i], "--max-ply") && i + 1 < argc)
			v = argv[++i];
		else if (!strncmp(argv[i], "--max-ply=", 10))
			v = argv[i] + 10;
		else if (!strcmp(argv[i], "--json")) {
			json = 1;
			continue;
		} else if (argv[i][0] == '-' || book)
			return book_usage(argv[1], "bad argument");
		else {
			book = argv[i];
			continue;
		}
		max_ply = strtol(v, &end, 10);
		if (*end || end == v || max_ply < 0 || max_ply > 100000)
			return book_usage(argv[1], "--max-ply takes a number from 0");
	}
	if (!book || !json)
		return book_usage(argv[1], "a book and --json are needed");
	if (!(br = open_book(book, &warned)))
		return 2;
	gamedb_book_reader_walk(br, (int32_t)max_ply);
	while ((st = gamedb_book_reader_next_position(br)) != GAMEDB_END) {
		if (st == GAMEDB_FATAL) {
			fprintf(stderr, "gamedb: %s: %s\n", book, gamedb_book_reader_errmsg(br));
			rc = 2;
			break;
		}
		if (st == GAMEDB_WARN || st == GAMEDB_FAILED) {
			fprintf(stderr, "gamedb: %s: %s\n", book, gamedb_book_reader_errmsg(br));
			nbad++;
			rc = rc ? rc : 1;
		}
		npos++;
		if (st != GAMEDB_FAILED)
			put_position_json(br, stdout, 1);
	}
	if (nbad)
		fprintf(stderr, "gamedb: %s: %lu positions written, %lu with moves left out\n", book,
			npos, nbad);
	gamedb_book_reader_free(br);
	return rc;
}

static int cmd_book_from(int argc, char **argv)
{
	const char *book = NULL, *path = NULL;
	struct gamedb_book_reader *br;
	struct output out;
	int warned = 0, i, rc = 0;
	int32_t st;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--from") && i + 1 < argc && !book)
			book = argv[++i];
		else if (!strncmp(argv[i], "--from=", 7) && !book)
			book = argv[i] + 7;
		else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc)
			path = argv[++i];
		else if (!strncmp(argv[i], "--output=", 9))
			path = argv[i] + 9;
		else
			return book_usage("book", "--from BOOK takes only -o OUT.bin");
	}
	if (!book || !path)
		return book_usage("book", "--from BOOK needs -o OUT.bin");
	if (!(br = open_book(book, &warned)))
		return 2;
	if (output_open(&out, path) != 0) {
		gamedb_book_reader_free(br);
		return 2;
	}
	st = gamedb_book_reader_write_polyglot(br, sink_file, out.f);
	if (st == GAMEDB_WARN) {
		fprintf(stderr, "gamedb: %s: %s\n", book, gamedb_book_reader_errmsg(br));
		rc = 1;
	} else if (st != GAMEDB_OK) {
		fprintf(stderr, "gamedb: %s: %s\n", book, gamedb_book_reader_errmsg(br));
		rc = 2;
	}
	if (output_close(&out, rc != 2) != 0)
		rc = 2;
	gamedb_book_reader_free(br);
	return rc;
}

int cmd_books(int argc, char **argv)
{
	int i;

	if (!strcmp(argv[1], "help"))
		return book_help();
	for (i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return book_help();
	if (!strcmp(argv[1], "book-probe"))
		return cmd_book_probe(argc, argv);
	if (!strcmp(argv[1], "book-dump"))
		return cmd_book_dump(argc, argv);
	return cmd_book_from(argc, argv);
}

/*
 * 1 when the command line is one of this file's (book --from is, book alone is not; gamedb
 * help book-probe and help book-dump are, as their --help).
 */
int is_books_command(int argc, char **argv)
{
	int i;

	if (argc < 2)
		return 0;
	if (!strcmp(argv[1], "book-probe") || !strcmp(argv[1], "book-dump"))
		return 1;
	if (argc == 3 && !strcmp(argv[1], "help") &&
	    (!strcmp(argv[2], "book-probe") || !strcmp(argv[2], "book-dump")))
		return 1;
	if (strcmp(argv[1], "book") != 0)
		return 0;
	for (i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--from") || !strncmp(argv[i], "--from=", 7))
			return 1;
	return 0;
}
