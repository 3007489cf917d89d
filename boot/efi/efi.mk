# boot/efi/efi.mk - tally.efi (gnu-efi UEFI application) and its ESP image,
# included by the top-level Makefile.
#
#   make efi [APPEND="..."]   build/x86_64/tally.efi and build/x86_64/tally-esp.img
#
# The application is linked as gnu-efi intends: its crt0 and linker script,
# libefi and libgnuefi, then objcopy to a PE32+ EFI application.  The kernel
# ELF (stripped) is built into it by kernel_blob.S.  APPEND, if set, is
# written to the ESP as EFI/BOOT/tally-cmdline.txt.

EFI_B       := build/x86_64/efi
EFI_APP     := build/x86_64/tally.efi
EFI_ESP     := build/x86_64/tally-esp.img
EFI_KERNEL  := build/x86_64/tally.elf
EFI_INC     := /usr/include/efi
EFI_LIBDIR  := /usr/lib
EFI_CRT0    := $(EFI_LIBDIR)/crt0-efi-x86_64.o
EFI_LDS     := $(EFI_LIBDIR)/elf_x86_64_efi.lds

EFI_SRCS    := boot/efi/main.c boot/efi/cmdline.c boot/efi/elfplan.c \
               boot/efi/status.c boot/efi/trampoline.S boot/efi/kernel_blob.S
EFI_OBJS    := $(patsubst %,$(EFI_B)/%.o,$(EFI_SRCS))

# The project's warnings; gnu-efi's headers come in as system headers
# because they are not -Wstrict-prototypes clean.  ms_abi calls, no red
# zone (the firmware's interrupts share the stack), position-independent
# for the relocations crt0 applies.
EFI_CFLAGS  := -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter \
               -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
               -Wpointer-arith -O2 -g \
               -ffreestanding -fno-builtin -fno-stack-protector -fpic \
               -fshort-wchar -mno-red-zone -mgeneral-regs-only \
               -maccumulate-outgoing-args -DGNU_EFI_USE_MS_ABI \
               -isystem $(EFI_INC) -isystem $(EFI_INC)/x86_64 -I. -MMD -MP

.PHONY: efi efi-image
efi: $(if $(filter x86_64,$(ARCH)),kernel)
	$(MAKE) ARCH=x86_64 kernel
	$(MAKE) ARCH=x86_64 efi-image APPEND="$(APPEND)"

efi-image: $(EFI_APP)
	scripts/mkesp $(EFI_APP) $(EFI_ESP) "$(APPEND)"

$(EFI_B)/kernel.elf: $(EFI_KERNEL)
	@mkdir -p $(dir $@)
	objcopy --strip-debug $< $@

$(EFI_B)/%.c.o: %.c
	@mkdir -p $(dir $@)
	gcc $(EFI_CFLAGS) -c $< -o $@

# New flags rebuild everything, as the kernel's $(B)/flags does.
$(EFI_OBJS): boot/efi/efi.mk
$(EFI_B)/boot/efi/kernel_blob.S.o: $(EFI_B)/kernel.elf
$(EFI_B)/%.S.o: %.S
	@mkdir -p $(dir $@)
	gcc $(EFI_CFLAGS) -DKERNEL_ELF='"$(EFI_B)/kernel.elf"' -c $< -o $@

$(EFI_B)/tally.so: $(EFI_OBJS)
	ld -nostdlib -znocombreloc -shared -Bsymbolic -T $(EFI_LDS) \
	    $(EFI_CRT0) $(EFI_OBJS) -L$(EFI_LIBDIR) -lefi -lgnuefi -o $@

$(EFI_APP): $(EFI_B)/tally.so
	objcopy -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel \
	    -j .rela -j .rel.* -j .rela.* -j .reloc \
	    --target efi-app-x86_64 --subsystem=10 $< $@

-include $(EFI_OBJS:.o=.d)
