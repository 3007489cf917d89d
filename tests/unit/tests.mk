# tests/unit/tests.mk - what each host unit test links, one entry a test.
#
# The key is the test's path under tests/unit without ".c"; the value is the
# project sources it needs besides itself and libc/*.c (which every test
# links).  A test that needs nothing more (the libc tests) has no entry.
# unit.mk stops with an error on an entry whose test does not exist, so this
# table cannot outlive a rename.

# What every host test of kernel/hwperf links: the core, the software PMU,
# the fake task layer and the PMU double.  (boot.c and cmd.c are
# kernel-only: linker sets, boot arguments, the console.)
HWPERF_UNIT_SRCS := kernel/hwperf/event.c kernel/hwperf/hooks.c \
	kernel/hwperf/inherit.c kernel/hwperf/load.c kernel/hwperf/lock.c \
	kernel/hwperf/mux.c kernel/hwperf/overflow.c kernel/hwperf/pick.c \
	kernel/hwperf/reason.c kernel/pmu/soft/softpmu.c kernel/pmu/core.c \
	kernel/hwperf/spec.c kernel/hwperf/state.c kernel/hwperf/syscpu.c \
	kernel/hwperf/vctr.c kernel/hwperf/final.c kernel/hwperf/softcfg.c \
	kernel/hwperf/invariant.c kernel/hwperf/perfmon.c kernel/hwperf/xcall.c \
	kernel/events/place.c \
	tests/unit/doubles/hwperf_fake_env.c tests/unit/doubles/hwperf_fakepmu.c

# The event tables of every model, as the x86 and MIPS drivers bind them.
EVENTS_MODEL_SRCS := kernel/events/models.c kernel/events/intel_arch_table.c \
	kernel/events/intel_skl_table.c kernel/events/amd_table.c kernel/events/encode.c \
	kernel/events/mips_24k_family_table.c kernel/events/mips_74k_family_table.c \
	kernel/events/r10k_table.c

# ---- kernel/ ----------------------------------------------------------------
UNIT_SRCS_kernel/console/test_args     := kernel/console/args.c
UNIT_SRCS_kernel/console/test_lineedit := kernel/console/lineedit.c

UNIT_SRCS_kernel/mm/test_page_heap := kernel/mm/page.c kernel/mm/heap.c
UNIT_SRCS_kernel/mm/test_uvm       := kernel/mm/uvm.c tests/unit/doubles/page_double.c

UNIT_SRCS_kernel/proc/test_acct         := kernel/proc/acct.c
UNIT_SRCS_kernel/proc/test_program_syms := kernel/proc/program_syms.c
UNIT_SRCS_kernel/proc/test_runq         := kernel/proc/runq.c
UNIT_SRCS_kernel/proc/test_signal       := kernel/proc/signal.c

UNIT_SRCS_kernel/time/test_cycle_rate := kernel/time/cycle_rate.c arch/x86_64/tsc_rate.c

UNIT_SRCS_kernel/tools/test_stat_math := kernel/tools/stat_math.c

UNIT_SRCS_kernel/bench/test_check       := kernel/bench/check.c
UNIT_SRCS_kernel/bench/test_derive      := kernel/bench/derive.c
UNIT_SRCS_kernel/bench/test_loop_expect := kernel/bench/loop_expect.c \
	kernel/bench/check.c

UNIT_SRCS_kernel/events/test_agree    := $(HWPERF_UNIT_SRCS) \
	$(EVENTS_MODEL_SRCS) kernel/events/dispatch.c
UNIT_SRCS_kernel/events/test_dispatch := $(EVENTS_MODEL_SRCS) \
	kernel/events/dispatch.c kernel/events/place.c kernel/events/resolve.c \
	kernel/hwperf/spec.c
UNIT_SRCS_kernel/events/test_place    := kernel/events/place.c
UNIT_SRCS_kernel/events/test_tables   := $(EVENTS_MODEL_SRCS) \
	kernel/events/resolve.c kernel/events/place.c kernel/hwperf/spec.c

UNIT_SRCS_kernel/hwperf/test_cmd       := $(HWPERF_UNIT_SRCS) \
	kernel/hwperf/ops.c kernel/hwperf/format.c kernel/tools/stat_math.c
UNIT_SRCS_kernel/hwperf/test_format    := $(HWPERF_UNIT_SRCS) \
	kernel/hwperf/format.c kernel/tools/stat_math.c
UNIT_SRCS_kernel/hwperf/test_ops       := $(HWPERF_UNIT_SRCS) \
	kernel/hwperf/ops.c
