/*
 * libgamedb - fuzz target for the ChessBase reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input framing (our own): eight little-endian uint32 lengths, then the files of a base in this
 * order, each clipped to what is left; whatever follows is the .cbj:
 *
 *   [8 x le32: cbh cbg cba cbp cbt cbc cbs cbe][cbh][cbg][cba][cbp][cbt][cbc][cbs][cbe][cbj]
 *
 * fuzz/chessbase/make-corpus.py writes seeds in this framing. The base is opened from memory
 * as ChessBase; fuzz/fuzz-walk.h then walks and checks all of it, the ChessBase fields, guiding
 * texts and options included.
 */
#include "../fuzz-walk.h"

static const char *const names[] = { "fuzz.cbh", "fuzz.cbg", "fuzz.cba", "fuzz.cbp", "fuzz.cbt",
				      "fuzz.cbc", "fuzz.cbs", "fuzz.cbe", "fuzz.cbj" };
static const struct fuzz_target target = {
	.formats = FUZZ_FORMAT_FORCED, .format = "chessbase",
	.nlengths = 8, .nnames = 9, .names = names,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
