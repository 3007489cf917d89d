/*
 * signal_frame.c - arch_signal_push and arch_signal_return: move a user
 * context between the trap frame and the user stack.
 *
 * The user stack is reached only through the kernel's checked copies
 * (kernel/mm/uvm.h), which walk the task's page table: a bad stack pointer
 * is -EFAULT, never a kernel fault, and stack pages not yet touched are
 * mapped as the user's own accesses would map them.
 */
#include <errno.h>

#include "arch_task.h"
#include "sigcontext.h"
#include "proc/task.h"
#include "mm/uvm.h"

int arch_signal_push(struct trapframe *tf, int sig, uintptr_t handler, uintptr_t restorer)
{
	struct uvm *u = current_task()->uvm;
	struct sigframe f;
	uint64_t frame, sp, ret = restorer;

	if (!u || sigframe_place(tf->rsp, &frame, &sp))
		return -EFAULT;
	sigframe_save(&f, tf, sig);
	if (copy_to_user(u, (uintptr_t)frame, &f, sizeof(f)) ||
	    copy_to_user(u, (uintptr_t)sp, &ret, sizeof(ret)))
		return -EFAULT;
	return sigframe_enter_handler(tf, sp, handler, sig);
}

/* The handler's RET popped the restorer: the frame is at the user's RSP. */
int arch_signal_return(struct trapframe *tf)
{
	struct uvm *u = current_task()->uvm;
	struct sigframe f;

	if (!u || copy_from_user(u, &f, (uintptr_t)tf->rsp, sizeof(f)))
		return -EFAULT;
	return sigframe_restore(tf, &f);
}