UNIT_SRCS_kernel/hwperf/test_counts    := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_exit_race := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_final     := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_inherit   := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_invariant := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_overflow  := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_perfmon   := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_pick      := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_sample    := $(HWPERF_UNIT_SRCS) \
	kernel/hwperf/sample.c kernel/hwperf/callchain.c
UNIT_SRCS_kernel/hwperf/test_softcfg   := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_spec      := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_state     := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_hooks     := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_syscpu    := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_smp       := $(HWPERF_UNIT_SRCS)
UNIT_SRCS_kernel/hwperf/test_upage     := $(HWPERF_UNIT_SRCS) \
	kernel/hwperf/upage.c

UNIT_SRCS_kernel/pmu/soft/test_softpmu := $(HWPERF_UNIT_SRCS)

# ---- arch/ ------------------------------------------------------------------
UNIT_SRCS_arch/x86_64/test_acpi        := arch/x86_64/acpi.c
UNIT_SRCS_arch/x86_64/test_efi_handoff := arch/x86_64/efi_handoff.c \
	arch/x86_64/memmap.c
UNIT_SRCS_arch/x86_64/test_sigcontext  := arch/x86_64/sigcontext.c \
	arch/x86_64/user_fault.c

UNIT_SRCS_arch/x86_64/pmu/test_amd        := arch/x86_64/pmu/amd.c \
	arch/x86_64/pmu/lapic_pmi.c kernel/events/amd_table.c kernel/events/encode.c \
	tests/unit/doubles/pmu_x86_double.c
UNIT_SRCS_arch/x86_64/pmu/test_intel_arch := arch/x86_64/pmu/intel_arch.c \
	arch/x86_64/pmu/lapic_pmi.c kernel/events/intel_arch_table.c \
	kernel/events/intel_skl_table.c kernel/events/encode.c \
	kernel/hwperf/spec.c kernel/events/place.c \
	tests/unit/doubles/pmu_x86_double.c
UNIT_SRCS_arch/x86_64/pmu/test_model_pick := arch/x86_64/pmu/intel_arch.c \
	arch/x86_64/pmu/amd.c arch/x86_64/pmu/lapic_pmi.c \
	kernel/events/intel_arch_table.c kernel/events/intel_skl_table.c \
	kernel/events/amd_table.c kernel/events/encode.c \
	tests/unit/doubles/pmu_x86_double.c

UNIT_SRCS_arch/mips/test_asid       := arch/mips/asid.c
UNIT_SRCS_arch/mips/test_branch     := arch/mips/branch.c
UNIT_SRCS_arch/mips/test_count_ext  := arch/mips/count_ext.c
UNIT_SRCS_arch/mips/test_intr_route := arch/mips/intr_route.c
UNIT_SRCS_arch/mips/test_pagetable  := arch/mips/pagetable.c tests/unit/doubles/page_double.c
UNIT_SRCS_arch/mips/test_sigframe   := arch/mips/sigframe.c
UNIT_SRCS_arch/mips/test_user_fault := arch/mips/user_fault.c

UNIT_SRCS_arch/mips/flash/test_spd := arch/mips/flash/spd.c

UNIT_SRCS_arch/mips/pmu/test_mips32 := arch/mips/pmu/mips32.c \
	arch/mips/pmu/mips_pmu_irq.c kernel/events/mips_24k_family_table.c \
	kernel/events/mips_74k_family_table.c tests/unit/doubles/pmu_mips_double.c
UNIT_SRCS_arch/mips/pmu/test_r10k   := arch/mips/pmu/r10k.c \
	arch/mips/pmu/mips_pmu_irq.c kernel/events/r10k_table.c \
	tests/unit/doubles/pmu_mips_double.c

# ---- boot/ ------------------------------------------------------------------
UNIT_SRCS_boot/efi/test_cmdline := boot/efi/cmdline.c
UNIT_SRCS_boot/efi/test_elfplan := boot/efi/elfplan.c
UNIT_SRCS_boot/efi/test_status  := boot/efi/status.c

# ---- user/ ------------------------------------------------------------------
# The user library's counter reader over the page the kernel writes.
UNIT_SRCS_user/lib/test_uread := $(HWPERF_UNIT_SRCS) kernel/hwperf/upage.c \
	user/lib/uread.c

# ---- tests/witness (host code of the QEMU plugin) ---------------------------
UNIT_SRCS_witness/test_decode := tests/witness/decode.c
