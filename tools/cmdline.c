/*
 * The command line: an option table (one entry per option, with the kind of its argument),
 * the book options (ours, --max-ply, and PolyGlot's, -max-ply), and the options of the
 * database formats, which are not listed here: they come from the library's registry
 * (gamedb_format_get_option()), so that a format's new option is a new option of the command
 * with no code here. `--KEY VALUE` and `--KEY=VALUE` set it on every reader, through
 * gamedb_reader_set_option(r, NULL, KEY, VALUE) after the open (input.c).
 */
#include "gamedb-tool.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * --range FIRST-LAST: games FIRST to LAST, both included, counted from 1 as --games, the
 * messages and the EPD id count them; either side may be left out (5-, -9). The form of
 * before, A:B (games A to B-1 counted from 0), is still taken for old scripts, with a note
 * (*old set). Sets o->from and o->to (0-based, half-open). 0, or -1 on a bad range.
 */
static int parse_range(const char *arg, struct opts *o, int *old)
{
	const char *sep = strchr(arg, '-');
	char a[32];
	size_t alen;

	*old = sep == NULL;
	if (!sep)
		sep = strchr(arg, ':');
	if (!sep || strchr(sep + 1, *sep) || (*sep == '-' && strchr(arg, ':')))
		return -1;
	alen = (size_t)(sep - arg);
	if (alen >= sizeof a)
		return -1;
	memcpy(a, arg, alen);
	a[alen] = 0;
	o->from = *old ? 0 : 1;
	o->to = UINT64_MAX;
	if (alen && parse_u64(a, &o->from) != 0)
		return -1;
	if (sep[1] && parse_u64(sep + 1, &o->to) != 0)
		return -1;
	if (!*old) {
		if (o->from == 0 || o->to == 0 || o->from > o->to)
			return -1;
		o->from--; /* games FIRST..LAST, from 1: [FIRST - 1, LAST) from 0 */
	}
	return o->from <= o->to ? 0 : -1;
}

/*
 * The book's options (gamedb_book_set_option()'s keys), spelled --max-ply or, as PolyGlot
 * spells them, -max-ply; a flag (no arg) is set to 1.
 */
static const struct book_option {
	const char *key, *arg, *help;
} book_options[] = {
	{ "max-ply", "N", "plies of each game counted (default 1024)" },
	{ "min-game", "N", "games a move needs to be in the book (default 3)" },
	{ "min-score", "PCT", "lowest score of a move, in percent (default 0)" },
	{ "only-white", NULL, "only the positions with white to move" },
	{ "only-black", NULL, "only the positions with black to move" },
	{ "uniform", NULL, "every weight 1" },
	{ "standard-start", NULL, "leave out games from set-up positions" },
	{ "memory", "MIB", "table size before it spills to files (default 256)" },
};

