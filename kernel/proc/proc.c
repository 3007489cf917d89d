/*
 * proc.c - spawn, fork, exit, wait and kill.
 */
#include <errno.h>
#include <string.h>

#include "arch.h"
#include "arch_task.h"
#include "mm/elf.h"
#include "proc/proc.h"
#include "proc/programs.h"
#include "proc/sched.h"
#include "proc/sched_hooks.h"
#include "proc/task.h"
#include "entry.h"
#include "mm/uvm.h"

#define STACK_ALIGN 16

static uintptr_t align_down(uintptr_t a, uintptr_t to)
{
	return a & ~(to - 1);
}

/* The user context sits at the top of the kernel stack; the switch frame
 * that first runs proc_user_entry goes right below it. */
static struct trapframe *place_user_frame(struct task *t)
{
	uintptr_t top = (uintptr_t)task_kstack_top(t);
	uintptr_t tf = align_down(top - arch_trapframe_size(), STACK_ALIGN);

	return (struct trapframe *)tf;
}

void proc_user_entry(void *arg)
{
	struct task *t = arg;

	sched_first_run();
	trap_enter_user(t->utf);
}

static void start_user_task(struct task *t)
{
	t->preempt_off = 1;     /* until sched_first_run finishes the switch */
	t->ksp = arch_kstack_init(t->utf, proc_user_entry, t);
}

/* ---- spawn ------------------------------------------------------------------ */

static int args_size(const struct spawn_req *req, size_t *bytes)
{
	*bytes = 0;
	if (req->argc < 1 || req->argc > SPAWN_ARGS_MAX + 1)
		return -E2BIG;
	for (int i = 0; i < req->argc; i++)
		*bytes += strlen(req->argv[i]) + 1;
	return *bytes > SPAWN_ARG_BYTES ? -E2BIG : 0;
}

/*
 * Strings at the top of the stack, the argv pointer array below them,
 * and the stack pointer below that, aligned for the ABI's calls.
 */
static int push_args(struct uvm *u, const struct spawn_req *req,
		     uintptr_t *sp_out, uintptr_t *argv_out)
{
	uintptr_t ptrs[SPAWN_ARGS_MAX + 2];
	uintptr_t sp = u->stack_top;

	for (int i = req->argc - 1; i >= 0; i--) {
		size_t len = strlen(req->argv[i]) + 1;
		sp -= len;
		if (copy_to_user(u, sp, req->argv[i], len))
			return -EFAULT;
		ptrs[i] = sp;
	}
	ptrs[req->argc] = 0;
	size_t table = (size_t)(req->argc + 1) * sizeof(uintptr_t);
	sp = align_down(sp - table, STACK_ALIGN);
	if (copy_to_user(u, sp, ptrs, table))
		return -EFAULT;
	*argv_out = sp;
	*sp_out = sp;
	return 0;
}

static int build_image(struct task *t, const struct program *prog,
		       const struct spawn_req *req)
{
	uintptr_t entry, sp, argv;
	struct uvm *u = uvm_create();

	if (!u)
		return -ENOMEM;
	t->uvm = u;
	int err = elf_load(u, prog->start, (size_t)(prog->end - prog->start), &entry);
	if (!err)
		err = uvm_setup_stack(u);
	if (!err)
		err = push_args(u, req, &sp, &argv);
	if (err)
		return err;
	t->utf = place_user_frame(t);
	memset(t->utf, 0, arch_trapframe_size());
	arch_tf_init_user(t->utf, entry, sp, (uintptr_t)req->argc, argv);
	return 0;
}

/* Undo a task that never ran. */
static void discard_new(struct task *t)
{
	uvm_destroy(t->uvm);
	t->uvm = NULL;
	task_free(t);
}

/*
 * As setpgid(2) refuses: a non-root requester starts a task in a new
 * group of its own, in its own group, or in a group that already holds a
 * user task of the new task's uid -- never in another user's group, whose
 * counters R8 would then open to it.  The console under `as UID` is a
 * non-root requester whose own group is root's: it may not name that
 * group (only the kernel may, req->kernel_group).
 */
static bool may_join(const struct task *by, const struct spawn_req *req)
{
	if (task_is_root(by) || req->pgid == 0 || req->kernel_group ||
	    (req->pgid == by->pgid && !by->kthread))
		return true;
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	bool ok = task_group_has_user(req->pgid, req->uid);
	spin_unlock_irqrestore(&task_table_lock, f);
	return ok;
}

