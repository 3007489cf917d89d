UNIT_SRCS_test_events_x86_pick := arch/x86_64/pmu/intel_arch.c \
	arch/x86_64/pmu/amd.c arch/x86_64/pmu/lapic_pmi.c \
	kernel/events/intel_arch.c kernel/events/intel_skl.c \
	kernel/events/amd.c kernel/events/encode.c tests/unit/pmu_x86_double.c
