/*
 * libgamedb - position keys (lib/board/keys.c): the Polyglot key of every example the book
 * format's documentation gives, move by move from the standard start; keys of positions whose
 * en-passant square does or does not count; the xiangqi start key of doc/keys.md.
 * tests/test-keys.py checks every position of every real base against a second computation.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "xiangqi.h"
#include "testlib.h"

/* The documentation's examples: UCI moves from the start, and the key after them. */
static const struct {
	const char *moves;
	uint64_t key;
} examples[] = {
	{"", UINT64_C(0x463b96181691fc9c)},
	{"e2e4", UINT64_C(0x823c9b50fd114196)},
	{"e2e4 d7d5", UINT64_C(0x0756b94461c50fb0)},
	{"e2e4 d7d5 e4e5", UINT64_C(0x662fafb965db29d4)},
	{"e2e4 d7d5 e4e5 f7f5", UINT64_C(0x22a48b5a8e47ff78)},
	{"e2e4 d7d5 e4e5 f7f5 e1e2", UINT64_C(0x652a607ca3f242c1)},
	{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", UINT64_C(0x00fdd303c946bdd9)},
	{"a2a4 b7b5 h2h4 b5b4 c2c4", UINT64_C(0x3c8123ea7b067637)},
	{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", UINT64_C(0x5c3f9b829b279560)},
};

/* Plays space-separated UCI moves (without promotions) on pos, each found among the legal
 * moves. 0, or -1 when one is not legal. */
static int play(struct gamedb__pos *pos, const char *moves)
{
	const char *p = moves;

	while (*p) {
		struct gamedb__move list[GAMEDB__MAX_MOVES];
		int from = (p[0] - 'a') + 8 * (p[1] - '1'), to = (p[2] - 'a') + 8 * (p[3] - '1');
		int i, n = gamedb__gen_legal(pos, list), found = -1;
		for (i = 0; i < n; i++)
			if (list[i].from == from && list[i].to == to)
				found = i;
		if (found < 0)
			return -1;
		gamedb__pos_make(pos, &list[found]);
		p += 4;
		while (*p == ' ')
			p++;
	}
	return 0;
}

static uint64_t key_of_fen(const char *fen)
{
	struct gamedb__pos pos;
	const char *why = NULL;

	if (gamedb__pos_from_fen(&pos, fen, &why) != 0) {
		CHECK_MSG(0, "FEN rejected (%s): %s", why ? why : "?", fen);
		return 0;
	}
	return gamedb__pos_key(&pos);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof examples / sizeof examples[0]; i++) {
		struct gamedb__pos pos;
		gamedb__pos_startpos(&pos);
		if (play(&pos, examples[i].moves) != 0) {
			CHECK_MSG(0, "moves not legal: %s", examples[i].moves);
			continue;
		}
		CHECK_MSG(gamedb__pos_key(&pos) == examples[i].key, "after \"%s\": %016" PRIx64
			  ", want %016" PRIx64, examples[i].moves, gamedb__pos_key(&pos), examples[i].key);
	}
	/*
	 * The en-passant file counts only when a pawn of the side to move stands beside the pawn
	 * that advanced: after 1.e4 the FEN's "e3" changes nothing (the documentation's second
	 * example, read from a FEN that names the square); after 1.a4 b5 2.h4 b4 3.c4 it counts.
	 */
	CHECK(key_of_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") ==
	      UINT64_C(0x823c9b50fd114196));
	CHECK(key_of_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") ==
	      UINT64_C(0x823c9b50fd114196));
	CHECK(key_of_fen("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3") ==
	      UINT64_C(0x3c8123ea7b067637));
	CHECK(key_of_fen("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq - 0 3") !=
	      UINT64_C(0x3c8123ea7b067637));
	/* Castling rights count by side: losing one changes the key, the same rights do not. */
	CHECK(key_of_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1") !=
	      UINT64_C(0x463b96181691fc9c));
	CHECK(key_of_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1") ==
	      UINT64_C(0x463b96181691fc9c));
	{
		/* doc/keys.md gives the xiangqi start key; tests/test-keys.py recomputes the rule. */
		struct gamedb__xqpos xq;
		gamedb__xq_startpos(&xq);
		CHECK_MSG(gamedb__xq_key(&xq) == UINT64_C(0x5d156b8e687220c2), "xiangqi start key %016" PRIx64,
			  gamedb__xq_key(&xq));
	}
	return testlib_done();
}
