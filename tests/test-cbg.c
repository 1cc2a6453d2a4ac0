/*
 * libgamedb - tests for the ChessBase move and annotation decoder (lib/formats/cbh-moves.c)
 * and the ChessBase piece slots (lib/board/chessbase.c), below the reader: the test reads the
 * CBH records itself and hands the decoder a context it builds by hand over memory files.
 *
 *  - hand-made records: piece slots after captures and promotions, two-byte moves, castling,
 *    null moves, padding, the variation tree order, setup positions, annotations of every
 *    kind, the language filter, records without the final marker, unsupported modes,
 *    illegal moves, cut-off records;
 *  - every game of every base under $GAMEDB_REALDATA/chessbase decodes legally, and every
 *    line of every game replayed by stockfish (when installed) ends in the same position;
 *    except the games known to be unsupported (pinned below), which fail with exactly their
 *    reason;
 *  - where the seed text and the notes disagree, the real files decide (pinned below);
 *  - every real base truncated at 64 points and with 64 bytes flipped gives clean results
 *    (meant for the sanitizer build).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/cbh.h"
#include "formats/cbh-keys.h"
#include "load-file.h"
#include "testlib.h"
#include "walk-files.h"

/* The substitution table, as the seed text prints it; the test keeps its own copy. */
static const uint8_t T[256] = {
	162, 149, 67,  245, 193, 61,  74,  108, 83,  131, 204, 124, 255, 174, 104, 173,
	209, 146, 139, 141, 53,  129, 94,  116, 38,  142, 171, 202, 253, 154, 243, 160,
	165, 21,  252, 177, 30,  237, 48,  234, 34,  235, 167, 205, 78,  111, 46,  36,
	50,  148, 65,  140, 110, 88,  130, 80,  187, 2,   138, 216, 250, 96,  222, 82,
	186, 70,  172, 41,  157, 215, 223, 8,   33,  1,   102, 163, 241, 25,  39,  181,
	145, 213, 66,  14,  180, 76,  217, 24,  95,  188, 37,  166, 150, 4,   86,  106,
	170, 51,  28,  43,  115, 240, 221, 164, 55,  211, 197, 16,  191, 90,  35,  52,
	117, 91,  184, 85,  210, 107, 9,   58,  87,  18,  179, 119, 72,  133, 155, 15,
	158, 199, 200, 161, 127, 122, 192, 189, 49,  109, 246, 62,  195, 17,  113, 206,
	125, 218, 168, 84,  144, 151, 31,  68,  64,  22,  201, 227, 44,  203, 132, 236,
	159, 63,  92,  230, 118, 11,  60,  32,  183, 54,  0,   220, 231, 249, 79,  247,
	175, 6,   7,   224, 26,  10,  169, 75,  12,  214, 99,  135, 137, 29,  19,  27,
	228, 112, 5,   71,  103, 123, 47,  238, 226, 232, 152, 13,  239, 207, 196, 244,
	251, 176, 23,  153, 100, 242, 212, 42,  3,   77,  120, 198, 254, 101, 134, 136,
	121, 69,  59,  229, 73,  143, 45,  185, 190, 98,  147, 20,  233, 208, 56,  156,
	178, 194, 89,  93,  182, 114, 81,  248, 40,  126, 97,  57,  225, 219, 105, 128,
};
static uint8_t Tinv[256];

static uint32_t be(const uint8_t *p, int n)
{
	uint32_t v = 0;
	while (n-- > 0)
		v = v << 8 | *p++;
	return v;
}

/* ---- a hand-built decoding environment over memory files ------------------------------- */

struct env {
	struct gamedb_reader *r;
	struct gamedb__src src;
	struct gamedb__cbg_ctx ctx;
	struct gamedb_game g;
};

static char *dupstr(const char *s)
{
	char *d = malloc(strlen(s) + 1);
	if (d)
		strcpy(d, s);
	return d;
}

/*
 * A converter hook that declines every text (the library converts it itself), counting the
 * texts it was asked for. Installed by env_open() while with_hook is set: a reader with a
 * hook takes ChessBase's general text path (cb_text()) instead of the charset's table.
 */
static int with_hook;
static unsigned hook_calls;
static int32_t decline_all(void *user_data, const char *charset, const char *in, size_t in_len,
			   char *out, size_t out_cap, size_t *out_len)
{
	(void)user_data, (void)charset, (void)in, (void)in_len, (void)out, (void)out_cap;
	*out_len = 0;
	hook_calls++;
	return GAMEDB_FAILED;
}

/* Opens the memory files cbg (and cba, unless NULL) as the base "t.cbh". */
static void env_open(struct env *e, const uint8_t *cbg, size_t ncbg, const uint8_t *cba,
		     size_t ncba, const char *charset)
{
	size_t n = cba ? 2 : 1;

	memset(e, 0, sizeof *e);
	e->r = gamedb_reader_new();
	e->src.kind = GAMEDB__SRC_MEMSET;
	/* I/O errors reach the reader the way they reach it from its own source. */
	e->src.report = e->r->src.report;
	e->src.report_ctx = e->r->src.report_ctx;
	e->src.primary = dupstr("t.cbh");
	e->src.nmem = n;
	e->src.mem_names = calloc(n, sizeof(char *));
	e->src.mem_data = calloc(n, sizeof(void *));
	e->src.mem_sizes = calloc(n, sizeof(size_t));
	e->src.mem_names[0] = dupstr("t.cbg");
	e->src.mem_data[0] = cbg;
	e->src.mem_sizes[0] = ncbg;
	if (cba) {
		e->src.mem_names[1] = dupstr("t.cba");
		e->src.mem_data[1] = cba;
		e->src.mem_sizes[1] = ncba;
	}
	CHECK(gamedb__src_open(&e->src, ".cbg", 0, &e->ctx.cbg) == 0);
	if (cba)
		CHECK(gamedb__src_open(&e->src, ".cba", 0, &e->ctx.cba) == 0);
	e->ctx.r = e->r;
	if (charset) /* as the caller's charset option would */
		snprintf(e->r->text.charset, sizeof e->r->text.charset, "%s", charset);
	if (with_hook)
		gamedb_reader_set_converter(e->r, decline_all, NULL);
	e->ctx.language = -1;
	e->ctx.mainline_moves = -1;
	e->g.magic = GAMEDB__GAME_MAGIC;
	e->g.reader = e->r;
	gamedb__game_reset(&e->g);
}

static void env_close(struct env *e)
{
	gamedb__cbg_ctx_free(&e->ctx);
	gamedb__game_release(&e->g);
	gamedb__src_close(&e->src);
	gamedb_reader_free(e->r);
}

static int32_t env_decode(struct env *e, uint64_t cbg_off, uint64_t cba_off, uint64_t recno)
{
	int32_t st;

	gamedb__game_reset(&e->g);
	e->g.index = recno ? recno - 1 : 0;
	e->g.loc[0] = cbg_off;
	e->g.loc[1] = cba_off;
	e->g.loc[2] = recno;
	st = gamedb__cbg_decode(&e->ctx, &e->g, &e->g.mb);
	e->g.mb.status = st;
	e->g.moves_state = GAMEDB__MOVES_DONE;
	return st;
}

/*
 * The event stream in a compact text form: SAN moves, "(" ")" around variations, "{t}"
 * comment after, "<{t}" comment before, "$n", "[%...]" commands and clocks ("[c:...]" for a
 * clock event), "<ann T hex>" raw annotations; each followed by a space.
 */
