/*
 * signal_frame.c - arch_signal_push and arch_signal_return: move a user
 * context between the trap frame and the user stack (sigframe.h).
 *
 * The user stack is reached only through the kernel's checked copies
 * (kernel/mm/uvm.h), which walk the task's page table: a bad stack pointer
 * is -EFAULT, never a kernel fault.
 */
#include <errno.h>

#include "arch_task.h"
#include "cp0.h"
#include "sigframe.h"
#include "proc/task.h"
#include "mm/uvm.h"

int arch_signal_push(struct trapframe *tf, int sig, uintptr_t handler, uintptr_t restorer)
{
	struct uvm *u = current_task()->uvm;
	struct sigframe f;
	uint32_t frame;

	if (!u || sigframe_place(tf->regs[REG_SP], (uint32_t)u->user_base, &frame))
		return -EFAULT;
	sigframe_save(&f, tf, sig);
	if (copy_to_user(u, frame, &f, sizeof(f)))
		return -EFAULT;
	sigframe_enter_handler(tf, frame, (uint32_t)handler, (uint32_t)restorer, sig);
	return 0;
}

int arch_signal_return(struct trapframe *tf)
{
	struct uvm *u = current_task()->uvm;
	struct sigframe f;

	if (!u || copy_from_user(u, &f, tf->regs[REG_SP], sizeof(f)))
		return -EFAULT;
	return sigframe_restore(tf, &f, (uint32_t)u->user_base, (uint32_t)u->user_top,
				cp0_read_status());
}
