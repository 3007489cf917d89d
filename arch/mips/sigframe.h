/*
 * sigframe.h - the signal frame on the user stack and the rules for
 * building and trusting it (sigframe.c, pure; signal_frame.c copies).
 *
 * At handler entry sp points at the frame, 8-byte aligned below the
 * interrupted sp; a0 = signal number, ra = the restorer, EPC = handler.
 * The frame opens with the O32 argument save area, which belongs to the
 * handler's callees, so the saved context above it is untouched when the
 * handler returns to the restorer with the same sp and the restorer's
 * sigreturn finds the frame at sp.  O32 has no red zone: nothing below
 * the interrupted sp is live.
 */
#ifndef TALLY_MIPS_SIGFRAME_H
#define TALLY_MIPS_SIGFRAME_H

#include <stdint.h>

#include "trapframe.h"

#define SIGFRAME_ALIGN   8       /* O32 stack alignment */
#define SIGFRAME_ARGSAVE 4       /* words */

/* Everything of a user context that user code can see or change. */
struct sigframe {
	uint32_t argsave[SIGFRAME_ARGSAVE];
	uint32_t signo;
	uint32_t regs[REG_COUNT];
	uint32_t hi, lo;
	uint32_t epc;
	uint32_t status;        /* for the handler's information; never restored */
	uint32_t pad;
};

/* Where the frame goes below user_sp: 0, or -EFAULT if there is no room
 * above user_base. */
int sigframe_place(uint32_t user_sp, uint32_t user_base, uint32_t *frame);
void sigframe_save(struct sigframe *f, const struct trapframe *tf, int sig);
/* Aim tf at handler(sig), sp at frame, returning to restorer. */
void sigframe_enter_handler(struct trapframe *tf, uint32_t frame, uint32_t handler,
			    uint32_t restorer, int sig);
/*
 * Load a frame read back from user memory into tf.  The user may have
 * written anything there, so it is checked: the signal number must be
 * one that exists, and EPC must lie in [user_base, user_top) -- else
 * -EFAULT with tf untouched.  Status is never taken from the frame but
 * rebuilt by mips_user_status(live_status) (user_status.h): KSU = user,
 * IE on, no coprocessor, EXL left to the return path, and every other
 * bit the kernel's live value.  Returns the signal number.
 */
int sigframe_restore(struct trapframe *tf, const struct sigframe *f,
		     uint32_t user_base, uint32_t user_top, uint32_t live_status);

#endif
