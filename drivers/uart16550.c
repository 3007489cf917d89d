/*
 * uart16550.c - 16550A UART: polled transmit, interrupt-driven receive.
 *
 * Reached through arch_io_in8/out8 so the same code drives COM1 on a PC
 * and the PIIX4 UART on Malta.
 */
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "console/cmd.h"
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
#define LSR_OVERRUN     0x02    /* the FIFO was full when a byte came in */
#define LSR_THR_EMPTY   0x20

#define UART_CLOCK_HZ   1843200u
#define UART_SPIN_LIMIT 100000  /* a dead UART must not hang a panic */

/* Power of two, so the ring index wraps with a mask. */
#define RX_RING_SIZE 8192u
/* Receiving stops when the ring is full and starts again once the reader
 * has left this much unread: half, so a paste does not flap RTS per byte. */
#define RX_RESUME_LEVEL (RX_RING_SIZE / 2u)

static uint16_t base;
static volatile uint8_t rx_ring[RX_RING_SIZE];
static volatile uint32_t rx_head, rx_tail;      /* head: write, tail: read */
static volatile uint32_t rx_lost;               /* LSR overrun errors seen */
static volatile bool rx_throttled;
static volatile uint32_t rx_throttles;

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

static bool irq_wanted;         /* uart_enable_rx_irq has run */

/*
 * A full ring stops the receiver instead of dropping bytes: the rest stays
 * in the UART's FIFO, RTS tells a sender with hardware flow control to
 * wait, and an emulator's serial backend stops feeding a full FIFO, so a
 * 10 KiB paste arrives whole however slowly the console drains it.  The
 * receive interrupt is masked too; left on, a level-triggered line would
 * fire for ever on data we refuse to take.
 */
static void rx_throttle(void)
{
	rx_throttled = true;
	rx_throttles++;
	wr(UART_IER, 0);
	wr(UART_MCR, MCR_DTR | MCR_OUT2);
}

static void rx_unthrottle(void)
{
	rx_throttled = false;
	wr(UART_MCR, MCR_DTR | MCR_RTS | MCR_OUT2);
	if (irq_wanted)
		wr(UART_IER, IER_RX_AVAIL);
}

/* Drain the receive FIFO into the ring, stopping when the ring is full. */
static void uart_irq(void *arg)
{
	(void)arg;
	for (;;) {
		uint8_t lsr = rd(UART_LSR);

		if (lsr & LSR_OVERRUN)
			rx_lost++;      /* the hardware dropped a byte before us */
		if (!(lsr & LSR_DATA_READY))
			break;
		if (rx_head - rx_tail >= RX_RING_SIZE) {
			rx_throttle();
			break;
		}
		uint8_t b = rd(UART_RBR);
		bool (*filter)(uint8_t) = rx_filter;

		if (filter && filter(b))
			continue;
		rx_ring[rx_head & (RX_RING_SIZE - 1)] = b;
		rx_head++;
	}
}

void uart_enable_rx_irq(void)
{
	irq_register(UART_COM1_IRQ, uart_irq, NULL);
	irq_wanted = true;
	wr(UART_IER, IER_RX_AVAIL);
	uart_irq(NULL);         /* bytes that came before the interrupt */
}

/* Called with interrupts off (console_getc), so uart_irq cannot run
 * between our reads of head and tail or re-enter the drain below. */
int uart_getc(void)
{
	if (rx_throttled && rx_head - rx_tail <= RX_RESUME_LEVEL) {
		rx_unthrottle();
		uart_irq(NULL);         /* what waited in the FIFO meanwhile */
	}
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
	return rx_lost;
}

uint32_t uart_rx_throttles(void)
{
	return rx_throttles;
}

static int cmd_uart(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		printf("error: usage: uart\n");
		return CMD_ERR_REPORTED;
	}
	printf("uart port=%#x rx throttled=%u overruns=%u\n", (unsigned)base,
	       (unsigned)rx_throttles, (unsigned)rx_lost);
	return 0;
}
CONSOLE_CMD(uart,
	    "the console UART: times its receiver was stopped (ring full) and overruns",
	    "uart", cmd_uart);
