/*
 * hwread N: read the calling task's own counters N times by system call
 * (SYS_hwperf READ, the whole 32-counter set copied out each time).  The
 * counters must already be enabled on the task (by whoever spawned it);
 * exits 1 at the first read that fails, 0 after N good ones.
 */
#include "tally.h"
#include "tally_hwperf.h"

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "hwread N");
	static struct hwperf_counts counts;     /* 768 bytes: off the stack */

	for (unsigned long i = 0; i < n; i++)
		if (hwp_read(0, &counts) < 0)
			return 1;
	return 0;
}
