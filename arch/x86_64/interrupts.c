/* interrupts.c - the interrupt flag (RFLAGS.IF). */
#include "arch.h"
#include "cpu.h"

irqflags_t arch_irq_save(void)
{
	irqflags_t f = read_rflags();

	cli();
	return f;
}

void arch_irq_restore(irqflags_t flags)
{
	if (flags & RFLAGS_IF)
		sti();
	else
		cli();
}

void arch_irq_enable(void)
{
	sti();
}

/*
 * STI takes effect only after the next instruction, so no interrupt can
 * slip in between it and HLT: one that is pending wakes the HLT at once.
 */
void arch_idle(void)
{
	__asm__ volatile("sti; hlt" : : : "memory");
}
