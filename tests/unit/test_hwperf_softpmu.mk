include tests/unit/hwperf_srcs.mk
UNIT_SRCS_test_hwperf_softpmu := $(HWPERF_UNIT_SRCS)
