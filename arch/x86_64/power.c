/*
 * power.c - leaving: exit with a status (QEMU), reset, or halt.
 */
#include "arch.h"
#include "cpu.h"
#include "io.h"
#include "isa_debug_exit.h"

#define KBC_STATUS        0x64    /* 8042 keyboard controller */
#define KBC_COMMAND       0x64
#define KBC_INPUT_FULL    0x02    /* status: controller still busy */
#define KBC_PULSE_RESET   0xfe    /* pulse output line 0: CPU reset */
#define KBC_SPIN_LIMIT    100000

void arch_halt(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* Real hardware has no exit device: the write is ignored and we halt. */
void arch_exit(int code)
{
	if (code < 0 || code > ARCH_EXIT_STATUS_MAX)
		code = ARCH_EXIT_STATUS_MAX;    /* never alias a smaller status */
	isa_debug_exit((unsigned)code);
	arch_halt();
}

/*
 * An empty IDT turns the next exception into a triple fault, which resets
 * every PC: the fallback where the 8042 is absent (most UEFI machines).
 */
static void triple_fault(void)
{
	const struct desc_ptr empty = { 0, 0 };

	lidt(&empty);
	__asm__ volatile("int3");
}

void arch_reboot(void)
{
	cli();
	for (int i = 0; i < KBC_SPIN_LIMIT && (inb(KBC_STATUS) & KBC_INPUT_FULL); i++)
		;
	outb(KBC_COMMAND, KBC_PULSE_RESET);
	for (int i = 0; i < KBC_SPIN_LIMIT; i++)
		__asm__ volatile("pause");
	triple_fault();
	arch_halt();
}
