/*
 * boot.c - from the loader to kmain, and arch_init.
 *
 * COM1 is set up first, so that a panic before kmain (which sets it up
 * again) is readable, then the descriptor tables, so that a fault from
 * here on reaches trap() instead of resetting the machine.
 */
#include <stdio.h>

#include "apic.h"
#include "arch.h"
#include "i8259.h"
#include "boot.h"
#include "efi_handoff.h"
#include "gdt.h"
#include "memmap.h"
#include "multiboot.h"
#include "paging.h"
#include "percpu.h"
#include "progress.h"
#include "smp.h"
#include "trap.h"
#include "uart16550.h"
#include "usermode.h"
#include "vm.h"

#define EARLY_BAUD 115200

static struct boot_info boot_info;

void x86_64_boot(uint32_t magic, uint32_t info_pa)
{
	uart_init(UART_COM1_PORT, EARLY_BAUD);
	gdt_init();
	/* GS finds the CPU from the first trap on (trap() reads it). */
	percpu_init();
	idt_init();
	post_code(POST_C_BOOT);
	if (multiboot_parse(magic, info_pa, &boot_info) != 0)
		panic("x86_64: unknown boot loader magic %#x in EAX "
		      "(want multiboot1 %#x, multiboot2 %#x or tally.efi %#x)",
		      magic, MB1_BOOT_MAGIC, MB2_BOOT_MAGIC, EFI_HANDOFF_MAGIC);
	paging_map_ram(&boot_info);
	paging_drop_identity();
	/* Before kmain: reading the firmware's tables is the loader's part. */
	smp_discover();
	post_code(POST_MEMORY);
	kmain(&boot_info);
}

/* Descriptor tables and memory are set up before kmain; here come the
 * interrupt controller and what user mode needs, then what boot could
 * not report. */
void arch_init(struct boot_info *bi)
{
	/* The 8259 pair delivers its lines right above the CPU exceptions. */
	i8259_init(IRQ_VECTOR_BASE);
	/* Before hwperf_boot: the PMU drivers offer overflow interrupts only
	 * once LVT PC has its vector. */
	apic_init();
	/* SYSCALL finds its entry (GS its CPU since x86_64_boot). */
	vm_init();
	usermode_init();
	syscall_init();
	efi_handoff_report();
	if (memmap_dropped())
		printf("x86_64: warning: %u RAM ranges ignored (more than %d)\n",
		       memmap_dropped(), BOOT_MEM_RANGES_MAX);
}
