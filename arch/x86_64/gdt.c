/*
 * gdt.c - the kernel's global descriptor table.
 *
 * Long mode ignores base and limit of code and data segments, so the
 * entries only say which ring and whether the code is 64-bit; the TSS is
 * the one descriptor with a real base (SDM vol. 3, 3.4.5 and 8.2.3).
 */
#include "cpu.h"
#include "gdt.h"
#include "proc/task.h"

#define SEG_LIMIT_MAX   0x000f00000000ffffull
#define SEG_ACCESSED    (1ull << 40)    /* preset: the CPU need not write it */
#define SEG_RW          (1ull << 41)    /* data writable, code readable */
#define SEG_CODE        (1ull << 43)
#define SEG_NONSYSTEM   (1ull << 44)
#define SEG_DPL(ring)   ((uint64_t)(ring) << 45)
#define SEG_PRESENT     (1ull << 47)
#define SEG_LONG        (1ull << 53)
#define SEG_DB          (1ull << 54)    /* 32-bit default operand size */
#define SEG_GRAN_4K     (1ull << 55)
#define SEG_FLAT        (SEG_LIMIT_MAX | SEG_GRAN_4K | SEG_PRESENT | \
			 SEG_NONSYSTEM | SEG_ACCESSED | SEG_RW)

#define SEG_TYPE_TSS64  (9ull << 40)    /* available 64-bit TSS */
/* A system descriptor scatters base 31:0 over bits 39:16 and 63:56. */
#define DESC_BASE_LOW(b)  (((b) & 0xffffffull) << 16)
#define DESC_BASE_MID(b)  ((((b) >> 24) & 0xffull) << 56)
#define DESC_BASE_HIGH(b) ((b) >> 32)   /* the second slot */

#define SEL_INDEX(sel)  ((sel) >> 3)

/* One table per CPU: each has its own TSS, and a TSS descriptor is
 * marked busy by LTR, so two CPUs cannot load the same one. */
static uint64_t gdts[CPU_MAX][GDT_SLOTS] __attribute__((aligned(16)));

/* A 64-bit TSS descriptor takes two slots (limit < 64 KiB fits 15:0). */
static void set_tss(uint64_t *gdt, struct tss *t, uint16_t limit)
{
	uint64_t base = (uint64_t)(uintptr_t)t;

	gdt[SEL_INDEX(GDT_TSS)] = limit | DESC_BASE_LOW(base) | DESC_BASE_MID(base) |
		SEG_TYPE_TSS64 | SEG_PRESENT;
	gdt[SEL_INDEX(GDT_TSS) + 1] = DESC_BASE_HIGH(base);
}

/*
 * CS can only change with a far transfer: push the new CS and the
 * return address and let LRETQ take both.
 */
static void load_segments(void)
{
	__asm__ volatile(
		"pushq %[cs]\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movl %[ds], %%eax\n\t"
		"movl %%eax, %%ds\n\t"
		"movl %%eax, %%es\n\t"
		"movl %%eax, %%ss\n\t"
		"xorl %%eax, %%eax\n\t"
		"movl %%eax, %%fs\n\t"
		"movl %%eax, %%gs\n\t"
		"ltr %w[tss]"
		:
		: [cs] "i"(GDT_KERNEL_CS), [ds] "i"(GDT_KERNEL_DS), [tss] "r"(GDT_TSS)
		: "rax", "memory");
}

void gdt_init_cpu(unsigned cpu)
{
	uint64_t *gdt = gdts[cpu];

	gdt[SEL_INDEX(GDT_KERNEL_CS)] = SEG_FLAT | SEG_CODE | SEG_LONG | SEG_DPL(RING_KERNEL);
	gdt[SEL_INDEX(GDT_KERNEL_DS)] = SEG_FLAT | SEG_DB | SEG_DPL(RING_KERNEL);
	/* GDT_USER32_CS stays empty: SYSRET needs the slot, not a descriptor,
	 * and without one ring 3 cannot enter 32-bit compatibility mode. */
	gdt[SEL_INDEX(GDT_USER_DS)] = SEG_FLAT | SEG_DB | SEG_DPL(RING_USER);
	gdt[SEL_INDEX(GDT_USER_CS)] = SEG_FLAT | SEG_CODE | SEG_LONG | SEG_DPL(RING_USER);
	set_tss(gdt, tss_init(cpu), tss_limit());

	struct desc_ptr gdtr = {
		.limit = sizeof(gdts[0]) - 1,
		.base = (uint64_t)(uintptr_t)gdt,
	};
	lgdt(&gdtr);
	load_segments();
}

void gdt_init(void)
{
	gdt_init_cpu(0);
}
