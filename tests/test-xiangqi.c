/*
 * libgamedb - tests for the xiangqi board engine (lib/board/xiangqi.c): perft against published
 * and independently computed figures, FEN in and out, validation, every movement rule through
 * gamedb__xq_move_play(), check and mate, ICCS / WXF / Chinese notation on hand-checked moves.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "testlib.h"
#include "xiangqi.h"

/* "h2" -> square (file letter a..i, rank digit 0..9, the ICCS frame). */
static int sq_of(const char *s)
{
	return (s[1] - '0') * 9 + (s[0] - 'a');
}

static int load(struct gamedb__xqpos *pos, const char *fen)
{
	const char *why = NULL;
	int rc = gamedb__xq_from_fen(pos, fen, &why);
	CHECK_MSG(rc == 0, "FEN rejected (%s): %s", why ? why : "?", fen);
	return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Perft */

struct perft_case {
	const char *fen;
	int depths;
	uint64_t nodes[5];
};

/*
 * Published figures: the start position and "position 2" from
 * https://www.chessprogramming.org/Chinese_Chess_Perft_Results, and two positions of
 * fairy-stockfish's own tests/perft.sh (which gives depth 4 only; 0 = not checked).
 *
 * The other positions were set up by hand for the rule they exercise; their figures came from
 * fairy-stockfish 11.1 (Debian package fairy-stockfish), computed once with
 *     printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition fen <FEN>\n'\
 *            'go perft <N>\nquit\n' | fairy-stockfish
 * and read off its "Nodes searched:" line. Not produced by this library.
 */
static const struct perft_case perft_cases[] = {
	{GAMEDB__XQ_START_FEN, 4, {44, 1920, 79666, 3290240}},
	{"r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 4,
	 {38, 1128, 43929, 1339047}},
	{"1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1", 4,
	 {0, 0, 0, 4485547}},
	{"4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1", 4, {0, 0, 0, 92741}},
	/* Flying-general pin: the red horse on e4 stands between the generals and cannot move. */
	{"4ka3/9/9/2n6/2P6/4N4/9/6n2/R8/3AK4 w - - 0 1", 5, {21, 335, 7336, 100640, 2322573}},
	/* Horse legs: horses blocking each other's legs, soldiers and elephants as blockers. */
	{"2bakab2/9/4n4/3np4/2N6/4N4/9/9/9/2BAKAB2 w - - 0 1", 5, {21, 312, 6447, 98834, 1925403}},
	/* Soldiers across the river on both sides (sideways moves, soldier checks). */
	{"3k5/4a4/2P1P4/3P5/9/9/5p3/3p5/5p3/4K4 w - - 0 1", 5, {10, 131, 1041, 11779, 93032}},
	/* Check evasion: double check by a cannon (screen e1) and a horse (c1); one move. */
	{"3ak4/4a4/9/9/4c4/9/9/9/2n1A4/3AK4 w - - 0 1", 5, {1, 22, 64, 1526, 5801}},
	/* Black to move, the black horse on e8 pinned by the flying-general rule. */
	{"4k4/4n4/9/9/9/9/9/2C6/9/4K4 b - - 0 1", 5, {2, 38, 299, 5382, 35459}},
	/* Cannon screens: cannons of both sides on one rank and on the generals' file. */
	{"3k1a3/4a4/4b4/9/2c1C1c2/9/4P4/9/4C4/3AK4 w - - 0 1", 4, {16, 484, 10862, 342906}},
	/* Middle game, Black in check from a cannon over its own elephant, general off e9. */
	{"r1ba1a3/4kn3/2n1b4/p1p1C3p/9/2P3R2/P3c3P/4B3N/4A4/2BAK1c2 b - - 0 1", 4,
	 {5, 129, 4557, 116682}},
	/* Opening after h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 g6g5 h6g6 h7i7. */
	{"r1bakabr1/9/1cn3n1c/p1p1p1R1p/6p2/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 w - - 10 6", 4,
	 {36, 1395, 52324, 2078694}},
};

static void test_perft(void)
{
	size_t i;
	int d;

	for (i = 0; i < sizeof perft_cases / sizeof perft_cases[0]; i++) {
		const struct perft_case *c = &perft_cases[i];
		struct gamedb__xqpos pos;
		if (load(&pos, c->fen) != 0)
			continue;
		for (d = 1; d <= c->depths; d++) {
			clock_t t0;
			uint64_t n;
			double secs;
			if (!c->nodes[d - 1])
				continue;
			t0 = clock();
			n = gamedb__xq_perft(&pos, d);
			secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
			CHECK_MSG(n == c->nodes[d - 1], "perft(%d) of %s: %" PRIu64 ", want %" PRIu64, d,
				  c->fen, n, c->nodes[d - 1]);
			if (d == c->depths)
				printf("perft %d = %" PRIu64 " in %.3f s: %s\n", d, n, secs, c->fen);
		}
	}
}

/* perft(d) = sum over the legal moves of perft(d - 1) after gamedb__xq_move_play(). */
static void test_perft_split(void)
{
	struct gamedb__move moves[GAMEDB__XQ_MAX_MOVES];
	struct gamedb__xqpos pos;
	uint64_t sum = 0;
	int n, i;

	gamedb__xq_startpos(&pos);
	n = gamedb__xq_gen_legal(&pos, moves);
	CHECK_EQ_INT(n, 44);
	for (i = 0; i < n; i++) {
		struct gamedb__xqpos next = pos;
		struct gamedb__move m;
		memset(&m, 0, sizeof m);
		m.from = moves[i].from;
		m.to = moves[i].to;
		CHECK(gamedb__xq_move_play(&next, &m) == 0);
		CHECK_EQ_INT(m.piece, moves[i].piece);
		CHECK_EQ_INT(m.rook_from, GAMEDB__NO_SQ);
		CHECK_EQ_INT(m.promo, 0);
		sum += gamedb__xq_perft(&next, 2);
	}
	CHECK_EQ_INT(sum, 79666);
	CHECK_EQ_INT(gamedb__xq_perft(&pos, 0), 1);
}

/* ---------------------------------------------------------------------------------------- */
/* FEN */

static void round_trip(const char *in, const char *want)
{
	struct gamedb__xqpos pos;
	char buf[128];
	size_t len;

	if (load(&pos, in) != 0)
		return;
	len = gamedb__xq_to_fen(&pos, buf, sizeof buf);
	CHECK_EQ_STR(buf, want);
	CHECK_EQ_INT(len, strlen(want));
}

static void bad_fen(const char *fen, const char *want_why)
{
	struct gamedb__xqpos pos;
	const char *why = NULL;
	int rc;

	memset(&pos, 0xAB, sizeof pos);
	rc = gamedb__xq_from_fen(&pos, fen, &why);
	CHECK_MSG(rc == -1, "FEN accepted: %s", fen ? fen : "(null)");
	CHECK_MSG(why != NULL && (!want_why || strcmp(why, want_why) == 0),
		  "FEN %s: reason \"%s\", want \"%s\"", fen ? fen : "(null)", why ? why : "(null)",
		  want_why ? want_why : "(any)");
	CHECK(pos.sq[0] == 0xAB); /* untouched on failure */
}

static void test_fen(void)
{
	struct gamedb__xqpos pos, start;
	char buf[128];
	size_t i, len;

	gamedb__xq_startpos(&start);
	CHECK_EQ_INT(start.sq[sq_of("e0")], GAMEDB__XQPC(GAMEDB__XQ_GENERAL, 0));
	CHECK_EQ_INT(start.sq[sq_of("e9")], GAMEDB__XQPC(GAMEDB__XQ_GENERAL, 1));
	CHECK_EQ_INT(start.sq[sq_of("b0")], GAMEDB__XQPC(GAMEDB__XQ_HORSE, 0));
	CHECK_EQ_INT(start.sq[sq_of("c9")], GAMEDB__XQPC(GAMEDB__XQ_ELEPHANT, 1));
	CHECK_EQ_INT(start.sq[sq_of("d0")], GAMEDB__XQPC(GAMEDB__XQ_ADVISOR, 0));
	CHECK_EQ_INT(start.sq[sq_of("h7")], GAMEDB__XQPC(GAMEDB__XQ_CANNON, 1));
	CHECK_EQ_INT(start.sq[sq_of("i0")], GAMEDB__XQPC(GAMEDB__XQ_CHARIOT, 0));
	CHECK_EQ_INT(start.sq[sq_of("g3")], GAMEDB__XQPC(GAMEDB__XQ_PAWN, 0));
	CHECK_EQ_INT(start.king[0], 4);
	CHECK_EQ_INT(start.king[1], 85);
	CHECK_EQ_INT(start.stm, 0);
	CHECK_EQ_INT(start.fullmove, 1);

	round_trip(GAMEDB__XQ_START_FEN, GAMEDB__XQ_START_FEN);
	for (i = 0; i < sizeof perft_cases / sizeof perft_cases[0]; i++)
		round_trip(perft_cases[i].fen, perft_cases[i].fen);
	/* 'h'/'e' letters, side "r", no clocks, no dash fields, extra blanks. */
	round_trip("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r", GAMEDB__XQ_START_FEN);
	round_trip("  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR   w  -  - ",
		   GAMEDB__XQ_START_FEN);
	round_trip("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b",
		   "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
	round_trip("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 7 12",
		   "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 7 12");
	/* A move number past what the API's int32_t holds is read as its largest value. */
	round_trip("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 4294967295",
		   "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 2147483647");
	round_trip("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 5",
		   "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 5 1");
	/* Clocks saturate; move number 0 becomes 1. */
	round_trip("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 99999 0",
		   "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 65535 1");
	/* Red in check with Red to move is a position to play from. */
	round_trip("3k5/9/9/9/3r5/9/9/9/9/3K5 w - - 0 1", "3k5/9/9/9/3r5/9/9/9/9/3K5 w - - 0 1");

	/* A short buffer truncates but reports the full length, as snprintf. */
	len = gamedb__xq_to_fen(&start, buf, 10);
	CHECK_EQ_INT(len, strlen(GAMEDB__XQ_START_FEN));
	CHECK_EQ_STR(buf, "rnbakabnr");

	bad_fen(NULL, "no FEN");
	bad_fen("", "board description incomplete");
	bad_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w", "board description incomplete");
	bad_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w", "more than 10 ranks");
	bad_fen("rnbakabnr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
		"rank has more than 9 points");
	bad_fen("rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
		"rank has fewer than 9 points");
	bad_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
		"rank has more than 9 points");
	bad_fen("rnbakabnr/0/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
		"bad character in the board description");
	bad_fen("rnbqkabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
		"bad character in the board description");
	bad_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "bad side to move");
	bad_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
		"bad side to move");
	bad_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR wb", "bad side to move");
	bad_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1",
		"bad field after the side to move");
	bad_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0x 1",
		"bad half-move clock");
	bad_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1x",
		"bad move number");
	/* Men that cannot be where they are. */
	bad_fen("3k5/9/9/9/9/9/9/9/9/3KK4 w", "more than one general of a side");
	bad_fen("9/9/9/9/9/9/9/9/9/4K4 w", "each side needs exactly one general");
	bad_fen("3k5/9/9/9/9/9/9/9/9/2K6 w", "general outside its palace");
	bad_fen("9/9/9/9/9/9/9/4k4/9/4K4 w", "general outside its palace");
	bad_fen("3k5/9/9/9/9/9/9/9/3A5/4K4 w", "advisor off its points");
	bad_fen("3k5/9/9/9/2B6/9/9/9/9/4K4 w", "elephant off its points");
	bad_fen("3k5/9/9/9/9/9/9/4b4/9/4K4 w", "elephant off its points");
	bad_fen("3k5/9/9/9/9/9/9/P8/9/4K4 w", "soldier behind its start rank");
	bad_fen("3k5/p8/9/9/9/9/9/9/9/4K4 w", "soldier behind its start rank");
	bad_fen("3k5/9/9/9/9/9/9/9/9/R1R1K1R2 w", "more men of a kind than a side has");
	bad_fen("3k5/9/9/9/9/9/P1P1P1P1P/9/9/4K1P2 w", "soldier behind its start rank");
	bad_fen("3k5/9/9/9/P8/9/P1P1P1P1P/9/9/4K4 w", "more men of a kind than a side has");
	bad_fen("4k4/9/9/9/9/9/9/9/9/4K4 w", "generals face each other");
	bad_fen("3k5/9/9/9/3r5/9/9/9/9/3K5 b", "side not to move is in check");
	bad_fen("3k5/9/9/9/9/9/9/9/9/3RK4 w", "side not to move is in check");

	/* A board written directly, then synced and validated. */
	memset(&pos, 0, sizeof pos);
	pos.fullmove = 1;
	pos.sq[sq_of("e0")] = GAMEDB__XQPC(GAMEDB__XQ_GENERAL, 0);
	pos.sq[sq_of("f9")] = GAMEDB__XQPC(GAMEDB__XQ_GENERAL, 1);
	gamedb__xq_sync(&pos);
	CHECK_EQ_INT(pos.king[0], sq_of("e0"));
	CHECK_EQ_INT(pos.king[1], sq_of("f9"));
	CHECK(gamedb__xq_validate(&pos, NULL) == 0);
	pos.sq[sq_of("e6")] = GAMEDB__XQPC(GAMEDB__XQ_ELEPHANT, 0); /* across the river */
	{
		const char *why = NULL;
		CHECK(gamedb__xq_validate(&pos, &why) == -1);
		CHECK_EQ_STR(why, "elephant off its points");
	}
	pos.sq[sq_of("e6")] = 0x05; /* not a xiangqi piece */
	CHECK(gamedb__xq_validate(&pos, NULL) == -1);
}

