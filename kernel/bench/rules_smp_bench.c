/*
 * rules_smp_bench.c - the hwperf rules that are about CPUs (R3, R12, R19),
 * played in the kernel on every online CPU.  Needs a second CPU: on one,
 * every check SKIPs and says so (the `rules` benchmark plays the rest).
 *
 * The console takes SYSTEM mode itself and reads each CPU's block.  The
 * benchmark starts no task, so the application processors idle in hlt
 * between timer ticks and what their blocks count is their own kernel
 * time and their own ticks; what hwperf must do on them (program, fold) it does by
 * cross-call (kernel/hwperf/xcall.c).  Checks:
 *
 *   cpus-online          CPUs online (noted: the truth the others use)
 *   R3-every-cpu-counts  CPUs whose block counted cycles:k right after the
 *                        acquire: every online CPU's PMU was programmed
 *                        at once, not at its next tick
 *   R12-cpu-read-live    CPUs whose cycles:k grows between two reads made
 *                        back to back: each read folded that CPU's live
 *                        count on that CPU, not its count as of its last
 *                        tick (a per-CPU read of a CPU that exists)
 *   R19-ticks-own-cpu    CPUs whose ticks:k over SPAN timer ticks of CPU 0
 *                        is SPAN, give or take TICK_SLACK: each CPU's ticks
 *                        land in its own block only (software PMU only:
 *                        the one PMU with a ticks event)
 *   R12-sys-read-sums    1 when the system read lies between the sums of
 *                        the per-CPU reads made just before and just after
 *                        it: it folded every CPU into the global counts
 *   R1-free-after        the PMU is FREE again afterwards
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "bench.h"
#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "proc/sched.h"
#include "time/clock.h"

/* Timer ticks of CPU 0 the ticks check waits; each CPU's own LAPIC timer
 * (or CPU 0's 8254) runs at the same HZ, at its own phase: one either way,
 * and one more for the fold that lands on a tick boundary. */
#define SPAN 20u
#define TICK_SLACK 2u
#define SPEC_CYCLES "cycles:k"
#define SPEC_TICKS "ticks:k"

enum { CPUS_ONLINE, R3_EVERY_CPU, R12_LIVE, R19_OWN_TICKS, R12_SUMS, R1_FREE_AFTER,
       NCHECKS };

static struct hwperf_control ctl;
static struct hwperf_counts counts;

static int acquire(const char *spec)
{
	struct hwperf_reason why;
	int r = hwperf_spec_parse(spec, hwperf_caps(), &ctl, &why);

	if (r == 0)
		r = hwperf_sys_acquire(NULL, &ctl, &why);
	if (r < 0)
		printf("bench: rules_smp: %s: %s\n", spec, why.text);
	return r;
}

static void release(void)
{
	struct hwperf_reason why;

	hwperf_sys_release(NULL, &why);
}

/* Counter 0 of cpu's block, or -errno. */
static int64_t cpu_count0(unsigned cpu)
{
	struct hwperf_reason why;
	int r = hwperf_cpu_read(NULL, (int)cpu, &counts, &why);

	if (r <= 0) {
		printf("bench: rules_smp: cpu %u: %s\n", cpu, r == 0 ? "read 0" : why.text);
		return r == 0 ? -ENODEV : r;
	}
	return (int64_t)counts.count[0];
}

static int cycles_rules(unsigned ncpus, struct bench_sample *s)
{
	int r = acquire(SPEC_CYCLES);

	if (r < 0)
		return r;
	for (unsigned cpu = 0; cpu < ncpus; cpu++) {
		int64_t a = cpu_count0(cpu), b = cpu_count0(cpu);

		if (a < 0 || b < 0) {
			release();
			return (int)(a < 0 ? a : b);
		}
		s->value[R3_EVERY_CPU] += a > 0;
		s->value[R12_LIVE] += b > a;
	}
	release();
	return 0;
}

