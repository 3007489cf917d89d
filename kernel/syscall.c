/*
 * syscall.c - the system call table and the handlers that decode
 * arguments.  Every user pointer goes through the uvm copy functions;
 * every argument is checked before anything changes.
 */
#include <errno.h>
#include <string.h>

#include "arch.h"
#include "arch_task.h"
#include "entry.h"
#include "pmu_kevent.h"
#include "time/clock.h"
#include "console/console.h"
#include "mm/heap.h"
#include "hwperf/hwperf_syscall.h"
#include "proc/proc.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "syscall.h"
#include "proc/task.h"
#include "mm/uvm.h"

#define FD_STDOUT 1
#define FD_STDERR 2
#define WRITE_CHUNK 128         /* bytes copied and printed at a time */
#define PROGRAM_NAME_MAX 32
#define MS_PER_S 1000u

static struct task *cur(void)
{
	return current_task();
}

static intptr_t sys_exit(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	proc_exit(WAIT_STATUS_EXITED((int)a[0]));
}

static void console_chunk(const char *buf, size_t n)
{
	/* One chunk is never interleaved with other output, any CPU's. */
	unsigned long f = console_out_lock();
	for (size_t i = 0; i < n; i++)
		console_putc(buf[i]);
	console_out_unlock(f);
}

static intptr_t sys_write(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	int fd = (int)a[0];
	uintptr_t ubuf = a[1];
	size_t len = (size_t)a[2];
	char buf[WRITE_CHUNK];
	size_t done = 0;

	if (fd != FD_STDOUT && fd != FD_STDERR)
		return -EBADF;
	if (len > (size_t)INTPTR_MAX)
		return -EINVAL;
	while (done < len) {
		size_t n = len - done < WRITE_CHUNK ? len - done : WRITE_CHUNK;
		if (copy_from_user(cur()->uvm, buf, ubuf + done, n))
			return done ? (intptr_t)done : -EFAULT;
		console_chunk(buf, n);
		done += n;
	}
	return (intptr_t)done;
}

static intptr_t sys_getpid(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)a;
	(void)tf;
	return cur()->pid;
}

static intptr_t sys_getppid(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)a;
	(void)tf;
	return cur()->ppid;
}

static intptr_t sys_getuid(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)a;
	(void)tf;
	return (intptr_t)cur()->uid;
}

static intptr_t sys_setuid(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	struct task *t = cur();

	if (a[0] > UID_MAX)
		return -EINVAL;
	if (!task_is_root(t) && a[0] != t->uid)
		return -EPERM;
	t->uid = (unsigned)a[0];
	return 0;
}

/* The task a pid argument names: 0 is the caller.  Caller holds the lock. */
static struct task *pid_arg(int pid)
{
	return pid == 0 ? cur() : task_find(pid);
}

static intptr_t sys_getpgid(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	int pid = (int)a[0];

	if (pid < 0)
		return -EINVAL;
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = pid_arg(pid);
	int r = (t && t->state != TASK_ZOMBIE && t->state != TASK_NEW) ? t->pgid : -ESRCH;
	spin_unlock_irqrestore(&task_table_lock, f);
	return r;
}

/* Caller holds task_table_lock. */
static int setpgid_locked(struct task *me, int pid, int pgid)
{
	struct task *t = pid_arg(pid);

	if (!t || (t != me && t->parent != me) || t->state == TASK_ZOMBIE)
		return -ESRCH;
	if (pgid == 0)
		pgid = t->pid;
	/* Anyone may lead a group of their own or join one of their own
	 * uid's; only root may put a task anywhere. */
	if (!task_is_root(me) && pgid != t->pid && !task_group_has_user(pgid, me->uid))
		return -EPERM;
	t->pgid = pgid;
	return 0;
}

static intptr_t sys_setpgid(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	int pid = (int)a[0], pgid = (int)a[1];

	if (pid < 0 || pgid < 0)
		return -EINVAL;
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	int r = setpgid_locked(cur(), pid, pgid);
	spin_unlock_irqrestore(&task_table_lock, f);
	return r;
}

