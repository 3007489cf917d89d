/*
 * witness.h - mark intervals for the outside witness (tests/witness/: a
 * QEMU TCG plugin that counts user and kernel instructions, system-call
 * instructions and kernel entries per interval, from outside the guest).
 *
 *	uint32_t id = witness_begin();
 *	... the measured run ...
 *	witness_end();
 *
 * A mark is one instruction that does nothing on the CPU
 * (witness_abi.h), so marks cost nothing on bare hardware or under QEMU
 * without the plugin; keep them off the hot paths anyway (system call,
 * switch, tick), where one more instruction would move a cost.
 *
 * witness_begin returns the interval's id: the number of begin marks
 * executed since boot, which is also how the plugin numbers its intervals
 * (an immediate cannot carry a run-time id).  An end closes the innermost
 * open interval.  With the boot argument `witness`, witness_show() is
 * true and the callers print the ids they got, so tests can pair the
 * kernel's figures with the plugin's lines.
 */
#ifndef TALLY_WITNESS_H
#define TALLY_WITNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "witness_abi.h"
#include "witness_mark.h"

extern uint32_t witness_last_id;

static inline uint32_t witness_begin(void)
{
	arch_witness_mark(WITNESS_CODE_BEGIN);
	return ++witness_last_id;
}

static inline void witness_end(void)
{
	arch_witness_mark(WITNESS_CODE_END);
}

/* Boot argument `witness`: print the ids of marked runs. */
bool witness_show(void);

#endif
