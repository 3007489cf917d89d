/*
 * trap.c - where every vector lands in C.
 *
 * Interrupt lines go to the portable kernel (kernel/irq.c acknowledges
 * them); every exception is fatal for now, since the kernel takes none on
 * purpose: dump the frame, then panic.  User-mode faults (signals) and
 * page faults that map on demand will branch off here first.
 */
#include "arch.h"
#include "trap.h"

void trap(struct trapframe *tf)
{
	if (tf->vector >= IRQ_VECTOR_BASE && tf->vector < TRAP_VECTORS) {
		irq_dispatch((unsigned)(tf->vector - IRQ_VECTOR_BASE));
		return;
	}
	trap_dump(tf);
	panic("unhandled %s (vector %lu) at RIP %#lx",
	      trap_name(tf->vector), tf->vector, tf->rip);
}