static void stream(struct env *e, char *out, size_t cap)
{
	struct gamedb__pos stack[64][2]; /* [depth][0 cur, 1 prev] */
	const struct gamedb__movebuf *mb = &e->g.mb;
	size_t i, len = 0, d = 0;
	const char *why;

	union gamedb__anypos u;

	out[0] = 0;
	if (gamedb__game_start_pos(&e->g, &u, &why) != 0) {
		snprintf(out, cap, "BADSTART");
		return;
	}
	stack[0][0] = u.c;
	stack[0][1] = stack[0][0];
	for (i = 0; i < mb->n && len + 64 < cap; i++) {
		const struct gamedb__node *nd = &mb->nodes[i];
		const char *t = mb->text.p ? mb->text.p + nd->val : ""; /* no texts: no array */
		char san[32];
		switch (nd->type) {
		case GAMEDB_EVENT_MOVE:
			stack[d][1] = stack[d][0];
			gamedb__move_san(&stack[d][0], &nd->m, san);
			gamedb__pos_make(&stack[d][0], &nd->m);
			len += (size_t)snprintf(out + len, cap - len, "%s ", san);
			break;
		case GAMEDB_EVENT_VARIATION_BEGIN:
			if (d + 1 < 64) {
				stack[d + 1][0] = stack[d + 1][1] = stack[d][1];
				d++;
			}
			len += (size_t)snprintf(out + len, cap - len, "( ");
			break;
		case GAMEDB_EVENT_VARIATION_END:
			if (d)
				d--;
			len += (size_t)snprintf(out + len, cap - len, ") ");
			break;
		case GAMEDB_EVENT_NAG:
			len += (size_t)snprintf(out + len, cap - len, "$%u ", (unsigned)nd->val);
			break;
		case GAMEDB_EVENT_COMMENT_AFTER:
			len += (size_t)snprintf(out + len, cap - len, "{%.*s} ", (int)(cap - len - 8), t);
			break;
		case GAMEDB_EVENT_COMMENT_BEFORE:
			len += (size_t)snprintf(out + len, cap - len, "<{%.*s} ", (int)(cap - len - 8), t);
			break;
		case GAMEDB_EVENT_COMMAND:
			len += (size_t)snprintf(out + len, cap - len, "[%.*s] ", (int)(cap - len - 8), t);
			break;
		case GAMEDB_EVENT_CLOCK:
			len += (size_t)snprintf(out + len, cap - len, "[c:%.*s] ", (int)(cap - len - 8), t);
			break;
		case GAMEDB_EVENT_ANNOTATION:
			len += (size_t)snprintf(out + len, cap - len, "<ann %02x %.*s> ", nd->aux,
						(int)(cap - len - 16), t);
			break;
		default:
			len += (size_t)snprintf(out + len, cap - len, "?%d ", nd->type);
		}
		if (len >= cap)
			len = cap - 1;
	}
	if (len && out[len - 1] == ' ')
		out[len - 1] = 0;
}

/* ---- writing records by hand ---------------------------------------------------------- */

struct rec {
	uint8_t b[4096];
	size_t n;
	unsigned moves; /* the counter n of the format */
};

/* Starts a base file (26-byte header). */
static void rec_start(struct rec *r)
{
	memset(r, 0, sizeof *r);
	r->b[1] = 26;
	r->n = 26;
}

/* Opcodes: moves (< 235 and 235 with its word) advance the counter, the rest does not. */
static void put_op(struct rec *r, int op)
{
	r->b[r->n++] = (uint8_t)(Tinv[op] + r->moves);
	if (op < 235)
		r->moves++;
}

static void put_two(struct rec *r, int from_cm, int to_cm, int promo)
{
	unsigned w = (unsigned)from_cm | (unsigned)to_cm << 6 | (unsigned)promo << 12;
	r->b[r->n++] = (uint8_t)(Tinv[235] + r->moves);
	r->b[r->n++] = (uint8_t)(Tinv[w >> 8] + r->moves);
	r->b[r->n++] = (uint8_t)(Tinv[w & 255] + r->moves);
	r->moves++;
}

/* Square names to ChessBase's file-by-file numbering (a1 = 0, a2 = 1, ...). */
static int cm(const char *s)
{
	return (s[0] - 'a') * 8 + (s[1] - '1');
}

/*
 * A setup block from a FEN board field (pieces only) with the given flags bytes.
 */
