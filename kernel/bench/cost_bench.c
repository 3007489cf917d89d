/*
 * cost_bench.c - what Tally's own paths cost, reported per operation
 * (BENCH_COST: never pass or fail), in instructions under cpi=1.
 *
 * Each row is a user program (or the boot itself) timed with the cycle
 * counter, less the same program run zero times, divided by the
 * operations it did:
 *   null_syscall   `sys n`: one getppid round trip from user mode
 *                  (the loop's own increment and branch included)
 *   ctxsw_0/2/32   `pingpong n`: one yield that switches to the other
 *                  task (2n of them), with 0, 2 and 32 virtual counters
 *                  enabled on both tasks
 *   hwread_32      `hwread n`: one SYS_hwperf READ of a 32-counter set
 *   tick           kernel time a spinning task is charged per timer tick,
 *   tick_mux       without counters, and with 32 events multiplexed on
 *                  the PMU's counters (events > counters)
 *   boot           kmain's entry to the shell (firmware and loader
 *                  excluded: under icount their length follows the host)
 *
 * Exactness: a timer tick costs thousands of instructions, so every row
 * but the tick rows starts just after a tick and is measured again when a
 * tick fell into it anyway; the tick rows place a known number of ticks
 * inside a spin and charge only the task's kernel time.  Under
 * `-icount shift=0` everything here is then a fixed instruction stream.
 *
 * Every timed run is a witness interval (witness.h), its marks just
 * inside the two cycle-counter reads: one instruction each, in the run at
 * n and in the run at zero alike, so they cancel and move no figure.
 * With the boot argument `witness`, each row prints the ids of the runs
 * it used, `witness cost row=NAME n=N id=I` (n the loop count, 0 for the
 * zero run), so the outside witness can confirm the row.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "bench.h"
#include "bench_plain.h"
#include "bench_task.h"
#include "bootargs.h"
#include "time/clock.h"
#include "proc/proc.h"
#include "proc/task.h"
#include "uabi.h"
#include "version.h"
#include "witness.h"

enum cost_row {
	ROW_NULL_SYSCALL,
	ROW_CTXSW_0,
	ROW_CTXSW_2,
	ROW_CTXSW_32,
	ROW_HWREAD_32,
	ROW_TICK,
	ROW_TICK_MUX,
	ROW_BOOT,
	ROW_COUNT
};
_Static_assert(ROW_COUNT <= BENCH_MAX_CHECKS, "one check per cost row");

/* Runs that a tick keeps interrupting are tried this often, then refused. */
#define TICK_FREE_ATTEMPTS 8
/* Timer ticks the tick rows place inside one spin. */
#define TICK_SPAN 12
/* Spin iterations that calibrate the spin's speed (well under a tick). */
#define SPIN_CALIBRATE 20000u
/* Two context switches per pingpong iteration: there and back. */
#define SWITCHES_PER_PINGPONG 2u
/* pingpong's parent also blocks once in waitpid for its child. */
#define PINGPONG_WAIT_SWITCHES 1u
/* Virtual counters of the 2- and 32-counter rows (HWPERF_NVCTR is 32). */
#define COUNTERS_FEW 2u
#define COUNTERS_ALL HWPERF_NVCTR
/* Every virtual counter counts user cycles: an event every PMU has, and
 * on the software PMU one that stays exact. */
#define SPEC_EVENT "cycles"
#define SPEC_MAX (COUNTERS_ALL * (sizeof(SPEC_EVENT) + 1))
#define NUM_MAX 24
#define NUM_DIGITS 20
/* The range run.c accepts for the cpi boot argument. */
#define CPI_MAX 1000

/* One program to time: spec NULL runs it without counters. */
struct workload {
	const char *prog;
	const char *spec;
};

struct prog_run {
	uint64_t cycles;                /* cycle counter, spawn to reap */
	uint64_t ticks;                 /* timer ticks in that time */
	struct task_acct acct;          /* the program's own */
	uint32_t witness_id;            /* the run's witness interval */
};

static const struct bench cost;

/* Boot argument `witness`: name the run a row used (see the header). */
static void show_witness(enum cost_row row, uint64_t n, const struct prog_run *r)
{
	if (witness_show())
		printf("witness cost row=%s n=%llu id=%u\n", cost.checks[row].name,
		       (unsigned long long)n, (unsigned)r->witness_id);
}

/* "cycles,cycles,..." with n events: n virtual counters in use. */
static void spec_of(unsigned n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "," : "", SPEC_EVENT);
}

