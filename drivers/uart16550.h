/*
 * uart16550.h - the console UART on both machines (COM1 at ISA port 0x3f8;
 * on Malta that is the PIIX4's UART in the ISA window).  Transmit is polled
 * so panics print with interrupts off; receive is interrupt-driven into a
 * ring so pasted input is not lost.
 */
#ifndef TALLY_UART16550_H
#define TALLY_UART16550_H

#include <stdbool.h>
#include <stdint.h>

#define UART_COM1_PORT 0x3f8
#define UART_COM1_IRQ  4

void uart_init(uint16_t port, unsigned baud);
void uart_putc(char c);              /* polled; adds CR before LF */
void uart_enable_rx_irq(void);       /* after the interrupt controller is up */
int uart_getc(void);                 /* next received byte, or -1 if none */
/* Called for each received byte, in interrupt context, before it is
 * queued; returning true keeps it out of the ring (the console's Ctrl-C
 * while a command runs).  NULL: every byte is queued. */
void uart_set_rx_filter(bool (*filter)(uint8_t b));
/* Overrun errors the UART reported: bytes lost in hardware because the
 * FIFO was full, which flow control should have prevented.  A full ring
 * never drops; it stops the receiver (RTS off) until half is read. */
uint32_t uart_rx_overruns(void);
/* Times the receiver was stopped because the ring was full. */
uint32_t uart_rx_throttles(void);

#endif
