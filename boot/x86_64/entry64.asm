; entry64.asm - first 64-bit instructions: leave the identity map for the
; kernel's own addresses and call C.

%include "boot/x86_64/layout.inc"

extern x86_64_boot, boot_stack_top
global long_mode_entry

bits 64
section .boot.text progbits alloc exec nowrite align=16

long_mode_entry:
	mov al, POST_LONG_MODE
	out POST_PORT, al
	mov ax, BOOT_DS
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
	mov rax, higher_half
	jmp rax

section .text

higher_half:
	mov rsp, boot_stack_top
	xor ebp, ebp                    ; ends frame-pointer walks here
	; Entering long mode leaves the upper register halves undefined;
	; these moves zero-extend magic (EDI) and info address (ESI).
	mov edi, edi
	mov esi, esi
	call x86_64_boot
.halt:
	cli
	hlt
	jmp .halt
