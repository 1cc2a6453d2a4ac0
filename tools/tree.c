/*
 * The query every command filters by (--where, and --fen / --moves of search and tree), and the
 * tree command: the moves played from a position in the games of the databases, with their
 * games, results, score, average Elo, performance and years, as Scid's tree window lists them
 * (text) or as JSON Lines, one object per move. One tree over all the databases given.
 *
 * --jobs N: a database that can seek and count its games is cut into N spans of games, each
 * read by a thread with its own reader, query and tree; the trees are merged in span order, so
 * the rows come out as with one job.
 */
#include "gamedb-tool.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct gamedb_query *make_query(const struct opts *o, int *bad)
{
	struct gamedb_query *q = NULL;
	size_t i;

	if (bad)
		*bad = 0;
	if (!o->qfen && !o->qmoves && o->nwhere == 0)
		return NULL;
	if (gamedb_query_new(&q) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: out of memory\n");
		exit(2); /* a filter cannot be dropped: every game would be written */
	}
	if ((o->qfen || o->qmoves) && gamedb_query_set_position(q, o->qfen, o->qmoves) != GAMEDB_OK) {
		if (bad) {
			fprintf(stderr, "gamedb: %s: %s\n", o->qfen ? "--fen" : "--moves",
				gamedb_query_errmsg(q));
			*bad = 1;
		}
		gamedb_query_free(q);
		return NULL;
	}
	for (i = 0; i < o->nwhere; i++) {
		int32_t rc = gamedb_query_add_where(q, o->where[i]);
		if (rc == GAMEDB_FATAL) {
			fprintf(stderr, "gamedb: out of memory\n");
			exit(2);
		}
		if (rc != GAMEDB_OK) {
			if (bad) {
				fprintf(stderr, "gamedb: --where: %s\n", gamedb_query_errmsg(q));
				*bad = 1;
			}
			gamedb_query_free(q);
			return NULL;
		}
	}
	return q;
}

/* One span of one database's games, counted into a tree of its own. */
struct span {
	const struct opts *o;
	const char *db;
	struct gamedb_reader *r; /* the span's own reader (the first span: the one opened) */
	uint64_t from, end;      /* games [from, end); end UINT64_MAX: to the end */
	struct gamedb_tree *tree;
	uint64_t failed;
	int status;              /* ST_OK, ST_FAILED, ST_BASE (could not be read to its end) */
	struct gamedb_index *ix; /* --index with --where: the span's own (an index handle, like a
				    reader, is used by one thread at a time) */
	struct gamedb_query *q;  /* the first span's query, already on the run's index (--index
				    with --where: checked before the spans start); the span frees it */
	pthread_mutex_t *say;    /* messages of the spans one at a time */
};

static void span_say(struct span *s, const char *msg)
{
	if (s->say)
		pthread_mutex_lock(s->say);
	if (strncmp(msg, s->db, strlen(s->db)) == 0)
		fprintf(stderr, "gamedb: %s\n", msg);
	else
		fprintf(stderr, "gamedb: %s: %s\n", s->db, msg);
	if (s->say)
		pthread_mutex_unlock(s->say);
}

/* "DB: game N: why" of a game that cannot be decoded, the database and the game named once. */
static void game_failed(struct span *s, uint64_t idx, const char *m)
{
	size_t dblen = strlen(s->db);
	char msg[700], game[32];

	snprintf(game, sizeof game, "game %" PRIu64 ":", idx + 1);
	if (strncmp(m, s->db, dblen) == 0 && m[dblen] == ':' && m[dblen + 1] == ' ')
		m += dblen + 2;
	if (strstr(m, game))
		snprintf(msg, sizeof msg, "%s", m);
	else
		snprintf(msg, sizeof msg, "%s %s", game, m);
	span_say(s, msg);
}

