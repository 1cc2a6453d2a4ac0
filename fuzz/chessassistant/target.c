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

#define NFILES 5

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[NFILES] = { "fuzz.cdp", "fuzz.emb", "fuzz.d00", "fuzz.a02",
						   "fuzz.d02" };
	const void *files[NFILES];
	size_t sizes[NFILES], left, pos = 16;
	struct gamedb_reader *r;
	int k;

	if (size > FUZZ_MAX_INPUT || size < 16)
		return 0;
	left = size - 16;
	for (k = 0; k < NFILES - 1; k++) {
		size_t n = fuzz_le32(data + 4 * k);
		if (n > left)
			n = left;
		files[k] = data + pos;
		sizes[k] = n;
		pos += n;
		left -= n;
	}
	files[NFILES - 1] = data + pos;
	sizes[NFILES - 1] = left;

	r = gamedb_reader_new();
	if (!r)
		return 0;
	REQUIRE(gamedb_reader_set_format(r, "chessassistant") == GAMEDB_OK);
	(void)fuzz_walk_reader(r, gamedb_reader_open_memory_set(r, names, files, sizes, NFILES));
	gamedb_reader_free(r);
	return 0;
}
