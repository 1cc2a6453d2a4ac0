/*
 * libgamedb - compile test of the public header as C++ (extern "C", no C-only constructs).
 * It is also run, so that the calls below link with C linkage.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gamedb/gamedb.h>

#include <cstdio>
#include <cstring>

namespace {

int32_t sink(void *user_data, const char *data, size_t len)
{
	static_cast<void>(user_data);
	static_cast<void>(data);
	static_cast<void>(len);
	return 0;
}

int32_t convert(void *user_data, const char *charset, const char *in, size_t in_len, char *out,
		size_t out_cap, size_t *out_len)
{
	static_cast<void>(user_data);
	static_cast<void>(charset);
	static_cast<void>(in);
	static_cast<void>(in_len);
	static_cast<void>(out);
	static_cast<void>(out_cap);
	*out_len = 0;
	return GAMEDB_FAILED;
}

} // namespace

int main()
{
	gamedb_reader *r = gamedb_reader_new();
	gamedb_game *g = nullptr;
	gamedb_io io;
	gamedb_write_fn w = sink;
	gamedb_text_converter_fn conv = convert;
	int failed = 0;

	if (r == nullptr)
		return 1;
	if (gamedb_version_number() != GAMEDB_VERSION_NUMBER)
		failed = 1;
	if (std::strcmp(gamedb_version_string(), GAMEDB_VERSION_STRING) != 0)
		failed = 1;
	if (gamedb_io_init(&io, sizeof io) != GAMEDB_OK)
		failed = 1;
	if (gamedb_reader_set_converter(r, conv, nullptr) != GAMEDB_OK)
		failed = 1;
	if (gamedb_reader_next_game(r, &g) != GAMEDB_FATAL || g != nullptr)
		failed = 1;
	if (gamedb_game_write_json(g, 0, w, nullptr) == GAMEDB_OK)
		failed = 1;
	std::printf("%s\n", gamedb_strerror(GAMEDB_E_MISUSE));
	gamedb_reader_free(r);
	return failed;
}
