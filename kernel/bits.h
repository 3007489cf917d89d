/*
 * bits.h - counting and finding bits in a 32-bit mask (counter masks,
 * event sets).  No __builtin_popcount: without a POPCNT instruction the
 * compiler calls libgcc for it, and the kernel links no libgcc.
 */
#ifndef TALLY_BITS_H
#define TALLY_BITS_H

#include <stdint.h>

/* Bits set in m: one turn per set bit (masks here have a few). */
static inline unsigned bits_count(uint32_t m)
{
	unsigned n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Index of the lowest set bit; m != 0. */
static inline unsigned bits_lowest(uint32_t m)
{
	return (unsigned)__builtin_ctz(m);
}

#endif
