/*
 * reset.S - the first instructions a Malta runs from its boot flash.
 *
 * Physical 0x1fc00000 is the reset vector (KSEG1 0xbfc00000); with
 * Status.BEV set the exception vectors are here too (0x200 TLB refill,
 * 0x300 cache error, 0x380 general, 0x480 EJTAG debug).  Word 0x10 is the
 * board's REVISION register on a real Malta and is patched with the board
 * id by QEMU, so nothing of ours may sit there.
 *
 * From reset (MIPS32 24K/34K/74K software user's manuals): kernel mode
 * with Status.BEV and ERL set, caches and Config.K0 undefined.  The stub
 * sets up CP0, initialises the L1 caches (and an L2 if Config2 has one)
 * by index-storing zero tags over every way, makes KSEG0 cacheable, and
 * calls flash_main in C on a stack in low RAM.
 */
#include "arch/mips/cp0.h"
#include "flash.h"

#define CP0_WATCHLO     18
#define CP0_WATCHHI     19
#define CP0_TAGLO       28
#define CP0_TAGHI       29
#define CP0_DEPC        24
#define SEL_ITAG        0      /* ITagLo/ITagHi */
#define SEL_DTAG        2      /* DTagLo/DTagHi */
#define SEL_L23TAG      4      /* L23TagLo */

/* CACHE instruction operations (op = type | function << 2). */
#define INDEX_STORE_TAG_I   0x08
#define INDEX_STORE_TAG_D   0x09
#define INDEX_STORE_TAG_S   0x0b

#define K0_UNCACHED     2
#define K0_CACHED_WB    3      /* cacheable, noncoherent, write-back */

	.set	noreorder
	.set	noat

	.section .text.reset, "ax"
	.globl	flash_reset
	.ent	flash_reset
flash_reset:
	b	reset_main
	nop
	.org	0x10
	.word	0               /* REVISION register hole */

/*
 * Exception vectors while BEV is set.  Nothing here expects an exception:
 * report it (display, UART if it is up) and stop.
 */
	.macro	VECTOR off
	.org	\off
	li	$a0, \off
	la	$k0, vector_common
	jr	$k0
	nop
	.endm

	VECTOR	0x200
	VECTOR	0x280
	VECTOR	0x300
	VECTOR	0x380
	VECTOR	0x400

	/*
	 * EJTAG debug exception (no probe): reached only through the
	 * semihosting probe's sdbbp when nothing services it.  Step over the
	 * sdbbp and say so in k1.
	 */
	.org	0x480
	mfc0	$k0, C0(CP0_DEPC)
	addiu	$k0, $k0, 4
	mtc0	$k0, C0(CP0_DEPC)
	li	$k1, 1
	ehb
	deret

	.org	0x500
reset_main:
	/* Kernel mode, interrupts off, BEV vectors, ERL and EXL clear. */
	li	$t0, ST_BEV
	mtc0	$t0, C0(CP0_STATUS)
	ehb
	mtc0	$zero, C0(CP0_CAUSE)
	mtc0	$zero, C0(CP0_WATCHLO)
	mtc0	$zero, C0(CP0_COUNT)
	mtc0	$zero, C0(CP0_COMPARE)
	/* KSEG0 uncached until the caches hold valid tags. */
	mfc0	$t0, C0(CP0_CONFIG)
	li	$t1, K0_UNCACHED
	ins	$t0, $t1, 0, 3
	mtc0	$t0, C0(CP0_CONFIG)
	ehb

	/*
	 * Every CPU of QEMU's -smp N starts here; only CPU 0 boots (EBase
	 * CPUNum exists from Release 2).
	 */
	mfc0	$t0, C0(CP0_CONFIG)
	andi	$t0, $t0, CONFIG_AR_MASK
	beqz	$t0, 1f
	nop
	mfc0	$t0, C0(CP0_PRID), CP0_SEL_EBASE
	andi	$t0, $t0, EBASE_CPUNUM_MASK
	bnez	$t0, park
	nop
1:
	bal	cache_init
	nop

	mfc0	$t0, C0(CP0_CONFIG)
	li	$t1, K0_CACHED_WB
	ins	$t0, $t1, 0, 3
	mtc0	$t0, C0(CP0_CONFIG)
	ehb

	li	$sp, FLASH_STACK_TOP
	move	$fp, $zero

	/*
	 * Semihosting probe: UHI argc through sdbbp.  A debugger or QEMU's
	 * -semihosting services it; otherwise the debug vector above sets k1.
	 */
	move	$k1, $zero
	li	$t9, UHI_OP_ARGC
	sdbbp	1
	nop
	sltiu	$a0, $k1, 1             /* 1 when nothing trapped */
	la	$t0, flash_main
	jalr	$t0
	nop
	/* flash_main does not return; stop if it ever does. */
park:
	wait
	b	park
	nop
	.end	flash_reset

/*
 * Index Store Tag with zero tags over every line of every way marks each
 * line invalid.  Geometry from Config1 (and Config2 for an L2): line
 * size = 2 << L, sets = 64 << S (S = 7 means 32), ways = A + 1.  Uses
 * t0..t9 only; returns to ra.
 */
	.ent	cache_init
