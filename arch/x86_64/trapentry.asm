; trapentry.asm - from the CPU's interrupt frame to trap() and back.
;
; Each vector below TRAP_VECTORS (arch/x86_64/trap.h) gets a stub that
; evens out the frame (a 0 where the CPU pushes no error code) and records
; its vector; trap_common saves every general-purpose register so that the
; frame is struct trapframe (arch/x86_64/trapframe.h).  Gates are interrupt
; gates, so interrupts stay off until IRETQ restores RFLAGS.

TRAP_VECTORS    equ 64              ; as in trap.h; idt_init() checks
FRAME_CS        equ 3 * 8       ; from RSP just after the stub's pushes
SEL_RPL_MASK    equ 3

; Exceptions for which the CPU pushes an error code (SDM vol. 3, 6.15).
%define HAS_ERROR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || \
			  (v) == 21 || (v) == 29 || (v) == 30)

%include "arch/x86_64/percpu.inc"

extern trap
global trap_stubs, trap_stubs_end, trap_return, arch_return_to_user

bits 64
section .text

align 16
%assign v 0
%rep TRAP_VECTORS
trap_stub_ %+ v:
%if !HAS_ERROR(v)
	push 0
%endif
	push v
	jmp trap_common
	align 16
%assign v v + 1
%endrep

; A trap from user mode arrives with the user's GS base; SWAPGS makes the
; kernel's current (arch/x86_64/percpu.h), and trap_return swaps back.
trap_common:
	test byte [rsp + FRAME_CS], SEL_RPL_MASK
	jz .from_kernel
	swapgs
	STAMP_USER_ENTRY
.from_kernel:
	push r11                        ; trapframe.h's order, last first
	push rcx
	push r15
	push r14
	push r13
	push r12
	push rbp
	push rbx
	push r9
	push r8
	push r10
	push rdx
	push rsi
	push rdi
	push rax
	cld                             ; the C ABI expects DF clear
	mov rdi, rsp
	call trap

; Also the way out of a system call that cannot use SYSRET
; (syscall_entry.asm): RSP at a struct trapframe.
trap_return:
	pop rax
	pop rdi
	pop rsi
	pop rdx
	pop r10
	pop r8
	pop r9
	pop rbx
	pop rbp
	pop r12
	pop r13
	pop r14
	pop r15
	pop rcx
	pop r11
	test byte [rsp + FRAME_CS], SEL_RPL_MASK
	jz .to_kernel
	STAMP_USER_EXIT
	swapgs
.to_kernel:
	add rsp, 2 * 8                  ; vector and error code
	iretq

; void arch_return_to_user(struct trapframe *tf): a new task's first
; entry into ring 3, with interrupts off (kernel/entry.c trap_enter_user).
; The frame's CS says ring 3, so trap_return swaps GS and IRETQ sets IF.
arch_return_to_user:
	mov rsp, rdi
	jmp trap_return

section .rodata
align 8
trap_stubs:
%assign v 0
%rep TRAP_VECTORS
	dq trap_stub_ %+ v
%assign v v + 1
%endrep
trap_stubs_end:
