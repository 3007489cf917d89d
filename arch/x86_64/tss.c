/*
 * tss.c - the 64-bit task state segment: where the CPU finds stacks.
 *
 * RSP0 serves interrupts and exceptions from user mode: the running
 * task's kernel stack (arch_set_kernel_stack, kstack.c); the IST stacks
 * serve the exceptions that may arrive when the current stack is not to
 * be trusted: a double fault is usually a kernel stack overflow, and NMI
 * and machine check can hit at any instruction, so each has its own.
 */
#include <stddef.h>

#include "gdt.h"
#include "percpu.h"
#include "layout.h"
#include "proc/task.h"

#define IST_STACK_SIZE 8192

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];                /* stacks for CPL 0..2 */
	uint64_t reserved1;
	uint64_t ist[IST_SLOTS];        /* ist[0] is IST slot 1 */
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

_Static_assert(sizeof(struct tss) == 104, "TSS layout (SDM vol. 3, 8.7)");

/* ist_stacks[i] backs IST slot ist_used[i]. */
static const unsigned ist_used[] = { IST_DOUBLE_FAULT, IST_NMI, IST_MACHINE_CHECK };
#define IST_STACKS (sizeof(ist_used) / sizeof(ist_used[0]))

/* Each CPU has its own TSS and IST stacks: two CPUs taking an NMI at
 * once must not share a stack. */
static struct tss tss[CPU_MAX];
static uint8_t ist_stacks[CPU_MAX][IST_STACKS][IST_STACK_SIZE] __attribute__((aligned(16)));

struct tss *tss_init(unsigned cpu)
{
	struct tss *t = &tss[cpu];

	for (size_t i = 0; i < IST_STACKS; i++)
		t->ist[ist_used[i] - 1] =
			(uint64_t)(uintptr_t)(ist_stacks[cpu][i] + IST_STACK_SIZE);
	/* An AP never leaves ring 0 yet: RSP0 is used only by CPU 0. */
	t->rsp[0] = (uint64_t)(uintptr_t)boot_stack_top;
	/* A bitmap offset at the limit means no bitmap: user mode gets no ports. */
	t->iomap_base = sizeof(*t);
	return t;
}

uint16_t tss_limit(void)
{
	return sizeof(tss[0]) - 1;
}

void tss_set_rsp0(uint64_t rsp0)
{
	/* Each CPU's own TSS: the stack of the task it is switching to. */
	tss[this_x86_cpu()->id].rsp[0] = rsp0;
}

int tss_ist_bounds(uint64_t addr, uint64_t *bottom, uint64_t *top)
{
	for (size_t c = 0; c < CPU_MAX; c++) {
		for (size_t i = 0; i < IST_STACKS; i++) {
			uint64_t b = (uint64_t)(uintptr_t)ist_stacks[c][i];
			if (addr >= b && addr <= b + IST_STACK_SIZE) {
				*bottom = b;
				*top = b + IST_STACK_SIZE;
				return 1;
			}
		}
	}
	return 0;
}
