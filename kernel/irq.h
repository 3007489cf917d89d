/* irq.h - ISA interrupt lines (0..15) to handlers. */
#ifndef TALLY_IRQ_H
#define TALLY_IRQ_H

typedef void (*irq_handler)(void *arg);

void irq_init(void);
/* Install and unmask.  Returns -EBUSY if the line already has a handler. */
int irq_register(unsigned irq, irq_handler fn, void *arg);
unsigned long irq_count(unsigned irq);

#endif
