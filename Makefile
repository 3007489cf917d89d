# Tally - top-level build.
#
#   make [ARCH=x86_64|mips] [ENDIAN=little|big]   build the kernel
#   make iso                                       x86_64 hybrid BIOS/UEFI ISO
#   make flash|srec ARCH=mips [ENDIAN=] [APPEND=]  Malta boot flash, S-record (arch/mips/flash/flash.mk)
#   make efi [APPEND=]                             x86_64 tally.efi + ESP image (boot/efi/efi.mk)
#   make run  [ARCH= ENDIAN= BOOT= FIRMWARE= APPEND= ICOUNT= SMP= CPU= USB=]
#   make test                                      host unit tests + QEMU tests
#   make lab-test [LG_ENV=tests/labgrid/X.yaml]    console tests through labgrid
#   make clean
#
# Outputs go to build/<target>/ where target is x86_64, mips or mipsbe.

ARCH    ?= x86_64
ENDIAN  ?= little
BOOT    ?= kernel
FIRMWARE ?= bios
APPEND  ?=
ICOUNT  ?= 0
SMP     ?= 1
CPU     ?=
USB     ?= 0

ifeq ($(ARCH),x86_64)
  TARGET := x86_64
else ifeq ($(ARCH),mips)
  ifeq ($(ENDIAN),big)
    TARGET := mipsbe
  else ifeq ($(ENDIAN),little)
    TARGET := mips
  else
    $(error ENDIAN must be little or big, not '$(ENDIAN)')
  endif
else
  $(error ARCH must be x86_64 or mips, not '$(ARCH)')
endif

B := build/$(TARGET)

# `make` alone builds the kernel, whatever included fragments define first.
.DEFAULT_GOAL := all

# Every core unless the command line says -j: about 150 objects, 61 s on
# one core of this 2-core machine.  A sub-make inherits the jobserver.
ifeq ($(findstring -j,$(MAKEFLAGS)),)
  MAKEFLAGS += -j$(shell nproc)
endif

WARN := -Wall -Wextra -Werror -Wno-unused-parameter -Wstrict-prototypes \
        -Wmissing-prototypes -Wshadow -Wpointer-arith
INCS := -Ilibc/include -Ikernel -Idrivers -Iarch/$(ARCH) -I.
BUILD_ID := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
COMMON_CFLAGS := -std=c11 $(WARN) -O2 -g -ffreestanding -fno-builtin \
        -fno-stack-protector -fno-pic -nostdinc $(INCS) -MMD -MP

ifeq ($(ARCH),x86_64)
  CC      := gcc
  LD      := ld
  OBJCOPY := objcopy
  # The compiler's own freestanding headers (stdint.h, stdarg.h, ...).
  CC_INC  := $(shell $(CC) -print-file-name=include)
  CFLAGS  := $(COMMON_CFLAGS) -isystem $(CC_INC) -m64 -mcmodel=kernel \
             -mno-red-zone -mgeneral-regs-only -fno-asynchronous-unwind-tables \
             -DARCH_X86_64
  ASFLAGS := -f elf64 -g -F dwarf
  LDFLAGS := -nostdlib -z max-page-size=0x1000 -z noexecstack
  # Link-time optimisation: the entry and exit paths are many small
  # functions in many files (this_cpu, sched_ready, the hooks' gates),
  # and only LTO inlines them across files; it took the null system call
  # from 367 to 261 instructions (docs/costs.md).  The link then goes
  # through gcc, which runs the LTO plugin.
  KCFLAGS_LTO := -flto=auto
  KLD = $(CC) $(CFLAGS) $(KCFLAGS_LTO) -nostdlib -static -Wl,-z,max-page-size=0x1000 \
        -Wl,-z,noexecstack -Wl,--build-id=none
