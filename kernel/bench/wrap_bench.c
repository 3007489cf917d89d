/*
 * wrap_bench.c - narrow counters (R14): on 8- and 16-bit software
 * counters that really wrap, the 64-bit virtual counts stay exact over
 * more than a thousand wraps.
 *
 * 8 bits: `sys n` under syscalls:u and cycles:u.  The system calls must
 * be exactly n + 1 (the loop and exit, user/sys.c), and cycles:u exactly
 * the user time the kernel accounted in cycles (both are cut at the same
 * kernel entries and exits).  n + 1 > 1000 * 2^8 for the default n, so
 * the syscall counter alone wraps over a thousand times.
 *
 * 16 bits: 2^16 system calls a thousand times would take minutes, so the
 * fast event is used: cycles:u over `spin m` must equal the accounted
 * user cycles, and syscalls:u exactly 1 (exit).  The spin is sized for as
 * many wraps as the 8-bit run had, (n + 1) / 256, i.e. 256 n cycles.  One
 * spin iteration is 5 instructions on Malta and 6 on x86-64 (measured:
 * `stat -e cycles:u spin N` under cpi=1 gives 0.833 Count cycles and 6
 * cycles per iteration), and under cpi=1 the cycle counter runs at
 * cycles_hz per 10^9 instructions, so m = 256 n 10^9 / (5 cycles_hz)
 * spins give 256 n to 6/5 of that in cycles: n/256 to 6n/1280 wraps.
 *
 * Checks (wraps = count / 2^width, how often the counter passed zero):
 *   w8-syscalls:u    == n + 1
 *   w8-utime-cycles  the truth for cycles (reported)
 *   w8-cycles:u      == w8-utime-cycles
 *   w8-wraps         in [1000, 4n/1000 + 1]: (n + 1) / 256 <= n/250 + 1
 *   w16-utime-cycles the truth (reported)
 *   w16-cycles:u     == w16-utime-cycles
 *   w16-syscalls:u   == 1
 *   w16-wraps        in [1000, 5n/1000] (cpi=1 only: the sizing above
 *                    holds only when cycles count instructions)
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "bench.h"
#include "bench_soft.h"
#include "bench_task.h"
#include "tools/stat_math.h"

#define WRAP_COUNTERS 2
#define NARROW 8
#define WIDE 16
#define CYCLES_PER_N 256                /* 2^16 / 2^8: as many wraps as 8 bits */
#define SPIN_INSNS_MIN 5                /* instructions per spin iteration */
#define INSNS_PER_S 1000000000ull       /* cpi=1: one instruction per ns */
#define WRAPS_MIN 1000
#define W8_WRAPS_MAX_MILLI 4            /* (n + 1) / 256 <= 4n / 1000 + 1 */
#define W16_WRAPS_MAX_MILLI 5           /* 6/5 of n / 256 <= 5n / 1000 */
#define SYS_OTHER_SYSCALLS 1            /* exit, as user/sys.c says */
#define ARGS_MAX 24
#define SPEC "syscalls:u,cycles:u"
#define SLOT_SYSCALLS 0                 /* virtual counters, in SPEC's order */
#define SLOT_CYCLES 1

enum {
	W8_SYSCALLS, W8_UTIME, W8_CYCLES, W8_WRAPS,
	W16_UTIME, W16_CYCLES, W16_SYSCALLS, W16_WRAPS, NCHECKS
};

static struct bench_prog run;           /* large: off the stack */

/* Run prog with count iterations under syscalls:u and cycles:u. */
static int run_counted(const char *prog, uint64_t count)
{
	char args[ARGS_MAX];

	snprintf(args, sizeof(args), "%llu", (unsigned long long)count);
	return bench_run_prog(SPEC, prog, args, &run, NULL);
}

/* One width: reshape, run, restore. 1 when the shape was refused. */
static int at_width(unsigned width, const char *prog, uint64_t count,
		    struct bench_sample *s)
{
	struct softpmu_config saved;

	if (!bench_soft_enter(WRAP_COUNTERS, width, &saved, s))
		return 1;
	int r = run_counted(prog, count);
	int back = bench_soft_leave(&saved);
	return r < 0 ? r : back;
}

/* Spin iterations that make at least CYCLES_PER_N * n user cycles. */
static uint64_t spin_count(uint64_t n)
{
	uint64_t hz = arch_cycles_hz();

	if (hz == 0)
		return n * CYCLES_PER_N;
	return stat_muldiv(n * CYCLES_PER_N, INSNS_PER_S, SPIN_INSNS_MIN * hz) + 1;
}

static int measure(uint64_t n, struct bench_sample *s)
{
	int r = at_width(NARROW, "sys", n, s);

	if (r)
		return r < 0 ? r : 0;
	s->value[W8_SYSCALLS] = run.counts.count[SLOT_SYSCALLS];
	s->value[W8_UTIME] = run.acct.user_cycles;
	s->value[W8_CYCLES] = run.counts.count[SLOT_CYCLES];
	s->value[W8_WRAPS] = run.counts.count[SLOT_SYSCALLS] >> NARROW;
	r = at_width(WIDE, "spin", spin_count(n), s);
	if (r)
		return r < 0 ? r : 0;
	s->value[W16_UTIME] = run.acct.user_cycles;
	s->value[W16_CYCLES] = run.counts.count[SLOT_CYCLES];
	s->value[W16_SYSCALLS] = run.counts.count[SLOT_SYSCALLS];
	s->value[W16_WRAPS] = run.counts.count[SLOT_CYCLES] >> WIDE;
	return 0;
}

static const struct bench wrap_bench = {
	.name = "wrap",
	.desc = "8- and 16-bit soft counters: 64-bit counts exact over 1000+ wraps",
	.default_n = 300000,
	.nchecks = NCHECKS,
	.checks = {
		[W8_SYSCALLS] = { .name = "w8-syscalls:u", .kind = BENCH_EXACT,
				  .per_iter = 1, .extra = SYS_OTHER_SYSCALLS },
		[W8_UTIME] = { .name = "w8-utime-cycles", .kind = BENCH_NOTE },
		[W8_CYCLES] = { .name = "w8-cycles:u", .kind = BENCH_SAME,
				.ratio_of = W8_UTIME },
		[W8_WRAPS] = { .name = "w8-wraps", .kind = BENCH_RANGE,
			       .extra = WRAPS_MIN, .max_milli = W8_WRAPS_MAX_MILLI,
			       .extra_max = SYS_OTHER_SYSCALLS },
		[W16_UTIME] = { .name = "w16-utime-cycles", .kind = BENCH_NOTE },
		[W16_CYCLES] = { .name = "w16-cycles:u", .kind = BENCH_SAME,
				 .ratio_of = W16_UTIME },
		[W16_SYSCALLS] = { .name = "w16-syscalls:u", .kind = BENCH_EXACT,
				   .extra = SYS_OTHER_SYSCALLS },
		[W16_WRAPS] = { .name = "w16-wraps", .kind = BENCH_RANGE,
				.needs = BENCH_NEEDS_CPI1, .extra = WRAPS_MIN,
				.max_milli = W16_WRAPS_MAX_MILLI },
	},
	.measure = measure,
	.subtract_zero_run = false,
};
BENCH(wrap, &wrap_bench);
