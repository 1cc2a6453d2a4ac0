/*
 * libgamedb - the libcbh side of bench/cbh-vs-libcbh.sh (issue 32): a ChessBase base read by
 * libcbh (rolandlo/libcbh, built by the script from its public source when it is present; not
 * part of libgamedb's build, not used by CI), the way libcbh's own tests read one: open, then
 * parseNext() on every game, and of each game what bench-cbh-walk reads of libgamedb's: the
 * squares of each move, the text of each comment (its std::string's size), each tag's value
 * (its size); again and again for at least SECONDS of CPU time.
 *
 *   libcbh-walk SECONDS DB.cbh
 *
 * One line on stdout, as bench-cbh-walk's: games G moves M passes P cpu S. M counts the real
 * moves of the game's AnnotatedMove list (main line and variations), not libcbh's push, pop
 * and skip markers, so that it can be compared with libgamedb's MOVE events.
 */
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <variant>

#include <cbh.h>
#include <interface.h>

static double cpu_now()
{
	timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

__attribute__((noinline)) static int measured_pass(const char *db, unsigned long long *games,
						    unsigned long long *moves, unsigned long long *sum)
{
	CbhCodec codec;
	*games = *moves = 0;
	if (codec.open(db) != OK) {
		fprintf(stderr, "libcbh-walk: cannot open %s\n", db);
		return 1;
	}
	size_t n = codec.numGames();
	for (size_t i = 0; i < n; i++) {
		GameReturnValue game;
		codec.parseNext(game);
		for (const auto &m : game.annotatedMoves) {
			if (m.promote == byte(-1) || m.promote == byte(-2) || m.promote == byte(-3))
				continue;
			++*moves;
			*sum += m.from + m.to;
			for (const auto &c : m.comments) {
				if (const auto *a = std::get_if<TextAfterComment>(&c))
					*sum += a->text.size();
				else if (const auto *b = std::get_if<TextBeforeComment>(&c))
					*sum += b->text.size();
			}
		}
		for (const auto &t : game.tags)
			*sum += t.value.size();
		++*games;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long games = 0, moves = 0, sum = 0, passes = 0;
	double t0, t;

	if (argc != 3) {
		fprintf(stderr, "usage: libcbh-walk SECONDS DB.cbh\n");
		return 2;
	}
	double seconds = atof(argv[1]);
	t0 = cpu_now();
	do {
		if (measured_pass(argv[2], &games, &moves, &sum))
			return 1;
		passes++;
		t = cpu_now() - t0;
	} while (t < seconds);
	printf("games %llu moves %llu passes %llu cpu %.4f\n", games, moves, passes, t);
	fprintf(stderr, "checksum %llu\n", sum);
	return 0;
}
