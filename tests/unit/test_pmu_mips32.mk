UNIT_SRCS_test_pmu_mips32 := arch/mips/pmu/mips32.c arch/mips/pmu/mips_pmu_irq.c \
	kernel/events/mips_24k_family.c kernel/events/mips_74k_family.c \
	tests/unit/pmu_mips_double.c
