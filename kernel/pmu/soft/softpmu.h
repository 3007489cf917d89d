/*
 * softpmu.h - the software PMU's public face: its shape (how many
 * counters, how wide) and where the kernel sets it.  What it counts and
 * how (events, registers, the hooks) is the driver's own business:
 * soft_regs.h, included only by the driver and its tests; the kernel
 * feeds it through pmu_kevent.h like any driver.
 */
#ifndef TALLY_SOFTPMU_H
#define TALLY_SOFTPMU_H

#include <stdint.h>

#define SOFTPMU_COUNTERS_DEFAULT 2
#define SOFTPMU_COUNTERS_MIN 1
#define SOFTPMU_COUNTERS_MAX 16         /* PMU_MAX_COUNTERS */
#define SOFTPMU_WIDTH_DEFAULT 32
#define SOFTPMU_WIDTH_MIN 8
#define SOFTPMU_WIDTH_MAX 64

struct softpmu_config {
	unsigned ncounters;             /* boot arg softpmu_counters */
	unsigned width;                 /* boot arg softpmu_width */
	uint64_t (*clock)(void);        /* the cycle counter */
	unsigned (*this_cpu)(void);
	/* The mode the CPU is in when a counter set is loaded, so that a bank
	 * whose mode changes went unreported (no counter counted cycles:
	 * pmu_kevent.h) starts right.  NULL: K, which is where the kernel
	 * always is then; host tests that play at other modes say theirs. */
	uint32_t (*mode)(void);
};

/* Before probe.  Returns -EINVAL (counters or width out of range). */
int softpmu_configure(const struct softpmu_config *cfg);
/* The configuration in force (what `hwperf soft` shows). */
void softpmu_get_config(struct softpmu_config *out);
/*
 * Change the number of counters and their width at run time, keeping the
 * clock, the CPU lookup and each CPU's current mode.  Every counter is
 * cleared and disabled, so it may only be called while no counter set is
 * loaded on any CPU: hwperf_soft_configure checks that and re-probes (it
 * reaches this as the driver's reshape op).  Returns -EINVAL (counters or
 * width out of range; nothing changes).
 */
int softpmu_reconfigure(unsigned ncounters, unsigned width);

#endif