/* ---------------------------------------------------------------------------------------- */
/* Legality of single moves */

/* Plays an ICCS move through gamedb__xq_move_play(); returns its result. pos only changes on 0. */
static int play(struct gamedb__xqpos *pos, const char *iccs, struct gamedb__move *out)
{
	struct gamedb__xqpos before = *pos;
	struct gamedb__move m;
	int rc;

	memset(&m, 0, sizeof m);
	m.from = (uint8_t)sq_of(iccs);
	m.to = (uint8_t)sq_of(iccs + 2);
	rc = gamedb__xq_move_play(pos, &m);
	if (rc != 0)
		CHECK_MSG(memcmp(&before, pos, sizeof before) == 0, "%s changed the position", iccs);
	if (out)
		*out = m;
	return rc;
}

/* Expects the move to be legal (want 0) or illegal (want -1) in the position of fen. */
static void expect(const char *fen, const char *iccs, int want)
{
	struct gamedb__xqpos pos;
	struct gamedb__move moves[GAMEDB__XQ_MAX_MOVES];
	int n, i, found = 0;

	if (load(&pos, fen) != 0)
		return;
	CHECK_MSG(play(&pos, iccs, NULL) == want, "%s in %s: want %s", iccs, fen,
		  want ? "illegal" : "legal");
	/* The generator agrees. */
	if (load(&pos, fen) != 0)
		return;
	n = gamedb__xq_gen_legal(&pos, moves);
	for (i = 0; i < n; i++)
		if (moves[i].from == sq_of(iccs) && moves[i].to == sq_of(iccs + 2))
			found = 1;
	CHECK_MSG(found == (want == 0), "%s in %s: generator says %s", iccs, fen,
		  found ? "legal" : "illegal");
}

