include tests/unit/hwperf_srcs.mk
UNIT_SRCS_test_hwperf_final := $(HWPERF_UNIT_SRCS)
