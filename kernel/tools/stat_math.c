/*
 * stat_math.c - 64 x 64 / 64 arithmetic for `stat` (see stat_math.h).
 *
 * The product is kept as two 64-bit halves and divided one bit at a time,
 * so the result is exact where `count * enabled` alone would overflow
 * (cycle counts reach 2^40 quickly) and no 128-bit type is needed.
 */
#include "tools/stat_math.h"

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

uint64_t stat_mean(const uint64_t *v, unsigned n)
{
	/* Quotient and remainder kept apart, so no sum exceeds 64 bits. */
	uint64_t q = 0, r = 0;

	for (unsigned i = 0; i < n; i++) {
		q += v[i] / n;
		r += v[i] % n;
		q += r / n;
		r %= n;
	}
	return q + (r * 2 >= n ? 1 : 0);
}

uint64_t stat_isqrt(uint64_t x)
{
	uint64_t root = 0, bit = 1ull << (WORD_BITS - 2);

	while (bit > x)
		bit >>= 2;
	/* Digit by digit, two bits of x per bit of the root. */
	while (bit) {
		if (x >= root + bit) {
			x -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return root;
}

#define PPM 1000000u
#define PPM_PER_PCT100 100u    /* 1% = 10000 ppm; a hundredth of it, 100 */

unsigned stat_noise_pct100(const uint64_t *v, unsigned n)
{
	uint64_t mean = stat_mean(v, n), sum_sq = 0;

	if (n < 2 || mean == 0)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t d = v[i] > mean ? v[i] - mean : mean - v[i];
		uint64_t ppm = stat_muldiv(d, PPM, mean);

		if (ppm > STAT_NOISE_CAP_PPM)
			ppm = STAT_NOISE_CAP_PPM;
		sum_sq += ppm * ppm;
	}
	/* Sample variance / n is the variance of the mean. */
	uint64_t sd_mean_ppm = stat_isqrt(sum_sq / (n - 1) / n);
	return (unsigned)((sd_mean_ppm + PPM_PER_PCT100 / 2) / PPM_PER_PCT100);
}

#define DIGIT_GROUP 3

char *stat_commas(uint64_t v, char *buf, unsigned len)
{
	char tmp[STAT_COMMAS_LEN];
	unsigned n = 0, out = 0;

	do {
		if (n && n % (DIGIT_GROUP + 1) == DIGIT_GROUP)
			tmp[n++] = ',';
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (len == 0)
		return buf;
	while (n && out + 1 < len)
		buf[out++] = tmp[--n];
	buf[out] = '\0';
	return buf;
}

#define MILLI 1000u

uint64_t stat_ratio_milli(uint64_t num, uint64_t den)
{
	if (den == 0)
		return UINT64_MAX;
	return stat_muldiv(num, MILLI, den);
}
