/*
 * irq.c - the 16 ISA interrupt lines behind the 8259 pair, on both machines.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "arch.h"
#include "cmd.h"
#include "i8259.h"
#include "irq.h"
#include "hwperf/softpmu.h"
#include "trap.h"

struct irq_line {
	irq_handler fn;
	void *arg;
	unsigned long count;
};

static struct irq_line lines[I8259_IRQS];
static unsigned long spurious;

/* The arch has initialised the 8259 pair (with its vector base on x86)
 * in arch_init(); every line starts masked until a handler registers. */
void irq_init(void)
{
	for (unsigned i = 0; i < I8259_IRQS; i++)
		i8259_mask(i);
}

int irq_register(unsigned irq, irq_handler fn, void *arg)
{
	if (irq >= I8259_IRQS || !fn)
		return -EINVAL;
	if (lines[irq].fn)
		return -EBUSY;
	lines[irq].fn = fn;
	lines[irq].arg = arg;
	i8259_unmask(irq);
	return 0;
}

unsigned long irq_count(unsigned irq)
{
	return irq < I8259_IRQS ? lines[irq].count : 0;
}

void irq_dispatch(unsigned irq)
{
	if (irq >= I8259_IRQS || i8259_is_spurious(irq)) {
		spurious++;
		return;
	}
	struct irq_line *l = &lines[irq];
	l->count++;
	softpmu_event(SOFTPMU_IRQS, trap_current_mode(), 1, 0);
	if (l->fn) {
		l->fn(l->arg);
	} else {
		/* Nobody asked for it: silence the line rather than storm. */
		i8259_mask(irq);
		spurious++;
	}
	i8259_eoi(irq);
}

static int cmd_irqs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (unsigned i = 0; i < I8259_IRQS; i++) {
		if (lines[i].fn || lines[i].count)
			printf("irq%u count=%lu\n", i, lines[i].count);
	}
	printf("spurious count=%lu\n", spurious);
	return 0;
}
CONSOLE_CMD(irqs, "interrupt counts per ISA line", "irqs", cmd_irqs);
