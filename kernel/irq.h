/* irq.h - ISA interrupt lines (0..15) to handlers. */
#ifndef TALLY_IRQ_H
#define TALLY_IRQ_H

#include <stddef.h>

typedef void (*irq_handler)(void *arg);

void irq_init(void);
/* Install and unmask.  Returns -EBUSY if the line already has a handler. */
int irq_register(unsigned irq, irq_handler fn, void *arg);
unsigned long irq_count(unsigned irq);

/*
 * The PMU's overflow interrupt as the arch wired it, for `irqs`: x86's
 * LAPIC vector, MIPS's IP line (IntCtl.IPPCI).  line is "" when it is not
 * wired, and note then says why.
 */
struct irq_pmi_info {
	char line[24];                  /* "vector=0x3e", "ip=7" */
	char note[96];                  /* "shared with the timer", a reason */
	unsigned long count;            /* interrupts taken */
	unsigned long spurious;         /* of those, no counter had overflowed */
	const char *extra_name;         /* an arch's neighbour count, or NULL */
	unsigned long extra_count;
};
void arch_pmi_info(struct irq_pmi_info *out);
/* Raise one PMU interrupt on its line, where the machine can; a negative
 * errno and why otherwise. */
int arch_pmi_self_test(char *why, size_t len);

#endif