static void *span_run(void *arg)
{
	struct span *s = arg;
	struct gamedb_query *q = s->q ? s->q : make_query(s->o, NULL);
	struct gamedb_game *g;

	if (!q || gamedb_tree_new(&s->tree) != GAMEDB_OK) {
		span_say(s, "out of memory");
		s->status = ST_BASE;
		gamedb_query_free(q);
		return NULL;
	}
	/* The other spans: an index handle of their own, on their own reader. */
	if (s->o->index && !s->q &&
	    (gamedb_index_open(&s->ix, s->o->index) != GAMEDB_OK ||
	     gamedb_query_set_index(q, s->ix, s->r) != GAMEDB_OK)) {
		span_say(s, s->ix ? (gamedb_index_errmsg(s->ix)[0] ? gamedb_index_errmsg(s->ix)
								   : gamedb_query_errmsg(q))
				  : "out of memory");
		s->status = ST_BASE;
		gamedb_query_free(q);
		return NULL;
	}
	if (s->from > 0 && gamedb_reader_seek_game(s->r, s->from) != GAMEDB_OK) {
		span_say(s, gamedb_reader_errmsg(s->r));
		s->status = ST_BASE;
		gamedb_query_free(q);
		return NULL;
	}
	for (;;) {
		int32_t rc = gamedb_reader_next_game(s->r, &g);
		uint64_t idx;
		if (rc == GAMEDB_END)
			break;
		if (rc == GAMEDB_FATAL) {
			span_say(s, gamedb_reader_errmsg(s->r));
			s->status = ST_BASE;
			break;
		}
		if (rc == GAMEDB_FAILED) {
			span_say(s, gamedb_reader_errmsg(s->r));
			s->failed++;
			continue;
		}
		idx = gamedb_game_get_index(g);
		if (idx >= s->end || idx >= s->o->to)
			break;
		if (idx < s->o->from || !game_wanted(s->o, idx) ||
		    (gamedb_game_is_deleted(g) && !s->o->include_deleted))
			continue;
		rc = gamedb_tree_add_game(s->tree, q, g);
		if (rc == GAMEDB_FATAL) {
			span_say(s, "out of memory");
			s->status = ST_BASE;
			break;
		}
		if (rc == GAMEDB_FAILED) {
			game_failed(s, idx, gamedb_query_errmsg(q));
			s->failed++;
		}
	}
	if (s->failed && s->status == ST_OK)
		s->status = ST_FAILED;
	gamedb_query_free(q);
	return NULL;
}

/*
 * The tree of one database through the index (--index, no --where): the games the index
 * names, in game order, counted from the index alone, no game read. Games left out as the scan
 * leaves them out (--range, --games, deleted); failures said as the scan says them.
 */
static int tree_indexed(struct gamedb_reader *r, const char *db, const struct opts *o,
			struct gamedb_tree *total, uint64_t *failed)
{
	struct gamedb_query *q = make_query(o, NULL);
	struct span s; /* for its messages */
	int status = ST_OK;
	uint64_t idx;
	uint32_t flags;

	memset(&s, 0, sizeof s);
	s.db = db;
	if (!q) {
		fprintf(stderr, "gamedb: out of memory\n");
		return ST_STOP;
	}
	if (use_index(q, open_index(o), r, db) != 0) {
		gamedb_query_free(q);
		return ST_BASE;
	}
	/* as the scan: a --range that starts past the games is the base's failure */
	if (o->from > 0 && gamedb_reader_seek_game(r, o->from) != GAMEDB_OK) {
		span_say(&s, gamedb_reader_errmsg(r));
		gamedb_query_free(q);
		return ST_BASE;
	}
	while (next_wanted_hit(q, o, &idx, &flags)) {
		int32_t rc;
		if (flags & GAMEDB_HIT_UNREAD) {
			span_say(&s, gamedb_query_errmsg(q));
			++*failed;
			continue;
		}
		if (flags & GAMEDB_HIT_FAILED) {
			game_failed(&s, idx, gamedb_query_errmsg(q));
			++*failed;
			continue;
		}
		rc = gamedb_tree_add_hit(total, q);
		if (rc == GAMEDB_FATAL) {
			fprintf(stderr, "gamedb: out of memory\n");
			status = ST_STOP;
			break;
		}
		if (rc == GAMEDB_FAILED) {
			game_failed(&s, idx, gamedb_query_errmsg(q));
			++*failed;
		}
	}
	gamedb_query_free(q);
	return status == ST_OK && *failed ? ST_FAILED : status;
}

/* The tree of one database into total; the database's status. */
static int tree_one(struct gamedb_reader *r, const char *db, const struct opts *o,
		    struct gamedb_tree *total, uint64_t *failed)
{
	struct span spans[64];
	pthread_t th[64];
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	uint64_t count = 0, from = o->from, end;
	int n = 1, k, status = ST_OK, started[64];

