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
/* Bytes dropped because the receive ring was full (never silently). */
uint32_t uart_rx_overruns(void);

#endif
