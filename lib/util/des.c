/*
 * libgamedb - DES (FIPS 46-3), see des.h. Bits are numbered as the standard numbers them: bit 1
 * is the most significant bit of a block's first byte. The key schedule holds the key in a
 * uint64_t with bit 1 as its most significant bit; tables list, for each output bit, the input
 * bit it is taken from. A block is not permuted bit by bit (64 steps for IP, 48 for each
 * round's expansion): IP and its inverse are a transpose of the block's 8 x 8 bits, and the
 * expansion is six bits of R turned into place for each S-box (gamedb__des_block()), 6 times
 * faster, what makes an encrypted archive cost little more than a plain one.
 */
#include "util/des.h"

/*
 * No coverage tracing in here under libFuzzer (clang's -fsanitize=fuzzer): no branch of DES
 * depends on the data (every loop runs a fixed count), so its comparisons guide the fuzzer
 * nowhere, and tracing those of the S-box lookups was most of the time of fuzz/cbz. ASan and
 * UBSan still check every access.
 */
#if defined(__clang__) && __clang_major__ >= 14
#define NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define NO_COVERAGE
#endif

/* The permutation P of the S-boxes' output. */
static const uint8_t perm[32] = {
	16, 7, 20, 21, 29, 12, 28, 17, 1,  15, 23, 26, 5,  18, 31, 10,
	2,  8, 24, 14, 32, 27, 3,  9,  19, 13, 30, 6,  22, 11, 4,  25,
};

/* Permuted choice 1 (64 key bits to 56) and 2 (56 to a 48-bit round key). */
static const uint8_t pc1[56] = {
	57, 49, 41, 33, 25, 17, 9,  1,  58, 50, 42, 34, 26, 18,
	10, 2,  59, 51, 43, 35, 27, 19, 11, 3,  60, 52, 44, 36,
	63, 55, 47, 39, 31, 23, 15, 7,  62, 54, 46, 38, 30, 22,
	14, 6,  61, 53, 45, 37, 29, 21, 13, 5,  28, 20, 12, 4,
};
static const uint8_t pc2[48] = {
	14, 17, 11, 24, 1,  5,  3,  28, 15, 6,  21, 10, 23, 19, 12, 4,
	26, 8,  16, 7,  27, 20, 13, 2,  41, 52, 31, 37, 47, 55, 30, 40,
	51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32,
};

/* Left rotations of the key halves before each round. */
static const uint8_t shifts[16] = { 1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1 };

