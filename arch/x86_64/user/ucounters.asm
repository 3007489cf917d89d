; ucounters.asm - the counter reads user mode may make itself (the hwperf
; read page, kernel/hwperf/abi.h).  rdtsc is allowed in every task; rdpmc
; only in a task that mapped its read page (CR4.PCE), else it raises #GP.

bits 64
section .text

global hwp_ucycles, hwp_uguarded, hwp_urdpmc

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

; unsigned long hwp_urdpmc(uint32_t index): the hardware counter rdpmc
; names by index (ECX; bit 30 selects a fixed counter on Intel), with all
; the bits rdpmc returns: the reader masks them to the counter's width.
hwp_urdpmc:
	mov ecx, edi
	rdpmc
	shl rdx, 32
	or rax, rdx
	ret
