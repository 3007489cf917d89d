/*
 * hwperf_syscall.c - SYS_hwperf: decode the operation, copy the user's
 * structures in, call hwperf as the calling task, copy the results out.
 *
 * The kernel never touches a user pointer except through the uvm copies,
 * and every argument is checked before hwperf is asked anything, so a bad
 * pointer or a bad op changes nothing.  A control (~1.8 KiB) and a counts
 * block (768 B) do not belong on the one-page kernel stack.  Controls
 * (rare: enable, get, set) come through a kmalloc'd buffer; counts, read
 * on the hot path, through a buffer of the CPU's own, held with
 * preemption off from the read to the end of the copy out, so neither
 * the heap nor a second task touches it.  The copy out is checked page by
 * page (EFAULT), and nothing reaches the caller when the read fails.
 * HWPERF_OP_MAP gives the caller its read page (kernel/hwperf/upage.c),
 * to read counts without coming here.
 */
#include <errno.h>
#include <string.h>

#include "arch.h"
#include "mm/heap.h"
#include "hwperf/hwperf.h"
#include "hwperf_syscall.h"
#include "proc/task.h"
#include "mm/uvm.h"

/* What an op takes besides its id; anything else must be 0 (EINVAL). */
enum arg_kind {
	ARG_NONE,       /* no pointer */
	ARG_CTL_IN,     /* arg: a control to read */
	ARG_CTL_OUT,    /* arg: a control to fill */
	ARG_COUNTS_OUT, /* arg: counts to fill */
	ARG_COUNTS_RU,  /* arg: counts, arg2: resource usage */
	ARG_PCTR_OUT,   /* arg: a pctr read to fill */
};

enum id_kind { ID_PID, ID_CPU, ID_ZERO };

struct op_desc {
	uint8_t arg;    /* enum arg_kind */
	uint8_t id;     /* enum id_kind */
};

static const struct op_desc ops[HWPERF_OP_COUNT] = {
	[HWPERF_OP_ENABLE] = { ARG_CTL_IN, ID_PID },
	[HWPERF_OP_READ] = { ARG_COUNTS_OUT, ID_PID },
	[HWPERF_OP_READ_RUSAGE] = { ARG_COUNTS_RU, ID_PID },
	[HWPERF_OP_GET_CONTROL] = { ARG_CTL_OUT, ID_PID },
	[HWPERF_OP_SET_CONTROL] = { ARG_CTL_IN, ID_PID },
	[HWPERF_OP_RELEASE] = { ARG_NONE, ID_PID },
	[HWPERF_OP_SAVE_CHILD] = { ARG_NONE, ID_PID },
	[HWPERF_OP_PROFILE] = { ARG_CTL_IN, ID_PID },
	[HWPERF_OP_SYS_ACQUIRE] = { ARG_CTL_IN, ID_ZERO },
	[HWPERF_OP_SYS_READ] = { ARG_COUNTS_OUT, ID_ZERO },
	[HWPERF_OP_CPU_READ] = { ARG_COUNTS_OUT, ID_CPU },
	[HWPERF_OP_SYS_GET_CONTROL] = { ARG_CTL_OUT, ID_ZERO },
	[HWPERF_OP_SYS_SET_CONTROL] = { ARG_CTL_IN, ID_ZERO },
	[HWPERF_OP_SYS_RELEASE] = { ARG_NONE, ID_ZERO },
	[HWPERF_OP_MAP] = { ARG_NONE, ID_ZERO },
	[HWPERF_OP_PAUSE] = { ARG_NONE, ID_PID },
	[HWPERF_OP_RESUME] = { ARG_NONE, ID_PID },
	[HWPERF_OP_RESET] = { ARG_NONE, ID_PID },
	[HWPERF_OP_PCTR_READ] = { ARG_PCTR_OUT, ID_PID },
};

/* One call's kernel copy of a control. */
union hwperf_buf {
	struct hwperf_control ctl;
};

struct call {
	int op;
	int id;
	uintptr_t arg, arg2;
	struct hwperf_task *me;
	struct uvm *uvm;
	union hwperf_buf *buf;
	struct hwperf_rusage ru;
};

/* Per CPU: the counts of the read in progress on it. */
static struct hwperf_counts counts_buf[CPU_MAX];
static struct hwperf_pctr pctr_buf[CPU_MAX];

/* kmalloc's largest block, 2048 bytes less its header (heap.c). */
#define HEAP_BLOCK_MAX 2040u
_Static_assert(sizeof(union hwperf_buf) <= HEAP_BLOCK_MAX,
	       "a control must fit one heap block");

static int check_args(const struct call *c, const struct op_desc *d)
{
	bool uses_arg = d->arg != ARG_NONE;
	bool uses_arg2 = d->arg == ARG_COUNTS_RU;

	if ((!uses_arg && c->arg) || (!uses_arg2 && c->arg2))
		return -EINVAL;
	if (d->id == ID_ZERO && c->id != 0)
		return -EINVAL;
	if (c->id < 0)
		return -EINVAL;
	/* A NULL pointer is as bad as any other unmapped one. */
	if ((uses_arg && !c->arg) || (uses_arg2 && !c->arg2))
		return -EFAULT;
	return 0;
}

