/*
 * libgamedb - fuzz target for the Chess Assistant reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input framing (our own): four little-endian uint32 lengths, then the files of a base in this
 * order, each clipped to what is left; whatever follows is the .d02:
 *
 *   [4 x le32: cdp emb d00 a02][cdp][emb][d00][a02][d02]
 *
 * tests/make-chessassistant-fixtures.py writes seeds in this framing. The base is opened from
 * memory as Chess Assistant; fuzz/fuzz-walk.h then walks and checks all of it.
 */
#include "../fuzz-walk.h"

static const char *const names[] = { "fuzz.cdp", "fuzz.emb", "fuzz.d00", "fuzz.a02",
				      "fuzz.d02" };
static const struct fuzz_target target = {
	.formats = FUZZ_FORMAT_FORCED, .format = "chessassistant",
	.nlengths = 4, .nnames = 5, .names = names,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
