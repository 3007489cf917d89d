include tests/unit/hwperf_srcs.mk
UNIT_SRCS_test_hwperf_exit_race := $(HWPERF_UNIT_SRCS)
