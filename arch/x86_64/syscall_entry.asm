; syscall_entry.asm - the kernel side of the SYSCALL instruction.
;
; SYSCALL leaves the user's RSP and GS base in place, puts the return
; RIP in RCX and RFLAGS in R11, and clears the RFLAGS bits of SFMASK (IF
; among them, so nothing interrupts this stub).  The stub switches to the
; task's kernel stack and builds the same struct trapframe an interrupt
; from ring 3 would (arch/x86_64/trapframe.h), at the same place: the
; top of the kernel stack.  syscall_from_user (syscall_entry.c) does the
; rest and says how to go back: SYSRET, which reloads RIP from RCX and
; RFLAGS from R11, only when the frame still has them there and RIP is
; canonical; otherwise (a signal handler, sigreturn, exec) IRETQ through
; trap_return.

USER_CS            equ 0x28 | 3     ; gdt.h GDT_USER_CS | RING_USER
USER_SS            equ 0x20 | 3     ; gdt.h GDT_USER_DS | RING_USER
TRAP_SYSCALL       equ 0x100        ; trap.h: a vector no gate has
FRAME_RSP          equ 5 * 8        ; from the vector slot: vector error rip cs rflags rsp

%include "arch/x86_64/percpu.inc"

global syscall_entry
extern syscall_from_user, trap_return

bits 64
section .text

syscall_entry:
	swapgs
	STAMP_USER_ENTRY
	mov [gs:PERCPU_USER_RSP], rsp
	mov rsp, [gs:PERCPU_KERNEL_RSP]
	push USER_SS
	push qword [gs:PERCPU_USER_RSP]
	push r11                        ; rflags
	push USER_CS
	push rcx                        ; rip
	push 0                          ; error code
	push TRAP_SYSCALL
	push r15                        ; as trap_common, so trap_return fits
	push r14
	push r13
	push r12
	push r11
	push r10
	push r9
	push r8
	push rbp
	push rdi
	push rsi
	push rdx
	push rcx
	push rbx
	push rax
	mov rdi, rsp
	call syscall_from_user
	test eax, eax
	jz trap_return                  ; IRETQ
	pop rax
	pop rbx
	pop rcx                         ; == the frame's rip
	pop rdx
	pop rsi
	pop rdi
	pop rbp
	pop r8
	pop r9
	pop r10
	pop r11                         ; == the frame's rflags
	pop r12
	pop r13
	pop r14
	pop r15
	; Interrupts stay off from here to user mode, so no trap can see
	; the user's RSP with the kernel's CS.
	mov rsp, [rsp + FRAME_RSP]
	STAMP_USER_EXIT
	swapgs
	o64 sysret