static void put_setup(struct rec *r, const char *board, int b1, int castle, int num)
{
	char sq[64];
	int rank = 7, file = 0, i, bit = 0;
	uint8_t *bits;

	memset(sq, 0, sizeof sq);
	for (; *board && *board != ' '; board++) {
		if (*board == '/') {
			rank--;
			file = 0;
		} else if (*board >= '1' && *board <= '8') {
			file += *board - '0';
		} else {
			sq[rank * 8 + file++] = *board;
		}
	}
	r->b[r->n++] = 1;
	r->b[r->n++] = (uint8_t)b1;
	r->b[r->n++] = (uint8_t)castle;
	r->b[r->n++] = (uint8_t)num;
	bits = r->b + r->n;
	memset(bits, 0, 24);
	for (i = 0; i < 64; i++) {
		const char ch = sq[(i & 7) * 8 + (i >> 3)];
		const char *code = "?KQNBRP";
		int v, k;
		if (!ch) {
			bit++;
			continue;
		}
		v = 16 | ((ch >= 'a') ? 8 : 0) | (int)(strchr(code, ch >= 'a' ? ch - 32 : ch) - code);
		for (k = 4; k >= 0; k--, bit++)
			if ((v >> k) & 1)
				bits[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
	}
	r->n += 24;
}

/* Begins a game record at r->n: flags byte, length later (rec_end). */
static size_t game_begin(struct rec *r, int flags)
{
	size_t at = r->n;
	r->b[r->n++] = (uint8_t)flags;
	r->n += 3;
	r->moves = 0;
	return at;
}

static void game_end(struct rec *r, size_t at)
{
	const size_t len = r->n - at;
	r->b[at + 1] = (uint8_t)(len >> 16);
	r->b[at + 2] = (uint8_t)(len >> 8);
	r->b[at + 3] = (uint8_t)len;
}

/* CBA blocks. */
static size_t cba_begin(struct rec *r)
{
	size_t at = r->n;
	static const uint8_t head[14] = { 0, 0, 1, 1, 0, 14, 14, 0, 0, 1, 0, 0, 0, 14 };
	memcpy(r->b + r->n, head, 14);
	r->n += 14;
	return at;
}

static void cba_entry(struct rec *r, int pos, int type, const void *payload, size_t len)
{
	const uint32_t p = (uint32_t)pos & 0xFFFFFF;
	const size_t total = len + 6;
	r->b[r->n++] = (uint8_t)(p >> 16);
	r->b[r->n++] = (uint8_t)(p >> 8);
	r->b[r->n++] = (uint8_t)p;
	r->b[r->n++] = (uint8_t)type;
	r->b[r->n++] = (uint8_t)(total >> 8);
	r->b[r->n++] = (uint8_t)total;
	memcpy(r->b + r->n, payload, len);
	r->n += len;
}

static void cba_text(struct rec *r, int pos, int type, int lang, const char *text)
{
	uint8_t buf[512];
	buf[0] = (uint8_t)(lang >> 8);
	buf[1] = (uint8_t)lang;
	memcpy(buf + 2, text, strlen(text));
	cba_entry(r, pos, type, buf, strlen(text) + 2);
}

static void cba_end(struct rec *r, size_t at, int entries)
{
	const size_t len = r->n - at;
	r->b[at + 9] = (uint8_t)(entries + 1);
	r->b[at + 10] = (uint8_t)(len >> 24);
	r->b[at + 11] = (uint8_t)(len >> 16);
	r->b[at + 12] = (uint8_t)(len >> 8);
	r->b[at + 13] = (uint8_t)len;
}

/* Decodes the single game of cbg (at offset 26) with its annotations at 26 of cba. */
static int32_t run_as(struct rec *cbg, struct rec *cba, char *out, size_t cap, char *err,
		      size_t errcap, int language, int want_san)
{
	struct env e;
	int32_t st;

	env_open(&e, cbg->b, cbg->n, cba ? cba->b : NULL, cba ? cba->n : 0, NULL);
	e.ctx.language = language;
	e.r->want_san = want_san;
	st = env_decode(&e, 26, cba ? 26 : 0, 1);
	stream(&e, out, cap);
	if (err)
		snprintf(err, errcap, "%s", e.g.errmsg);
	env_close(&e);
	return st;
}

/*
 * Decodes the one game of cbg (and cba) into out and err; its status. Twice: the moves played
 * with their SAN (a reader that wants it) and without (issue 32: gamedb__move_play_fast()),
 * which must agree in everything, the legality checks above all.
 */
static int32_t run(struct rec *cbg, struct rec *cba, char *out, size_t cap, char *err,
		   size_t errcap, int language)
{
	char out2[8192], err2[512];
	int32_t st = run_as(cbg, cba, out, cap, err, errcap, language, 1);
	int32_t st2 = run_as(cbg, cba, out2, sizeof out2 < cap ? sizeof out2 : cap, err2,
			     sizeof err2, language, 0);

	CHECK_MSG(st == st2 && strcmp(out, out2) == 0 && (!err || strcmp(err, err2) == 0),
		  "with and without SAN: %d %d\n%s\n%s\n%s\n%s", (int)st, (int)st2, out, out2,
		  err ? err : "", err2);
	return st;
}

/* ---- hand-made records ---------------------------------------------------------------- */

/* Opcode numbers (the notes' table). */
enum { K_UP = 1, OO = 9, OOO = 10, Q1 = 11, R1 = 39, R2 = 53, B1 = 67, B2 = 81, N1 = 95,
       N2 = 103, PAWN = 111, Q2 = 143, Q3 = 171, R3 = 199, B3 = 213, N3 = 227 };
/* Slider opcode: dir 0 up, 1 right, 2 (+,+), 3 (+,-) (bishops: 0 = (+,+), 1 = (+,-)). */
#define SL(base, dir, n) ((base) + (dir) * 7 + (n) - 1)
#define PW(k, what) (PAWN + 4 * (k) + (what)) /* what: 0 one, 1 two, 2 right, 3 left */

static void test_slots_and_moves(void)
{
	struct rec g;
	size_t at;
	int32_t st;
	char out[2048], err[512];

	/* 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Bxc6 dxc6 5.O-O Nf6: after Bxc6 black's knights renumber. */
	rec_start(&g);
	at = game_begin(&g, 0);
	put_op(&g, PW(4, 1));
	put_op(&g, PW(4, 1));
	put_op(&g, N2 + 2);          /* g1 knight (-1, +2) */
	put_op(&g, N1 + 6);          /* b8 knight (+1, -2) */
	put_op(&g, SL(B2, 0, 4));    /* f1 bishop (+4, +4) mod 8: b5 */
	put_op(&g, PW(0, 0));        /* a6 */
	put_op(&g, SL(B2, 0, 1));    /* Bxc6 */
	put_op(&g, PW(3, 2));        /* d-pawn captures "right" (for black: toward a) */
	put_op(&g, OO);
	put_op(&g, N1 + 5);          /* now the g8 knight is the 1st: (-1, -2) = Nf6 */
	put_op(&g, PW(3, 0));        /* d3 */
	put_op(&g, PW(3, 0));        /* black's d-pawn (on c6) stays pawn 4: c5 */
	put_op(&g, 0);               /* a null move */
	put_op(&g, PW(2, 0));        /* black's own c-pawn is still pawn 3: c6 */
	put_op(&g, 236);             /* padding: no move, no count */
	put_op(&g, SL(R2, 1, 7));    /* Rf1-e1: the 2nd rook (h1, now f1), x+7 */
	put_op(&g, 255);
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_OK);
	CHECK_EQ_STR(out, "e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O Nf6 d3 c5 -- c6 Re1");

	/* Promotion by a two-byte move; the new knight takes the first free knight slot. */
	rec_start(&g);
	at = game_begin(&g, 0x40);
	put_setup(&g, "4k3/P7/8/8/8/8/8/4K3", 0, 0, 0);
	put_two(&g, cm("a7"), cm("a8"), 3);
	put_op(&g, K_UP + 6);        /* Kd8 */
	put_op(&g, N1 + 6);          /* 1st knight (+1, -2): Nb6 */
	put_op(&g, 255);
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_OK);
	CHECK_EQ_STR(out, "a8=N Kd8 Nb6");

	/*
	 * A fourth queen stays untracked: three queens and a promotion; the new queen moves
	 * only by two-byte moves, capturing the 1st queen moves the others down, and the new
	 * queen does not take the freed 3rd slot.
	 */
	rec_start(&g);
	at = game_begin(&g, 0x40);
	put_setup(&g, "8/6P1/8/3r3k/8/8/4K3/QQQ5", 0, 0, 0);
	put_two(&g, cm("g7"), cm("g8"), 0); /* g8=Q: the 4th queen */
	put_op(&g, SL(R1, 1, 5));           /* Rd5-a5 (x+5 mod 8) */
	put_two(&g, cm("g8"), cm("g2"), 0); /* Qg8-g2 */
	put_op(&g, SL(R1, 0, 4));           /* Ra5xa1 (y+4 mod 8): the 1st queen is gone */
	put_op(&g, SL(Q1, 0, 2));           /* the old 2nd queen (b1) is the 1st now: Qb3 */
	put_op(&g, K_UP + 4);               /* Kh4 */
	put_op(&g, SL(Q2, 0, 1));           /* the old 3rd (c1) is the 2nd: Qc2 */
	put_op(&g, K_UP);                   /* Kh5 */
	put_op(&g, SL(Q3, 0, 1));           /* there is no 3rd queen: g2's is untracked */
	put_op(&g, 255);
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_FAILED);
	CHECK_EQ_STR(out, "g8=Q Ra5 Qg2 Rxa1 Qb3 Kh4 Qcc2 Kh5");
	CHECK_MSG(strstr(err, "no 3rd queen") && strstr(err, "move 5."), "%s", err);
	CHECK_MSG(strstr(err, "t.cbg: offset ") != NULL, "%s", err);

	/* Castling long, en passant as an ordinary capture, the king's steps. */
	rec_start(&g);
	at = game_begin(&g, 0x40);
	put_setup(&g, "4k2r/8/8/8/1p6/8/P7/R3K3", 0, 1 | 8, 7);
	put_op(&g, PW(0, 1));               /* a4 */
	put_op(&g, PW(0, 2));               /* black's pawn 1 (b4) captures right (a3): bxa3 */
	put_op(&g, OOO);
	put_op(&g, OO);
	put_op(&g, 255);
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_OK);
	CHECK_EQ_STR(out, "a4 bxa3 O-O-O O-O");

	/* An illegal move names the file, offset and move. */
	rec_start(&g);
	at = game_begin(&g, 0);
	put_op(&g, PW(4, 1));
	put_op(&g, PW(4, 1));
	put_op(&g, PW(4, 0));               /* e5: blocked */
	put_op(&g, 255);
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_FAILED);
	CHECK_EQ_STR(out, "e4 e5");
	CHECK_MSG(strstr(err, "t.cbg: offset 32: game 1: move 2.: illegal move") != NULL, "%s", err);

	/* No final marker: read to the stored length, with a warning. */
	rec_start(&g);
	at = game_begin(&g, 0);
	put_op(&g, PW(3, 1));
	put_op(&g, PW(3, 1));
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_WARN);
	CHECK_EQ_STR(out, "d4 d5");
	CHECK_MSG(strstr(err, "t.cbg: offset 32: game 1: the game has no final marker") != NULL,
		  "%s", err);

	/* A record longer than the file: the legal part, and a message. */
	rec_start(&g);
	at = game_begin(&g, 0);
	put_op(&g, PW(3, 1));
	put_op(&g, PW(3, 1));
	put_op(&g, 255);
	game_end(&g, at);
	g.b[at + 3] += 10;
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_OK); /* the final marker comes first */
	g.n--;
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_FAILED);
	CHECK_EQ_STR(out, "d4 d5");
	CHECK_MSG(strstr(err, "cut off") != NULL, "%s", err);

	/*
	 * Chess960 (mode 10): the castling rooks come from the 8 bytes after the board (white
	 * and black king, two white rooks, two black rooks, position number; squares numbered
	 * a1 = 0, a2 = 1, ...). King b1, rooks a1 and c1: X-FEN KQkq. The record holds only
	 * its final marker, stored byte 0x91 (the Chess960 table maps it to 255).
	 */
	{
		static const uint8_t x960[8] = { 8, 15, 16, 0, 23, 7, 0, 1 };
		struct env e;
		rec_start(&g);
		at = game_begin(&g, 0x40 | 10);
		put_setup(&g, "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ", 0, 15, 1);
		memcpy(g.b + g.n, x960, 8);
		g.n += 8;
		g.b[g.n++] = 0x91;
		game_end(&g, at);
		env_open(&e, g.b, g.n, NULL, 0, NULL);
		st = env_decode(&e, 26, 0, 7);
		CHECK_EQ_INT(st, GAMEDB_OK);
		CHECK_EQ_STR(e.g.fen, "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w KQkq - 0 1");
		CHECK_EQ_INT(e.g.start.castle_rook[0][1], 2);  /* c1 */
		CHECK_EQ_INT(e.g.start.castle_rook[1][0], 56); /* a8 */
		env_close(&e);
		/* A castling rook square that holds no rook: the game fails at those 8 bytes. */
		g.b[at + 4 + 28 + 2] = 24; /* d1 */
		env_open(&e, g.b, g.n, NULL, 0, NULL);
		st = env_decode(&e, 26, 0, 7);
		CHECK_EQ_INT(st, GAMEDB_FAILED);
		CHECK_MSG(strstr(e.g.errmsg, "t.cbg: offset 58: game 7: bad setup position: a Chess960 "
				 "castling rook square is bad") != NULL, "%s", e.g.errmsg);
		/* The board is still reported (without the castling rights it cannot name). */
		CHECK_EQ_STR(e.g.fen, "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w - - 0 1");
		env_close(&e);
	}

	/* Unsupported encodings fail with the mode named. */
	g.b[at] = 8;
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_MSG(st == GAMEDB_FAILED && strstr(err, "mode 8 (losing chess)"), "%s", err);

	/* Unknown opcodes are skipped with a warning; they count no move. */
	rec_start(&g);
	at = game_begin(&g, 0);
	put_op(&g, PW(2, 1));
	put_op(&g, 240);
	put_op(&g, PW(2, 1));
	put_op(&g, 255);
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_WARN);
	CHECK_EQ_STR(out, "c4 c5");
	CHECK_MSG(strstr(err, "unknown opcode 240") != NULL, "%s", err);

	/* A bad setup board fails with its reason. */
	rec_start(&g);
	at = game_begin(&g, 0x40);
	put_setup(&g, "8/8/8/8/8/8/8/4K3", 0, 0, 0);
	put_op(&g, 255);
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_MSG(st == GAMEDB_FAILED && strstr(err, "bad setup position"), "%s", err);
}

