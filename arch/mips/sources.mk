# arch/mips/sources.mk - the MIPS Malta machine layer (see kernel/arch.h).
ARCH_SRCS := \
	boot/mips/start.S \
	arch/mips/asid.c \
	arch/mips/bench_loop.S \
	arch/mips/boot.c \
	arch/mips/bootinfo.c \
	arch/mips/branch.c \
	arch/mips/cp0cmd.c \
	arch/mips/copy64_fpu.S \
	arch/mips/copy64.c \
	arch/mips/count_ext.c \
	arch/mips/cpu.c \
	arch/mips/crash.c \
	arch/mips/idle.S \
	arch/mips/intr.c \
	arch/mips/intr_route.c \
	arch/mips/io.c \
	arch/mips/kstack.c \
	arch/mips/malta.c \
	arch/mips/pagetable.c \
	arch/mips/power.c \
	arch/mips/semihost.c \
	arch/mips/smp.c \
	arch/mips/sigframe.c \
	arch/mips/signal_frame.c \
	arch/mips/switch.S \
	arch/mips/timer.c \
	arch/mips/tlb.c \
	arch/mips/tlbrefill.S \
	arch/mips/trap.c \
	arch/mips/uaccess.c \
	arch/mips/ucounters.c \
	arch/mips/user_fault.c \
	arch/mips/user_span.c \
	arch/mips/usermode.c \
	arch/mips/vectors.S \
	arch/mips/vm.c \
	arch/mips/vpe.S \
	$(sort $(wildcard arch/mips/pmu/*.c))

ARCH_DRIVERS := drivers/malta_display.c
