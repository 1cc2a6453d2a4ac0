/*
 * libgamedb - the text layer's converter backend: one charset to UTF-8, with iconv's calling
 * convention (the text layer was written on iconv and keeps its error handling). Two
 * backends, chosen by meson: conv-iconv.c (iconv: glibc, GNU libiconv) and conv-win.c
 * (Windows code pages through MultiByteToWideChar, so that the DLL needs no iconv).
 * Private to lib/text.
 */
#ifndef GAMEDB_TEXT_CONV_H
#define GAMEDB_TEXT_CONV_H

#include <stddef.h>

/* A converter from charset to UTF-8, or NULL when the backend does not know the charset. */
void *gamedb__conv_open(const char *charset);
void gamedb__conv_close(void *cd);
/*
 * iconv(3)'s contract: converts from *ip (*il bytes) into *op (*ol bytes of room), moving
 * both on; ip NULL resets the state (and op non-NULL flushes a letter kept back into it).
 * Returns (size_t)-1 with errno EILSEQ (an invalid sequence at *ip), EINVAL (an incomplete
 * one at the end of the input) or E2BIG (out of room), else the count of irreversible
 * conversions.
 */
size_t gamedb__conv(void *cd, char **ip, size_t *il, char **op, size_t *ol);

#endif /* GAMEDB_TEXT_CONV_H */
