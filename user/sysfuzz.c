/*
 * sysfuzz SEED N: N random system calls, each checked against what the
 * call documents (kernel/syscall_nr.h, kernel/hwperf/abi.h).
 *
 * Numbers valid and not; arguments drawn from classes biased to the
 * edges (0, -1, small, huge, kernel addresses, addresses straddling the
 * top of user space, unmapped pages, read-only text, lengths that wrap),
 * every hwperf op with random control sets, and fork/kill/wait among its
 * own children.  For every call a table (the w_* helpers) gives what the
 * kernel may return for the classes drawn: an exact value, "any
 * result >= 0", and a set of errnos.  Anything else is an unexpected
 * outcome: printed with the seed and the call's index, and counted.
 *
 * Only the fuzzer's own tasks may change: no pointer it hands the kernel
 * may point at its own live data (a writable pointer is always the
 * scratch buffer), no signal goes anywhere but to its own children or
 * itself (signal 0), no valid program is spawned, the console (pid 1) is
 * only read, and identity changes only to itself.  Root may take the
 * system counters; the fuzzer releases them, and its own, at the end.
 *
 * The same SEED and N make the same calls (children's timing aside); an
 * unexpected outcome names its try's index I, and `sysfuzz SEED N` runs
 * it again.  Last line:
 *
 *	sysfuzz seed=S calls=N uid=U ok=K ENAME=K... forks=F reaped=R
 *	    kills=K signals=G unexpected=M
 *
 * Exit 0 if nothing was unexpected, 1 otherwise.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tally.h"
#include "tally_hwperf.h"
#include "user_machdep.h"

#define EXIT_USAGE 2
#define EXIT_CHILD_UNEXPECTED 99        /* a child's own fuzz found one */
#define CHILD_MAX 8                     /* live children at a time */
#define CHILD_CALLS 16                  /* calls a fuzzing child makes */
#define REPORT_MAX 20                   /* unexpected outcomes printed */
#define ERRNO_MAX 64
#define OVF_SIG SIGUSR2                 /* overflow signal; always handled */
#define SIG_THRESH_MIN 100000          /* events between overflow signals */
#define PID_NONE_BASE 40000             /* above PID_MAX (32767): no such task */
#define CONSOLE_PID 1
#define SCRATCH_PAGES 3
#define CPU_PROBE_MAX 4
#define WRITE_CHUNK 128                 /* kernel/syscall.c */
#define SPAWN_ARGS_LIMIT 16             /* kernel/proc/proc.h SPAWN_ARGS_MAX */

#define KERNEL_ADDR   USER_MACHDEP_KERNEL_ADDR  /* kernel text */
#define KERNEL_LOW    USER_MACHDEP_KERNEL_LOW
#define NONCANONICAL  USER_MACHDEP_NONCANONICAL
#define USER_TOP_ADDR USER_MACHDEP_USER_TOP
#define UNMAPPED_ADDR USER_MACHDEP_UNMAPPED
#define LOW_ADDR      0x10ul                    /* below every mapping */
#define HEAP_MAX_BYTES (64ul * 1024ul * 1024ul) /* kernel/mm/uvm.h UHEAP_MAX_BYTES */
#define BRK_STEP_PAGES 16

/* ---- the random source ------------------------------------------------------- */

static uint64_t rng;

static uint64_t next64(void)
{
	/* xorshift64*: 64-bit state, good enough spread, no division. */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(next64() >> 32) % n : 0;
}

static bool chance(uint32_t percent)
{
	return below(100) < percent;
}

static uintptr_t word(void)
{
	return (uintptr_t)next64();
}

/* ---- what a call may return -------------------------------------------------- */

struct want {
	uint64_t errs;          /* bit e: -e may come back */
	bool any_ok;            /* any result >= 0 */
	bool exact;             /* exactly `value` */
	long value;
};

#define BIT(e) ((uint64_t)1 << (e))

static struct want w_err(int e) { return (struct want){ .errs = BIT(e) }; }
static struct want w_errs(uint64_t m) { return (struct want){ .errs = m }; }
static struct want w_ok(void) { return (struct want){ .any_ok = true }; }
static struct want w_is(long v) { return (struct want){ .exact = true, .value = v }; }

static struct want w_or(struct want w, uint64_t errs)
{
	w.errs |= errs;
	return w;
}

static bool allowed(const struct want *w, long r)
{
	if (r >= 0)
		return w->any_ok || (w->exact && r == w->value);
	if (w->exact && r == w->value)
		return true;
	return -r < ERRNO_MAX && (w->errs & BIT(-r));
}

/* ---- the fuzzer's own state ------------------------------------------------------ */

enum child_kind { C_EXIT, C_NAP, C_FAULT, C_SIGRET, C_LOOP, C_FUZZ, C_KINDS };

struct child {
	int pid;
	uint8_t kind;
	uint8_t code;
	bool signalled;         /* we sent it a signal, or changed its counters */
};

static struct {
	uint64_t seed;
	unsigned long index, calls, n;
	int pid, ppid, uid, pgid;
	bool root, in_child;
	uintptr_t heap_start, brk;
	uintptr_t handler[SIG_MAX + 1];
	struct child kids[CHILD_MAX];
	unsigned nkids;
	unsigned long ok, errs[ERRNO_MAX], other_errs;
	unsigned long forks, reaped, kills, unexpected;
} fz;

static volatile unsigned long caught;  /* signals our handler saw */
static unsigned char scratch[SCRATCH_PAGES * PAGE_SIZE] __attribute__((aligned(4096)));

static void on_signal(int sig)
{
	(void)sig;
	caught++;
}

