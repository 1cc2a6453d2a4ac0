/*
 * style12-live: record the games of a live FICS/ICC session. Reads server output from stdin
 * (as a client would receive it, in chunks of CHUNK bytes, 4096 by default), feeds it to a
 * style 12 session and prints each game as PGN on stdout as soon as it ends; at the end of
 * the input the games still in flight follow with the result "*". Warnings, and the lines that
 * could not be used (then the exit status is 1), go to stderr.
 *
 *   telnet-client ... | style12-live
 *   style12-live 7 < session.log
 */
#include <stdio.h>
#include <stdlib.h>

#include <gamedb/gamedb.h>

static int32_t to_stdout(void *user_data, const char *data, size_t len)
{
	(void)user_data;
	return fwrite(data, 1, len, stdout) == len ? GAMEDB_OK : GAMEDB_FAILED;
}

static int failed; /* a line could not be used: the exit status is 1 */

/* Prints the games that are ready; 0, or -1 on a fatal error. */
static int drain(struct gamedb_style12_session *s)
{
	struct gamedb_game *g;
	int32_t rc;

	while ((rc = gamedb_style12_session_next_game(s, &g)) == GAMEDB_OK || rc == GAMEDB_WARN ||
	       rc == GAMEDB_FAILED) {
		if (rc == GAMEDB_FAILED) { /* a line that could not be used: said, and on */
			fprintf(stderr, "%s\n", gamedb_style12_session_errmsg(s));
			failed = 1;
			continue;
		}
		if (rc == GAMEDB_WARN)
			fprintf(stderr, "warning: %s\n", gamedb_style12_session_errmsg(s));
		if (gamedb_game_write_pgn(g, 0, to_stdout, NULL) == GAMEDB_FAILED)
			fprintf(stderr, "game %llu: %s\n",
				(unsigned long long)gamedb_game_get_index(g) + 1, gamedb_game_errmsg(g));
	}
	if (rc == GAMEDB_END) {
		if (gamedb_style12_session_errmsg(s)[0])
			fprintf(stderr, "warning: %s\n", gamedb_style12_session_errmsg(s));
		return 0;
	}
	fprintf(stderr, "%s\n", gamedb_style12_session_errmsg(s));
	return -1;
}

int main(int argc, char **argv)
{
	struct gamedb_style12_session *s;
	size_t chunk = 4096, n;
	char *buf;
	int status = 0;

	if (argc > 2 || (argc == 2 && (chunk = strtoul(argv[1], NULL, 10)) == 0)) {
		fprintf(stderr, "usage: %s [CHUNK] < session.log\n", argv[0]);
		return 2;
	}
	buf = malloc(chunk);
	s = gamedb_style12_session_new("stdin");
	if (!buf || !s) {
		fprintf(stderr, "out of memory\n");
		free(buf);
		gamedb_style12_session_free(s);
		return 2;
	}
	while ((n = fread(buf, 1, chunk, stdin)) > 0) {
		if (gamedb_style12_session_feed(s, buf, n) != GAMEDB_OK || drain(s) != 0) {
			fprintf(stderr, "%s\n", gamedb_style12_session_errmsg(s));
			status = 1;
			break;
		}
	}
	if (status == 0 && (gamedb_style12_session_end(s) != GAMEDB_OK || drain(s) != 0))
		status = 1;
	gamedb_style12_session_free(s);
	free(buf);
	return status ? status : failed;
}
