/*
 * ucounters.c - which counters user mode may read itself (the hwperf read
 * page, kernel/hwperf/upage.c).
 *
 * rdtsc stays allowed in ring 3 for every task (CR4.TSD is never set):
 * it is the cycle counter the software PMU's cycles event counts.  rdpmc
 * is allowed only while a task that mapped its read page runs: CR4.PCE is
 * set at its switch-in and cleared at everyone else's, so rdpmc raises #GP
 * (SIGSEGV) in any other task.  CR4 is per CPU, and the switch-in runs on
 * the CPU the task is about to use.
 */
#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "cpu.h"

#define CR4_PCE (1ull << 8)     /* rdpmc allowed at CPL > 0 */
#define TSC_BITS 64u

void arch_user_counters(bool allow)
{
	uint64_t cr4 = read_cr4();
	uint64_t want = allow ? (cr4 | CR4_PCE) : (cr4 & ~CR4_PCE);

	/* Most switches change nothing; a CR4 write is not free. */
	if (want != cr4)
		write_cr4(want);
}

unsigned arch_user_cycles_bits(void)
{
	return TSC_BITS;
}
