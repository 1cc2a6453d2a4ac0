/*
 * parallel-export - PGN of a whole database, decoded by several threads, written in order.
 *
 *   parallel-export [-j N] DB > out.pgn
 *
 * How a program uses libgamedb from several threads: a reader must not be used by two threads
 * at once, but different readers may, so each thread has a reader of its own: the first opens
 * the database, the others are opened on it with gamedb_reader_open_shared(), which shares
 * what it holds read-only (an archive, .cbv or .cbz, is unpacked once for all of them). The games are cut into batches of BATCH games; in each round thread t seeks its reader
 * to batch (round * N + t), converts the batch into memory, and the main thread then writes the
 * N batches in order. The output is the same as one thread's, and memory holds N batches,
 * whatever the size of the database. (`gamedb pgn --jobs N` does the same with a queue, so that
 * a slow batch does not hold the others back.)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gamedb/gamedb.h>

#define BATCH 64 /* games per batch */

struct text {
	char *p;
	size_t len, cap;
	int failed;
};

struct job {
	struct gamedb_reader *r; /* this thread's own reader */
	uint64_t first, end;      /* the batch: games [first, end) */
	struct text out;          /* its PGN */
	struct text err;          /* its messages */
	pthread_t thread;
};

static int32_t append(void *user_data, const char *data, size_t len)
{
	struct text *t = user_data;

	if (t->cap - t->len < len) {
		size_t cap = t->cap ? t->cap : 65536;
		char *p;
		while (cap - t->len < len)
			cap *= 2;
		if (!(p = realloc(t->p, cap))) {
			t->failed = 1;
			return 1; /* the writer stops and returns FAILED */
		}
		t->p = p;
		t->cap = cap;
	}
	memcpy(t->p + t->len, data, len);
	t->len += len;
	return 0;
}

static void note(struct text *t, const char *what, uint64_t index, const char *msg)
{
	char line[1024];
	int n = snprintf(line, sizeof line, "parallel-export: game %llu: %s: %s\n",
			 (unsigned long long)index + 1, what, msg);

	append(t, line, n < (int)sizeof line ? (size_t)n : sizeof line - 1);
}

/* One batch: the ordinary loop of gamedb.h, after a seek to the batch's first game. */
static void *convert_batch(void *arg)
{
	struct job *j = arg;
	struct gamedb_game *g;
	uint64_t k = j->first;

	j->out.len = j->err.len = 0;
	if (gamedb_reader_seek_game(j->r, j->first) != GAMEDB_OK) {
		note(&j->err, "seek", j->first, gamedb_reader_errmsg(j->r));
		return NULL;
	}
	for (; k < j->end; k++) {
		int32_t rc = gamedb_reader_next_game(j->r, &g);
		if (rc == GAMEDB_END || rc == GAMEDB_FATAL)
			break;
		if (rc == GAMEDB_FAILED) { /* one game per call, read or not */
			note(&j->err, "unreadable", k, gamedb_reader_errmsg(j->r));
			continue;
		}
		if (gamedb_game_is_deleted(g))
			continue;
		if (gamedb_game_write_pgn(g, 0, append, &j->out) == GAMEDB_FAILED)
			note(&j->err, "not written", k, gamedb_game_errmsg(g));
	}
	return NULL;
}

static struct gamedb_reader *open_reader(const char *path)
{
	struct gamedb_reader *r = gamedb_reader_new();
	int32_t rc;

	if (!r)
		return NULL;
	gamedb_reader_support_format_all(r);
	rc = gamedb_reader_open_filename(r, path);
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		fprintf(stderr, "parallel-export: %s\n", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return NULL;
	}
	return r;
}

/* Another reader of the database base has open, sharing what base holds read-only. */
static struct gamedb_reader *open_shared(struct gamedb_reader *base)
{
	struct gamedb_reader *r = gamedb_reader_new();
	int32_t rc;

	if (!r)
		return NULL;
	rc = gamedb_reader_open_shared(r, base);
	if (rc != GAMEDB_OK && rc != GAMEDB_WARN) {
		fprintf(stderr, "parallel-export: %s\n", gamedb_reader_errmsg(r));
		gamedb_reader_free(r);
		return NULL;
	}
	return r;
}

int main(int argc, char **argv)
{
	struct job *jobs;
	uint64_t count = 0, at;
	int n = 2, i, status = 0;
	const char *path;

	if (argc == 4 && strcmp(argv[1], "-j") == 0 && atoi(argv[2]) > 0) {
		n = atoi(argv[2]);
		path = argv[3];
	} else if (argc == 2) {
		path = argv[1];
	} else {
		fprintf(stderr, "usage: parallel-export [-j N] DB > out.pgn\n");
		return 2;
	}
	jobs = calloc((size_t)n, sizeof *jobs);
	if (!jobs)
		return 2;
	for (i = 0; i < n; i++) {
		if (!(jobs[i].r = i ? open_shared(jobs[0].r) : open_reader(path)))
			return 2;
	}
	/* Parallel decoding needs random access; a stream (style 12) is read by one thread. */
	if (!(gamedb_reader_capabilities(jobs[0].r) & GAMEDB_CAP_SEEK) ||
	    gamedb_reader_game_count(jobs[0].r, &count) != GAMEDB_OK) {
		fprintf(stderr, "parallel-export: %s cannot seek: read it with one reader\n", path);
		return 2;
	}
	for (at = 0; at < count;) {
		int started = 0;
		for (i = 0; i < n && at < count; i++, started++) {
			jobs[i].first = at;
			jobs[i].end = count - at < BATCH ? count : at + BATCH;
			at = jobs[i].end;
			if (pthread_create(&jobs[i].thread, NULL, convert_batch, &jobs[i]) != 0) {
				convert_batch(&jobs[i]); /* no thread: do it here */
				jobs[i].thread = pthread_self();
			}
		}
		for (i = 0; i < started; i++) {
			if (!pthread_equal(jobs[i].thread, pthread_self()))
				pthread_join(jobs[i].thread, NULL);
			if (jobs[i].out.len)
				fwrite(jobs[i].out.p, 1, jobs[i].out.len, stdout);
			if (jobs[i].err.len)
				fwrite(jobs[i].err.p, 1, jobs[i].err.len, stderr);
			if (jobs[i].err.len || jobs[i].out.failed || jobs[i].err.failed)
				status = 1;
		}
	}
	for (i = 0; i < n; i++) {
		gamedb_reader_free(jobs[i].r);
		free(jobs[i].out.p);
		free(jobs[i].err.p);
	}
	free(jobs);
	return fflush(stdout) == 0 && !ferror(stdout) ? status : 2;
}
