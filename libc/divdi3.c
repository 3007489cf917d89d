/*
 * divdi3.c - 64-bit division for 32-bit targets.
 *
 * On MIPS32 the compiler turns a 64-bit `/` or `%` into a call to one of
 * these (the libgcc / compiler-rt names); Debian ships no compiler-rt for
 * MIPS, so the kernel and user programs bring their own.  Clang 14 expands
 * 64-bit shifts, multiplies, bit counts and overflow builtins inline for
 * MIPS32, so division is all that is needed (floating point would need
 * soft-float helpers too; Tally uses none).
 *
 * The file is built on every architecture but defines nothing on 64-bit
 * ones, where the compiler divides in hardware.  Built with
 * -DTALLY_DIVDI3_TEST the functions are defined anyway under tally_*
 * names, so a host unit test can compare them against native division
 * without clashing with the host's own runtime library.
 *
 * Nothing in here may itself use a 64-bit `/` or `%`: that would call
 * back into this file forever.
 */
#include <stdint.h>

#if __SIZEOF_POINTER__ == 4 || defined(TALLY_DIVDI3_TEST)

#ifdef TALLY_DIVDI3_TEST
#define RT(name) tally_##name
#else
#define RT(name) name
#endif

uint64_t RT(__udivmoddi4)(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t RT(__udivdi3)(uint64_t n, uint64_t d);
uint64_t RT(__umoddi3)(uint64_t n, uint64_t d);
int64_t RT(__divdi3)(int64_t n, int64_t d);
int64_t RT(__moddi3)(int64_t n, int64_t d);
int64_t RT(__divmoddi4)(int64_t n, int64_t d, int64_t *rem);

/*
 * Division by zero traps the way the compiler's own 32-bit division does
 * on MIPS (teq with code 7, "divide by zero"), so the kernel reports both
 * alike.  Elsewhere a plain trap is enough.
 */
static void divide_by_zero(void)
{
#if defined(__mips__)
	__asm__ volatile("teq $zero, $zero, 7");
#endif
	__builtin_trap();
}

static unsigned clz64(uint64_t v)
{
	return (unsigned)__builtin_clzll(v);
}

/*
 * Schoolbook binary long division, starting at the quotient's highest
 * possible bit instead of bit 63; the common case of both operands fitting
 * in 32 bits uses the hardware divider.
 */
uint64_t RT(__udivmoddi4)(uint64_t n, uint64_t d, uint64_t *rem)
{
	uint64_t q = 0;
	int shift;

	if (d == 0) {
		divide_by_zero();
		return 0;
	}
	if ((n >> 32) == 0 && (d >> 32) == 0) {
		uint32_t n32 = (uint32_t)n, d32 = (uint32_t)d;

		if (rem)
			*rem = n32 % d32;
		return n32 / d32;
	}
	if (n < d) {
		if (rem)
			*rem = n;
		return 0;
	}
	shift = (int)clz64(d) - (int)clz64(n);
	d <<= shift;
	for (; shift >= 0; shift--) {
		q <<= 1;
		if (n >= d) {
			n -= d;
			q |= 1;
		}
		d >>= 1;
	}
	if (rem)
		*rem = n;
	return q;
}

uint64_t RT(__udivdi3)(uint64_t n, uint64_t d)
{
	return RT(__udivmoddi4)(n, d, 0);
}

uint64_t RT(__umoddi3)(uint64_t n, uint64_t d)
{
	uint64_t r;

	RT(__udivmoddi4)(n, d, &r);
	return r;
}

/* |v| as unsigned: correct for INT64_MIN too, whose negation overflows. */
static uint64_t magnitude(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

/*
 * C rounds toward zero: the quotient is negative when the signs differ,
 * and the remainder takes the sign of the dividend.
 */
int64_t RT(__divmoddi4)(int64_t n, int64_t d, int64_t *rem)
{
	uint64_t r;
	uint64_t q = RT(__udivmoddi4)(magnitude(n), magnitude(d), &r);

	if (rem)
		*rem = n < 0 ? (int64_t)(0 - r) : (int64_t)r;
	return (n < 0) != (d < 0) ? (int64_t)(0 - q) : (int64_t)q;
}

int64_t RT(__divdi3)(int64_t n, int64_t d)
{
	return RT(__divmoddi4)(n, d, 0);
}

int64_t RT(__moddi3)(int64_t n, int64_t d)
{
	int64_t r;

	RT(__divmoddi4)(n, d, &r);
	return r;
}

#endif /* 32-bit pointers or test build */
