/*
 * loop N: N iterations of the benchmark loop in user mode, for the uloop
 * and hardware-event benchmarks (kernel/bench/cycles_bench.c,
 * hwevents_bench.c).
 *
 * One iteration has the shape of the kernel's arch_bench_loop (kernel/
 * arch.h): load a cell, add one, store it back, decrement the count,
 * branch back -- 5 instructions on x86_64, 6 on MIPS (the branch's delay
 * slot is a nop).  The run at N executes exactly that many instructions
 * times N more than the run at 0, so a count of the run at 0 subtracted
 * from the run at N leaves the loop alone.
 *
 * What the program does around the loop keeps the rest equal in both runs:
 *  - N is parsed from a fixed-width argument (the benchmark zero-pads
 *    it), so parsing costs the same for every N;
 *  - the cell is touched first, so its page fault happens in both runs;
 *  - if it runs under counters, it sleeps one tick and then restarts them
 *    itself (release, then enable with the control it was given), so they
 *    count one user-mode stretch only: the loop and the few fixed
 *    instructions to the exit call.  Everything before -- start-up,
 *    parsing, the nap -- is left out, with the rounding of the cycle
 *    counter at each of its kernel entries (MIPS's Count ticks once per 6
 *    instructions).  Starting just after a tick also puts the next one a
 *    whole timer period away, so a loop shorter than that takes no
 *    interrupt;
 *  - every text page is read before the restart, so no TLB refill falls
 *    in the counted stretch: MIPS takes a refill's own time off user time
 *    in whole Count ticks, one more rounding each (measured: with the
 *    exit path's page refilled inside it, the run at 0 read 10 or 12
 *    ticks by the Count phase, and uloop's difference 49998 or 50002).
 * Exit status 0; 1 if restarting the counters failed or the cell does not
 * hold N afterwards; 2 (usage) if N does not fit 32 bits.
 */
#include <stdint.h>
#include <stdio.h>

#include "tally.h"
#include "tally_hwperf.h"

#define TICK_EDGE_MS 1          /* rounds up to one tick: wakes on a tick */

static volatile uint32_t cell;
static struct hwperf_control ctl;

extern const uint8_t __user_text_start[], __user_text_end[];   /* user.ld */

static void touch_text(void)
{
	uintptr_t end = (uintptr_t)__user_text_end;

	for (uintptr_t p = (uintptr_t)__user_text_start; p < end; p += PAGE_SIZE)
		(void)*(const volatile uint8_t *)p;
	(void)*(const volatile uint8_t *)(end - 1);     /* the last page */
}

/* Restart our own counters on a tick edge (see above); 0 if we have none. */
static int restart_counters_on_tick(void)
{
	int have = hwp_get_control(0, &ctl) >= 0;

	sleep_ms(TICK_EDGE_MS);
	if (!have)
		return 0;
	touch_text();
	if (hwp_release(0) < 0)
		return -1;
	return hwp_enable(0, &ctl) < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	uint32_t n = arg_count32(argc, argv, 1, "loop N");

	cell = 0;
	if (restart_counters_on_tick() < 0)
		return 1;
	tally_bench_loop(n, &cell);     /* arch/<arch>/user/benchloop.* */
	return cell == n ? 0 : 1;
}
