/*
 * uart16550.c - 16550A UART: polled transmit, interrupt-driven receive.
 *
 * Reached through arch_io_in8/out8 so the same code drives COM1 on a PC
 * and the PIIX4 UART on Malta.
 */
#include <stdint.h>

#include "arch.h"
#include "irq.h"
#include "uart16550.h"

/* Register offsets from the base port. */
#define UART_RBR 0      /* receive buffer (read, DLAB=0) */
#define UART_THR 0      /* transmit holding (write, DLAB=0) */
#define UART_DLL 0      /* divisor low (DLAB=1) */
#define UART_IER 1      /* interrupt enable (DLAB=0) */
#define UART_DLM 1      /* divisor high (DLAB=1) */
#define UART_IIR 2      /* interrupt identification (read) */
#define UART_FCR 2      /* FIFO control (write) */
#define UART_LCR 3      /* line control */
#define UART_MCR 4      /* modem control */
#define UART_LSR 5      /* line status */

#define IER_RX_AVAIL    0x01
#define FCR_ENABLE      0x01
#define FCR_CLEAR_RX    0x02
#define FCR_CLEAR_TX    0x04
#define FCR_TRIGGER_8   0x80
#define LCR_8N1         0x03
#define LCR_DLAB        0x80
#define MCR_DTR         0x01
#define MCR_RTS         0x02
#define MCR_OUT2        0x08    /* gates the IRQ line on PC-style boards */
#define LSR_DATA_READY  0x01
#define LSR_THR_EMPTY   0x20

#define UART_CLOCK_HZ   1843200u
#define UART_SPIN_LIMIT 100000  /* a dead UART must not hang a panic */

/* Power of two, so the ring index wraps with a mask. */
#define RX_RING_SIZE 8192u

static uint16_t base;
static volatile uint8_t rx_ring[RX_RING_SIZE];
static volatile uint32_t rx_head, rx_tail;      /* head: write, tail: read */
static volatile uint32_t rx_dropped;

static uint8_t rd(unsigned reg)
{
	return arch_io_in8((uint16_t)(base + reg));
}

static void wr(unsigned reg, uint8_t v)
{
	arch_io_out8((uint16_t)(base + reg), v);
}

void uart_init(uint16_t port, unsigned baud)
{
	uint16_t div = (uint16_t)(UART_CLOCK_HZ / 16u / baud);

	base = port;
	wr(UART_IER, 0);
	wr(UART_LCR, LCR_DLAB);
	wr(UART_DLL, (uint8_t)(div & 0xff));
	wr(UART_DLM, (uint8_t)(div >> 8));
	wr(UART_LCR, LCR_8N1);
	wr(UART_FCR, FCR_ENABLE | FCR_CLEAR_RX | FCR_CLEAR_TX | FCR_TRIGGER_8);
	wr(UART_MCR, MCR_DTR | MCR_RTS | MCR_OUT2);
}

static void tx_raw(char c)
{
	for (int i = 0; i < UART_SPIN_LIMIT; i++) {
		if (rd(UART_LSR) & LSR_THR_EMPTY)
			break;
	}
	wr(UART_THR, (uint8_t)c);
}

void uart_putc(char c)
{
	if (c == '\n')
		tx_raw('\r');
	tx_raw(c);
}

static bool (*volatile rx_filter)(uint8_t b);

void uart_set_rx_filter(bool (*filter)(uint8_t b))
{
	rx_filter = filter;
}

/* Drain the receive FIFO into the ring. */
static void uart_irq(void *arg)
{
	(void)arg;
	while (rd(UART_LSR) & LSR_DATA_READY) {
		uint8_t b = rd(UART_RBR);
		bool (*filter)(uint8_t) = rx_filter;

		if (filter && filter(b))
			continue;
		if (rx_head - rx_tail >= RX_RING_SIZE) {
			rx_dropped++;
			continue;
		}
		rx_ring[rx_head & (RX_RING_SIZE - 1)] = b;
		rx_head++;
	}
}

void uart_enable_rx_irq(void)
{
	irq_register(UART_COM1_IRQ, uart_irq, NULL);
	wr(UART_IER, IER_RX_AVAIL);
	uart_irq(NULL);         /* bytes that came before the interrupt */
}

int uart_getc(void)
{
	if (rx_tail == rx_head) {
		/* Before interrupts are up (or if they are lost), poll. */
		uart_irq(NULL);
		if (rx_tail == rx_head)
			return -1;
	}
	uint8_t b = rx_ring[rx_tail & (RX_RING_SIZE - 1)];
	rx_tail++;
	return b;
}

uint32_t uart_rx_overruns(void)
{
	return rx_dropped;
}
