# arch/mips/sources.mk - the MIPS Malta machine layer (see kernel/arch.h).
ARCH_SRCS := \
	boot/mips/start.S \
	arch/mips/boot.c \
	arch/mips/bootinfo.c \
	arch/mips/cp0cmd.c \
	arch/mips/cpu.c \
	arch/mips/crash.c \
	arch/mips/idle.S \
	arch/mips/intr.c \
	arch/mips/io.c \
	arch/mips/malta.c \
	arch/mips/power.c \
	arch/mips/semihost.c \
	arch/mips/timer.c \
	arch/mips/tlb.c \
	arch/mips/trap.c \
	arch/mips/vectors.S

ARCH_DRIVERS := drivers/malta_display.c