static void report(unsigned nr, const uintptr_t *a, long r, const struct want *w)
{
	fz.unexpected++;
	if (fz.unexpected > REPORT_MAX)
		return;
	printf("sysfuzz unexpected seed=%lu try=%lu%s nr=%u a0=%#lx a1=%#lx a2=%#lx "
	       "a3=%#lx got=%s(%ld) want_errs=%#lx any_ok=%d exact=%d:%ld "
	       "(rerun: sysfuzz %lu %lu)\n",
	       (unsigned long)fz.seed, fz.index, fz.in_child ? " (child)" : "", nr,
	       (unsigned long)a[0], (unsigned long)a[1], (unsigned long)a[2],
	       (unsigned long)a[3], r < 0 ? errno_name((int)r) : "ok", r,
	       (unsigned long)w->errs, w->any_ok, w->exact, w->value,
	       (unsigned long)fz.seed, fz.n);
}

static long call(unsigned nr, const uintptr_t *a, struct want w)
{
	long r = __syscall6((long)nr, (long)a[0], (long)a[1], (long)a[2], (long)a[3],
			    (long)a[4], (long)a[5]);

	fz.calls++;
	if (r >= 0)
		fz.ok++;
	else if (-r < ERRNO_MAX)
		fz.errs[-r]++;
	else
		fz.other_errs++;
	if (!allowed(&w, r))
		report(nr, a, r, &w);
	return r;
}

/* ---- argument classes --------------------------------------------------------- */

/* A pointer the kernel can never use: EFAULT whatever the length. */
static uintptr_t bad_ptr(void)
{
	switch (below(7)) {
	case 0: return 0;
	case 1: return LOW_ADDR + below(PAGE_SIZE);
	case 2: return KERNEL_ADDR + below(PAGE_SIZE);
	case 3: return KERNEL_LOW;
	case 4: return NONCANONICAL + below(PAGE_SIZE);
	case 5: return UNMAPPED_ADDR + (uintptr_t)below(1024) * PAGE_SIZE;
	default: return (uintptr_t)-1 - below(PAGE_SIZE);
	}
}

/* Outside user space altogether: not even a handler's address. */
static uintptr_t outside_ptr(void)
{
	uintptr_t p;

	do
		p = bad_ptr();
	while (p >= UNMAPPED_ADDR && p < USER_TOP_ADDR);
	return p ? p : KERNEL_ADDR;
}

/* A pointer whose first `need` bytes cross the top of user space. */
static uintptr_t straddle(size_t need)
{
	uint32_t d = need > 1 ? 1 + below((uint32_t)(need - 1)) : 0;

	return USER_TOP_ADDR - d;
}

/* Readable, never writable: the program's own text. */
static uintptr_t text_ptr(void)
{
	return (uintptr_t)&next64 + below(64);
}

/* Anything: a bad one, a straddling one, or the scratch buffer (never the
 * fuzzer's live data).  *kind: 0 bad, 1 read-only, 2 scratch. */
static uintptr_t any_ptr(size_t need, int *kind)
{
	switch (below(5)) {
	case 0: *kind = 0; return need ? straddle(need) : bad_ptr();
	case 1: *kind = 1; return text_ptr();
	case 2: case 3: *kind = 2; return (uintptr_t)scratch;
	default: *kind = 0; return bad_ptr();
	}
}

/* Junk an argument a call ignores may hold. */
static uintptr_t junk(void)
{
	switch (below(4)) {
	case 0: return 0;
	case 1: return (uintptr_t)-1;
	case 2: return KERNEL_ADDR;
	default: return word();
	}
}

/*
 * A pid no task has, which as a group is no one's either: not our own
 * group, which root's setpgid may have made one of these numbers
 * (do_setpgid), so that kill(-that) would signal us and our children
 * with a random signal -- the only path found by which seed 1601 could
 * have sent itself the SIG23 that ended it.
 */
static int nonexistent_pid(void)
{
	int p;

	do
		p = PID_NONE_BASE + (int)below(20000);
	while (p == fz.pgid);
	return p;
}

static int invalid_sig(void)
{
	static const int bad[] = { -1, SIG_MAX + 1, 64, 1000, (int)0x80000000u };

	return bad[below(sizeof(bad) / sizeof(bad[0]))];
}

/* Signals whose disposition the fuzzer may play with: never one a fault
 * or the overflow signal uses; SIG_DFL is given to SIGCHLD alone, the
 * one signal whose default does not end a task. */
static const int play_sigs[] = { SIGUSR1, SIGALRM, SIGCHLD, 20, 21, 22, 23, 29, 31 };
#define NPLAY (sizeof(play_sigs) / sizeof(play_sigs[0]))

static struct child *some_child(void)
{
	return fz.nkids ? &fz.kids[below(fz.nkids)] : NULL;
}

/* ---- children ------------------------------------------------------------------ */

static void one_call(void);

static void child_main(const struct child *c)
{
	fz.in_child = true;
	fz.nkids = 0;           /* its parent's children are not its own */
	fz.pid = getpid();
	fz.ppid = getppid();
	fz.unexpected = 0;
	switch (c->kind) {
	case C_EXIT:
		exit(c->code);
	case C_NAP:
		sleep_ms(1 + below(8));
		exit(c->code);
	case C_FAULT:
		*(volatile int *)KERNEL_ADDR = 1;
		exit(c->code);
	case C_SIGRET: {
		/* sigreturn with no frame: the frame it reads is junk. */
		volatile uintptr_t pad[64];
		for (unsigned i = 0; i < 64; i++)
			pad[i] = word();
		(void)pad[0];
		__syscall6(SYS_sigreturn, 0, 0, 0, 0, 0, 0);
		exit(c->code);
	}
	case C_LOOP:
		for (;;)
			sleep_ms(5);
	default:
		for (unsigned i = 0; i < CHILD_CALLS; i++)
			one_call();
		exit(fz.unexpected ? EXIT_CHILD_UNEXPECTED : c->code);
	}
}