	if (o->index && !o->nwhere)
		return tree_indexed(r, db, o, total, failed);
	memset(spans, 0, sizeof spans);
	memset(started, 0, sizeof started);
	if (o->index) {
		/*
		 * --where needs the headers: the games are read, with the index's hits. The index is
		 * checked against the base here, once, before any span starts; the first span goes
		 * on with this query (the run's index handle, on r), the others open their own.
		 */
		spans[0].q = make_query(o, NULL);
		if (!spans[0].q) {
			fprintf(stderr, "gamedb: out of memory\n");
			return ST_STOP;
		}
		if (use_index(spans[0].q, open_index(o), r, db) != 0) {
			gamedb_query_free(spans[0].q);
			return ST_BASE;
		}
	}
	end = o->to;
	if (o->jobs > 1 && strcmp(db, "-") != 0 &&
	    (gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK) &&
	    gamedb_reader_game_count(r, &count) == GAMEDB_OK) {
		if (end > count)
			end = count;
		n = o->jobs < 64 ? o->jobs : 64;
		if (end <= from || end - from < (uint64_t)n * 64)
			n = 1; /* a few games: not worth a thread */
	}
	for (k = 0; k < n; k++) {
		spans[k].o = o;
		spans[k].db = db;
		spans[k].say = n > 1 ? &mu : NULL;
		spans[k].from = n > 1 ? from + (end - from) * (uint64_t)k / (uint64_t)n : from;
		spans[k].end = n > 1 ? from + (end - from) * (uint64_t)(k + 1) / (uint64_t)n : UINT64_MAX;
		spans[k].r = k == 0 ? r : open_db(db, o, 1);
		if (!spans[k].r) { /* no second reader: one span does it all */
			n = k;
			spans[n - 1].end = n == 1 ? UINT64_MAX : end;
			break;
		}
	}
	for (k = 1; k < n; k++)
		started[k] = pthread_create(&th[k], NULL, span_run, &spans[k]) == 0;
	span_run(&spans[0]);
	for (k = 1; k < n; k++) {
		if (started[k])
			pthread_join(th[k], NULL);
		else
			span_run(&spans[k]);
	}
	for (k = 0; k < n; k++) {
		if (spans[k].tree && gamedb_tree_merge(total, spans[k].tree) != GAMEDB_OK) {
			fprintf(stderr, "gamedb: out of memory\n");
			spans[k].status = ST_STOP;
		}
		gamedb_tree_free(spans[k].tree);
		gamedb_index_free(spans[k].ix);
		if (spans[k].status > status)
			status = spans[k].status;
		*failed += spans[k].failed;
		if (k > 0)
			gamedb_reader_free(spans[k].r);
	}
	return status;
}

/* The columns after the frequency, as Scid's sc_tree stats writes them. */
static void print_stats(FILE *f, struct gamedb_tree *t, size_t i)
{
	int64_t score = gamedb_tree_get_stat(t, i, GAMEDB_TREE_SCORE);
	int64_t games = gamedb_tree_get_stat(t, i, GAMEDB_TREE_GAMES);
	int64_t elo_n = gamedb_tree_get_stat(t, i, GAMEDB_TREE_ELO_GAMES);
	int64_t year = gamedb_tree_get_stat(t, i, GAMEDB_TREE_AVG_YEAR);
	int64_t perf = elo_n < 10 ? 0 : gamedb_tree_get_stat(t, i, GAMEDB_TREE_PERFORMANCE);
	int64_t avg = gamedb_tree_get_stat(t, i, gamedb_tree_get_stat(t, i, GAMEDB_TREE_MOVER)
							 ? GAMEDB_TREE_BLACK_ELO : GAMEDB_TREE_WHITE_ELO);
	int64_t draws = games ? 100 * gamedb_tree_get_stat(t, i, GAMEDB_TREE_DRAWS) / games : 0;

	fprintf(f, "  %3d.%1d%%", (int)(score / 10), (int)(score % 10));
	if (avg)
		fprintf(f, "  %4d", (int)avg);
	else
		fputs("      ", f);
	if (perf)
		fprintf(f, "  %4d", (int)perf);
	else
		fputs("      ", f);
	if (year)
		fprintf(f, "  %4d", (int)year);
	else
		fputs("      ", f);
	fprintf(f, "  %3d%%", (int)draws);
}

/* Scid's tree text: a title row, a row per move, a rule and the totals (ECO left blank). */
static void print_text(FILE *f, struct gamedb_tree *t)
{
	size_t n = gamedb_tree_get_count(t), i;
	int64_t total = gamedb_tree_get_stat(t, n, GAMEDB_TREE_GAMES);

	fputs("    Move   ECO       Frequency    Score  AvElo Perf AvYear %Draws", f);
	for (i = 0; i < n; i++) {
		int64_t games = gamedb_tree_get_stat(t, i, GAMEDB_TREE_GAMES);
		long freq = total ? (long)(1000 * games / total) : 0;
		fprintf(f, "\n%2u: %-6s %-5s %7u:%3ld.%1ld%%", (unsigned)(i + 1), gamedb_tree_get_san(t, i),
			"", (unsigned)games, freq / 10, freq % 10);
		print_stats(f, t, i);
	}
	if (n) {
		fputs("\n_______________________________________________________________\n", f);
		fprintf(f, "%-12s     %7u:100.0%%", "TOTAL:", (unsigned)total);
		print_stats(f, t, n);
	}
	fputs("\n", f);
}

