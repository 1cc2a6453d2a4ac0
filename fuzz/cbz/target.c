/*
 * libgamedb - fuzz target for the encrypted ChessBase archives (.cbz; lib/containers/cbv.c),
 * libFuzzer's LLVMFuzzerTestOneInput.
 *
 * Input: one .cbz as it is (a .cbv enciphered with DES under the key of the password
 * "password"), opened from memory with the reader option password set to "password": the
 * archive is found by its first block deciphered, deciphered as it is unpacked in memory (so a
 * damaged input costs only what was read before the damage), and the base inside opened as
 * ChessBase; fuzz/fuzz-walk.h then walks and checks all of the base.
 * Mutations garble whole 8-byte blocks of the archive (a wrong header, member list, block
 * framing, Huffman and LZ data) and cut it inside a block. Seeds: fuzz/cbz/corpus, written by
 * fuzz/cbz/make-corpus.py from fuzz/cbv's seeds.
 */
#include "../fuzz-walk.h"

static const char *const names[] = { "fuzz.cbz" };
static const struct fuzz_target target = {
	.formats = FUZZ_FORMATS_NONE, .nnames = 1, .names = names,
	.option = "password", .option_value = "password",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_run(&target, data, size);
}
