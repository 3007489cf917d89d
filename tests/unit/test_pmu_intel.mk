UNIT_SRCS_test_pmu_intel := arch/x86_64/pmu/intel_arch.c \
	arch/x86_64/pmu/lapic_pmi.c kernel/events/intel_arch.c \
	kernel/events/intel_skl.c kernel/events/encode.c \
	tests/unit/pmu_x86_double.c \
	kernel/hwperf/spec.c kernel/events/place.c
