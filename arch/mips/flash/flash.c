/*
 * flash.c - the Malta boot-flash stub in C: what the monitor (YAMON) does
 * between reset and starting a program, cut down to what Tally needs.
 *
 *   1. the GT-64120 system controller moved from its reset base to where
 *      YAMON and QEMU's -kernel loader leave it, with the same PCI windows
 *      (the kernel reaches the PIIX4's ISA I/O at physical 0x18000000);
 *   2. COM1 enabled in the Super I/O and set to 115200 8N1 for the stub's
 *      own messages;
 *   3. the RAM size from the SDRAM module's SPD EEPROM on the board's I2C
 *      bus (the FPGA's I2C registers), refusing to start without it;
 *   4. the kernel image copied from the flash to its load address;
 *   5. YAMON's argument block (argc/argv/envp, memsize) with the command
 *      line built into the image, and a jump to the kernel.
 *
 * The stub runs from the flash, which cannot be written: it keeps no
 * globals (flash.ld refuses .data and .bss), only locals on its stack.
 * Each stage shows on the ASCII display, so a board that stops shows
 * where.
 */
#include "flash.h"
#include "spd.h"
#include "arch/mips/malta.h"

#include <stddef.h>
#include <stdint.h>

#define KSEG1(pa)              (0xa0000000u | (uint32_t)(pa))
#define KSEG0_TO_KSEG1(va)     ((uint32_t)(va) | 0x20000000u)

/* ---- Malta FPGA: display, LED bar, I2C (Malta User's Manual) ------------- */
#define FPGA_PHYS              0x1f000000u
#define FPGA_LEDBAR            0x408u
#define FPGA_ASCIIPOS0         0x418u
#define FPGA_ASCIIPOS_STRIDE   8u
#define FPGA_DISPLAY_CHARS     8u
#define FPGA_I2CINP            0xb00u
#define FPGA_I2COE             0xb08u
#define FPGA_I2COUT            0xb10u
#define FPGA_I2CSEL            0xb18u
#define I2C_SDA                0x1u
#define I2C_SCL                0x2u
#define I2CSEL_FPGA            0x1u   /* the FPGA's registers drive the bus */

/* ---- GT-64120 internal registers (little-endian on the CPU bus) ---------- */
#define GT_RESET_BASE          0x14000000u
#define GT_BASE                0x1be00000u   /* where YAMON puts them */
#define GT_PCI0IOLD            0x048u
#define GT_PCI0IOHD            0x050u
#define GT_PCI0M0LD            0x058u
#define GT_PCI0M0HD            0x060u
#define GT_ISD                 0x068u
#define GT_PCI0M1LD            0x080u
#define GT_PCI0M1HD            0x088u
/* Decode registers hold address bits 35:21 (low) and 27:21 (high). */
#define GT_DECODE(pa)          ((uint32_t)(pa) >> 21)
#define PCI0_IO_BASE           MALTA_ISA_IO_PHYS     /* 2 MiB */
#define PCI0_IO_TOP            0x181fffffu
#define PCI0_MEM0_BASE         0x10000000u
#define PCI0_MEM0_TOP          0x17ffffffu
#define PCI0_MEM1_BASE         0x18200000u
#define PCI0_MEM1_TOP          0x1bdfffffu

/* ---- PIIX4 COM1, a 16550 on the ISA bus ----------------------------------- */
#define COM1                   0x3f8u
#define UART_THR               0
#define UART_DLL               0
#define UART_DLM               1
#define UART_IER               1
#define UART_FCR               2
#define UART_LCR               3
#define UART_MCR               4
#define UART_LSR               5
#define LCR_DLAB               0x80u
#define LCR_8N1                0x03u
#define FCR_ENABLE_CLEAR       0x07u
#define MCR_DTR_RTS            0x03u
#define LSR_THRE               0x20u
#define UART_DIVISOR_115200    1      /* 1.8432 MHz / 16 / 115200 */
#define UART_SPIN_MAX          100000u

