include tests/unit/hwperf_srcs.mk
UNIT_SRCS_test_events_agree := $(HWPERF_UNIT_SRCS) kernel/events/dispatch.c \
	kernel/events/models.c kernel/events/intel_arch.c kernel/events/amd.c \
	kernel/events/intel_skl.c kernel/events/encode.c \
	kernel/events/mips_24k_family.c kernel/events/mips_74k_family.c \
	kernel/events/r10k.c
