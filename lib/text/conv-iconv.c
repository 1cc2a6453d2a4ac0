/*
 * libgamedb - the text layer's converter backend on iconv (glibc's, or GNU libiconv found by
 * meson's iconv dependency). See conv.h.
 */
#include <iconv.h>

#include "text/conv.h"

void *gamedb__conv_open(const char *charset)
{
	iconv_t cd = iconv_open("UTF-8", charset);

	return cd == (iconv_t)-1 ? NULL : (void *)cd;
}

void gamedb__conv_close(void *cd)
{
	iconv_close((iconv_t)cd);
}

size_t gamedb__conv(void *cd, char **ip, size_t *il, char **op, size_t *ol)
{
	return iconv((iconv_t)cd, ip, il, op, ol);
}