#define LEGAL(fen, mv) expect(fen, mv, 0)
#define ILLEGAL(fen, mv) expect(fen, mv, -1)

static void test_rules(void)
{
	const char *start = GAMEDB__XQ_START_FEN;
	struct gamedb__xqpos pos;
	struct gamedb__move m;

	/* Whose man, which squares. */
	ILLEGAL(start, "a9a8"); /* Black's chariot, Red to move */
	ILLEGAL(start, "e5e6"); /* empty square */
	ILLEGAL(start, "a0a3"); /* onto an own man */
	gamedb__xq_startpos(&pos);
	memset(&m, 0, sizeof m);
	m.from = 90;
	m.to = 0;
	CHECK(gamedb__xq_move_play(&pos, &m) == -1);
	m.from = 0;
	m.to = 200;
	CHECK(gamedb__xq_move_play(&pos, &m) == -1);

	/* Chariot: straight lines, no jumping. */
	LEGAL(start, "a0a2");
	ILLEGAL(start, "a0a4");
	ILLEGAL(start, "a0b1");

	/* Horse: the leg. b0 -> d1 has its leg c0 (own elephant) blocked; b0 -> c2 is free. */
	LEGAL(start, "b0c2");
	LEGAL(start, "b0a2");
	ILLEGAL(start, "b0d1");
	ILLEGAL(start, "b0b2");
	ILLEGAL("3k5/9/9/9/4P4/4N4/9/9/9/4K4 w", "e4d6"); /* leg e5 blocked */
	LEGAL("3k5/9/9/9/4P4/4N4/9/9/9/4K4 w", "e4c5");
	ILLEGAL("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b", "b9d8");

	/* Elephant: two points diagonally, eye free, never across the river. */
	LEGAL(start, "c0e2");
	LEGAL(start, "c0a2");
	ILLEGAL(start, "c0e1");
	ILLEGAL("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4e6"); /* across the river */
	ILLEGAL("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4a6");
	LEGAL("3k5/9/9/9/9/2B6/9/9/9/4K4 w", "c4e2");
	ILLEGAL("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w", "c0e2"); /* eye d1 blocked */
	LEGAL("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w", "c0a2");
	ILLEGAL("2b1k4/9/9/9/9/9/9/9/9/3K5 b", "c9e8");

	/* Advisor: one point diagonally inside the palace. */
	LEGAL(start, "d0e1");
	ILLEGAL(start, "d0d1");
	ILLEGAL("3k5/9/9/9/9/9/9/3A5/9/4K4 w", "d2c3"); /* leaves the palace */
	LEGAL("3k5/9/9/9/9/9/9/3A5/9/4K4 w", "d2e1");

	/* General: one point orthogonally inside the palace. */
	LEGAL(start, "e0e1");
	ILLEGAL(start, "e0d1");
	ILLEGAL("5k3/9/9/9/9/9/9/9/3K5/9 w", "d1c1");
	ILLEGAL("5k3/9/9/9/9/9/9/3K5/9/9 w", "d2d3");
	ILLEGAL("4k4/9/9/9/9/9/9/9/9/3K5 w", "d0d2");
	LEGAL("5k3/9/9/9/9/9/9/3K5/9/9 w", "d2d1");

	/* Soldier: forward; sideways only after the river; never backwards. */
	LEGAL(start, "c3c4");
	ILLEGAL(start, "c3b3");
	ILLEGAL(start, "c3c2");
	ILLEGAL("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b", "c6b6");
	LEGAL("3k5/9/9/9/2P6/9/9/9/9/4K4 w", "c5b5");
	LEGAL("3k5/9/9/9/2P6/9/9/9/9/4K4 w", "c5c6");
	ILLEGAL("3k5/9/9/9/2P6/9/9/9/9/4K4 w", "c5c4");
	ILLEGAL("3k5/9/9/9/2P6/9/9/9/9/4K4 w", "c5b6");
	LEGAL("3k5/9/9/9/9/2p6/9/9/9/4K4 b", "c4b4");
	ILLEGAL("3k5/9/9/9/9/2p6/9/9/9/4K4 b", "c4c5");
	ILLEGAL("3k5/9/9/9/2p6/9/9/9/9/4K4 b", "c5b5"); /* not yet across */

	/* Cannon: moves like a chariot, captures over exactly one screen. */
	LEGAL(start, "b2b9");  /* over the black cannon b7 onto the horse b9 */
	ILLEGAL(start, "b2b7"); /* a capture with no screen */
	ILLEGAL(start, "b2b8"); /* a quiet move over a man */
	LEGAL(start, "b2e2");
	LEGAL("r2k5/9/9/p8/9/9/P8/9/9/C3K4 w", "a0a6");  /* one screen (a3) */
	ILLEGAL("r2k5/9/9/p8/9/9/P8/9/9/C3K4 w", "a0a9"); /* two screens */
	ILLEGAL("r2k5/9/9/p8/9/9/P8/9/9/C3K4 w", "a0a4"); /* quiet over a3 */
	LEGAL("r2k5/9/9/9/9/9/P8/9/9/C3K4 w", "a0a9");   /* one screen (a3), far away */

	/* Flying generals: no move may leave the generals facing on an open file. */
	ILLEGAL("3k5/9/9/9/9/9/9/9/9/4K4 w", "e0d0");
	LEGAL("3k5/9/9/9/9/9/9/9/9/4K4 w", "e0f0");
	LEGAL("3k5/9/9/9/9/9/9/9/9/4K4 w", "e0e1");
	ILLEGAL("4k4/9/9/9/4N4/9/9/9/9/3K5 b", "e9d9");
	ILLEGAL("4k4/9/9/9/9/4N4/9/9/9/4K4 w", "e4c5"); /* the horse is pinned */
	ILLEGAL("4k4/9/9/9/9/4N4/9/9/9/4K4 w", "e4g3");
	LEGAL("4k4/9/9/9/9/4C4/9/9/9/4K4 w", "e4e8"); /* along the file is fine */

	/* Check: every move must leave the own general safe. */
	ILLEGAL("5k3/9/9/9/4r4/9/9/9/9/1N2K4 w", "b0c2"); /* ignores the check */
	ILLEGAL("5k3/9/9/9/4r4/9/9/9/9/1N2K4 w", "e0e1"); /* stays on the chariot's file */
	ILLEGAL("5k3/9/9/9/4r4/9/9/9/9/1N2K4 w", "e0f0"); /* faces the other general */
	LEGAL("5k3/9/9/9/4r4/9/9/9/9/1N2K4 w", "e0d0");
	if (load(&pos, "5k3/9/9/9/4r4/9/9/9/9/1N2K4 w") == 0) {
		struct gamedb__move moves[GAMEDB__XQ_MAX_MOVES];
		CHECK(gamedb__xq_in_check(&pos));
		CHECK_EQ_INT(gamedb__xq_gen_legal(&pos, moves), 1);
	}
	/* A chariot pinned against its general by an enemy chariot. */
	ILLEGAL("3k5/4r4/9/9/9/9/9/4R4/9/4K4 w", "e2d2");
	LEGAL("3k5/4r4/9/9/9/9/9/4R4/9/4K4 w", "e2e8");
	/* A man arriving between a cannon and the general makes a screen: check. */
	ILLEGAL("3k5/9/9/4c4/9/9/9/2N6/9/4K4 w", "c2e3");
	LEGAL("3k5/9/9/4c4/9/9/9/2N6/9/4K4 w", "c2d4");
	/* A man leaving a horse's leg exposes the general. */
	ILLEGAL("5k3/9/9/9/9/9/9/9/2nR5/4K4 w", "d1d5");
	ILLEGAL("5k3/9/9/9/9/9/9/9/2nR5/4K4 w", "d1d2");
	LEGAL("5k3/9/9/9/9/9/9/9/2nR5/4K4 w", "d1c1"); /* takes the horse */

	/* Null move: allowed when not in check, refused in check. */
	gamedb__xq_startpos(&pos);
	memset(&m, 0, sizeof m);
	m.flags = GAMEDB__MF_NULL;
	CHECK(gamedb__xq_move_play(&pos, &m) == 0);
	CHECK_EQ_INT(pos.stm, 1);
	CHECK_EQ_INT(m.from, sq_of("e0"));
	if (load(&pos, "5k3/9/9/9/4r4/9/9/9/9/1N2K4 w") == 0) {
		memset(&m, 0, sizeof m);
		m.flags = GAMEDB__MF_NULL;
		CHECK(gamedb__xq_move_play(&pos, &m) == -1);
	}
}