static void test_tree_and_annotations(void)
{
	struct rec g, a;
	size_t at;
	int32_t st;
	char out[4096], err[512];
	static const uint8_t squares[] = { 2, 28, 4, 37, 3, 1 };       /* d4 green, e5 red, a1 yellow */
	static const uint8_t arrows[] = { 2, 34, 36, 4, 60, 61 };      /* e2e4 green, h4h5 red */
	static const uint8_t clock[] = { 0, 0x09, 0x27, 0xC0 };         /* 600000 cs = 1:40:00 */
	static const uint8_t clock2[] = { 0, 0, 0x17, 0x65 };           /* 5989 cs = 0:00:59.89 */
	static const uint8_t emt[] = { 0, 2, 5, 0x1E };                 /* 0:02:05 */
	static const uint8_t sym[] = { 1, 0x0E, 0x8C };                 /* !, +=, with the idea */
	static const uint8_t crit[] = { 2 };
	static const uint8_t medal[] = { 0, 0, 0x80, 0x41 };            /* best, tactics, user */
	static const uint8_t quote[] = { 0, 1, 0, 2 };                  /* 0x13 game quotation */

	/*
	 * 1.e4 (1.d4) 1...e5 (1...c5 2.Nf3) 2.Nf3: stored as the main line first, each
	 * alternative after it: 254 e4 254 e5 Nf3 255 c5 Nf3 255 d4 255.
	 * Counter positions: e4 0, e5 1, Nf3 2, c5 3, Nf3 4, d4 5.
	 */
	rec_start(&g);
	at = game_begin(&g, 0);
	put_op(&g, 254);
	put_op(&g, PW(4, 1));
	put_op(&g, 254);
	put_op(&g, PW(4, 1));
	put_op(&g, N2 + 2);
	put_op(&g, 255);
	put_op(&g, PW(2, 1));
	put_op(&g, N2 + 2);
	put_op(&g, 255);
	put_op(&g, PW(3, 1));
	put_op(&g, 255);
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_OK);
	CHECK_EQ_STR(out, "e4 ( d4 ) e5 ( c5 Nf3 ) Nf3");

	rec_start(&a);
	at = cba_begin(&a);
	cba_text(&a, -1, 0x02, 0, "Game text");
	cba_entry(&a, -1, 0x22, medal, sizeof medal);
	cba_entry(&a, -1, 0x03, sym, 1);
	cba_entry(&a, 0, 0x04, squares, sizeof squares);
	cba_entry(&a, 0, 0x03, sym, sizeof sym);
	cba_text(&a, 0, 0x02, 0x2A, "English \xA2\xA3\xA4\xA5\xA6\xA7 \x9E line\r\nnext");
	cba_text(&a, 0, 0x02, 0x35, "Deutsch \xE4");
	cba_entry(&a, 0, 0x16, clock, sizeof clock);
	cba_entry(&a, 1, 0x16, clock2, sizeof clock2);
	cba_entry(&a, 1, 0x05, arrows, sizeof arrows);
	cba_entry(&a, 3, 0x07, emt, sizeof emt);
	cba_entry(&a, 3, 0x18, crit, sizeof crit);
	cba_text(&a, 3, 0x82, 0, "before c5");
	cba_entry(&a, 4, 0x13, quote, sizeof quote);
	cba_text(&a, 5, 0x82, 0x2A, "before d4");
	cba_entry(&a, 5, 0x17, clock2, sizeof clock2);
	cba_entry(&a, 2, 0x03, sym + 1, 1);
	cba_end(&a, at, 17);
	st = run(&g, &a, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_OK);
	CHECK_EQ_STR(out,
		     "<{Game text} [%medal best,tactics,user] <ann 03 01> "
		     "e4 $1 $14 $140 {English KQNBRP [#] line\nnext} {Deutsch \xC3\xA4} "
		     "[%csl Gd4,Re5,Ya1] [c:%clk 1:40:00] "
		     "( <{before d4} d4 [%clkb 0:00:59.89] ) "
		     "e5 [%clkw 0:00:59.89] [%cal Ge2e4,Rh4h5] "
		     "( <{before c5} c5 [%emt 0:02:05] [%crit middlegame] Nf3 <ann 13 00010002> ) "
		     "Nf3 $14");
	/*
	 * The same through the general path (a converter hook, which declines: cb_text()): the
	 * figurines, the diagram and the line break come out as the table writes them.
	 */
	{
		char out_hook[2048];
		with_hook = 1;
		hook_calls = 0;
		st = run(&g, &a, out_hook, sizeof out_hook, err, sizeof err, -1);
		with_hook = 0;
		CHECK_EQ_INT(st, GAMEDB_OK);
		CHECK_EQ_STR(out_hook, out);
		CHECK_MSG(hook_calls > 0, "the hook was not asked: the general path was not taken");
	}
	/* Only English (and language 0) kept. */
	st = run(&g, &a, out, sizeof out, err, sizeof err, 0x2A);
	CHECK_EQ_INT(st, GAMEDB_OK);
	CHECK_MSG(strstr(out, "Deutsch") == NULL && strstr(out, "English") && strstr(out, "Game text"),
		  "%s", out);
	/* A Russian text through CP1251. */
	{
		struct rec a2;
		struct env e;
		size_t i, k;
		rec_start(&a2);
		at = cba_begin(&a2);
		cba_text(&a2, 0, 0x02, 0, "\xEE\xEA");
		cba_text(&a2, 2, 0x02, 0, "ab");
		cba_text(&a2, 3, 0x02, 0, "\xE4\xE0 c");
		/* Its position -1 (the start) makes the byte after the text above 0xFF. */
		cba_text(&a2, -1, 0x02, 0, "x");
		cba_end(&a2, at, 4);
		env_open(&e, g.b, g.n, a2.b, a2.n, "CP1251");
		st = env_decode(&e, 26, 26, 1);
		CHECK_EQ_INT(st, GAMEDB_OK);
		stream(&e, out, sizeof out);
		CHECK_EQ_STR(out, "<{x} e4 {\xD0\xBE\xD0\xBA} ( d4 ) e5 ( c5 {\xD0\xB4\xD0\xB0 c} Nf3 ) Nf3 {ab}");
		/*
		 * The stored bytes, NUL-terminated, in the copy of the game's CBA block in the text
		 * pool, each text's own (the NUL after one does not cut the next); a text that is
		 * its bytes keeps nothing more. The language sits in aux.
		 */
		for (i = 0, k = 0; i < e.g.mb.n; i++) {
			const struct gamedb__node *nd = &e.g.mb.nodes[i];
			const char *text = e.g.mb.text.p + nd->val;
			if (nd->type != GAMEDB_EVENT_COMMENT_AFTER && nd->type != GAMEDB_EVENT_COMMENT_BEFORE)
				continue;
			k++;
			if (!strcmp(text, "ab") || !strcmp(text, "x"))
				CHECK(nd->kind == 0);
			else
				CHECK_MSG(nd->kind == GAMEDB__NODE_RAW &&
					  strcmp(e.g.mb.text.p + gamedb__node_raw(nd),
						 !strcmp(text, "\xD0\xBE\xD0\xBA") ? "\xEE\xEA" : "\xE4\xE0 c") == 0,
					  "text %s: stored bytes wrong", text);
		}
		CHECK_EQ_INT(k, 4);
		env_close(&e);
	}
	/* Annotations past the last move: a warning, the moves stay. */
	rec_start(&a);
	at = cba_begin(&a);
	cba_text(&a, 6, 0x02, 0, "nowhere");
	cba_end(&a, at, 1);
	st = run(&g, &a, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_WARN);
	CHECK_EQ_STR(out, "e4 ( d4 ) e5 ( c5 Nf3 ) Nf3");
	CHECK_MSG(strstr(err, "t.cba: ") && strstr(err, "1 annotation(s)"), "%s", err);
	/* A bad entry length: a warning, the entries before it stay. */
	rec_start(&a);
	at = cba_begin(&a);
	cba_text(&a, 0, 0x02, 0, "kept");
	cba_text(&a, 1, 0x02, 0, "lost");
	cba_end(&a, at, 2);
	a.b[at + 14 + 12 + 5] = 200;
	st = run(&g, &a, out, sizeof out, err, sizeof err, -1);
	CHECK_EQ_INT(st, GAMEDB_WARN);
	CHECK_EQ_STR(out, "e4 {kept} ( d4 ) e5 ( c5 Nf3 ) Nf3");
}

/* ---- real bases ----------------------------------------------------------------------- */

struct file {
	uint8_t *p;
	size_t n;
};

struct base {
	char name[512];
	struct file cbh, cbg, cba;
};

