; early_die.asm - report a fatal problem before any C can run (today only
; "no long mode"), where a person can see it: COM1 at 115200 8N1 and the
; POST display on port 0x80.  Then halt for good.

COM1            equ 0x3f8
UART_THR        equ 0               ; with DLAB=0
UART_DLL        equ 0               ; with DLAB=1
UART_IER        equ 1
UART_DLM        equ 1               ; with DLAB=1
UART_LCR        equ 3
UART_LSR        equ 5
LCR_8N1         equ 0x03
LCR_DLAB        equ 0x80
LSR_THR_EMPTY   equ 0x20
DIVISOR_115200  equ 1               ; 1.8432 MHz / 16 / 115200


%include "boot/x86_64/layout.inc"

global early_die

bits 32
section .boot.text progbits alloc exec nowrite align=16

%macro OUTB 2
	mov dx, %1
	mov al, %2
	out dx, al
%endmacro

; ESI = NUL-terminated message.  Never returns.
early_die:
	OUTB POST_PORT, POST_EARLY_DIE
	OUTB COM1 + UART_IER, 0
	OUTB COM1 + UART_LCR, LCR_DLAB
	OUTB COM1 + UART_DLL, DIVISOR_115200
	OUTB COM1 + UART_DLM, 0
	OUTB COM1 + UART_LCR, LCR_8N1
.next:
	lodsb
	test al, al
	jz .halt
	mov bl, al
	mov dx, COM1 + UART_LSR
.wait:
	in al, dx
	test al, LSR_THR_EMPTY
	jz .wait
	mov dx, COM1 + UART_THR
	mov al, bl
	out dx, al
	jmp .next
.halt:
	cli
	hlt
	jmp .halt
