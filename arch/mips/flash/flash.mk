# arch/mips/flash/flash.mk - the Malta boot-flash image and the S-record,
# included by the top Makefile.
#
#   make flash ARCH=mips [ENDIAN=big] [APPEND=...]
#       build/<mips|mipsbe>/tally-flash.bin: reset stub at offset 0 (the
#       reset vector 0xbfc00000), the kernel and APPEND as its command line
#   make srec ARCH=mips [ENDIAN=big]
#       build/<mips|mipsbe>/tally.srec: the kernel as S-records for YAMON's
#       `load` (addresses and start record in KSEG0, from 0x80100000)
#
# FLASH_DIR and FLASH_BIN move the intermediate files and the image, so a
# test can build an image with another command line beside the default one.

FLASH_DIR ?= $(B)/flash
FLASH_BIN ?= $(B)/tally-flash.bin
SREC      := $(B)/tally.srec

.PHONY: flash srec

ifeq ($(ARCH),mips)

FLASH_SRC  := arch/mips/flash
FLASH_OBJS := $(FLASH_DIR)/reset.S.o $(FLASH_DIR)/flash.c.o $(FLASH_DIR)/spd.c.o
FLASH_GEN  := $(FLASH_DIR)/kernel.bin $(FLASH_DIR)/kernel_layout.h $(FLASH_DIR)/cmdline.txt
FLASH_CFLAGS = $(CFLAGS) -I$(FLASH_SRC) -include $(FLASH_DIR)/kernel_layout.h \
	-DKERNEL_BIN='"$(FLASH_DIR)/kernel.bin"' -DCMDLINE_FILE='"$(FLASH_DIR)/cmdline.txt"'

flash: $(FLASH_BIN)
srec: $(SREC)

# The flat kernel image starts at its first loaded address (__kernel_start).
$(FLASH_DIR)/kernel.bin: $(KERNEL)
	@mkdir -p $(dir $@)
	$(OBJCOPY) -O binary $< $@

$(FLASH_DIR)/kernel_layout.h: $(KERNEL)
	@mkdir -p $(dir $@)
	@load=$$(llvm-nm $< | awk '$$3 == "__kernel_start" { print $$1 }'); \
	entry=$$(llvm-readelf -h $< | awk '/Entry point/ { print $$4 }'); \
	test -n "$$load" && test -n "$$entry" || { echo "flash: no load address or entry in $<" >&2; exit 1; }; \
	printf '#define KERNEL_LOAD 0x%s\n#define KERNEL_ENTRY %s\n' "$$load" "$$entry" > $@

# APPEND, baked in; rewritten only when it changes, so the image rebuilds then.
$(FLASH_DIR)/cmdline.txt: FORCE
	@mkdir -p $(dir $@)
	@printf '%s' '$(subst ','\'',$(APPEND))' > $@.tmp
	@test $$(wc -c < $@.tmp) -le 1023 || { echo "flash: APPEND longer than 1023 bytes" >&2; rm -f $@.tmp; exit 1; }
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(FLASH_DIR)/%.c.o: $(FLASH_SRC)/%.c $(FLASH_DIR)/kernel_layout.h $(B)/flags
	@mkdir -p $(dir $@)
	$(CC) $(FLASH_CFLAGS) -c $< -o $@

$(FLASH_DIR)/%.S.o: $(FLASH_SRC)/%.S $(FLASH_GEN) $(B)/flags
	@mkdir -p $(dir $@)
	$(CC) $(FLASH_CFLAGS) -D__ASSEMBLY__ -c $< -o $@

$(FLASH_DIR)/tally-flash.elf: $(FLASH_OBJS) $(FLASH_SRC)/flash.ld
	$(LD) $(LDFLAGS) -T $(FLASH_SRC)/flash.ld -o $@ $(FLASH_OBJS)

# QEMU's Malta (like the board's bi-endian boot flash) hands a little-endian
# CPU each 32-bit flash word byte-swapped, so the little-endian image is
# stored with its words swapped; the big-endian image is stored as is.
$(FLASH_BIN): $(FLASH_DIR)/tally-flash.elf
	$(OBJCOPY) -O binary $< $@.native
ifeq ($(ENDIAN),little)
	objcopy -I binary -O binary --reverse-bytes=4 $@.native $@
	rm -f $@.native
else
	mv $@.native $@
endif

# llvm-objcopy 14 writes no S-records; the host's GNU objcopy does, from the
# flat image placed at the kernel's load address, with S3 data records and
# an S7 record giving the entry point for `go` (--change-addresses moves the
# start address too, so --set-start takes the entry's offset in the image).
$(SREC): $(FLASH_DIR)/kernel.bin $(FLASH_DIR)/kernel_layout.h
	@load=$$(awk '/KERNEL_LOAD/ { print $$3 }' $(FLASH_DIR)/kernel_layout.h); \
	entry=$$(awk '/KERNEL_ENTRY/ { print $$3 }' $(FLASH_DIR)/kernel_layout.h); \
	off=$$(printf '0x%x' $$((entry - load))); \
	echo "objcopy -I binary -O srec --srec-forceS3 --set-start $$off --change-addresses $$load $< $@"; \
	objcopy -I binary -O srec --srec-forceS3 --set-start $$off --change-addresses $$load $< $@

-include $(FLASH_OBJS:.o=.d)

else
flash srec:
	@echo "make $@: the boot flash and S-record are Malta images; use ARCH=mips" >&2; exit 1
endif
