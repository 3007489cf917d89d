/*
 * cost_smp_bench.c - what hwperf's cross-CPU paths cost, per operation
 * (BENCH_COST: reported, never passed or failed), in instructions under
 * cpi=1; the rows of `cost` that need a second CPU:
 *
 *   ipi_roundtrip    one hwperf cross-call from CPU 0 to CPU 1 that runs
 *                    nothing there: lock, post, IPI, CPU 1 wakes from hlt
 *                    and answers, CPU 0 sees it (kernel/hwperf/xcall.c)
 *   sysread_allcpus  one `hwperf sys read` in SYSTEM mode (cycles:k):
 *                    every other CPU folds its block on itself by
 *                    cross-call, then the sum is exported
 *
 * Each is a loop of n operations in the kernel on CPU 0, less the same
 * loop run zero times, divided by n.  On one CPU both SKIP.
 *
 * What is exact: with several vCPUs under -icount QEMU runs them round
 * robin in one thread on one virtual clock (docs/design/platforms.md "CPUs
 * in QEMU"), so a span read on CPU 0 holds every vCPU's instructions in
 * it.  These rows are therefore both (all) CPUs' instructions per
 * operation, not CPU 0's path alone; they are exact and repeat from boot
 * to boot because the interleaving is a fixed function of the stream:
 * the waiting CPU's PAUSE ends its turn at once (arch_cpu_relax), and a
 * span that a timer tick of any CPU fell into (CPU 0's clock_ticks or an
 * AP's, hwperf_idle_ticks) is measured again, as `cost` does for CPU 0.
 * docs/costs.md lists the figures with -smp 2.
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "bench.h"
#include "bench_task.h"
#include "bootargs.h"
#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "time/clock.h"

/* Runs that a tick keeps interrupting are tried this often, then refused. */
#define TICK_FREE_ATTEMPTS 8
/* The range run.c accepts for the cpi boot argument. */
#define CPI_MAX 1000

enum { ROW_IPI_ROUNDTRIP, ROW_SYSREAD_ALLCPUS, ROW_COUNT };

static int ping_cpu1(void)
{
	struct hwperf_reason why;
	int r = hwperf_cpu_ping(1, &why);

	if (r < 0)
		printf("cost_smp: %s\n", why.text);
	return r;
}

static int sys_read_all(void)
{
	static struct hwperf_counts c;  /* 768 bytes: off the stack */
	struct hwperf_reason why;
	int r = hwperf_sys_read(NULL, &c, &why);

	if (r < 0)
		printf("cost_smp: %s\n", why.text);
	return r < 0 ? r : 0;
}

/* n calls of op on CPU 0, in a span no tick on any CPU fell into. */
static int time_kernel_loop(int (*op)(void), uint64_t n, uint64_t *cycles)
{
	int err = op();                 /* warm-up, as cost_cycles */

	for (unsigned i = 0; !err && i < TICK_FREE_ATTEMPTS; i++) {
		clock_wait_tick();
		uint64_t t0 = clock_ticks(), i0 = hwperf_idle_ticks();
		uint64_t c0 = arch_cycles();

		for (uint64_t k = 0; k < n && !err; k++)
			err = op();
		uint64_t c1 = arch_cycles();

		if (!err && clock_ticks() == t0 && hwperf_idle_ticks() == i0) {
			*cycles = c1 - c0;
			return 0;
		}
	}
	return err ? err : -EAGAIN;
}

static int measure(uint64_t n, struct bench_sample *s)
{
	struct hwperf_control ctl;
	struct hwperf_reason why;
	int err;

	if (arch_cpus_online() < 2) {
		snprintf(s->skip, sizeof(s->skip),
		         "one CPU online: a cross-CPU cost needs two (qemu -smp 2)");
		return 0;
	}
	if (bootarg_u64("cpi", 0, 0, CPI_MAX) != 1) {
		snprintf(s->skip, sizeof(s->skip),
		         "costs are exact only with boot argument cpi=1 (qemu -icount shift=0)");
		return 0;
	}
	if (hwperf_mode() != HWPERF_FREE) {
		snprintf(s->skip, sizeof(s->skip), "the PMU is not FREE (mode %s): see hwperf status",
		         hwperf_mode_name(hwperf_mode()));
		return 0;
	}
	s->ops[ROW_IPI_ROUNDTRIP] = s->ops[ROW_SYSREAD_ALLCPUS] = n;
	err = time_kernel_loop(ping_cpu1, n, &s->value[ROW_IPI_ROUNDTRIP]);
	if (err == 0 && (hwperf_spec_parse("cycles:k", hwperf_caps(), &ctl, &why) != 0 ||
	                 hwperf_sys_acquire(NULL, &ctl, &why) < 0)) {
		printf("cost_smp: %s\n", why.text);
		return -EIO;
	}
	if (err == 0) {
		err = time_kernel_loop(sys_read_all, n, &s->value[ROW_SYSREAD_ALLCPUS]);
		hwperf_sys_release(NULL, &why);
	}
	if (err == -EAGAIN) {
		bench_skip_too_long(s, n);
		return 0;
	}
	return err;
}

static const struct bench cost_smp = {
	.name = "cost_smp",
	.desc = "cross-CPU costs per operation (reported): hwperf cross-call, system read",
	.default_n = 300,
	.nchecks = ROW_COUNT,
	.checks = {
		[ROW_IPI_ROUNDTRIP] = { .name = "ipi_roundtrip", .kind = BENCH_COST },
		[ROW_SYSREAD_ALLCPUS] = { .name = "sysread_allcpus", .kind = BENCH_COST },
	},
	.measure = measure,
	.subtract_zero_run = true,
};
BENCH(cost_smp, &cost_smp);