/* The book option an argument names ("--max-ply" or PolyGlot's "-max-ply"), or NULL. */
static const struct book_option *book_key(const char *a)
{
	size_t k;

	a += a[1] == '-' ? 2 : 1;
	for (k = 0; k < sizeof book_options / sizeof book_options[0]; k++)
		if (strcmp(a, book_options[k].key) == 0)
			return &book_options[k];
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


/* The kinds of argument an option takes, and what it does with it. */
enum kind {
	K_FLAG,   /* none: sets bits of the write flags */
	K_SET,    /* none: sets an int of struct opts to 1 */
	K_STRING, /* a value, kept as it is in a field of struct opts */
	K_CHOICE, /* a value among choices: the bits of the write flags they share become the
		     chosen one's */
	K_FUNC,   /* a value (or none: arg 0), taken by a function */
};

struct choice {
	const char *name;
	uint32_t bits;
};

struct option {
	const char *name;  /* "--range" */
	const char *alias; /* the short spelling ("-o"), or NULL */
	unsigned cmds;     /* the commands it is for (C_PGN | ...), as the help lists it */
	const char *arg;   /* its value in the help ("FILE"), NULL for K_CHOICE (the choices) */
	const char *help;  /* one line of help */
	enum kind kind;
	size_t field;      /* K_SET, K_STRING: offsetof() the field of struct opts */
	uint32_t bits;     /* K_FLAG: the flags set; K_CHOICE: the flags its choices replace */
	const struct choice *choices; /* K_CHOICE: the values, the first the default */
	/* K_FUNC: 0, or -1 after a message, or 1 when it is no option of this command */
	int (*take)(struct opts *o, const char *v);
	int value;         /* K_FUNC: takes a value */
};

static int take_range(struct opts *o, const char *v)
{
	int old;

	if (parse_range(v, o, &old) != 0) {
		fprintf(stderr, "gamedb: --range wants FIRST-LAST, games counted from 1 with "
			"FIRST <= LAST (5-9, 5-, -9), got \"%s\"\n", v);
		return -1;
	}
	if (old) {
		/* The same games in the one numbering: A:B is A+1-B. */
		char first[24] = "", last[24] = "";
		if (o->from > 0)
			snprintf(first, sizeof first, "%" PRIu64, o->from + 1);
		if (o->to != UINT64_MAX)
			snprintf(last, sizeof last, "%" PRIu64, o->to);
		fprintf(stderr, "gamedb: note: --range %s counts games from 0 and leaves out the "
			"last (the old form, kept for scripts); games are counted from 1: write "
			"--range %s-%s\n", v, first, last);
	}
	return 0;
}

static int take_games(struct opts *o, const char *v)
{
	if (parse_games(v, o) == 0)
		return 0;
	fprintf(stderr, "gamedb: --games wants numbers from 1 and ranges, as 1,5,10-20, got "
		"\"%s\"\n", v);
	return -1;
}

static int take_jobs(struct opts *o, const char *v)
{
	uint64_t n;

	if (parse_u64(v, &n) != 0 || n < 1 || n > 256) {
		fprintf(stderr, "gamedb: --jobs wants a number from 1 to 256, got \"%s\"\n", v);
		return -1;
	}
	o->jobs = (int)n;
	return 0;
}

/* --csv: positions as CSV, for the commands that write positions only. */
static int take_csv(struct opts *o, const char *v)
{
	(void)v;
	if (!o->positions)
		return 1;
	o->positions = GAMEDB_POSITIONS_CSV;
	return 0;
}

/* --where: a header filter, kept as given (checked by tree.c's make_query() before the run). */
static int take_where(struct opts *o, const char *v)
{
	if (!o->where) {
		o->where = calloc(64, sizeof *o->where);
		if (!o->where) {
			fprintf(stderr, "gamedb: out of memory\n");
			return -1;
		}
	}
	if (o->nwhere == 64) {
		fprintf(stderr, "gamedb: --where: at most 64 filters\n");
		return -1;
	}
	o->where[o->nwhere++] = v;
	return 0;
}

/* search: --pgn writes the games as PGN, --json (the default) as JSON Lines; tree: --json. */
static int take_pgn(struct opts *o, const char *v)
{
	(void)v;
	o->search_pgn = 1;
	return 0;
}

static int take_json(struct opts *o, const char *v)
{
	(void)v;
	o->search_pgn = 0;
	o->tree_json = 1;
	return 0;
}

static const struct choice layouts[] = {
	{ "standard", 0 }, { "scid", GAMEDB_WRITE_LAYOUT_SCID }, { NULL, 0 }
};
static const struct choice command_sets[] = {
	{ "common", 0 }, { "all", GAMEDB_WRITE_ALL_COMMANDS }, { "none", GAMEDB_WRITE_NO_COMMANDS },
	{ NULL, 0 }
};
static const struct choice notations[] = {
	{ "iccs", 0 }, { "wxf", GAMEDB_WRITE_WXF }, { "chinese", GAMEDB_WRITE_CHINESE }, { NULL, 0 }
};

#define FIELD(f) offsetof(struct opts, f)
/*
 * The options of the command itself. --charset and --password are options every format
 * shares (the registry does not list them): set before the open, where the archive's password
 * is needed and the charset read by the open itself.
 */
#define ALL (C_INFO | C_PGN | C_JSON | C_FEN | C_EPD | C_UCI | C_POSITIONS | C_BOOK | C_SEARCH | \
	     C_TREE | C_INDEX)