/* The S-boxes: row (outer bits of the 6) times 16 plus column (inner 4 bits). */
static const uint8_t sbox[8][64] = {
	{ 14, 4,  13, 1,  2,  15, 11, 8,  3,  10, 6,  12, 5,  9,  0,  7,
	  0,  15, 7,  4,  14, 2,  13, 1,  10, 6,  12, 11, 9,  5,  3,  8,
	  4,  1,  14, 8,  13, 6,  2,  11, 15, 12, 9,  7,  3,  10, 5,  0,
	  15, 12, 8,  2,  4,  9,  1,  7,  5,  11, 3,  14, 10, 0,  6,  13 },
	{ 15, 1,  8,  14, 6,  11, 3,  4,  9,  7,  2,  13, 12, 0,  5,  10,
	  3,  13, 4,  7,  15, 2,  8,  14, 12, 0,  1,  10, 6,  9,  11, 5,
	  0,  14, 7,  11, 10, 4,  13, 1,  5,  8,  12, 6,  9,  3,  2,  15,
	  13, 8,  10, 1,  3,  15, 4,  2,  11, 6,  7,  12, 0,  5,  14, 9 },
	{ 10, 0,  9,  14, 6,  3,  15, 5,  1,  13, 12, 7,  11, 4,  2,  8,
	  13, 7,  0,  9,  3,  4,  6,  10, 2,  8,  5,  14, 12, 11, 15, 1,
	  13, 6,  4,  9,  8,  15, 3,  0,  11, 1,  2,  12, 5,  10, 14, 7,
	  1,  10, 13, 0,  6,  9,  8,  7,  4,  15, 14, 3,  11, 5,  2,  12 },
	{ 7,  13, 14, 3,  0,  6,  9,  10, 1,  2,  8,  5,  11, 12, 4,  15,
	  13, 8,  11, 5,  6,  15, 0,  3,  4,  7,  2,  12, 1,  10, 14, 9,
	  10, 6,  9,  0,  12, 11, 7,  13, 15, 1,  3,  14, 5,  2,  8,  4,
	  3,  15, 0,  6,  10, 1,  13, 8,  9,  4,  5,  11, 12, 7,  2,  14 },
	{ 2,  12, 4,  1,  7,  10, 11, 6,  8,  5,  3,  15, 13, 0,  14, 9,
	  14, 11, 2,  12, 4,  7,  13, 1,  5,  0,  15, 10, 3,  9,  8,  6,
	  4,  2,  1,  11, 10, 13, 7,  8,  15, 9,  12, 5,  6,  3,  0,  14,
	  11, 8,  12, 7,  1,  14, 2,  13, 6,  15, 0,  9,  10, 4,  5,  3 },
	{ 12, 1,  10, 15, 9,  2,  6,  8,  0,  13, 3,  4,  14, 7,  5,  11,
	  10, 15, 4,  2,  7,  12, 9,  5,  6,  1,  13, 14, 0,  11, 3,  8,
	  9,  14, 15, 5,  2,  8,  12, 3,  7,  0,  4,  10, 1,  13, 11, 6,
	  4,  3,  2,  12, 9,  5,  15, 10, 11, 14, 1,  7,  6,  0,  8,  13 },
	{ 4,  11, 2,  14, 15, 0,  8,  13, 3,  12, 9,  7,  5,  10, 6,  1,
	  13, 0,  11, 7,  4,  9,  1,  10, 14, 3,  5,  12, 2,  15, 8,  6,
	  1,  4,  11, 13, 12, 3,  7,  14, 10, 15, 6,  8,  0,  5,  9,  2,
	  6,  11, 13, 8,  1,  4,  10, 7,  9,  5,  0,  15, 14, 2,  3,  12 },
	{ 13, 2,  8,  4,  6,  15, 11, 1,  10, 9,  3,  14, 5,  0,  12, 7,
	  1,  15, 13, 8,  10, 3,  7,  4,  12, 5,  6,  11, 0,  14, 9,  2,
	  7,  11, 4,  1,  9,  12, 14, 2,  0,  6,  10, 13, 15, 3,  5,  8,
	  2,  1,  14, 7,  4,  10, 8,  13, 15, 12, 9,  0,  3,  5,  6,  11 },
};

/* The n bits table[] names, taken from the in_bits-bit value in (bit 1 its highest). */
NO_COVERAGE static uint64_t permute(uint64_t in, unsigned in_bits, const uint8_t *table,
				    unsigned n)
{
	uint64_t out = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		out = out << 1 | ((in >> (in_bits - table[i])) & 1);
	return out;
}

NO_COVERAGE static uint32_t rotl28(uint32_t v, unsigned n)
{
	return ((v << n) | (v >> (28 - n))) & 0x0FFFFFFFu;
}

NO_COVERAGE void gamedb__des_init(struct gamedb__des *d, const uint8_t key[8])
{
	uint64_t k = 0, cd;
	uint32_t c, dd;
	uint8_t to[33]; /* to[q]: the output bit of P that takes its input bit q */
	unsigned i, j, b;

	for (i = 0; i < 8; i++)
		k = k << 8 | key[i];
	cd = permute(k, 64, pc1, 56);
	c = (uint32_t)(cd >> 28);
	dd = (uint32_t)(cd & 0x0FFFFFFFu);
	for (i = 0; i < 16; i++) {
		uint64_t rk;
		c = rotl28(c, shifts[i]);
		dd = rotl28(dd, shifts[i]);
		rk = permute((uint64_t)c << 28 | dd, 56, pc2, 48);
		/* The six bits of the round key that meet S-box j's input, highest first. */
		for (j = 0; j < 8; j++)
			d->round[i][j] = (uint8_t)(rk >> (42 - 6 * j) & 63);
	}
	/*
	 * S-box j turns 6 bits into the 4 output bits 4j+1..4j+4 of 32; P then moves each bit on
	 * its own, so S and P together are a table per S-box, XORed over the eight.
	 */
	for (i = 0; i < 32; i++)
		to[perm[i]] = (uint8_t)(i + 1);
	for (j = 0; j < 8; j++) {
		for (i = 0; i < 64; i++) {
			const unsigned row = (i >> 4 & 2) | (i & 1), col = i >> 1 & 15;
			const unsigned s = sbox[j][row * 16 + col];
			uint32_t v = 0;
			for (b = 0; b < 4; b++)
				v |= (uint32_t)(s >> (3 - b) & 1) << (32 - to[4 * j + 1 + b]);
			d->sp[j][i] = v;
		}
	}
}

