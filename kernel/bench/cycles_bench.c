/*
 * cycles_bench.c - cycle counts of loops of known shape, in kernel mode
 * (kloop) and in user mode (uloop), checked at cpi=1.
 *
 * Both run the loop of kernel/arch.h's arch_loop_shape: `insns`
 * instructions per iteration.  Under cpi=1 (qemu -icount shift=0) the
 * cycle counter advances once per `insns_per_tick` instructions (1 on
 * x86's TSC, 6 on MIPS's Count; docs/design/platforms.md), so an
 * iteration costs insns / insns_per_tick ticks: 5 on x86_64, 1 on MIPS.
 * The expectation is that times n; the framework subtracts the run at 0,
 * which carries every fixed cost.  kloop is exact on both machines (see
 * arch/<arch>/bench_loop.* for how MIPS's Count phase is made not to
 * matter); uloop is exact on x86 and within one Count tick on MIPS (see
 * uloop_expect).
 *
 * The per-iteration tick count is the machine's, so it is filled in from
 * arch_loop_shape before each run rather than written into the tables.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "arch.h"
#include "bench.h"
#include "bench_task.h"
#include "time/clock.h"
#include "loop_expect.h"

#define KLOOP_DEFAULT_N 200000u  /* 1M instructions on x86, 1.2M on MIPS */
#define ULOOP_DEFAULT_N 50000u   /* 250k / 300k instructions: well inside a tick even at hz=1000 */
#define LOOP_ARG_DIGITS 20       /* every n passed as 20 digits: parsing costs the same */
#define LOOP_ARG_MAX 24
#define ULOOP_SPEC "cycles:u,ticks:u"

/* ---- kloop: the loop in kernel mode, interrupts off ------------------------- */

static struct bench kloop;

/*
 * Interrupts are off around the loop: nothing but the loop runs between
 * the two cycle-counter reads.  The routine's result is 32 bits wide, so
 * n is bounded to keep n iterations' ticks below 2^31.
 */
static int kloop_measure(uint64_t n, struct bench_sample *s)
{
	static uint32_t cell;
	int64_t per = loop_ticks_per_iter(&arch_loop_shape);
	uint64_t max_n = loop_max_n(INT32_MAX, per);

	if (per == 0)
		return -EINVAL;
	loop_expect_cycles(&kloop.checks[0], &arch_loop_shape, true);
	if (n > max_n) {
		snprintf(s->skip, sizeof(s->skip), "n=%llu: the loop's ticks would not fit "
			 "31 bits; use n <= %llu", (unsigned long long)n,
			 (unsigned long long)max_n);
		return 0;
	}
	cell = 0;
	irqflags_t f = arch_irq_save();
	uint32_t ticks = arch_bench_loop((uint32_t)n, &cell);
	arch_irq_restore(f);
	if (cell != (uint32_t)n)
		return -EIO;            /* the loop did not run n times */
	s->value[0] = ticks;
	return 0;
}

static struct bench kloop = {
	.name = "kloop",
	.desc = "cycles of a known kernel-mode loop (arch_bench_loop), exact at cpi=1",
	.default_n = KLOOP_DEFAULT_N,
	.nchecks = 1,
	.checks = {
		{ .name = "cycles", .kind = BENCH_EXACT, .needs = BENCH_NEEDS_CPI1 },
	},
	.measure = kloop_measure,
	.subtract_zero_run = true,
};
BENCH(kloop, &kloop);

/* ---- uloop: the loop in user mode (user/loop.c) ------------------------------ */

/*
 * `loop N` runs under cycles:u and ticks:u (bench_run_prog, the console's
 * per-task counters).  The program restarts its counters itself right
 * after a one-tick nap, so the counts cover one user-mode stretch: the
 * loop and the few fixed instructions to its exit system call.
 *
 * cycles:u: the loop's ticks, n x per-iteration (see uloop_expect).
 *
 * ticks:u == 0: what the loop adds to kernel time.  A user-mode loop that
 * makes no system call and touches only memory it touched before enters
 * the kernel only by interrupt, and the only interrupt source while it
 * runs is the timer (the console is idle).  The stretch starts just
 * after a tick and the loop is bounded to half a timer period
 * (uloop_fits), so no tick lands in it, and it adds exactly nothing to
 * cycles:k beyond the exit the run at 0 has too.  cycles:k itself cannot
 * be asked of one task: a k-mode event makes the request system-wide
 * (R3/R4) and would count the console's and every other kernel path.
 */