static void test_move_play(void)
{
	struct gamedb__xqpos pos;
	struct gamedb__move m;
	char fen[128];

	/* Completion of a capture, clocks, side to move. */
	gamedb__xq_startpos(&pos);
	CHECK(play(&pos, "b2b9", &m) == 0);
	CHECK_EQ_INT(m.piece, GAMEDB__XQ_CANNON);
	CHECK_EQ_INT(m.captured, GAMEDB__XQ_HORSE);
	CHECK_EQ_INT(m.flags, GAMEDB__MF_CAPTURE);
	CHECK_EQ_INT(m.rook_from, GAMEDB__NO_SQ);
	CHECK_EQ_INT(m.check, GAMEDB__CHECK_NONE);
	gamedb__xq_to_fen(&pos, fen, sizeof fen);
	CHECK_EQ_STR(fen, "rCbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR b - - 0 1");
	CHECK(play(&pos, "a9b9", &m) == 0);
	CHECK_EQ_INT(m.captured, GAMEDB__XQ_CANNON);
	CHECK(play(&pos, "h2e2", &m) == 0);
	CHECK_EQ_INT(m.flags, 0);
	CHECK_EQ_INT(m.captured, 0);
	gamedb__xq_to_fen(&pos, fen, sizeof fen);
	CHECK_EQ_STR(fen, "1rbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C4/9/RNBAKABNR b - - 1 2");

	/* Check, not mate: the black general steps to e8. */
	if (load(&pos, "4k4/9/9/9/9/9/9/9/9/R2K5 w") == 0) {
		CHECK(play(&pos, "a0a9", &m) == 0);
		CHECK_EQ_INT(m.check, GAMEDB__CHECK_CHECK);
		CHECK(gamedb__xq_in_check(&pos));
		CHECK(gamedb__xq_has_legal_move(&pos));
	}
	/* Mate: rank 9 by the chariot, rank 8 by the other, d9 by the flying-general rule. */
	if (load(&pos, "4k4/R8/9/9/9/9/9/9/9/3K4R w") == 0) {
		CHECK(play(&pos, "i0i9", &m) == 0);
		CHECK_EQ_INT(m.check, GAMEDB__CHECK_MATE);
		CHECK(gamedb__xq_in_check(&pos));
		CHECK(!gamedb__xq_has_legal_move(&pos));
		CHECK_EQ_INT(gamedb__xq_perft(&pos, 1), 0);
	}
	/* Stalemate (no legal move, not in check) is a loss too, reported as mate. */
	if (load(&pos, "4k4/9/5R3/9/R8/9/9/9/9/3K5 w") == 0) {
		CHECK(play(&pos, "a5a8", &m) == 0);
		CHECK_EQ_INT(m.check, GAMEDB__CHECK_MATE);
		CHECK(!gamedb__xq_in_check(&pos));
		CHECK(!gamedb__xq_has_legal_move(&pos));
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Notation */

/* Checks ICCS parsing and the WXF and Chinese forms of one move, then plays it. */
static void notation(struct gamedb__xqpos *pos, const char *iccs, const char *wxf, const char *cn)
{
	struct gamedb__move m;
	char buf[40];
	size_t len;

	if (gamedb__xq_parse_iccs(pos, iccs, &m) != 0) {
		CHECK_MSG(0, "ICCS %s not accepted", iccs);
		return;
	}
	len = gamedb__xq_move_iccs(&m, buf);
	CHECK_EQ_STR(buf, iccs);
	CHECK_EQ_INT(len, 4);
	len = gamedb__xq_move_wxf(pos, &m, buf);
	CHECK_MSG(strcmp(buf, wxf) == 0, "WXF of %s: %s, want %s", iccs, buf, wxf);
	CHECK_EQ_INT(len, strlen(wxf));
	len = gamedb__xq_move_chinese(pos, &m, buf);
	CHECK_MSG(strcmp(buf, cn) == 0, "Chinese of %s: %s, want %s", iccs, buf, cn);
	CHECK_EQ_INT(len, strlen(cn));
	CHECK(gamedb__xq_move_play(pos, &m) == 0);
}

/* Formats one move of the position of fen (not played further). */
static void notation_in(const char *fen, const char *iccs, const char *wxf, const char *cn)
{
	struct gamedb__xqpos pos;
	if (load(&pos, fen) == 0)
		notation(&pos, iccs, wxf, cn);
}

static void test_notation(void)
{
	struct gamedb__xqpos pos;
	struct gamedb__move m;
	const char *s = GAMEDB__XQ_START_FEN;

	/* An opening, Red and Black, every piece type. */
	gamedb__xq_startpos(&pos);
	notation(&pos, "h2e2", "C2.5", "炮二平五");
	notation(&pos, "h9g7", "H8+7", "马８进７");
	notation(&pos, "h0g2", "H2+3", "马二进三");
	notation(&pos, "i9h9", "R9.8", "车９平８");
	notation(&pos, "i0h0", "R1.2", "车一平二");
	notation(&pos, "g6g5", "P7+1", "卒７进１");
	notation(&pos, "h0h6", "R2+6", "车二进六");
	notation(&pos, "b7c7", "C2.3", "炮２平３");
	notation(&pos, "h6g6", "R2.3", "车二平三");
	notation(&pos, "c9e7", "E3+5", "象３进５");
	notation(&pos, "g6g5", "R3-1", "车三退一");
	notation(&pos, "d9e8", "A4+5", "士４进５");
	notation(&pos, "e2e6", "C5+4", "炮五进四");
	notation(&pos, "e9d9", "K5.4", "将５平４");
	notation(&pos, "f0e1", "A4+5", "仕四进五");
	notation(&pos, "e8d7", "A5+4", "士５进４");
	notation(&pos, "e0f0", "K5.4", "帅五平四");
	notation(&pos, "d9d8", "K4+1", "将４进１");
	notation(&pos, "f0f1", "K4+1", "帅四进一");
	notation(&pos, "d8d9", "K4-1", "将４退１");
	notation(&pos, "f1f0", "K4-1", "帅四退一");
	notation(&pos, "d7e8", "A4-5", "士４退５");

	notation_in(s, "b0c2", "H8+7", "马八进七");
	notation_in(s, "g0e2", "E3+5", "相三进五");
	notation_in(s, "c3c4", "P7+1", "兵七进一");
	notation_in(s, "a0a1", "R9+1", "车九进一");
	notation_in(s, "b2b9", "C8+7", "炮八进七");
	notation_in("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b",
		    "b7e7", "C2.5", "炮２平５");
	notation_in("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b",
		    "b9c7", "H2+3", "马２进３");
	notation_in("3k5/9/9/9/9/9/9/9/8R/4K4 w", "i1i0", "R1-1", "车一退一");

	/* Two chariots / horses / cannons on a file: front and rear from the mover's side. */
	notation_in("3k5/9/9/9/2R6/9/9/2R6/9/4K4 w", "c5c6", "R++1", "前车进一");
	notation_in("3k5/9/9/9/2R6/9/9/2R6/9/4K4 w", "c5c3", "R+-2", "前车退二");
	notation_in("3k5/9/9/9/2R6/9/9/2R6/9/4K4 w", "c2d2", "R-.6", "后车平六");
	notation_in("3k5/9/2r6/9/9/9/2r6/9/9/5K3 b", "c3c2", "R++1", "前车进１");
	notation_in("3k5/9/2r6/9/9/9/2r6/9/9/5K3 b", "c7c8", "R--1", "后车退１");
	notation_in("3k5/9/2r6/9/9/9/2r6/9/9/5K3 b", "c7b7", "R-.2", "后车平２");
	notation_in("3k5/9/9/9/4N4/9/4N4/9/9/5K3 w", "e5f7", "H++4", "前马进四");
	notation_in("3k5/9/9/9/4N4/9/4N4/9/9/5K3 w", "e3d1", "H--6", "后马退六");
	notation_in("3k5/9/9/9/9/4C4/9/9/4C4/5K3 w", "e1h1", "C-.2", "后炮平二");
	notation_in("3k5/9/9/9/9/4C4/9/9/4C4/5K3 w", "e4e8", "C++4", "前炮进四");

	/* Advisors and elephants on one file keep their file number (never ambiguous). */
	notation_in("3k5/9/9/9/9/9/9/3A5/5K3/3A5 w", "d2e1", "A6-5", "仕六退五");
	notation_in("3k5/9/9/9/9/9/9/3A5/5K3/3A5 w", "d0e1", "A6+5", "仕六进五");
	notation_in("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w", "c4e2", "E7-5", "相七退五");
	notation_in("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w", "c0e2", "E7+5", "相七进五");
	notation_in("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w", "c4a2", "E7-9", "相七退九");

	/* Soldiers: two, three, four, five on a file; tandems on two files. */
	notation_in("3k5/9/9/9/9/2p6/2p6/9/9/4K4 b", "c3c2", "P++1", "前卒进１");
	notation_in("3k5/9/9/9/9/2p6/2p6/9/9/4K4 b", "c4d4", "P-.4", "后卒平４");
	notation_in("3k5/9/9/9/9/2p6/2p6/2p6/9/4K4 b", "c3d3", "P3.4", "中卒平４");
	notation_in("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w", "c7d7", "P+.6", "前兵平六");
	notation_in("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w", "c6d6", "P7.6", "中兵平六");
	notation_in("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w", "c5b5", "P-.8", "后兵平八");
	notation_in("3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w", "c8c9", "+++1", "一兵进一");
	notation_in("3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w", "c7d7", "P+.6", "二兵平六");
	notation_in("3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w", "c6d6", "P-.6", "三兵平六");
	notation_in("3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w", "c5d5", "--.6", "四兵平六");
	notation_in("2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w", "c9d9", "++.6", "一兵平六");
	notation_in("2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w", "c8d8", "P+.6", "二兵平六");
	notation_in("2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w", "c7d7", "P7.6", "三兵平六");
	notation_in("2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w", "c6b6", "P-.8", "四兵平八");
	notation_in("2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w", "c5d5", "--.6", "五兵平六");
	notation_in("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w", "c7d7", "7+.6", "前七平六");
	notation_in("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w", "c6d6", "77.6", "中七平六");
	notation_in("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w", "c5b5", "7-.8", "后七平八");
	notation_in("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w", "g6g7", "3++1", "前三进一");
	notation_in("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w", "g5f5", "3-.4", "后三平四");
	/* A lone soldier beside tandems keeps its plain form. */
	notation_in("3k5/9/P8/2P6/2P6/9/9/9/9/4K4 w", "a7a8", "P9+1", "兵九进一");

	/* ICCS input forms. */
	gamedb__xq_startpos(&pos);
	CHECK(gamedb__xq_parse_iccs(&pos, "H2-E2", &m) == 0);
	CHECK_EQ_INT(m.from, sq_of("h2"));
	CHECK_EQ_INT(m.to, sq_of("e2"));
	CHECK_EQ_INT(m.piece, GAMEDB__XQ_CANNON);
	CHECK(gamedb__xq_parse_iccs(&pos, "h2e2", &m) == 0);
	CHECK(gamedb__xq_parse_iccs(&pos, "h2e", &m) == -1);
	CHECK(gamedb__xq_parse_iccs(&pos, "h2e2x", &m) == -1);
	CHECK(gamedb__xq_parse_iccs(&pos, "j2e2", &m) == -1);
	CHECK(gamedb__xq_parse_iccs(&pos, "h2e2 ", &m) == -1);
	CHECK(gamedb__xq_parse_iccs(&pos, "", &m) == -1);
	CHECK(gamedb__xq_parse_iccs(&pos, "h2h7", &m) == -1); /* cannon capture with no screen */
	CHECK(gamedb__xq_parse_iccs(&pos, "h2h9", &m) == 0);  /* over the screen h7 */
	CHECK_EQ_INT(m.captured, GAMEDB__XQ_HORSE);
	CHECK(gamedb__xq_parse_iccs(&pos, "h9g7", &m) == -1); /* Black's move */

	/* Null move. */
	{
		char buf[40];
		memset(&m, 0, sizeof m);
		m.flags = GAMEDB__MF_NULL;
		CHECK_EQ_INT(gamedb__xq_move_iccs(&m, buf), 4);
		CHECK_EQ_STR(buf, "0000");
		gamedb__xq_move_wxf(&pos, &m, buf);
		CHECK_EQ_STR(buf, "--");
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Boards written by hand (as a format decoder may), never validated: no crash, no overflow. */

static uint32_t rng_next(uint32_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 17;
	*st ^= *st << 5;
	return *st;
}

static void test_unvalidated_boards(void)
{
	static const uint8_t types[] = {GAMEDB__XQ_PAWN,    GAMEDB__XQ_HORSE,   GAMEDB__XQ_CHARIOT,
					GAMEDB__XQ_GENERAL, GAMEDB__XQ_ADVISOR, GAMEDB__XQ_ELEPHANT,
					GAMEDB__XQ_CANNON};
	struct gamedb__move moves[GAMEDB__XQ_MAX_MOVES];
	uint32_t st = 12345;
	int round, i, n;

	for (round = 0; round < 300; round++) {
		struct gamedb__xqpos pos;
		const int men = 2 + (int)(rng_next(&st) % 89);
		memset(&pos, 0, sizeof pos);
		pos.fullmove = 1;
		pos.stm = (uint8_t)(round & 1);
		for (i = 0; i < men; i++) {
			const uint32_t r = rng_next(&st);
			uint8_t pc = GAMEDB__XQPC(types[r % 7], (r >> 3) & 1);
			if (round % 10 == 9 && (r >> 4) % 7 == 0)
				pc = (uint8_t)(r >> 8); /* any byte at all */
			pos.sq[(r >> 12) % GAMEDB__XQ_SQUARES] = pc;
		}
		gamedb__xq_sync(&pos);
		(void)gamedb__xq_validate(&pos, NULL);
		(void)gamedb__xq_in_check(&pos);
		(void)gamedb__xq_has_legal_move(&pos);
		n = gamedb__xq_gen_legal(&pos, moves);
		CHECK(n >= 0 && n <= GAMEDB__XQ_MAX_MOVES);
		for (i = 0; i < n; i++) {
			char w[16], c[32], iccs[8], fen[128];
			struct gamedb__xqpos next = pos;
			struct gamedb__move m = moves[i];
			CHECK(gamedb__xq_move_wxf(&pos, &m, w) < sizeof w);
			CHECK(gamedb__xq_move_chinese(&pos, &m, c) < sizeof c);
			CHECK(gamedb__xq_move_iccs(&m, iccs) == 4);
			m.flags = 0;
			CHECK(gamedb__xq_move_play(&next, &m) == 0);
			CHECK(gamedb__xq_to_fen(&next, fen, sizeof fen) < sizeof fen);
		}
		(void)gamedb__xq_perft(&pos, 2);
	}
}

int main(void)
{
	test_perft();
	test_perft_split();
	test_fen();
	test_rules();
	test_move_play();
	test_notation();
	test_unvalidated_boards();
	return testlib_done();
}
