/*
 * count_ext.h - CP0 Count (32 bits) extended to 64 bits, one extension
 * per CPU (timer.c keeps one per VPE).  Pure logic, host tested.
 */
#ifndef TALLY_MIPS_COUNT_EXT_H
#define TALLY_MIPS_COUNT_EXT_H

#include <stdint.h>

struct count_ext {
	uint32_t last;          /* the last Count read */
	uint32_t high;          /* wraps seen */
};

/* The 64-bit value of Count reading now; a reading below the last one is
 * a wrap, so the CPU must read at least once per wrap (its tick does). */
uint64_t count_ext_read(struct count_ext *e, uint32_t now);

/*
 * Start e at reading now as the value nearest ref, another CPU's 64-bit
 * value of the same clock taken less than 2^31 ticks away: a CPU whose
 * Count lags ref a little does not take the lag for a wrap, and one that
 * read after a wrap ref has not seen counts it.
 */
void count_ext_seed(struct count_ext *e, uint64_t ref, uint32_t now);

#endif
