/*
 * stall_cmd.c - `stall N MS`: CPU N spins for MS ms with interrupts
 * masked, as a CPU hung in a driver would, while the console goes on.
 *
 * It shows what a cross-call to such a CPU does (docs/hwperf.md): hwperf
 * waits up to 500 ticks for a CPU that takes none of its own ticks, then
 * names it.  The spin runs from the target's ring (arch_cpu_ring), so
 * interrupts are masked there by the ring itself; the ring is posted and
 * not waited for, since the point is that nobody gets an answer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "arch.h"
#include "console/cmd.h"

#define STALL_MS_MAX 10000u
#define STALL_USAGE "stall CPU MS"

static uint64_t stall_cycles;

static void stall_fn(void *arg)
{
	uint64_t t0 = arch_cycles();

	(void)arg;
	while (arch_cycles() - t0 < stall_cycles)
		arch_cpu_relax();
}

static int cmd_stall(int argc, char **argv)
{
	uint64_t n, ms;
	int err;

	if (argc != 3) {
		printf("error: usage: " STALL_USAGE "\n");
		return CMD_ERR_REPORTED;
	}
	if (parse_u64(argv[1], 10, &n) || parse_u64(argv[2], 10, &ms) ||
	    ms == 0 || ms > STALL_MS_MAX) {
		printf("error: stall: EINVAL: needs a CPU number and 1 to %u ms, "
		       "not '%s %s'\n", STALL_MS_MAX, argv[1], argv[2]);
		return CMD_ERR_REPORTED;
	}
	if (n == arch_cpu_id()) {
		printf("error: stall: EINVAL: cpu %u runs this console\n", (unsigned)n);
		return CMD_ERR_REPORTED;
	}
	stall_cycles = arch_cycles_hz() * ms / 1000u;
	err = n < CPU_MAX ? arch_cpu_ring((unsigned)n, stall_fn, NULL) : -ENODEV;
	switch (err) {
	case 0:
		printf("cpu %u stalls for %u ms with interrupts masked\n", (unsigned)n,
		       (unsigned)ms);
		return 0;
	case -ENODEV:
		printf("error: stall: ENODEV: no cpu %llu (%u online)\n",
		       (unsigned long long)n, arch_cpus_online());
		return CMD_ERR_REPORTED;
	case -EAGAIN:
		printf("error: stall: EAGAIN: cpu %u is not online\n", (unsigned)n);
		return CMD_ERR_REPORTED;
	case -EBUSY:
		printf("error: stall: EBUSY: cpu %u still owes an earlier call\n",
		       (unsigned)n);
		return CMD_ERR_REPORTED;
	default:
		return err;
	}
}
CONSOLE_CMD(stall, "CPU N spins MS ms with interrupts masked: a hung CPU, as cross-calls see it",
	    STALL_USAGE, cmd_stall);
