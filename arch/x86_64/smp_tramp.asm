; smp_tramp.asm - where an application processor starts: real mode at
; SMP_TRAMP_PA (the startup IPI's vector times 4 KiB), up through 32-bit
; protected mode into long mode, then a jump to smp.c's ap_entry.
;
; smp.c copies the bytes between ap_tramp_start and ap_tramp_end to
; SMP_TRAMP_PA (below 1 MiB: a SIPI can only name a page there) and fills
; the parameter block before each SIPI; one AP runs it at a time.  The code
; is linked at the kernel's addresses but runs at SMP_TRAMP_PA, so every
; absolute address here is SMP_TRAMP_PA + (label - ap_tramp_start); label
; differences are constants to nasm, so no relocation is involved.
;
; Facts: Intel SDM vol. 3A 9.4.4 (the AP starts in real mode at CS =
; vector << 8, IP = 0), 9.9 (entering protected mode), 9.8.5 (long mode:
; PAE, CR3, EFER.LME, then CR0.PG; the code doing it runs identity-mapped).

SMP_TRAMP_PA    equ 0x8000          ; smp.h says the same

CR0_PE          equ 1 << 0
CR0_WP          equ 1 << 16
CR0_PG          equ 1 << 31
CR4_PAE         equ 1 << 5
MSR_EFER        equ 0xC0000080

TR_CS32         equ 0x08
TR_DS           equ 0x10
TR_CS64         equ 0x18

%define TPA(l) (SMP_TRAMP_PA + (l) - ap_tramp_start)
%define TOFF(l) ((l) - ap_tramp_start)

global ap_tramp_start, ap_tramp_end, ap_tramp_params

section .rodata progbits alloc noexec nowrite align=16

bits 16
ap_tramp_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	lgdt [TOFF(tr_gdtr)]
	mov eax, cr0
	or eax, CR0_PE
	mov cr0, eax
	jmp dword TR_CS32:TPA(tr_pm32)

bits 32
tr_pm32:
	mov ax, TR_DS
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, [TPA(ap_tramp_params) + 0]        ; cr3, below 4 GiB
	mov cr3, eax
	; EFER as the boot CPU has it (LME, NXE for the kernel's NX pages,
	; SCE): all writable before paging is on.
	mov ecx, MSR_EFER
	mov eax, [TPA(ap_tramp_params) + 8]
	mov edx, [TPA(ap_tramp_params) + 12]
	wrmsr
	mov eax, CR0_PG | CR0_WP | CR0_PE
	mov cr0, eax
	jmp TR_CS64:TPA(tr_lm64)

bits 64
tr_lm64:
	mov rsp, [TPA(ap_tramp_params) + 16]
	mov rdi, [TPA(ap_tramp_params) + 32]
	mov rax, [TPA(ap_tramp_params) + 24]
	xor ebp, ebp                    ; ends frame-pointer walks here
	call rax                        ; ap_entry(cpu) never returns
.halt:
	cli
	hlt
	jmp .halt

	align 8
; struct smp_tramp_params in smp.c: cr3, efer, stack top, entry, cpu.
ap_tramp_params:
	dq 0, 0, 0, 0, 0

	align 8
tr_gdt:
	dq 0
	dq 0x00cf9b000000ffff           ; TR_CS32: flat 4 GiB, 32-bit, ring 0
	dq 0x00cf93000000ffff           ; TR_DS: flat 4 GiB data
	dq 0x00af9b000000ffff           ; TR_CS64: long mode code
tr_gdt_end:
tr_gdtr:
	dw tr_gdt_end - tr_gdt - 1
	dd TPA(tr_gdt)
ap_tramp_end:
