/*
 * libgamedb - the reader's error, as every layer above I/O sets it (lib/core/error.c): the
 * core, the formats, the containers and the writers. Small on purpose: a container or a
 * format that needs nothing else of the core includes this, not core/reader.h. Never installed.
 */
#ifndef GAMEDB_CORE_ERROR_H
#define GAMEDB_CORE_ERROR_H

#include <stdint.h>

#include "gamedb/gamedb.h"
#include "util/buf.h"

struct gamedb_reader;

/*
 * Sets the reader's error (detail code and message) and returns status, so that a format can
 * write `return gamedb__error(r, GAMEDB_FAILED, GAMEDB_E_CORRUPT, "...")`. A FATAL status on
 * an open reader makes it unusable but for gamedb_reader_free(). r NULL: returns status only.
 */
int32_t gamedb__error(struct gamedb_reader *r, int32_t status, int32_t code, const char *fmt, ...)
	GAMEDB__PRINTF(4, 5);
/*
 * Reports progress to the reader's callback (gamedb_reader_set_progress(); none: nothing is
 * called): unit, done and total as gamedb_progress_fn() has them. 0 to go on; GAMEDB_FATAL when
 * the callback asked to stop, with the reader's error set (GAMEDB_E_CANCELLED, naming the
 * database), which the caller returns. A caller reports once per GAMEDB_PROGRESS_*_STEP of its
 * work (a counter compared, so the work costs the same without a callback) and at its end.
 */
int32_t gamedb__progress(struct gamedb_reader *r, int32_t unit, uint64_t done, uint64_t total);
/* Forgets the reader's error (code GAMEDB_E_NONE, empty message). */
void gamedb__clear_error(struct gamedb_reader *r);

#endif /* GAMEDB_CORE_ERROR_H */
