/*
 * libgamedb - byte readers: big- and little-endian numbers of 2 to 8 bytes at a
 * `const uint8_t *` (no bounds check; the caller has the bytes). Used by the formats (through
 * formats/toolkit.h) and the containers; depends on nothing. Private; never installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GAMEDB_UTIL_BYTES_H
#define GAMEDB_UTIL_BYTES_H

#include <stdint.h>

static inline uint32_t gamedb__be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static inline uint32_t gamedb__be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t gamedb__be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t gamedb__be64(const uint8_t *p)
{
	return (uint64_t)gamedb__be32(p) << 32 | gamedb__be32(p + 4);
}

static inline uint32_t gamedb__le16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint32_t gamedb__le24(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

static inline uint32_t gamedb__le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t gamedb__le64(const uint8_t *p)
{
	return (uint64_t)gamedb__le32(p + 4) << 32 | gamedb__le32(p);
}

#endif
