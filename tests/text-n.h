/*
 * libgamedb tests - what gamedb_event_get_text_n() promises, for any event of any game:
 * the very pointer gamedb_event_get_text() gives, and the length strlen() finds there (0 with
 * no text). The tests that walk every event of real, test and damaged bases ask it of each.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GAMEDB_TESTS_TEXT_N_H
#define GAMEDB_TESTS_TEXT_N_H

#include <string.h>

#include <gamedb/gamedb.h>

/* 1 when gamedb_event_get_text_n() agrees with gamedb_event_get_text() and strlen(). */
static inline int text_n_agrees(const struct gamedb_event *ev)
{
	size_t n = 12345;
	const char *t = gamedb_event_get_text_n(ev, &n);

	if (t != gamedb_event_get_text(ev) || n != (t ? strlen(t) : 0))
		return 0;
	return gamedb_event_get_text_n(ev, NULL) == t; /* the length may be left out */
}

#endif
