/*
 * libgamedb - fuzz target for the ChessBase archive reader (lib/formats/archive.c), libFuzzer's
 * LLVMFuzzerTestOneInput.
 *
 * Input: one .cbv archive as it is, opened from memory (the archive is found by its content,
 * unpacked in memory, and the base inside opened as ChessBase); fuzz/fuzz-walk.h then walks
 * and checks all of the base. Mutations reach the header, the member list, the block
 * framing, the Huffman tables and codes and the LZ items. Seeds: fuzz/cbv/corpus, written by
 * fuzz/cbv/make-corpus.py from the hand-made bases of fuzz/chessbase/make-corpus.py.
 */
#include "../fuzz-walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gamedb_reader *r;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	r = gamedb_reader_new();
	if (!r)
		return 0;
	(void)fuzz_walk_reader(r, gamedb_reader_open_memory(r, "fuzz.cbv", data, size));
	gamedb_reader_free(r);
	return 0;
}
