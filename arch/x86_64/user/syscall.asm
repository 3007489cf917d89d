; syscall.asm - the x86-64 system call trap for user programs.
;
; Tally's ABI: number in rax, arguments rdi rsi rdx r10 r8 r9, result in
; rax (negative errno on failure).  The instruction itself clobbers rcx
; (return address) and r11 (flags), both caller-saved in the SysV ABI.
; SYS_SIGRETURN comes from kernel/syscall_nr.h through user/user.mk.

bits 64
section .text

global __syscall6, __sigreturn_trampoline

; long __syscall6(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
; SysV passes nr..a4 in rdi rsi rdx rcx r8 r9 and a5 on the stack.
__syscall6:
	mov rax, rdi
	mov rdi, rsi
	mov rsi, rdx
	mov rdx, rcx
	mov r10, r8
	mov r8, r9
	mov r9, [rsp + 8]
	syscall
	ret

; A signal handler returns here; the kernel's saved context sits at rsp,
; so this must not touch the stack.
__sigreturn_trampoline:
	mov eax, SYS_SIGRETURN
	syscall
	ud2                     ; sigreturn does not return here
