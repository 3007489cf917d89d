/*
 * spin N: a known busy loop of N iterations in user mode, no system
 * calls but the final exit (for scheduling and user-time tests).
 *
 * spin forever: the same loop until the task is killed, for tasks that
 * must outlive a run however long the host stretches it.  The stress
 * benchmark's holders used a count "long enough", 3e9, which a 34Kf VPE
 * in QEMU ends in about 5 s (spin 3e8 took 0.52 s of user time); on a
 * loaded host its 1,000 takeovers took longer than that, and holders
 * ended under it (kernel/bench/stress_bench.c).
 */
#include <string.h>

#include "tally.h"

int main(int argc, char **argv)
{
	volatile unsigned long counter = 0;

	if (argc == 2 && strcmp(argv[1], "forever") == 0) {
		for (;;)
			counter++;
	}
	unsigned long n = arg_count(argc, argv, 1, "spin N | spin forever");

	for (unsigned long i = 0; i < n; i++)
		counter++;
	return counter == n ? 0 : 1;
}