static int load_into(const char *path, struct file *f)
{
	f->p = load_file(path, &f->n);
	return f->p ? 0 : -1;
}

static struct base bases[64];
static size_t nbases;

/*
 * A file of the walk (walk_files()): a .cbh is a base when its .cbg loads too (its .cba is
 * loaded if there is one). At most 64 bases.
 */
static void find_base(const char *folder, const char *name, const char *path, void *ctx)
{
	struct base *b = &bases[nbases];
	size_t len = strlen(name);
	char sib[1024];

	(void)folder;
	(void)ctx;
	if (nbases == 64 || len <= 4 || strcmp(name + len - 4, ".cbh") != 0)
		return;
	snprintf(b->name, sizeof b->name, "%.*s", (int)(strlen(path) - 4), path);
	if (load_into(path, &b->cbh) != 0)
		return;
	snprintf(sib, sizeof sib, "%s.cbg", b->name);
	if (load_into(sib, &b->cbg) != 0)
		return;
	snprintf(sib, sizeof sib, "%s.cba", b->name);
	load_into(sib, &b->cba);
	nbases++;
}

static const char *short_name(const struct base *b)
{
	const char *s = strrchr(b->name, '/');
	return s ? s + 1 : b->name;
}

/*
 * The structure of a record's move bytes under one reading of the opcode table: two_byte is
 * the opcode that carries two more bytes, and every opcode below it counts as a move. 1 when
 * the 254s and 255s balance and the final 255 is the last byte of the record; 2 when there is
 * no final 255 but the moves end exactly at the stored length with every line closed (a record
 * without its final marker, which the decoder reads to its stored length); else 0.
 */
static int stream_consistent(const uint8_t *rec, size_t len, size_t start, int two_byte)
{
	size_t p = start;
	unsigned n = 0;
	long depth = 0;

	while (p < len) {
		int op = T[(uint8_t)(rec[p++] - n)];
		if (op == 254) {
			depth++;
		} else if (op == 255) {
			if (depth-- == 0)
				return p == len;
		} else if (op == two_byte) {
			p += 2;
			n++;
		} else if (op < two_byte) {
			n++;
		}
	}
	return depth == 0 && p == len ? 2 : 0;
}

/*
 * Games of the real bases the decoder does not support yet, pinned as exact expectations:
 * each fails, its message ending with "game N: " and the reason (N: the CBH record number,
 * as the messages count; in these bases, which hold no texts, also the game's number), and
 * every other game decodes. The same list as CHESSBASE_UNSUPPORTED in tests/testsupport.py
 * (keep the two equal); whoever implements the issue "ChessBase: Chess960 and every
 * move-encoding mode, games without their final marker" removes the entries it covers: a
 * pinned game that decodes, or fails for another reason, fails this test.
 */
static const struct unsupported {
	const char *base;     /* under $GAMEDB_REALDATA/chessbase, without ".cbh" */
	unsigned first, last; /* the games first..last */
	const char *reason;
} unsupported[] = {
	/*
	 * Deliberately damaged (libcbh's Chess960Corrupt): the black castling rook squares are
	 * bytes past the board (0x73 0xad in game 1) while the setup grants black both rights.
	 * Read with those rights dropped, the moves run into bytes that are not moves after at
	 * most two plies, so the records are damaged beyond the rook bytes too.
	 */
	{ "libcbh/Chess960Corrupt/Corrupt", 1, 4,
	  "bad setup position: a Chess960 castling rook square is bad" },
};
#define NUNSUPPORTED (sizeof unsupported / sizeof unsupported[0])
static size_t unsupported_met[NUNSUPPORTED]; /* the pinned games met, per entry */

/* The pinned reason of game recno of b (counting it as met), or NULL. */
static const char *unsupported_reason(const struct base *b, size_t recno)
{
	const size_t len = strlen(b->name);
	size_t k;

	for (k = 0; k < NUNSUPPORTED; k++) {
		const size_t n = strlen(unsupported[k].base);
		if (len > n && b->name[len - n - 1] == '/' &&
		    strcmp(b->name + len - n, unsupported[k].base) == 0 &&
		    recno >= unsupported[k].first && recno <= unsupported[k].last) {
			unsupported_met[k]++;
			return unsupported[k].reason;
		}
	}
	return NULL;
}

struct figures {
	size_t games, ok, warn, failed, pinned, annotations, placed_ok, setup, lines;
	size_t pos_eq_moves, move_nag_at_0, start_entries;
	size_t be_tiles, le_tiles, blocks;
	size_t notes_consistent, no_marker, junk_tail, seed_consistent, with_two_byte, op64, op235, op236;
	size_t cbh_count_match, cbh_count_checked;
	size_t lines960, other_mode;
};

/* Reads the 24-byte setup board itself: the FEN board field. */
static void setup_board(const uint8_t *b, char *out)
{
	static const char letter[8] = "?KQNBRP?";
	char sq[64];
	int bit = 0, i, r, f, len = 0;

	for (i = 0; i < 64; i++) {
		int v = 0, k;
		if (!((b[bit / 8] >> (7 - bit % 8)) & 1)) {
			bit++;
			sq[(i & 7) * 8 + (i >> 3)] = 0;
			continue;
		}
		for (k = 0; k < 5; k++, bit++)
			v = v << 1 | ((b[bit / 8] >> (7 - bit % 8)) & 1);
		sq[(i & 7) * 8 + (i >> 3)] = (char)(letter[v & 7] + ((v & 8) ? 32 : 0));
	}
	for (r = 7; r >= 0; r--) {
		int e = 0;
		for (f = 0; f < 8; f++) {
			if (!sq[r * 8 + f]) {
				e++;
				continue;
			}
			if (e)
				out[len++] = (char)('0' + e);
			e = 0;
			out[len++] = sq[r * 8 + f];
		}
		if (e)
			out[len++] = (char)('0' + e);
		if (r)
			out[len++] = '/';
	}
	out[len] = 0;
}

/* The game being collected is stored in a Chess960 mode (its .cbg flags byte, read here). */
static int line_c960;

/* Lines to replay with stockfish: the moves from the start and the FEN we reach. */
static FILE *sf_cmds;
static char **sf_expect;
static size_t sf_n, sf_cap;

/*
 * A FEN with its castling field in Shredder-FEN letters (the rooks' files: white's king side,
 * queen side, then black's), which is how stockfish prints it with UCI_Chess960 on.
 */
static void fen_shredder(const struct gamedb__pos *pos, char *out, size_t cap)
{
	char fen[128], *sp1, *sp2, cast[8];
	size_t n = 0;
	int col, side;

	gamedb__pos_to_fen(pos, fen, sizeof fen);
	for (col = 0; col < 2; col++)
		for (side = 1; side >= 0; side--)
			if (pos->castle_rook[col][side] < 64)
				cast[n++] = (char)((col ? 'a' : 'A') + (pos->castle_rook[col][side] & 7));
	if (!n)
		cast[n++] = '-';
	cast[n] = 0;
	sp1 = strchr(fen, ' ');
	sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	if (!sp2 || !strchr(sp2 + 1, ' ')) {
		snprintf(out, cap, "%s", fen);
		return;
	}
	snprintf(out, cap, "%.*s %s%s", (int)(sp2 - fen), fen, cast, strchr(sp2 + 1, ' '));
}

static void sf_line(const char *startfen, const char *moves, const char *fen, int chess960)
{
	if (!sf_cmds)
		return;
	if (sf_n == sf_cap) {
		sf_cap = sf_cap ? 2 * sf_cap : 1024;
		sf_expect = realloc(sf_expect, sf_cap * sizeof *sf_expect);
	}
	sf_expect[sf_n++] = dupstr(fen);
	if (chess960)
		fprintf(sf_cmds, "setoption name UCI_Chess960 value true\n");
	if (strcmp(startfen, GAMEDB__START_FEN) == 0)
		fprintf(sf_cmds, "position startpos moves %s\nd\n", moves);
	else
		fprintf(sf_cmds, "position fen %s moves %s\nd\n", startfen, moves);
	if (chess960)
		fprintf(sf_cmds, "setoption name UCI_Chess960 value false\n");
}

/*
 * Every line of the decoded game (main line and each variation, from the start position):
 * its UCI moves and the FEN our board reaches, for the stockfish replay.
 */
