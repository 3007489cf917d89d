/*
 * soft_boot.c - the software PMU in the running kernel: its boot
 * arguments, its clock and CPU lookup, and its registration among the PMU
 * drivers.  Kept apart from softpmu.c, which host tests build with a
 * clock and CPU of their own.
 */
#include "arch.h"
#include "bootargs.h"
#include "soft_regs.h"

BOOTARG(softpmu_counters, "software PMU counters, 1..16 (default 2)");
BOOTARG(softpmu_width, "software PMU counter width in bits, 8..64 (default 32)");

/* The CPU's own id from the arch (GS on x86_64), not the task layer's
 * view: an AP that runs no task still counts into its own bank. */
static unsigned cpu_id(void)
{
	return arch_cpu_id();
}

static void soft_boot(void)
{
	struct softpmu_config c = {
		.ncounters = (unsigned)bootarg_u64("softpmu_counters",
		             SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_COUNTERS_MIN,
		             SOFTPMU_COUNTERS_MAX),
		.width = (unsigned)bootarg_u64("softpmu_width",
		         SOFTPMU_WIDTH_DEFAULT, SOFTPMU_WIDTH_MIN,
		         SOFTPMU_WIDTH_MAX),
		.clock = arch_cycles,
		.this_cpu = cpu_id,
		.mode = NULL,           /* the kernel loads sets in K mode */
	};

	softpmu_configure(&c);
}

PMU_DRIVER_BOOT(soft, PMU_RANK_SOFT, &softpmu_ops, soft_boot);