int proc_spawn(const struct spawn_req *req)
{
	size_t bytes;
	int err = args_size(req, &bytes);

	if (err)
		return err;
	if (req->pgid < 0)
		return -EINVAL;
	const struct program *prog = program_find(req->prog);
	if (!prog)
		return -ENOENT;
	if (!may_join(current_task(), req))
		return -EPERM;
	struct task *t = task_alloc(prog->name, &err);
	if (!t)
		return err;
	err = build_image(t, prog, req);
	if (err) {
		discard_new(t);
		return err;
	}
	struct task *parent = current_task();
	t->uid = req->uid;
	t->pgid = req->pgid ? req->pgid : t->pid;
	t->parent = parent;
	t->ppid = parent->pid;
	t->pin = req->pin ? (int)req->cpu : -1;
	start_user_task(t);
	task_hook_init(t);
	int pid = t->pid;
	sched_start_task(t);
	return pid;
}

/* ---- fork ------------------------------------------------------------------- */

int proc_fork(struct trapframe *tf)
{
	struct task *parent = current_task();
	int err;

	if (!parent->uvm)
		return -EINVAL;
	struct task *child = task_alloc(parent->name, &err);
	if (!child)
		return err;
	child->uvm = uvm_clone(parent->uvm);
	if (!child->uvm) {
		task_free(child);
		return -ENOMEM;
	}
	child->uid = parent->uid;
	child->pgid = parent->pgid;
	child->prio = parent->prio;
	child->pin = parent->pin;       /* a pinned tree stays on its CPU */
	child->parent = parent;
	child->ppid = parent->pid;
	sigstate_fork(&child->sig, &parent->sig);
	child->utf = place_user_frame(child);
	memcpy(child->utf, tf, arch_trapframe_size());
	arch_tf_set_return(child->utf, 0);
	start_user_task(child);
	task_hook_fork(parent, child);
	int pid = child->pid;
	sched_start_task(child);
	return pid;
}

/* ---- exit ------------------------------------------------------------------- */

void proc_release(struct task *t)
{
	uvm_destroy(t->uvm);
	t->uvm = NULL;
	task_free(t);
}

/*
 * Children of an exiting task have nobody to reap them any more: the
 * ended ones are freed now, the others when they end.  One at a time, so
 * nothing large sits on the kernel stack.
 */
static struct task *detach_one_child(struct task *dying, bool *zombie)
{
	struct task *found = NULL;

	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	for (unsigned i = 0; i < TASK_MAX && !found; i++) {
		struct task *c = task_slot(i);
		if (c->state != TASK_FREE && c->parent == dying) {
			c->parent = NULL;
			c->ppid = 0;
			c->detached = true;
			*zombie = c->state == TASK_ZOMBIE;
			found = c;
		}
	}
	spin_unlock_irqrestore(&task_table_lock, f);
	return found;
}

static void orphan_children(struct task *dying)
{
	struct task *c;
	bool zombie;

	while ((c = detach_one_child(dying, &zombie)) != NULL) {
		if (zombie)
			proc_release(c);
	}
}

void proc_exit(int status)
{
	struct task *t = current_task();

	if (t->pid == PID_CONSOLE || t->pid == PID_IDLE)
		panic("proc_exit: pid %d may not exit", t->pid);
	irqflags_t f = arch_irq_save();
	task_hook_exit(t);
	arch_irq_restore(f);
	if (t->uvm) {
		struct uvm *u = t->uvm;
		f = arch_irq_save();
		arch_vm_activate(NULL);
		t->uvm = NULL;
		arch_irq_restore(f);
		uvm_destroy(u);
	}
	orphan_children(t);

	/* From here until the last switch nothing may preempt us: a
	 * zombie must not be put back on a run queue. */
	arch_irq_save();
	spin_lock(&task_table_lock);
	struct task *parent = t->parent;
	t->exit_status = status;
	t->state = TASK_ZOMBIE;
	spin_unlock(&task_table_lock);
	if (parent)
		waitq_wake_all(&parent->child_exit);
	sched_exit_switch();
}

/* ---- wait ------------------------------------------------------------------- */

