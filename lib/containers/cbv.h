/*
 * libgamedb - the ChessBase archive unpackers of the containers cbv and cbz
 * (lib/containers/cbv.c), for the fuzz target and the tests; the reader reaches them through
 * the container registry only (containers/container.h). Private.
 * The layout is in doc/formats/cbv.md.
 */
#ifndef GAMEDB_CONTAINERS_CBV_H
#define GAMEDB_CONTAINERS_CBV_H

#include <stddef.h>
#include <stdint.h>

#include "io/io.h"

struct gamedb_reader;

/*
 * Unpacks a CBV held in memory (data, size; name for messages) into *out. GAMEDB_OK, or
 * GAMEDB_FATAL with the reader's error set.
 */
int32_t gamedb__cbv_unpack(struct gamedb_reader *r, const char *name, const uint8_t *data,
			   size_t size, struct gamedb__archive **out);

/*
 * Deciphers an encrypted archive (.cbz) held in memory with password and unpacks the CBV it
 * holds, as gamedb__cbv_unpack(). GAMEDB_FATAL with GAMEDB_E_UNSUPPORTED without a password,
 * GAMEDB_E_INVALID_ARGUMENT when the password does not open it.
 */
int32_t gamedb__cbz_unpack(struct gamedb_reader *r, const char *name, const uint8_t *data,
			   size_t size, const char *password, struct gamedb__archive **out);

#endif /* GAMEDB_CONTAINERS_CBV_H */