static int sum_of_cpus(unsigned ncpus, uint64_t *sum)
{
	*sum = 0;
	for (unsigned cpu = 0; cpu < ncpus; cpu++) {
		int64_t v = cpu_count0(cpu);

		if (v < 0)
			return (int)v;
		*sum += (uint64_t)v;
	}
	return 0;
}

static int ticks_rules(unsigned ncpus, struct bench_sample *s)
{
	struct hwperf_reason why;
	uint64_t before, after;
	int r;

	if (acquire(SPEC_TICKS) < 0) {
		s->skip_checks |= 1u << R19_OWN_TICKS | 1u << R12_SUMS;
		snprintf(s->skip_checks_why, sizeof(s->skip_checks_why),
		         "the active PMU has no %s event (the software PMU's)", SPEC_TICKS);
		return 0;
	}
	/* Asleep, not spinning: CPU 0 idles in hlt, so that under -icount
	 * (one thread, round robin) the APs get their turns and their ticks
	 * on time. */
	sched_sleep_ticks(SPAN);
	for (unsigned cpu = 0; cpu < ncpus; cpu++) {
		int64_t v = cpu_count0(cpu);

		if (v < 0) {
			release();
			return (int)v;
		}
		bool own = v + TICK_SLACK >= SPAN && v <= SPAN + TICK_SLACK;

		s->value[R19_OWN_TICKS] += own;
		if (!own)
			printf("bench: rules_smp: cpu %u counted %lld ticks in %u\n", cpu,
			       (long long)v, SPAN);
	}
	r = sum_of_cpus(ncpus, &before);
	if (r == 0 && (r = hwperf_sys_read(NULL, &counts, &why)) < 0)
		printf("bench: rules_smp: %s\n", why.text);
	uint64_t total = counts.count[0];
	if (r >= 0)
		r = sum_of_cpus(ncpus, &after);
	s->value[R12_SUMS] = r >= 0 && before <= total && total <= after;
	release();
	return r < 0 ? r : 0;
}

static int measure(uint64_t n, struct bench_sample *s)
{
	unsigned ncpus = arch_cpus_online();
	int r;

	(void)n;
	if (ncpus < 2) {
		snprintf(s->skip, sizeof(s->skip),
		         "one CPU online: these rules are about several (qemu -smp 2 or more)");
		return 0;
	}
	if (hwperf_mode() != HWPERF_FREE) {
		snprintf(s->skip, sizeof(s->skip), "the PMU is not FREE (mode %s): see hwperf status",
		         hwperf_mode_name(hwperf_mode()));
		return 0;
	}
	s->value[CPUS_ONLINE] = ncpus;
	r = cycles_rules(ncpus, s);
	if (r == 0)
		r = ticks_rules(ncpus, s);
	s->value[R1_FREE_AFTER] = (uint64_t)hwperf_mode();
	return r;
}

static const struct bench rules_smp_bench = {
	.name = "rules_smp",
	.desc = "hwperf rules about CPUs (R3, R12, R19) on every online CPU",
	.default_n = 1,
	.nchecks = NCHECKS,
	.checks = {
		[CPUS_ONLINE] = { .name = "cpus-online", .kind = BENCH_NOTE },
		[R3_EVERY_CPU] = { .name = "R3-every-cpu-counts", .kind = BENCH_SAME,
		                   .ratio_of = CPUS_ONLINE },
		[R12_LIVE] = { .name = "R12-cpu-read-live", .kind = BENCH_SAME,
		               .ratio_of = CPUS_ONLINE },
		[R19_OWN_TICKS] = { .name = "R19-ticks-own-cpu", .kind = BENCH_SAME,
		                    .ratio_of = CPUS_ONLINE },
		[R12_SUMS] = { .name = "R12-sys-read-sums", .kind = BENCH_EXACT, .extra = 1 },
		[R1_FREE_AFTER] = { .name = "R1-free-after", .kind = BENCH_EXACT,
		                    .extra = HWPERF_FREE },
	},
	.measure = measure,
	.subtract_zero_run = false,
};
BENCH(rules_smp, &rules_smp_bench);
