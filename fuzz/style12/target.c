/*
 * libgamedb - fuzz target for the style 12 reader (libFuzzer's LLVMFuzzerTestOneInput).
 *
 * Input: a session log as it is, opened from memory with only the style12 format enabled, so
 * that every mutation of a <12> line (fields, squares, moves, clocks), of the {Game ...} and
 * Creating: lines and of the junk between them reaches the line parser and the game rebuilder;
 * fuzz/fuzz-walk.h then walks and checks every game handed out. Seeds: fuzz/style12/corpus,
 * small logs written by hand for this target (see its README.md).
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
	REQUIRE(gamedb_reader_support_format(r, "style12") == GAMEDB_OK);
	rc = gamedb_reader_open_memory(r, "fuzz.log", data, size);
	w = fuzz_walk_reader(r, rc);
	/* A log is a stream: no count, no seeking, and it can be opened whatever it holds. */
	REQUIRE(rc == GAMEDB_FATAL || (w.end == GAMEDB_END &&
				       !(gamedb_reader_capabilities(r) & GAMEDB_CAP_SEEK)));
	gamedb_reader_free(r);
	return 0;
}
