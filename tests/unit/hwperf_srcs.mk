# hwperf_srcs.mk - what every host test of kernel/hwperf links: the core,
# the software PMU, the fake task layer and the PMU double.  (boot.c and
# cmd.c are kernel-only: linker sets, boot arguments, the console.)
HWPERF_UNIT_SRCS := kernel/hwperf/event.c kernel/hwperf/hooks.c \
	kernel/hwperf/inherit.c kernel/hwperf/load.c kernel/hwperf/lock.c \
	kernel/hwperf/mux.c kernel/hwperf/overflow.c kernel/hwperf/pick.c \
	kernel/hwperf/reason.c kernel/pmu/soft/softpmu.c kernel/pmu/core.c kernel/hwperf/spec.c \
	kernel/hwperf/state.c kernel/hwperf/syscpu.c kernel/hwperf/vctr.c \
	kernel/hwperf/final.c kernel/hwperf/softcfg.c kernel/hwperf/invariant.c \
	kernel/hwperf/perfmon.c \
	kernel/events/place.c \
	tests/unit/hwperf_fake_env.c tests/unit/hwperf_fakepmu.c
