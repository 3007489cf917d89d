/*
 * mips_pmu_native.c - mips_pmu_io on the real machine (kernel only; host
 * tests link a recording double instead).  MFC0/MTC0 name their register
 * in the instruction, so each (register, select) the drivers use gets its
 * own case; anything else reads 0 and ignores writes.
 */
#include <stddef.h>

#include "arch.h"
#include "mips_pmu_io.h"

#define KEY(reg, sel) ((reg) * 8u + (sel))

#define READ_CASE(reg, sel)                                                 \
	case KEY(reg, sel): {                                               \
		uint32_t v;                                                 \
		__asm__ volatile("mfc0 %0, $" #reg ", " #sel : "=r"(v));    \
		return v;                                                   \
	}

#define WRITE_CASE(reg, sel)                                                \
	case KEY(reg, sel):                                                 \
		__asm__ volatile("mtc0 %0, $" #reg ", " #sel "\n\tehb"      \
				 : : "r"(value) : "memory");                \
		return;

static uint32_t native_read(unsigned reg, unsigned sel)
{
	switch (KEY(reg, sel)) {
	READ_CASE(12, 1)        /* IntCtl */
	READ_CASE(13, 0)        /* Cause */
	READ_CASE(15, 0)        /* PRId */
	READ_CASE(15, 1)        /* EBase */
	READ_CASE(16, 0)        /* Config */
	READ_CASE(16, 1)        /* Config1 */
	READ_CASE(16, 3)        /* Config3 */
	READ_CASE(25, 0)
	READ_CASE(25, 1)
	READ_CASE(25, 2)
	READ_CASE(25, 3)
	READ_CASE(25, 4)
	READ_CASE(25, 5)
	READ_CASE(25, 6)
	READ_CASE(25, 7)
	default:
		return 0;
	}
}

static void native_write(unsigned reg, unsigned sel, uint32_t value)
{
	switch (KEY(reg, sel)) {
	WRITE_CASE(25, 0)
	WRITE_CASE(25, 1)
	WRITE_CASE(25, 2)
	WRITE_CASE(25, 3)
	WRITE_CASE(25, 4)
	WRITE_CASE(25, 5)
	WRITE_CASE(25, 6)
	WRITE_CASE(25, 7)
	default:
		return;
	}
}

static void native_spin(uint32_t iterations)
{
	for (uint32_t i = 0; i < iterations; i++)
		__asm__ volatile("" : "+r"(i));
}

static const struct mips_pmu_io native_io = {
	.read = native_read,
	.write = native_write,
	.read64 = NULL,         /* a MIPS32 kernel has no DMFC0 */
	.write64 = NULL,
	.cycles = arch_cycles,
	.spin = native_spin,
};

const struct mips_pmu_io *mips_pmu_io = &native_io;
