/*
 * libgamedb - tests for the chess board engine (lib/board/chess-*.c): perft, FEN, SAN, parse_san,
 * move_complete, castling, SCID piece slots.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "testlib.h"

static int sq_of(const char *s)
{
	return (s[0] - 'a') + 8 * (s[1] - '1');
}

static int load(struct gamedb__pos *pos, const char *fen)
{
	const char *why = NULL;
	int rc = gamedb__pos_from_fen(pos, fen, &why);
	CHECK_MSG(rc == 0, "FEN rejected (%s): %s", why ? why : "?", fen);
	return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Perft */

struct perft_case {
	const char *fen;
	int depths;
	uint64_t nodes[6];
};

static const struct perft_case perft_cases[] = {
	/* https://www.chessprogramming.org/Perft_Results */
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5,
	 {20, 400, 8902, 197281, 4865609}},
	{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 4,
	 {48, 2039, 97862, 4085603}},
	{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 5, {14, 191, 2812, 43238, 674624}},
	{"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4,
	 {6, 264, 9467, 422333}},
	/* position 4 mirrored */
	{"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 4,
	 {6, 264, 9467, 422333}},
	{"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, {44, 1486, 62379}},
	{"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3,
	 {46, 2079, 89890}},
	/* Chess960, https://www.chessprogramming.org/Chess960_Perft_Results (fischer.epd) */
	{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 4,
	 {21, 528, 12189, 326672}},
	{"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 4,
	 {21, 807, 18002, 667366}},
	/* king f1 between rooks e1/g1: castling swaps king and rook */
	{"b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", 4,
	 {20, 479, 10471, 273318}},
	{"qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", 4,
	 {22, 593, 13440, 382958}},
	{"qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9", 4,
	 {29, 899, 26578, 824055}},
	/*
	 * Crazyhouse. The last figure of each of the first five is published in Fairy-Stockfish's
	 * tests/perft.sh; every figure here was also computed by fairy-stockfish 11.1
	 * (UCI_Variant crazyhouse, "go perft N") as an independent oracle.
	 */
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1", 5,
	 {20, 400, 8902, 197281, 4888832}},
	{"2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", 2, {301, 75353}},
	{"2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", 3, {67, 3083, 88634}},
	{"2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1", 3, {67, 3083, 88634}},
	{"r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1", 3,
	 {42, 1347, 58057}},
	/* promoted queen on d2 (captured it becomes a pawn in hand), promotions, drops, castling */
	{"r3k2r/1P3ppp/8/3q4/8/2n5/P2Q~1PPP/R3K2R[NPbp] w KQkq - 0 1", 3, {120, 14624, 1287840}},
	{"r3k2r/1P3ppp/8/3q4/8/2n5/P2Q~1PPP/R3K2R[NPbp] b KQkq - 0 1", 3, {135, 15552, 1515275}},
	{"4k3/1P6/8/3q4/8/8/3Q~4/4K3[] b - - 0 1", 4, {30, 695, 15814, 360706}},
	{"4k3/8/8/8/8/8/8/R3K2R[p] b KQ - 0 1", 4, {53, 1278, 12604, 333811}},
};

