include tests/unit/hwperf_srcs.mk
UNIT_SRCS_test_hwperf_sample := $(HWPERF_UNIT_SRCS) kernel/hwperf/sample.c kernel/hwperf/callchain.c
