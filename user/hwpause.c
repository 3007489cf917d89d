/*
 * hwpause N: perfmon's pause/resume/reset and pctr's read from a task on
 * its own counters (syscalls:u, which counts exactly: one per system call,
 * taken at the call's entry, so a call counts itself when counting is on
 * as it enters).  Prints the numbers; tests/system/test_hwperf_pctr.py
 * checks them against the rules in docs/hwperf.md:
 *
 *	hwpause gen=G pause_gen=G resume_gen=G reset_gen=G2
 *	hwpause a=A b=B c=C d=D e=E calls=N
 *	hwpctr gen=G cycles1=C1 cycles2=C2 idle1=I1 idle2=I2 iter1=K1 iter2=K2
 *	       ncpus=P count1=X count2=Y          (one line)
 *	hwpause NAME=ENAME ok|FAIL                 (refusals, then)
 *	hwpause failures=F
 *
 * a: after N calls; b: after pausing and N more calls; c: right after b;
 * d: after resuming and N more; e: right after a reset.
 */
#include <stdbool.h>
#include <stdio.h>

#include "tally.h"
#include "tally_hwperf.h"

#define NAP_MS 30
#define NO_SUCH_PID 30000
#define BAD_ARG ((const void *)0x10)

static struct hwperf_control ctl;
static struct hwperf_counts counts;
static struct hwperf_pctr p1, p2;
static int failures;

static void calls(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		getppid();
}

static unsigned long long count0(void)
{
	if (hwp_read(0, &counts) < 0)
		return ~0ull;
	return (unsigned long long)counts.count[0];
}

static void expect(const char *name, long got, long want)
{
	bool ok = got == want;

	printf("hwpause %s=%s %s\n", name, got < 0 ? errno_name((int)got) : "ok",
	       ok ? "ok" : "FAIL");
	if (!ok)
		failures++;
}

static void pause_resume_reset(unsigned long n)
{
	int gen = hwp_enable(0, &ctl);

	calls(n);
	unsigned long long a = count0();
	int pgen = hwp_pause(0);
	calls(n);
	unsigned long long b = count0();
	unsigned long long c = count0();
	int rgen = hwp_resume(0);
	calls(n);
	unsigned long long d = count0();
	int zgen = hwp_reset(0);
	unsigned long long e = count0();

	printf("hwpause gen=%d pause_gen=%d resume_gen=%d reset_gen=%d\n", gen, pgen,
	       rgen, zgen);
	printf("hwpause a=%llu b=%llu c=%llu d=%llu e=%llu calls=%lu\n", a, b, c, d, e, n);
}

static void pctr(void)
{
	int g1 = hwp_pctr_read(0, &p1);

	sleep_ms(NAP_MS);       /* the idle task runs meanwhile */
	int g2 = hwp_pctr_read(0, &p2);

	printf("hwpctr gen1=%d gen2=%d cycles1=%llu cycles2=%llu idle1=%llu idle2=%llu "
	       "iter1=%llu iter2=%llu ncpus=%u count1=%llu count2=%llu\n", g1, g2,
	       (unsigned long long)p1.cycles, (unsigned long long)p2.cycles,
	       (unsigned long long)p1.idle_cycles, (unsigned long long)p2.idle_cycles,
	       (unsigned long long)p1.idle_iterations,
	       (unsigned long long)p2.idle_iterations, (unsigned)p2.ncpus,
	       (unsigned long long)p1.counts.count[0],
	       (unsigned long long)p2.counts.count[0]);
}

static void refusals(void)
{
	expect("pause_nopid", hwp_pause(NO_SUCH_PID), -ESRCH);
	expect("resume_nopid", hwp_resume(NO_SUCH_PID), -ESRCH);
	expect("reset_nopid", hwp_reset(NO_SUCH_PID), -ESRCH);
	expect("pctr_nopid", hwp_pctr_read(NO_SUCH_PID, &p1), -ESRCH);
	expect("pause_arg", hwp_call(HWPERF_OP_PAUSE, 0, BAD_ARG, NULL), -EINVAL);
	expect("resume_arg2", hwp_call(HWPERF_OP_RESUME, 0, NULL, BAD_ARG), -EINVAL);
	expect("reset_arg", hwp_call(HWPERF_OP_RESET, 0, BAD_ARG, NULL), -EINVAL);
	expect("pctr_null", hwp_pctr_read(0, NULL), -EFAULT);
	expect("pctr_low", hwp_pctr_read(0, (struct hwperf_pctr *)BAD_ARG), -EFAULT);
	expect("pctr_arg2", hwp_call(HWPERF_OP_PCTR_READ, 0, &p1, BAD_ARG), -EINVAL);
	expect("pause_negid", hwp_call(HWPERF_OP_PAUSE, -1, NULL, NULL), -EINVAL);
	/* Released: nothing to pause, resume or reset; still readable (R11). */
	int gen = hwp_release(0);
	expect("pause_released", hwp_pause(0), -EINVAL);
	expect("resume_released", hwp_resume(0), -EINVAL);
	expect("reset_released", hwp_reset(0), -EINVAL);
	expect("pctr_released", hwp_pctr_read(0, &p1), gen);
}

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "hwpause N");
	char why[HWP_WHY_MAX];

	if (hwp_parse("syscalls:u", &ctl, why, sizeof(why)) < 0) {
		printf("hwpause: %s\n", why);
		return 1;
	}
	pause_resume_reset(n);
	pctr();
	refusals();
	printf("hwpause failures=%d\n", failures);
	return failures ? 1 : 0;
}
