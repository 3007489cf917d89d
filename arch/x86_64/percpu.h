/*
 * percpu.h - what each CPU keeps for itself, reached through GS.
 *
 * In the kernel GS base points at the running CPU's struct x86_cpu; in
 * user mode it holds the user's value (0) and MSR_KERNEL_GS_BASE holds
 * ours, so every entry from ring 3 starts with SWAPGS and every return
 * to it ends with one.  The SYSCALL entry finds its stack here: SYSCALL
 * switches neither stack nor GS by itself.
 *
 * syscall_entry.asm and trapentry.asm read the fields by offset; the asserts in percpu.c
 * keep both in step.
 */
#ifndef TALLY_X86_64_PERCPU_H
#define TALLY_X86_64_PERCPU_H

#include <stdint.h>

struct x86_cpu {
	struct x86_cpu *self;           /* GS:0, so C can find the struct */
	uint64_t kernel_rsp;            /* top of the running task's kernel stack */
	uint64_t user_rsp;              /* SYSCALL entry's scratch */
	/* The user/kernel boundary (kernel/arch.h arch_user_span): the
	 * entry and exit stubs park RAX and RDX here to read the TSC. */
	uint64_t save_rax;
	uint64_t save_rdx;
	uint64_t entry_tsc;             /* the last entry from ring 3 */
	uint64_t exit_tsc;              /* the last return to ring 3 ... */
	uint64_t *exit_sink;            /* ... written here; &exit_tsc or a read page */
	unsigned id;
};

#define PERCPU_SELF        0
#define PERCPU_KERNEL_RSP  8
#define PERCPU_USER_RSP    16
#define PERCPU_SAVE_RAX    24
#define PERCPU_SAVE_RDX    32
#define PERCPU_ENTRY_TSC   40
#define PERCPU_EXIT_TSC    48
#define PERCPU_EXIT_SINK   56

/* Boot CPU: point GS at its area.  Before any user mode. */
void percpu_init(void);

static inline struct x86_cpu *this_x86_cpu(void)
{
	struct x86_cpu *c;

	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(c) : "i"(PERCPU_SELF));
	return c;
}

#endif