cache_init:
	mtc0	$zero, C0(CP0_TAGLO), SEL_ITAG
	mtc0	$zero, C0(CP0_TAGLO), SEL_DTAG
	mtc0	$zero, C0(CP0_TAGHI), SEL_ITAG
	mtc0	$zero, C0(CP0_TAGHI), SEL_DTAG
	ehb
	mfc0	$t9, C0(CP0_CONFIG), CP0_SEL_CONFIG1

	/* I-cache: IS 24:22, IL 21:19, IA 18:16 */
	ext	$t1, $t9, 19, 3
	beqz	$t1, 2f
	nop
	li	$t2, 2
	sllv	$t1, $t2, $t1           /* line bytes */
	ext	$t3, $t9, 22, 3
	li	$t4, 64
	sllv	$t3, $t4, $t3
	li	$t4, 64 << 7            /* S = 7 encodes 32 sets */
	bne	$t3, $t4, 5f
	nop
	li	$t3, 32
5:	ext	$t4, $t9, 16, 3
	addiu	$t4, $t4, 1
	mul	$t3, $t3, $t4           /* lines */
	mul	$t3, $t3, $t1           /* bytes */
	lui	$t5, 0x8000
	addu	$t6, $t5, $t3
1:	cache	INDEX_STORE_TAG_I, 0($t5)
	addu	$t5, $t5, $t1
	bne	$t5, $t6, 1b
	nop
2:
	/* D-cache: DS 15:13, DL 12:10, DA 9:7 */
	ext	$t1, $t9, 10, 3
	beqz	$t1, 3f
	nop
	li	$t2, 2
	sllv	$t1, $t2, $t1
	ext	$t3, $t9, 13, 3
	li	$t4, 64
	sllv	$t3, $t4, $t3
	li	$t4, 64 << 7
	bne	$t3, $t4, 6f
	nop
	li	$t3, 32
6:	ext	$t4, $t9, 7, 3
	addiu	$t4, $t4, 1
	mul	$t3, $t3, $t4
	mul	$t3, $t3, $t1
	lui	$t5, 0x8000
	addu	$t6, $t5, $t3
1:	cache	INDEX_STORE_TAG_D, 0($t5)
	addu	$t5, $t5, $t1
	bne	$t5, $t6, 1b
	nop
3:
	/* L2, if Config1.M says Config2 exists: SS 11:8, SL 7:4, SA 3:0 */
	bgez	$t9, 4f
	nop
	mfc0	$t8, C0(CP0_CONFIG), CP0_SEL_CONFIG2
	ext	$t1, $t8, 4, 4
	beqz	$t1, 4f
	nop
	mtc0	$zero, C0(CP0_TAGLO), SEL_L23TAG
	ehb
	li	$t2, 2
	sllv	$t1, $t2, $t1
	ext	$t3, $t8, 8, 4
	li	$t4, 64
	sllv	$t3, $t4, $t3
	ext	$t4, $t8, 0, 4
	addiu	$t4, $t4, 1
	mul	$t3, $t3, $t4
	mul	$t3, $t3, $t1
	lui	$t5, 0x8000
	addu	$t6, $t5, $t3
1:	cache	INDEX_STORE_TAG_S, 0($t5)
	addu	$t5, $t5, $t1
	bne	$t5, $t6, 1b
	nop
4:
	jr	$ra
	nop
	.end	cache_init

/* a0 = vector offset: hand the state to C on the boot stack. */
	.ent	vector_common
vector_common:
	li	$sp, FLASH_STACK_TOP
	mfc0	$a1, C0(CP0_CAUSE)
	mfc0	$a2, C0(CP0_EPC)
	mfc0	$a3, C0(CP0_BADVADDR)
	la	$t0, flash_fault
	jalr	$t0
	nop
	b	park
	nop
	.end	vector_common

/* flash_enter(a0, a1, a2, a3): jump to the kernel's entry point. */
	.globl	flash_enter
	.ent	flash_enter
flash_enter:
	li	$t9, KERNEL_ENTRY
	move	$ra, $zero
	jr	$t9
	nop
	.end	flash_enter

	.globl	flash_halt
	.ent	flash_halt
flash_halt:
	wait
	b	flash_halt
	nop
	.end	flash_halt

/* flash_semihost_exit(code): UHI exit; only called when the probe passed. */
	.globl	flash_semihost_exit
	.ent	flash_semihost_exit
flash_semihost_exit:
	li	$t9, UHI_OP_EXIT
	sdbbp	1
	nop
	jr	$ra
	nop
	.end	flash_semihost_exit

/* The kernel image and the command line, built in. */
	.section .rodata.kernel, "a"
	.balign	16
	.globl	flash_kernel_start
flash_kernel_start:
	.incbin	KERNEL_BIN
	.globl	flash_kernel_end
flash_kernel_end:
	.balign	4
	.globl	flash_cmdline
flash_cmdline:
	.incbin	CMDLINE_FILE
	.byte	0
