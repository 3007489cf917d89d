UNIT_SRCS_test_pmu_amd := arch/x86_64/pmu/amd.c arch/x86_64/pmu/lapic_pmi.c \
	kernel/events/amd.c kernel/events/encode.c tests/unit/pmu_x86_double.c
