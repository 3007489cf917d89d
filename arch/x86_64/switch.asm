; switch.asm - from one kernel context to another (arch_switch), and the
; first instructions a new context runs (arch_kstack_init in kstack.c).
;
; Only what the SysV ABI makes callee-saved needs keeping: the caller of
; arch_switch has already saved the rest, as for any call.  RFLAGS is not
; kept: callers switch with interrupts off and restore their own state.

global arch_switch, kstack_first_entry
extern kstack_entry_returned

bits 64
section .text

; void arch_switch(uintptr_t *from_sp, uintptr_t to_sp)
; The frame, from to_sp up: r15 r14 r13 r12 rbx rbp, return address.
arch_switch:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov rsp, rsi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret

; arch_kstack_init left entry in r12 and its argument in r13, and made RSP
; 16-byte aligned here, as the ABI wants it at a call.
kstack_first_entry:
	sti
	mov rdi, r13
	call r12
	call kstack_entry_returned      ; does not return
