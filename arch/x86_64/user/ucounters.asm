; ucounters.asm - the counter reads user mode may make itself (the hwperf
; read page, kernel/hwperf/abi.h).  rdtsc is allowed in every task; rdpmc
; only in a task that mapped its read page (CR4.PCE), else it raises #GP.

bits 64
section .text

global hwp_ucycles, hwp_uguarded

; unsigned long hwp_ucycles(void): the cycle counter, 64 bits.
hwp_ucycles:
	rdtsc
	shl rdx, 32
	or rax, rdx
	ret

; unsigned long hwp_uguarded(void): the read only a mapped task may
; make: rdpmc of counter 0.
hwp_uguarded:
	xor ecx, ecx
	rdpmc
	shl rdx, 32
	or rax, rdx
	ret
