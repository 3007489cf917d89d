/*
 * uread: reading one's own counters without a system call (the read page,
 * kernel/hwperf/abi.h), checked against the system call read.
 *
 *	uread N [exact] [mux]   N rounds of: fast read, system call read,
 *	                        fast, fast, getpid, fast; then 100N fast reads
 *	                        back to back, more until 16 kernel exits came
 *	                        between them.  Exit 0 when every check held.
 *	uread fault             the guarded read (x86 rdpmc, MIPS RDHWR $2)
 *	                        without mapping: the kernel kills us
 *	uread guarded           the guarded read after mapping: allowed
 *	uread fork              map, fork: the child does not inherit the
 *	                        page, so its guarded read kills it
 *	uread bad               bad calls of the map operation change nothing
 *
 * Counters: cycles:u (slot 0, read live from the cycle counter) and
 * syscalls:u (slot 1, changes only in the kernel); `mux` adds ticks:u, so
 * three events share the software PMU's two counters and rotate.
 *
 * Checks, each round (fast f1, system call s, fast f2, f3, getpid, f4):
 *  - every counter: f1 <= s <= f2 <= f3 <= f4, and never below the round
 *    before (monotonic, never below a preceding system call read);
 *  - counters the kernel alone moves (all but cycles:u): f2 == s == f3;
 *    without mux, syscalls:u also f1 + 1 == s (the read counts itself);
 *  - with `exact` (cpi=1: one cycle-counter tick per instruction on x86,
 *    one per 6 on MIPS), cycles:u: f2 - s is at most f4 - f3, plus one
 *    tick of rounding.  f2 - s is what user time gains from the moment
 *    the read samples its count to f2's cycle-counter read: the kernel's
 *    exit path after it cuts user time, the return to the caller and the
 *    start of a fast read.  f4 - f3 holds all of that for getpid (the
 *    same exit path and returns, plus its entry path) and the rest of the
 *    read f3 besides.  A fast read that lagged or ran ahead of the
 *    kernel's count by more than its own path would break it.
 * The cycle bounds use only stretches where the sequence shows no kernel
 * exit but the call's own (a tick in between adds its own exit path).
 * A read whose result buffer is on a fresh heap page faults inside its
 * window and must retry exactly once.
 * The back-to-back reads run while a competitor is preempting us; each
 * read that a tick or a switch interrupted must have retried (the
 * sequence moved), every value stays monotonic, and retries never exceed
 * the kernel exits the sequence counted.
 *
 * Prints:
 *	uread map gen=G
 *	uread fault_retry retries=1
 *	uread run rounds=N reads=R retries=T fails=F
 *	uread hammer reads=H retries=T kernel_exits=K
 *	uread last fast=A,B sys=C,D
 *	uread cycles gap_max=G read_min=D null_min=U exact=E
 *	uread cost fast=X syscall=Y     (cycle counter across one call, min)
 *	uread sched ivcsw=I
 */
#include <stdio.h>
#include <string.h>

#include "tally.h"
#include "tally_hwperf.h"

#define CYC 0                   /* slot of cycles:u */
#define SYS 1                   /* slot of syscalls:u */
#define HAMMER_PER_ROUND 100
#define HAMMER_EXITS 16
#define FAIL_LINES_MAX 8
#define NO_READ_YET (~(uint64_t)0)
#define ROUNDING_TICKS 1        /* a cycle counter slower than instructions */
#define BAD_ID 1
#define USAGE "uread N [exact] [mux] | fault | guarded | fork | bad"

static struct hwperf_control ctl;
static struct hwperf_counts sc;
static struct hwperf_rusage ru;
static struct hwp_uread f1, f2, f3, f4, prev;

struct stats {
	unsigned long fails;
	unsigned long reads;
	uint64_t gap_max;
	uint64_t read_min;
	uint64_t null_min;
	uint64_t cost_fast;
	uint64_t cost_sys;
	unsigned long hammer_reads;
	unsigned hammer_retries;
	unsigned hammer_exits;
	int exact;
	int mux;
	uint32_t used;
};

