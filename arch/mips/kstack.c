/*
 * kstack.c - kernel stacks: the first frame of a new one, and which one
 * an exception from user mode lands on (vectors.S reads the CPU's
 * kframe word, pcpu.h).
 */
#include <stdint.h>

#include "arch.h"
#include "arch_task.h"
#include "pcpu.h"
#include "switch.h"
#include "trapframe.h"

_Static_assert(sizeof(struct switch_frame) == SW_FRAME, "switch.S frame");
_Static_assert(SW_FRAME % O32_STACK_ALIGN == 0, "switch frame keeps alignment");

void mips_kstack_entry_returned(void) __attribute__((noreturn));

void mips_kstack_entry_returned(void)
{
	panic("kstack: a context's entry function returned");
}

uintptr_t arch_kstack_init(void *top, void (*entry)(void *), void *arg)
{
	/* entry's argument save area lies above the sp it starts with; it
	 * must not reach past top (a new user task's frame is there). */
	uintptr_t sp = ((uintptr_t)top & ~(uintptr_t)(O32_STACK_ALIGN - 1)) - O32_ARGSAVE;
	struct switch_frame *f = (struct switch_frame *)sp - 1;

	*f = (struct switch_frame){
		.s = { [0] = (uint32_t)(uintptr_t)entry, [1] = (uint32_t)(uintptr_t)arg },
		.fp = 0,
		.ra = (uint32_t)(uintptr_t)mips_kstack_first_entry,
	};
	return (uintptr_t)f;
}

void arch_set_kernel_stack(void *top)
{
	/* The frame's place, not the top: one instruction less on every
	 * exception from user mode (vectors.S). */
	pcpu_here()->kframe = (uint32_t)(uintptr_t)top - TF_STACK;
}
