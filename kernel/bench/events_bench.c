/*
 * events_bench.c - exact kernel-event counts of programs that make a
 * known number of each event: system calls, page faults, voluntary
 * context switches, signals and (MIPS) TLB refills.
 *
 * Each count is checked twice where the kernel keeps the same figure two
 * ways: the software PMU's count and the task's own accounting
 * (bench_prog.acct / waitpid's), which are fed by different code.
 *
 * User-mode events (syscalls, faults, tlb-refills) are counted on the
 * program itself (bench_run_prog).  The software PMU reports context
 * switches and signal deliveries in kernel mode (softpmu.h), and k mode
 * counts only system-wide (R3), so those two are counted system-wide
 * around the program's run; the console's own switches then add a fixed
 * overhead, which the zero run removes.
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "bench.h"
#include "bench_plain.h"
#include "bench_task.h"
#include "derive.h"

#define ARGS_MAX 32

/* Documented by each program (user/NAME.c and docs/tasks.md). */
#define SYS_OTHER_SYSCALLS 1    /* sys N: N calls, then exit */
#define TOUCH_SYSCALLS 3        /* touch N: brk, brk, exit */

static struct bench_prog prog;         /* large: off the stack */

/* Run prog with argument n under spec; fill value[i] with the count of
 * events[i] (NULL-terminated).  -errno if it could not measure. */
static int run_counted(const char *spec, const char *name, uint64_t n,
		       const char *const *events, struct bench_sample *s)
{
	char args[ARGS_MAX];
	unsigned i;

	snprintf(args, sizeof(args), "%llu", (unsigned long long)n);
	int r = bench_run_prog(spec, name, args, &prog, NULL);
	if (r < 0)
		return r;
	for (i = 0; events[i]; i++) {
		int slot = bench_slot(&prog, events[i]);
		if (slot < 0)
			return -EINVAL;
		s->value[i] = prog.counts.count[slot];
		/* More events than counters: counts are scaled, never exact. */
		if (prog.counts.running[slot] != prog.counts.enabled[slot])
			snprintf(s->skip, sizeof(s->skip), "%s was multiplexed (more "
				 "events than counters): its count is not exact", events[i]);
	}
	return (int)i;
}

/* ---- system calls: sys N ------------------------------------------------ */

static int measure_syscalls(uint64_t n, struct bench_sample *s)
{
	static const char *const ev[] = { "syscalls", NULL };
	int i = run_counted("syscalls:u", "sys", n, ev, s);

	if (i < 0)
		return i;
	s->value[i] = prog.acct.syscalls;
	return 0;
}

static const struct bench sys_calls = {
	.name = "sys_calls",
	.desc = "sys N under syscalls:u counts N + 1 (exit), as the task's accounting does",
	.default_n = 1000,
	.nchecks = 2,
	.checks = {
		{ .name = "syscalls", .kind = BENCH_EXACT, .per_iter = 1,
		  .extra = SYS_OTHER_SYSCALLS },
		{ .name = "acct_syscalls", .kind = BENCH_EXACT, .per_iter = 1,
		  .extra = SYS_OTHER_SYSCALLS },
	},
	.measure = measure_syscalls,
	.subtract_zero_run = false,
};
BENCH(sys_calls, &sys_calls);

/* ---- page faults: touch N ----------------------------------------------- */

static int measure_faults(uint64_t n, struct bench_sample *s)
{
	static const char *const ev[] = { "faults", "syscalls", NULL };
	int i = run_counted("faults:u,syscalls:u", "touch", n, ev, s);

	if (i < 0)
		return i;
	s->value[i] = prog.acct.faults;
	return 0;
}

static const struct bench page_faults = {
	.name = "page_faults",
	.desc = "touch N under faults:u counts N faults and 3 system calls, not one more",
	.default_n = 100,
	.nchecks = 3,
	.checks = {
		{ .name = "faults", .kind = BENCH_EXACT, .per_iter = 1 },
		{ .name = "syscalls", .kind = BENCH_EXACT, .extra = TOUCH_SYSCALLS },
		{ .name = "acct_faults", .kind = BENCH_EXACT, .per_iter = 1 },
	},
	.measure = measure_faults,
	.subtract_zero_run = false,
};
BENCH(page_faults, &page_faults);