/* ---- SMSC FDC37M817 Super I/O: configuration through two ISA ports --------- */
#define SIO_CONFIG_INDEX       0x3f0u
#define SIO_CONFIG_DATA        0x3f1u
#define SIO_ENTER_CONFIG       0x55u
#define SIO_EXIT_CONFIG        0xaau
#define SIO_REG_LDN            0x07u  /* logical device the next registers address */
#define SIO_REG_ACTIVATE       0x30u
#define SIO_REG_BASE_HI        0x60u
#define SIO_REG_BASE_LO        0x61u
#define SIO_REG_IRQ            0x70u
#define SIO_LDN_COM1           4u
#define COM1_IRQ               4u

/* ---- SPD EEPROM on I2C ---------------------------------------------------- */
#define SPD_I2C_ADDR           0x50u  /* the first module socket */
/*
 * Half an I2C clock in Count ticks.  Count runs at half the pipeline
 * clock; 1000 ticks are 5 us (100 kHz standard mode) up to a 400 MHz core.
 */
#define I2C_HALF_TICKS         1000u

#define RAM_LOW_MAX            MALTA_RAM_LOW_MAX

static void wr32(uint32_t addr, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)addr = v;
}

static uint32_t rd32(uint32_t addr)
{
	return *(volatile uint32_t *)(uintptr_t)addr;
}

static void fpga_wr(uint32_t reg, uint32_t v)
{
	wr32(KSEG1(FPGA_PHYS + reg), v);
}

static uint32_t fpga_rd(uint32_t reg)
{
	return rd32(KSEG1(FPGA_PHYS + reg));
}

/*
 * Every stage leaves its name on the display and one more LED lit, so a
 * board that stops shows how far it got.
 */
static void stage(const char *name, unsigned n)
{
	for (unsigned i = 0; i < FPGA_DISPLAY_CHARS; i++) {
		char c = *name != '\0' ? *name++ : ' ';

		fpga_wr(FPGA_ASCIIPOS0 + i * FPGA_ASCIIPOS_STRIDE, (uint8_t)c);
	}
	fpga_wr(FPGA_LEDBAR, (1u << n) - 1);
}

static uint32_t count_now(void)
{
	uint32_t c;

	__asm__ volatile("mfc0 %0, $9" : "=r"(c));
	return c;
}

static void delay_ticks(uint32_t n)
{
	uint32_t start = count_now();

	while (count_now() - start < n)
		;
}

/* ---- GT-64120 -------------------------------------------------------------- */

static uint32_t gt_value(uint32_t v)
{
#ifdef ARCH_BIG_ENDIAN
	return __builtin_bswap32(v);
#else
	return v;
#endif
}

static void gt_wr(uint32_t base, uint32_t reg, uint32_t v)
{
	wr32(KSEG1(base + reg), gt_value(v));
}

/*
 * The same map the -kernel path leaves (QEMU's loader writes YAMON's):
 * registers at 0x1be00000, PCI I/O at 0x18000000 (2 MiB), PCI memory at
 * 0x10000000 and 0x18200000.
 */
static void gt_setup(void)
{
	gt_wr(GT_RESET_BASE, GT_ISD, GT_DECODE(GT_BASE));
	gt_wr(GT_BASE, GT_PCI0IOLD, GT_DECODE(PCI0_IO_BASE));
	gt_wr(GT_BASE, GT_PCI0IOHD, GT_DECODE(PCI0_IO_TOP) & 0x7f);
	gt_wr(GT_BASE, GT_PCI0M0LD, GT_DECODE(PCI0_MEM0_BASE));
	gt_wr(GT_BASE, GT_PCI0M0HD, GT_DECODE(PCI0_MEM0_TOP) & 0x7f);
	gt_wr(GT_BASE, GT_PCI0M1LD, GT_DECODE(PCI0_MEM1_BASE));
	gt_wr(GT_BASE, GT_PCI0M1HD, GT_DECODE(PCI0_MEM1_TOP) & 0x7f);
}

