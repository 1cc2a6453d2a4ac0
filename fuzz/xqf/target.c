/*
 * libgamedb - fuzz target for the XQF reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input: one XQF file as it is (an XQF game is a single file), opened from memory with only
 * the XQF format enabled, so that mutations of the header (version, key bytes, piece table)
 * and of the encrypted move tree all reach the reader; fuzz/fuzz-walk.h then walks and checks
 * the game in every notation xiangqi has. Seeds: fuzz/xqf/corpus (written by
 * tests/make-xqf-fixtures.py from the game trees there).
 */
#include "../fuzz-walk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gamedb_reader *r;
	struct fuzz_walk w;
	int32_t rc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	r = gamedb_reader_new();
	if (!r)
		return 0;
	REQUIRE(gamedb_reader_support_format_xqf(r) == GAMEDB_OK);
	rc = gamedb_reader_open_memory(r, "fuzz.xqf", data, size);
	w = fuzz_walk_reader(r, rc);
	/* A file that opens is one xiangqi game, which can be read (and sought) again. */
	REQUIRE(rc == GAMEDB_FATAL || (w.count == 1 && w.read == 1 && w.end == GAMEDB_END &&
				       (gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK) &&
				       (gamedb_reader_capabilities(r) & GAMEDB_CAP_XIANGQI)));
	gamedb_reader_free(r);
	return 0;
}
