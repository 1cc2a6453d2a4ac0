/*
 * gamedb info DB...: what a database is (format, games, deleted games), with the fields of
 * its format (SCID's version and flags, ChessBase's encoding modes and guiding texts) and the
 * base's own properties (a CCBridge library's name, source and creator; issue 29).
 */
#include "gamedb-tool.h"

#include <inttypes.h>
#include <string.h>

/*
 * The base's own properties (gamedb_reader_get_property_*()), one "name: value" line each, the
 * name's hyphens as spaces as the other lines have them ("creator email: "); a value of several
 * lines goes on in lines indented by two spaces. A value repaired on reading is said on stderr.
 */
static void print_properties(struct gamedb_reader *r)
{
	int32_t i, n = gamedb_reader_get_property_count(r);

	if (n < 0) {
		fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
		return;
	}
	if (gamedb_reader_errcode(r) != GAMEDB_E_NONE)
		fprintf(stderr, "gamedb: warning: %s\n", gamedb_reader_errmsg(r));
	for (i = 0; i < n; i++) {
		const char *name = gamedb_reader_get_property_name(r, i);
		const char *v = gamedb_reader_get_property_value(r, i);
		for (; *name; name++)
			putchar(*name == '-' ? ' ' : *name);
		fputs(":", stdout);
		if (*v)
			putchar(' ');
		for (; *v; v++) {
			putchar(*v);
			if (*v == '\n' && v[1] != '\n')
				fputs("  ", stdout);
		}
		putchar('\n');
	}
}

int cmd_info(const struct opts *o)
{
	int i, status = 0;

	for (i = 0; i < o->ndbs; i++) {
		struct gamedb_reader *r = open_db(o->dbs[i], o, 0);
		struct gamedb_scid *s;
		struct gamedb_chessbase *cb;
		struct gamedb_game *g;
		uint64_t count = 0, deleted = 0, failed = 0;
		uint64_t modes[65]; /* ChessBase: games per encoding mode; [64] unreadable */
		int32_t rc;

		if (!r) {
			status = 2;
			continue;
		}
		printf("file: %s\n", o->dbs[i]);
		printf("format: %s\n", gamedb_reader_format(r));
		if (gamedb_reader_game_count(r, &count) == GAMEDB_OK)
			printf("games: %" PRIu64 "\n", count);
		cb = gamedb_reader_get_chessbase(r);
		memset(modes, 0, sizeof modes);
		while ((rc = gamedb_reader_next_game(r, &g)) != GAMEDB_END && rc != GAMEDB_FATAL) {
			if (rc == GAMEDB_FAILED)
				failed++;
			else if (gamedb_game_is_deleted(g))
				deleted++;
			if (cb && rc != GAMEDB_FAILED) {
				/* How each game's moves are stored: one .cbg byte per game. */
				const int64_t m = gamedb_chessbase_get_game_field(cb, g,
										  GAMEDB_CB_ENCODING_MODE);
				modes[m >= 0 && m < 64 ? m : 64]++;
			}
		}
		printf("deleted: %" PRIu64 "\n", deleted);
		if (failed)
			printf("unreadable headers: %" PRIu64 "\n", failed);
		if (rc == GAMEDB_FATAL) {
			fprintf(stderr, "gamedb: %s\n", gamedb_reader_errmsg(r));
			status = 2;
		}
		s = gamedb_reader_get_scid(r);
		if (s) {
			int32_t k;
			int32_t v = gamedb_scid_get_version(s);
			/* SCID 3, 4 or 5, then the index it was read from (si5 has no version) */
			printf("scid version: %d (.si%d, index version %d)\n", (int)(v / 100),
			       (int)(v / 100), (int)v);
			printf("description: %s\n", gamedb_scid_get_description(s));
			printf("base type: %d\n", (int)gamedb_scid_get_base_type(s));
			for (k = 1; k <= 6; k++) {
				const char *fn = gamedb_scid_get_flag_name(s, k);
				if (fn && *fn)
					printf("custom flag %d: %s\n", (int)k, fn);
			}
		}
		if (cb) {
			uint64_t k, nt = gamedb_chessbase_get_text_count(cb);
			const char *sep = "";
			printf("encoding modes:");
			for (k = 0; k < 65; k++) {
				if (!modes[k])
					continue;
				if (k < 64)
					printf("%s %" PRIu64 " x%" PRIu64 "%s", sep, k, modes[k],
					       k >= 10 && k <= 11 ? " (Chess960)" :
					       k > 7 ? " (not read)" : "");
				else
					printf("%s unreadable x%" PRIu64, sep, modes[k]);
				sep = ",";
			}
			printf("%s\n", *sep ? "" : " none");
			printf("charset: %s\n", gamedb_chessbase_get_charset(cb));
			printf("guiding texts: %" PRIu64 "\n", nt);
			for (k = 0; k < nt; k++) {
				const char *title = NULL, *lang = NULL;
				if (gamedb_chessbase_load_text(cb, k) != GAMEDB_FAILED &&
				    gamedb_chessbase_get_text_title_count(cb) > 0)
					title = gamedb_chessbase_get_text_title(cb, 0, &lang);
				printf("text %" PRIu64 ": %s%s%s%s\n", k + 1, title ? title : "?",
				       lang && *lang ? " (" : "", lang && *lang ? lang : "",
				       lang && *lang ? ")" : "");
			}
		}
		/*
		 * The SCID and ChessBase lines above stay as they were (SCID's version line says the
		 * index file; ChessBase's need per-game fields and the texts): the properties of
		 * the other formats.
		 */
		if (!s && !cb && rc != GAMEDB_FATAL)
			print_properties(r);
		if (i + 1 < o->ndbs)
			putchar('\n');
		gamedb_reader_free(r);
	}
	return status;
}
