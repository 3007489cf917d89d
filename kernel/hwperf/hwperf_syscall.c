/*
 * hwperf_syscall.c - SYS_hwperf: decode the operation, copy the user's
 * structures in, call hwperf as the calling task, copy the results out.
 *
 * The kernel never touches a user pointer except through the uvm copies,
 * and every argument is checked before hwperf is asked anything, so a bad
 * pointer or a bad op changes nothing.  A control (~1.8 KiB) and a counts
 * block (768 B) do not belong on the one-page kernel stack.  Controls
 * (rare: enable, get, set) come through a kmalloc'd buffer; counts, read
 * on the hot path, straight into the caller's buffer when a plain read's
 * lies in one page (its kernel address, checked as a copy would check
 * it), else through a buffer of the CPU's own, held with preemption off
 * from the read to the end of the copy out, so neither the heap nor a
 * second task touches it.  The copy out is checked page by page
 * (EFAULT), and nothing reaches the caller when the read fails.
 * HWPERF_OP_MAP gives the caller its read page (kernel/hwperf/upage.c),
 * to read counts without coming here.  Which op takes what, and what it
 * does, is the table in kernel/hwperf/ops.c, shared with the console.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "arch.h"
#include "mm/heap.h"
#include "hwperf/hwperf.h"
#include "hwperf/ops.h"
#include "hwperf_syscall.h"
#include "proc/task.h"
#include "mm/uvm.h"
#include "spinlock.h"

/* One call's kernel copy of a control. */
union hwperf_buf {
	struct hwperf_control ctl;
};

/* Per CPU: the counts of the read in progress on it. */
static struct hwperf_counts counts_buf[CPU_MAX];
static struct hwperf_pctr pctr_buf[CPU_MAX];

/* kmalloc's largest block, 2048 bytes less its header (heap.c). */
#define HEAP_BLOCK_MAX 2040u
_Static_assert(sizeof(union hwperf_buf) <= HEAP_BLOCK_MAX,
	       "a control must fit one heap block");

/* The user pointers of one call, beside its description. */
struct user_args {
	uintptr_t arg, arg2;
};

/* Ops that take a control: enable, profile, set-control, system ones. */
static int run_ctl_in(const struct hwperf_op *d, struct hwperf_call *c,
		      const struct user_args *u, struct hwperf_reason *why)
{
	if (copy_from_user(c->uvm, c->ctl, u->arg, sizeof(*c->ctl)))
		return -EFAULT;
	return d->run(c, why);
}

static int run_ctl_out(const struct hwperf_op *d, struct hwperf_call *c,
		       const struct user_args *u, struct hwperf_reason *why)
{
	int r = d->run(c, why);

	if (r >= 0 && copy_to_user(c->uvm, u->arg, c->ctl, sizeof(*c->ctl)))
		return -EFAULT;
	return r;
}

/* Like a counts read: the CPU's own buffer, preemption off meanwhile. */
static int run_pctr_out(const struct hwperf_op *d, struct hwperf_call *c,
			const struct user_args *u, struct hwperf_reason *why)
{
	struct task *t = current_task();
	int r;

	t->preempt_off++;
	c->pctr = &pctr_buf[this_cpu()->id];
	r = d->run(c, why);
	if (r >= 0 && copy_to_user(c->uvm, u->arg, c->pctr, sizeof(*c->pctr)))
		r = -EFAULT;
	t->preempt_off--;
	return r;
}

static int run_counts_out(const struct hwperf_op *d, struct hwperf_call *c,
			  const struct user_args *u, struct hwperf_reason *why)
{
	struct task *t = current_task();
	struct hwperf_rusage ru;
	int r;

	t->preempt_off++;
	c->counts = &counts_buf[this_cpu()->id];
	c->ru = &ru;
	r = d->run(c, why);
	if (r >= 0 && copy_to_user(c->uvm, u->arg, c->counts, sizeof(*c->counts)))
		r = -EFAULT;
	t->preempt_off--;
	if (r >= 0 && d->arg == HWPERF_ARG_COUNTS_RU &&
	    copy_to_user(c->uvm, u->arg2, &ru, sizeof(ru)))
		return -EFAULT;
	return r;
}

/*
 * HWPERF_OP_MAP, the caller's read page (abi.h): mapped read-only at its
 * fixed address, attached to the caller's counters, and user-mode counter
 * reads allowed from this return to user on (the switch-in keeps them
 * allowed).
 */
int hwperf_op_map(const struct hwperf_call *c, struct hwperf_reason *why)
{
	int err = hwperf_upage_check(c->caller, why);
	struct hwperf_upage *page;

	if (err)
		return err;
	if (!c->uvm)
		return -EINVAL;
	page = uvm_map_kernel_page(c->uvm, HWPERF_UPAGE_ADDR, &err);
	if (!page)
		return err;
	err = hwperf_upage_attach(c->caller, page, arch_user_cycles_bits(),
				  arch_cycles());
	arch_user_counters(true);
	return err;
}

