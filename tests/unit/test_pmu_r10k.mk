UNIT_SRCS_test_pmu_r10k := arch/mips/pmu/r10k.c arch/mips/pmu/mips_pmu_irq.c \
	kernel/events/r10k.c tests/unit/pmu_mips_double.c