static struct bench uloop;

enum { ULOOP_CYCLES_U, ULOOP_TICKS_U };

/* Cycle-counter ticks between two timer ticks, 0 if unknown. */
static uint64_t cycles_per_timer_tick(void)
{
	return clock_hz ? arch_cycles_hz() / clock_hz : 0;
}

/*
 * The program starts its counted stretch right after a timer tick (user/
 * loop.c), so a loop that fits in half a timer period takes no interrupt:
 * the other half is ample room for the wake-up, the counter restart and
 * the exit, a few thousand cycles.  Longer loops would take ticks, whose
 * entries split the counted stretch; the checks are not derived for that.
 */
static bool uloop_fits(uint64_t n, int64_t per, struct bench_sample *s)
{
	uint64_t half = cycles_per_timer_tick() / 2;
	uint64_t max_n = loop_max_n(half, per);

	if (n <= max_n)
		return true;
	snprintf(s->skip, sizeof(s->skip), "n=%llu: the loop must fit in half a timer "
		 "period (%llu cycles); use n <= %llu", (unsigned long long)n,
		 (unsigned long long)half, (unsigned long long)max_n);
	return false;
}

/*
 * What the loop's cycles:u can be, given the machine.  The counted stretch
 * is bounded by the two cycle-counter reads of the entry and exit
 * assembly (kernel/arch.h arch_user_span): at the return to user mode
 * after the program restarts its counters, and at its exit system call.
 * With one tick per instruction (x86) the difference of the runs at n and
 * at 0 is exact.  With one tick per 6 instructions (MIPS) each read
 * truncates, and the Count phase at which the stretch starts is not the
 * same from run to run: even under -icount sleep=off the idle clock's jump
 * to the tick's deadline lands at a phase that depends on when Compare was
 * written.  The stretch at 0 is not a whole number of Count ticks long, so
 * each run rounds it either way, and the difference is n - 1, n or n + 1.
 * (Measured: 12 runs of `stat -e cycles:u loop 0` gave 8 ticks twice and
 * 9 ten times; the whole stretch is exact only when its length happens to
 * be a multiple of 6 instructions, which nothing in the program controls.)
 */
static void uloop_expect(void)
{
	loop_expect_cycles(&uloop.checks[ULOOP_CYCLES_U], &arch_loop_shape, false);
}

static int uloop_measure(uint64_t n, struct bench_sample *s)
{
	static struct bench_prog p;     /* large: off the stack */
	char arg[LOOP_ARG_MAX];
	int64_t per = loop_ticks_per_iter(&arch_loop_shape);

	if (per == 0)
		return -EINVAL;
	uloop_expect();
	if (!uloop_fits(n, per, s))
		return 0;
	snprintf(arg, sizeof(arg), "%0*llu", LOOP_ARG_DIGITS, (unsigned long long)n);
	int r = bench_run_prog(ULOOP_SPEC, "loop", arg, &p, NULL);
	if (r < 0)
		return r;
	static const char *const events[] = { "cycles", "ticks" };
	int slot[2];
	r = bench_exact_slots(&p, events, slot, 2, s);
	if (r != 0)
		return r < 0 ? r : 0;
	s->value[ULOOP_CYCLES_U] = p.counts.count[slot[0]];
	s->value[ULOOP_TICKS_U] = p.counts.count[slot[1]];
	return 0;
}

static struct bench uloop = {
	.name = "uloop",
	.desc = "cycles:u of a known user-mode loop (user/loop.c) at cpi=1; no tick in it",
	.default_n = ULOOP_DEFAULT_N,
	.nchecks = 2,
	.checks = {
		[ULOOP_CYCLES_U] = { .name = "cycles:u", .kind = BENCH_EXACT,
				     .needs = BENCH_NEEDS_CPI1 },
		[ULOOP_TICKS_U] = { .name = "ticks:u", .kind = BENCH_EXACT,
				    .needs = BENCH_NEEDS_CPI1 },
	},
	.measure = uloop_measure,
	.subtract_zero_run = true,
};
BENCH(uloop, &uloop);
