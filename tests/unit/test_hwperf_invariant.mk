include tests/unit/hwperf_srcs.mk
UNIT_SRCS_test_hwperf_invariant := $(HWPERF_UNIT_SRCS)
