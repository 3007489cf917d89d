/*
 * usermode.h - what every x86_64 user context starts with (usermode.c).
 */
#ifndef TALLY_X86_64_USERMODE_H
#define TALLY_X86_64_USERMODE_H

#include "cpu.h"

/* Interrupts on, IOPL 0 (no port access), every other flag clear. */
#define USER_RFLAGS (RFLAGS_FIXED | RFLAGS_IF)

/* Called by arch_init: the user's view of the CPU (no x87/SSE). */
void usermode_init(void);

#endif
