/*
 * sigframe.c - building and checking signal frames (sigframe.h).
 */
#include <errno.h>
#include <string.h>

#include "cp0.h"
#include "sigframe.h"
#include "uabi.h"
#include "user_status.h"

_Static_assert(sizeof(struct sigframe) % SIGFRAME_ALIGN == 0, "frame keeps sp aligned");

int sigframe_place(uint32_t user_sp, uint32_t user_base, uint32_t *frame)
{
	uint32_t size = (uint32_t)sizeof(struct sigframe);

	if (user_sp < user_base || user_sp - user_base < size + SIGFRAME_ALIGN)
		return -EFAULT;
	*frame = (user_sp - size) & ~(uint32_t)(SIGFRAME_ALIGN - 1);
	return 0;
}

void sigframe_save(struct sigframe *f, const struct trapframe *tf, int sig)
{
	memset(f, 0, sizeof(*f));
	f->signo = (uint32_t)sig;
	memcpy(f->regs, tf->regs, sizeof(f->regs));
	f->regs[REG_ZERO] = 0;
	f->hi = tf->hi;
	f->lo = tf->lo;
	f->epc = tf->epc;
	f->status = tf->status;
}

void sigframe_enter_handler(struct trapframe *tf, uint32_t frame, uint32_t handler,
			    uint32_t restorer, int sig)
{
	tf->regs[REG_SP] = frame;
	tf->regs[REG_A0] = (uint32_t)sig;
	tf->regs[REG_RA] = restorer;
	/* Position-independent code finds its own address in t9. */
	tf->regs[REG_T9] = handler;
	tf->epc = handler;
	tf->cause &= ~CAUSE_BD;
}

int sigframe_restore(struct trapframe *tf, const struct sigframe *f,
		     uint32_t user_base, uint32_t user_top, uint32_t live_status)
{
	if (f->signo < 1 || f->signo > SIG_MAX)
		return -EFAULT;
	if (f->epc < user_base || f->epc >= user_top)
		return -EFAULT;
	memcpy(tf->regs, f->regs, sizeof(tf->regs));
	tf->regs[REG_ZERO] = 0;
	/* Not restored by the return path anyway; keep the frame honest. */
	tf->regs[REG_K0] = 0;
	tf->regs[REG_K1] = 0;
	tf->hi = f->hi;
	tf->lo = f->lo;
	tf->epc = f->epc;
	tf->status = mips_user_status(live_status);
	/* Every register is the context's now, s0-s7 and fp included
	 * (trapframe.h TF_CAUSE_FULL). */
	tf->cause = (tf->cause & ~CAUSE_BD) | TF_CAUSE_FULL;
	return (int)f->signo;
}
