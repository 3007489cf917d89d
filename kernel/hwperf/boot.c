/*
 * boot.c - hwperf's bring-up in the kernel: boot arguments, probing every
 * registered PMU driver, and telling the console what was found.
 *
 * The console shows one line per driver, then the choice:
 *
 *	pmu: intel-arch: not present (CPUID.0AH version 0)
 *	pmu: soft: 2 counters x 32 bits counting kernel-seen events
 *	pmu: using soft
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "bootargs.h"
#include "time/clock.h"
#include "env.h"
#include "hwperf.h"

#define PICK_MAX 16

BOOTARG(pmu, "PMU driver to use by name (e.g. soft); default: the best that counts");

/* Every driver's probe result, kept for `info` and `hwperf status`. */
static char probe_lines[PICK_MAX][PMU_STATUS_MAX + 32];
static unsigned nprobe_lines;
/* The first line of a CPU's own PMU driver (ranked above the software
 * PMU, pmu.h), or -1: why hardware-event checks cannot run. */
static int first_cpu_line = -1;

static void report(const struct pmu_driver *d, const struct pmu_caps *caps, int rc)
{
	if (nprobe_lines == PICK_MAX)
		return;
	if (d->rank > PMU_RANK_SOFT && first_cpu_line < 0)
		first_cpu_line = (int)nprobe_lines;
	char *line = probe_lines[nprobe_lines++];
	/* Drivers say themselves whether they count ("present but not
	 * counting (...)"); rc and counts decide the choice, not the text. */
	(void)rc;
	snprintf(line, sizeof(probe_lines[0]), "%s", caps->status);
	printf("pmu: %s\n", line);
}

unsigned hwperf_probe_lines(const char **lines, unsigned max)
{
	unsigned n = nprobe_lines < max ? nprobe_lines : max;

	for (unsigned i = 0; i < n; i++)
		lines[i] = probe_lines[i];
	return n;
}

const char *hwperf_cpu_probe_line(void)
{
	return first_cpu_line < 0 ? NULL : probe_lines[first_cpu_line];
}

int hwperf_boot(void)
{
	struct pmu_driver drv[PICK_MAX];
	const struct pmu_driver *const *d;
	struct hwperf_reason why;
	unsigned n = 0;
	int best, rc;

	SET_FOREACH(d, pmu_drivers) {
		if ((*d)->boot)
			(*d)->boot();
		if (n < PICK_MAX)
			drv[n++] = **d;
	}
	best = hwperf_pick(drv, n, bootarg_get("pmu"), report);
	if (best < 0) {
		printf("pmu: no driver counts; hwperf is off\n");
		return -ENODEV;
	}
	rc = hwperf_init(drv[best].ops, &why);
	if (rc < 0) {
		printf("pmu: %s\n", why.text);
		return rc;
	}
	printf("pmu: using %s\n", drv[best].name);
	/* A multiplexed set rotates once per tick period of its own time
	 * (R13); with the cycle rate unknown, at every switch-in instead. */
	if (clock_hz)
		hwperf_set_rotation(arch_cycles_hz() / clock_hz);
	return rc;
}