static intptr_t sys_fork(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)a;
	return proc_fork(tf);
}

static intptr_t sys_waitpid(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	uintptr_t ustatus = a[1];
	int status = 0;

	/* Check the pointer before reaping, so a bad one loses no child. */
	if (ustatus && copy_to_user(cur()->uvm, ustatus, &status, sizeof(status)))
		return -EFAULT;
	int r = proc_waitpid((int)a[0], &status, (int)a[2], NULL);
	if (r > 0 && ustatus &&
	    copy_to_user(cur()->uvm, ustatus, &status, sizeof(status)))
		return -EFAULT;
	return r;
}

static intptr_t sys_yield(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)a;
	(void)tf;
	sched_yield();
	return 0;
}

static intptr_t sys_sleep(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	uint64_t ms = (uint32_t)a[0];

	if (ms == 0)
		return 0;
	uint64_t ticks = (ms * clock_hz + MS_PER_S - 1) / MS_PER_S;
	return sched_sleep_ticks(ticks);
}

static intptr_t sys_kill(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	return proc_kill((int)a[0], (int)a[1]);
}

static bool user_code_ok(const struct uvm *u, uintptr_t pc)
{
	return pc >= u->user_base && pc < u->user_top;
}

static intptr_t sys_signal(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	struct task *t = cur();
	int sig = (int)a[0];
	uintptr_t handler = a[1], restorer = a[2], old;

	if (handler != SIG_DFL && handler != SIG_IGN &&
	    (!user_code_ok(t->uvm, handler) || !user_code_ok(t->uvm, restorer)))
		return -EFAULT;
	irqflags_t f = arch_irq_save();
	int err = sigstate_set_handler(&t->sig, sig, handler, restorer, &old);
	arch_irq_restore(f);
	return err ? err : (intptr_t)old;
}

static intptr_t sys_sigreturn(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)a;
	signal_sigreturn(tf);
	return SYSCALL_FRAME_REPLACED;
}

/* Copy argv (user pointers to strings, NULL-terminated) into buf. */
static int copy_argv(struct uvm *u, uintptr_t uargv, char *buf, char **argv,
		     int *argc)
{
	size_t used = 0;

	for (int i = 1; uargv; i++) {
		uintptr_t p;
		if (copy_from_user(u, &p, uargv + (uintptr_t)(i - 1) * sizeof(p), sizeof(p)))
			return -EFAULT;
		if (!p) {
			*argc = i;
			argv[i] = NULL;
			return 0;
		}
		if (i > SPAWN_ARGS_MAX || used >= SPAWN_ARG_BYTES)
			return -E2BIG;
		long n = strncpy_from_user(u, buf + used, p, SPAWN_ARG_BYTES - used);
		if (n < 0)
			return (int)n;
		argv[i] = buf + used;
		used += (size_t)n + 1;
	}
	*argc = 1;
	argv[1] = NULL;
	return 0;
}

static intptr_t sys_spawn(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	struct task *t = cur();
	char name[PROGRAM_NAME_MAX];
	char *argv[SPAWN_ARGS_MAX + 2];
	int argc = 0;

	long n = strncpy_from_user(t->uvm, name, a[0], sizeof(name));
	if (n < 0)
		return n == -E2BIG ? -ENOENT : n;
	char *buf = kmalloc(SPAWN_ARG_BYTES);
	if (!buf)
		return -ENOMEM;
	argv[0] = name;
	int err = copy_argv(t->uvm, a[1], buf, argv, &argc);
	if (!err) {
		struct spawn_req req = {
			.prog = name, .argc = argc, .argv = argv,
			.uid = t->uid, .pgid = t->pgid,
		};
		err = proc_spawn(&req);
	}
	kfree(buf);
	return err;
}

static intptr_t sys_brk(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	uintptr_t result;
	int err = uvm_brk(cur()->uvm, a[0], &result);

	return err ? err : (intptr_t)result;
}

