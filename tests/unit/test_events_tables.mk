UNIT_SRCS_test_events_tables := kernel/events/models.c kernel/events/resolve.c \
	kernel/events/encode.c kernel/events/intel_arch.c \
	kernel/events/intel_skl.c kernel/events/amd.c \
	kernel/events/mips_24k_family.c kernel/events/mips_74k_family.c \
	kernel/events/r10k.c kernel/events/place.c kernel/hwperf/spec.c
