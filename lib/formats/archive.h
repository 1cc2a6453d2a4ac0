/*
 * libgamedb - archives that hold a whole base (ChessBase .cbv; .cbz, a .cbv encrypted),
 * unpacked in memory into a memory set of the source (struct gamedb__archive, io/io.h), so
 * that the formats read the base inside like any other. Private.
 * The layout is in doc/formats/cbv.md.
 */
#ifndef GAMEDB_FORMATS_ARCHIVE_H
#define GAMEDB_FORMATS_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "io/io.h"

struct gamedb_reader;
struct gamedb__src;

/*
 * If the source's primary file is an archive (by its content: the CBV header; an encrypted
 * .cbz by its name, or by its first block deciphered with password, which may be NULL),
 * unpacks it and turns the source into a memory set of its members whose primary file is the
 * base's index inside. GAMEDB_OK when it was no archive (nothing changed) or was unpacked;
 * GAMEDB_FATAL with the reader's error set (naming the archive, the member and the offset)
 * when it is damaged, too large, or encrypted without the password that opens it.
 */
int32_t gamedb__archive_open(struct gamedb_reader *r, struct gamedb__src *src,
			     const char *password);

/*
 * Opens src (new) on the archive another source, from, has unpacked (from->archive set): src
 * becomes a memory set of the same members, their bytes shared, not copied, with from's
 * primary file; GAMEDB_FATAL (error set) without memory. The archive is counted as held once
 * more: each of the two sources lets go of it with gamedb__archive_release(), in either order,
 * from any thread. from's reader may be in use in another thread meanwhile: only what its open
 * set is read.
 */
int32_t gamedb__archive_share(struct gamedb_reader *r, struct gamedb__src *src,
			      const struct gamedb__src *from);

/*
 * Lets go of an archive a source held (src->archive; NULL: nothing); the last holder frees it.
 * The reader calls it, and sets src->archive to NULL, before gamedb__src_close(), which would
 * free it whoever else holds it.
 */
void gamedb__archive_release(struct gamedb__archive *a);

/*
 * Unpacks a CBV held in memory (data, size; name for messages) into *out. GAMEDB_OK, or
 * GAMEDB_FATAL with the reader's error set. For the fuzz target and the tests as well.
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

#endif /* GAMEDB_FORMATS_ARCHIVE_H */
