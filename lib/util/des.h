/*
 * libgamedb - the Data Encryption Standard (FIPS 46-3), one 64-bit block at a time, for the
 * encrypted ChessBase archives (.cbz, doc/formats/cbv.md). Written from the standard's
 * description (its permutations, S-boxes and key schedule). DES is no protection today: it is
 * here only because old files were made with it. Never installed.
 */
#ifndef GAMEDB_UTIL_DES_H
#define GAMEDB_UTIL_DES_H

#include <stddef.h>
#include <stdint.h>

/* A key made ready: the 16 round keys (48 bits each, in the six bits each S-box takes) and
 * the S-boxes joined with P. */
struct gamedb__des {
	uint8_t round[16][8];
	uint32_t sp[8][64];
};

/* Prepares key (8 bytes; the parity bits, the lowest of each byte, are ignored). */
void gamedb__des_init(struct gamedb__des *d, const uint8_t key[8]);

/*
 * Enciphers (decrypt 0) or deciphers (decrypt 1) one block, its 8 bytes read and written as
 * the standard numbers them (the first byte holds bits 1-8). in and out may be the same.
 */
void gamedb__des_block(const struct gamedb__des *d, const uint8_t in[8], uint8_t out[8],
		       int decrypt);

/* gamedb__des_block() on each of n blocks (8 n bytes) in turn; in and out may be the same. */
void gamedb__des_blocks(const struct gamedb__des *d, const uint8_t *in, uint8_t *out, size_t n,
			int decrypt);

#endif /* GAMEDB_UTIL_DES_H */
