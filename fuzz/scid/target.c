/*
 * libgamedb - fuzz target for the SCID reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input framing (our own, tiny): two little-endian uint32 lengths A and B, then A bytes of the
 * index file, B bytes of the name file, and the rest is the game file. Lengths larger than what
 * is left are clipped. The three files are offered under both the si4 and the si3 names, so
 * that either index version finds its siblings:
 *
 *   [A:le32][B:le32][index: A bytes][names: B bytes][games: the rest]
 *
 * fuzz/make-corpus.py writes seeds in this framing. The base is opened from memory with every
 * format enabled; fuzz/fuzz-walk.h then walks and checks all of it.
 */
#include "../fuzz-walk.h"

static const char *const names[] = { "fuzz.si4", "fuzz.sn4", "fuzz.sg4", "fuzz.sn3", "fuzz.sg3" };
static const unsigned char from[] = { 0, 1, 2, 1, 2 }; /* the si3 names share the si4 files */
static const struct fuzz_target target = {
	.formats = FUZZ_FORMATS_ALL, .nlengths = 2, .nnames = 5, .names = names, .from = from,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
