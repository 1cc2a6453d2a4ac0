/*
 * libgamedb - fuzz target for the style 12 reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input: a session log as it is, opened from memory with only the style12 format enabled, so
 * that every mutation of a <12> line (fields, squares, moves, clocks), of the {Game ...} and
 * Creating: lines and of the junk between them reaches the line parser and the game rebuilder;
 * fuzz/fuzz-walk.h then walks and checks every game handed out. Seeds: fuzz/style12/corpus,
 * small logs written by hand for this target (see its README.md).
 */
#include "../fuzz-walk.h"

/* A log is a stream: no count, no seeking, and it can be opened whatever it holds. */
static void check(struct gamedb_reader *r, int32_t open_rc, struct fuzz_walk w)
{
	REQUIRE(open_rc == GAMEDB_FATAL || (w.end == GAMEDB_END &&
					    !(gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK)));
}

static const char *const names[] = { "fuzz.log" };
static const struct fuzz_target target = {
	.formats = FUZZ_FORMAT_BIDS, .format = "style12", .nnames = 1, .names = names,
	.check = check,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
