; boot_paging.asm - the page tables that carry the kernel into long mode.
;
; One page directory set of 2 MiB pages covers the first 4 GiB, where a
; 32-bit loader must have put the kernel, its own information and the
; command line.  It is reached three ways: identity (so the instruction
; after enabling paging still exists), at DIRECT_MAP_BASE (how C reads
; physical memory from then on) and, for its first GiB, at KERNEL_VMA
; (where the kernel is linked).  arch/x86_64/paging.c later maps RAM above
; 4 GiB into the direct map and removes the identity slot.

%include "boot/x86_64/layout.inc"

%define PHYS(sym) ((sym) - KERNEL_VMA)

global boot_pml4, boot_pdpt_low, boot_pdpt_kernel, boot_pd
global build_boot_tables

bits 32
section .boot.text progbits alloc exec nowrite align=16

; Called with .bss already zeroed; clobbers EAX, ECX, EDI.
build_boot_tables:
	mov edi, PHYS(boot_pd)
	mov eax, PTE_LARGE_RW           ; physical 0; high dwords stay 0
	mov ecx, BOOT_MAP_GIB * ENTRIES
.pd:
	mov [edi], eax
	add eax, 1 << LARGE_PAGE_SHIFT
	add edi, 8
	loop .pd

	mov edi, PHYS(boot_pdpt_low)
	mov eax, PHYS(boot_pd) + PTE_TABLE
	mov ecx, BOOT_MAP_GIB
.pdpt:
	mov [edi], eax
	add eax, PAGE_SIZE
	add edi, 8
	loop .pdpt

	mov dword [PHYS(boot_pdpt_kernel) + PDPT_KERNEL * 8], PHYS(boot_pd) + PTE_TABLE
	mov eax, PHYS(boot_pdpt_low) + PTE_TABLE
	mov [PHYS(boot_pml4)], eax                      ; identity, slot 0
	mov [PHYS(boot_pml4) + PML4_DIRECT * 8], eax
	mov dword [PHYS(boot_pml4) + PML4_KERNEL * 8], PHYS(boot_pdpt_kernel) + PTE_TABLE
	ret

section .bss nobits alloc noexec write align=4096
boot_pml4:
	resb PAGE_SIZE
boot_pdpt_low:
	resb PAGE_SIZE
boot_pdpt_kernel:
	resb PAGE_SIZE
boot_pd:
	resb BOOT_MAP_GIB * PAGE_SIZE
