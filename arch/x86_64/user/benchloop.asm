; benchloop.asm - tally_bench_loop(n, cell): n turns of the benchmark
; loop, for user/loop.c.  One turn is the shape of the kernel's
; arch_bench_loop: load the cell, add one, store it back, decrement,
; branch back -- 5 instructions.  ECX is the scratch register (caller-
; saved); EDI the count, RSI the cell.

bits 64
section .text

global tally_bench_loop

tally_bench_loop:
	test edi, edi
	jz .done
.again:
	mov ecx, [rsi]
	add ecx, 1
	mov [rsi], ecx
	dec edi
	jnz .again
.done:
	ret
