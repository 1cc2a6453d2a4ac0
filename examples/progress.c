/*
 * progress: read a database with a text progress bar on standard error, and stop it from the
 * progress callback: after N games (--stop-after N), or when a key is pressed (Enter, when
 * standard input is a terminal). The callback is called once every 4,096 games of a base or
 * MiB of a stream or archive, so the stop comes at the first report after N games or the key. A ChessBase archive (.cbv) shows its unpacking first (bytes
 * of the archive), then its games; a style 12 log shows the bytes read.
 *
 *   progress [--stop-after N] DATABASE
 *
 * Exit status: 0 read to the end, 1 stopped (or a game failed), 2 not opened.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <poll.h>
#include <unistd.h>
#endif

#include <gamedb/gamedb.h>

struct state {
	uint64_t games;      /* games handed out so far (the main loop counts them) */
	uint64_t stop_after; /* 0: never */
	int key;             /* standard input is a terminal: a key stops */
};

/* 1 when a line is waiting on standard input (a key and Enter). */
static int key_pressed(const struct state *s)
{
#ifndef _WIN32
	struct pollfd p;

	if (!s->key)
		return 0;
	p.fd = STDIN_FILENO;
	p.events = POLLIN;
	p.revents = 0;
	return poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
#else
	(void)s;
	return 0;
#endif
}

/* The callback: a bar (when the total is known) or a count, and the decision to stop. */
static int32_t on_progress(int32_t unit, uint64_t done, uint64_t total, void *user_data)
{
	struct state *s = user_data;
	const char *what = unit == GAMEDB_PROGRESS_BYTES ? "bytes" : "games";
	char bar[31];
	unsigned i, fill;

	if (total) {
		fill = (unsigned)(done * 30 / total);
		for (i = 0; i < 30; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[30] = 0;
		fprintf(stderr, "\r[%s] %3u%% %" PRIu64 "/%" PRIu64 " %s", bar,
			(unsigned)(done * 100 / total), done, total, what);
	} else {
		fprintf(stderr, "\r%" PRIu64 " %s", done, what);
	}
	if (done == total)
		fputc('\n', stderr);
	fflush(stderr);
	return (s->stop_after && s->games >= s->stop_after) || key_pressed(s);
}

int main(int argc, char **argv)
{
	struct state s;
	struct gamedb_reader *r;
	struct gamedb_game *g;
	const char *path = NULL;
	int32_t rc;
	int status = 0, i;

	memset(&s, 0, sizeof s);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--stop-after") == 0 && i + 1 < argc)
			s.stop_after = strtoull(argv[++i], NULL, 10);
		else if (!path)
			path = argv[i];
		else
			path = NULL, i = argc;
	}
	if (!path) {
		fprintf(stderr, "usage: %s [--stop-after N] DATABASE\n", argv[0]);
		return 2;
	}
#ifndef _WIN32
	s.key = isatty(STDIN_FILENO);
#endif
	r = gamedb_reader_new();
	if (!r)
		return 2;
	/* Before the open: an archive's unpacking reports too. */
	gamedb_reader_set_progress(r, on_progress, &s);
	rc = gamedb_reader_open_filename(r, path);
	if (rc == GAMEDB_FATAL) {
		fprintf(stderr, "\n%s: %s\n", path, gamedb_reader_errmsg(r));
		status = gamedb_reader_errcode(r) == GAMEDB_E_CANCELLED ? 1 : 2;
		gamedb_reader_free(r);
		return status;
	}
	for (;;) {
		rc = gamedb_reader_next_game(r, &g);
		if (rc == GAMEDB_END)
			break;
		if (rc == GAMEDB_FATAL) {
			/* Stopped by the callback (GAMEDB_E_CANCELLED) or a fatal error: the reader
			 * is done either way; only gamedb_reader_free() is left. */
			fprintf(stderr, "\n%s\n", gamedb_reader_errmsg(r));
			status = 1;
			break;
		}
		if (rc == GAMEDB_FAILED) {
			status = 1;
			continue;
		}
		s.games++;
	}
	printf("%" PRIu64 " games read\n", s.games);
	gamedb_reader_free(r);
	return status;
}
