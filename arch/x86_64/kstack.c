/*
 * kstack.c - kernel stacks: the first frame of a new one, and telling the
 * CPU which one to use when user mode traps or makes a system call.
 */
#include <stdint.h>

#include "arch.h"
#include "arch_task.h"
#include "gdt.h"
#include "percpu.h"

#define STACK_ALIGN 16

/* What arch_switch pops, lowest address first (switch.asm). */
struct switch_frame {
	uint64_t r15, r14, r13, r12, rbx, rbp;
	uint64_t ret;
};

/* switch.asm */
void kstack_first_entry(void);
void kstack_entry_returned(void) __attribute__((noreturn));

void kstack_entry_returned(void)
{
	panic("kstack: a context's entry function returned");
}

uintptr_t arch_kstack_init(void *top, void (*entry)(void *), void *arg)
{
	/* After its RET, RSP is the aligned top: kstack_first_entry's call
	 * then gives entry the alignment the ABI promises. */
	uintptr_t aligned = (uintptr_t)top & ~(uintptr_t)(STACK_ALIGN - 1);
	struct switch_frame *f = (struct switch_frame *)aligned - 1;

	*f = (struct switch_frame){
		.r12 = (uint64_t)(uintptr_t)entry,
		.r13 = (uint64_t)(uintptr_t)arg,
		.rbp = 0,                       /* ends frame-pointer walks */
		.ret = (uint64_t)(uintptr_t)kstack_first_entry,
	};
	return (uintptr_t)f;
}

/*
 * Both ways in from ring 3 must find it: interrupts and exceptions
 * through TSS.RSP0, SYSCALL through the per-CPU area.  Every switch to a
 * user task passes here, so this is also where the exit stamp's sink
 * goes back to the CPU's own word: the last task's read page (exit_upage
 * may have pointed it there) is no concern of the next, and may be freed
 * once that task has exited (it detaches its page only then, as it
 * runs, and never returns to user mode after).  Entries from ring 3
 * leave the sink alone (user_span.c).
 *
 * The SYSCALL stub starts 8 bytes lower, below the frame's SS slot,
 * which it does not write: that slot of a user task's frame always holds
 * USER_SS already.  Every writer of the frame puts it there (the CPU,
 * from ring 3, whose only SS is GDT_USER_DS | 3: a null SS faults in
 * ring 3 and no other descriptor has DPL 3; spawn's
 * arch_tf_init_user; fork's copy of such a frame; sigreturn's
 * sigframe_restore), and SYSRET itself takes SS from MSR_STAR.
 */
void arch_set_kernel_stack(void *top)
{
	uint64_t rsp = (uint64_t)(uintptr_t)top;
	struct x86_cpu *c = this_x86_cpu();

	tss_set_rsp0(rsp);
	c->kernel_rsp = rsp - sizeof(uint64_t);
	c->exit_sink = &c->exit_tsc;
}
