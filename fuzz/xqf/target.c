/*
 * libgamedb - fuzz target for the XQF reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input: one XQF file as it is (an XQF game is a single file), opened from memory with only
 * the XQF format enabled, so that mutations of the header (version, key bytes, piece table)
 * and of the encrypted move tree all reach the reader; fuzz/fuzz-walk.h then walks and checks
 * the game in every notation xiangqi has. Seeds: fuzz/xqf/corpus (written by
 * tests/make-xqf-fixtures.py from the game trees there).
 */
#include "../fuzz-walk.h"

/* A file that opens is one xiangqi game, which can be read (and sought) again. */
static void check(struct gamedb_reader *r, int32_t open_rc, struct fuzz_walk w)
{
	REQUIRE(open_rc == GAMEDB_FATAL || (w.count == 1 && w.read == 1 && w.end == GAMEDB_END &&
					    (gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK) &&
					    (gamedb_reader_capabilities(r) & GAMEDB_CAP_XIANGQI)));
}

static const char *const names[] = { "fuzz.xqf" };
static const struct fuzz_target target = {
	.formats = FUZZ_FORMAT_BIDS, .format = "xqf", .nnames = 1, .names = names, .check = check,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