static void test_perft(void)
{
	size_t i;
	for (i = 0; i < sizeof perft_cases / sizeof perft_cases[0]; i++) {
		const struct perft_case *c = &perft_cases[i];
		struct gamedb__pos pos;
		int d;
		if (load(&pos, c->fen))
			continue;
		for (d = 1; d <= c->depths; d++) {
			uint64_t got = gamedb__perft(&pos, d);
			CHECK_MSG(got == c->nodes[d - 1], "perft(%d) of %s: %llu, expected %llu", d,
				  c->fen, (unsigned long long)got, (unsigned long long)c->nodes[d - 1]);
		}
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Move helpers */

/* Finds the legal move from-to(-promo) in pos (castling given as king -> destination). */
static int find_move(const struct gamedb__pos *pos, const char *uci, struct gamedb__move *out)
{
	struct gamedb__move moves[GAMEDB__MAX_MOVES];
	int n = gamedb__gen_legal(pos, moves), i;
	for (i = 0; i < n; i++) {
		char buf[8];
		gamedb__move_uci(&moves[i], buf);
		if (strcmp(buf, uci) == 0) {
			*out = moves[i];
			return 0;
		}
	}
	return -1;
}

/* SAN of the legal move `uci` in the position `fen`. */
static const char *san_of(const char *fen, const char *uci, char *buf)
{
	struct gamedb__pos pos;
	struct gamedb__move m;
	strcpy(buf, "(none)");
	if (load(&pos, fen))
		return buf;
	if (find_move(&pos, uci, &m)) {
		snprintf(buf, 16, "(no %s)", uci);
		return buf;
	}
	gamedb__move_san(&pos, &m, buf);
	return buf;
}

static void test_san(void)
{
	char buf[32];
	struct gamedb__pos pos;
	struct gamedb__move m;

	/* plain moves */
	CHECK_EQ_STR(san_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", buf),
		     "e4");
	CHECK_EQ_STR(san_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", buf),
		     "Nf3");
	/* disambiguation by file: knights b1 and f3 both reach d2 */
	CHECK_EQ_STR(san_of("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", buf), "Nbd2");
	CHECK_EQ_STR(san_of("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "f3d2", buf), "Nfd2");
	/* disambiguation by rank: rooks a1 and a5 both reach a3 */
	CHECK_EQ_STR(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", buf), "R1a3");
	CHECK_EQ_STR(san_of("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", buf), "R5a3");
	/* by both: queens on a1, a3 and c1 all reach b2 */
	CHECK_EQ_STR(san_of("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "a1b2", buf), "Qa1b2");
	CHECK_EQ_STR(san_of("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "a3b2", buf), "Q3b2");
	CHECK_EQ_STR(san_of("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1", "c1b2", buf), "Qcb2");
	/* file letter preferred when files differ even if ranks also differ */
	CHECK_EQ_STR(san_of("4k3/8/8/8/8/8/4N3/1N2K3 w - - 0 1", "b1c3", buf), "Nbc3");
	CHECK_EQ_STR(san_of("4k3/8/8/8/8/8/4N3/1N2K3 w - - 0 1", "e2c3", buf), "Nec3");
	/* capture with disambiguation */
	CHECK_EQ_STR(san_of("4k3/8/8/8/8/2p5/4N3/1N2K3 w - - 0 1", "b1c3", buf), "Nbxc3");
	/* a pinned knight causes no disambiguation: the b1 knight is pinned by the a1 rook */
	CHECK_EQ_STR(san_of("4k3/8/8/8/8/8/8/rN2KN2 w - - 0 1", "f1d2", buf), "Nd2");
	CHECK_EQ_STR(san_of("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "f1d2", buf), "Nfd2");
	/* a rook pinned diagonally cannot go to d4 either */
	CHECK_EQ_STR(san_of("4k3/8/8/b7/7R/8/3R4/4K3 w - - 0 1", "h4d4", buf), "Rd4");
	CHECK_EQ_STR(san_of("4k3/8/8/8/7R/8/3R4/4K3 w - - 0 1", "h4d4", buf), "Rhd4");
	/* a rook pinned along the file may still move along it, so it counts */
	CHECK_EQ_STR(san_of("4r2k/8/8/8/4R3/8/R7/4K3 w - - 0 1", "e4e2", buf), "Ree2");
	CHECK_EQ_STR(san_of("4r2k/8/8/8/4R3/8/R7/4K3 w - - 0 1", "a2e2", buf), "Rae2");
	/* a blocked rook does not count */
	CHECK_EQ_STR(san_of("7k/8/8/8/8/8/R7/R3K3 w - - 0 1", "a2a3", buf), "Ra3");
	/* check and mate */
	CHECK_EQ_STR(san_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", buf), "Ra8+");
	CHECK_EQ_STR(san_of("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", buf), "Ra8#");
	CHECK_EQ_STR(san_of("rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq g6 0 3",
			    "d1h5", buf),
		     "Qh5#");
	/* promotions */
	CHECK_EQ_STR(san_of("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", buf), "e8=Q");
	CHECK_EQ_STR(san_of("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8n", buf), "e8=N");
	CHECK_EQ_STR(san_of("3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7d8r", buf), "exd8=R");
	/* under-promotion with capture and check: the knight on f8 checks the king on h7 */
	CHECK_EQ_STR(san_of("5r2/4P2k/8/8/8/8/8/4K3 w - - 0 1", "e7f8n", buf), "exf8=N+");
	CHECK_EQ_STR(san_of("5r2/4P2k/8/8/8/8/8/4K3 w - - 0 1", "e7f8q", buf), "exf8=Q");
	CHECK_EQ_STR(san_of("5r1k/4P1pp/8/8/8/8/8/4K3 w - - 0 1", "e7f8q", buf), "exf8=Q#");
	CHECK_EQ_STR(san_of("5r1k/4P1pp/8/8/8/8/8/4K3 w - - 0 1", "e7f8r", buf), "exf8=R#");
	CHECK_EQ_STR(san_of("5r1k/4P1pp/8/8/8/8/8/4K3 w - - 0 1", "e7f8n", buf), "exf8=N");
	CHECK_EQ_STR(san_of("8/8/8/8/8/8/1p2K3/k1R5 b - - 0 1", "b2c1q", buf), "bxc1=Q");
	CHECK_EQ_STR(san_of("8/8/8/8/8/8/1p6/k1R1K3 b - - 0 1", "b2c1q", buf), "bxc1=Q+");
	CHECK_EQ_STR(san_of("8/8/8/8/8/8/1p6/k1R1K3 b - - 0 1", "b2c1b", buf), "bxc1=B");
	/* en passant */
	CHECK_EQ_STR(san_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", buf), "exd6");
	CHECK_EQ_STR(san_of("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "d4e3", buf), "dxe3");
	/* castling */
	CHECK_EQ_STR(san_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", buf), "O-O");
	CHECK_EQ_STR(san_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", buf), "O-O-O");
	CHECK_EQ_STR(san_of("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", buf), "O-O");
	CHECK_EQ_STR(san_of("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", buf), "O-O-O");
	CHECK_EQ_STR(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", buf), "O-O+");
	/* king moves never disambiguate */
	CHECK_EQ_STR(san_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d2", buf), "Kd2");

	/* castling's UCI: the king's move, or the king taking its rook when the king stays */
	if (load(&pos, "4k3/8/8/8/8/8/8/4K2R w K - 0 1") == 0) {
		CHECK_EQ_INT(gamedb__move_castle(&pos, 1, &m), 0);
		gamedb__move_uci(&m, buf);
		CHECK_EQ_STR(buf, "e1g1");
	}
	if (load(&pos, "4k3/8/8/8/8/8/8/6KR w H - 0 1") == 0) {
		CHECK_EQ_INT(gamedb__move_castle(&pos, 1, &m), 0);
		CHECK(m.from == 6 && m.to == 6 && m.rook_from == 7);
		gamedb__move_uci(&m, buf);
		CHECK_EQ_STR(buf, "g1h1");
	}

	/* null move */
	gamedb__pos_startpos(&pos);
	CHECK_EQ_INT(gamedb__move_null(&pos, &m), 0);
	gamedb__move_san(&pos, &m, buf);
	CHECK_EQ_STR(buf, "--");
	gamedb__move_uci(&m, buf);
	CHECK_EQ_STR(buf, "0000");
	gamedb__pos_make(&pos, &m);
	CHECK_EQ_INT(pos.stm, 1);
	CHECK_EQ_INT(pos.sq[4], GAMEDB__PC(GAMEDB__KING, 0));
	/* no null move when in check */
	if (load(&pos, "4k3/8/8/8/8/8/8/4K2r w - - 0 1") == 0)
		CHECK_EQ_INT(gamedb__move_null(&pos, &m), -1);
}

/* ---------------------------------------------------------------------------------------- */
/* FEN */

static void fen_roundtrip(const char *fen, const char *expect)
{
	struct gamedb__pos pos;
	char buf[128];
	size_t n;
	if (load(&pos, fen))
		return;
	n = gamedb__pos_to_fen(&pos, buf, sizeof buf);
	CHECK_EQ_STR(buf, expect ? expect : fen);
	CHECK_EQ_INT(n, strlen(buf));
	{
		/* the one-step parse-and-normalise gives the same FEN and the same position */
		struct gamedb__pos q;
		char nb[128];
		size_t len = 0;
		const char *why = NULL;
		CHECK_EQ_INT(gamedb__pos_from_fen_normal(&q, fen, nb, sizeof nb, &len, &why), 0);
		CHECK_EQ_STR(nb, expect ? expect : fen);
		CHECK_EQ_INT(len, strlen(nb));
		CHECK(memcmp(&q, &pos, sizeof q) == 0);
	}
}

static void fen_rejected(const char *fen)
{
	struct gamedb__pos pos;
	const char *why = NULL;
	CHECK_MSG(gamedb__pos_from_fen(&pos, fen, &why) == -1 && why, "accepted: %s", fen);
}

static void test_fen(void)
{
	struct gamedb__pos pos, start;
	char buf[128];

	gamedb__pos_startpos(&start);
	gamedb__pos_to_fen(&start, buf, sizeof buf);
	CHECK_EQ_STR(buf, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	if (load(&pos, buf) == 0)
		CHECK(memcmp(&pos, &start, sizeof pos) == 0);

	fen_roundtrip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", NULL);
	fen_roundtrip("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", NULL);
	fen_roundtrip("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", NULL);
	fen_roundtrip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", NULL);
	fen_roundtrip("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", NULL);
	fen_roundtrip("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", NULL);
	fen_roundtrip("6k1/5ppp/8/8/8/8/8/R5K1 b - - 49 187", NULL);
	fen_roundtrip("8/8/4k3/8/8/4K3/8/8 b - - 100 1234567", NULL);
	fen_roundtrip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1", NULL);
	/* missing clocks, missing ep + clocks, missing everything after the side */
	fen_roundtrip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
		      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
	fen_roundtrip("r3k2r/8/8/8/8/8/8/R3K2R b KQkq",
		      "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
	fen_roundtrip("r3k3/8/8/8/8/8/8/4K2R w", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
	fen_roundtrip("4k3/8/8/8/8/8/8/4K3 w - - 5", "4k3/8/8/8/8/8/8/4K3 w - - 5 1");
	/*
	 * A move number past what the API's int32_t holds is read as its largest value and stays
	 * there after Black moves (it came out as -1, then wrapped to 0).
	 */
	fen_roundtrip("4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295", "4k3/8/8/8/8/8/8/4K3 b - - 0 2147483647");
	fen_roundtrip("4k3/8/8/8/8/8/8/4K3 b - - 0 99999999999999999999",
		      "4k3/8/8/8/8/8/8/4K3 b - - 0 2147483647");
	if (load(&pos, "4k3/8/8/8/8/8/8/4K3 b - - 0 2147483647") == 0) {
		struct gamedb__move m;
		memset(&m, 0, sizeof m);
		m.from = 60;
		m.to = 59;
		CHECK(gamedb__move_play(&pos, &m) == 0);
		CHECK(pos.fullmove == 2147483647u && pos.stm == 0);
	}
	/* Chess960: Shredder letters, outermost rooks become K/Q (X-FEN), inner ones keep letters */
	fen_roundtrip("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
	fen_roundtrip("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
		      "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w KQ - 1 9");
	/* a second rook outside the castling rook: X-FEN names the inner rook by its file */
	fen_roundtrip("1r2k1rr/8/8/8/8/8/8/RR2K2R w Bg - 0 1", NULL);
	fen_roundtrip("1r2k1rr/8/8/8/8/8/8/RR2K2R w BHh - 0 1", "1r2k1rr/8/8/8/8/8/8/RR2K2R w KBk - 0 1");
	if (load(&pos, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9") == 0) {
		CHECK_EQ_INT(pos.chess960, 1);
		CHECK_EQ_INT(pos.castle_rook[0][0], sq_of("f1"));
		CHECK_EQ_INT(pos.castle_rook[0][1], sq_of("h1"));
		CHECK_EQ_INT(pos.castle_rook[1][0], sq_of("f8"));
		CHECK_EQ_INT(pos.castle_rook[1][1], sq_of("h8"));
	}
	/* X-FEN K/Q in a 960 position resolve to the outermost rooks */
	if (load(&pos, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9") == 0) {
		CHECK_EQ_INT(pos.castle_rook[0][0], sq_of("f1"));
		CHECK_EQ_INT(pos.castle_rook[1][1], sq_of("h8"));
		CHECK_EQ_INT(pos.chess960, 1);
		CHECK_EQ_INT(gamedb__perft(&pos, 3), 12189);
	}
	/* Shredder letters in the classical setup are classical chess */
	if (load(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1") == 0) {
		CHECK_EQ_INT(pos.chess960, 0);
		CHECK(memcmp(&pos, &start, sizeof pos) == 0);
	}
	/* castling rights that do not match the board are dropped */
	fen_roundtrip("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
	/* ep squares on the 3rd/6th rank are kept as written (as Scid does), even meaningless ones,
	 * but only real ones give en-passant captures */
	fen_roundtrip("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", NULL);
	fen_roundtrip("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1", NULL);
	if (load(&pos, "4k3/8/8/8/8/8/3Pp3/4K3 w - e3 0 1") == 0) {
		/* wrong rank for white to move: d2xe3 "en passant" must not appear */
		struct gamedb__move moves[GAMEDB__MAX_MOVES], m;
		CHECK_EQ_INT(gamedb__gen_legal(&pos, moves), 4); /* Kxe2, Kf2, d3, d4 */
		CHECK_EQ_INT(gamedb__perft(&pos, 1), 4);
		memset(&m, 0, sizeof m);
		m.from = (uint8_t)sq_of("d2");
		m.to = (uint8_t)sq_of("e3");
		CHECK_EQ_INT(gamedb__move_complete(&pos, &m), -1);
	}
	if (load(&pos, "4k3/8/8/2P5/8/8/8/4K3 w - d6 0 1") == 0) {
		/* no black pawn on d5: no capture either */
		struct gamedb__move moves[GAMEDB__MAX_MOVES];
		CHECK_EQ_INT(gamedb__gen_legal(&pos, moves), 6);
	}

	/* after a double push the ep square appears only with an enemy pawn beside it */
	{
		struct gamedb__move m;
		gamedb__pos_startpos(&pos);
		if (find_move(&pos, "e2e4", &m) == 0) {
			gamedb__pos_make(&pos, &m);
			gamedb__pos_to_fen(&pos, buf, sizeof buf);
			CHECK_EQ_STR(buf, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
		}
		if (load(&pos, "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3") == 0 &&
		    find_move(&pos, "e2e4", &m) == 0) {
			CHECK(m.flags & GAMEDB__MF_DOUBLE);
			gamedb__pos_make(&pos, &m);
			gamedb__pos_to_fen(&pos, buf, sizeof buf);
			CHECK_EQ_STR(buf, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
		}
		/* h-file pawn: no wrap to the a-file */
		if (load(&pos, "4k3/8/8/8/p7/8/7P/4K3 w - - 0 1") == 0 &&
		    find_move(&pos, "h2h4", &m) == 0) {
			gamedb__pos_make(&pos, &m);
			CHECK_EQ_INT(pos.ep, GAMEDB__NO_SQ);
		}
	}

	/* the position with the most legal moves known (218) */
	if (load(&pos, "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1") == 0) {
		struct gamedb__move moves[GAMEDB__MAX_MOVES];
		CHECK_EQ_INT(gamedb__gen_legal(&pos, moves), 218);
	}

	/* truncation */
	CHECK_EQ_INT(gamedb__pos_to_fen(&start, buf, 10), 56);
	CHECK_EQ_STR(buf, "rnbqkbnr/");

	/* rejected */
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1");
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1");
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1");
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1");
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1");
	fen_rejected("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1");
	fen_rejected("4k3/8/8/8/8/8/8/p3K3 w - - 0 1");
	fen_rejected("4k3/8/8/8/8/8/8/4K2r b - - 0 1"); /* white, not to move, in check */
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1");
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPXPPPP/RNBQKBNR w KQkq - 0 1");
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1");
	fen_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1");
	fen_rejected("4k3/8/8/8/8/PPPPPPPP/PPPPPPPP/RN2K3 w - - 0 1"); /* 19 white men */
	fen_rejected("");
	/* accepted: in check is fine for the side to move, trailing slash, EPD operations */
	fen_roundtrip("4k3/8/8/8/8/8/8/4K2r w - - 0 1", NULL);
	fen_roundtrip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
		      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	fen_roundtrip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;",
		      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

/* The board field written from 64 squares, as the square-by-square format readers use it. */
static void test_fen_placement(void)
{
	static const uint8_t back[8] = { GAMEDB__ROOK, GAMEDB__KNIGHT, GAMEDB__BISHOP, GAMEDB__QUEEN,
					 GAMEDB__KING, GAMEDB__BISHOP, GAMEDB__KNIGHT, GAMEDB__ROOK };
	uint8_t sq[64];
	char buf[80];
	int f;

	memset(sq, 0, sizeof sq);
	memset(buf, 'x', sizeof buf);
	CHECK_EQ_INT(gamedb__fen_placement(sq, buf), 15);
	CHECK(memcmp(buf, "8/8/8/8/8/8/8/8x", 16) == 0); /* no NUL written */

	for (f = 0; f < 8; f++) {
		sq[f] = GAMEDB__PC(back[f], 0);
		sq[8 + f] = GAMEDB__PC(GAMEDB__PAWN, 0);
		sq[48 + f] = GAMEDB__PC(GAMEDB__PAWN, 1);
		sq[56 + f] = GAMEDB__PC(back[f], 1);
	}
	memset(buf, 0, sizeof buf);
	CHECK_EQ_INT(gamedb__fen_placement(sq, buf), 43);
	CHECK_EQ_STR(buf, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");

	/* e1 K, a2 P, d5 q, h8 k: runs at a rank's start, middle and end */
	memset(sq, 0, sizeof sq);
	sq[4] = GAMEDB__PC(GAMEDB__KING, 0);
	sq[8] = GAMEDB__PC(GAMEDB__PAWN, 0);
	sq[35] = GAMEDB__PC(GAMEDB__QUEEN, 1);
	sq[63] = GAMEDB__PC(GAMEDB__KING, 1);
	memset(buf, 0, sizeof buf);
	CHECK_EQ_INT(gamedb__fen_placement(sq, buf), 21);
	CHECK_EQ_STR(buf, "7k/8/8/3q4/8/8/P7/4K3");

	/* every square taken: the longest field, 64 letters and 7 slashes */
	memset(sq, GAMEDB__PC(GAMEDB__BISHOP, 1), sizeof sq);
	memset(buf, 0, sizeof buf);
	CHECK_EQ_INT(gamedb__fen_placement(sq, buf), 71);
	CHECK_EQ_STR(buf, "bbbbbbbb/bbbbbbbb/bbbbbbbb/bbbbbbbb/bbbbbbbb/bbbbbbbb/bbbbbbbb/bbbbbbbb");
}

/* ---------------------------------------------------------------------------------------- */
/* pos_make bookkeeping */

static void play(struct gamedb__pos *pos, const char *san)
{
	struct gamedb__move m;
	int rc = gamedb__parse_san(pos, san, &m);
	CHECK_MSG(rc == 0, "cannot play %s", san);
	if (rc == 0)
		gamedb__pos_make(pos, &m);
}

static void test_make(void)
{
	struct gamedb__pos pos;
	char buf[128];
	static const char *const ruy[] = {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O",
					  "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O"};
	size_t i;

	gamedb__pos_startpos(&pos);
	for (i = 0; i < sizeof ruy / sizeof ruy[0]; i++)
		play(&pos, ruy[i]);
	gamedb__pos_to_fen(&pos, buf, sizeof buf);
	CHECK_EQ_STR(buf, "r1bq1rk1/2p1bppp/p1np1n2/1p2p3/4P3/1BP2N2/PP1P1PPP/RNBQR1K1 w - - 1 9");
	CHECK_EQ_INT(pos.king[0], sq_of("g1"));
	CHECK_EQ_INT(pos.king[1], sq_of("g8"));

	/* rook moves and rook captures take the rights away */
	if (load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 20") == 0) {
		play(&pos, "Rxa8+");
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 20");
		play(&pos, "Kf7");
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "R6r/5k2/8/8/8/8/8/4K2R w K - 1 21");
		play(&pos, "Rh2");
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "R6r/5k2/8/8/8/8/7R/4K3 b - - 2 21");
	}
	/* en passant removes the pawn */
	if (load(&pos, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2") == 0) {
		play(&pos, "exd6");
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
	}
	/* null move: clock runs, ep goes */
	if (load(&pos, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 7 2") == 0) {
		play(&pos, "--");
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "4k3/8/8/3pP3/8/8/8/4K3 b - - 8 2");
		play(&pos, "Z0");
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "4k3/8/8/3pP3/8/8/8/4K3 w - - 9 3");
	}
	/* Chess960 castling: king and rook swap (king f1, rook g1), king stays (king g1) */
	if (load(&pos, "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9") == 0) {
		struct gamedb__move m;
		CHECK_EQ_INT(gamedb__move_castle(&pos, 1, &m), 0);
		CHECK_EQ_INT(m.from, sq_of("f1"));
		CHECK_EQ_INT(m.to, sq_of("g1"));
		CHECK_EQ_INT(m.rook_from, sq_of("g1"));
		gamedb__move_san(&pos, &m, buf);
		CHECK_EQ_STR(buf, "O-O");
		gamedb__pos_make(&pos, &m);
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRRKB b - - 2 9");
	}
	if (load(&pos, "4k3/8/8/8/8/8/8/R5KR w HA - 0 1") == 0) {
		struct gamedb__move m;
		CHECK_EQ_INT(gamedb__move_castle(&pos, 1, &m), 0);
		CHECK_EQ_INT(m.from, sq_of("g1"));
		CHECK_EQ_INT(m.to, sq_of("g1"));
		gamedb__pos_make(&pos, &m);
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "4k3/8/8/8/8/8/8/R4RK1 b - - 1 1");
	}
	/* 960 queen side: king b1, rook a1 -> king c1, rook d1 */
	if (load(&pos, "4k3/8/8/8/8/8/8/RK6 w A - 0 1") == 0) {
		play(&pos, "O-O-O");
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
	}
	/* 960: rook on b1 shields the king from the queen on a1, so no castling to c1 */
	if (load(&pos, "4k3/8/8/8/8/8/8/qRK5 w B - 0 1") == 0) {
		struct gamedb__move m;
		CHECK_EQ_INT(gamedb__move_castle(&pos, 0, &m), -1);
	}
	/* standard: no castling through or out of check, nor with a blocked b-file square */
	if (load(&pos, "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1") == 0) {
		struct gamedb__move m;
		CHECK_EQ_INT(gamedb__move_castle(&pos, 1, &m), -1); /* through f1 */
		CHECK_EQ_INT(gamedb__move_castle(&pos, 0, &m), 0);
	}
	if (load(&pos, "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1") == 0) {
		struct gamedb__move m;
		CHECK_EQ_INT(gamedb__move_castle(&pos, 1, &m), -1); /* in check */
		CHECK_EQ_INT(gamedb__move_castle(&pos, 0, &m), -1);
	}
	if (load(&pos, "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1") == 0) {
		struct gamedb__move m;
		CHECK_EQ_INT(gamedb__move_castle(&pos, 0, &m), -1);
		CHECK_EQ_INT(gamedb__move_castle(&pos, 1, &m), 0);
	}
	if (load(&pos, "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1") == 0) {
		struct gamedb__move m;
		CHECK_EQ_INT(gamedb__move_castle(&pos, 0, &m), 0); /* b1 attacked is fine */
	}
}

/* ---------------------------------------------------------------------------------------- */
/* move_complete */

static int complete(const struct gamedb__pos *pos, const char *from, const char *to, int promo,
		    struct gamedb__move *m)
{
	memset(m, 0, sizeof *m);
	m->from = (uint8_t)sq_of(from);
	m->to = (uint8_t)sq_of(to);
	m->promo = (uint8_t)promo;
	return gamedb__move_complete(pos, m);
}

static int same_move(const struct gamedb__move *a, const struct gamedb__move *b)
{
	return a->from == b->from && a->to == b->to && a->promo == b->promo && a->flags == b->flags &&
	       a->piece == b->piece && a->captured == b->captured && a->rook_from == b->rook_from;
}

/* move_complete agrees with the generator on every from/to/promo combination. */
static void complete_matches_gen(const char *fen)
{
	struct gamedb__pos pos;
	struct gamedb__move moves[GAMEDB__MAX_MOVES];
	int n, from, to, promo, legal = 0, i, bad = 0;

	if (load(&pos, fen))
		return;
	n = gamedb__gen_legal(&pos, moves);
	for (from = 0; from < 64; from++)
		for (to = 0; to < 64; to++)
			for (promo = 0; promo <= GAMEDB__QUEEN; promo++) {
				struct gamedb__move m;
				int found = 0;
				if (promo == GAMEDB__PAWN)
					continue;
				memset(&m, 0, sizeof m);
				m.from = (uint8_t)from;
				m.to = (uint8_t)to;
				m.promo = (uint8_t)promo;
				if (gamedb__move_complete(&pos, &m) != 0)
					continue;
				legal++;
				for (i = 0; i < n; i++)
					found |= same_move(&m, &moves[i]);
				if (!found)
					bad++;
			}
	/* castling moves may be reachable both as king->dest and king->rook */
	CHECK_MSG(bad == 0, "%d completed moves not generated in %s", bad, fen);
	CHECK_MSG(legal >= n, "move_complete found %d of %d moves in %s", legal, n, fen);
	for (i = 0; i < n; i++) {
		struct gamedb__move m;
		memset(&m, 0, sizeof m);
		m.from = moves[i].from;
		m.to = moves[i].to;
		m.promo = moves[i].promo;
		if (moves[i].flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q))
			m.to = moves[i].rook_from;
		CHECK_MSG(gamedb__move_complete(&pos, &m) == 0 && same_move(&m, &moves[i]),
			  "move %d not completed in %s", i, fen);
	}
}

static void test_complete(void)
{
	struct gamedb__pos pos;
	struct gamedb__move m;

	gamedb__pos_startpos(&pos);
	CHECK_EQ_INT(complete(&pos, "e2", "e4", 0, &m), 0);
	CHECK_EQ_INT(m.piece, GAMEDB__PAWN);
	CHECK(m.flags & GAMEDB__MF_DOUBLE);
	CHECK_EQ_INT(complete(&pos, "e2", "e5", 0, &m), -1);
	CHECK_EQ_INT(complete(&pos, "g1", "f3", 0, &m), 0);
	CHECK_EQ_INT(complete(&pos, "f1", "c4", 0, &m), -1);
	CHECK_EQ_INT(complete(&pos, "e7", "e5", 0, &m), -1);
	CHECK_EQ_INT(complete(&pos, "e1", "g1", 0, &m), -1);
	CHECK_EQ_INT(complete(&pos, "e2", "e3", GAMEDB__QUEEN, &m), -1);

	if (load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1") == 0) {
		CHECK_EQ_INT(complete(&pos, "e1", "g1", 0, &m), 0);
		CHECK(m.flags & GAMEDB__MF_CASTLE_K);
		CHECK_EQ_INT(m.rook_from, sq_of("h1"));
		CHECK_EQ_INT(complete(&pos, "e1", "h1", 0, &m), 0);
		CHECK(m.flags & GAMEDB__MF_CASTLE_K);
		CHECK_EQ_INT(complete(&pos, "e1", "c1", 0, &m), 0);
		CHECK(m.flags & GAMEDB__MF_CASTLE_Q);
		CHECK_EQ_INT(complete(&pos, "e1", "f1", 0, &m), 0);
		CHECK_EQ_INT(m.flags, 0);
	}
	/* 960: king b1 -> c1 is an ordinary move while castling would also end on c1 */
	if (load(&pos, "4k3/8/8/8/8/8/8/RK6 w A - 0 1") == 0) {
		CHECK_EQ_INT(complete(&pos, "b1", "c1", 0, &m), 0);
		CHECK_EQ_INT(m.flags, 0);
		CHECK_EQ_INT(complete(&pos, "b1", "a1", 0, &m), 0);
		CHECK(m.flags & GAMEDB__MF_CASTLE_Q);
	}
	/* pinned piece, promotion needs a piece */
	if (load(&pos, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1") == 0)
		CHECK_EQ_INT(complete(&pos, "e2", "c3", 0, &m), -1);
	if (load(&pos, "8/4P3/8/8/8/8/k7/4K3 w - - 0 1") == 0) {
		CHECK_EQ_INT(complete(&pos, "e7", "e8", 0, &m), -1);
		CHECK_EQ_INT(complete(&pos, "e7", "e8", GAMEDB__KNIGHT, &m), 0);
		CHECK_EQ_INT(complete(&pos, "e7", "e8", GAMEDB__KING, &m), -1);
	}

	complete_matches_gen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
	complete_matches_gen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
	complete_matches_gen("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
	complete_matches_gen("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8");
	complete_matches_gen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
	complete_matches_gen("4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 2");
	complete_matches_gen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
	complete_matches_gen("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9");
	complete_matches_gen("4k3/8/8/8/8/8/8/RK5R w HA - 0 1");
}

/* ---------------------------------------------------------------------------------------- */
/* parse_san */

/* For every legal move of fen (and of the positions one move later): parse(san(m)) == m. */
static void san_roundtrip(const char *fen)
{
	struct gamedb__pos pos;
	struct gamedb__move moves[GAMEDB__MAX_MOVES];
	int n, i, bad = 0;

	if (load(&pos, fen))
		return;
	n = gamedb__gen_legal(&pos, moves);
	for (i = 0; i < n; i++) {
		struct gamedb__move m, next_moves[GAMEDB__MAX_MOVES];
		struct gamedb__pos next = pos;
		char san[32];
		int j, nn;

		gamedb__move_san(&pos, &moves[i], san);
		if (gamedb__parse_san(&pos, san, &m) != 0 || !same_move(&m, &moves[i])) {
			fprintf(stderr, "round trip failed for %s in %s\n", san, fen);
			bad++;
		}
		gamedb__pos_make(&next, &moves[i]);
		nn = gamedb__gen_legal(&next, next_moves);
		for (j = 0; j < nn; j++) {
			gamedb__move_san(&next, &next_moves[j], san);
			if (gamedb__parse_san(&next, san, &m) != 0 || !same_move(&m, &next_moves[j])) {
				fprintf(stderr, "round trip failed for %s after move %d of %s\n", san,
					i, fen);
				bad++;
			}
		}
	}
	CHECK_MSG(bad == 0, "%d SAN round trips failed for %s", bad, fen);
}

static int parses_to(const char *fen, const char *san, const char *uci)
{
	struct gamedb__pos pos;
	struct gamedb__move m;
	char buf[8];
	if (load(&pos, fen))
		return 0;
	if (gamedb__parse_san(&pos, san, &m) != 0)
		return uci == NULL;
	if (uci == NULL)
		return 0;
	gamedb__move_uci(&m, buf);
	return strcmp(buf, uci) == 0;
}

static void test_parse_san(void)
{
	const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
	const char *castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
	const char *promo = "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1";

	san_roundtrip(start);
	san_roundtrip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
	san_roundtrip("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1");
	san_roundtrip("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8");
	san_roundtrip("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
	san_roundtrip("6k1/8/8/8/8/Q7/8/Q1Q4K w - - 0 1");
	san_roundtrip("4k3/8/8/b7/7R/8/3R4/4K3 w - - 0 1");
	san_roundtrip("1k6/8/8/3N1N2/2N3N1/8/2N3N1/3N1NK1 w - - 0 1");
	san_roundtrip("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
	san_roundtrip("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9");

	CHECK(parses_to(start, "e4", "e2e4"));
	CHECK(parses_to(start, "e4!?", "e2e4"));
	CHECK(parses_to(start, "Nf3!", "g1f3"));
	CHECK(parses_to(start, "Ng1f3", "g1f3"));
	CHECK(parses_to(start, "Ng1-f3", "g1f3"));
	CHECK(parses_to(start, "e2-e4", "e2e4"));
	CHECK(parses_to(start, "e2e4", "e2e4"));
	CHECK(parses_to(start, "Pe4", "e2e4"));
	CHECK(parses_to(start, "e5", NULL));
	CHECK(parses_to(start, "Nf6", NULL));
	CHECK(parses_to(start, "O-O", NULL));
	CHECK(parses_to(start, "", NULL));
	CHECK(parses_to(start, "xyz", NULL));
	CHECK(parses_to(start, "--", "0000"));
	CHECK(parses_to(start, "Z0", "0000"));
	CHECK(parses_to(castle, "O-O", "e1g1"));
	CHECK(parses_to(castle, "0-0", "e1g1"));
	CHECK(parses_to(castle, "O-O+", "e1g1"));
	CHECK(parses_to(castle, "O-O-O", "e1c1"));
	CHECK(parses_to(castle, "0-0-0", "e1c1"));
	CHECK(parses_to(castle, "e1g1", "e1g1"));
	CHECK(parses_to(castle, "Rb1", "a1b1"));
	CHECK(parses_to(promo, "e8=Q", "e7e8q"));
	CHECK(parses_to(promo, "e8Q", "e7e8q"));
	CHECK(parses_to(promo, "e8=q", "e7e8q"));
	CHECK(parses_to(promo, "e8q", "e7e8q"));
	CHECK(parses_to(promo, "e8(N)", "e7e8n"));
	CHECK(parses_to(promo, "exd8=R+", "e7d8r"));
	CHECK(parses_to(promo, "exd8N", "e7d8n"));
	CHECK(parses_to(promo, "ed8=B", "e7d8b"));
	CHECK(parses_to(promo, "e7e8b", "e7e8b"));
	CHECK(parses_to(promo, "e8", NULL));
	CHECK(parses_to("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6", "e5d6"));
	CHECK(parses_to("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6e.p.", "e5d6"));
	CHECK(parses_to("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6 e.p.", "e5d6"));
	/* ambiguity is an error, an over-specified move is fine */
	CHECK(parses_to("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", NULL));
	CHECK(parses_to("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nbd2", "b1d2"));
	CHECK(parses_to("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "N1d2", "b1d2"));
	CHECK(parses_to("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nb1d2", "b1d2"));
	/* pinned knight: the one that can move is meant */
	CHECK(parses_to("4k3/8/8/8/8/8/8/rN2KN2 w - - 0 1", "Nd2", "f1d2"));
	/* Chess960 castling by SAN */
	CHECK(parses_to("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "O-O",
			NULL));
	CHECK(parses_to("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", "O-O",
			"f1g1"));
}

/* ---------------------------------------------------------------------------------------- */
/* SCID slots */

static void check_slots_consistent(const struct gamedb__slots *s, const struct gamedb__pos *pos)
{
	int c, i, sq, bad = 0;
	for (c = 0; c < 2; c++) {
		for (i = 0; i < 16; i++) {
			sq = s->sq[c][i];
			if (i < s->count[c]) {
				if (sq >= 64 || pos->sq[sq] == GAMEDB__EMPTY ||
				    GAMEDB__PC_COLOUR(pos->sq[sq]) != c || s->slot[sq] != i)
					bad++;
			} else if (sq != GAMEDB__NO_SQ) {
				bad++;
			}
		}
		if (pos->sq[s->sq[c][0]] != GAMEDB__PC(GAMEDB__KING, c))
			bad++;
	}
	for (sq = 0; sq < 64; sq++)
		if ((pos->sq[sq] == GAMEDB__EMPTY) != (s->slot[sq] == 0xFF))
			bad++;
	CHECK_MSG(bad == 0, "slot table inconsistent (%d errors)", bad);
}

static void test_slots(void)
{
	struct gamedb__pos pos;
	struct gamedb__slots s;
	struct gamedb__move m;
	static const char *const start_sq[16] = {"e1", "a1", "b1", "c1", "d1", "f1", "g1", "h1",
						 "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"};
	int i;

	/* start position numbering */
	gamedb__pos_startpos(&pos);
	CHECK_EQ_INT(gamedb__slots_init_scid(&s, &pos), 0);
	CHECK_EQ_INT(s.count[0], 16);
	CHECK_EQ_INT(s.count[1], 16);
	for (i = 0; i < 16; i++) {
		char b8[3];
		CHECK_EQ_INT(s.sq[0][i], sq_of(start_sq[i]));
		b8[0] = start_sq[i][0];
		b8[1] = start_sq[i][1] == '1' ? '8' : '7';
		b8[2] = '\0';
		CHECK_EQ_INT(s.sq[1][i], sq_of(b8));
	}
	check_slots_consistent(&s, &pos);
	/* the same board through the FEN-order function: FEN scan order */
	CHECK_EQ_INT(gamedb__slots_init_scid_fen(&s, &pos), 0);
	CHECK_EQ_INT(s.slot[sq_of("e1")], 0);
	CHECK_EQ_INT(s.slot[sq_of("a2")], 12); /* the king's old slot */
	CHECK_EQ_INT(s.slot[sq_of("h2")], 7);
	CHECK_EQ_INT(s.slot[sq_of("a1")], 8);
	CHECK_EQ_INT(s.slot[sq_of("e8")], 0);
	CHECK_EQ_INT(s.slot[sq_of("a8")], 4);
	check_slots_consistent(&s, &pos);

	/* the FEN example */
	if (load(&pos, "rnb1k2Q/1p5p/p7/4p3/4q3/8/PPP2R1P/2K5 b - - 0 1") == 0) {
		CHECK_EQ_INT(gamedb__slots_init_scid(&s, &pos), 0);
		CHECK_EQ_INT(s.slot[sq_of("a8")], 3);
		CHECK_EQ_INT(s.slot[sq_of("b8")], 1);
		CHECK_EQ_INT(s.slot[sq_of("c8")], 2);
		CHECK_EQ_INT(s.slot[sq_of("e8")], 0);
		CHECK_EQ_INT(s.slot[sq_of("e4")], 8);
		CHECK_EQ_INT(s.count[1], 9);
		CHECK_EQ_INT(s.slot[sq_of("h8")], 6);
		CHECK_EQ_INT(s.slot[sq_of("a2")], 1);
		CHECK_EQ_INT(s.slot[sq_of("f2")], 4);
		CHECK_EQ_INT(s.slot[sq_of("c1")], 0);
		CHECK_EQ_INT(s.count[0], 7);
		check_slots_consistent(&s, &pos);

	}
	/* black is in check from h8: 1...Ke7 2.Qxc8 Qxc2+ 3.Kxc2 */
	if (load(&pos, "rnb1k2Q/1p5p/p7/4p3/4q3/8/PPP2R1P/2K5 b - - 0 1") == 0) {
		static const char *const moves[] = {"Ke7", "Qxc8", "Qxc2+", "Kxc2"};
		size_t k;
		gamedb__slots_init_scid(&s, &pos);
		for (k = 0; k < 4; k++) {
			if (gamedb__parse_san(&pos, moves[k], &m) != 0) {
				CHECK_MSG(0, "cannot play %s", moves[k]);
				break;
			}
			gamedb__slots_move_scid(&s, pos.stm, &m);
			gamedb__pos_make(&pos, &m);
			check_slots_consistent(&s, &pos);
			if (k == 0)
				CHECK_EQ_INT(s.slot[sq_of("e7")], 0);
			if (k == 1) {
				/* the c8-bishop (slot 2) goes, black's last slot (8, the e4-queen)
				 * takes its place; the white queen keeps slot 6 */
				CHECK_EQ_INT(s.count[1], 8);
				CHECK_EQ_INT(s.slot[sq_of("e4")], 2);
				CHECK_EQ_INT(s.sq[1][8], GAMEDB__NO_SQ);
				CHECK_EQ_INT(s.slot[sq_of("c8")], 6);
			}
			if (k == 2) {
				/* the c2-pawn (slot 3) goes, white's last slot (6, the queen) moves in */
				CHECK_EQ_INT(s.count[0], 6);
				CHECK_EQ_INT(s.slot[sq_of("c8")], 3);
				CHECK_EQ_INT(s.sq[0][3], sq_of("c8"));
				CHECK_EQ_INT(s.sq[0][6], GAMEDB__NO_SQ);
				CHECK_EQ_INT(s.slot[sq_of("c2")], 2);
			}
			if (k == 3) {
				/* the queen (slot 2) goes, black's last slot (7, the e5-pawn) moves in */
				CHECK_EQ_INT(s.count[1], 7);
				CHECK_EQ_INT(s.slot[sq_of("e5")], 2);
				CHECK_EQ_INT(s.slot[sq_of("c2")], 0);
			}
		}
	}

	/* promotion keeps the slot, capture-promotion renumbers the victim's side */
	if (load(&pos, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1") == 0) {
		CHECK_EQ_INT(gamedb__slots_init_scid(&s, &pos), 0);
		/* white: a7 pawn slot 0 -> swapped with king: king 0, a7 slot 1 */
		CHECK_EQ_INT(s.slot[sq_of("a7")], 1);
		CHECK_EQ_INT(s.slot[sq_of("b8")], 1); /* black: n b8 slot 0 -> king swap -> 1 */
		if (gamedb__parse_san(&pos, "axb8=Q+", &m) == 0) {
			gamedb__slots_move_scid(&s, pos.stm, &m);
			gamedb__pos_make(&pos, &m);
			CHECK_EQ_INT(s.slot[sq_of("b8")], 1);
			CHECK_EQ_INT(s.count[1], 1);
			check_slots_consistent(&s, &pos);
		} else {
			CHECK(!"axb8=Q+ not parsed");
		}
	}
	if (load(&pos, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1") == 0) {
		gamedb__slots_init_scid(&s, &pos);
		if (gamedb__parse_san(&pos, "a8=N", &m) == 0) {
			gamedb__slots_move_scid(&s, pos.stm, &m);
			gamedb__pos_make(&pos, &m);
			CHECK_EQ_INT(s.slot[sq_of("a8")], 1);
			check_slots_consistent(&s, &pos);
		}
	}

	/* castling keeps both slots; en passant removes the pawn beside */
	gamedb__pos_startpos(&pos);
	gamedb__slots_init_scid(&s, &pos);
	{
		static const char *const game[] = {"e4", "d5", "e5", "f5", "exf6", "Nc6", "Nf3", "Bg4",
						   "Bc4", "Qd7", "O-O", "O-O-O", "fxg7", "Bxf3",
						   "gxf8=Q", "Rdxf8"};
		size_t k;
		for (k = 0; k < sizeof game / sizeof game[0]; k++) {
			if (gamedb__parse_san(&pos, game[k], &m) != 0) {
				CHECK_MSG(0, "cannot play %s", game[k]);
				break;
			}
			gamedb__slots_move_scid(&s, pos.stm, &m);
			gamedb__pos_make(&pos, &m);
			check_slots_consistent(&s, &pos);
			if (k == 4) {
				/* exf6 e.p.: the f7-pawn (slot 13) goes; black's last slot (15, h7)
				 * fills it. The white e-pawn keeps slot 12. */
				CHECK_EQ_INT(s.count[1], 15);
				CHECK_EQ_INT(s.slot[sq_of("h7")], 13);
				CHECK_EQ_INT(s.slot[sq_of("f6")], 12);
			}
			if (k == 10) {
				CHECK_EQ_INT(s.slot[sq_of("g1")], 0);
				CHECK_EQ_INT(s.slot[sq_of("f1")], 7);
			}
			if (k == 11) {
				CHECK_EQ_INT(s.slot[sq_of("c8")], 0);
				CHECK_EQ_INT(s.slot[sq_of("d8")], 1);
			}
		}
		/* fxg7 took the last black slot (14) itself; Bxf3 took the f3-knight (6) and
		 * white's h2-pawn (15) moved in; gxf8=Q took the f8-bishop (5), the h7-pawn (13)
		 * moved in, and the new queen kept the pawn's slot 12; Rdxf8 took it and the
		 * g2-pawn (14) moved in. The d8-rook keeps slot 1. */
		CHECK_EQ_INT(s.count[0], 14);
		CHECK_EQ_INT(s.count[1], 13);
		CHECK_EQ_INT(s.slot[sq_of("h2")], 6);
		CHECK_EQ_INT(s.slot[sq_of("g2")], 12);
		CHECK_EQ_INT(s.slot[sq_of("h7")], 5);
		CHECK_EQ_INT(s.slot[sq_of("f8")], 1);
	}

	/* 960 castling where king and rook swap squares */
	if (load(&pos, "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9") == 0) {
		gamedb__slots_init_scid(&s, &pos);
		{
			const int ks = s.slot[sq_of("f1")], rs = s.slot[sq_of("g1")];
			CHECK_EQ_INT(ks, 0);
			CHECK_EQ_INT(gamedb__move_castle(&pos, 1, &m), 0);
			gamedb__slots_move_scid(&s, pos.stm, &m);
			gamedb__pos_make(&pos, &m);
			CHECK_EQ_INT(s.slot[sq_of("g1")], 0);
			CHECK_EQ_INT(s.slot[sq_of("f1")], rs);
			check_slots_consistent(&s, &pos);
		}
	}

	/* a position without its kings has no slot table */
	gamedb__pos_startpos(&pos);
	pos.sq[sq_of("e8")] = GAMEDB__EMPTY;
	gamedb__pos_sync(&pos);
	CHECK_EQ_INT(pos.king[1], GAMEDB__NO_SQ);
	CHECK_EQ_INT(gamedb__slots_init_scid(&s, &pos), -1);
	CHECK_EQ_INT(gamedb__slots_init_scid_fen(&s, &pos), -1);
}


/* ---------------------------------------------------------------------------------------- */
/* Bitboards kept in step, parse-and-normalise, move_play, has_legal_move, the check byte */

/* 1 if the bitboards and king squares of pos agree with its mailbox. */
static int pos_consistent(const struct gamedb__pos *pos)
{
	struct gamedb__pos q = *pos;
	gamedb__pos_sync(&q);
	return memcmp(&q, pos, sizeof q) == 0;
}

static void test_sync(void)
{
	struct gamedb__pos pos, ref;

	/* a knight taken off by writing sq[] directly: sync makes the position whole again */
	gamedb__pos_startpos(&pos);
	CHECK(pos_consistent(&pos));
	pos.sq[sq_of("b1")] = GAMEDB__EMPTY;
	CHECK(!pos_consistent(&pos)); /* the bitboards still hold the knight */
	gamedb__pos_sync(&pos);
	if (load(&ref, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1") == 0) {
		CHECK(memcmp(&pos, &ref, sizeof pos) == 0);
		CHECK_EQ_INT(gamedb__perft(&pos, 3), gamedb__perft(&ref, 3));
	}
	/* a king moved by hand: its square follows */
	pos.sq[sq_of("e1")] = GAMEDB__EMPTY;
	pos.sq[sq_of("d3")] = GAMEDB__PC(GAMEDB__KING, 0);
	gamedb__pos_sync(&pos);
	CHECK_EQ_INT(pos.king[0], sq_of("d3"));
	CHECK_EQ_INT(pos.king[1], sq_of("e8"));
}

static void test_fen_normal(void)
{
	struct gamedb__pos pos;
	char buf[128];
	size_t len = 0;
	const char *why = NULL;

	/* already normal: copied as it is */
	CHECK_EQ_INT(gamedb__pos_from_fen_normal(&pos, "8/8/4ppp1/4pkp1/4Pp2/3P3P/8/7K b - e3 0 1",
						 buf, sizeof buf, &len, &why), 0);
	CHECK_EQ_STR(buf, "8/8/4ppp1/4pkp1/4Pp2/3P3P/8/7K b - e3 0 1");
	CHECK_EQ_INT(len, 41);
	/* split digits, a trailing '/', leading blanks, missing clocks: written in normal form */
	CHECK_EQ_INT(gamedb__pos_from_fen_normal(&pos, "  rnbqkbnr/pppppppp/44/8/4P3/11114/PPPP1PPP/RNBQKBNR/ b KQkq e3",
						 buf, sizeof buf, &len, &why), 0);
	CHECK_EQ_STR(buf, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
	CHECK_EQ_INT(len, strlen(buf));
	CHECK_EQ_INT(gamedb__pos_from_fen_normal(&pos, "4k3/8/8/8/8/8/8/1111K3 w - - 7 30", buf,
						 sizeof buf, NULL, &why), 0);
	CHECK_EQ_STR(buf, "4k3/8/8/8/8/8/8/4K3 w - - 7 30");
	/* in place, as the SCID reader uses it */
	strcpy(buf, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	CHECK_EQ_INT(gamedb__pos_from_fen_normal(&pos, buf, buf, sizeof buf, NULL, &why), 0);
	CHECK_EQ_STR(buf, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	strcpy(buf, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq");
	CHECK_EQ_INT(gamedb__pos_from_fen_normal(&pos, buf, buf, sizeof buf, NULL, &why), 0);
	CHECK_EQ_STR(buf, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
	/* a small buffer is truncated, the length is the whole one (as gamedb__pos_to_fen) */
	{
		char small[10];
		CHECK_EQ_INT(gamedb__pos_from_fen_normal(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", small,
							 sizeof small, &len, &why), 0);
		CHECK_EQ_STR(small, "4k3/8/8/8");
		CHECK_EQ_INT(len, 29);
	}
	/* a bad FEN: -1 with a reason, the buffer untouched */
	strcpy(buf, "untouched");
	why = NULL;
	CHECK_EQ_INT(gamedb__pos_from_fen_normal(&pos, "4k3/8/8/8/8/8/8/4K2 w - - 0 1", buf, sizeof buf,
						 &len, &why), -1);
	CHECK(why != NULL);
	CHECK_EQ_STR(buf, "untouched");
	/* the reason is that of the first fault in FEN order, whatever else is wrong after it */
	why = NULL;
	CHECK_EQ_INT(gamedb__pos_from_fen(&pos, "P3k3/8/8/8/8/8/8/4K3P w - - 0 1", &why), -1);
	CHECK_EQ_STR(why ? why : "", "pawn on the first or last rank");
	why = NULL;
	CHECK_EQ_INT(gamedb__pos_from_fen(&pos, "4k3/8/8/8/8/8/8/4K31 w - - 0 1", &why), -1);
	CHECK_EQ_STR(why ? why : "", "rank has more than 8 squares");
	why = NULL;
	CHECK_EQ_INT(gamedb__pos_from_fen(&pos, "QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/4K2k/p7 w - - 0 1", &why),
		     -1);
	CHECK_EQ_STR(why ? why : "", "more than 16 pieces of one colour");
}

/* Plays uci in pos with gamedb__move_play, from from/to/promo only; returns its result. */
static int play_uci(struct gamedb__pos *pos, const char *uci, struct gamedb__move *m)
{
	memset(m, 0, sizeof *m);
	m->from = (uint8_t)sq_of(uci);
	m->to = (uint8_t)sq_of(uci + 2);
	m->promo = (uint8_t)(uci[4] == 'q' ? GAMEDB__QUEEN : uci[4] == 'r' ? GAMEDB__ROOK
			     : uci[4] == 'b' ? GAMEDB__BISHOP : uci[4] == 'n' ? GAMEDB__KNIGHT : 0);
	return gamedb__move_play(pos, m);
}

static void test_move_play(void)
{
	struct gamedb__pos pos, before, ref;
	struct gamedb__move m, g;
	char buf[128];

	/* an ordinary move: completed, played in place, no check */
	gamedb__pos_startpos(&pos);
	CHECK_EQ_INT(play_uci(&pos, "e2e4", &m), 0);
	CHECK_EQ_INT(m.piece, GAMEDB__PAWN);
	CHECK_EQ_INT(m.flags, GAMEDB__MF_DOUBLE);
	CHECK_EQ_INT(m.check, GAMEDB__CHECK_NONE);
	gamedb__pos_to_fen(&pos, buf, sizeof buf);
	CHECK_EQ_STR(buf, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
	CHECK(pos_consistent(&pos));

	/* illegal moves leave the position as it was */
	before = pos;
	CHECK_EQ_INT(play_uci(&pos, "e7e4", &m), -1); /* blocked */
	CHECK_EQ_INT(play_uci(&pos, "e2e3", &m), -1); /* not the side to move */
	CHECK_EQ_INT(play_uci(&pos, "g8g6", &m), -1); /* no such knight move */
	CHECK(memcmp(&pos, &before, sizeof pos) == 0);
	if (load(&pos, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1") == 0) {
		before = pos;
		CHECK_EQ_INT(play_uci(&pos, "e2c3", &m), -1); /* pinned knight */
		CHECK_EQ_INT(play_uci(&pos, "e1e2", &m), -1); /* onto its own man */
		CHECK(memcmp(&pos, &before, sizeof pos) == 0);
		CHECK_EQ_INT(play_uci(&pos, "e1d2", &m), 0);
	}

	/* check, and mate */
	if (load(&pos, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1") == 0) {
		before = pos;
		CHECK_EQ_INT(play_uci(&pos, "a1a8", &m), 0);
		CHECK_EQ_INT(m.check, GAMEDB__CHECK_CHECK);
		gamedb__move_san(&before, &m, buf);
		CHECK_EQ_STR(buf, "Ra8+");
	}
	if (load(&pos, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1") == 0) {
		before = pos;
		CHECK_EQ_INT(play_uci(&pos, "a1a8", &m), 0);
		CHECK_EQ_INT(m.check, GAMEDB__CHECK_MATE);
		gamedb__move_san(&before, &m, buf);
		CHECK_EQ_STR(buf, "Ra8#");
		/* SAN takes the suffix from the check byte and does not make the move again */
		m.check = GAMEDB__CHECK_NONE;
		gamedb__move_san(&before, &m, buf);
		CHECK_EQ_STR(buf, "Ra8");
		m.check = GAMEDB__CHECK_CHECK;
		gamedb__move_san(&before, &m, buf);
		CHECK_EQ_STR(buf, "Ra8+");
		m.check = GAMEDB__CHECK_UNKNOWN;
		gamedb__move_san(&before, &m, buf);
		CHECK_EQ_STR(buf, "Ra8#");
	}
	/* a promotion that mates, and one without the piece given */
	if (load(&pos, "k7/2P5/1K6/8/8/8/8/8 w - - 0 1") == 0) {
		before = pos;
		CHECK_EQ_INT(play_uci(&pos, "c7c8", &m), -1);
		CHECK(memcmp(&pos, &before, sizeof pos) == 0);
		CHECK_EQ_INT(play_uci(&pos, "c7c8q", &m), 0);
		CHECK_EQ_INT(m.check, GAMEDB__CHECK_MATE);
		gamedb__move_san(&before, &m, buf);
		CHECK_EQ_STR(buf, "c8=Q#");
		pos = before;
		CHECK_EQ_INT(play_uci(&pos, "c7c8n", &m), 0);
		CHECK_EQ_INT(m.check, GAMEDB__CHECK_NONE);
	}

	/* castling and null moves as the builders make them; the same position as pos_make */
	if (load(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1") == 0) {
		ref = pos;
		CHECK_EQ_INT(gamedb__move_castle(&pos, 1, &m), 0);
		g = m;
		CHECK_EQ_INT(gamedb__move_play(&pos, &m), 0);
		CHECK_EQ_INT(m.flags, GAMEDB__MF_CASTLE_K);
		CHECK_EQ_INT(m.rook_from, sq_of("h1"));
		CHECK_EQ_INT(m.check, GAMEDB__CHECK_NONE);
		gamedb__pos_make(&ref, &g);
		CHECK(memcmp(&pos, &ref, sizeof pos) == 0);
		CHECK(pos_consistent(&pos));
		/* castling through an attacked square, re-checked by move_play */
		if (load(&pos, "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1") == 0) {
			before = pos;
			m = g;
			CHECK_EQ_INT(gamedb__move_play(&pos, &m), -1);
			CHECK(memcmp(&pos, &before, sizeof pos) == 0);
		}
	}
	if (load(&pos, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1") == 0) {
		CHECK_EQ_INT(gamedb__move_null(&pos, &m), 0);
		CHECK_EQ_INT(gamedb__move_play(&pos, &m), 0);
		CHECK_EQ_INT(m.check, GAMEDB__CHECK_NONE);
		CHECK_EQ_INT(pos.stm, 1);
		/* a null move by the side in check is refused */
		if (load(&pos, "4k3/8/8/8/8/8/8/4K2r w - - 0 1") == 0) {
			memset(&m, 0, sizeof m);
			m.from = m.to = (uint8_t)sq_of("e1");
			m.flags = GAMEDB__MF_NULL;
			before = pos;
			CHECK_EQ_INT(gamedb__move_play(&pos, &m), -1);
			CHECK(memcmp(&pos, &before, sizeof pos) == 0);
		}
	}
	/* en passant: the captured pawn leaves the board and the bitboards */
	if (load(&pos, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2") == 0) {
		CHECK_EQ_INT(play_uci(&pos, "e5d6", &m), 0);
		CHECK_EQ_INT(m.flags, GAMEDB__MF_CAPTURE | GAMEDB__MF_EP);
		CHECK_EQ_INT(pos.sq[sq_of("d5")], GAMEDB__EMPTY);
		CHECK(pos_consistent(&pos));
	}
}

static void has_move_case(const char *fen, int expect)
{
	struct gamedb__pos pos;
	struct gamedb__move moves[GAMEDB__MAX_MOVES];
	if (load(&pos, fen))
		return;
	CHECK_MSG(gamedb__has_legal_move(&pos) == expect, "has_legal_move %s: expected %d", fen,
		  expect);
	/* the full generator agrees */
	CHECK_MSG((gamedb__gen_legal(&pos, moves) > 0) == expect, "gen_legal %s", fen);
}

static void test_has_legal_move(void)
{
	struct gamedb__pos pos;
	struct gamedb__move moves[GAMEDB__MAX_MOVES];

	has_move_case("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1);
	/* back-rank mate; the same with a rook that can step in between, or take the checker */
	has_move_case("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 0);
	has_move_case("R5k1/5ppp/8/8/8/8/2r5/6K1 b - - 0 1", 1);
	has_move_case("R5k1/5ppp/8/8/8/8/r7/6K1 b - - 0 1", 1);
	/* the rook that could step in is pinned to its king (by the bishop): mate after all */
	has_move_case("R5k1/5rpp/8/8/8/8/8/6K1 b - - 0 1", 1);
	has_move_case("R5k1/5rpp/8/8/8/1B6/8/6K1 b - - 0 1", 0);
	/* stalemate */
	has_move_case("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0);
	/* a boxed king and a pawn that cannot move: stalemate; then one that can */
	has_move_case("k7/P7/1K6/8/8/7p/7P/8 b - - 0 1", 0);
	has_move_case("k7/P7/1K6/8/8/7p/8/8 b - - 0 1", 1);
	/* double check: only the king may move, and here it cannot */
	has_move_case("5R1k/6pp/6N1/3q4/8/8/8/K7 b - - 0 1", 0);
	/* in check by a pawn that just moved two squares: only en passant saves the king */
	has_move_case("8/8/4ppp1/4pkp1/4Pp2/3P3P/8/7K b - e3 0 1", 1);
	has_move_case("8/8/4ppp1/4pkp1/4Pp2/3P3P/8/7K b - - 0 1", 0);
	if (load(&pos, "8/8/4ppp1/4pkp1/4Pp2/3P3P/8/7K b - e3 0 1") == 0) {
		CHECK_EQ_INT(gamedb__gen_legal(&pos, moves), 1);
		CHECK_EQ_INT(moves[0].flags, GAMEDB__MF_CAPTURE | GAMEDB__MF_EP);
	}
	/* not in check, the king boxed: only a pinned man may move, along its pin line */
	has_move_case("7k/8/q7/8/8/2p5/R2n4/K7 w - - 0 1", 1);  /* the rook along the file */
	has_move_case("7k/8/q7/8/8/2p5/N2n4/K7 w - - 0 1", 0);  /* a pinned knight: stalemate */
	has_move_case("7k/8/8/8/8/5b2/4n1P1/5n1K w - - 0 1", 1); /* the pawn takes the pinner */
	has_move_case("7k/8/8/8/4b3/8/4n1P1/5n1K w - - 0 1", 0); /* the pawn may not push */
}

/* ---------------------------------------------------------------------------------------- */
/* Random games: every generated move completes, SAN round trips, slots stay consistent. */

static void test_random_games(void)
{
	uint32_t seed = 12345;
	int game, bad = 0, plies = 0;

	for (game = 0; game < 200; game++) {
		struct gamedb__pos pos;
		struct gamedb__slots s;
		int ply;
		if (game % 2)
			gamedb__pos_startpos(&pos);
		else
			gamedb__pos_from_fen(&pos,
					     "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
					     NULL);
		gamedb__slots_init_scid(&s, &pos);
		for (ply = 0; ply < 300; ply++) {
			struct gamedb__move moves[GAMEDB__MAX_MOVES], m, c;
			char san[32], fen[128];
			struct gamedb__pos back;
			int n = gamedb__gen_legal(&pos, moves);
			if (gamedb__has_legal_move(&pos) != (n > 0))
				bad++;
			if (n == 0)
				break;
			seed = seed * 1103515245u + 12345u;
			m = moves[(seed >> 16) % (uint32_t)n];
			gamedb__move_san(&pos, &m, san);
			if (gamedb__parse_san(&pos, san, &c) != 0 || !same_move(&c, &m))
				bad++;
			memset(&c, 0, sizeof c);
			c.from = m.from;
			c.to = m.to;
			c.promo = m.promo;
			if (gamedb__move_complete(&pos, &c) != 0 || !same_move(&c, &m))
				bad++;
			/* move_play: the same move, the same position, SAN from its check byte */
			{
				struct gamedb__pos played = pos, made = pos;
				struct gamedb__move p = m;
				char san2[32];
				p.check = GAMEDB__CHECK_UNKNOWN;
				if ((m.flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) == 0) {
					memset(&p, 0, sizeof p);
					p.from = m.from;
					p.to = m.to;
					p.promo = m.promo;
				}
				gamedb__pos_make(&made, &m);
				if (gamedb__move_play(&played, &p) != 0 || !same_move(&p, &m) ||
				    memcmp(&played, &made, sizeof made) != 0 || !pos_consistent(&played))
					bad++;
				gamedb__move_san(&pos, &p, san2);
				if (strcmp(san, san2) != 0 || p.check == GAMEDB__CHECK_UNKNOWN)
					bad++;
				if ((p.check == GAMEDB__CHECK_NONE) == gamedb__in_check(&played))
					bad++;
				if ((p.check == GAMEDB__CHECK_MATE) !=
				    (gamedb__in_check(&played) && gamedb__gen_legal(&played, moves) == 0))
					bad++;
			}
			gamedb__slots_move_scid(&s, pos.stm, &m);
			gamedb__pos_make(&pos, &m);
			plies++;
			/* FEN round trip of every position reached */
			gamedb__pos_to_fen(&pos, fen, sizeof fen);
			if (gamedb__pos_from_fen(&back, fen, NULL) != 0)
				bad++;
			else if (memcmp(back.sq, pos.sq, 64) != 0 || back.stm != pos.stm ||
				 back.ep != pos.ep || memcmp(back.castle_rook, pos.castle_rook, 4) != 0 ||
				 back.halfmove != pos.halfmove || back.fullmove != pos.fullmove)
				bad++;
			if (pos.halfmove >= 100)
				break;
		}
		check_slots_consistent(&s, &pos);
	}
	CHECK_MSG(bad == 0, "%d failures in random games", bad);
	CHECK(plies > 10000);
}

/*
 * Whether gamedb__move_play_san() on `played` (a copy of pos; rp its result, p the move it
 * completed, got and len its SAN) agrees with the slow path on pos: rc and c from
 * gamedb__move_complete() or gamedb__move_castle(), then gamedb__pos_make() and
 * gamedb__move_san(). Same verdict, same completed move, same position after it (or pos
 * untouched when illegal), same SAN and length, and a check mark that says what
 * gamedb__in_check() and gamedb__has_legal_move() say. Returns the number of disagreements
 * (0 or 1).
 */
static int played_agrees(const struct gamedb__pos *pos, int rc, const struct gamedb__move *c,
			 int rp, const struct gamedb__move *p, const struct gamedb__pos *played,
			 const char *got, size_t len)
{
	struct gamedb__pos made = *pos;
	char want[32];

	if (rc != rp)
		return 1;
	if (rc != 0)
		return memcmp(played, pos, sizeof *pos) != 0;
	gamedb__pos_make(&made, c);
	gamedb__move_san(pos, c, want);
	return !same_move(c, p) || memcmp(played, &made, sizeof made) != 0 ||
	       strcmp(want, got) != 0 || len != strlen(want) ||
	       (p->check == GAMEDB__CHECK_NONE) == gamedb__in_check(played) ||
	       (p->check != GAMEDB__CHECK_NONE &&
		(p->check == GAMEDB__CHECK_MATE) == gamedb__has_legal_move(played));
}

/*
 * Plays p (as a decoder gives it) with gamedb__move_play_san() on a copy of pos, `checked` as
 * the caller would pass it, and compares with c as the reference completed it (rc):
 * played_agrees(); and with gamedb__move_play_fast() on another copy, which must agree with it.
 */
static int play_agrees(const struct gamedb__pos *pos, int rc, const struct gamedb__move *c,
		       struct gamedb__move p, int checked)
{
	struct gamedb__pos played = *pos, fast = *pos;
	struct gamedb__move f = p;
	char got[GAMEDB__SAN_MAX];
	size_t len = 99;
	int rp = gamedb__move_play_san(&played, &p, got, &len, checked);
	int rf = gamedb__move_play_fast(&fast, &f, checked);

	/*
	 * gamedb__move_play_fast() (no SAN): the same verdict, position and completed move, its
	 * check UNKNOWN for a check or a mate (no mate test) and NONE otherwise.
	 */
	if (rf != rp || memcmp(&fast, &played, sizeof fast) != 0)
		return 1;
	if (rf == 0 && (!same_move(&f, &p) ||
			f.check != (gamedb__in_check(&fast) ? GAMEDB__CHECK_UNKNOWN : GAMEDB__CHECK_NONE)))
		return 1;
	return played_agrees(pos, rc, c, rp, &p, &played, got, len);
}

/* One from/to/promo of a sweep (play_agrees()). */
static int play_san_agrees(const struct gamedb__pos *pos, int from, int to, int promo, int checked)
{
	struct gamedb__move c, p;

	memset(&c, 0, sizeof c);
	c.from = (uint8_t)from;
	c.to = (uint8_t)to;
	c.promo = (uint8_t)promo;
	p = c; /* as the decoder gives it; c is completed by the reference */
	return play_agrees(pos, gamedb__move_complete(pos, &c), &c, p, checked);
}

/*
 * Castling given by its flag (as the SCID and ChessBase decoders give it), against
 * gamedb__move_castle() (played_agrees()): also the check mark of a rook that gives check or
 * mate.
 */
static int play_san_castle_agrees(const struct gamedb__pos *pos, int side, int checked)
{
	struct gamedb__move c, p;

	memset(&c, 0, sizeof c);
	memset(&p, 0, sizeof p);
	p.flags = side ? GAMEDB__MF_CASTLE_K : GAMEDB__MF_CASTLE_Q;
	p.from = pos->king[pos->stm];
	return play_agrees(pos, gamedb__move_castle(pos, side, &c), &c, p, checked);
}

/*
 * gamedb__move_play_san() has its own path for the usual move (checked, made and given its
 * SAN in one pass): along random games from positions with pins, en passant, promotions,
 * Chess960 castling, checks and mates, every from/to (and promotion) of the side to move's
 * men, and a few from squares that hold no man of it, and castling by its flag, must give
 * what the general functions give, the mate mark included.
 */
static void test_play_san_sweep(void)
{
	static const char *const fens[] = {
		GAMEDB__START_FEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
		"3r4/8/8/8/8/8/3R4/R2K1k2 w - - 0 1",
		/* mates: back rank, by a knight, by castling, by a pawn's promotion; castling
		 * with check; a king that must step out of check or take the checker */
		"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
		"r5rk/6pp/7N/8/8/8/6PP/6K1 w - - 0 1",
		"8/8/8/8/8/8/7R/5k1K b - - 0 1",
		"4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
		"5k2/8/8/8/8/8/8/4K2R w K - 0 1",
		"3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
		"8/8/8/8/8/5k2/8/4K2R w K - 0 1",
		"k7/2P5/1K6/8/8/8/8/8 w - - 0 1",
		"7k/8/8/8/8/8/2q5/K7 w - - 0 1",
		"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
	};
	uint32_t seed = 777;
	int bad = 0, tries = 0;
	size_t f;

	for (f = 0; f < sizeof fens / sizeof fens[0]; f++) {
		int game;
		for (game = 0; game < 3; game++) {
			struct gamedb__pos pos;
			int ply;
			CHECK(gamedb__pos_from_fen(&pos, fens[f], NULL) == 0);
			for (ply = 0; ply < 60; ply++) {
				struct gamedb__move moves[GAMEDB__MAX_MOVES];
				const int chk = gamedb__in_check(&pos);
				int n = gamedb__gen_legal(&pos, moves), from, to;
				bad += play_san_castle_agrees(&pos, 0, chk);
				bad += play_san_castle_agrees(&pos, 1, chk);
				bad += play_san_castle_agrees(&pos, 1, -1);
				tries += 3;
				for (from = 0; from < 64; from++) {
					const uint8_t pc = pos.sq[from];
					const int ours = pc != GAMEDB__EMPTY && GAMEDB__PC_COLOUR(pc) == pos.stm;
					if (!ours && from % 16 != ply % 16)
						continue; /* a few squares without a man of ours */
					for (to = 0; to < 64; to++) {
						int promo;
						bad += play_san_agrees(&pos, from, to, 0, chk);
						bad += play_san_agrees(&pos, from, to, 0, -1);
						tries += 2;
						if (GAMEDB__PC_TYPE(pc) != GAMEDB__PAWN)
							continue;
						for (promo = GAMEDB__PAWN; promo <= GAMEDB__KING; promo++) {
							bad += play_san_agrees(&pos, from, to, promo, chk);
							tries++;
						}
					}
				}
				if (n == 0 || pos.halfmove >= 100)
					break;
				seed = seed * 1103515245u + 12345u;
				gamedb__pos_make(&pos, &moves[(seed >> 16) % (uint32_t)n]);
			}
		}
	}
	CHECK_MSG(bad == 0, "move_play_san or move_play_fast disagrees %d times in %d tries", bad, tries);
	CHECK(tries > 100000);
}

/* Crazyhouse: FEN holdings, drops in SAN and UCI, promoted men, drop legality. */
static void test_crazyhouse(void)
{
	struct gamedb__pos pos;
	struct gamedb__move m;
	char buf[300];
	const char *why;

	/* The ninth-rank form reads as the bracket form, which is what is written. */
	if (!load(&pos, "2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1")) {
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1");
	}
	/* A chess FEN stays a chess position: no holdings written. */
	if (!load(&pos, GAMEDB__START_FEN)) {
		CHECK_EQ_INT(pos.zh, 0);
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, GAMEDB__START_FEN);
	}
	CHECK(gamedb__pos_from_fen(&pos, "4k3/8/8/8/8/8/8/4K3[Kq] w - - 0 1", &why) != 0);
	CHECK(gamedb__pos_from_fen(&pos, "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1", &why) != 0);
	/* More than 16 men of one colour on the board is fine in crazyhouse. */
	if (!load(&pos, "NNNNNNNN/NNNNNNNN/N7/8/8/8/8/K6k[] w - - 0 1"))
		CHECK_EQ_INT(gamedb__perft(&pos, 1), 43); /* fairy-stockfish */

	/*
	 * A promoted queen captured goes to the hand as a pawn, a captured queen as a queen;
	 * promotion marks the new queen "~". FENs from fairy-stockfish 11.1 ("d" after the moves).
	 */
	if (!load(&pos, "4k3/1P6/8/3q4/8/8/3Q~4/4K3[] b - - 0 1")) {
		struct gamedb__pos p2 = pos;
		CHECK(gamedb__parse_san(&pos, "Qxd2+", &m) == 0 && gamedb__move_play(&pos, &m) == 0);
		CHECK(gamedb__parse_san(&pos, "Kxd2", &m) == 0 && gamedb__move_play(&pos, &m) == 0);
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "4k3/1P6/8/8/8/8/3K4/8[Qp] b - - 0 2");
		CHECK(gamedb__parse_san(&p2, "Kd7", &m) == 0 && gamedb__move_play(&p2, &m) == 0);
		CHECK(gamedb__parse_san(&p2, "b8=Q", &m) == 0 && gamedb__move_play(&p2, &m) == 0);
		CHECK(gamedb__parse_san(&p2, "Qxd2+", &m) == 0 && gamedb__move_play(&p2, &m) == 0);
		CHECK(gamedb__parse_san(&p2, "Kxd2", &m) == 0 && gamedb__move_play(&p2, &m) == 0);
		gamedb__pos_to_fen(&p2, buf, sizeof buf);
		CHECK_EQ_STR(buf, "1Q~6/3k4/8/8/8/8/3K4/8[Qp] b - - 0 3");
	}

	/* Drops: SAN and UCI "P@e4"; a pawn drop resets the half-move clock (as fairy-stockfish). */
	if (!load(&pos, "4k3/8/8/8/8/8/8/4K3[PNpn] w - - 7 20")) {
		struct gamedb__pos p2 = pos;
		CHECK(gamedb__parse_san(&pos, "P@e4", &m) == 0);
		CHECK_EQ_INT(m.flags, GAMEDB__MF_DROP);
		CHECK_EQ_INT(m.from, GAMEDB__NO_SQ);
		CHECK_EQ_INT(m.to, 28);
		CHECK_EQ_INT(m.piece, GAMEDB__PAWN);
		gamedb__move_san(&pos, &m, buf);
		CHECK_EQ_STR(buf, "P@e4");
		gamedb__move_uci(&m, buf);
		CHECK_EQ_STR(buf, "P@e4");
		CHECK(gamedb__move_play(&pos, &m) == 0);
		gamedb__pos_to_fen(&pos, buf, sizeof buf);
		CHECK_EQ_STR(buf, "4k3/8/8/8/4P3/8/8/4K3[Nnp] b - - 0 20");
		/* knight drop with check: "N@d6+"; "@e4" is a pawn drop too; lower case letter */
		CHECK(gamedb__parse_san(&p2, "N@d6", &m) == 0);
		gamedb__move_san(&p2, &m, buf);
		CHECK_EQ_STR(buf, "N@d6+");
		CHECK(gamedb__parse_san(&p2, "@e4", &m) == 0 && m.piece == GAMEDB__PAWN);
		CHECK(gamedb__parse_san(&p2, "n@f3", &m) == 0 && m.piece == GAMEDB__KNIGHT);
		/* no pawn on the first or last rank, none of what is not in hand, not on a man */
		CHECK(gamedb__parse_san(&p2, "P@e8", &m) != 0);
		CHECK(gamedb__parse_san(&p2, "P@a1", &m) != 0);
		CHECK(gamedb__parse_san(&p2, "Q@d4", &m) != 0);
		CHECK(gamedb__parse_san(&p2, "N@e1", &m) != 0);
		/* "e4" is not a drop */
		CHECK(gamedb__parse_san(&p2, "e4", &m) != 0);
	}
	/* In check: a drop must block; dropping elsewhere is illegal. Rook a1 checks the king on h1. */
	if (!load(&pos, "k7/8/8/8/8/8/6PP/r6K[N] w - - 0 1")) {
		CHECK(gamedb__parse_san(&pos, "N@d1", &m) == 0);
		CHECK(gamedb__parse_san(&pos, "N@d4", &m) != 0);
		CHECK_EQ_INT(gamedb__perft(&pos, 1), 6); /* N@b1..N@g1 */
		CHECK(gamedb__has_legal_move(&pos));
	}
	/* Only a pawn in hand: it cannot block on the first rank, so this is mate (fairy-stockfish: 0). */
	if (!load(&pos, "k7/8/8/8/8/8/6PP/r6K[P] w - - 0 1")) {
		CHECK(!gamedb__has_legal_move(&pos));
		CHECK_EQ_INT(gamedb__perft(&pos, 1), 0);
	}
	/* A pawn may block on the seventh rank: not mate (fairy-stockfish: 48 moves). */
	if (!load(&pos, "k7/7R/8/8/8/8/8/K7[p] b - - 0 1")) {
		CHECK(gamedb__has_legal_move(&pos));
		CHECK_EQ_INT(gamedb__perft(&pos, 1), 48);
	}
	/* Rook on g1 gives contact check: no drop helps, Kxg1 is the one move (fairy-stockfish: 1). */
	if (!load(&pos, "k7/8/8/8/8/8/6PP/6rK[QRBNP] w - - 0 1"))
		CHECK_EQ_INT(gamedb__perft(&pos, 1), 1);
}

int main(void)
{
	test_perft();
	test_san();
	test_fen();
	test_fen_placement();
	test_make();
	test_complete();
	test_parse_san();
	test_slots();
	test_sync();
	test_fen_normal();
	test_move_play();
	test_has_legal_move();
	test_random_games();
	test_play_san_sweep();
	test_crazyhouse();
	return testlib_done();
}