/* A JSON string of plain ASCII move text (SAN, UCI, WXF: no quotes or controls). */
static void json_num_or_null(FILE *f, const char *name, int64_t v)
{
	if (v)
		fprintf(f, ", \"%s\": %" PRId64, name, v);
	else
		fprintf(f, ", \"%s\": null", name);
}

/* JSON Lines: one object per move, most played first. */
static void print_json(FILE *f, struct gamedb_tree *t)
{
	size_t n = gamedb_tree_get_count(t), i;
	int64_t total = gamedb_tree_get_stat(t, n, GAMEDB_TREE_GAMES);

	for (i = 0; i < n; i++) {
		const char *uci = gamedb_tree_get_uci(t, i);
		int64_t games = gamedb_tree_get_stat(t, i, GAMEDB_TREE_GAMES);
		int64_t score = gamedb_tree_get_stat(t, i, GAMEDB_TREE_SCORE);
		int64_t elo_n = gamedb_tree_get_stat(t, i, GAMEDB_TREE_ELO_GAMES);
		if (*uci)
			fprintf(f, "{\"san\": \"%s\", \"uci\": \"%s\"", gamedb_tree_get_san(t, i), uci);
		else
			fputs("{\"san\": null, \"uci\": null, \"end\": true", f);
		fprintf(f, ", \"games\": %" PRId64 ", \"white\": %" PRId64 ", \"draws\": %" PRId64
			", \"black\": %" PRId64 ", \"score\": %d.%d, \"frequency\": %.1f",
			games, gamedb_tree_get_stat(t, i, GAMEDB_TREE_WHITE_WINS),
			gamedb_tree_get_stat(t, i, GAMEDB_TREE_DRAWS),
			gamedb_tree_get_stat(t, i, GAMEDB_TREE_BLACK_WINS), (int)(score / 10),
			(int)(score % 10), total ? 100.0 * (double)games / (double)total : 0.0);
		fprintf(f, ", \"elo_games\": %" PRId64, elo_n);
		json_num_or_null(f, "white_elo", gamedb_tree_get_stat(t, i, GAMEDB_TREE_WHITE_ELO));
		json_num_or_null(f, "black_elo", gamedb_tree_get_stat(t, i, GAMEDB_TREE_BLACK_ELO));
		json_num_or_null(f, "performance", gamedb_tree_get_stat(t, i, GAMEDB_TREE_PERFORMANCE));
		json_num_or_null(f, "avg_year", gamedb_tree_get_stat(t, i, GAMEDB_TREE_AVG_YEAR));
		json_num_or_null(f, "last_year", gamedb_tree_get_stat(t, i, GAMEDB_TREE_LAST_YEAR));
		fputs("}\n", f);
	}
}

int cmd_tree(const struct opts *o)
{
	struct gamedb_tree *total = NULL;
	struct output out = { NULL, NULL, NULL, NULL };
	uint64_t failed_all = 0;
	int i, bad = 0, status = ST_OK;
	struct gamedb_query *q;

	if (!o->qfen && !o->qmoves) {
		fprintf(stderr, "gamedb: tree: give the position: --fen FEN or --moves \"e4 c5\"\n");
		try_help(o->cmd);
		return 2;
	}
	q = make_query(o, &bad);
	gamedb_query_free(q);
	if (bad)
		return 2;
	open_index(o); /* a bad index stops the run before anything is opened */
	if (gamedb_tree_new(&total) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: out of memory\n");
		return 2;
	}
	for (i = 0; i < o->ndbs; i++) {
		uint64_t failed = 0;
		int st;
		struct gamedb_reader *r = open_db(o->dbs[i], o, 0);
		if (!r) {
			status = ST_BASE;
			continue;
		}
		st = tree_one(r, o->dbs[i], o, total, &failed);
		gamedb_reader_free(r);
		if (failed)
			fprintf(stderr, "gamedb: %s: %" PRIu64 " game%s failed, not counted in the tree\n",
				o->dbs[i], failed, failed == 1 ? "" : "s");
		failed_all += failed;
		if (st > status)
			status = st;
		if (st == ST_STOP)
			break;
	}
	if (status != ST_STOP && output_open(&out, o->out) == 0) {
		if (o->tree_json)
			print_json(out.f, total);
		else
			print_text(out.f, total);
		if (output_close(&out, 1) != 0)
			status = ST_STOP;
	} else {
		status = ST_STOP;
	}
	gamedb_tree_free(total);
	(void)failed_all;
	return status >= ST_BASE ? 2 : status;
}
