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

#define NFILES 9

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[NFILES] = { "fuzz.cbh", "fuzz.cbg", "fuzz.cba",
						   "fuzz.cbp", "fuzz.cbt", "fuzz.cbc",
						   "fuzz.cbs", "fuzz.cbe", "fuzz.cbj" };
	const void *files[NFILES];
	size_t sizes[NFILES], left, pos = 32;
	struct gamedb_reader *r;
	int k;

	if (size > FUZZ_MAX_INPUT || size < 32)
		return 0;
	left = size - 32;
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
	REQUIRE(gamedb_reader_set_format(r, "chessbase") == GAMEDB_OK);
	(void)fuzz_walk_reader(r, gamedb_reader_open_memory_set(r, names, files, sizes, NFILES));
	gamedb_reader_free(r);
	return 0;
}
