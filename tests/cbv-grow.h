/*
 * libgamedb - a real ChessBase archive made larger, for the tests that need a .cbv of many
 * MiB (progress reports while it unpacks, the memory of --jobs): the archive's header and
 * entries as they are, one entry more ("padding.bin"), the members' data as it was, then room
 * for the new member's blocks, which the caller writes (stored or LZ, doc/formats/cbv.md).
 */
#ifndef GAMEDB_TESTS_CBV_GROW_H
#define GAMEDB_TESTS_CBV_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * data/size: a real .cbv. packed/unpacked: the new member's sizes as its entry states them;
 * room: the bytes of its blocks. Returns a malloc'd archive with *body pointing where the
 * blocks go (room bytes to fill; the archive ends there), or NULL when out of memory or
 * data is not an archive of fewer than 64 entries of at least 140 bytes.
 */
static uint8_t *cbv_grow(const uint8_t *data, size_t size, uint32_t packed, uint32_t unpacked,
			 size_t room, uint8_t **body)
{
	size_t count, esize, i;
	uint8_t *big, *p;

	if (size < 8)
		return NULL;
	count = (size_t)(data[2] | data[3] << 8);
	esize = data[4];
	if (count >= 64 || esize < 140 || 8 + count * esize >= size)
		return NULL;
	big = malloc(size + esize + room);
	if (!big)
		return NULL;
	memcpy(big, data, 8);
	big[2] = (uint8_t)(count + 1);
	big[3] = (uint8_t)((count + 1) >> 8);
	memcpy(big + 8, data + 8, count * esize);
	p = big + 8 + count * esize;
	/* The new member's entry: its name, then the packed and unpacked sizes at 132 and 136. */
	memset(p, 0, esize);
	memcpy(p, "padding.bin", 11);
	for (i = 0; i < 4; i++) {
		p[132 + i] = (uint8_t)(packed >> 8 * i);
		p[136 + i] = (uint8_t)(unpacked >> 8 * i);
	}
	p += esize;
	memcpy(p, data + 8 + count * esize, size - 8 - count * esize);
	*body = p + (size - 8 - count * esize);
	return big;
}

#endif /* GAMEDB_TESTS_CBV_GROW_H */
