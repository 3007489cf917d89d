/*
 * copy64.c - arch_copy_fill_u64 (kernel/arch.h) on x86-64: a 64-bit word
 * is one register, so plain copies.
 */
#include <stdint.h>

#include "arch.h"

/* hwperf's arrays (32 counters), so that they copy by assignment. */
struct words32 {
	uint64_t v[32];
};

void arch_copy_fill_u64(uint64_t *dst, const uint64_t *src, uint64_t fill,
			unsigned n)
{
	if (n == 32) {
		/* Assignments, not memcpy (a call: -fno-builtin): each one
		 * `rep movsq`; the fill unrolled whole (32 stores, no
		 * loop). */
		*(struct words32 *)dst = *(const struct words32 *)src;
		*(struct words32 *)(dst + 64) = *(const struct words32 *)(src + 64);
#pragma GCC unroll 32
		for (unsigned i = 0; i < 32; i++)
			dst[32 + i] = fill;
		return;
	}
	copy_fill_u64_words(dst, src, fill, 0, n);
}
