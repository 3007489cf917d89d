/*
 * ucounters.c - which counters user mode may read itself (the hwperf read
 * page, kernel/hwperf/upage.c).
 *
 * On MIPS32 Release 2 user mode reads the cycle counter with RDHWR $2 (CC,
 * CP0 Count) and its resolution with RDHWR $3 (CCRes: Count ticks once
 * every CCRes pipeline cycles), each allowed by its HWREna bit.  The bits
 * are set at the switch-in of a task that mapped its read page and
 * cleared at everyone else's, so RDHWR $2 raises a reserved-instruction
 * exception (SIGILL) in any other task.  Other HWREna bits are left as
 * they are.
 * Before Release 2 there is no RDHWR and nothing to allow.
 */
#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "cp0.h"

#define HWRENA_CC    (1u << 2)  /* RDHWR $2: the cycle counter */
#define HWRENA_CCRES (1u << 3)  /* RDHWR $3: its resolution */
#define COUNT_BITS 32u

CP0_ACCESSORS(hwrena, CP0_HWRENA, CP0_SEL_MAIN)

void arch_user_counters(bool allow)
{
	const uint32_t bits = HWRENA_CC | HWRENA_CCRES;
	uint32_t now, want;

	if (!cp0_is_release2())
		return;
	now = cp0_read_hwrena();
	want = allow ? (now | bits) : (now & ~bits);
	if (want != now)
		cp0_write_hwrena(want);
}

unsigned arch_user_cycles_bits(void)
{
	return COUNT_BITS;
}