static int run_counted(const char *spec, const char *prog, const char *num,
		       struct task_acct *acct)
{
	static struct bench_prog bp;    /* large: off the stack */
	int r = bench_run_prog(spec, prog, num, &bp, NULL);

	*acct = bp.acct;
	return r;
}

static int run_once(const struct workload *w, uint64_t n, struct prog_run *r)
{
	char num[NUM_MAX];

	/* Every n the same width: the kernel's work to start the program
	 * (the argument copied onto its stack) is then the same in the runs
	 * at n and at 0, and so is its own parsing. */
	snprintf(num, sizeof(num), "%0*llu", NUM_DIGITS, (unsigned long long)n);
	uint64_t t0 = clock_ticks();
	uint64_t c0 = arch_cycles();
	uint32_t id = witness_begin();
	int err = w->spec ? run_counted(w->spec, w->prog, num, &r->acct)
			  : bench_plain_run(w->prog, num, &r->acct);
	witness_end();
	r->cycles = arch_cycles() - c0;
	r->witness_id = id;
	r->ticks = clock_ticks() - t0;
	return err;
}

/* A run with no tick in it, started just after one. */
static int run_tick_free(const struct workload *w, uint64_t n, struct prog_run *r)
{
	for (unsigned i = 0; i < TICK_FREE_ATTEMPTS; i++) {
		clock_wait_tick();
		int err = run_once(w, n, r);
		if (err)
			return err;
		if (r->ticks == 0)
			return 0;
	}
	return -EAGAIN;
}

/*
 * The first run of a program at a given size pays one-time costs (first
 * use of kernel memory for it): a warm-up run, not counted, pays them.
 */
static int cost_cycles(const struct workload *w, uint64_t n, uint64_t *value,
		       struct prog_run *r)
{
	int err = run_once(w, n, r);

	if (!err)
		err = run_tick_free(w, n, r);
	*value = r->cycles;
	return err;
}

/*
 * The switch count the ctxsw rows divide by is derived, so check it where
 * it can be seen: the parent gives the CPU away at each of its n yields,
 * and once more when it waits for the child.
 */
static int pingpong_switched(const struct prog_run *r, uint64_t n)
{
	uint64_t want = n + PINGPONG_WAIT_SWITCHES;

	if (r->acct.vcsw == want)
		return 0;
	printf("cost: pingpong %llu: the parent switched %llu times, not %llu\n",
	       (unsigned long long)n, (unsigned long long)r->acct.vcsw,
	       (unsigned long long)want);
	return -EIO;
}

/*
 * Spin iterations that last TICK_SPAN and a half tick periods, from the
 * spin's speed measured over SPIN_CALIBRATE tick-free iterations: started
 * on a tick, the spin then takes exactly TICK_SPAN ticks, each half a
 * period away from its start and end.
 */
static int spin_length(const struct workload *w, uint64_t *iters)
{
	struct prog_run r0, r1;
	int err = run_tick_free(w, 0, &r0);

	if (!err)
		err = run_tick_free(w, SPIN_CALIBRATE, &r1);
	if (err)
		return err;
	if (r1.cycles <= r0.cycles || clock_hz == 0)
		return -ERANGE;
	uint64_t per_tick = arch_cycles_hz() / clock_hz;
	*iters = (2 * TICK_SPAN + 1) * per_tick * SPIN_CALIBRATE / (2 * (r1.cycles - r0.cycles));
	return 0;
}

/* Kernel time the spinning task was charged, and the ticks that caused it. */
static int cost_ticks(const struct workload *w, uint64_t n, uint64_t *value, uint64_t *ticks,
		      struct prog_run *used)
{
	struct prog_run r;
	uint64_t iters;

	r.witness_id = 0;

	*ticks = 0;
	if (n == 0) {
		int err = run_once(w, 0, &r);          /* warm-up, as cost_cycles */
		if (!err)
			err = run_tick_free(w, 0, &r);
		*value = r.acct.sys_cycles;
		*used = r;
		return err;
	}
	int err = spin_length(w, &iters);

	if (!err)
		err = run_once(w, iters, &r);          /* warm-up, as cost_cycles */
	for (unsigned i = 0; !err && i < TICK_FREE_ATTEMPTS; i++) {
		clock_wait_tick();
		err = run_once(w, iters, &r);
		if (!err && r.ticks == TICK_SPAN) {
			*value = r.acct.sys_cycles;
			*ticks = r.ticks;
			*used = r;
			return 0;
		}
	}
	/* Under cpi=1 the spin is a fixed stream: missing the span is a bug. */
	return err ? err : -ERANGE;
}