/*
 * Transposes the 8 x 8 bits of x, its bytes the rows (the highest first) and in each the bits
 * the columns (the highest first): bit (row i, column j) moves to (row j, column i). Three
 * exchanges, of single bits, then 2 x 2 and 4 x 4 squares across the diagonal.
 */
NO_COVERAGE static uint64_t transpose8(uint64_t x)
{
	uint64_t t;

	t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAu;
	x ^= t ^ (t << 7);
	t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCu;
	x ^= t ^ (t << 14);
	t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0u;
	x ^= t ^ (t << 28);
	return x;
}

/* The bytes 1, 3, 5, 7 of x (counted from its highest, 0) into 32 bits, in that order. */
NO_COVERAGE static uint32_t odd_bytes(uint64_t x)
{
	x &= 0x00FF00FF00FF00FFu;
	x = (x | x >> 8) & 0x0000FFFF0000FFFFu;
	return (uint32_t)(x | x >> 16);
}

/* The inverse of odd_bytes(): v's four bytes into the bytes 1, 3, 5, 7 of the result. */
NO_COVERAGE static uint64_t spread_bytes(uint32_t v)
{
	uint64_t x = v;

	x = (x | x << 16) & 0x0000FFFF0000FFFFu;
	return (x | x << 8) & 0x00FF00FF00FF00FFu;
}

NO_COVERAGE static uint32_t rotr32(uint32_t v, unsigned n)
{
	return v >> n | v << (32 - n);
}

NO_COVERAGE void gamedb__des_block(const struct gamedb__des *d, const uint8_t in[8],
				   uint8_t out[8], int decrypt)
{
	uint64_t m = 0;
	uint32_t l, r;
	unsigned i;

	/*
	 * The initial permutation: its row k (output bits 8k+1..8k+8) is one column of the input's
	 * bits, read from the last byte to the first, the columns 2, 4, 6, 8 for rows 1-4 (the
	 * left half) and 1, 3, 5, 7 for rows 5-8 (the right). With the bytes loaded last first,
	 * the columns are the rows of the transpose: L its rows 1, 3, 5, 7 (from 0), R the others.
	 */
	for (i = 8; i-- > 0;)
		m = m << 8 | in[i];
	m = transpose8(m);
	l = odd_bytes(m);
	r = odd_bytes(m >> 8);
	for (i = 0; i < 16; i++) {
		const uint8_t *k = d->round[decrypt ? 15 - i : i];
		/*
		 * The expansion gives S-box j the bits 4j .. 4j+5 of R (bit 0 is bit 32, bit 33 is
		 * bit 1): R turned right by 27 - 4j (mod 32) brings them to the lowest six.
		 */
		const uint32_t f = d->sp[0][(rotr32(r, 27) ^ k[0]) & 63] ^
				   d->sp[1][(rotr32(r, 23) ^ k[1]) & 63] ^
				   d->sp[2][(rotr32(r, 19) ^ k[2]) & 63] ^
				   d->sp[3][(rotr32(r, 15) ^ k[3]) & 63] ^
				   d->sp[4][(rotr32(r, 11) ^ k[4]) & 63] ^
				   d->sp[5][(rotr32(r, 7) ^ k[5]) & 63] ^
				   d->sp[6][(rotr32(r, 3) ^ k[6]) & 63] ^
				   d->sp[7][(rotr32(r, 31) ^ k[7]) & 63];
		const uint32_t t = l ^ f;
		l = r;
		r = t;
	}
	/* The halves swapped (R16 L16), then the inverse of the initial permutation. */
	m = transpose8(spread_bytes(r) | spread_bytes(l) << 8);
	for (i = 0; i < 8; i++, m >>= 8)
		out[i] = (uint8_t)m;
}

NO_COVERAGE void gamedb__des_blocks(const struct gamedb__des *d, const uint8_t *in, uint8_t *out,
				    size_t n, int decrypt)
{
	size_t i;

	for (i = 0; i < n; i++)
		gamedb__des_block(d, in + 8 * i, out + 8 * i, decrypt);
}