/* The door's own work by what the op takes: copies in and out around
 * the row's handler, which is the console's too. */
static int run(const struct hwperf_op *d, struct hwperf_call *c, const struct user_args *u)
{
	struct hwperf_reason why;

	switch (d->arg) {
	case HWPERF_ARG_CTL_IN: return run_ctl_in(d, c, u, &why);
	case HWPERF_ARG_CTL_OUT: return run_ctl_out(d, c, u, &why);
	case HWPERF_ARG_NONE: return d->run(c, &why);
	case HWPERF_ARG_PCTR_OUT: return run_pctr_out(d, c, u, &why);
	default: return run_counts_out(d, c, u, &why);
	}
}

/* The own read, with the reason its refusal needs: inline in the hot
 * path below, whose frame is then the read's (the lock's flags, the task
 * and the buffer held across the fold and the copy) and nothing more. */
static inline intptr_t read_own(struct task *t, struct hwperf_counts *out)
{
	struct hwperf_reason why;

	return hwperf_read_own(&t->hw, out, &why);
}

static __attribute__((noinline)) intptr_t read_other(struct task *t, int pid,
                                                     struct hwperf_counts *out)
{
	struct hwperf_reason why;

	return hwperf_read(&t->hw, pid, out, &why);
}

/*
 * A plain read of counts into a buffer that lies in one page goes
 * straight to hwperf_read, which writes them there only when it
 * succeeds: one copy from the set, none through counts_buf, and none of
 * the table's generic door.  The checks are the door's for the row
 * (hwperf_op_check: arg2 0, id an int >= 0; a NULL or bad arg is no
 * page, so the door says EFAULT); anything else takes the door.
 */
static bool read_in_place(const syscall_arg_t *a, struct task *t, intptr_t *r)
{
	struct hwperf_counts *out;

	if (a[0] != HWPERF_OP_READ || a[3] != 0 || a[1] > (uintptr_t)INT_MAX)
		return false;
	out = uvm_user_span(t->uvm, a[2], sizeof(*out), VM_PROT_READ | VM_PROT_WRITE);
	if (!out)
		return false;
	*r = a[1] == 0 ? read_own(t, out) : read_other(t, (int)a[1], out);
	return true;
}

/* Every other call, through the op table.  Out of line: its buffers and
 * saved registers would otherwise be the hot read's stack frame too. */
static __attribute__((noinline)) intptr_t door(const syscall_arg_t *a, struct task *t)
{
	const struct hwperf_op *d = hwperf_op_get(a[0]);
	struct user_args u = { .arg = a[2], .arg2 = a[3] };
	struct hwperf_call c = { .id = (int)a[1], .caller = &t->hw, .uvm = t->uvm };
	union hwperf_buf *buf = NULL;

	/* Ids and ops are small: one that does not survive the cast to
	 * int is out of range, like a negative one. */
	if (!d || (uintptr_t)(unsigned)a[1] != a[1])
		return -EINVAL;
	int err = hwperf_op_check(d, c.id, u.arg, u.arg2);
	if (err)
		return err;
	if (d->arg == HWPERF_ARG_CTL_IN || d->arg == HWPERF_ARG_CTL_OUT) {
		buf = kmalloc(sizeof(*buf));
		if (!buf)
			return -ENOMEM;
		c.ctl = &buf->ctl;
	}
	err = run(d, &c, &u);
	if (buf)
		kfree(buf);
	return err;
}

/* Every call but the hot read, inside giant like every system call
 * that is not only the caller's (kernel/syscall.c). */
static __attribute__((noinline)) intptr_t under_giant(const syscall_arg_t *a,
                                                      struct task *t)
{
	intptr_t r;

	giant_lock();
	if (!read_in_place(a, t, &r))
		r = door(a, t);
	giant_unlock();
	return r;
}

/*
 * The hot path (`hwread`): the caller's own counts into the page its last
 * read wrote, which it has not unmapped since (uvm_user_span_known), take
 * no giant: hwperf needs none (its lock guards every count, and it runs
 * from the scheduler and interrupts, which never hold giant; its refusal
 * is logged through the console's own lock), and the page and the
 * address space are the caller's own, which only the caller changes, and
 * it is here.  The read is inline, so sys_hwperf's frame is the read's
 * (Malta: giant's wrapper and the door's frame were ten saved registers
 * and two tests of giant's switch a read).  The first read into a page,
 * and every other call, go under giant.
 */
intptr_t sys_hwperf(const syscall_arg_t *a, struct trapframe *tf)
{
	(void)tf;
	struct task *t = current_task();
	struct hwperf_counts *out;

	if (a[0] == HWPERF_OP_READ && a[1] == 0 && a[3] == 0 &&
	    (out = uvm_user_span_known(t->uvm, a[2], sizeof(*out))) != NULL)
		return read_own(t, out);
	return under_giant(a, t);
}
