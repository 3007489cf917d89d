include tests/unit/hwperf_srcs.mk
UNIT_SRCS_test_hwperf_perfmon := $(HWPERF_UNIT_SRCS)
