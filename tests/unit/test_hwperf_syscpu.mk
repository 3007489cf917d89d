include tests/unit/hwperf_srcs.mk
UNIT_SRCS_test_hwperf_syscpu := $(HWPERF_UNIT_SRCS)