static intptr_t sys_getrusage(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	struct task *t = cur();
	struct tally_rusage ru;

	if (a[0] == RUSAGE_SELF)
		acct_to_rusage(&t->acct, arch_cycles_hz(), &ru);
	else if (a[0] == RUSAGE_CHILDREN)
		acct_to_rusage(&t->child_acct, arch_cycles_hz(), &ru);
	else
		return -EINVAL;
	return copy_to_user(t->uvm, a[1], &ru, sizeof(ru));
}

/*
 * Calls that read only the caller's own fields (ppid is one aligned int,
 * task.h) or touch only run queues take no giant: the benchmarks' null
 * system call (getppid) costs no lock on any number of CPUs.  Every other
 * handler runs inside giant through a wrapper of its own, so the table
 * says everything and dispatch is one bounds test and one indirect call;
 * but SYS_hwperf, whose read of the caller's own counters into a page it
 * already wrote takes only the hwperf lock (hwperf_syscall.c), and every
 * other op giant there.
 */
#define UNDER_GIANT(fn)								\
	static intptr_t fn##_giant(const syscall_arg_t *a, struct trapframe *tf) \
	{									\
		giant_lock();							\
		intptr_t r = fn(a, tf);						\
		giant_unlock();							\
		return r;							\
	}
UNDER_GIANT(sys_exit)
UNDER_GIANT(sys_write)
UNDER_GIANT(sys_setuid)
UNDER_GIANT(sys_getpgid)
UNDER_GIANT(sys_setpgid)
UNDER_GIANT(sys_fork)
UNDER_GIANT(sys_waitpid)
UNDER_GIANT(sys_sleep)
UNDER_GIANT(sys_kill)
UNDER_GIANT(sys_signal)
UNDER_GIANT(sys_sigreturn)
UNDER_GIANT(sys_spawn)
UNDER_GIANT(sys_brk)
UNDER_GIANT(sys_getrusage)

/* Every number below SYS_COUNT has a handler (syscall_table_complete). */
static const syscall_fn table[SYS_COUNT] = {
	[SYS_exit] = sys_exit_giant,
	[SYS_write] = sys_write_giant,
	[SYS_getpid] = sys_getpid,
	[SYS_getppid] = sys_getppid,
	[SYS_getuid] = sys_getuid,
	[SYS_setuid] = sys_setuid_giant,
	[SYS_getpgid] = sys_getpgid_giant,
	[SYS_setpgid] = sys_setpgid_giant,
	[SYS_fork] = sys_fork_giant,
	[SYS_waitpid] = sys_waitpid_giant,
	[SYS_yield] = sys_yield,
	[SYS_sleep] = sys_sleep_giant,
	[SYS_kill] = sys_kill_giant,
	[SYS_signal] = sys_signal_giant,
	[SYS_sigreturn] = sys_sigreturn_giant,
	[SYS_spawn] = sys_spawn_giant,
	[SYS_brk] = sys_brk_giant,
	[SYS_getrusage] = sys_getrusage_giant,
	[SYS_hwperf] = sys_hwperf,       /* giant but for its hot read */
};

bool syscall_table_complete(void)
{
	for (unsigned nr = 0; nr < SYS_COUNT; nr++)
		if (!table[nr])
			return false;
	return true;
}

static intptr_t sys_enosys(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)a;
	(void)tf;
	return -ENOSYS;
}

syscall_fn syscall_handler(uintptr_t nr)
{
	return nr < SYS_COUNT ? table[nr] : sys_enosys;
}

intptr_t syscall_dispatch(uintptr_t nr, const syscall_arg_t args[SYSCALL_ARGS],
			  struct trapframe *tf)
{
	if (nr >= SYS_COUNT)
		return -ENOSYS;
	return table[nr](args, tf);
}

/* A system call already counted (arch_task.h): dispatched, and its
 * result put where the arch's ABI returns it. */
bool trap_syscall_run(struct trapframe *tf)
{
	uintptr_t buf[SYSCALL_ARGS];
	intptr_t r = syscall_dispatch(arch_tf_syscall_nr(tf),
				      arch_tf_syscall_args(tf, buf), tf);
	if (r == SYSCALL_FRAME_REPLACED)
		return true;
	arch_tf_set_return(tf, r);
	return false;
}
