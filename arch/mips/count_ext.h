/*
 * count_ext.h - CP0 Count (32 bits) extended to 64 bits, one extension
 * per CPU (timer.c keeps one per VPE).  Pure logic, host tested.
 */
#ifndef TALLY_MIPS_COUNT_EXT_H
#define TALLY_MIPS_COUNT_EXT_H

#include <stdbool.h>
#include <stdint.h>

struct count_ext {
	uint32_t last;          /* the last Count read */
	uint32_t high;          /* wraps seen */
};

/* The 64-bit value of Count reading now; a reading below the last one is
 * a wrap, so the CPU must read at least once per wrap (its tick does). */
uint64_t count_ext_read(struct count_ext *e, uint32_t now);

/*
 * The read without an update, for a reader that only an interrupt (the
 * one other writer of its CPU's extension) may run between its steps:
 * last and high read, in that order, before Count was read as now.  True,
 * with *v, when now is not below last; false when a wrap must be
 * recorded (count_ext_read with interrupts off).  An interrupt between
 * the steps cannot make a true answer wrong: one that records a wrap
 * after last was read leaves now below that last, and one before it left
 * a consistent pair.  Each CPU's tick still updates its extension, so
 * that last stays within a wrap of the present.
 */
static inline bool count_ext_peek(uint32_t last, uint32_t high, uint32_t now, uint64_t *v)
{
	if (now < last)
		return false;
	*v = ((uint64_t)high << 32) | now;
	return true;
}

/*
 * Start e at reading now as the value nearest ref, another CPU's 64-bit
 * value of the same clock taken less than 2^31 ticks away: a CPU whose
 * Count lags ref a little does not take the lag for a wrap, and one that
 * read after a wrap ref has not seen counts it.
 */
void count_ext_seed(struct count_ext *e, uint64_t ref, uint32_t now);

#endif
