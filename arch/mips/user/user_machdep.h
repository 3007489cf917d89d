/*
 * user_machdep.h - machine constants for user programs, so that user/
 * holds no #if on the architecture.
 */
#ifndef TALLY_USER_MACHDEP_H
#define TALLY_USER_MACHDEP_H

/* An address in kseg0, where the kernel image lives: a system call given
 * it must answer EFAULT. */
#define USER_MACHDEP_KERNEL_ADDR 0x80100000ul

#endif
