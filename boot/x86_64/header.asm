; header.asm - the two multiboot headers.
;
; QEMU's -kernel understands only multiboot v1 (and only a 32-bit ELF, hence
; the elf32-i386 copy of the kernel); GRUB is given multiboot2, which it
; also supports on UEFI.  Neither asks for load addresses (the ELF program
; headers say where to load) and v1 asks for no video mode.  linker.ld
; puts these sections first, well inside the 8 KiB (v1) and 32 KiB (v2)
; that loaders search.

MB1_MAGIC            equ 0x1BADB002
MB1_FLAG_PAGE_ALIGN  equ 1 << 0         ; modules on 4 KiB boundaries
MB1_FLAG_MEMORY_INFO equ 1 << 1         ; mem_lower/upper and memory map
MB1_FLAGS            equ MB1_FLAG_PAGE_ALIGN | MB1_FLAG_MEMORY_INFO

MB2_MAGIC            equ 0xE85250D6
MB2_ARCH_I386        equ 0              ; entered in 32-bit protected mode
MB2_TAG_END          equ 0
MB2_TAG_FRAMEBUFFER  equ 5
MB2_TAG_OPTIONAL     equ 1              ; flags: boot even if unsatisfiable

; Checksums make the magic, flags and checksum sum to 0 mod 2^32.
%define CHECKSUM(sum) (0x100000000 - ((sum) & 0xffffffff))

section .multiboot1 progbits alloc noexec nowrite align=4
	dd MB1_MAGIC
	dd MB1_FLAGS
	dd CHECKSUM(MB1_MAGIC + MB1_FLAGS)

section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd CHECKSUM(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))

	; Any framebuffer will do.  Without this tag GRUB insists on VGA text
	; mode, which UEFI machines lack, and prints an error and a warning
	; on every UEFI boot.  Tally itself only talks to COM1.
	align 8
	dw MB2_TAG_FRAMEBUFFER
	dw MB2_TAG_OPTIONAL
	dd 20                           ; size of this tag
	dd 0, 0, 0                      ; width, height, depth: no preference

	align 8
	dw MB2_TAG_END                  ; type
	dw 0                            ; flags
	dd 8                            ; size of this tag
mb2_header_end:
