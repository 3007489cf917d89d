# arch/x86_64/sources.mk - the x86_64 machine layer, included by the
# top-level Makefile (which defines B, OBJCOPY and the rules for .c/.asm).

ARCH_SRCS := \
	boot/x86_64/header.asm \
	boot/x86_64/entry32.asm \
	boot/x86_64/boot_paging.asm \
	boot/x86_64/early_die.asm \
	boot/x86_64/entry64.asm \
	arch/x86_64/trapentry.asm \
	arch/x86_64/syscall_entry.asm \
	arch/x86_64/switch.asm \
	arch/x86_64/bench_loop.asm \
	arch/x86_64/smp_tramp.asm \
	$(sort $(wildcard arch/x86_64/*.c)) \
	$(sort $(wildcard arch/x86_64/pmu/*.c))

ARCH_DRIVERS := drivers/isa_debug_exit.c

# QEMU's -kernel loads only 32-bit multiboot ELFs; the same image as
# elf32-i386 loads by its physical (LMA) addresses, which all fit in 32 bits.
# Debug info stays in tally.elf, the file to give gdb and addr2line.
KERNEL_EXTRA := $(B)/tally32.elf

$(B)/tally32.elf: $(B)/tally.elf
	$(OBJCOPY) -O elf32-i386 --strip-debug $< $@