#define GAMES (ALL & ~C_INFO & ~C_INDEX) /* the commands that read games (index: all of them) */
#define TEXT (C_PGN | C_JSON | C_SEARCH) /* the commands that write a game's text */
#define POS (C_SEARCH | C_TREE)  /* the commands that take a position */
#define KEYS (C_JSON | C_FEN | C_EPD | C_UCI | C_POSITIONS)
static const struct option options[] = {
	{ "--output", "-o", GAMES | C_INDEX, "FILE", "write to FILE, whole or not at all (-: stdout)",
	  K_STRING, FIELD(out), 0, NULL, NULL, 0 },
	{ "--range", NULL, GAMES, "FIRST-LAST", "games FIRST to LAST, counted from 1 (5-9, 5-, -9)",
	  K_FUNC, 0, 0, NULL, take_range, 1 },
	{ "--games", NULL, GAMES, "LIST", "only these games, counted from 1 (1,5,10-20)",
	  K_FUNC, 0, 0, NULL, take_games, 1 },
	{ "--include-deleted", NULL, GAMES, NULL, "also the games marked deleted",
	  K_SET, FIELD(include_deleted), 0, NULL, NULL, 0 },
	{ "--jobs", "-j", GAMES & ~C_BOOK, "N", "decode N games at once (default: the cores)",
	  K_FUNC, 0, 0, NULL, take_jobs, 1 },
	{ "--fen", NULL, POS, "FEN", "the position: FEN (chess or xiangqi; with --moves: played from it)",
	  K_STRING, FIELD(qfen), 0, NULL, NULL, 0 },
	{ "--moves", NULL, POS, "MOVES", "the position after MOVES from the start (\"e4 c5\"; xiangqi: ICCS)",
	  K_STRING, FIELD(qmoves), 0, NULL, NULL, 0 },
	{ "--where", NULL, GAMES, "TAG OP VALUE", "only games whose tag passes (White~Carlsen, Date>=1995, "
	  "ECO=B90; OP = <> < <= > >= ~); repeat: all must pass", K_FUNC, 0, 0, NULL, take_where, 1 },
	{ "--index", NULL, POS, "FILE", "find the games through FILE, a position index (gamedb index)",
	  K_STRING, FIELD(index), 0, NULL, NULL, 0 },
	{ "--pgn", NULL, C_SEARCH, NULL, "write the games found as PGN",
	  K_FUNC, 0, 0, NULL, take_pgn, 0 },
	{ "--json", NULL, POS, NULL, "search: the games as JSON Lines (the default); tree: a JSON "
	  "object per move", K_FUNC, 0, 0, NULL, take_json, 0 },
	{ "--charset", NULL, ALL, "CS", "read the text as CS (an iconv name)",
	  K_STRING, FIELD(charset), 0, NULL, NULL, 0 },
	{ "--password", NULL, ALL, "PW", "the password of an encrypted archive (.cbz)",
	  K_STRING, FIELD(password), 0, NULL, NULL, 0 },
	{ "--layout", NULL, C_PGN, NULL, "scid: PGN byte for byte as Scid exports it",
	  K_CHOICE, 0, GAMEDB_WRITE_LAYOUT_SCID, layouts, NULL, 0 },
	{ "--commands", NULL, TEXT, NULL, "the markup commands kept (common: %cal %csl %clk ...)",
	  K_CHOICE, 0, GAMEDB_WRITE_ALL_COMMANDS | GAMEDB_WRITE_NO_COMMANDS, command_sets, NULL, 0 },
	{ "--notation", NULL, TEXT, NULL, "how xiangqi moves are written",
	  K_CHOICE, 0, GAMEDB_WRITE_WXF | GAMEDB_WRITE_CHINESE, notations, NULL, 0 },
	{ "--partial", NULL, TEXT, NULL, "write the legal part of a game that fails (still exit 1)",
	  K_FLAG, 0, GAMEDB_WRITE_PARTIAL, NULL, NULL, 0 },
	{ "--key", NULL, KEYS, NULL, "add each position's Polyglot key",
	  K_FLAG, 0, GAMEDB_WRITE_KEY, NULL, NULL, 0 },
	{ "--fen", NULL, C_JSON, NULL, "add each position's FEN to every move",
	  K_FLAG, 0, GAMEDB_WRITE_FEN, NULL, NULL, 0 },
	{ "--csv", NULL, C_POSITIONS, NULL, "CSV instead of JSON Lines",
	  K_FUNC, 0, 0, NULL, take_csv, 0 },
	{ "--no-comments", NULL, TEXT, NULL, "leave out the comments",
	  K_FLAG, 0, GAMEDB_WRITE_NO_COMMENTS, NULL, NULL, 0 },
	{ "--no-variations", NULL, TEXT, NULL, "leave out the variations",
	  K_FLAG, 0, GAMEDB_WRITE_NO_VARIATIONS, NULL, NULL, 0 },
	{ "--no-nags", NULL, TEXT, NULL, "leave out the NAGs ($1, ...)",
	  K_FLAG, 0, GAMEDB_WRITE_NO_NAGS, NULL, NULL, 0 },
	{ "--no-commands", NULL, TEXT, NULL, "leave out the markup commands and clocks",
	  K_FLAG, 0, GAMEDB_WRITE_NO_COMMANDS, NULL, NULL, 0 },
};