static void forget_child(unsigned i)
{
	fz.kids[i] = fz.kids[--fz.nkids];
}

/* A reaped child's status against what it was told to do. */
static void check_child(const struct child *c, int status)
{
	bool ok;

	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_CHILD_UNEXPECTED)
		ok = false;
	else if (c->signalled || c->kind == C_SIGRET)
		ok = true;      /* whatever came first: its own end or ours */
	else if (c->kind == C_FAULT)
		ok = WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
	else if (c->kind == C_LOOP)
		ok = false;     /* it ends only when signalled */
	else
		ok = WIFEXITED(status) && WEXITSTATUS(status) == c->code;
	if (!ok) {
		fz.unexpected++;
		printf("sysfuzz unexpected seed=%lu try=%lu child pid=%d kind=%u code=%u "
		       "status=%#x (rerun: sysfuzz %lu %lu)\n", (unsigned long)fz.seed,
		       fz.index, c->pid, c->kind, c->code, status,
		       (unsigned long)fz.seed, fz.n);
	}
}

/* known: the status was asked for (a NULL pointer asks for none). */
static void reaped(int pid, bool known, int status)
{
	for (unsigned i = 0; i < fz.nkids; i++) {
		if (fz.kids[i].pid == pid) {
			fz.reaped++;
			if (known)
				check_child(&fz.kids[i], status);
			forget_child(i);
			return;
		}
	}
	fz.unexpected++;
	printf("sysfuzz unexpected seed=%lu try=%lu reaped pid %d is not a child\n",
	       (unsigned long)fz.seed, fz.index, pid);
}

static void do_fork(void)
{
	uintptr_t a[6] = { junk(), junk(), junk(), junk(), junk(), junk() };
	struct child c = {
		.kind = (uint8_t)below(C_KINDS),
		.code = (uint8_t)below(EXIT_CHILD_UNEXPECTED),
	};

	if (fz.nkids >= CHILD_MAX || fz.in_child)
		return;
	long r = call(SYS_fork, a, w_or(w_ok(), BIT(EAGAIN) | BIT(ENOMEM)));
	if (r == 0)
		child_main(&c);
	if (r > 0) {
		c.pid = (int)r;
		fz.kids[fz.nkids++] = c;
		fz.forks++;
	}
}

/* ---- one call of each kind ----------------------------------------------------- */

static void do_bad_nr(void)
{
	uintptr_t a[6] = { junk(), junk(), junk(), junk(), junk(), junk() };
	unsigned nr;

	/* A number past 32 bits must not wrap onto a real call. */
	if (sizeof(long) > 4 && chance(20)) {
		long big = (long)((uint64_t)(1 + below(0xffff)) << 32) + below(SYS_COUNT);
		long r = __syscall6(big, (long)a[0], (long)a[1], (long)a[2], (long)a[3],
				    (long)a[4], (long)a[5]);
		struct want w = w_err(ENOSYS);
		fz.calls++;
		if (r < 0 && -r < ERRNO_MAX)
			fz.errs[-r]++;
		if (!allowed(&w, r))
			report((unsigned)(big >> 32), a, r, &w);
		return;
	}
	switch (below(4)) {
	case 0: nr = SYS_COUNT + below(16); break;
	case 1: nr = (unsigned)-1 - below(16); break;
	case 2: nr = 0x80000000u + below(16); break;
	default: nr = SYS_COUNT + (uint32_t)(next64() >> 33); break;
	}
	call(nr, a, w_err(ENOSYS));
}

static void do_write(void)
{
	uintptr_t a[6] = { 0, 0, 0, junk(), junk(), junk() };
	struct want w;
	int kind;

	if (chance(30)) {
		a[0] = chance(50) ? (uintptr_t)-1 : (uintptr_t)(chance(50) ? 0 : 3 + below(1000));
		a[1] = any_ptr(16, &kind);
		a[2] = below(64);
		call(SYS_write, a, w_err(EBADF));
		return;
	}
	a[0] = 1 + below(2);
	switch (below(4)) {
	case 0:         /* nothing to write: whatever the pointer */
		a[1] = any_ptr(0, &kind);
		w = w_is(0);
		break;
	case 1:         /* longer than any write may be */
		a[1] = chance(50) ? (uintptr_t)scratch : bad_ptr();
		a[2] = (uintptr_t)INTPTR_MAX + 1 + below(1000);
		w = w_err(EINVAL);
		break;
	case 2:         /* ptr + len wraps past the top of memory */
		a[1] = (uintptr_t)scratch;
		a[2] = (uintptr_t)0 - a[1] + below(PAGE_SIZE);
		w = w_errs(BIT(EINVAL) | BIT(EFAULT));
		break;
	default:        /* a pointer no byte of which may be read */
		a[2] = 1 + below(PAGE_SIZE);
		/* write copies 128 bytes at a time and returns what it wrote
		 * before a fault: straddle within the first chunk. */
		a[1] = chance(50) ? straddle(a[2] < WRITE_CHUNK ? a[2] : WRITE_CHUNK)
				  : bad_ptr();
		w = w_err(EFAULT);
		break;
	}
	call(SYS_write, a, w);
}

