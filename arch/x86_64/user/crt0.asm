; crt0.asm - where every x86-64 user program starts.
;
; The kernel enters at _start with argc in rdi and argv in rsi (its
; arch_tf_init_user puts them there), the stack pointer just below argv.
; main's return value becomes the exit code.

bits 64
section .text.start exec

global _start
extern main, exit

_start:
	xor ebp, ebp            ; marks the outermost frame for debuggers
	and rsp, -16            ; the SysV ABI wants 16-byte alignment at call
	call main
	mov edi, eax
	call exit
.never:
	ud2                     ; exit does not return