struct wait_ctx {
	struct task *parent;
	int pid;
	struct task *zombie;    /* found: a matching child that ended */
	bool any;               /* a matching child exists at all */
};

static bool child_matches(const struct wait_ctx *w, const struct task *c)
{
	return c->state != TASK_FREE && c->parent == w->parent &&
	       (w->pid == WAIT_ANY || c->pid == w->pid);
}

/* sched_wait's condition: a zombie to reap, or nothing to wait for. */
static bool wait_done(void *arg)
{
	struct wait_ctx *w = arg;

	w->zombie = NULL;
	w->any = false;
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	for (unsigned i = 0; i < TASK_MAX && !w->zombie; i++) {
		struct task *c = task_slot(i);
		if (!child_matches(w, c))
			continue;
		w->any = true;
		if (c->state == TASK_ZOMBIE) {
			w->zombie = c;
			c->parent = NULL;       /* ours to reap; no one else's */
		}
	}
	spin_unlock_irqrestore(&task_table_lock, f);
	return w->zombie || !w->any;
}

int proc_waitpid(int pid, int *status, int options, struct task_acct *acct)
{
	struct wait_ctx w = { .parent = current_task(), .pid = pid };

	if ((pid <= 0 && pid != WAIT_ANY) || (options & ~WNOHANG))
		return -EINVAL;
	if (options & WNOHANG) {
		irqflags_t f = spin_lock_irqsave(&w.parent->child_exit.lock);
		wait_done(&w);
		spin_unlock_irqrestore(&w.parent->child_exit.lock, f);
		if (!w.zombie)
			return w.any ? 0 : -ECHILD;
	} else {
		int err = sched_wait(&w.parent->child_exit, wait_done, &w);
		if (err)
			return err;
		if (!w.zombie)
			return -ECHILD;
	}
	struct task *z = w.zombie;
	/* It may still be leaving its CPU: its counts and times are final
	 * only once it is off (context_switch cut them there). */
	sched_wait_off_cpu(z);
	/* Off every CPU, it adds to its pending sums no more (acct.h): the
	 * reap hooks and the parent read final 64-bit sums. */
	acct_fold(&z->acct);
	irqflags_t f = arch_irq_save();
	task_hook_reap(w.parent, z);
	arch_irq_restore(f);
	acct_add(&w.parent->child_acct, &z->acct);
	if (status)
		*status = z->exit_status;
	if (acct)
		*acct = z->acct;
	int zpid = z->pid;
	proc_release(z);
	return zpid;
}

/* ---- kill ------------------------------------------------------------------- */

static int kill_one(struct task *by, struct task *t, int sig)
{
	if (t->state == TASK_ZOMBIE || t->state == TASK_NEW)
		return -ESRCH;
	if (t->kthread || !task_may_signal(by, t))
		return -EPERM;
	if (sig)
		signal_send(t, sig);
	return 0;
}

static struct task *group_member(int pgid, unsigned *from)
{
	struct task *found = NULL;

	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	for (; *from < TASK_MAX && !found; (*from)++) {
		struct task *t = task_slot(*from);
		if (t->state != TASK_FREE && !t->kthread && t->pgid == pgid)
			found = t;
	}
	spin_unlock_irqrestore(&task_table_lock, f);
	return found;
}

/* Like kill(2): success if any member could be signalled. */
static int kill_group(struct task *by, int pgid, int sig)
{
	unsigned from = 0;
	int first_err = -ESRCH;
	bool any = false;
	struct task *t;

	while ((t = group_member(pgid, &from)) != NULL) {
		int r = kill_one(by, t, sig);
		if (r == 0)
			any = true;
		else if (first_err == -ESRCH)
			first_err = r;
	}
	return any ? 0 : first_err;
}

int proc_kill(int pid, int sig)
{
	struct task *by = current_task();

	if (sig != 0 && !signal_valid(sig))
		return -EINVAL;
	if (pid > 0) {
		irqflags_t f = spin_lock_irqsave(&task_table_lock);
		struct task *t = task_find(pid);
		spin_unlock_irqrestore(&task_table_lock, f);
		return t ? kill_one(by, t, sig) : -ESRCH;
	}
	if (pid == 0)
		return kill_group(by, by->pgid, sig);
	if (pid < WAIT_ANY)
		return kill_group(by, -pid, sig);
	return -EINVAL;
}