/*
 * "  -o, --output FILE" and its help from column 26 (on the next line when the left part is
 * wider), the help broken at spaces to stay within 80 columns.
 */
static void help_line(FILE *f, const char *left, const char *help)
{
	int n = fprintf(f, "  %s", left);

	if (n > 25) {
		fputc('\n', f);
		n = 0;
	}
	for (;;) {
		size_t len = strlen(help), cut = len;
		if (len > 54)
			for (cut = 54; cut > 0 && help[cut] != ' '; cut--)
				;
		if (cut == 0)
			cut = len;
		fprintf(f, "%*s%.*s\n", 26 - n, "", (int)cut, help);
		if (cut == len)
			break;
		help += cut + 1;
		n = 0;
	}
}

void options_help(FILE *f, unsigned cmdbit)
{
	size_t k, i, j;
	const char *key, *def, *desc;
	char left[96];
	int n;

	fputs("\nOptions:\n", f);
	for (k = 0; k < sizeof options / sizeof options[0]; k++) {
		const struct option *d = &options[k];
		if (!(d->cmds & cmdbit))
			continue;
		n = snprintf(left, sizeof left, "%s%s%s%s", d->alias ? d->alias : "",
			     d->alias ? ", " : "", d->name, d->arg || d->choices ? " " : "");
		if (d->arg)
			snprintf(left + n, sizeof left - (size_t)n, "%s", d->arg);
		for (i = 0; d->choices && d->choices[i].name; i++)
			n += snprintf(left + n, sizeof left - (size_t)n, "%s%s", i ? "|" : "",
				      d->choices[i].name);
		help_line(f, left, d->help);
	}
	for (k = 0; cmdbit == C_BOOK && k < sizeof book_options / sizeof book_options[0]; k++) {
		snprintf(left, sizeof left, "--%s%s%s", book_options[k].key,
			 book_options[k].arg ? " " : "", book_options[k].arg ? book_options[k].arg : "");
		help_line(f, left, book_options[k].help);
	}
	/* The formats' options, each key once with the formats that have it. */
	fputs("\nOptions of the formats (the other formats ignore them, with a note):\n", f);
	for (i = 0; i < gamedb_format_count(); i++) {
		for (k = 0; (key = gamedb_format_get_option(i, k, &def, &desc)) != NULL; k++) {
			size_t i2, k2;
			int seen = 0;
			const char *key2;
			for (i2 = 0; i2 <= i && !seen; i2++)
				for (k2 = 0; (key2 = gamedb_format_get_option(i2, k2, NULL, NULL)) != NULL &&
					     (i2 < i || k2 < k); k2++)
					seen |= strcmp(key, key2) == 0;
			if (seen)
				continue;
			/* "--direction VALUE (chessassistant; default auto)" */
			n = snprintf(left, sizeof left, "--%s VALUE (", key);
			for (j = i; j < gamedb_format_count(); j++)
				for (k2 = 0; (key2 = gamedb_format_get_option(j, k2, NULL, NULL)) != NULL; k2++)
					if (strcmp(key, key2) == 0 && n > 0 && (size_t)n < sizeof left)
						n += snprintf(left + n, sizeof left - (size_t)n, "%s%s",
							      j == i ? "" : ", ", gamedb_format_get_name(j));
			if (n > 0 && (size_t)n < sizeof left)
				snprintf(left + n, sizeof left - (size_t)n, "; default %s)", def);
			help_line(f, left, desc);
		}
	}
}

