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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[5] = { "fuzz.si4", "fuzz.sn4", "fuzz.sg4", "fuzz.sn3",
					      "fuzz.sg3" };
	const void *files[5];
	size_t sizes[5], left, a, b;
	struct gamedb_reader *r;

	if (size > FUZZ_MAX_INPUT || size < 8)
		return 0;
	left = size - 8;
	a = fuzz_le32(data);
	b = fuzz_le32(data + 4);
	if (a > left)
		a = left;
	if (b > left - a)
		b = left - a;
	files[0] = data + 8;
	sizes[0] = a;
	files[1] = files[3] = data + 8 + a;
	sizes[1] = sizes[3] = b;
	files[2] = files[4] = data + 8 + a + b;
	sizes[2] = sizes[4] = left - a - b;

	r = gamedb_reader_new();
	if (!r)
		return 0;
	REQUIRE(gamedb_reader_support_format_all(r) == GAMEDB_OK);
	(void)fuzz_walk_reader(r, gamedb_reader_open_memory_set(r, names, files, sizes, 5));
	gamedb_reader_free(r);
	return 0;
}
