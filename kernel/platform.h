/*
 * platform.h - the board devices the kernel itself needs: a serial line for
 * the console and an interrupt controller for the board's legacy lines.
 *
 * The kernel names only these calls, never a chip: a board with another
 * UART or controller supplies its own implementation under drivers/
 * (today both machines are served by drivers/pc_legacy.c, because the
 * Malta's PIIX4 south bridge carries the same 8259 pair and 16550 as a PC).
 */
#ifndef TALLY_PLATFORM_H
#define TALLY_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

/* ---- the console's serial line ---- */

void platform_console_init(void);          /* polled output works after */
void platform_console_enable_rx_irq(void); /* after irq_init() */
void platform_console_putc(char c);         /* adds CR before LF */
int platform_console_getc(void);            /* a received byte, or -1 */
/* Bytes the filter takes (Ctrl-C) never reach platform_console_getc. */
void platform_console_set_rx_filter(bool (*filter)(uint8_t b));
uint32_t platform_console_rx_overruns(void);

/* ---- the legacy interrupt lines ---- */

#define PLATFORM_IRQS 16

void platform_irq_mask(unsigned irq);
void platform_irq_unmask(unsigned irq);
void platform_irq_eoi(unsigned irq);
bool platform_irq_is_spurious(unsigned irq);

/* ---- the fixed-rate reference timer ---- */

/*
 * Count read_cycles() over about a millisecond of the board's fixed-rate
 * timer, from one of its edges to another, and fill every field of *w
 * (kernel/time/cycle_rate.h).  Interrupts must be off.
 */
struct cycle_window;
void platform_ref_window(uint64_t (*read_cycles)(void), struct cycle_window *w);

#endif
