/*
 * trap.h - vectors and the C side of the trap path.
 *
 * Vectors 0-31 are CPU exceptions; the 8259 pair is remapped right above
 * them.  Only vectors below TRAP_VECTORS have gates; any other one raises
 * #GP with the vector in the error code, which the dump shows.
 */
#ifndef TALLY_X86_64_TRAP_H
#define TALLY_X86_64_TRAP_H

#include <stdint.h>

#include "i8259.h"
#include "trapframe.h"

/* Exception vectors (Intel SDM vol. 3, table 6-1). */
#define VEC_DIVIDE       0
#define VEC_DEBUG        1
#define VEC_NMI          2
#define VEC_BREAKPOINT   3
#define VEC_OVERFLOW     4
#define VEC_BOUND        5
#define VEC_INVALID_OP   6
#define VEC_NO_FPU       7
#define VEC_DOUBLE_FAULT 8
#define VEC_COPROC_SEG   9
#define VEC_INVALID_TSS  10
#define VEC_NO_SEGMENT   11
#define VEC_STACK        12
#define VEC_GP           13
#define VEC_PAGE_FAULT   14
#define VEC_FPU_ERROR    16
#define VEC_ALIGNMENT    17
#define VEC_MACHINE_CHECK 18
#define VEC_SIMD         19
#define VEC_VIRT         20
#define VEC_CONTROL_PROT 21
#define VEC_HV_INJECT    28
#define VEC_VMM_COMM     29
#define VEC_SECURITY     30

#define TRAP_EXCEPTIONS  32
#define IRQ_VECTOR_BASE  TRAP_EXCEPTIONS
#define IRQ_VECTOR_END   (IRQ_VECTOR_BASE + I8259_IRQS)
/*
 * Local APIC vectors (apic.c), in the 16 right above the 8259's.  The
 * spurious vector ends in 1111 because P6-family APICs hard-wire those
 * bits (SDM vol. 3A, 10.9, Figure 10-23).
 */
#define APIC_VECTOR_BASE IRQ_VECTOR_END
#define VEC_APIC_TIMER   0x3b   /* an AP's LVT timer (smp.c) */
#define VEC_IPI_CALL     0x3c   /* "run this function" (smp_call) */
#define VEC_IPI_RESCHED  0x3d   /* reserved for the SMP scheduler */
#define VEC_APIC_PMI     0x3e   /* LVT performance-monitoring counters */
#define VEC_APIC_SPURIOUS 0x3f
#define APIC_VECTOR_END  (APIC_VECTOR_BASE + 16)
#define TRAP_VECTORS     APIC_VECTOR_END
/* The vector field of a frame built by the SYSCALL entry: no gate has it. */
#define TRAP_SYSCALL     0x100

/* Page-fault error code bits. */
#define PF_PRESENT       (1u << 0)
#define PF_WRITE         (1u << 1)
#define PF_USER          (1u << 2)
#define PF_RESERVED      (1u << 3)
#define PF_FETCH         (1u << 4)

/* trapentry.asm: entry points, one per vector below TRAP_VECTORS. */
extern const uint64_t trap_stubs[], trap_stubs_end[];

/* Called by trap_common with interrupts off. */
void trap(struct trapframe *tf);

void idt_init(void);
/* Load the IDT idt_init built, on an AP. */
void idt_load(void);

/* Dump the frame and panic: an exception nothing handles. */
void trap_fatal(const struct trapframe *tf) __attribute__((noreturn));

/* trap_dump.c */
const char *trap_name(uint64_t vector);
void trap_dump(const struct trapframe *tf);

/* user_fault.c: the signal an exception from ring 3 earns (uabi.h). */
int user_fault_signal(uint64_t vector);

/* syscall_entry.c: route SYSCALL to the kernel.  After percpu_init. */
void syscall_init(void);

#endif
