/*
 * pc_legacy.c - kernel/platform.h on a board with PC legacy devices: COM1
 * (a 16550) for the console and the 8259 pair for the interrupt lines.
 * Both machines are such boards (a PC; the Malta through its PIIX4), so
 * this is the one platform file; the i8254 is the reference timer; the arch has already initialised the 8259
 * pair with its own vector base in arch_init().
 */
#include "kernel/platform.h"
#include "kernel/time/cycle_rate.h"
#include "i8254.h"
#include "i8259.h"
#include "uart16550.h"

#define CONSOLE_BAUD 115200
/* 1193 / 1193182 Hz: 1 ms less 152 ns, a bound of tens of ppm. */
#define REF_WINDOW_TICKS 1193u

_Static_assert(PLATFORM_IRQS == I8259_IRQS, "the 8259 pair has 16 lines");

void platform_console_init(void)
{
	uart_init(UART_COM1_PORT, CONSOLE_BAUD);
}

void platform_console_enable_rx_irq(void)
{
	uart_enable_rx_irq();
}

void platform_console_putc(char c)
{
	uart_putc(c);
}

int platform_console_getc(void)
{
	return uart_getc();
}

void platform_console_set_rx_filter(bool (*filter)(uint8_t b))
{
	uart_set_rx_filter(filter);
}

uint32_t platform_console_rx_overruns(void)
{
	return uart_rx_overruns();
}

void platform_irq_mask(unsigned irq)
{
	i8259_mask(irq);
}

void platform_irq_unmask(unsigned irq)
{
	i8259_unmask(irq);
}

void platform_irq_eoi(unsigned irq)
{
	i8259_eoi(irq);
}

bool platform_irq_is_spurious(unsigned irq)
{
	return i8259_is_spurious(irq) != 0;
}

void platform_ref_window(uint64_t (*read_cycles)(void), struct cycle_window *w)
{
	i8254_window(read_cycles, REF_WINDOW_TICKS, w);
	w->ref_hz = I8254_HZ;
	w->ref_name = "i8254";
}
