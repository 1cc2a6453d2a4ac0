/*
 * libgamedb - fuzz target for the SCID 5 reader (si5/sn5/sg5; libFuzzer's
 * LLVMFuzzerTestOneInput).
 *
 * Input framing, as for fuzz/scid: two little-endian uint32 lengths A and B, then A bytes of
 * the index file, B bytes of the name log, and the rest is the game file (lengths larger than
 * what is left are clipped):
 *
 *   [A:le32][B:le32][fuzz.si5: A bytes][fuzz.sn5: B bytes][fuzz.sg5: the rest]
 *
 * The seeds (fuzz/scid5/corpus) were written in this framing from bases the real Scid 5 made
 * of the PGN in testdata (see fuzz/scid5/README.md). The base is opened from memory with every
 * format enabled; fuzz/fuzz-walk.h then walks and checks all of it.
 */
#include "../fuzz-walk.h"

static const char *const names[] = { "fuzz.si5", "fuzz.sn5", "fuzz.sg5" };
static const struct fuzz_target target = {
	.formats = FUZZ_FORMATS_ALL, .nlengths = 2, .nnames = 3, .names = names,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
