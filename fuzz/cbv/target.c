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

static const char *const names[] = { "fuzz.cbv" };
static const struct fuzz_target target = {
	.formats = FUZZ_FORMATS_NONE, .nnames = 1, .names = names,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
