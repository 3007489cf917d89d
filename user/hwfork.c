/*
 * hwfork: counters across fork, wait and exit, as only a task itself can
 * show them.  Each part enables `syscalls:u,faults:u` afresh (enable
 * starts from zero), and children make a known number of system calls
 * (loop calls, plus the exit, plus a sleep where one is needed).  Where
 * the parent's own calls would blur a sum it releases its counters first:
 * released counts stay readable (R11) and still receive a child's.
 *
 *	r16 parent spec=S gen=G
 *	r16 child spec=S gen=G count=C      C = 1: the child's read itself
 *	r17 before=A after=B child_calls=K  waited child added: B - A = K
 *	r18 save=G before=A exited=B reaped=C child_calls=K
 *	                                    added at exit: B - A = K, C = B
 *	r6 child gen_before=G gen_after=H   H > G: lost its counters
 *	r6 acquire=G release=0 before=A after=B   lost child not added: B = A
 *	hwfork done
 */
#include <stdio.h>

#include "tally.h"
#include "tally_hwperf.h"

#define SPEC "syscalls:u,faults:u"
#define SPEC_TEXT_MAX 256
#define CHILD_CALLS 40
#define SETTLE_MS 50            /* lets the parent act before the child goes on */
#define POLL_MS 5
#define LOSE_MS 100             /* the R6 child sleeps through SYSTEM mode */
#define EXIT_CALLS 1            /* exit is a system call too */
#define SLEEP_CALLS 1
#define SYSCALLS_VCTR 0         /* SPEC puts syscalls in virtual counter 0 */

static struct hwperf_control ctl;
static struct hwperf_counts counts;
static char text[SPEC_TEXT_MAX];

static void die(const char *what, int err)
{
	printf("hwfork: %s: %s\n", what, errno_name(err));
	exit(1);
}

static int enable_spec(const char *spec)
{
	char why[HWP_WHY_MAX];

	if (hwp_parse(spec, &ctl, why, sizeof(why)) < 0) {
		printf("hwfork: %s\n", why);
		exit(1);
	}
	int gen = hwp_enable(0, &ctl);
	if (gen < 0)
		die("enable", gen);
	return gen;
}

static unsigned long long own_count(void)
{
	int r = hwp_read(0, &counts);

	if (r < 0)
		die("read", r);
	return (unsigned long long)counts.count[SYSCALLS_VCTR];
}

static const char *own_spec(int *gen)
{
	*gen = hwp_get_control(0, &ctl);
	if (*gen < 0)
		die("get control", *gen);
	hwp_format(&ctl, text, sizeof(text));
	return text;
}

static void child_calls(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		getppid();
}

static void reap(int pid)
{
	int status;
	int r = waitpid(pid, &status, 0);

	if (r != pid)
		die("waitpid", r);
}

/* R16: the child has the parent's control and counts from zero. */
static void part_fork_zero(void)
{
	int gen;

	enable_spec(SPEC);
	const char *s = own_spec(&gen);
	printf("r16 parent spec=%s gen=%d\n", s, gen);
	int pid = fork();
	if (pid == 0) {
		unsigned long long c = own_count();
		s = own_spec(&gen);
		printf("r16 child spec=%s gen=%d count=%llu\n", s, gen, c);
		exit(0);
	}
	if (pid < 0)
		die("fork", pid);
	reap(pid);
	hwp_release(0);
}

/* R17: a waited-for child's counts are added to the parent's. */
static void part_wait_adds(void)
{
	enable_spec(SPEC);
	int pid = fork();
	if (pid == 0) {
		child_calls(CHILD_CALLS);
		exit(0);
	}
	if (pid < 0)
		die("fork", pid);
	hwp_release(0);
	unsigned long long before = own_count();
	reap(pid);
	printf("r17 before=%llu after=%llu child_calls=%u\n", before, own_count(),
	       CHILD_CALLS + EXIT_CALLS);
}

static void wait_until_exited(int pid)
{
	/* A zombie cannot be signalled: kill(pid, 0) says ESRCH. */
	while (kill(pid, 0) == 0)
		sleep_ms(POLL_MS);
}

/* R18: save-child adds the child's counts when it exits, unwaited. */
static void part_save_child(void)
{
	enable_spec(SPEC);
	int pid = fork();
	if (pid == 0) {
		sleep_ms(SETTLE_MS);
		child_calls(CHILD_CALLS);
		exit(0);
	}
	if (pid < 0)
		die("fork", pid);
	int save = hwp_save_child(pid);
	hwp_release(0);
	unsigned long long before = own_count();
	wait_until_exited(pid);
	unsigned long long exited = own_count();
	reap(pid);
	printf("r18 save=%d before=%llu exited=%llu reaped=%llu child_calls=%u\n",
	       save, before, exited, own_count(),
	       SLEEP_CALLS + CHILD_CALLS + EXIT_CALLS);
}

/* R6 + R17: a child that lost its counters to SYSTEM mode adds nothing. */
static void part_lost_child(void)
{
	static struct hwperf_control sys;
	char why[HWP_WHY_MAX];

	enable_spec(SPEC);
	int pid = fork();
	if (pid == 0) {
		int g0 = hwp_read(0, &counts);
		sleep_ms(LOSE_MS);
		int g1 = hwp_read(0, &counts);
		child_calls(CHILD_CALLS);
		printf("r6 child gen_before=%d gen_after=%d\n", g0, g1);
		exit(0);
	}
	if (pid < 0)
		die("fork", pid);
	hwp_release(0);
	if (hwp_parse("syscalls:k", &sys, why, sizeof(why)) < 0)
		die("parse", -EINVAL);
	sleep_ms(SETTLE_MS);    /* the child has read its generation */
	unsigned long long before = own_count();
	int acq = hwp_sys_acquire(&sys);
	int rel = hwp_sys_release();
	reap(pid);
	printf("r6 acquire=%d release=%d before=%llu after=%llu\n", acq, rel,
	       before, own_count());
}

int main(void)
{
	part_fork_zero();
	part_wait_adds();
	part_save_child();
	part_lost_child();
	printf("hwfork done\n");
	return 0;
}