static void do_ids(void)
{
	uintptr_t a[6] = { junk(), junk(), junk(), junk(), junk(), junk() };

	switch (below(4)) {
	case 0: call(SYS_getpid, a, w_is(fz.pid)); break;
	case 1: call(SYS_getppid, a, w_is(fz.ppid)); break;
	case 2: call(SYS_getuid, a, w_is(fz.uid)); break;
	default: call(SYS_yield, a, w_is(0)); break;
	}
}

static void do_setuid(void)
{
	uintptr_t a[6] = { 0, junk(), junk(), junk(), junk(), junk() };

	switch (below(3)) {
	case 0: a[0] = (uintptr_t)fz.uid; call(SYS_setuid, a, w_is(0)); break;
	case 1:
		a[0] = chance(50) ? (uintptr_t)-1 : 65536u + below(100000);
		call(SYS_setuid, a, w_err(EINVAL));
		break;
	default:
		/* Root would become someone else: only an ordinary uid tries. */
		if (fz.root)
			return;
		a[0] = (uintptr_t)(fz.uid + 1 + (int)below(100)) % 65536u;
		if (a[0] == (uintptr_t)fz.uid)
			return;
		call(SYS_setuid, a, w_err(EPERM));
	}
}

static void do_getpgid(void)
{
	uintptr_t a[6] = { 0, junk(), junk(), junk(), junk(), junk() };
	struct child *c = some_child();

	/* A child's group is its parent's to change (setpgid) at any time. */
	struct want self = fz.in_child ? w_ok() : w_is(fz.pgid);

	switch (below(5)) {
	case 0: a[0] = 0; call(SYS_getpgid, a, self); break;
	case 1: a[0] = (uintptr_t)fz.pid; call(SYS_getpgid, a, self); break;
	case 2: a[0] = (uintptr_t)(long)-(1 + (int)below(1000)); call(SYS_getpgid, a, w_err(EINVAL)); break;
	case 3: a[0] = (uintptr_t)nonexistent_pid(); call(SYS_getpgid, a, w_err(ESRCH)); break;
	default:
		/* A child may have left our group (its own setpgid) or ended. */
		a[0] = c ? (uintptr_t)c->pid : CONSOLE_PID;
		call(SYS_getpgid, a, w_or(w_ok(), BIT(ESRCH)));
	}
}

static void do_setpgid(void)
{
	uintptr_t a[6] = { 0, 0, junk(), junk(), junk(), junk() };
	struct child *c = some_child();

	switch (below(5)) {
	case 0:
		a[0] = chance(50) ? (uintptr_t)(long)-1 : 0;
		a[1] = a[0] ? 0 : (uintptr_t)(long)-(1 + (int)below(100));
		call(SYS_setpgid, a, w_err(EINVAL));
		break;
	case 1:
		a[0] = chance(50) ? (uintptr_t)nonexistent_pid() : CONSOLE_PID;
		call(SYS_setpgid, a, w_err(ESRCH));
		break;
	case 2:         /* lead a group of our own: always allowed */
		a[0] = chance(50) ? 0 : (uintptr_t)fz.pid;
		a[1] = chance(50) ? 0 : (uintptr_t)fz.pid;
		if (call(SYS_setpgid, a, w_is(0)) == 0)
			fz.pgid = fz.pid;
		break;
	case 3: {       /* a group nobody is in: root's to make */
		a[0] = 0;
		a[1] = (uintptr_t)nonexistent_pid();
		long r = call(SYS_setpgid, a, fz.root ? w_is(0) : w_err(EPERM));
		if (r == 0)
			fz.pgid = (int)a[1];
		break;
	}
	default:        /* a child into its own group, or ours */
		if (!c)
			return;
		a[0] = (uintptr_t)c->pid;
		a[1] = chance(50) ? 0 : (uintptr_t)fz.pgid;
		call(SYS_setpgid, a, w_or(w_is(0), BIT(ESRCH)));
	}
}

static void do_waitpid(void)
{
	uintptr_t a[6] = { 0, 0, 0, junk(), junk(), junk() };

	switch (below(5)) {
	case 0:         /* a status pointer that cannot be written: no one reaped */
		a[0] = (uintptr_t)(long)-1;
		a[1] = chance(50) ? bad_ptr() : (chance(50) ? text_ptr() : straddle(sizeof(int)));
		if (!a[1])
			a[1] = LOW_ADDR;
		a[2] = 1;
		call(SYS_waitpid, a, w_err(EFAULT));
		return;
	case 1:         /* bad pid or options */
		a[0] = chance(50) ? 0 : (uintptr_t)(long)-(2 + (int)below(100));
		a[1] = chance(50) ? 0 : (uintptr_t)scratch;
		a[2] = chance(50) ? WNOHANG : (uintptr_t)(2 + below(100));
		call(SYS_waitpid, a, w_err(EINVAL));
		return;
	case 2:
		a[0] = (uintptr_t)nonexistent_pid();
		a[2] = WNOHANG;
		call(SYS_waitpid, a, w_err(ECHILD));
		return;
	default: {
		/* Any child, or one: without WNOHANG only when every child
		 * ends by itself soon (no looper alive). */
		bool loopers = false;
		for (unsigned i = 0; i < fz.nkids; i++)
			loopers |= fz.kids[i].kind == C_LOOP || fz.kids[i].kind == C_SIGRET ||
				    fz.kids[i].signalled;
		struct child *c = some_child();
		a[0] = c && chance(50) ? (uintptr_t)c->pid : (uintptr_t)(long)WAIT_ANY;
		a[1] = chance(70) ? (uintptr_t)scratch : 0;
		a[2] = loopers || chance(50) ? WNOHANG : 0;
		struct want w = fz.nkids ? w_ok() : w_err(ECHILD);
		if (fz.nkids == 0 && a[0] != (uintptr_t)(long)WAIT_ANY)
			w = w_err(ECHILD);
		long r = call(SYS_waitpid, a, w_or(w, BIT(EINTR)));
		if (r > 0)
			reaped((int)r, a[1] != 0, *(volatile int *)scratch);
	}
	}
}