/*
 * The option a names, the command cmdbit's own first (--fen is a flag of json, a FEN of search
 * and tree). An option of another command is still taken, as before, but never one of search
 * and tree alone: `gamedb pgn --fen DB` keeps meaning json's flag, not a FEN named DB.
 */
static const struct option *find_option(const char *a, unsigned cmdbit)
{
	size_t k;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < sizeof options / sizeof options[0]; k++)
			if ((strcmp(a, options[k].name) == 0 ||
			     (options[k].alias && strcmp(a, options[k].alias) == 0)) &&
			    (pass == 1 ? (options[k].cmds & ~POS) != 0 : (options[k].cmds & cmdbit) != 0))
				return &options[k];
	return NULL;
}

static int takes_value(const struct option *d)
{
	return d->kind == K_STRING || d->kind == K_CHOICE || (d->kind == K_FUNC && d->value);
}

/* "gamedb: --layout wants standard or scid, got "x"" */
static void want_choices(const struct option *d, const char *v)
{
	size_t n, k;

	for (n = 0; d->choices[n].name; n++)
		;
	fprintf(stderr, "gamedb: %s wants ", d->name);
	for (k = 0; k < n; k++)
		fprintf(stderr, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ", d->choices[k].name);
	fprintf(stderr, ", got \"%s\"\n", v);
}

/* Option d with its value v (NULL if it takes none): 0, -1 after a message, 1 (take_csv()). */
static int take(struct opts *o, const struct option *d, const char *v)
{
	const struct choice *c;

	switch (d->kind) {
	case K_FLAG:
		o->wflags |= d->bits;
		return 0;
	case K_SET:
		*(int *)(void *)((char *)o + d->field) = 1;
		return 0;
	case K_STRING:
		*(const char **)(void *)((char *)o + d->field) = v;
		return 0;
	case K_CHOICE:
		o->wflags &= ~d->bits;
		for (c = d->choices; c->name; c++) {
			if (strcmp(v, c->name) == 0) {
				o->wflags |= c->bits;
				return 0;
			}
		}
		want_choices(d, v);
		return -1;
	case K_FUNC:
		break;
	}
	return d->take(o, v);
}

/*
 * The options of the database formats, from the library's registry: each key once, in the
 * registry's order (the order they are set in). Their values stay NULL until given.
 */
static int format_options(struct opts *o)
{
	size_t i, k, j, n = 0;
	const char *key;

	for (i = 0; i < gamedb_format_count(); i++)
		for (k = 0; gamedb_format_get_option(i, k, NULL, NULL) != NULL; k++)
			n++;
	o->fkeys = calloc(n + 1, sizeof *o->fkeys);
	o->fvals = calloc(n + 1, sizeof *o->fvals);
	if (!o->fkeys || !o->fvals)
		return -1;
	for (i = 0; i < gamedb_format_count(); i++) {
		for (k = 0; (key = gamedb_format_get_option(i, k, NULL, NULL)) != NULL; k++) {
			for (j = 0; j < o->nfopts && strcmp(o->fkeys[j], key) != 0; j++)
				;
			if (j == o->nfopts)
				o->fkeys[o->nfopts++] = key;
		}
	}
	return 0;
}

/* The format option "--KEY" names, as its place in o->fkeys; o->nfopts if none. */
static size_t format_option(const struct opts *o, const char *a)
{
	size_t k;

	if (a[0] != '-' || a[1] != '-')
		return o->nfopts;
	for (k = 0; k < o->nfopts && strcmp(a + 2, o->fkeys[k]) != 0; k++)
		;
	return k;
}

int parse_command_line(int argc, char **argv, struct opts *o)
{
	int i, stdin_named = 0;

	o->dbs = calloc((size_t)argc, sizeof *o->dbs);
	if (!o->dbs)
		return -1;
	if (format_options(o) != 0) {
		fprintf(stderr, "gamedb: out of memory\n");
		return -1;
	}
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *inl = NULL, *v = NULL, *eq;
		const struct book_option *bo;
		const struct option *d;
		char name[32];
		size_t k;
		int rc = 1;
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
				o->dbs[o->ndbs++] = argv[i];
			break;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			command_usage(stdout, o->cmd);
			return 1;
		}
		d = find_option(a, o->cmdbit);
		if (d) {
			if (takes_value(d) && !(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			rc = take(o, d, v);
			if (rc < 0)
				return -1;
		}
		if (rc == 0) {
			/* taken */
		} else if (strcmp(o->cmd, "book") == 0 && a[0] == '-' && a[1] &&
			   (bo = book_key(a)) != NULL) {
			/* PolyGlot's spellings (-max-ply) and ours (--max-ply) */
			int flag = bo->arg == NULL;
			if (!flag && !(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			if (o->nbookopt == (int)(sizeof o->bookopt / sizeof o->bookopt[0])) {
				fprintf(stderr, "gamedb: too many book options\n");
				return -1;
			}
			o->bookopt[o->nbookopt][0] = bo->key;
			o->bookopt[o->nbookopt][1] = flag ? "1" : v;
			o->nbookopt++;
		} else if ((k = format_option(o, a)) < o->nfopts) {
			if (!(v = opt_value(argc, argv, &i, &inl)))
				goto missing;
			o->fvals[k] = v;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "gamedb: unknown option \"%s\"\n", a);
			try_help(o->cmd);
			return -1;
		} else {
			o->dbs[o->ndbs++] = a;
		}
		if (inl) {
			fprintf(stderr, "gamedb: %s takes no value, got \"%s\"\n", a, argv[i]);
			return -1;
		}
	}
	/* -o - is standard output, as a database named - is standard input (it made a file "-"). */
	if (o->out && strcmp(o->out, "-") == 0)
		o->out = NULL;
	if (o->ndbs == 0) {
		fprintf(stderr, "gamedb: no database given\n");
		try_help(o->cmd);
		return -1;
	}
	/* Standard input is one stream: named twice, the second read took what the first left. */
	for (i = 0; i < o->ndbs; i++) {
		if (strcmp(o->dbs[i], "-") != 0)
			continue;
		if (stdin_named++) {
			fprintf(stderr, "gamedb: - (standard input) is named more than once; "
				"it can be read once\n");
			return -1;
		}
	}
	return 0;
missing:
	fprintf(stderr, "gamedb: %s needs a value\n", argv[i - 1]);
	return -1;
}

void opts_free(struct opts *o)
{
	free(o->dbs);
	free(o->games);
	free(o->where);
	free(o->fkeys);
	free(o->fvals);
}
