/*
 * libgamedb - small shared helpers of the core: comment languages, status strings, version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"

static const struct {
	unsigned code;
	const char *iso;
} languages[] = {
	{ GAMEDB__LANG_ENGLISH, "en" }, { GAMEDB__LANG_GERMAN, "de" },
	{ GAMEDB__LANG_FRENCH, "fr" },  { GAMEDB__LANG_SPANISH, "es" },
	{ GAMEDB__LANG_ITALIAN, "it" }, { GAMEDB__LANG_DUTCH, "nl" },
	{ GAMEDB__LANG_POLISH, "pl" },  { GAMEDB__LANG_PORTUGUESE, "pt" },
};

const char *gamedb__language_iso(unsigned code)
{
	size_t i;

	for (i = 0; i < sizeof languages / sizeof languages[0]; i++)
		if (languages[i].code == code)
			return languages[i].iso;
	return "";
}

int gamedb__language_code(const char *iso)
{
	size_t i;

	if (!iso || !iso[0] || !iso[1] || iso[2])
		return -1;
	for (i = 0; i < sizeof languages / sizeof languages[0]; i++)
		if ((iso[0] | 0x20) == languages[i].iso[0] && (iso[1] | 0x20) == languages[i].iso[1])
			return (int)languages[i].code;
	return -1;
}

GAMEDB_EXPORT const char *gamedb_strerror(int32_t code)
{
	switch (code) {
	case GAMEDB_OK: return "success";
	case GAMEDB_WARN: return "warning: delivered with loss";
	case GAMEDB_FAILED: return "failed: this item is unreadable";
	case GAMEDB_FATAL: return "fatal: the handle is unusable";
	case GAMEDB_E_NOMEM: return "out of memory";
	case GAMEDB_E_IO: return "input/output error";
	case GAMEDB_E_UNRECOGNIZED_FORMAT: return "unrecognized database format";
	case GAMEDB_E_CORRUPT: return "corrupt data";
	case GAMEDB_E_UNSUPPORTED_VERSION: return "unsupported format version";
	case GAMEDB_E_ENCODING: return "text encoding error";
	case GAMEDB_E_MISUSE: return "library misuse";
	case GAMEDB_E_RANGE: return "out of range";
	case GAMEDB_E_STRUCT_SIZE: return "unsupported struct size";
	case GAMEDB_E_UNSUPPORTED: return "operation not supported";
	case GAMEDB_E_ILLEGAL_MOVE: return "illegal move";
	case GAMEDB_E_INVALID_ARGUMENT: return "invalid argument";
	case GAMEDB_E_UNKNOWN_OPTION: return "unknown option";
	case GAMEDB_E_CANCELLED: return "cancelled";
	default: return "unknown code";
	}
}

GAMEDB_EXPORT int32_t gamedb_version_number(void)
{
	return GAMEDB_VERSION_NUMBER;
}

GAMEDB_EXPORT const char *gamedb_version_string(void)
{
	return GAMEDB_VERSION_STRING;
}