static void collect_lines(struct env *e, struct figures *fg)
{
	/*
	 * Per open line: its UCI path from the start, the position, and where its first null
	 * move is (stockfish stops at "0000", so a line is replayed up to it).
	 */
	struct lv {
		char *moves;
		size_t len, cap, last; /* last: length before the last move */
		long count, null_at;   /* moves in the path; index of the first null, -1 none */
		size_t null_len;
		char null_fen[128];
		struct gamedb__pos pos, prev;
	} *st = calloc(256, sizeof *st);
	const struct gamedb__movebuf *mb = &e->g.mb;
	/* Chess960: stockfish with UCI_Chess960, castling given as king takes own rook. */
	const int c960 = e->g.variant == GAMEDB_VARIANT_CHESS960 || line_c960;
	size_t d = 0, i;
	char fen[128], start[128];
	const char *why;
	union gamedb__anypos u;

	if (!st || gamedb__game_start_pos(&e->g, &u, &why) != 0) {
		free(st);
		return;
	}
	st[0].pos = u.c;
	if (c960)
		fen_shredder(&st[0].pos, start, sizeof start);
	else
		gamedb__pos_to_fen(&st[0].pos, start, sizeof start);
	st[0].moves = calloc(1, 64);
	st[0].cap = 64;
	st[0].null_at = -1;
	st[0].prev = st[0].pos;
	for (i = 0; i <= mb->n; i++) {
		const struct gamedb__node *nd = i < mb->n ? &mb->nodes[i] : NULL;
		struct lv *l = &st[d];
		if (!nd || nd->type == GAMEDB_EVENT_VARIATION_END) {
			if (c960)
				fen_shredder(&l->pos, fen, sizeof fen);
			else
				gamedb__pos_to_fen(&l->pos, fen, sizeof fen);
			if (l->null_at >= 0) {
				l->moves[l->null_len] = 0;
				sf_line(start, l->moves, l->null_fen, c960);
			} else if (l->len) {
				sf_line(start, l->moves, fen, c960);
			}
			if (c960)
				fg->lines960++;
			fg->lines++;
			free(l->moves);
			if (d)
				d--;
		} else if (nd->type == GAMEDB_EVENT_VARIATION_BEGIN && d + 1 < 256) {
			struct lv *n = &st[d + 1];
			*n = *l;
			n->moves = malloc(n->cap);
			memcpy(n->moves, l->moves, l->last);
			n->moves[l->last] = 0;
			n->len = n->last = l->last;
			n->count = l->count - 1;
			if (l->null_at >= n->count)
				n->null_at = -1; /* the null move was the one replaced */
			n->pos = n->prev = l->prev;
			d++;
		} else if (nd->type == GAMEDB_EVENT_MOVE) {
			char uci[8];
			size_t k = gamedb__move_uci(&nd->m, uci);
			if (c960 && (nd->m.flags & (GAMEDB__MF_CASTLE_K | GAMEDB__MF_CASTLE_Q)) &&
			    nd->m.rook_from < 64) {
				uci[2] = (char)('a' + (nd->m.rook_from & 7));
				uci[3] = (char)('1' + (nd->m.rook_from >> 3));
			}
			if (l->len + k + 2 > l->cap) {
				l->cap = 2 * (l->len + k + 2);
				l->moves = realloc(l->moves, l->cap);
			}
			if ((nd->m.flags & GAMEDB__MF_NULL) && l->null_at < 0) {
				l->null_at = l->count;
				l->null_len = l->len;
				if (c960)
					fen_shredder(&l->pos, l->null_fen, sizeof l->null_fen);
				else
					gamedb__pos_to_fen(&l->pos, l->null_fen, sizeof l->null_fen);
			}
			l->last = l->len;
			l->len += (size_t)sprintf(l->moves + l->len, "%s%s", l->len ? " " : "", uci);
			l->count++;
			l->prev = l->pos;
			gamedb__pos_make(&l->pos, &nd->m);
		}
	}
	free(st);
}

static void check_base(const struct base *b, struct figures *fg, int verbose)
{
	struct env e;
	size_t i, nrec = b->cbh.n / 46;
	const char *cs = strstr(b->name, "Hedgehog") ? "CP1251" : "CP1252";

	memset(fg, 0, sizeof *fg);
	env_open(&e, b->cbg.p, b->cbg.n, b->cba.p, b->cba.n, cs);
	for (i = 1; i < nrec; i++) {
		const uint8_t *r = b->cbh.p + i * 46;
		const uint32_t go = be(r + 1, 4), ao = be(r + 5, 4);
		const char *why;
		int32_t st;
		size_t k, moves = 0, main = 0, depth = 0;
		if (!(r[0] & 1) || (r[0] & 2))
			continue; /* not a game (guiding texts are the index part's) */
		fg->games++;
		e.ctx.mainline_moves = r[45]; /* as format-cbh.c passes it */
		st = env_decode(&e, go, ao, i);
		e.ctx.mainline_moves = -1;
		if (st == GAMEDB_WARN && strstr(e.g.errmsg, "no final marker: the ") &&
		    strstr(e.g.errmsg, "are not moves (ignored)"))
			fg->junk_tail++;
		why = unsupported_reason(b, i);
		if (why) {
			/* Pinned: fails, the message ending with exactly "game N: reason". */
			char tail[300];
			const size_t nt = (size_t)snprintf(tail, sizeof tail, "game %zu: %s", i, why);
			const size_t nm = strlen(e.g.errmsg);
			fg->pinned++;
			CHECK_MSG(st == GAMEDB_FAILED && nm >= nt &&
				  strcmp(e.g.errmsg + nm - nt, tail) == 0,
				  "%s game %zu, pinned as unsupported (\"%s\"): status %d, \"%s\"",
				  short_name(b), i, why, (int)st, e.g.errmsg);
		} else if (st == GAMEDB_OK)
			fg->ok++;
		else if (st == GAMEDB_WARN)
			fg->warn++;
		else
			fg->failed++;
		if (st != GAMEDB_OK && verbose)
			printf("  %s game %zu: %s\n", short_name(b), i, e.g.errmsg);
		if (go + 4 + 28 <= b->cbg.n && (b->cbg.p[go] & 0x40)) {
			char board[100];
			fg->setup++;
			setup_board(b->cbg.p + go + 8, board);
			CHECK_MSG(strncmp(e.g.fen, board, strlen(board)) == 0 &&
				  e.g.fen[strlen(board)] == ' ', "%s game %zu: %s vs %s",
				  short_name(b), i, e.g.fen, board);
		}
		if (why)
			continue; /* nothing decoded: the checks below need the moves or mode 0 */
		for (k = 0; k < e.g.mb.n; k++) {
			const struct gamedb__node *nd = &e.g.mb.nodes[k];
			if (nd->type == GAMEDB_EVENT_MOVE) {
				moves++;
				if (!depth)
					main++;
			} else if (nd->type == GAMEDB_EVENT_VARIATION_BEGIN) {
				depth++;
			} else if (nd->type == GAMEDB_EVENT_VARIATION_END) {
				depth--;
			} else if (nd->type != GAMEDB_EVENT_NAG) {
				fg->placed_ok++;
			}
		}
		/* CBH byte 45: the number of main-line moves (full moves), 255 = many. */
		if (r[45] != 255) {
			fg->cbh_count_checked++;
			if ((main + (e.g.start.stm ? 1 : 0) + 1) / 2 == r[45])
				fg->cbh_count_match++;
			else if (verbose)
				printf("  %s game %zu: CBH says %u moves, main line has %zu plies\n",
				       short_name(b), i, r[45], main);
		}
		/*
		 * The record structure under the notes' and the seed's opcode numbering (mode 0;
		 * the other modes' records are judged by the stockfish replay and their PGN).
		 */
		if (go + 4 <= b->cbg.n && (b->cbg.p[go] & 0x3F) != 0)
			fg->other_mode++;
		else if (go + 4 <= b->cbg.n) {
			const size_t len = be(b->cbg.p + go + 1, 3);
			const size_t start = 4 + ((b->cbg.p[go] & 0x40) ? 28 : 0);
			if (go + len <= b->cbg.n && len >= start) {
				const uint8_t *rec = b->cbg.p + go;
				size_t p;
				unsigned n = 0;
				int two = 0;
				const int notes = stream_consistent(rec, len, start, 235);
				fg->notes_consistent += notes == 1;
				fg->no_marker += notes == 2;
				/* The seed's numbering is judged by the final marker: where there is one. */
				if (notes != 2)
					fg->seed_consistent += stream_consistent(rec, len, start, 236) == 1;
				for (p = start; p < len; p++) {
					int op = T[(uint8_t)(rec[p] - n)];
					fg->op64 += op == 64;
					fg->op235 += op == 235;
					fg->op236 += op == 236;
					if (op == 235) {
						two = 1;
						p += 2;
					}
					if (op <= 235)
						n++;
				}
				fg->with_two_byte += (size_t)two;
			}
		}
		/* The annotations, read here byte by byte. */
		if (ao && b->cba.p && ao + 14 <= b->cba.n) {
			const uint8_t *h = b->cba.p + ao;
			const size_t total = be(h + 10, 4);
			size_t p, count = 0;
			int be_ok = 1, le_ok = 1;
			if (ao + total <= b->cba.n) {
				fg->blocks++;
				for (p = 14; p + 6 <= total;) {
					const size_t len = be(h + p + 4, 2);
					const int32_t pos = (int32_t)(be(h + p, 3) << 8) >> 8;
					if (len < 6)
						break;
					count++;
					if ((size_t)pos == moves)
						fg->pos_eq_moves++;
					if (pos == 0 && h[p + 3] == 3 && h[p + 6] >= 1 && h[p + 6] <= 6)
						fg->move_nag_at_0++;
					if (pos == -1)
						fg->start_entries++;
					p += len;
				}
				be_ok = p == total;
				for (p = 14; p + 6 <= total;) {
					const size_t len = (size_t)h[p + 4] | (size_t)h[p + 5] << 8;
					if (len < 6)
						break;
					p += len;
				}
				le_ok = p == total;
				fg->be_tiles += (size_t)be_ok;
				fg->le_tiles += (size_t)le_ok;
				fg->annotations += count;
			}
		}
		line_c960 = go < b->cbg.n && ((b->cbg.p[go] & 0x3F) == 10 || (b->cbg.p[go] & 0x3F) == 11);
		if (st != GAMEDB_FAILED)
			collect_lines(&e, fg);
	}
	env_close(&e);
}

