/*
 * sigcontext.h - the signal frame on the user stack and the rules for
 * building and trusting it (sigcontext.c, pure; signal_frame.c copies).
 *
 * At handler entry the user stack reads, from RSP up:
 *
 *   restorer      return address: the handler's RET goes there, and the
 *                 restorer makes the sigreturn system call
 *   sigframe      16-byte aligned, so the handler starts as after a CALL
 *   (128 bytes)   the interrupted code's red zone, left alone
 *   ...           the interrupted code's stack
 *
 * so at sigreturn the frame is at the user's RSP.
 */
#ifndef TALLY_X86_64_SIGCONTEXT_H
#define TALLY_X86_64_SIGCONTEXT_H

#include <stdint.h>

#include "trapframe.h"

#define SIGFRAME_RED_ZONE 128   /* SysV ABI: below RSP, owned by the leaf */
#define SIGFRAME_ALIGN    16

/* Everything user code can see of its context; CS and SS are implied. */
struct sigframe {
	uint64_t signo;
	uint64_t rax, rbx, rcx, rdx, rsi, rdi, rbp;
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rip, rflags, rsp;
};

/* Where the frame and the return address go below user_rsp: 0, or
 * -EFAULT if the stack pointer leaves no room. */
int sigframe_place(uint64_t user_rsp, uint64_t *frame, uint64_t *sp);
void sigframe_save(struct sigframe *f, const struct trapframe *tf, int sig);
/* Aim tf at handler(sig) with RSP at sp.  -EFAULT for a handler address
 * user mode cannot run at. */
int sigframe_enter_handler(struct trapframe *tf, uint64_t sp, uint64_t handler, int sig);
/*
 * Load a frame read back from user memory into tf.  The user may have
 * written anything there, so it is checked: the signal number must be
 * one that exists, RIP and RSP must be user-half canonical addresses,
 * and of RFLAGS only what ring 3 could set for itself is kept (no IOPL,
 * NT, VM; IF always on).  CS and SS are always the user's.  Returns the
 * signal number, or -EFAULT with tf untouched.
 */
int sigframe_restore(struct trapframe *tf, const struct sigframe *f);

#endif
