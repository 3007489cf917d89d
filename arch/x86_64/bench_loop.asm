; bench_loop.asm - arch_bench_loop: a kernel-mode loop of known shape whose
; cycle-counter cost is read inside the routine (see kernel/arch.h).
;
; One iteration is five instructions: a load of *cell, an add, a store
; back, a decrement of the count and the conditional branch back.  Under
; qemu -icount shift=0 the TSC advances exactly once per instruction, so an
; iteration costs 5 ticks.  Between the two RDTSCs the run at n executes
; `test`, `jz` (not taken) and 5n loop instructions; the run at 0 executes
; `test` and `jz` (taken).  The difference of the two is 5n exactly, which
; is what the benchmark checks (the framework subtracts the zero run).
;
; The same shape, in user mode, is user/loop.c's; arch_loop_shape below
; describes both, so the numbers live next to the code they count.

global arch_bench_loop, arch_loop_shape

INSNS_PER_ITER   equ 5          ; mov, add, mov, dec, jnz
LOADS_PER_ITER   equ 1
STORES_PER_ITER  equ 1
BRANCHES_PER_ITER equ 1
INSNS_PER_TICK   equ 1          ; TSC ticks once per instruction at cpi=1

bits 64
section .text

; uint32_t arch_bench_loop(uint32_t n, uint32_t *cell)
; edi = n, rsi = cell.  Returns the low 32 bits of the TSC difference,
; enough for any n the benchmarks use (the difference is taken mod 2^32).
arch_bench_loop:
	mov r8d, edi
	rdtsc
	mov r9d, eax                    ; start (low half; the high half cancels mod 2^32)
	test r8d, r8d
	jz .done
.iter:
	mov ecx, [rsi]
	add ecx, 1
	mov [rsi], ecx
	dec r8d
	jnz .iter
.done:
	rdtsc
	sub eax, r9d
	ret

section .rodata
align 4
; struct arch_loop_shape (kernel/arch.h): five uint32_t, in this order.
arch_loop_shape:
	dd INSNS_PER_ITER
	dd LOADS_PER_ITER
	dd STORES_PER_ITER
	dd BRANCHES_PER_ITER
	dd INSNS_PER_TICK