static void do_sleep(void)
{
	uintptr_t a[6] = { 0, junk(), junk(), junk(), junk(), junk() };

	/* Only the low 32 bits count: 2^32 ms is no sleep at all. */
	a[0] = chance(50) ? below(3) : (sizeof(uintptr_t) > 4 ? (uintptr_t)1 << 31 << 1 : 0);
	call(SYS_sleep, a, w_or(w_is(0), BIT(EINTR)));
}

static void do_kill(void)
{
	uintptr_t a[6] = { 0, 0, junk(), junk(), junk(), junk() };
	struct child *c = some_child();

	switch (below(6)) {
	case 0:
		a[0] = chance(50) ? (uintptr_t)nonexistent_pid() : (uintptr_t)fz.pid;
		a[1] = (uintptr_t)(long)invalid_sig();
		call(SYS_kill, a, w_err(EINVAL));
		break;
	case 1:
		a[0] = (uintptr_t)nonexistent_pid();
		a[1] = below(SIG_MAX + 1);
		call(SYS_kill, a, w_err(ESRCH));
		break;
	case 2:         /* groups: -1 is no group; a group nobody is in */
		a[0] = chance(50) ? (uintptr_t)(long)-1 : (uintptr_t)(long)-nonexistent_pid();
		a[1] = below(SIG_MAX + 1);
		call(SYS_kill, a, w_err((long)a[0] == -1 ? EINVAL : ESRCH));
		break;
	case 3:         /* ourselves, signal 0: a probe */
		a[0] = (uintptr_t)fz.pid;
		call(SYS_kill, a, w_is(0));
		break;
	case 4:         /* the console: a kernel task, never signalled */
		a[0] = CONSOLE_PID;
		a[1] = fz.root ? 0 : below(SIG_MAX + 1);
		call(SYS_kill, a, w_err(EPERM));
		break;
	default:
		if (!c)
			return;
		a[0] = (uintptr_t)c->pid;
		a[1] = chance(50) ? SIGKILL : (uintptr_t)play_sigs[below(NPLAY)];
		if (call(SYS_kill, a, w_or(w_is(0), BIT(ESRCH))) == 0) {
			c->signalled = true;
			fz.kills++;
		}
	}
}

static void do_signal(void)
{
	uintptr_t a[6] = { 0, 0, 0, junk(), junk(), junk() };
	int sig = play_sigs[below(NPLAY)];

	a[0] = (uintptr_t)sig;
	switch (below(5)) {
	case 0:         /* a handler or restorer outside user space */
		a[1] = chance(50) ? outside_ptr() : (uintptr_t)on_signal;
		a[2] = a[1] == (uintptr_t)on_signal ? outside_ptr()
						     : (uintptr_t)__sigreturn_trampoline;
		call(SYS_signal, a, w_err(EFAULT));
		break;
	case 1:         /* no such signal, or SIGKILL */
		a[0] = chance(30) ? SIGKILL : (uintptr_t)(long)(chance(50) ? 0 : invalid_sig());
		a[1] = SIG_DFL;
		call(SYS_signal, a, w_err(EINVAL));
		break;
	default: {
		/* SIG_DFL only where the default is to ignore: in Tally every
		 * signal but SIGCHLD terminates by default (kernel/proc/signal.c),
		 * and a default that ended the fuzzer would end the run (seed
		 * 1601 on x86_64 died of SIG23 after 30,148 calls; see
		 * nonexistent_pid for the one sender found). */
		uintptr_t h = below(3) == 0 && sig == SIGCHLD ? SIG_DFL
			    : below(2) ? SIG_IGN : (uintptr_t)on_signal;
		a[1] = h;
		a[2] = (uintptr_t)__sigreturn_trampoline;
		if (call(SYS_signal, a, w_is((long)fz.handler[sig])) >= 0)
			fz.handler[sig] = h;
	}
	}
}

static void do_spawn(void)
{
	uintptr_t a[6] = { 0, 0, junk(), junk(), junk(), junk() };
	char *name = (char *)scratch;
	const char **argv = (const char **)(void *)(scratch + PAGE_SIZE);

	/* (Never a name at the top of the stack: the words there may name
	 * a real program.) */
	switch (below(4)) {
	case 0:
		a[0] = bad_ptr();
		call(SYS_spawn, a, w_err(EFAULT));
		break;
	case 2:         /* a name longer than any program's: as not found */
		memset(name, 'a', PAGE_SIZE);
		name[PAGE_SIZE - 1] = 0;
		a[0] = (uintptr_t)name;
		call(SYS_spawn, a, w_err(ENOENT));
		break;
	case 3:         /* no such program; words at bad addresses come first */
		snprintf(name, 32, "nosuch%u", (unsigned)below(1000));
		a[0] = (uintptr_t)name;
		if (chance(50)) {
			a[1] = bad_ptr();
			call(SYS_spawn, a, w_errs(a[1] ? BIT(EFAULT) : BIT(ENOENT)));
		} else {
			argv[0] = (const char *)bad_ptr();
			argv[1] = NULL;
			a[1] = (uintptr_t)argv;
			call(SYS_spawn, a, w_errs(argv[0] ? BIT(EFAULT) : BIT(ENOENT)));
		}
		break;
	default:        /* more words than a spawn takes */
		snprintf(name, 32, "nosuch%u", (unsigned)below(1000));
		for (unsigned i = 0; i < SPAWN_ARGS_LIMIT + 2; i++)
			argv[i] = "w";
		argv[SPAWN_ARGS_LIMIT + 2] = NULL;
		a[0] = (uintptr_t)name;
		a[1] = (uintptr_t)argv;
		call(SYS_spawn, a, w_err(E2BIG));
	}
}

