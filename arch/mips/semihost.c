/*
 * semihost.c - leaving QEMU with a status through MIPS UHI semihosting.
 *
 * UHI calls are `sdbbp 1` with the operation in $25 and arguments from $4.
 * Without semihosting that instruction is a debug breakpoint that would
 * drop the CPU into the EJTAG debug vector, so it is only used when QEMU
 * said at entry that semihosting is on: its loader then leaves a0 =
 * 0xffffffff (argc is to be fetched through UHI) instead of argc.
 */
#include "arch.h"
#include "mips.h"

#define UHI_BOOT_A0   0xffffffffu
#define UHI_OP_EXIT   1

static bool present;

void semihost_detect(uint32_t a0)
{
	present = (a0 == UHI_BOOT_A0);
}

bool semihost_present(void)
{
	return present;
}

void semihost_exit(int code)
{
	register uint32_t op __asm__("$25") = UHI_OP_EXIT;
	register int arg __asm__("$4") = code;

	__asm__ volatile("sdbbp 1" : : "r"(op), "r"(arg) : "memory");
	arch_halt();
}