else
  CC      := clang
  LD      := ld.lld
  OBJCOPY := llvm-objcopy
  CC_INC  := $(shell $(CC) -print-resource-dir)/include
  ifeq ($(ENDIAN),big)
    MTRIPLE := mips-unknown-elf
    ENDIAN_DEF := -DARCH_BIG_ENDIAN
  else
    MTRIPLE := mipsel-unknown-elf
    ENDIAN_DEF := -DARCH_LITTLE_ENDIAN
  endif
  # clang keeps $fp by default; nothing in the kernel walks a frame
  # chain (arch_dump_stack scans the stack), and dropping it took the
  # null system call from 1,693 to 1,340 instructions and every other cost row by 5-22% (docs/costs.md).
  # User programs keep their own flags (user/user.mk).
  CFLAGS  := $(COMMON_CFLAGS) -isystem $(CC_INC) --target=$(MTRIPLE) \
             -march=mips32r2 -mabi=32 -msoft-float -mno-abicalls -G 0 \
             -fomit-frame-pointer \
             -fno-asynchronous-unwind-tables -DARCH_MIPS $(ENDIAN_DEF)
  LDFLAGS := -nostdlib -z noexecstack
  # LTO as on x86_64 (see there).  ld.lld does the link-time code
  # generation itself, from the bitcode's triple; -mno-abicalls and -G 0
  # are code generation options the bitcode does not carry, so they are
  # given again here.
  KCFLAGS_LTO := -flto
  KLD = $(LD) $(LDFLAGS) --lto-O2 -mllvm -mattr=+noabicalls,+soft-float \
        -mllvm -mips-ssection-threshold=0
endif

