/*
 * idt.c - the interrupt descriptor table: one interrupt gate per vector
 * below TRAP_VECTORS (SDM vol. 3, 6.14.1).  The exceptions that can strike
 * when the current stack is bad or the kernel is mid-instruction anywhere
 * switch to their own IST stack.
 */
#include "arch.h"
#include "cpu.h"
#include "gdt.h"
#include "trap.h"

#define IDT_ENTRIES       256
#define GATE_INTERRUPT    0x0e    /* 64-bit interrupt gate: clears IF */
#define GATE_DPL(ring)    ((ring) << 5)
#define GATE_PRESENT      0x80

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __attribute__((packed));

_Static_assert(sizeof(struct idt_gate) == 16, "long-mode gate size");

static struct idt_gate idt[IDT_ENTRIES] __attribute__((aligned(16)));

static uint8_t ist_for(unsigned vector)
{
	switch (vector) {
	case VEC_DOUBLE_FAULT:
		return IST_DOUBLE_FAULT;
	case VEC_NMI:
		return IST_NMI;
	case VEC_MACHINE_CHECK:
		return IST_MACHINE_CHECK;
	default:
		return 0;
	}
}

/* INT3 is how user code asks for SIGTRAP: its gate must admit ring 3.
 * Every other gate refuses INT n from ring 3 with #GP (SIGSEGV). */
static uint8_t dpl_for(unsigned vector)
{
	return vector == VEC_BREAKPOINT ? RING_USER : RING_KERNEL;
}

static void set_gate(unsigned vector, uint64_t handler)
{
	struct idt_gate *g = &idt[vector];

	g->offset_low = (uint16_t)handler;
	g->offset_mid = (uint16_t)(handler >> 16);
	g->offset_high = (uint32_t)(handler >> 32);
	g->selector = GDT_KERNEL_CS;
	g->ist = ist_for(vector);
	g->type_attr = GATE_PRESENT | GATE_DPL(dpl_for(vector)) | GATE_INTERRUPT;
}

void idt_init(void)
{
	if (trap_stubs_end - trap_stubs != TRAP_VECTORS)
		panic("idt: trapentry.asm has %ld stubs, trap.h wants %d",
		      (long)(trap_stubs_end - trap_stubs), TRAP_VECTORS);
	for (unsigned v = 0; v < TRAP_VECTORS; v++)
		set_gate(v, trap_stubs[v]);
	idt_load();
}

/* Every CPU shares the one table: the gates are the same everywhere, and
 * IST slots name each CPU's own stacks through its own TSS. */
void idt_load(void)
{
	struct desc_ptr idtr = {
		.limit = sizeof(idt) - 1,
		.base = (uint64_t)(uintptr_t)idt,
	};
	lidt(&idtr);
}
