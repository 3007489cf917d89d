/*
 * usermode.c - the user context in a trap frame: building one for a new
 * program, reading and writing the system call registers, and the first
 * entry into ring 3.
 *
 * System call ABI (fixed; user/ and arch/x86_64/user/syscall.asm follow
 * it): number in rax, arguments in rdi rsi rdx r10 r8 r9, result in rax.
 * r10 stands in for rcx, which SYSCALL overwrites with the return RIP.
 *
 * User programs get no x87, MMX or SSE: the kernel does not save those
 * registers across switches, so tasks would see each other's.  CR0.EM
 * makes every such instruction fault (#NM or #UD: SIGILL) instead.
 */
#include <stddef.h>

#include "arch.h"
#include "arch_task.h"
#include "syscall_nr.h"
#include "cpu.h"
#include "gdt.h"
#include "trap.h"
#include "usermode.h"

#define USER_CS (GDT_USER_CS | RING_USER)
#define USER_SS (GDT_USER_DS | RING_USER)

void usermode_init(void)
{
	write_cr0((read_cr0() | CR0_EM) & ~(CR0_MP | CR0_TS));
}

size_t arch_trapframe_size(void)
{
	return sizeof(struct trapframe);
}

void arch_tf_init_user(struct trapframe *tf, uintptr_t pc, uintptr_t sp,
		       uintptr_t arg0, uintptr_t arg1)
{
	*tf = (struct trapframe){
		.rip = pc,
		.cs = USER_CS,
		.rflags = USER_RFLAGS,
		.rsp = sp,
		.ss = USER_SS,
		.rdi = arg0,
		.rsi = arg1,
	};
}

uintptr_t arch_tf_pc(const struct trapframe *tf)
{
	return (uintptr_t)tf->rip;
}

uintptr_t arch_tf_sp(const struct trapframe *tf)
{
	return (uintptr_t)tf->rsp;
}

uintptr_t arch_tf_fp(const struct trapframe *tf)
{
	return (uintptr_t)tf->rbp;
}

uintptr_t arch_tf_ra(const struct trapframe *tf)
{
	(void)tf;
	return 0;
}

/* In place: the frame keeps rdi, rsi, rdx, r10, r8, r9 in that order
 * (trapframe.h), so buf is not needed. */
const syscall_arg_t *arch_tf_syscall_args(const struct trapframe *tf, uintptr_t buf[6])
{
	(void)buf;
	return (const syscall_arg_t *)&tf->rdi;
}

uintptr_t arch_tf_syscall_nr(const struct trapframe *tf)
{
	/* The whole register: the dispatch's bounds test sees all 64 bits,
	 * so no number beyond 32 bits aliases a valid one, and the table
	 * index needs no zero-extension. */
	return (uintptr_t)tf->rax;
}

/* SYSCALL already points RIP past itself: nothing to step over. */
void arch_tf_set_return(struct trapframe *tf, intptr_t value)
{
	tf->rax = (uint64_t)value;
}
