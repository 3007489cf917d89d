/*
 * sys N [W]: N null system calls (getppid, which only reads), each after W
 * turns of a user-mode busy loop (default 0).  The task makes exactly
 * N + SYS_OTHER_SYSCALLS system calls: the loop, then exit.
 *
 * W gives each round trip a long user stretch, for benchmarks whose truth
 * is user time: on Malta the cycle counter ticks once per 6 instructions,
 * so a user stretch of a few instructions is measured to +-1 tick, and the
 * error's sign follows the Count phase, which the kernel path's length
 * sets (see kernel/bench/mux_bench.c).
 */
#include "tally.h"

#define SYS_OTHER_SYSCALLS 1

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "sys N [W]");
	unsigned long w = argc > 2 ? arg_count(argc, argv, 2, "sys N [W]") : 0;

	for (unsigned long i = 0; i < n; i++) {
		/* volatile: the compiler keeps every turn. */
		for (volatile unsigned long j = 0; j < w; j++)
			;
		getppid();
	}
	return 0;
}
