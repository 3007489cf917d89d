/*
 * kernel_blob.S - the kernel ELF inside tally.efi, so that one file on
 * the ESP (or QEMU's -kernel) is all it takes.  KERNEL_ELF names the
 * stripped tally.elf (boot/efi/efi.mk).
 */
	.section .rodata
	.balign 16
	.globl tally_kernel_elf, tally_kernel_elf_end
tally_kernel_elf:
	.incbin KERNEL_ELF
tally_kernel_elf_end:

	/* No executable stack wanted. */
	.section .note.GNU-stack,"",@progbits
