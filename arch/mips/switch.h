/*
 * switch.h - the frame arch_switch leaves on a kernel stack it switches
 * away from (switch.S), and arch_kstack_init builds for a new one.
 *
 * Only what O32 says a callee must preserve is kept: s0-s7, fp and ra
 * (gp is constant in a -G 0 kernel).  Status is not: every switch happens
 * with interrupts off, and the task switched to restores its own.
 */
#ifndef TALLY_MIPS_SWITCH_H
#define TALLY_MIPS_SWITCH_H

#define SW_S0      0
#define SW_FP      (8 * 4)
#define SW_RA      (9 * 4)
/* Ten words: already a multiple of the O32 stack alignment of 8. */
#define SW_FRAME   (10 * 4)
#define SW_REG(n)  (SW_S0 + 4 * (n))   /* s<n> */

/* The argument save area a C function may use in its caller's frame. */
#define O32_ARGSAVE 16
#define O32_STACK_ALIGN 8

#ifndef __ASSEMBLY__
#include <stdint.h>

struct switch_frame {
	uint32_t s[8];
	uint32_t fp;
	uint32_t ra;
};

/* switch.S: where the first switch to a new stack returns to. */
void mips_kstack_first_entry(void);
#endif

#endif