static void test_real(void)
{
	const char *root = getenv("GAMEDB_REALDATA");
	char dir[1024];
	size_t i, total = 0, failed = 0, pinned = 0, op64 = 0, op235 = 0, op236 = 0;
	size_t seed_broken = 0;
	int verbose = getenv("CBG_VERBOSE") != NULL;
	char cmdpath[] = "/tmp/test-cbg-sf-XXXXXX";
	int fd = -1;
	const char *sf = NULL;
	static const char *const sfs[] = { "/usr/games/stockfish", "/usr/bin/stockfish",
					   "/usr/local/bin/stockfish" };

	snprintf(dir, sizeof dir, "%s/chessbase", root ? root : "../shared/realdata");
	walk_files(dir, 6, find_base, NULL);
	if (nbases == 0) {
		printf("no ChessBase bases under %s: real-data checks skipped\n", dir);
		return;
	}
#ifdef _WIN32
	/* Under Wine the Linux stockfish is visible on Z: but cannot be run through popen(). */
	(void)sfs;
	printf("stockfish replay skipped on Windows\n");
#else
	for (i = 0; i < sizeof sfs / sizeof sfs[0]; i++)
		if (access(sfs[i], X_OK) == 0)
			sf = sfs[i];
#endif
	if (sf && (fd = mkstemp(cmdpath)) >= 0)
		sf_cmds = fdopen(fd, "w");

	for (i = 0; i < nbases; i++) {
		struct figures fg;
		check_base(&bases[i], &fg, verbose);
		printf("%-16s games %4zu: ok %4zu warn %zu failed %zu pinned %zu; setup %zu; "
		       "lines %zu; annotations %zu; CBH move counts %zu/%zu\n",
		       short_name(&bases[i]), fg.games, fg.ok, fg.warn, fg.failed, fg.pinned,
		       fg.setup, fg.lines, fg.annotations, fg.cbh_count_match, fg.cbh_count_checked);
		total += fg.games;
		failed += fg.failed;
		pinned += fg.pinned;
		CHECK_MSG(fg.failed == 0, "%s: %zu games failed", short_name(&bases[i]), fg.failed);
		CHECK_EQ_INT(fg.ok + fg.warn + fg.pinned, fg.games);
		CHECK_EQ_INT(fg.cbh_count_match, fg.cbh_count_checked);
		/*
		 * Pinned (seed vs notes), each against these real files:
		 * - opcodes: the notes' numbering (two-byte move 235, padding 236) makes every
		 *   record's 254/255 structure end exactly at its stored length; the seed's
		 *   numbering (0xEC = 236 for two-byte moves, its table skipping 0x40) breaks most
		 *   records that have a two-byte move (linares: 61 such moves).
		 * - entry lengths are big-endian: they tile every CBA block exactly; read
		 *   little-endian they do not.
		 * - positions: 0 is the first move, -1 the start: no entry sits at position
		 *   "number of moves" (which the old text's "0 = start" would need for the last
		 *   move), and "!"-type symbols sit at position 0 (they need a move).
		 * - two records have no final marker, both of StandardMissingPop: under the notes'
		 *   numbering their bytes end exactly at their stored length (the seed's numbering
		 *   is not judged on them). Game 2's moves end there (WARN); game 1 runs on past its
		 *   last move into bytes that are not moves, and ends (WARN) where its main line
		 *   reaches the length its CBH record gives (54 moves: 54.Ke3, as in the PGN kept
		 *   beside it).
		 */
		CHECK_EQ_INT(fg.no_marker,
			     strcmp(short_name(&bases[i]), "StandardMissingPop") == 0 ? 2 : 0);
		CHECK_EQ_INT(fg.junk_tail, strcmp(short_name(&bases[i]), "StandardMissingPop") == 0);
		CHECK_EQ_INT(fg.notes_consistent + fg.no_marker + fg.other_mode, fg.games - fg.pinned);
		/* Every Chess960 line goes to stockfish with UCI_Chess960. */
		if (strcmp(short_name(&bases[i]), "Chess960NonStandard") == 0)
			CHECK_EQ_INT(fg.lines960, 4);
		CHECK_EQ_INT(fg.be_tiles, fg.blocks);
		CHECK_EQ_INT(fg.pos_eq_moves, 0);
		if (fg.blocks)
			CHECK(fg.le_tiles < fg.blocks);
		if (strcmp(short_name(&bases[i]), "test-annotations") == 0) {
			CHECK_EQ_INT(fg.move_nag_at_0, 4);
			CHECK_EQ_INT(fg.games, 6);
		}
		if (strcmp(short_name(&bases[i]), "linares") == 0)
			CHECK(fg.with_two_byte > 0 && fg.seed_consistent < fg.games);
		seed_broken += fg.games - fg.pinned - fg.no_marker - fg.other_mode - fg.seed_consistent;
		op64 += fg.op64;
		op235 += fg.op235;
		op236 += fg.op236;
	}
	/*
	 * The opcodes the two texts number differently occur in these games, which decode
	 * legally (and replay in stockfish) under the notes' numbering: 64 (the seed's table
	 * has no 0x40; the notes: 2nd rook x+5), 235 (two-byte move; the seed: 0xEC = 236),
	 * 236 (padding; the seed: 0xED = 237).
	 */
	printf("opcodes read the notes' way: 64 x%zu, 235 x%zu, 236 x%zu; read the seed's way, "
	       "%zu records do not end at their stored length\n", op64, op235, op236, seed_broken);
	CHECK(op64 > 0 && op235 > 0 && op236 > 0 && seed_broken > 0);
	printf("ChessBase: %zu bases, %zu games, %zu failed, %zu pinned as unsupported\n", nbases,
	       total, failed, pinned);
	/* Every pinned game was met (a misspelt or stale entry pins nothing). */
	for (i = 0; i < NUNSUPPORTED; i++)
		CHECK_MSG(unsupported_met[i] == unsupported[i].last - unsupported[i].first + 1,
			  "unsupported[%zu] (%s, games %u-%u): %zu of its games met", i,
			  unsupported[i].base, unsupported[i].first, unsupported[i].last,
			  unsupported_met[i]);

	if (sf_cmds) {
		/* One stockfish run replays every line; "d" prints the FEN it reaches. */
		char cmd[1200], line[4096];
		FILE *p;
		size_t k = 0, same = 0;
		fprintf(sf_cmds, "quit\n");
		fclose(sf_cmds);
		snprintf(cmd, sizeof cmd, "%s < %s 2>/dev/null", sf, cmdpath);
		p = popen(cmd, "r");
		while (p && fgets(line, sizeof line, p)) {
			char *nl;
			if (strncmp(line, "Fen: ", 5) != 0)
				continue;
			if ((nl = strchr(line, '\n')) != NULL)
				*nl = 0;
			if (k < sf_n) {
				/* Board, side, castling must agree; the en-passant field may differ in
				 * its convention, so it and the clocks are compared apart from it. */
				char a[160], bq[160];
				snprintf(a, sizeof a, "%.150s", line + 5);
				snprintf(bq, sizeof bq, "%s", sf_expect[k]);
				{
					char *ta[6] = { 0 }, *tb[6] = { 0 }, *sa, *sb;
					int f;
					ta[0] = strtok_r(a, " ", &sa);
					for (f = 1; f < 6; f++)
						ta[f] = strtok_r(NULL, " ", &sa);
					tb[0] = strtok_r(bq, " ", &sb);
					for (f = 1; f < 6; f++)
						tb[f] = strtok_r(NULL, " ", &sb);
					if (ta[5] && tb[5] && !strcmp(ta[0], tb[0]) && !strcmp(ta[1], tb[1]) &&
					    !strcmp(ta[2], tb[2]) && !strcmp(ta[4], tb[4]) &&
					    !strcmp(ta[5], tb[5]))
						same++;
					else
						fprintf(stderr, "stockfish %s\n     ours %s\n", line + 5,
							sf_expect[k]);
				}
			}
			k++;
		}
		if (p)
			pclose(p);
		unlink(cmdpath);
		printf("stockfish replayed %zu lines: %zu end in the same position\n", k, same);
		CHECK_EQ_INT(k, sf_n);
		CHECK_EQ_INT(same, sf_n);
		for (k = 0; k < sf_n; k++)
			free(sf_expect[k]);
		free(sf_expect);
	} else {
		printf("stockfish not found: no independent replay\n");
	}
}