/*
 * Without cpi=1 the cycle counter follows the host: a run of a few
 * hundred thousand instructions then takes longer than a tick period, so
 * no run is ever tick-free and no number would mean anything.
 */
static bool exact_here(struct bench_sample *s)
{
	if (bootarg_u64("cpi", 0, 0, CPI_MAX) == 1)
		return true;
	snprintf(s->skip, sizeof(s->skip),
		 "costs are exact only with boot argument cpi=1 (qemu -icount shift=0)");
	return false;
}

/* The rows timed from spawn to reap: syscall, switches, counter read. */
static int measure_paths(uint64_t n, struct bench_sample *s, const char *spec_few,
			 const char *spec_all)
{
	const struct workload sys = { "sys", NULL };
	const struct workload pp[] = {
		{ "pingpong", NULL }, { "pingpong", spec_few }, { "pingpong", spec_all },
	};
	const struct workload rd = { "hwread", spec_all };
	struct prog_run r;
	int err = cost_cycles(&sys, n, &s->value[ROW_NULL_SYSCALL], &r);

	if (!err)
		show_witness(ROW_NULL_SYSCALL, n, &r);
	for (unsigned i = 0; !err && i < sizeof(pp) / sizeof(pp[0]); i++) {
		err = cost_cycles(&pp[i], n, &s->value[ROW_CTXSW_0 + i], &r);
		if (!err)
			err = pingpong_switched(&r, n);
		if (!err)
			show_witness(ROW_CTXSW_0 + i, n, &r);
		s->ops[ROW_CTXSW_0 + i] = SWITCHES_PER_PINGPONG * n;
	}
	if (!err)
		err = cost_cycles(&rd, n, &s->value[ROW_HWREAD_32], &r);
	if (!err)
		show_witness(ROW_HWREAD_32, n, &r);
	return err;
}

static int measure(uint64_t n, struct bench_sample *s)
{
	static char spec_few[SPEC_MAX], spec_all[SPEC_MAX];
	const struct workload spin = { "spin", NULL };
	const struct workload spin_mux = { "spin", spec_all };
	struct prog_run r;

	if (!exact_here(s))
		return 0;
	spec_of(COUNTERS_FEW, spec_few, sizeof(spec_few));
	spec_of(COUNTERS_ALL, spec_all, sizeof(spec_all));
	int err = measure_paths(n, s, spec_few, spec_all);
	if (!err)
		err = cost_ticks(&spin, n, &s->value[ROW_TICK], &s->ops[ROW_TICK], &r);
	if (!err)
		show_witness(ROW_TICK, n, &r);
	if (!err)
		err = cost_ticks(&spin_mux, n, &s->value[ROW_TICK_MUX], &s->ops[ROW_TICK_MUX], &r);
	if (!err)
		show_witness(ROW_TICK_MUX, n, &r);
	/* Boot happened once: the run at n has it, the zero run has none. */
	s->value[ROW_BOOT] = n ? boot_kernel_cycles() : 0;
	s->ops[ROW_BOOT] = n ? 1 : 0;
	if (err == -EAGAIN) {
		bench_skip_too_long(s, n);
		return 0;
	}
	return err;
}

static const struct bench cost = {
	.name = "cost",
	.desc = "costs per operation (reported): syscall, switch, counter read, tick, boot",
	.default_n = 300,
	.nchecks = ROW_COUNT,
	.checks = {
		[ROW_NULL_SYSCALL] = { .name = "null_syscall", .kind = BENCH_COST },
		[ROW_CTXSW_0] = { .name = "ctxsw_0", .kind = BENCH_COST },
		[ROW_CTXSW_2] = { .name = "ctxsw_2", .kind = BENCH_COST },
		[ROW_CTXSW_32] = { .name = "ctxsw_32", .kind = BENCH_COST },
		[ROW_HWREAD_32] = { .name = "hwread_32", .kind = BENCH_COST },
		[ROW_TICK] = { .name = "tick", .kind = BENCH_COST },
		[ROW_TICK_MUX] = { .name = "tick_mux", .kind = BENCH_COST },
		[ROW_BOOT] = { .name = "boot", .kind = BENCH_COST },
	},
	.measure = measure,
	.subtract_zero_run = true,
};
BENCH(cost, &cost);
