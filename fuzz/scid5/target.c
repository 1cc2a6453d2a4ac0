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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[3] = { "fuzz.si5", "fuzz.sn5", "fuzz.sg5" };
	const void *files[3];
	size_t sizes[3], left, a, b;
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
	files[1] = data + 8 + a;
	sizes[1] = b;
	files[2] = data + 8 + a + b;
	sizes[2] = left - a - b;

	r = gamedb_reader_new();
	if (!r)
		return 0;
	REQUIRE(gamedb_reader_support_format_all(r) == GAMEDB_OK);
	(void)fuzz_walk_reader(r, gamedb_reader_open_memory_set(r, names, files, sizes, 3));
	gamedb_reader_free(r);
	return 0;
}
