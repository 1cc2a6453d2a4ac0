/*
 * The index command (gamedb index DB... -o FILE): a position index of the games of the
 * databases, for search and tree --index (doc/index.md); and --index itself: the index opened
 * once for the run, and each database's query pointed at it (refused when the index is stale
 * or was not built from that database).
 *
 * The index is written only where -o says, as a temporary file renamed into place, and never
 * over a file of a database the run reads.
 */
#include "gamedb-tool.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static struct gamedb_index *the_index;

struct gamedb_index *open_index(const struct opts *o)
{
	int32_t rc;

	if (!o->index || the_index)
		return the_index;
	rc = gamedb_index_open(&the_index, o->index);
	if (rc != GAMEDB_OK) {
		fprintf(stderr, "gamedb: --index: %s\n",
			the_index ? gamedb_index_errmsg(the_index) : "out of memory");
		gamedb_index_free(the_index);
		the_index = NULL;
		exit(2);
	}
	return the_index;
}

int use_index(struct gamedb_query *q, struct gamedb_index *ix, struct gamedb_reader *r, const char *db)
{
	if (!q || !ix)
		return 0;
	if (gamedb_query_set_index(q, ix, r) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: %s: %s\n", db, gamedb_query_errmsg(q));
		return -1;
	}
	return 0;
}

int next_wanted_hit(struct gamedb_query *q, const struct opts *o, uint64_t *idx, uint32_t *flags)
{
	while (gamedb_query_next_hit(q, idx, flags) == GAMEDB_OK) {
		if (*flags & GAMEDB_HIT_UNREAD) {
			/* not a game: the scan meets it between two, wherever --games points */
			if (*idx >= o->from && *idx <= o->to)
				return 1;
			continue;
		}
		/* (no stop at --range's end: an unread place may share the number of the game
		 * after it, and come after its hit) */
		if (*idx < o->from || *idx >= o->to || !game_wanted(o, *idx) ||
		    ((*flags & GAMEDB_HIT_DELETED) && !o->include_deleted))
			continue;
		return 1;
	}
	return 0;
}

/* The games of one database into w; the database's status. */
static int index_one(struct gamedb_index_writer *w, struct gamedb_reader *r, const char *db,
		     uint64_t *games, uint64_t *failed)
{
	int status = ST_OK;

	for (;;) {
		struct gamedb_game *g = NULL;
		int32_t rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END)
			break;
		if (rc == GAMEDB_FATAL) {
			fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
			status = ST_BASE;
			break;
		}
		if (rc == GAMEDB_FAILED) {
			fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
			++*failed;
			g = NULL; /* recorded in its place: a tree through the index says it too */
		}
		rc = gamedb_index_writer_add_game(w, r, g);
		if (!g) {
			if (rc == GAMEDB_FATAL) {
				fprintf(stderr, "gamedb: %s\n", gamedb_index_writer_errmsg(w));
				return ST_STOP;
			}
			continue;
		}
		if (rc == GAMEDB_FATAL) {
			fprintf(stderr, "gamedb: %s\n", gamedb_index_writer_errmsg(w));
			return ST_STOP;
		}
		if (rc == GAMEDB_FAILED) {
			fprintf(stderr, "gamedb: %s: %s\n", db, gamedb_index_writer_errmsg(w));
			++*failed;
		}
		++*games;
	}
	if (gamedb_index_writer_end_base(w, r) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: %s\n", gamedb_index_writer_errmsg(w));
		return ST_STOP;
	}
	return *failed && status == ST_OK ? ST_FAILED : status;
}

int cmd_index(const struct opts *o)
{
	struct gamedb_index_writer *w = NULL;
	struct output out = { NULL, NULL, NULL, NULL };
	int i, status = ST_OK;

	if (!o->out || strcmp(o->out, "-") == 0) {
		fprintf(stderr, "gamedb: index: give the index file: -o FILE\n");
		try_help(o->cmd);
		return 2;
	}
	if (gamedb_index_writer_new(&w) != GAMEDB_OK) {
		fprintf(stderr, "gamedb: out of memory\n");
		return 2;
	}
	for (i = 0; i < o->ndbs && status != ST_STOP; i++) {
		uint64_t games = 0, failed = 0;
		struct gamedb_reader *r;
		int st, used;
		if (strcmp(o->dbs[i], "-") == 0) {
			fprintf(stderr, "gamedb: index: standard input is not a base an index can be "
				"checked against\n");
			status = ST_STOP;
			break;
		}
		r = open_db(o->dbs[i], o, 0);
		if (!r) {
			status = ST_STOP; /* an index of some of the bases is not the index asked for */
			break;
		}
		used = gamedb_reader_uses_file(r, o->out);
		if (used != 0) {
			fprintf(stderr, "gamedb: %s: %s\n", o->out, used == 1 ? "refusing to write over a "
				"file of the database" : strerror(errno));
			gamedb_reader_free(r);
			status = ST_STOP;
			break;
		}
		st = index_one(w, r, o->dbs[i], &games, &failed);
		gamedb_reader_free(r);
		if (failed)
			fprintf(stderr, "gamedb: %s: %" PRIu64 " games indexed, %" PRIu64 " failed\n",
				o->dbs[i], games - (failed < games ? failed : games), failed);
		if (st > status)
			status = st;
	}
	if (status < ST_BASE) {
		if (output_open(&out, o->out) != 0) {
			status = ST_STOP;
		} else {
			int32_t rc = gamedb_index_writer_write(w, sink_file, out.f);
			if (rc != GAMEDB_OK)
				fprintf(stderr, "gamedb: %s: %s\n", o->out, gamedb_index_writer_errmsg(w));
			if (output_close(&out, rc == GAMEDB_OK) != 0 || rc != GAMEDB_OK)
				status = ST_STOP;
		}
	}
	gamedb_index_writer_free(w);
	return status >= ST_BASE ? 2 : status;
}
