/* dumpstack.h - likely call chains, for crash reports. */
#ifndef TALLY_X86_64_DUMPSTACK_H
#define TALLY_X86_64_DUMPSTACK_H

#include <stdint.h>

/*
 * Print every word from rsp to the top of its stack that points into
 * kernel text.  Only the kernel's known stacks are read, so a wild RSP
 * (the usual cause of a double fault) cannot fault again here.
 */
void stack_trace_from(uint64_t rsp);

#endif
