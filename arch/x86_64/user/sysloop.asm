; sysloop.asm - tally_sysloop(n): n null system calls (getppid) in a
; loop of known shape, for user/sysloop.c and the ucut benchmark.  One
; iteration is 4 user-mode instructions: mov, syscall, dec, jnz
; (arch/x86_64/user_span.c arch_user_cut.sysloop_insns).  SYSCALL takes
; RCX and R11 for its return and RAX for the result; the kernel gives back
; every other register, so the count stays in EDI.

bits 64
section .text

global tally_sysloop

tally_sysloop:
	test edi, edi
	jz .done
.again:
	mov eax, SYS_GETPPID
	syscall
	dec edi
	jnz .again
.done:
	ret