/* ---- Super I/O ------------------------------------------------------------- */

static void isa_out8(uint16_t port, uint8_t v)
{
	*(volatile uint8_t *)(uintptr_t)KSEG1(MALTA_ISA_IO_PHYS + port) = v;
}

static void sio_set(uint8_t reg, uint8_t v)
{
	isa_out8(SIO_CONFIG_INDEX, reg);
	isa_out8(SIO_CONFIG_DATA, v);
}

/*
 * The board's serial ports live in the Super I/O, which comes out of
 * reset with its logical devices off until firmware activates them: COM1
 * at 0x3f8 on IRQ 4, where the kernel's console driver expects it.
 */
static void superio_setup(void)
{
	isa_out8(SIO_CONFIG_INDEX, SIO_ENTER_CONFIG);
	sio_set(SIO_REG_LDN, SIO_LDN_COM1);
	sio_set(SIO_REG_BASE_HI, (uint8_t)(COM1 >> 8));
	sio_set(SIO_REG_BASE_LO, (uint8_t)COM1);
	sio_set(SIO_REG_IRQ, COM1_IRQ);
	sio_set(SIO_REG_ACTIVATE, 1);
	isa_out8(SIO_CONFIG_INDEX, SIO_EXIT_CONFIG);
}

/* ---- UART ------------------------------------------------------------------- */

static void uart_wr(unsigned reg, uint8_t v)
{
	isa_out8((uint16_t)(COM1 + reg), v);
}

static uint8_t uart_rd(unsigned reg)
{
	return *(volatile uint8_t *)(uintptr_t)KSEG1(MALTA_ISA_IO_PHYS + COM1 + reg);
}

static void uart_init(void)
{
	uart_wr(UART_IER, 0);
	uart_wr(UART_LCR, LCR_DLAB);
	uart_wr(UART_DLL, UART_DIVISOR_115200);
	uart_wr(UART_DLM, 0);
	uart_wr(UART_LCR, LCR_8N1);
	uart_wr(UART_FCR, FCR_ENABLE_CLEAR);
	uart_wr(UART_MCR, MCR_DTR_RTS);
}

static void putc_(char c)
{
	/* Bounded: a UART that never drains must not stop the boot. */
	for (unsigned i = 0; i < UART_SPIN_MAX && !(uart_rd(UART_LSR) & LSR_THRE); i++)
		;
	uart_wr(UART_THR, (uint8_t)c);
}

static void puts_(const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\n')
			putc_('\r');
		putc_(*s);
	}
}

static void putx(uint32_t v)
{
	puts_("0x");
	for (int sh = 28; sh >= 0; sh -= 4)
		putc_("0123456789abcdef"[(v >> sh) & 0xf]);
}

/* Decimal into buf (at least 11 bytes); returns buf. */
static char *utoa_(uint32_t v, char *buf)
{
	char tmp[10];
	unsigned n = 0, i = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
	return buf;
}

static void putu(uint32_t v)
{
	char buf[11];

	puts_(utoa_(v, buf));
}

/* ---- I2C, bit-banged through the FPGA ---------------------------------------- */

/*
 * SCL is always driven; SDA is driven only to send a 0 and otherwise left
 * to the pull-up (output enable off), as an open-drain line must be.
 */
static void i2c_set(unsigned scl, unsigned sda)
{
	uint32_t out = (scl ? I2C_SCL : 0) | (sda ? I2C_SDA : 0);

	fpga_wr(FPGA_I2COUT, out);
	fpga_wr(FPGA_I2COE, I2C_SCL | (sda ? 0 : I2C_SDA));
	delay_ticks(I2C_HALF_TICKS);
}

static unsigned i2c_sda(void)
{
	return fpga_rd(FPGA_I2CINP) & I2C_SDA;
}

static void i2c_start(void)
{
	i2c_set(0, 1);
	i2c_set(1, 1);
	i2c_set(1, 0);
	i2c_set(0, 0);
}

static void i2c_stop(void)
{
	i2c_set(0, 0);
	i2c_set(1, 0);
	i2c_set(1, 1);
}

/* Send a byte, MSB first; true if the device acknowledged it. */
static int i2c_send(uint8_t b)
{
	unsigned ack;

	for (int i = 7; i >= 0; i--) {
		unsigned bit = (b >> i) & 1;

		i2c_set(0, bit);
		i2c_set(1, bit);
		i2c_set(0, bit);
	}
	i2c_set(0, 1);
	i2c_set(1, 1);
	ack = i2c_sda() == 0;
	i2c_set(0, 1);
	return ack;
}

/* Receive a byte and answer NACK (the last byte of a read). */
static uint8_t i2c_recv_last(void)
{
	uint8_t b = 0;

	for (int i = 0; i < 8; i++) {
		i2c_set(0, 1);
		i2c_set(1, 1);
		b = (uint8_t)(b << 1 | i2c_sda());
	}
	i2c_set(0, 1);
	i2c_set(1, 1);
	i2c_set(0, 1);
	return b;
}

/*
 * One random read (24C02 protocol): write the word address, restart,
 * read one byte.  Returns -1 when the EEPROM does not acknowledge.
 */
static int spd_read_byte(uint8_t addr)
{
	int v = -1;

	i2c_start();
	if (i2c_send((uint8_t)(SPD_I2C_ADDR << 1)) && i2c_send(addr)) {
		i2c_start();
		if (i2c_send((uint8_t)(SPD_I2C_ADDR << 1 | 1)))
			v = i2c_recv_last();
	}
	i2c_stop();
	return v;
}

/* The RAM size in bytes from the SPD, or 0 with *why set. */
static uint64_t ram_size(const char **why, struct spd_size *sz)
{
	uint8_t spd[SPD_BYTES];

	fpga_wr(FPGA_I2CSEL, I2CSEL_FPGA);
	for (unsigned i = 0; i < SPD_BYTES; i++) {
		int v = spd_read_byte((uint8_t)i);

		if (v < 0) {
			*why = "no SPD EEPROM acknowledged at I2C address 0x50";
			return 0;
		}
		spd[i] = (uint8_t)v;
	}
	spd_decode(spd, sz);
	*why = sz->error;
	return sz->bytes;
}

/* ---- the kernel's argument block ---------------------------------------------- */

struct argblock {
	uint32_t argv[3];
	uint32_t envp[7];
	char strings[FLASH_ARGS_SIZE - 10 * sizeof(uint32_t)];
};

struct strpool {
	char *next, *end;
};

/* Copy s into the pool; its KSEG0 address (the pool is in KSEG0). */
static uint32_t pool_add(struct strpool *p, const char *s)
{
	char *start = p->next;

	while (*s != '\0' && p->next + 1 < p->end)
		*p->next++ = *s++;
	*p->next++ = '\0';
	return (uint32_t)(uintptr_t)start;
}

/*
 * What YAMON hands a program: argv[0] names the loader's image, argv[1]
 * the command line; envp alternates names and values.  memsize is the RAM
 * below the I/O hole at 256 MiB, ememsize all of it, and loader tells the
 * kernel it came from the flash.
 */
static uint32_t build_args(struct argblock *a, uint64_t ram)
{
	struct strpool p = { a->strings, a->strings + sizeof(a->strings) };
	uint64_t low = ram < RAM_LOW_MAX ? ram : RAM_LOW_MAX;
	char num[11];

	a->argv[0] = pool_add(&p, "tally-flash");
	a->argv[1] = pool_add(&p, flash_cmdline);
	a->argv[2] = 0;
	a->envp[0] = pool_add(&p, "memsize");
	a->envp[1] = pool_add(&p, utoa_((uint32_t)low, num));
	a->envp[2] = pool_add(&p, "ememsize");
	/* The kernel reads 32-bit sizes; more than 4 GiB never fits a Malta. */
	a->envp[3] = pool_add(&p, utoa_(ram > 0xffffffffu ? 0xffffffffu : (uint32_t)ram, num));
	a->envp[4] = pool_add(&p, "loader");
	a->envp[5] = pool_add(&p, "flash");
	a->envp[6] = 0;
	return (uint32_t)low;
}

/* Word copy through KSEG1: nothing of it can linger in the D-cache. */
static void copy_kernel(uint32_t dst_kseg0)
{
	const uint32_t *s = (const uint32_t *)flash_kernel_start;
	const uint32_t *e = (const uint32_t *)(flash_kernel_end + 3 -
		((uintptr_t)(flash_kernel_end + 3) & 3));
	volatile uint32_t *d = (volatile uint32_t *)(uintptr_t)KSEG0_TO_KSEG1(dst_kseg0);

	while (s < e)
		*d++ = *s++;
}

static void refuse(const char *why, uint32_t semihosting)
{
	stage("NO RAM?", 8);
	puts_("tally-flash: error: cannot find the RAM size: ");
	puts_(why);
	puts_("\ntally-flash: not starting the kernel\n");
	/* In QEMU, leave with a status a script can see; on a board, stop. */
	if (semihosting)
		flash_semihost_exit(1);
	flash_halt();
}

void flash_main(uint32_t semihosting)
{
	struct argblock *args = (struct argblock *)(uintptr_t)FLASH_ARGS_KSEG0;
	struct spd_size sz;
	const char *why = NULL;
	uint64_t ram;
	uint32_t low, kbytes;

	stage("CP0 OK", 1);
	gt_setup();
	stage("GT64120", 2);
	superio_setup();
	stage("SUPERIO", 3);
	uart_init();
	puts_("\ntally-flash: reset, caches initialised, system controller at ");
	putx(GT_BASE);
	puts_("\n");

	stage("SPD", 4);
	ram = ram_size(&why, &sz);
	if (ram == 0)
		refuse(why, semihosting);
	puts_("tally-flash: RAM ");
	putu((uint32_t)(ram >> 20));
	puts_(" MiB from SPD (");
	puts_(sz.type == SPD_TYPE_SDRAM ? "SDRAM" : "DDR2");
	puts_(", ");
	putu(sz.rows);
	puts_(" rows)\n");

	stage("COPY", 5);
	kbytes = (uint32_t)(flash_kernel_end - flash_kernel_start);
	puts_("tally-flash: copying ");
	putu(kbytes);
	puts_(" bytes of kernel to ");
	putx(KERNEL_LOAD);
	puts_("\n");
	copy_kernel(KERNEL_LOAD);

	stage("ARGS", 6);
	low = build_args(args, ram);
	puts_("tally-flash: command line \"");
	puts_(flash_cmdline);
	puts_("\"\n");

	stage("KERNEL", 7);
	puts_("tally-flash: starting the kernel at ");
	putx(KERNEL_ENTRY);
	puts_(semihosting ? " (semihosting)\n" : "\n");
	flash_enter(semihosting ? UHI_BOOT_A0 : 2,
		    (uint32_t)(uintptr_t)args->argv,
		    (uint32_t)(uintptr_t)args->envp, low);
}

void flash_fault(uint32_t vector, uint32_t cause, uint32_t epc, uint32_t badvaddr)
{
	stage("EXCEPT", 8);
	/* The UART may not be up yet; after gt_setup this reaches COM1. */
	puts_("\ntally-flash: unexpected exception, vector ");
	putx(vector);
	puts_(" cause ");
	putx(cause);
	puts_(" epc ");
	putx(epc);
	puts_(" badvaddr ");
	putx(badvaddr);
	puts_("\n");
	flash_halt();
}

/* The compiler may call these for block copies and clears. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n-- > 0)
		*d++ = *s++;
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;

	while (n-- > 0)
		*d++ = (uint8_t)c;
	return dst;
}
