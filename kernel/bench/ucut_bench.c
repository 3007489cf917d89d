/*
 * ucut_bench.c - user time is user time: how many kernel instructions
 * each round trip into the kernel charges to cycles:u.
 *
 * user/sysloop.c makes n null system calls in a loop of known shape
 * (arch_user_cut.sysloop_insns user instructions per call).  Under cpi=1
 * the run at n minus the run at 0 executes exactly n * sysloop_insns more
 * user instructions and n more round trips, so its cycles:u, in
 * instructions, is that plus what each round trip leaks: the kernel
 * instructions between the entry's cycle-counter read and the trap, and
 * between the exit's read and the return (kernel/arch.h arch_user_span).
 * The check bounds the leak by arch_user_cut.max_kernel_insns per round
 * trip; the leak itself is printed as an INFO line.  On MIPS, Count ticks
 * once per 6 instructions, so the ends round by one tick either way.
 *
 * syscalls:u is exactly n, so the round trips are the ones counted.
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "bench.h"
#include "bench_task.h"

#define UCUT_DEFAULT_N 10000u
#define UCUT_ARG_DIGITS 20      /* every n the same width: parsing costs the same */
#define UCUT_ARG_MAX 24
#define UCUT_SPEC "cycles:u,syscalls:u"
#define MILLI 1000
#define ROUNDING_TICKS 1

enum { UCUT_CYCLES_U, UCUT_SYSCALLS_U, UCUT_LEAK };

static struct bench ucut;

/* The cycles:u range, in cycle-counter ticks, from the machine's shape. */
static int ucut_expect(unsigned *ipt)
{
	struct bench_check *c = &ucut.checks[UCUT_CYCLES_U];

	*ipt = arch_loop_shape.insns_per_tick;
	if (*ipt == 0)
		return -EINVAL;
	c->min_milli = (int64_t)arch_user_cut.sysloop_insns * MILLI / *ipt;
	c->max_milli = (int64_t)(arch_user_cut.sysloop_insns +
				 arch_user_cut.max_kernel_insns) * MILLI / *ipt;
	c->extra = *ipt > 1 ? -ROUNDING_TICKS : 0;
	c->extra_max = *ipt > 1 ? ROUNDING_TICKS : 0;
	return 0;
}

static int ucut_measure(uint64_t n, struct bench_sample *s)
{
	static struct bench_prog p;     /* large: off the stack */
	char arg[UCUT_ARG_MAX];
	unsigned ipt;

	if (ucut_expect(&ipt) < 0)
		return -EINVAL;
	snprintf(arg, sizeof(arg), "%0*llu", UCUT_ARG_DIGITS, (unsigned long long)n);
	int r = bench_run_prog(UCUT_SPEC, "sysloop", arg, &p, NULL);
	if (r < 0)
		return r;
	static const char *const events[] = { "cycles", "syscalls" };
	int slot[2];
	r = bench_exact_slots(&p, events, slot, 2, s);
	if (r != 0)
		return r < 0 ? r : 0;
	s->value[UCUT_CYCLES_U] = p.counts.count[slot[0]];
	s->value[UCUT_SYSCALLS_U] = p.counts.count[slot[1]];
	/* The leak, in instructions: what cycles:u holds beyond the loop's
	 * own instructions (the run at 0 takes its fixed part away). */
	s->value[UCUT_LEAK] = p.counts.count[slot[0]] * ipt -
			      n * arch_user_cut.sysloop_insns;
	return 0;
}

static struct bench ucut = {
	.name = "ucut",
	.desc = "sysloop: each kernel round trip charges few kernel instructions to cycles:u",
	.default_n = UCUT_DEFAULT_N,
	.nchecks = 3,
	.checks = {
		[UCUT_CYCLES_U] = { .name = "cycles:u", .kind = BENCH_RANGE,
				    .needs = BENCH_NEEDS_CPI1 },
		[UCUT_SYSCALLS_U] = { .name = "syscalls:u", .kind = BENCH_EXACT,
				      .per_iter = 1 },
		[UCUT_LEAK] = { .name = "leak_insns", .kind = BENCH_NOTE,
				.needs = BENCH_NEEDS_CPI1 },
	},
	.measure = ucut_measure,
	.subtract_zero_run = true,
};
BENCH(ucut, &ucut);
