/*
 * libgamedb - fuzz target for the CCBridge reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input: one CCBridge file as it is, a library (.cbl) or a record (.cbr): the magic decides,
 * so one target reaches both, opened from memory with only the ccbridge format enabled;
 * mutations of the library's index (entry flags, slot counts, lengths, GUIDs), of the record
 * header (UTF-16 fields, board, side to move) and of the move stream all reach the reader.
 * fuzz/fuzz-walk.h then walks and checks every game in every notation xiangqi has. Seeds:
 * fuzz/ccbridge/corpus (written by tests/make-ccbridge-fixtures.py).
 */
#include "../fuzz-walk.h"

/* A file that opens is xiangqi, can be sought, and gives the games its count says. */
static void check(struct gamedb_reader *r, int32_t open_rc, struct fuzz_walk w)
{
	REQUIRE(open_rc == GAMEDB_FATAL || (w.read <= w.count && w.end == GAMEDB_END &&
					    (gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK) &&
					    (gamedb_reader_capabilities(r) & GAMEDB_CAP_XIANGQI)));
}

static const char *const names[] = { "fuzz.cbl" };
static const struct fuzz_target target = {
	.formats = FUZZ_FORMAT_BIDS, .format = "ccbridge", .nnames = 1, .names = names, .check = check,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