static struct stats st = {
	.read_min = NO_READ_YET, .null_min = NO_READ_YET, .cost_fast = NO_READ_YET, .cost_sys = NO_READ_YET,
};

static void fail(unsigned long round, const char *what, uint64_t a, uint64_t b)
{
	if (st.fails++ < FAIL_LINES_MAX)
		printf("uread FAIL round=%lu %s a=%llu b=%llu\n", round, what,
		       (unsigned long long)a, (unsigned long long)b);
}

/* A fast read that must succeed; returns how often it retried. */
static unsigned fast(struct hwp_uread *r, unsigned long round)
{
	unsigned before = r->retries;
	int g = hwp_uread(r);

	st.reads++;
	if (g <= 0)
		fail(round, "uread-returned", (uint64_t)(int64_t)g, 0);
	return r->retries - before;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static void check_order(unsigned long round)
{
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!(st.used & (1u << i)))
			continue;
		if (f1.count[i] < prev.count[i])
			fail(round, "f1<previous", f1.count[i], prev.count[i]);
		if (f1.count[i] > sc.count[i])
			fail(round, "f1>syscall", f1.count[i], sc.count[i]);
		if (sc.count[i] > f2.count[i])
			fail(round, "syscall>f2", sc.count[i], f2.count[i]);
		if (f2.count[i] > f3.count[i] || f3.count[i] > f4.count[i])
			fail(round, "f2>f3>f4", f2.count[i], f4.count[i]);
		if (i != CYC && (f2.count[i] != sc.count[i] ||
		                 f3.count[i] != sc.count[i]))
			fail(round, "kernel-only-count-moved", sc.count[i],
			     f2.count[i]);
	}
	if (!st.mux && f1.count[SYS] + 1 != sc.count[SYS])
		fail(round, "syscalls-f1+1!=syscall", f1.count[SYS], sc.count[SYS]);
}

/* Seq moves by this much per kernel exit (abi.h: odd while writing). */
#define SEQ_PER_EXIT 2u

/* One round: fast, system call read, fast, fast, null call, fast.  The
 * cycle bounds use only stretches with no kernel exit but the call's. */
static void round_once(unsigned long round)
{
	fast(&f1, round);
	if (hwp_read(0, &sc) <= 0)
		fail(round, "read-syscall", 0, 0);
	fast(&f2, round);
	fast(&f3, round);
	getpid();
	fast(&f4, round);
	check_order(round);
	if (f2.seq == f1.seq + SEQ_PER_EXIT &&
	    f2.count[CYC] - sc.count[CYC] > st.gap_max)
		st.gap_max = f2.count[CYC] - sc.count[CYC];
	if (f3.seq == f2.seq)
		st.read_min = min64(st.read_min, f3.count[CYC] - f2.count[CYC]);
	if (f4.seq == f3.seq + SEQ_PER_EXIT)
		st.null_min = min64(st.null_min, f4.count[CYC] - f3.count[CYC]);
	prev = f4;
}

/* What each kind of read costs the caller, kernel time included. */
static void measure_costs(unsigned long n)
{
	for (unsigned long k = 0; k < n; k++) {
		uint64_t t0 = hwp_ucycles();
		hwp_uread(&f1);
		uint64_t t1 = hwp_ucycles();
		hwp_read(0, &sc);
		uint64_t t2 = hwp_ucycles();

		st.cost_fast = min64(st.cost_fast, t1 - t0);
		st.cost_sys = min64(st.cost_sys, t2 - t1);
	}
}

/*
 * Back-to-back reads, at least n and until the sequence has shown
 * HAMMER_EXITS kernel exits (ticks come whatever we do, so this ends).
 * Each retry needs a kernel exit of its own in between, so retries never
 * exceed the exits; the loop is little more than the read, so most exits
 * land inside one and force a retry.
 */