/* ---- hostile copies of the real bases -------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Decodes every game of b with its .cbg/.cba replaced by the given bytes; no crash allowed. */
static size_t decode_all(const struct base *b, const uint8_t *cbg, size_t ncbg, const uint8_t *cba,
			 size_t ncba)
{
	struct env e;
	size_t i, nrec = b->cbh.n / 46, bad = 0;

	env_open(&e, cbg, ncbg, b->cba.p ? cba : NULL, ncba, "CP1252");
	for (i = 1; i < nrec; i++) {
		const uint8_t *r = b->cbh.p + i * 46;
		int32_t st;
		if (!(r[0] & 1) || (r[0] & 2))
			continue;
		st = env_decode(&e, be(r + 1, 4), be(r + 5, 4), i);
		if (st == GAMEDB_FAILED) {
			bad++;
			/* A failure always says where. */
			CHECK_MSG(strstr(e.g.errmsg, "offset ") != NULL, "%s", e.g.errmsg);
		}
	}
	env_close(&e);
	return bad;
}

static void test_hostile(void)
{
	size_t i, k;

	for (i = 0; i < nbases; i++) {
		const struct base *b = &bases[i];
		uint8_t *cbg = malloc(b->cbg.n + 1), *cba = malloc(b->cba.n + 1);
		size_t failed = 0;
		for (k = 1; k <= 64; k++) {
			/* Truncated: both files cut at the same fraction. */
			const size_t ng = b->cbg.n * k / 65, na = b->cba.n * k / 65;
			memcpy(cbg, b->cbg.p, ng);
			memcpy(cba, b->cba.p, na);
			failed += decode_all(b, cbg, ng, cba, na);
		}
		for (k = 0; k < 64; k++) {
			/* One byte flipped in each file (random position, random bits). */
			memcpy(cbg, b->cbg.p, b->cbg.n);
			memcpy(cba, b->cba.p, b->cba.n);
			if (b->cbg.n)
				cbg[rng() % b->cbg.n] ^= (uint8_t)(1 + rng() % 255);
			if (b->cba.n)
				cba[rng() % b->cba.n] ^= (uint8_t)(1 + rng() % 255);
			failed += decode_all(b, cbg, b->cbg.n, cba, b->cba.n);
		}
		printf("hostile %-16s 128 damaged copies: %zu game decodes failed cleanly\n",
		       short_name(b), failed);
		free(cbg);
		free(cba);
	}
}

/* ---- the other encoding modes (1-7, 11) ------------------------------------------------ */

/* A value as mode stores it after n moves (the inverse of cb_opcode() in cbh-moves.c). */
static uint8_t enc_mode(int mode, unsigned v, unsigned n)
{
	const uint8_t *t = cbk_tables[mode];
	int i;

	for (i = 0; i < 256; i++) {
		if (mode <= 3 ? t[i] == (v & 255) : t[i] == ((v + n) & 255))
			return mode <= 3 ? (uint8_t)(i + n) : (uint8_t)i;
	}
	return 0;
}

/* A two-byte-mode move: from/to in ChessBase numbering, flags 0x8000 / 0x4000. */
static void put_simple(struct rec *r, int mode, int from, int to, unsigned flags)
{
	const unsigned v = flags | ((mode & 2) ? (unsigned)to | (unsigned)from << 6
					       : (unsigned)from | (unsigned)to << 6);
	r->b[r->n++] = enc_mode(mode, v >> 8, r->moves);
	r->b[r->n++] = enc_mode(mode, v & 255, r->moves);
	r->moves++;
}

static void put_op_mode(struct rec *r, int mode, int op)
{
	r->b[r->n++] = enc_mode(mode, (unsigned)op, r->moves);
	if (op < 235)
		r->moves++;
}

static void test_other_modes(void)
{
	struct rec g;
	size_t at;
	int32_t st;
	int mode, i;
	char out[512], err[512];

	/* Mode 0's table is the one this test keeps (the notes'), and every table a permutation. */
	CHECK(memcmp(cbk_tables[0], T, 256) == 0);
	for (mode = 0; mode < 12; mode++) {
		unsigned char seen[256] = { 0 };
		int distinct = 0;
		if (!cbk_tables[mode])
			continue;
		for (i = 0; i < 256; i++)
			distinct += !seen[cbk_tables[mode][i]]++;
		CHECK_EQ_INT(distinct, 256);
	}

	/*
	 * Two-byte modes 1, 3, 5, 7: 1.e4 with an alternative after its line (bit 15), 1...e5
	 * ending that line (bit 14), then the alternative 1.d4 ending the game's line.
	 */
	for (mode = 1; mode <= 7; mode += 2) {
		rec_start(&g);
		at = game_begin(&g, mode);
		put_simple(&g, mode, cm("e2"), cm("e4"), 0x8000);
		put_simple(&g, mode, cm("e7"), cm("e5"), 0x4000);
		put_simple(&g, mode, cm("d2"), cm("d4"), 0x4000);
		game_end(&g, at);
		st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
		CHECK_MSG(st == GAMEDB_OK, "mode %d: %d %s", mode, (int)st, err);
		CHECK_MSG(strcmp(out, "e4 ( d4 ) e5") == 0, "mode %d: %s", mode, out);
		/* Without the last line end: read to the stored length, with a warning. */
		g.n -= 2;
		g.moves--;
		put_simple(&g, mode, cm("d2"), cm("d4"), 0);
		game_end(&g, at);
		st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
		CHECK_MSG(st == GAMEDB_WARN && strstr(err, "no final marker"), "mode %d: %s", mode,
			  err);
		/* An illegal move fails naming its offset (the third move, at 26 + 4 + 4). */
		g.n -= 2;
		g.moves--;
		put_simple(&g, mode, cm("d2"), cm("d5"), 0x4000);
		game_end(&g, at);
		st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
		CHECK_MSG(st == GAMEDB_FAILED && strstr(err, "t.cbg: offset 34: game 1: move 1.: "
							 "illegal move"), "mode %d: %s", mode, err);
		/* A promotion (bits 12-13: 3 = knight) and a null move (a1 to a1). */
		rec_start(&g);
		at = game_begin(&g, 0x40 | mode);
		put_setup(&g, "7k/P7/8/8/8/8/8/K7", 0, 0, 1);
		put_simple(&g, mode, cm("a7"), cm("a8"), 3u << 12);
		put_simple(&g, mode, 0, 0, 0x4000);
		game_end(&g, at);
		st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
		CHECK_MSG(st == GAMEDB_OK && strcmp(out, "a8=N --") == 0, "mode %d: %d %s %s", mode,
			  (int)st, out, err);
	}

	/*
	 * One-byte modes 4 and 6 (values through the table, n subtracted after it): pawn 3 is
	 * the d-pawn when the men are numbered from a1 (mode 4), the e-pawn from h8 (mode 6).
	 */
	for (mode = 4; mode <= 6; mode += 2) {
		rec_start(&g);
		at = game_begin(&g, mode);
		put_op_mode(&g, mode, PW(3, 1));
		put_op_mode(&g, mode, PW(3, 1));
		put_op_mode(&g, mode, 255);
		game_end(&g, at);
		st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
		CHECK_MSG(st == GAMEDB_OK, "mode %d: %s", mode, err);
		CHECK_EQ_STR(out, mode == 4 ? "d4 d5" : "e4 e5");
	}
	/* Mode 2 (n before the table, numbered from h8). */
	rec_start(&g);
	at = game_begin(&g, 2);
	put_op_mode(&g, 2, PW(3, 1));
	put_op_mode(&g, 2, 255);
	game_end(&g, at);
	st = run(&g, NULL, out, sizeof out, err, sizeof err, -1);
	CHECK_MSG(st == GAMEDB_OK && strcmp(out, "e4") == 0, "mode 2: %s %s", out, err);
}

int main(void)
{
	int i;

	for (i = 0; i < 256; i++)
		Tinv[T[i]] = (uint8_t)i;
	test_slots_and_moves();
	test_other_modes();
	test_tree_and_annotations();
	test_real();
	test_hostile();
	for (i = 0; i < (int)nbases; i++) {
		free(bases[i].cbh.p);
		free(bases[i].cbg.p);
		free(bases[i].cba.p);
	}
	return testlib_done();
}
