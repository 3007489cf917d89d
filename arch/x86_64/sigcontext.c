/*
 * sigcontext.c - building and checking x86_64 signal frames (see
 * sigcontext.h).  No memory access here: host tests run it as is.
 */
#include <errno.h>

#include "cpu.h"
#include "gdt.h"
#include "sigcontext.h"
#include "uabi.h"
#include "usermode.h"
#include "vm.h"

/* The flags POPF lets ring 3 change for itself. */
#define RFLAGS_USER_MAY_SET (RFLAGS_CF | RFLAGS_PF | RFLAGS_AF | RFLAGS_ZF | \
			     RFLAGS_SF | RFLAGS_TF | RFLAGS_DF | RFLAGS_OF | \
			     RFLAGS_AC)
/* A handler starts as any function does: DF clear (ABI), not single-stepped. */
#define RFLAGS_HANDLER_CLEARS (RFLAGS_DF | RFLAGS_TF)

static int user_address(uint64_t a)
{
	return a < CANONICAL_LOW_END;
}

int sigframe_place(uint64_t user_rsp, uint64_t *frame, uint64_t *sp)
{
	uint64_t need = SIGFRAME_RED_ZONE + sizeof(struct sigframe) +
			SIGFRAME_ALIGN + sizeof(uint64_t);

	if (user_rsp < need || !user_address(user_rsp))
		return -EFAULT;
	uint64_t f = (user_rsp - SIGFRAME_RED_ZONE - sizeof(struct sigframe)) &
		     ~(uint64_t)(SIGFRAME_ALIGN - 1);
	*frame = f;
	*sp = f - sizeof(uint64_t);
	return 0;
}

void sigframe_save(struct sigframe *f, const struct trapframe *tf, int sig)
{
	*f = (struct sigframe){
		.signo = (uint64_t)sig,
		.rax = tf->rax, .rbx = tf->rbx, .rcx = tf->rcx, .rdx = tf->rdx,
		.rsi = tf->rsi, .rdi = tf->rdi, .rbp = tf->rbp,
		.r8 = tf->r8, .r9 = tf->r9, .r10 = tf->r10, .r11 = tf->r11,
		.r12 = tf->r12, .r13 = tf->r13, .r14 = tf->r14, .r15 = tf->r15,
		.rip = tf->rip, .rflags = tf->rflags, .rsp = tf->rsp,
	};
}

int sigframe_enter_handler(struct trapframe *tf, uint64_t sp, uint64_t handler, int sig)
{
	if (!user_address(handler) || !user_address(sp))
		return -EFAULT;
	tf->rip = handler;
	tf->rsp = sp;
	tf->rdi = (uint64_t)sig;
	tf->rflags = (tf->rflags & ~RFLAGS_HANDLER_CLEARS) | USER_RFLAGS;
	return 0;
}

int sigframe_restore(struct trapframe *tf, const struct sigframe *f)
{
	if (f->signo < 1 || f->signo > SIG_MAX ||
	    !user_address(f->rip) || !user_address(f->rsp))
		return -EFAULT;
	tf->rax = f->rax;
	tf->rbx = f->rbx;
	tf->rcx = f->rcx;
	tf->rdx = f->rdx;
	tf->rsi = f->rsi;
	tf->rdi = f->rdi;
	tf->rbp = f->rbp;
	tf->r8 = f->r8;
	tf->r9 = f->r9;
	tf->r10 = f->r10;
	tf->r11 = f->r11;
	tf->r12 = f->r12;
	tf->r13 = f->r13;
	tf->r14 = f->r14;
	tf->r15 = f->r15;
	tf->rip = f->rip;
	tf->rsp = f->rsp;
	tf->rflags = (f->rflags & RFLAGS_USER_MAY_SET) | USER_RFLAGS;
	tf->cs = GDT_USER_CS | RING_USER;
	tf->ss = GDT_USER_DS | RING_USER;
	return (int)f->signo;
}