static void hammer(unsigned long n)
{
	unsigned before = f1.retries;
	unsigned long k;
	uint32_t seq0;

	fast(&f1, 0);
	seq0 = f1.seq;
	for (k = 0; k < n || (f1.seq - seq0) / SEQ_PER_EXIT < HAMMER_EXITS; k++) {
		prev = f1;
		fast(&f1, k);
		for (uint32_t m = st.used; m; m &= m - 1) {
			unsigned i = (unsigned)__builtin_ctz(m);

			if (f1.count[i] < prev.count[i])
				fail(k, "hammer-not-monotonic", f1.count[i],
				     prev.count[i]);
		}
	}
	st.hammer_reads = k;
	st.hammer_retries = f1.retries - before;
	st.hammer_exits = (f1.seq - seq0) / SEQ_PER_EXIT;
	if (st.hammer_retries > st.hammer_exits)
		fail(n, "retries>kernel-exits", st.hammer_retries, st.hammer_exits);
	prev = f1;
}

static int setup_counters(void)
{
	char why[HWP_WHY_MAX];
	const char *spec = st.mux ? "cycles:u,syscalls:u,ticks:u"
	                          : "cycles:u,syscalls:u";
	int gen;

	if (hwp_parse(spec, &ctl, why, sizeof(why)) < 0) {
		printf("uread: %s\n", why);
		return -EINVAL;
	}
	gen = hwp_enable(0, &ctl);
	if (gen < 0) {
		printf("uread: enable: %s\n", errno_name(gen));
		return gen;
	}
	gen = hwp_map();
	printf("uread map gen=%d\n", gen);
	return gen;
}

/*
 * A read whose result lands on a heap page never touched yet takes a page
 * fault inside its window (the first store of a count), so the kernel
 * runs and rewrites the page between the two sequence loads: exactly one
 * retry, and the values must still be in order.
 */
static int fault_inside_read(void)
{
	uintptr_t cur = (uintptr_t)brk(NULL);
	uintptr_t fresh = (cur + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1);
	struct hwp_uread *r = (struct hwp_uread *)fresh;

	if (brk((void *)(fresh + 2 * PAGE_SIZE)) < 0)
		return -ENOMEM;
	fast(&f1, 0);
	fast(r, 0);
	if (r->count[SYS] != f1.count[SYS] || r->count[CYC] < f1.count[CYC])
		fail(0, "fault-retry-values", r->count[CYC], f1.count[CYC]);
	printf("uread fault_retry retries=%u\n", r->retries);
	return 0;
}

static int run_rounds(unsigned long n)
{
	unsigned retries;

	if (setup_counters() < 0 || fault_inside_read() < 0)
		return 1;
	for (unsigned long k = 0; k < n; k++)
		round_once(k);
	hammer(n * HAMMER_PER_ROUND);
	if (st.exact && st.gap_max > st.null_min + ROUNDING_TICKS)
		fail(n, "gap>null-call", st.gap_max, st.null_min);
	retries = f1.retries + f2.retries + f3.retries + f4.retries;
	measure_costs(n);
	hwp_read_rusage(0, &sc, &ru);
	printf("uread run rounds=%lu reads=%lu retries=%u fails=%lu\n", n, st.reads,
	       retries, st.fails);
	printf("uread hammer reads=%lu retries=%u kernel_exits=%u\n",
	       st.hammer_reads, st.hammer_retries, st.hammer_exits);
	printf("uread last fast=%llu,%llu sys=%llu,%llu\n",
	       (unsigned long long)prev.count[CYC],
	       (unsigned long long)prev.count[SYS],
	       (unsigned long long)sc.count[CYC], (unsigned long long)sc.count[SYS]);
	printf("uread cycles gap_max=%llu read_min=%llu null_min=%llu exact=%d\n",
	       (unsigned long long)st.gap_max, (unsigned long long)st.read_min,
	       (unsigned long long)st.null_min, st.exact);
	printf("uread cost fast=%llu syscall=%llu\n",
	       (unsigned long long)st.cost_fast, (unsigned long long)st.cost_sys);
	printf("uread sched ivcsw=%llu\n", (unsigned long long)ru.ivcsw);
	return st.fails ? 1 : 0;
}

