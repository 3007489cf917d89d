/*
 * dumpstack.c - the current context's registers and likely call chain.
 *
 * The kernel is built without frame pointers, so the call chain is
 * guessed the way a person would: every word on the stack that points
 * into kernel text is printed, marked '?' because it may be a stale
 * return address.  Addresses resolve with
 *	addr2line -f -e build/x86_64/tally.elf ADDR...
 */
#include <stdio.h>

#include "arch.h"
#include "cpu.h"
#include "dumpstack.h"
#include "gdt.h"
#include "layout.h"
#include "mm/page.h"

/*
 * The top of the known stack that holds rsp, or 0.  Task kernel stacks
 * are pages from the direct map: the scan stops at the end of RSP's page,
 * which is mapped whatever the page is (and is the whole stack as long
 * as kernel stacks are one page).
 */
static uint64_t stack_top(uint64_t rsp)
{
	uint64_t bottom, top;

	if (rsp >= (uint64_t)(uintptr_t)boot_stack_bottom &&
	    rsp <= (uint64_t)(uintptr_t)boot_stack_top)
		return (uint64_t)(uintptr_t)boot_stack_top;
	if (tss_ist_bounds(rsp, &bottom, &top))
		return top;
	if (rsp >= DIRECT_MAP_BASE && rsp < DIRECT_MAP_BASE + DIRECT_MAP_LIMIT)
		return ((rsp - 1) | (PAGE_SIZE - 1)) + 1;     /* aligned: empty */
	return 0;
}

static int in_text(uint64_t a)
{
	return a >= (uint64_t)(uintptr_t)__text_start && a < (uint64_t)(uintptr_t)__text_end;
}

void stack_trace_from(uint64_t rsp)
{
	uint64_t top = stack_top(rsp);

	if (!top || rsp % sizeof(uint64_t)) {
		printf("  call trace: not read (RSP %016lx is not on a known stack)\n", rsp);
		return;
	}
	printf("  call trace (? = maybe stale):\n");
	for (const uint64_t *p = (const uint64_t *)(uintptr_t)rsp;
	     (uint64_t)(uintptr_t)p < top; p++) {
		if (in_text(*p))
			printf("    ? %016lx\n", *p);
	}
}

static uint64_t current_rsp(void)
{
	uint64_t rsp;
	__asm__ volatile("movq %%rsp, %0" : "=r"(rsp));
	return rsp;
}

void arch_dump_stack(void)
{
	uint64_t rsp = current_rsp();

	printf("  RSP %016lx  RFLAGS %016lx\n", rsp, read_rflags());
	printf("  CR0 %016lx  CR2 %016lx  CR3 %016lx  CR4 %016lx\n",
	       read_cr0(), read_cr2(), read_cr3(), read_cr4());
	stack_trace_from(rsp);
}