static void do_brk(void)
{
	uintptr_t a[6] = { 0, junk(), junk(), junk(), junk(), junk() };

	switch (below(4)) {
	case 0:
		call(SYS_brk, a, w_is((long)fz.brk));
		break;
	case 1:         /* outside [heap start, heap start + 64 MiB] */
		switch (below(4)) {
		case 0: a[0] = LOW_ADDR; break;
		case 1: a[0] = fz.heap_start - 1 - below(PAGE_SIZE); break;
		case 2: a[0] = fz.heap_start + HEAP_MAX_BYTES + 1 + below(PAGE_SIZE); break;
		default: a[0] = KERNEL_ADDR; break;
		}
		call(SYS_brk, a, w_err(ENOMEM));
		break;
	default: {
		a[0] = fz.heap_start + below(BRK_STEP_PAGES * PAGE_SIZE);
		if (call(SYS_brk, a, w_is((long)a[0])) >= 0)
			fz.brk = a[0];
	}
	}
}

static void do_getrusage(void)
{
	uintptr_t a[6] = { 0, 0, junk(), junk(), junk(), junk() };
	int kind;

	if (chance(25)) {
		a[0] = chance(50) ? (uintptr_t)(long)-1 : 2 + below(100);
		a[1] = any_ptr(sizeof(struct tally_rusage), &kind);
		call(SYS_getrusage, a, w_err(EINVAL));
		return;
	}
	a[0] = below(2);
	a[1] = any_ptr(sizeof(struct tally_rusage), &kind);
	call(SYS_getrusage, a, kind == 2 ? w_is(0) : w_err(EFAULT));
}

/* ---- hwperf ---------------------------------------------------------------------- */

enum { H_NONE, H_CTL_IN, H_CTL_OUT, H_COUNTS, H_COUNTS_RU, H_PCTR };
enum { I_PID, I_CPU, I_ZERO };

static const struct { uint8_t arg, id; } hops[HWPERF_OP_COUNT] = {
	[HWPERF_OP_ENABLE] = { H_CTL_IN, I_PID },
	[HWPERF_OP_READ] = { H_COUNTS, I_PID },
	[HWPERF_OP_READ_RUSAGE] = { H_COUNTS_RU, I_PID },
	[HWPERF_OP_GET_CONTROL] = { H_CTL_OUT, I_PID },
	[HWPERF_OP_SET_CONTROL] = { H_CTL_IN, I_PID },
	[HWPERF_OP_RELEASE] = { H_NONE, I_PID },
	[HWPERF_OP_SAVE_CHILD] = { H_NONE, I_PID },
	[HWPERF_OP_PROFILE] = { H_CTL_IN, I_PID },
	[HWPERF_OP_SYS_ACQUIRE] = { H_CTL_IN, I_ZERO },
	[HWPERF_OP_SYS_READ] = { H_COUNTS, I_ZERO },
	[HWPERF_OP_CPU_READ] = { H_COUNTS, I_CPU },
	[HWPERF_OP_SYS_GET_CONTROL] = { H_CTL_OUT, I_ZERO },
	[HWPERF_OP_SYS_SET_CONTROL] = { H_CTL_IN, I_ZERO },
	[HWPERF_OP_SYS_RELEASE] = { H_NONE, I_ZERO },
	[HWPERF_OP_MAP] = { H_NONE, I_ZERO },
	[HWPERF_OP_PAUSE] = { H_NONE, I_PID },
	[HWPERF_OP_RESUME] = { H_NONE, I_PID },
	[HWPERF_OP_RESET] = { H_NONE, I_PID },
	[HWPERF_OP_PCTR_READ] = { H_PCTR, I_PID },
};

/* A new operation needs its row above (a zeroed row reads as "no
 * argument", which is wrong for most): this fails the build until then. */
_Static_assert(HWPERF_OP_COUNT == 19, "sysfuzz: describe the new hwperf operation in hops[]");

static bool changes(int op)
{
	return op == HWPERF_OP_ENABLE || op == HWPERF_OP_SET_CONTROL ||
	       op == HWPERF_OP_PROFILE || op == HWPERF_OP_RELEASE ||
	       op == HWPERF_OP_SAVE_CHILD || op == HWPERF_OP_PAUSE ||
	       op == HWPERF_OP_RESUME || op == HWPERF_OP_RESET;
}

static const char *const event_names[] = {
	"cycles", "instructions", "syscalls", "faults", "ticks", "csw", "signals",
	"tlb", "cycles:u", "nosuch", "", "inst-retired:any-p",
};
#define NEVENTS (sizeof(event_names) / sizeof(event_names[0]))

static int64_t thresh(void)
{
	if (chance(5))
		return chance(50) ? -1 : INT64_MIN;     /* refused: EINVAL */
	switch (below(8)) {
	case 0: return INT64_MAX;
	case 1: return 1 + below(10);
	case 2: case 3: case 4: return 0;
	default: return 100000 + below(1000000);
	}
}

