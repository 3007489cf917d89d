/*
 * stat_math.c - 64 x 64 / 64 arithmetic for `stat` (see stat_math.h).
 *
 * The product is kept as two 64-bit halves and divided one bit at a time,
 * so the result is exact where `count * enabled` alone would overflow
 * (cycle counts reach 2^40 quickly) and no 128-bit type is needed.
 */
#include "stat_math.h"

#define HALF_BITS 32
#define HALF_MASK 0xffffffffu
#define WORD_BITS 64
#define PCT100_WHOLE 10000u

/* hi:lo = a * b, from four 32 x 32 partial products. */
static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t al = a & HALF_MASK, ah = a >> HALF_BITS;
	uint64_t bl = b & HALF_MASK, bh = b >> HALF_BITS;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> HALF_BITS) + (lh & HALF_MASK) + (hl & HALF_MASK);

	*lo = (ll & HALF_MASK) | (mid << HALF_BITS);
	*hi = hh + (lh >> HALF_BITS) + (hl >> HALF_BITS) + (mid >> HALF_BITS);
}

uint64_t stat_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t hi, lo, rem = 0, q = 0;

	if (c == 0)
		return UINT64_MAX;
	mul_64x64(a, b, &hi, &lo);
	if (hi >= c)
		return UINT64_MAX;      /* the quotient needs more than 64 bits */
	rem = hi;
	/* Long division of rem:lo by c, one bit of lo at a time; rem < c
	 * throughout, so the shifted remainder is rem * 2 + bit < 2c. */
	for (int i = WORD_BITS - 1; i >= 0; i--) {
		uint64_t top = rem >> (WORD_BITS - 1);
		rem = (rem << 1) | ((lo >> i) & 1u);
		q <<= 1;
		if (top || rem >= c) {
			rem -= c;
			q |= 1u;
		}
	}
	return q;
}

uint64_t stat_scaled(uint64_t count, uint64_t enabled, uint64_t running)
{
	if (running == 0)
		return 0;
	return stat_muldiv(count, enabled, running);
}

unsigned stat_running_pct100(uint64_t running, uint64_t enabled)
{
	if (enabled == 0 || running >= enabled)
		return PCT100_WHOLE;
	return (unsigned)stat_muldiv(running, PCT100_WHOLE, enabled);
}
