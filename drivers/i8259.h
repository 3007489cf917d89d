/*
 * i8259.h - the pair of 8259A interrupt controllers (PC chipset on x86,
 * PIIX4 on Malta).  On x86 they deliver vectors; on Malta the CPU only
 * sees their output on Cause.IP2 and asks which line fired by polling.
 */
#ifndef TALLY_I8259_H
#define TALLY_I8259_H

#include <stdint.h>

#define I8259_IRQS 16
#define I8259_CASCADE_IRQ 2

/* All lines masked; master vectors at base, slave at base + 8. */
void i8259_init(uint8_t vector_base);
void i8259_mask(unsigned irq);
void i8259_unmask(unsigned irq);
void i8259_eoi(unsigned irq);
/* Poll mode (OCW3): the highest-priority pending line, or -1 if none. */
int i8259_poll(void);
/* A vector that fired with nothing in service is spurious (IRQ 7 / 15). */
int i8259_is_spurious(unsigned irq);

#endif
