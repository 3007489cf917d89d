; entry32.asm - where both loaders jump, and the climb into long mode.
;
; Multiboot state: 32-bit protected mode, flat segments, paging off,
; interrupts off, EAX = the loader's magic, EBX = physical address of its
; information.  Nothing else (stack, GDT, IDT) may be trusted.  The code
; runs at its physical address, so every kernel symbol it touches is
; converted with PHYS().  The magic and info address ride in EBP and ESI
; to the 64-bit side, which hands them to x86_64_boot() in C.

%include "boot/x86_64/layout.inc"

%define PHYS(sym) ((sym) - KERNEL_VMA)

CR0_PE          equ 1 << 0
CR0_WP          equ 1 << 16     ; supervisor writes honour read-only pages
CR0_PG          equ 1 << 31
CR4_PAE         equ 1 << 5
MSR_EFER        equ 0xC0000080
EFER_LME        equ 1 << 8

EFLAGS_ID       equ 1 << 21     ; toggles only where CPUID exists
CPUID_EXT_MAX   equ 0x80000000
CPUID_EXT_FEAT  equ 0x80000001
CPUID_EXT_LM    equ 1 << 29     ; EDX of 0x80000001: long mode

; Descriptor bits (Intel SDM vol. 3, 3.4.5).  Accessed is preset so the
; CPU never has to write to this read-only table.
SEG_LIMIT_MAX   equ 0x000f00000000ffff
SEG_ACCESSED    equ 1 << 40
SEG_RW          equ 1 << 41
SEG_CODE        equ 1 << 43
SEG_NONSYSTEM   equ 1 << 44
SEG_PRESENT     equ 1 << 47
SEG_LONG        equ 1 << 53
SEG_DB          equ 1 << 54
SEG_GRAN_4K     equ 1 << 55
SEG_FLAT        equ SEG_LIMIT_MAX | SEG_GRAN_4K | SEG_PRESENT | SEG_NONSYSTEM | SEG_ACCESSED | SEG_RW

BOOT_STACK_SIZE equ 16384

extern __bss_start, __bss_end
extern boot_pml4, build_boot_tables
extern long_mode_entry, early_die

global _start
global boot_stack_bottom, boot_stack_top

bits 32
section .boot.text progbits alloc exec nowrite align=16

_start:
	cli
	cld
	mov ebp, eax                    ; loader magic
	mov esi, ebx                    ; loader info, physical
	mov al, POST_ENTRY
	out POST_PORT, al

	; Loaders zero .bss, but the page tables live there and a stale
	; entry would be fatal, so do not depend on it.
	mov edi, PHYS(__bss_start)
	mov ecx, PHYS(__bss_end)
	sub ecx, edi
	shr ecx, 2
	xor eax, eax
	rep stosd

	mov esp, PHYS(boot_stack_top)
	call require_long_mode
	call build_boot_tables

	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, PHYS(boot_pml4)
	mov cr3, eax
	mov ecx, MSR_EFER
	rdmsr
	or eax, EFER_LME
	wrmsr
	mov eax, cr0
	or eax, CR0_PG | CR0_WP | CR0_PE
	mov cr0, eax                    ; now in compatibility mode

	lgdt [boot_gdtr]
	mov edi, ebp
	jmp BOOT_CS:long_mode_entry

; Returns only on a CPU that can run x86-64 code.
require_long_mode:
	pushfd
	pop eax
	mov ecx, eax
	xor eax, EFLAGS_ID
	push eax
	popfd
	pushfd
	pop eax
	push ecx
	popfd
	cmp eax, ecx
	je .no
	mov eax, CPUID_EXT_MAX
	cpuid
	cmp eax, CPUID_EXT_FEAT
	jb .no
	mov eax, CPUID_EXT_FEAT
	cpuid
	test edx, CPUID_EXT_LM
	jz .no
	ret
.no:
	mov esi, msg_no_long_mode
	jmp early_die

section .boot.data progbits alloc noexec nowrite align=8

msg_no_long_mode:
	db "tally: this CPU has no 64-bit long mode; halted", 13, 10, 0

	align 8
boot_gdt:
	dq 0
	dq SEG_FLAT | SEG_CODE | SEG_LONG               ; BOOT_CS
	dq SEG_FLAT | SEG_DB                            ; BOOT_DS
boot_gdt_end:

boot_gdtr:
	dw boot_gdt_end - boot_gdt - 1
	dd boot_gdt

section .bss nobits alloc noexec write align=16
boot_stack_bottom:
	resb BOOT_STACK_SIZE
boot_stack_top:
