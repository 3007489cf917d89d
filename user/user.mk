# user/user.mk - user programs, included by the top Makefile after OBJS.
#
# Each program user/NAME.c is linked with the user library (user/lib),
# libc and the arch's crt0 and syscall stubs (arch/<arch>/user) into
# $(B)/user/NAME.elf at 0x400000 (user/user.ld), then embedded in the
# kernel by compiling user/embed.c for it; `spawn NAME` starts it.

# Every user/NAME.c but the embedding glue is a program.
USER_PROGS := $(filter-out embed,$(basename $(notdir $(sort $(wildcard user/*.c)))))

UB := $(B)/user
USER_INCS := -Ilibc/include -Iuser/include -Iarch/$(ARCH)/user -I.
# The event-spec parser is the console's own file, not a copy.
USER_SHARED_SRCS := kernel/hwperf/spec.c kernel/events/place.c
USER_LIB_SRCS := $(sort $(wildcard user/lib/*.c)) $(USER_SHARED_SRCS) $(LIBC_SRCS)

ifeq ($(ARCH),x86_64)
  USER_ARCH_CFLAGS := -isystem $(CC_INC) -m64 -mno-red-zone -mgeneral-regs-only \
        -fno-pie -fno-asynchronous-unwind-tables
  USER_LDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack
  USER_STUBS := arch/x86_64/user/crt0.asm arch/x86_64/user/syscall.asm
  USER_LIB_STUBS := arch/x86_64/user/ucounters.asm arch/x86_64/user/sysloop.asm \
        arch/x86_64/user/benchloop.asm
  # nasm cannot read C headers: hand it the numbers it needs.
  sys_nr = $(shell sed -n 's/^\#define SYS_$(1)[[:space:]]*\([0-9]*\).*/\1/p' kernel/syscall_nr.h)
  USER_NASM_DEFS := -DSYS_SIGRETURN=$(call sys_nr,sigreturn) -DSYS_GETPPID=$(call sys_nr,getppid)
else
  USER_ARCH_CFLAGS := -isystem $(CC_INC) --target=$(MTRIPLE) -march=mips32r2 \
        -mabi=32 -msoft-float -mno-abicalls -G 0 -fno-asynchronous-unwind-tables \
        $(ENDIAN_DEF)
  USER_LDFLAGS := -nostdlib -static -z max-page-size=0x1000 -z noexecstack
  USER_STUBS := arch/mips/user/crt0.S arch/mips/user/syscall.S
  USER_LIB_STUBS := arch/mips/user/ucounters.S arch/mips/user/sysloop.S \
        arch/mips/user/benchloop.S
endif

USER_CFLAGS := -std=c11 $(WARN) -O2 -g -ffreestanding -fno-builtin \
        -fno-stack-protector -fno-pic -nostdinc $(USER_INCS) \
        $(USER_ARCH_CFLAGS) -DARCH_$(shell echo $(ARCH) | tr a-z A-Z) -MMD -MP

# spec.c and its user wrapper include hwperf.h, which finds pmu.h and
# set.h through -Ikernel, as in the kernel build.
$(UB)/obj/kernel/hwperf/spec.c.o $(UB)/obj/user/lib/hwperf.c.o: USER_CFLAGS += -Ikernel

# The system-call wrappers are leaves around one instruction: without
# the frame clang's MIPS target keeps by default (a frame pointer in
# every function), getppid is li, syscall, jr instead of ten
# instructions.  A leaf needs no frame for a call chain: the chain walk
# starts from the frame's ra and sp (kernel/hwperf/callchain.c).
$(UB)/obj/user/lib/syscalls.c.o $(UB)/obj/user/lib/hwperf.c.o: USER_CFLAGS += -fomit-frame-pointer
$(UB)/obj/user/lib/syscalls.c.o $(UB)/obj/user/lib/hwperf.c.o: user/user.mk    # the flag above is here

# fpchain is the known profile for sample records: frame pointers in every
# function and no sibling calls, so the kernel walks its whole chain.
$(UB)/obj/user/fpchain.c.o: USER_CFLAGS += -fno-omit-frame-pointer \
        -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls

USER_STUB_OBJS := $(patsubst %,$(UB)/obj/%.o,$(USER_STUBS))
USER_LIB_OBJS := $(patsubst %,$(UB)/obj/%.o,$(USER_LIB_SRCS) $(USER_LIB_STUBS))
# The library is an archive, so a program links only what it uses: its
# text stays small (prof's bucket size follows it) and holds only its own.
USER_AR := $(subst objcopy,ar,$(OBJCOPY))
USER_LIB_A := $(UB)/libuser.a
USER_ELFS := $(patsubst %,$(UB)/%.elf,$(USER_PROGS))
USER_STRIPPED := $(patsubst %,$(UB)/%.stripped,$(USER_PROGS))
USER_EMBED_OBJS := $(patsubst %,$(UB)/embed_%.o,$(USER_PROGS))

# Every program is embedded in the kernel image (kernel/proc/programs.c).
OBJS += $(USER_EMBED_OBJS)

$(UB)/obj/%.c.o: %.c $(B)/flags
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -c $< -o $@

$(UB)/obj/%.S.o: %.S $(B)/flags
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -D__ASSEMBLY__ -c $< -o $@

$(UB)/obj/%.asm.o: %.asm kernel/syscall_nr.h $(B)/flags
	@mkdir -p $(dir $@)
	nasm $(ASFLAGS) $(USER_NASM_DEFS) -MD $(UB)/obj/$*.asm.d -MP $< -o $@

$(USER_LIB_A): $(USER_LIB_OBJS)
	rm -f $@
	$(USER_AR) rcs $@ $^

# crt0 first, so _start opens the text segment.
$(UB)/%.elf: $(USER_STUB_OBJS) $(UB)/obj/user/%.c.o $(USER_LIB_A) user/user.ld
	$(LD) $(USER_LDFLAGS) -T user/user.ld -o $@ $(USER_STUB_OBJS) \
	    $(UB)/obj/user/$*.c.o $(USER_LIB_A)

# What goes into the kernel is the program without its symbols and debug
# information (the .elf keeps them, for gdb and addr2line).
$(UB)/%.stripped: $(UB)/%.elf
	$(OBJCOPY) --strip-all $< $@

# Its function names stay, as text, for `prof` (kernel/proc/program_syms.h):
# "ADDRESS NAME" per text symbol, sorted by address.
USER_NM := $(subst objcopy,nm,$(OBJCOPY))
$(UB)/%.syms: $(UB)/%.elf
	$(USER_NM) -n --defined-only $< | awk '$$2 ~ /^[tT]$$/ { print $$1, $$3 }' > $@

$(UB)/embed_%.o: user/embed.c $(UB)/%.stripped $(UB)/%.syms
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DPROG_NAME=$* -DPROG_ELF='"$(UB)/$*.stripped"' \
	    -DPROG_SYMS='"$(UB)/$*.syms"' -c $< -o $@

.PHONY: user
user: $(USER_ELFS) $(USER_EMBED_OBJS)

# Keep the intermediate files make would otherwise delete.
.SECONDARY: $(USER_ELFS) $(USER_STRIPPED) $(patsubst %,$(UB)/%.syms,$(USER_PROGS))

-include $(patsubst %,$(UB)/obj/user/%.c.d,$(USER_PROGS)) $(USER_LIB_OBJS:.o=.d) \
	$(USER_STUB_OBJS:.o=.d)
