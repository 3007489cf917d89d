/*
 * user_status.h - the only Status a user context may run with.
 *
 * User mode owns none of Status: it always runs with KSU = user and
 * interrupts on, never with a coprocessor enabled (CU0 would hand it
 * CP0; there is no FPU context to give it CU1), and everything else is
 * the kernel's current setting.  EXL is the kernel's to set while
 * restoring (vectors.S), ERL is never set.  So a fresh context and a
 * context coming back from a signal frame both take their Status from
 * this, whatever a frame claims.  Pure; host tested.
 */
#ifndef TALLY_MIPS_USER_STATUS_H
#define TALLY_MIPS_USER_STATUS_H

#include <stdint.h>

#include "cp0.h"

#define USER_STATUS_FORCED_OFF (ST_KSU_MASK | ST_EXL | ST_ERL | ST_IE | ST_CU_MASK)

static inline uint32_t mips_user_status(uint32_t live)
{
	return (live & ~USER_STATUS_FORCED_OFF) | ST_KSU_USER | ST_IE;
}

#endif
