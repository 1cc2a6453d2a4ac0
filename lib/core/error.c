/*
 * libgamedb - the reader's error (core/error.h): the one setter every layer above I/O calls,
 * apart from the reader (lib/core/reader.c) so that calling it brings in nothing else.
 */
#include <stdio.h>

#include "core/error.h"
#include "core/reader.h"

int32_t gamedb__error(struct gamedb_reader *r, int32_t status, int32_t code, const char *fmt, ...)
{
	va_list ap;

	if (!r)
		return status;
	/*
	 * An E_IO error keeps the errno the I/O layer recorded just before it: a format that
	 * words the failure again ("cannot read the file") still has the OS's cause behind it.
	 */
	if (code != GAMEDB_E_IO)
		r->os_error = 0;
	r->errcode = code;
	va_start(ap, fmt);
	vsnprintf(r->errmsg, sizeof r->errmsg, fmt, ap);
	va_end(ap);
	if (status == GAMEDB_FATAL && r->state == GAMEDB__RS_OPEN)
		r->state = GAMEDB__RS_FATAL;
	return status;
}

void gamedb__clear_error(struct gamedb_reader *r)
{
	r->errcode = GAMEDB_E_NONE;
	r->errmsg[0] = 0;
	r->os_error = 0;
}

int32_t gamedb__progress(struct gamedb_reader *r, int32_t unit, uint64_t done, uint64_t total)
{
	if (!r || !r->progress || r->progress(unit, done, total, r->progress_data) == 0)
		return 0;
	return gamedb__error(r, GAMEDB_FATAL, GAMEDB_E_CANCELLED,
			     "%s: cancelled by the progress callback",
			     r->src.primary ? r->src.primary : "the database");
}