/* Ops that take a control: enable, profile, set-control, system ones. */
static int run_ctl_in(struct call *c, struct hwperf_reason *why)
{
	const struct hwperf_control *ctl = &c->buf->ctl;

	if (copy_from_user(c->uvm, &c->buf->ctl, c->arg, sizeof(c->buf->ctl)))
		return -EFAULT;
	switch (c->op) {
	case HWPERF_OP_ENABLE: return hwperf_enable(c->me, c->id, ctl, why);
	case HWPERF_OP_PROFILE: return hwperf_profile_enable(c->me, c->id, ctl, why);
	case HWPERF_OP_SET_CONTROL: return hwperf_set_control(c->me, c->id, ctl, why);
	case HWPERF_OP_SYS_ACQUIRE: return hwperf_sys_acquire(c->me, ctl, why);
	default: return hwperf_sys_set_control(c->me, ctl, why);
	}
}

static int run_ctl_out(struct call *c, struct hwperf_reason *why)
{
	int r = c->op == HWPERF_OP_GET_CONTROL
		? hwperf_get_control(c->me, c->id, &c->buf->ctl, why)
		: hwperf_sys_get_control(c->me, &c->buf->ctl, why);

	if (r >= 0 && copy_to_user(c->uvm, c->arg, &c->buf->ctl, sizeof(c->buf->ctl)))
		return -EFAULT;
	return r;
}

/* Like a counts read: the CPU's own buffer, preemption off meanwhile. */
static int run_pctr_out(struct call *c, struct hwperf_reason *why)
{
	struct task *t = current_task();
	int r;

	t->preempt_off++;
	struct hwperf_pctr *out = &pctr_buf[this_cpu()->id];

	r = hwperf_pctr_read(c->me, c->id, out, why);
	if (r >= 0 && copy_to_user(c->uvm, c->arg, out, sizeof(*out)))
		r = -EFAULT;
	t->preempt_off--;
	return r;
}

static int run_counts_out(struct call *c, struct hwperf_reason *why)
{
	struct task *t = current_task();
	int r;

	t->preempt_off++;
	struct hwperf_counts *out = &counts_buf[this_cpu()->id];

	switch (c->op) {
	case HWPERF_OP_READ: r = hwperf_read(c->me, c->id, out, why); break;
	case HWPERF_OP_READ_RUSAGE:
		r = hwperf_read_rusage(c->me, c->id, out, &c->ru, why);
		break;
	case HWPERF_OP_SYS_READ: r = hwperf_sys_read(c->me, out, why); break;
	default: r = hwperf_cpu_read(c->me, c->id, out, why); break;
	}
	if (r >= 0 && copy_to_user(c->uvm, c->arg, out, sizeof(*out)))
		r = -EFAULT;
	t->preempt_off--;
	if (r >= 0 && c->op == HWPERF_OP_READ_RUSAGE &&
	    copy_to_user(c->uvm, c->arg2, &c->ru, sizeof(c->ru)))
		return -EFAULT;
	return r;
}

/*
 * The caller's read page (abi.h): mapped read-only at its fixed address,
 * attached to the caller's counters, and user-mode counter reads allowed
 * from this return to user on (the switch-in keeps them allowed).
 */
static int map_read_page(struct call *c, struct hwperf_reason *why)
{
	int err = hwperf_upage_check(c->me, why);
	struct hwperf_upage *page;

	if (err)
		return err;
	if (!c->uvm)
		return -EINVAL;
	page = uvm_map_kernel_page(c->uvm, HWPERF_UPAGE_ADDR, &err);
	if (!page)
		return err;
	err = hwperf_upage_attach(c->me, page, arch_user_cycles_bits(),
				  arch_cycles());
	arch_user_counters(true);
	return err;
}

static int run_no_arg(struct call *c, struct hwperf_reason *why)
{
	switch (c->op) {
	case HWPERF_OP_MAP: return map_read_page(c, why);
	case HWPERF_OP_RELEASE: return hwperf_release(c->me, c->id, why);
	case HWPERF_OP_SAVE_CHILD: return hwperf_save_child(c->me, c->id, why);
	case HWPERF_OP_PAUSE: return hwperf_pause(c->me, c->id, why);
	case HWPERF_OP_RESUME: return hwperf_resume(c->me, c->id, why);
	case HWPERF_OP_RESET: return hwperf_reset(c->me, c->id, why);
	default: return hwperf_sys_release(c->me, why);
	}
}

static int run(struct call *c, enum arg_kind kind)
{
	struct hwperf_reason why;

	switch (kind) {
	case ARG_CTL_IN: return run_ctl_in(c, &why);
	case ARG_CTL_OUT: return run_ctl_out(c, &why);
	case ARG_NONE: return run_no_arg(c, &why);
	case ARG_PCTR_OUT: return run_pctr_out(c, &why);
	default: return run_counts_out(c, &why);
	}
}

intptr_t sys_hwperf(const uintptr_t *a, struct trapframe *tf)
{
	(void)tf;
	struct task *t = current_task();
	struct call c = {
		.op = (int)a[0], .id = (int)a[1], .arg = a[2], .arg2 = a[3],
		.me = &t->hw, .uvm = t->uvm,
	};

	/* Ids and ops are small: one that does not survive the cast to
	 * int is out of range, like a negative one. */
	if (a[0] >= HWPERF_OP_COUNT || (uintptr_t)(unsigned)a[1] != a[1])
		return -EINVAL;
	const struct op_desc *d = &ops[c.op];
	int err = check_args(&c, d);
	if (err)
		return err;
	if (d->arg == ARG_CTL_IN || d->arg == ARG_CTL_OUT) {
		c.buf = kmalloc(sizeof(*c.buf));
		if (!c.buf)
			return -ENOMEM;
	}
	err = run(&c, (enum arg_kind)d->arg);
	if (c.buf)
		kfree(c.buf);
	return err;
}