/* A control: a few plausible events, or bytes nothing checked yet. */
static void random_control(struct hwperf_control *ctl)
{
	memset(ctl, 0, sizeof(*ctl));
	if (chance(10)) {
		for (size_t i = 0; i < sizeof(*ctl); i++)
			((unsigned char *)ctl)[i] = (unsigned char)next64();
	} else {
		unsigned n = chance(80) ? 1 + below(4) : below(HWPERF_NVCTR + 1);
		for (unsigned i = 0; i < n; i++) {
			struct hwperf_event *e = &ctl->ev[below(HWPERF_NVCTR)];
			if (chance(90))
				strlcpy(e->name, event_names[below(NEVENTS)], sizeof(e->name));
			else
				memset(e->name, 'x', sizeof(e->name));    /* no NUL */
			e->flags = chance(80) ? 0 : (chance(50) ? below(0x40) : (uint32_t)next64());
			e->code = chance(80) ? 0 : (uint32_t)next64();
			e->modes = chance(80) ? HWPERF_MODE_U | (chance(30) ? HWPERF_MODE_K : 0)
					      : below(16);
			e->umask = (uint16_t)(chance(90) ? 0 : next64());
			e->cmask = (uint16_t)(chance(90) ? 0 : next64());
			e->thresh = thresh();
		}
	}
	/* An overflow signal the fuzzer handles, none, or no such signal:
	 * any other would end the task it lands on. */
	switch (below(4)) {
	case 0: ctl->sig = OVF_SIG; break;
	case 1: ctl->sig = invalid_sig(); break;
	default: ctl->sig = 0; break;
	}
	/* A signal every few events never lets its task get on: the
	 * handler's own sigreturn is a system call that counts (the livelock
	 * `hwovf 1 M` shows).  The task asked for it, but then the fuzzer
	 * would make no more calls. */
	if (ctl->sig == OVF_SIG)
		for (unsigned i = 0; i < HWPERF_NVCTR; i++)
			if (ctl->ev[i].thresh > 0 && ctl->ev[i].thresh < SIG_THRESH_MIN)
				ctl->ev[i].thresh = SIG_THRESH_MIN;
	/* A threshold of a few cycles is an overflow interrupt every few
	 * cycles: the software PMU delivers each one as it adds a kernel
	 * entry's cycles wrap by wrap, so such a set (above all a system one,
	 * which counts every task) slows the whole machine a thousandfold --
	 * correct, and asked for, but then a soak makes no progress (seen:
	 * seed 84991 made 1,700 tasks in 10 minutes, against 2,400 in 2). */
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (strncmp(ctl->ev[i].name, "cycles", 6) == 0 &&
		    ctl->ev[i].thresh > 0 && ctl->ev[i].thresh < SIG_THRESH_MIN)
			ctl->ev[i].thresh = SIG_THRESH_MIN;
}

static const uint64_t HW_SEMANTIC = BIT(EINVAL) | BIT(EBUSY) | BIT(EPERM) | BIT(ESRCH) |
	BIT(ENODEV) | BIT(ECHILD) | BIT(ENOMEM) | BIT(ENOENT) | BIT(ENOSPC);

static void do_hwperf(void)
{
	uintptr_t a[6] = { 0, 0, 0, 0, junk(), junk() };
	int op = (int)below(HWPERF_OP_COUNT);
	int target = 0, kind = 2;
	struct child *c = some_child();

	/* An op that is no op. */
	if (chance(8)) {
		a[0] = chance(50) ? HWPERF_OP_COUNT + below(100) : (uintptr_t)(long)-1 - below(8);
		call(SYS_hwperf, a, w_err(EINVAL));
		return;
	}
	a[0] = (uintptr_t)op;
	/* The id: a pid (ours, a child's, the console's, none), a CPU. */
	switch (hops[op].id) {
	case I_ZERO:
		a[1] = chance(90) ? 0 : 1 + below(100);
		break;
	case I_CPU:
		a[1] = below(CPU_PROBE_MAX * 2);
		break;
	default:
		switch (below(6)) {
		case 0: case 1: target = 0; break;
		case 2: target = c ? c->pid : fz.pid; break;
		case 3: target = nonexistent_pid(); break;
		case 4: target = CONSOLE_PID; break;
		default: target = fz.pid; break;
		}
		/* Root changes no one's counters but its own tasks'. */
		if (fz.root && target == CONSOLE_PID && changes(op))
			target = 0;
		a[1] = (uintptr_t)target;
	}
	if (chance(5))
		a[1] = chance(50) ? (uintptr_t)(long)-1 - below(100) : (uintptr_t)(long)INT32_MIN;
	bool bad_id = (long)a[1] < 0 || (hops[op].id == I_ZERO && a[1] != 0);

	/* Arguments: the ones an op takes, junk in the ones it does not. */
	bool junk_arg = false, null_arg = false;
	size_t need = hops[op].arg == H_CTL_IN || hops[op].arg == H_CTL_OUT
		? sizeof(struct hwperf_control)
		: hops[op].arg == H_PCTR ? sizeof(struct hwperf_pctr) : sizeof(struct hwperf_counts);
	if (hops[op].arg == H_NONE) {
		if (chance(10)) {
			a[2] = junk();
			a[3] = chance(50) ? junk() : 0;
			junk_arg = a[2] || a[3];
		}
	} else {
		a[2] = any_ptr(need, &kind);
		/* A control read from our own text is readable garbage: it may
		 * name any overflow signal, and one the fuzzer does not handle
		 * ends it (seen: SIG25 at call 73,564 of seed 84328).  Controls
		 * come from random_control; text stays for the out-ops, whose
		 * copy-out must fail with EFAULT. */
		if (hops[op].arg == H_CTL_IN && kind == 1) {
			a[2] = (uintptr_t)scratch;
			kind = 2;
		}
		if (hops[op].arg == H_CTL_IN && kind == 2)
			random_control((struct hwperf_control *)(void *)scratch);
		if (hops[op].arg == H_COUNTS_RU) {
			int k2;
			a[3] = any_ptr(sizeof(struct hwperf_rusage), &k2);
			if (a[3] == (uintptr_t)scratch)
				a[3] = (uintptr_t)scratch + 2 * PAGE_SIZE;
			if (k2 != 2)
				kind = 0;
			null_arg = a[3] == 0;
		} else if (chance(10)) {
			a[3] = junk();
			junk_arg = a[3] != 0;
		}
		null_arg |= a[2] == 0;
	}

	struct want w;
	if (junk_arg || bad_id)
		w = w_err(EINVAL);
	else if (null_arg)
		w = w_err(EFAULT);
	else if (hops[op].arg == H_CTL_IN && kind == 0)
		w = w_err(EFAULT);      /* read before anything is asked */
	else {
		w = w_or(w_ok(), HW_SEMANTIC);
		/* Results are copied out after the op: a bad place is EFAULT,
		 * unless the op failed first. */
		if ((hops[op].arg == H_CTL_OUT || hops[op].arg == H_COUNTS ||
		     hops[op].arg == H_COUNTS_RU || hops[op].arg == H_PCTR) && kind != 2) {
			w.any_ok = false;
			w.errs |= BIT(EFAULT);
		}
		/* What no ordinary uid may do, and no task that is not there. */
		if (!fz.root && (op == HWPERF_OP_SYS_ACQUIRE || op == HWPERF_OP_SYS_SET_CONTROL))
			w.any_ok = false;
		if (!fz.root && hops[op].id == I_PID && target == CONSOLE_PID)
			w.any_ok = false;
		if (hops[op].id == I_PID && target >= PID_NONE_BASE)
			w.any_ok = false;
	}
	long r = call(SYS_hwperf, a, w);
	if (r >= 0 && c && target == c->pid && changes(op))
		c->signalled = true;    /* its counters may signal it now */
}