/* ---- voluntary switches and signals: counted system-wide ---------------- */

static int measure_sys_event(const char *spec, const char *name, uint64_t n,
			     bool vcsw, struct bench_sample *s)
{
	struct task_acct acct = { 0 };
	char args[ARGS_MAX];

	snprintf(args, sizeof(args), "%llu", (unsigned long long)n);
	int r = bench_sys_count(spec, name, args, &s->value[0], &acct, s);
	if (r < 0)
		printf("bench: %s %s under %s: %s\n", name, args, spec, errno_name(r));
	s->value[1] = vcsw ? acct.vcsw : acct.signals;
	return r;
}

static int measure_csw(uint64_t n, struct bench_sample *s)
{
	return measure_sys_event("csw-vol:k", "yield", n, true, s);
}

static const struct bench csw_vol = {
	.name = "csw_vol",
	.desc = "yield N: N voluntary switches more than yield 0 (system-wide csw-vol:k)",
	.default_n = 100,
	.nchecks = 2,
	.checks = {
		{ .name = "csw_vol", .kind = BENCH_EXACT, .per_iter = 1 },
		{ .name = "acct_vcsw", .kind = BENCH_EXACT, .per_iter = 1 },
	},
	.measure = measure_csw,
	.subtract_zero_run = true,
};
BENCH(csw_vol, &csw_vol);

static int measure_signals(uint64_t n, struct bench_sample *s)
{
	return measure_sys_event("signals:k", "sigs", n, false, s);
}

static const struct bench signals = {
	.name = "signals",
	.desc = "sigs N: N signals delivered more than sigs 0 (system-wide signals:k)",
	.default_n = 50,
	.nchecks = 2,
	.checks = {
		{ .name = "signals", .kind = BENCH_EXACT, .per_iter = 1 },
		{ .name = "acct_signals", .kind = BENCH_EXACT, .per_iter = 1 },
	},
	.measure = measure_signals,
	.subtract_zero_run = true,
};
BENCH(signals, &signals);

/* ---- TLB refills: tlbcycle (MIPS) --------------------------------------- */

/*
 * One iteration is one round of the refill ring: R stores to pairs not in
 * the TLB (R refills) plus the one refetch of the loop's code pair that
 * the ring's wrap costs (user/tlbcycle.c).  Whole rounds keep the code
 * pair's place in the ring the same at the loop's end as at its start, so
 * the program's setup and exit take the same refills at every n.
 */
static int measure_tlb(uint64_t n, struct bench_sample *s)
{
	static const char *const ev[] = { "tlb-refills", NULL };
	unsigned ring = arch_tlb_refill_ring();

	if (ring == 0) {
		snprintf(s->skip, sizeof(s->skip), "%s walks page tables in hardware: "
			 "the kernel sees no TLB refill", arch_name());
		return 0;
	}
	if (ring != TLB_RING_DERIVED) {
		snprintf(s->skip, sizeof(s->skip), "the expectation is derived for a "
			 "%u-entry refill ring; this CPU's is %u", TLB_RING_DERIVED, ring);
		return 0;
	}
	int i = run_counted("tlb-refills:u", "tlbcycle", n * ring, ev, s);
	if (i < 0)
		return i;
	s->value[i] = prog.acct.tlb_user;
	return 0;
}

static const struct bench tlb_refills = {
	.name = "tlb_refills",
	.desc = "tlbcycle: each round of the 16-entry refill ring costs 17 refills (MIPS)",
	.default_n = 10,
	.nchecks = 2,
	.checks = {
		{ .name = "tlb_refills", .kind = BENCH_EXACT,
		  .per_iter = TLB_REFILLS_PER_ROUND(TLB_RING_DERIVED) },
		{ .name = "acct_tlb_user", .kind = BENCH_EXACT,
		  .per_iter = TLB_REFILLS_PER_ROUND(TLB_RING_DERIVED) },
	},
	.measure = measure_tlb,
	.subtract_zero_run = true,
};
BENCH(tlb_refills, &tlb_refills);
