/*
 * hwovf N M: the overflow signal comes after exactly every N system calls
 * (R15).  The program counts its own system calls (`syscalls:u`) with
 * threshold N and signal SIGUSR1, makes M null calls, and prints where in
 * its loop each signal arrived and the final count:
 *
 *	hwovf gen=G thresh=N calls=M signals=S count=C
 *	hwovf at=A1,A2,...        loop call after which each signal came
 *
 * The handler's return (sigreturn) is a system call too, so after the
 * first signal each next one comes N - 1 loop calls later.  The read at
 * the end is counted as well: C = M + S + 1.  The counters are released
 * before anything is printed.
 */
#include <stdio.h>

#include "tally.h"
#include "tally_hwperf.h"

#define AT_MAX 64
#define SPEC_MAX 64
#define USAGE "hwovf N M"

static struct hwperf_control ctl;
static struct hwperf_counts counts;
static volatile unsigned long done;
static volatile unsigned long nsig;
static unsigned long at[AT_MAX];

static void on_overflow(int sig)
{
	(void)sig;
	if (nsig < AT_MAX)
		at[nsig] = done;
	nsig++;
}

static void print_at(void)
{
	printf("hwovf at=");
	for (unsigned long i = 0; i < nsig && i < AT_MAX; i++)
		printf(i ? ",%lu" : "%lu", at[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, USAGE);
	unsigned long m = arg_count(argc, argv, 2, USAGE);
	char spec[SPEC_MAX], why[HWP_WHY_MAX];

	/* Everything but the loop happens before counting starts. */
	snprintf(spec, sizeof(spec), "syscalls:u:thresh=%lu,sig=%d", n, SIGUSR1);
	if (hwp_parse(spec, &ctl, why, sizeof(why)) < 0) {
		printf("hwovf: %s\n", why);
		return 1;
	}
	if (signal(SIGUSR1, on_overflow) < 0)
		return 1;
	int gen = hwp_enable(0, &ctl);
	if (gen < 0) {
		printf("hwovf: enable: %s\n", errno_name(gen));
		return 1;
	}
	for (unsigned long i = 0; i < m; i++) {
		done++;
		getppid();
	}
	int r = hwp_read(0, &counts);
	if (r < 0) {
		printf("hwovf: read: %s\n", errno_name(r));
		return 1;
	}
	/* Stop counting, so the printing below raises no more signals. */
	hwp_release(0);
	printf("hwovf gen=%d thresh=%lu calls=%lu signals=%lu count=%llu\n", gen, n,
	       m, nsig, (unsigned long long)counts.count[0]);
	print_at();
	return 0;
}
