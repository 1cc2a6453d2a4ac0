/*
 * libgamedb - fuzz target for the ChessBase archive reader (lib/containers/cbv.c), libFuzzer's
 * LLVMFuzzerTestOneInput.
 *
 * Input: one .cbv archive as it is, opened from memory (the archive is found by its content,
 * unpacked in memory, and the base inside opened as ChessBase); fuzz/fuzz-walk.h then walks
 * and checks all of the base, and a reader opened on it shares it (check()). Mutations reach
 * the header, the member list, the block framing, the Huffman tables and codes and the LZ
 * items. Seeds: fuzz/cbv/corpus, written by fuzz/cbv/make-corpus.py from the hand-made bases
 * of fuzz/chessbase/make-corpus.py.
 */
#include "../fuzz-walk.h"

/*
 * A reader opened on the walked one with gamedb_reader_open_shared() (as each worker of gamedb
 * --jobs is) shares its unpacked archive: it opens exactly when the walked one did, on the
 * same format and game count (a stream, style 12 by the content, has none); freed first, it leaves the walked one's archive whole (ASan sees
 * a release that frees it).
 */
static void check(struct gamedb_reader *r, int32_t open_rc, struct fuzz_walk w)
{
	struct gamedb_reader *s = gamedb_reader_new();
	uint64_t n = UINT64_MAX;
	int32_t rc;

	if (!s)
		return;
	rc = gamedb_reader_open_shared(s, r);
	if (open_rc == GAMEDB_FATAL) {
		REQUIRE(rc == GAMEDB_FATAL && gamedb_reader_errcode(s) == GAMEDB_E_INVALID_ARGUMENT);
	} else {
		REQUIRE(rc == GAMEDB_OK || rc == GAMEDB_WARN);
		REQUIRE(fuzz_same(gamedb_reader_format(s), gamedb_reader_format(r)));
		REQUIRE(!(gamedb_reader_capabilities(r) & GAMEDB_CAP_COUNT) ||
			(gamedb_reader_game_count(s, &n) == GAMEDB_OK && n == w.count));
	}
	gamedb_reader_free(s);
}

static const char *const names[] = { "fuzz.cbv" };
static const struct fuzz_target target = {
	.formats = FUZZ_FORMATS_NONE, .nnames = 1, .names = names, .check = check,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
