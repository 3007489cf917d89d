/*
 * trap.c - where every vector lands in C.
 *
 * Each entry and exit is reported to the kernel (trap_enter, trap_exit)
 * whatever the vector and mode: user and system time are cut there.
 * Interrupt lines go to the portable kernel (kernel/irq.c acknowledges
 * them); the local APIC's vectors, the PMU's among them, to apic.c.
 * An exception from ring 3 is the task's: a page fault goes to
 * trap_page_fault, anything else becomes a signal.  An exception from
 * ring 0 is a kernel bug (the kernel never touches user addresses, so no
 * fault of its own is expected): dump the frame, then panic.  So are NMI,
 * machine check and double fault from either ring: the machine is at fault.
 * The way back to ring 3 goes through trap_return_check, where the
 * kernel preempts and delivers signals; interrupts stay off throughout.
 */
#include <stdbool.h>

#include "apic.h"
#include "arch.h"
#include "arch_task.h"
#include "cpu.h"
#include "gdt.h"
#include "percpu.h"
#include "smp.h"
#include "trap.h"

static bool from_user(const struct trapframe *tf)
{
	return (tf->cs & RING_USER) == RING_USER;
}

static bool machine_fault(uint64_t vector)
{
	return vector == VEC_NMI || vector == VEC_MACHINE_CHECK ||
	       vector == VEC_DOUBLE_FAULT;
}

void trap_fatal(const struct trapframe *tf)
{
	trap_dump(tf);
	panic("unhandled %s (vector %lu) at RIP %#lx",
	      trap_name(tf->vector), tf->vector, tf->rip);
}

static void user_exception(struct trapframe *tf, uint64_t cr2)
{
	if (tf->vector == VEC_PAGE_FAULT) {
		/* 0: mapped, retry; otherwise the task has its signal. */
		(void)trap_page_fault(tf, (uintptr_t)cr2, tf->error & PF_WRITE, true);
		return;
	}
	trap_user_fault(tf, user_fault_signal(tf->vector), trap_name(tf->vector),
			(uintptr_t)tf->rip);
}

static void kernel_exception(struct trapframe *tf, uint64_t cr2)
{
	if (tf->vector == VEC_PAGE_FAULT &&
	    trap_page_fault(tf, (uintptr_t)cr2, tf->error & PF_WRITE, false) == 0)
		return;
	trap_fatal(tf);
}

void trap(struct trapframe *tf)
{
	/* Before anything can fault again and replace it. */
	uint64_t cr2 = tf->vector == VEC_PAGE_FAULT ? read_cr2() : 0;
	bool user = from_user(tf);
	bool pic = tf->vector >= IRQ_VECTOR_BASE && tf->vector < IRQ_VECTOR_END;

	/* An AP runs no task: nothing of its own may reach the accounting or
	 * the scheduler, both CPU 0's.  The 8259 is wired to CPU 0 alone, so
	 * its lines (the tick) skip the test. */
	if (!pic && percpu_is_ap()) {
		smp_ap_trap(tf);
		return;
	}
	trap_enter(user);
	if (pic)
		irq_dispatch((unsigned)(tf->vector - IRQ_VECTOR_BASE));
	else if (tf->vector >= APIC_VECTOR_BASE && tf->vector < APIC_VECTOR_END)
		apic_interrupt(tf, user);
	else if (machine_fault(tf->vector))
		trap_fatal(tf);
	else if (user)
		user_exception(tf, cr2);
	else
		kernel_exception(tf, cr2);
	if (user)
		trap_return_check(tf);
	trap_exit(user);
}
