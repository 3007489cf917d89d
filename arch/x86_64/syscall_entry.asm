; syscall_entry.asm - the kernel side of the SYSCALL instruction.
;
; SYSCALL leaves the user's RSP and GS base in place, puts the return
; RIP in RCX and RFLAGS in R11, and clears the RFLAGS bits of SFMASK (IF
; among them, so nothing interrupts this stub).  The stub stamps the
; entry (percpu.inc), switches to the task's kernel stack and builds the
; same struct trapframe an interrupt from ring 3 would
; (arch/x86_64/trapframe.h), at the same place: the top of the kernel
; stack, every register in it (fork copies it, signals save it, profiles
; read RBP); its SS slot it leaves alone, as it always holds USER_SS
; (kstack.c arch_set_kernel_stack says why), and four it leaves for C:
; RCX and R11 (SYSCALL's copies of RIP and RFLAGS), the vector and the
; error code, which syscall_from_user fills on every way out but the
; common one, SYSRET, which reads none of them (syscall_frame.h).
; syscall_from_user (syscall_entry.c) does the rest.
;
; When it returns, SYSRET: nothing rewrote the frame, or the frame still
; fits SYSRET and its callee-saved registers are unchanged; the C code kept
; RBX, RBP and R12-R15 (the C ABI's callee-saved registers) and the frame
; still holds the rest as they came, so only RAX (the result) and the
; argument registers RDI, RSI, RDX, R10, R8, R9 are reloaded, and RCX and
; R11 take the return RIP and RFLAGS as SYSCALL left them; RCX is
; canonical (syscall_entry.c).  Otherwise (a signal delivered, sigreturn)
; it leaves by IRETQ itself (arch_return_to_user, trapentry.asm), every
; register from the frame.

USER_CS            equ 0x28 | 3     ; gdt.h GDT_USER_CS | RING_USER
; struct trapframe (trapframe.h asserts these)
TF_RAX             equ 0 * 8
TF_RDI             equ 1 * 8
TF_RSI             equ 2 * 8
TF_RDX             equ 3 * 8
TF_R10             equ 4 * 8
TF_R8              equ 5 * 8
TF_R9              equ 6 * 8
TF_RCX             equ 13 * 8
TF_RIP             equ 17 * 8
TF_RFLAGS          equ 19 * 8
TF_RSP             equ 20 * 8

%include "arch/x86_64/percpu.inc"

global syscall_entry
extern syscall_from_user

bits 64
section .text

syscall_entry:
	swapgs
	STAMP_USER_ENTRY_PARKED         ; RAX and RDX now the stamp's
	mov [gs:PERCPU_USER_RSP], rsp
	mov rsp, [gs:PERCPU_KERNEL_RSP] ; below the SS slot: USER_SS already
	push qword [gs:PERCPU_USER_RSP]
	push r11                        ; rflags
	push USER_CS
	push rcx                        ; rip
	; error, vector, R11 and RCX: left for syscall_frame.h's
	; functions, which fill them before anything reads them.
	sub rsp, TF_RIP - TF_RCX
	push r15                        ; as trap_common, so trap_return fits
	push r14
	push r13
	push r12
	push rbp
	push rbx
	push r9
	push r8
	push r10
	push qword [gs:PERCPU_SAVE_RDX]
	push rsi
	push rdi
	push qword [gs:PERCPU_SAVE_RAX]
	mov rdi, rsp
	call syscall_from_user          ; or IRETQ from it (arch_return_to_user)
	mov rdi, [rsp + TF_RDI]
	mov rsi, [rsp + TF_RSI]
	mov r10, [rsp + TF_R10]
	mov r8, [rsp + TF_R8]
	mov r9, [rsp + TF_R9]
	; Interrupts stay off from here to user mode, so no trap can see
	; the user's RSP with the kernel's CS.  RAX, RDX and RCX are the
	; stamp's.
	STAMP_USER_EXIT_SCRATCH
	mov rcx, [rsp + TF_RIP]
	mov r11, [rsp + TF_RFLAGS]
	mov rax, [rsp + TF_RAX]
	mov rdx, [rsp + TF_RDX]
	mov rsp, [rsp + TF_RSP]
	swapgs
	o64 sysret