# ---- sources ---------------------------------------------------------------
# Portable code is everything under kernel/ and libc/; each arch names its own
# boot, arch and driver files in arch/<arch>/sources.mk (ARCH_SRCS, ARCH_DRIVERS).
KERNEL_SRCS := $(sort $(wildcard kernel/*.c kernel/*/*.c kernel/*/*/*.c))
LIBC_SRCS   := $(sort $(wildcard libc/*.c))
COMMON_DRIVERS := drivers/pc_legacy.c drivers/uart16550.c drivers/i8259.c drivers/i8254.c
ARCH_SRCS :=
ARCH_DRIVERS :=
-include arch/$(ARCH)/sources.mk

SRCS := $(KERNEL_SRCS) $(LIBC_SRCS) $(COMMON_DRIVERS) $(ARCH_DRIVERS) $(ARCH_SRCS)
OBJS := $(patsubst %,$(B)/%.o,$(SRCS)) $(B)/build_id.c.o
# User programs, built per ARCH and embedded in the image (adds to OBJS).
include user/user.mk

KERNEL := $(B)/tally.elf

.PHONY: all kernel iso run test test-smp lab-test unit system clean deps soak
all: kernel
kernel: $(KERNEL) $(KERNEL_EXTRA)

$(B)/%.c.o: %.c $(B)/flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(KCFLAGS_LTO) -c $< -o $@

# Every object also depends on the flags it was built with, so a changed
# option (say -fomit-frame-pointer) rebuilds everything instead of leaving
# objects of two builds linked together; rewritten only when they change.
$(B)/flags: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(CFLAGS) $(KCFLAGS_LTO) $(ASFLAGS) | $(USER_CFLAGS)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# The build id file is rewritten only when the id changes, so an unchanged
# tree does not relink, and a new commit always does.
$(B)/build_id.c: FORCE
	@mkdir -p $(dir $@)
	@echo 'const char tally_build_id[] = "$(BUILD_ID)";' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(B)/build_id.c.o: $(B)/build_id.c
	$(CC) $(CFLAGS) -c $< -o $@

.PHONY: FORCE
FORCE:

$(B)/%.S.o: %.S $(B)/flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -D__ASSEMBLY__ -c $< -o $@

$(B)/%.asm.o: %.asm $(B)/flags
	@mkdir -p $(dir $@)
	nasm $(ASFLAGS) -MD $(B)/$*.asm.d -MP $< -o $@

# One linker script for both machines, preprocessed for the arch.
$(B)/linker.ld: linker.ld $(wildcard arch/$(ARCH)/layout.ld)
	@mkdir -p $(dir $@)
	$(CC) -E -P -x c -nostdinc -I. -DARCH_$(shell echo $(ARCH) | tr a-z A-Z) $(ENDIAN_DEF) $< -o $@

$(KERNEL): $(OBJS) $(B)/linker.ld
	$(KLD) -T $(B)/linker.ld -o $@ $(OBJS)

-include $(OBJS:.o=.d)

# ---- ISO (x86_64) -----------------------------------------------------------
ISO := build/x86_64/tally.iso
# APPEND, if set, is baked into the ISO's GRUB menu as the kernel arguments.
# With ARCH=x86_64 (the default) the kernel is a prerequisite here, so
# `make -j2 kernel iso` builds it once rather than in two makes at once.
iso: $(if $(filter x86_64,$(ARCH)),kernel)
	$(MAKE) ARCH=x86_64 kernel
	scripts/mkiso build/x86_64/tally.elf $(ISO) "$(APPEND)"

# ---- run --------------------------------------------------------------------
run: deps
	$(MAKE) ARCH=$(ARCH) ENDIAN=$(ENDIAN) kernel
	@if [ "$(ARCH)" = x86_64 ] && [ "$(BOOT)" = iso ]; then $(MAKE) iso APPEND="$(APPEND)"; fi
	@if [ "$(ARCH)" = mips ] && [ "$(BOOT)" = flash ]; then $(MAKE) ARCH=mips ENDIAN=$(ENDIAN) flash APPEND='$(subst ','\'',$(APPEND))'; fi
	@case "$(ARCH):$(BOOT)" in x86_64:efi*) $(MAKE) efi APPEND="$(if $(filter efi,$(BOOT)),$(APPEND))";; esac
	scripts/qemu-run --arch $(ARCH) --endian $(ENDIAN) --boot $(BOOT) \
	    --firmware $(if $(filter efi efi-kernel,$(BOOT)),uefi,$(FIRMWARE)) --smp $(SMP) $(if $(CPU),--cpu $(CPU)) \
	    $(if $(filter 1 yes,$(ICOUNT)),--icount) $(if $(filter 1 yes,$(USB)),--usb) \
	    $(if $(filter iso efi flash,$(BOOT)),,--append "$(APPEND)")

# ---- tests ------------------------------------------------------------------
# `make test` builds every target, then one pytest run covers the host unit
# tests (tests/unit, cmocka) and the QEMU system tests (tests/system), on
# two workers (pytest-xdist): each system-test module stays whole on one
# worker, in order (tests/system/conftest.py groups them).
TEST_WORKERS ?= -n 2 --dist loadgroup
test: deps
	$(MAKE) ARCH=x86_64 kernel
	$(MAKE) ARCH=mips ENDIAN=little kernel
	$(MAKE) ARCH=mips ENDIAN=big kernel
	$(MAKE) ARCH=mips ENDIAN=little flash srec
	$(MAKE) ARCH=mips ENDIAN=big flash srec
	$(MAKE) iso
	$(MAKE) efi
	$(MAKE) unit-build
	$(MAKE) witness
	/usr/bin/python3 -m pytest -p no:cacheprovider tests -m "not slow_smp" $(TEST_WORKERS) $(PYTEST_ARGS)
	$(MAKE) lab-test

# The several-CPU selftests and the 4-CPU stress benchmark (tests marked
# slow_smp): minutes each under -icount, so apart from `make test`.
test-smp: deps
	$(MAKE) ARCH=x86_64 kernel
	/usr/bin/python3 -m pytest -p no:cacheprovider tests/system -m slow_smp $(TEST_WORKERS) $(PYTEST_ARGS)

# The console tests again, through labgrid instead of scripts/qemu-run
# (tests/system/lab_console.py): LG_ENV names the environment, a board's or
# QEMU's (tests/labgrid/*.yaml); LAB_TESTS the modules it runs.
LG_ENV    ?= tests/labgrid/qemu.yaml
LAB_TESTS ?= tests/system/test_console.py tests/system/test_tasks.py tests/system/test_bench.py
lab-test: deps
	$(MAKE) ARCH=x86_64 kernel
	$(MAKE) ARCH=mips ENDIAN=little kernel
	@# Status 5 is "no tests collected": PYTEST_ARGS chose only targets
	@# (say --target x86_64-iso-uefi) that the environment does not have.
	/usr/bin/python3 -m pytest -p no:cacheprovider $(LAB_TESTS) --lg-env $(LG_ENV) $(PYTEST_ARGS) || [ $$? = 5 ]

# `make soak`: hours of fuzzing and stress (scripts/soak), SOAK_MINUTES per
# machine (default 10), on SOAK_TARGETS (default x86_64 mips).
SOAK_MINUTES ?= 10
SOAK_TARGETS ?= x86_64 mips
soak: deps
	$(MAKE) ARCH=x86_64 kernel
	$(MAKE) ARCH=mips ENDIAN=little kernel
	$(MAKE) ARCH=mips ENDIAN=big kernel
	/usr/bin/python3 scripts/soak --minutes $(SOAK_MINUTES) $(SOAK_TARGETS)

include tests/unit/unit.mk
include tests/witness/witness.mk
include arch/mips/flash/flash.mk
include boot/efi/efi.mk

deps:
	@scripts/install-deps --check || scripts/install-deps

clean:
	rm -rf build
