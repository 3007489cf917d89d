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
	uint32_t behind;        /* readings behind last: Count stepped back */
};

/*
 * The 64-bit value of Count reading now.  Count moves on by less than
 * half its range between two readings (the CPU reads it at least every
 * tick), so a reading that is less than half the range past last is a
 * step forward, a wrap when it is numerically below last; one that is
 * behind last is Count stepping back, which a VPE's Count does under
 * QEMU without -icount (docs/design/platforms.md, issue 13): not a wrap,
 * which would add 2^32 cycles to the clock, but counted in behind, and
 * the value stays last's until Count is past it again, so that the clock
 * never goes back.
 */
uint64_t count_ext_read(struct count_ext *e, uint32_t now);

/*
 * The read without an update, for a reader that only an interrupt (the
 * one other writer of its CPU's extension) may run between its steps:
 * last and high read, in that order, before Count was read as now.  True,
 * with *v, when now is not below last and less than half the range past
 * it; false when a wrap must be recorded or Count is behind last
 * (count_ext_read with interrupts off).  An interrupt between the steps
 * cannot make a true answer wrong: one that records a wrap after last
 * was read leaves now below that last, one before it left a consistent
 * pair, and one that finds Count behind changes neither word.  Each
 * CPU's tick still updates its extension, so that last stays within a
 * wrap of the present.
 */
static inline bool count_ext_peek(uint32_t last, uint32_t high, uint32_t now, uint64_t *v)
{
	/* Below last, or behind it across a wrap point (last just past a
	 * wrap, Count stepped back to just before it): count_ext_read's. */
	if (now < last || (int32_t)(now - last) < 0)
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

/*
 * Two 32-bit stamps of Count, exit then entry, placed on the 64-bit
 * clock by their distance on from since (a 64-bit value of the same
 * clock): *left at exit, *back at entry (pcpu.h pcpu_user_span, the user
 * interval).  The distances are signed: in order they are under 2^31 (a
 * tick apart at most), and a stamp behind the one before it, which a
 * VPE's Count stepping back gives under QEMU without -icount, stays
 * behind it on the 64-bit clock, where every cut's guard sees it (acct.c
 * counts it), instead of becoming a span of 2^32 less the step (issue 13:
 * 4,294,955,924 cycles credited to a cycles:u counter).
 */
static inline void count_ext_span(uint64_t since, uint32_t exit, uint32_t entry,
				  uint64_t *left, uint64_t *back)
{
	*left = since + (uint64_t)(int64_t)(int32_t)(exit - (uint32_t)since);
	*back = *left + (uint64_t)(int64_t)(int32_t)(entry - exit);
}

#endif
