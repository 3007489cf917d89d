/*
 * i8259.c - cascaded 8259A pair: master lines 0-7, slave 8-15 on line 2.
 */
#include "arch.h"
#include "i8259.h"

#define PIC1_CMD   0x20
#define PIC1_DATA  0x21
#define PIC2_CMD   0xa0
#define PIC2_DATA  0xa1

#define ICW1_ICW4      0x01
#define ICW1_INIT      0x10
#define ICW3_MASTER_HAS_SLAVE_ON_2 0x04
#define ICW3_SLAVE_ID_2            0x02
#define ICW4_8086      0x01
#define OCW2_EOI       0x20
#define OCW3_READ_ISR  0x0b
#define OCW3_POLL      0x0c
#define POLL_PENDING   0x80
#define POLL_LEVEL     0x07
#define ALL_MASKED     0xff

static uint16_t mask = 0xffff;

static void write_masks(void)
{
	arch_io_out8(PIC1_DATA, (uint8_t)(mask & 0xff));
	arch_io_out8(PIC2_DATA, (uint8_t)(mask >> 8));
}

void i8259_init(uint8_t vector_base)
{
	arch_io_out8(PIC1_CMD, ICW1_INIT | ICW1_ICW4);
	arch_io_out8(PIC2_CMD, ICW1_INIT | ICW1_ICW4);
	arch_io_out8(PIC1_DATA, vector_base);
	arch_io_out8(PIC2_DATA, (uint8_t)(vector_base + 8));
	arch_io_out8(PIC1_DATA, ICW3_MASTER_HAS_SLAVE_ON_2);
	arch_io_out8(PIC2_DATA, ICW3_SLAVE_ID_2);
	arch_io_out8(PIC1_DATA, ICW4_8086);
	arch_io_out8(PIC2_DATA, ICW4_8086);
	mask = 0xffff;
	write_masks();
}

void i8259_mask(unsigned irq)
{
	if (irq >= I8259_IRQS)
		return;
	mask |= (uint16_t)(1u << irq);
	write_masks();
}

void i8259_unmask(unsigned irq)
{
	if (irq >= I8259_IRQS)
		return;
	mask &= (uint16_t)~(1u << irq);
	if (irq >= 8)   /* slave lines reach the CPU only through line 2 */
		mask &= (uint16_t)~(1u << I8259_CASCADE_IRQ);
	write_masks();
}

void i8259_eoi(unsigned irq)
{
	if (irq >= 8)
		arch_io_out8(PIC2_CMD, OCW2_EOI);
	arch_io_out8(PIC1_CMD, OCW2_EOI);
}

/* A poll read acknowledges the line, so the caller must EOI it. */
static int poll_one(uint16_t cmd_port)
{
	arch_io_out8(cmd_port, OCW3_POLL);
	uint8_t v = arch_io_in8(cmd_port);
	return (v & POLL_PENDING) ? (v & POLL_LEVEL) : -1;
}

int i8259_poll(void)
{
	int irq = poll_one(PIC1_CMD);

	if (irq == I8259_CASCADE_IRQ) {
		int s = poll_one(PIC2_CMD);
		if (s < 0) {    /* the slave withdrew its request */
			arch_io_out8(PIC1_CMD, OCW2_EOI);
			return -1;
		}
		return 8 + s;
	}
	return irq;
}

static uint8_t read_isr(uint16_t cmd_port)
{
	arch_io_out8(cmd_port, OCW3_READ_ISR);
	return arch_io_in8(cmd_port);
}

/*
 * Lines 7 and 15 fire spuriously when a request vanishes before the CPU
 * acknowledges it; the in-service bit then is clear.  A spurious slave
 * interrupt still took the master's cascade line, which needs its EOI.
 */
int i8259_is_spurious(unsigned irq)
{
	if (irq == 7)
		return !(read_isr(PIC1_CMD) & 0x80);
	if (irq == 15 && !(read_isr(PIC2_CMD) & 0x80)) {
		arch_io_out8(PIC1_CMD, OCW2_EOI);
		return 1;
	}
	return 0;
}