/* ---- the loop ------------------------------------------------------------------- */

static void one_call(void)
{
	uint32_t pick = below(1000);

	if (pick < 8)
		do_fork();
	else if (pick < 120)
		do_bad_nr();
	else if (pick < 170)
		do_write();
	else if (pick < 250)
		do_ids();
	else if (pick < 280)
		do_setuid();
	else if (pick < 330)
		do_getpgid();
	else if (pick < 370)
		do_setpgid();
	else if (pick < 450)
		do_waitpid();
	else if (pick < 470)
		do_sleep();
	else if (pick < 540)
		do_kill();
	else if (pick < 600)
		do_signal();
	else if (pick < 650)
		do_spawn();
	else if (pick < 700)
		do_brk();
	else if (pick < 750)
		do_getrusage();
	else
		do_hwperf();
}

/* Every child killed and reaped; our counters and the system's given back. */
static void clean_up(void)
{
	uintptr_t a[6] = { 0 };
	int status;

	for (unsigned i = 0; i < fz.nkids; i++) {
		if (kill(fz.kids[i].pid, SIGKILL) == 0)
			fz.kids[i].signalled = true;
	}
	while (fz.nkids) {
		int r = waitpid(WAIT_ANY, &status, 0);
		if (r <= 0)
			break;
		reaped(r, true, status);
	}
	a[0] = HWPERF_OP_RELEASE;
	call(SYS_hwperf, a, w_or(w_ok(), BIT(EINVAL)));
	if (fz.root) {
		a[0] = HWPERF_OP_SYS_RELEASE;
		call(SYS_hwperf, a, w_or(w_ok(), BIT(EINVAL)));
	}
	/* Our children are all reaped: no one is left to wait for. */
	a[0] = (uintptr_t)(long)WAIT_ANY;
	a[2] = WNOHANG;
	call(SYS_waitpid, a, w_err(ECHILD));
}

static void summary(void)
{
	printf("sysfuzz seed=%lu calls=%lu uid=%d ok=%lu", (unsigned long)fz.seed,
	       fz.calls, fz.uid, fz.ok);
	for (int e = 1; e < ERRNO_MAX; e++)
		if (fz.errs[e])
			printf(" %s=%lu", errno_name(-e), fz.errs[e]);
	if (fz.other_errs)
		printf(" other=%lu", fz.other_errs);
	printf(" forks=%lu reaped=%lu kills=%lu signals=%lu unexpected=%lu\n",
	       fz.forks, fz.reaped, fz.kills, caught, fz.unexpected);
}

int main(int argc, char **argv)
{
	const char *usage = "sysfuzz SEED N";
	uint64_t seed = arg_count(argc, argv, 1, usage);
	unsigned long n = arg_count(argc, argv, 2, usage);

	fz.seed = seed;
	fz.n = n;
	rng = seed * 0x9E3779B97F4A7C15ull + 1;        /* never 0 */
	fz.pid = getpid();
	fz.ppid = getppid();
	fz.uid = getuid();
	fz.root = fz.uid == 0;
	fz.pgid = getpgid(0);
	long b = brk(0);
	if (b < 0) {
		printf("sysfuzz: brk: %s\n", errno_name((int)b));
		return 1;
	}
	fz.heap_start = fz.brk = (uintptr_t)b;
	/* The overflow signal is always ours to catch, and so is every
	 * signal a child may be sent, in the children too. */
	signal(OVF_SIG, on_signal);
	fz.handler[OVF_SIG] = (uintptr_t)on_signal;
	/* N calls made, not N tries: a try may find nothing to do (no child
	 * to signal) and make none. */
	for (fz.index = 0; fz.calls < n; fz.index++)
		one_call();
	clean_up();
	summary();
	return fz.unexpected ? 1 : 0;
}
