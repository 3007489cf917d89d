# kernel/staging.mk - which kernel/ sources are linked (see Makefile).
#
# Layers land one after another: a subsystem whose lower layer is not in
# yet (hwperf needs tasks; tasks need arch_task.h on both machines) is
# built and host-tested but left out of the kernel image until it lands.
# KERNEL_LANDED names what is in; everything else under kernel/ is staged.
KERNEL_LANDED := args bootargs clock cmd console heap irq lineedit main page \
	panic sysinfo bench/check bench/run bench/tick_bench
KERNEL_STAGED += $(filter-out $(patsubst %,kernel/%.c,$(KERNEL_LANDED)), \
	$(wildcard kernel/*.c kernel/*/*.c))