/* With the page, the guarded read is allowed (x86: CR4.PCE is set, so
 * rdpmc no longer raises #GP; QEMU, which implements no rdpmc, raises #UD
 * instead, SIGILL; real hardware returns the counter). */
static int guarded_mapped(void)
{
	if (hwp_map() < 0) {
		printf("uread guarded: map failed\n");
		return 1;
	}
	printf("uread guarded survived value=%lu\n", hwp_uguarded());
	return 0;
}

/* Without the page, the guarded read must kill us. */
static int guarded_unmapped(void)
{
	unsigned long v = hwp_uguarded();

	printf("uread fault: survived the guarded read (%lu)\n", v);
	return 1;
}

static int fork_child_faults(void)
{
	int status = 0, pid;
	struct hwp_uread r;

	memset(&r, 0, sizeof(r));
	if (hwp_map() < 0 || hwp_uread(&r) < 0) {
		printf("uread fork: map failed\n");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		hwp_uguarded();
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("uread fork: fork/wait failed\n");
		return 1;
	}
	printf("uread fork child=%s sig=%d parent_read=%d\n",
	       WIFSIGNALED(status) ? "signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
	       hwp_uread(&r) > 0);
	return WIFSIGNALED(status) ? 0 : 1;
}

static int expect(const char *name, long got, long want)
{
	printf("uread bad %s=%s %s\n", name, got < 0 ? errno_name((int)got) : "ok",
	       got == want ? "ok" : "FAIL");
	return got == want ? 0 : 1;
}

/* Bad calls map nothing: a child touching the page address must fault. */
static int bad_calls(void)
{
	struct hwp_uread r;
	int bad = 0, status = 0, pid;
	int gen = hwp_read(0, &sc);

	memset(&r, 0, sizeof(r));
	bad |= expect("uread_unmapped", hwp_uread(&r), -EINVAL);
	bad |= expect("map_id", hwp_call(HWPERF_OP_MAP, BAD_ID, NULL, NULL), -EINVAL);
	bad |= expect("map_arg", hwp_call(HWPERF_OP_MAP, 0, &r, NULL), -EINVAL);
	bad |= expect("map_arg2", hwp_call(HWPERF_OP_MAP, 0, NULL, &r), -EINVAL);
	bad |= expect("gen_same", hwp_read(0, &sc), gen);
	pid = fork();
	if (pid == 0) {
		volatile const uint32_t *p =
			(volatile const uint32_t *)(uintptr_t)HWPERF_UPAGE_ADDR;
		exit((int)*p);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	bad |= expect("page_unmapped", WIFSIGNALED(status) ? WTERMSIG(status) : 0,
	              SIGSEGV);
	printf("uread bad failures=%d\n", bad);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "fault") == 0)
		return guarded_unmapped();
	if (argc >= 2 && strcmp(argv[1], "guarded") == 0)
		return guarded_mapped();
	if (argc >= 2 && strcmp(argv[1], "fork") == 0)
		return fork_child_faults();
	if (argc >= 2 && strcmp(argv[1], "bad") == 0)
		return bad_calls();
	unsigned long n = arg_count(argc, argv, 1, USAGE);
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "exact") == 0)
			st.exact = 1;
		else if (strcmp(argv[i], "mux") == 0)
			st.mux = 1;
		else {
			printf("usage: %s\n", USAGE);
			return 2;
		}
	}
	st.used = st.mux ? 0x7u : 0x3u;
	return run_rounds(n);
}
