/*
 * trap_dump.c - print a trap frame the way a person debugging a crash
 * wants it: what happened, where, and every register.
 */
#include <stdio.h>

#include "arch_task.h"
#include "cpu.h"
#include "dumpstack.h"
#include "gdt.h"
#include "trap.h"

static const char *const names[TRAP_EXCEPTIONS] = {
	[VEC_DIVIDE] = "#DE divide error",
	[VEC_DEBUG] = "#DB debug",
	[VEC_NMI] = "NMI",
	[VEC_BREAKPOINT] = "#BP breakpoint",
	[VEC_OVERFLOW] = "#OF overflow",
	[VEC_BOUND] = "#BR bound range",
	[VEC_INVALID_OP] = "#UD invalid opcode",
	[VEC_NO_FPU] = "#NM device not available",
	[VEC_DOUBLE_FAULT] = "#DF double fault",
	[VEC_COPROC_SEG] = "coprocessor segment overrun",
	[VEC_INVALID_TSS] = "#TS invalid TSS",
	[VEC_NO_SEGMENT] = "#NP segment not present",
	[VEC_STACK] = "#SS stack fault",
	[VEC_GP] = "#GP general protection",
	[VEC_PAGE_FAULT] = "#PF page fault",
	[VEC_FPU_ERROR] = "#MF x87 error",
	[VEC_ALIGNMENT] = "#AC alignment check",
	[VEC_MACHINE_CHECK] = "#MC machine check",
	[VEC_SIMD] = "#XM SIMD exception",
	[VEC_VIRT] = "#VE virtualization",
	[VEC_CONTROL_PROT] = "#CP control protection",
	[VEC_HV_INJECT] = "#HV hypervisor injection",
	[VEC_VMM_COMM] = "#VC VMM communication",
	[VEC_SECURITY] = "#SX security",
};

const char *trap_name(uint64_t vector)
{
	if (vector < TRAP_EXCEPTIONS)
		return names[vector] ? names[vector] : "reserved exception";
	if (vector < TRAP_VECTORS)
		return "interrupt";
	if (vector == TRAP_SYSCALL)
		return "system call";
	return "unknown vector";
}

static void dump_pf_cause(uint64_t error)
{
	printf("  cause: %s %s in %s mode%s\n",
	       error & PF_FETCH ? "fetch" : error & PF_WRITE ? "write" : "read",
	       error & PF_PRESENT ? "violating protection" : "of a not-present page",
	       error & PF_USER ? "user" : "kernel",
	       error & PF_RESERVED ? ", reserved bit set" : "");
}

static void dump_gprs(const struct trapframe *tf)
{
	printf("  RAX %016lx  RBX %016lx  RCX %016lx\n", tf->rax, tf->rbx, tf->rcx);
	printf("  RDX %016lx  RSI %016lx  RDI %016lx\n", tf->rdx, tf->rsi, tf->rdi);
	printf("  RBP %016lx  R8  %016lx  R9  %016lx\n", tf->rbp, tf->r8, tf->r9);
	printf("  R10 %016lx  R11 %016lx  R12 %016lx\n", tf->r10, tf->r11, tf->r12);
	printf("  R13 %016lx  R14 %016lx  R15 %016lx\n", tf->r13, tf->r14, tf->r15);
}

void trap_dump(const struct trapframe *tf)
{
	/* CR2 first: a fault while printing would overwrite it. */
	uint64_t cr2 = read_cr2();

	printf("\ntrap: %s, vector %lu, error code %#lx\n",
	       trap_name(tf->vector), tf->vector, tf->error);
	printf("  RIP %016lx  CS %04lx  RFLAGS %016lx\n", tf->rip, tf->cs, tf->rflags);
	printf("  RSP %016lx  SS %04lx\n", tf->rsp, tf->ss);
	/* CR2 means something only for #PF, but costs nothing to show. */
	printf("  CR2 %016lx  CR3 %016lx\n", cr2, read_cr3());
	if (tf->vector == VEC_PAGE_FAULT)
		dump_pf_cause(tf->error);
	dump_gprs(tf);
	if ((tf->cs & RING_USER) == RING_KERNEL)
		stack_trace_from(tf->rsp);
}

/* A user context, for fault reports: no control registers, no kernel
 * call trace, nothing about the kernel at all. */
void arch_tf_dump(const struct trapframe *tf)
{
	printf("  RIP %016lx  RSP %016lx  RFLAGS %016lx\n", tf->rip, tf->rsp, tf->rflags);
	dump_gprs(tf);
}
