include tests/unit/hwperf_srcs.mk
UNIT_SRCS_test_hwperf_urdpmc := $(HWPERF_UNIT_SRCS) kernel/hwperf/upage.c \
	user/lib/uread.c
