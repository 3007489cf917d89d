/*
 * derive.c - the event benchmarks' arithmetic (see derive.h).
 */
#include "derive.h"

uint64_t derive_overshoot_milli(uint64_t count, uint64_t thresh, uint64_t per_tick)
{
	if (count < thresh)
		return UINT64_MAX;
	return (count - thresh) * DERIVE_MILLI / per_tick;
}

bool derive_holder_report(unsigned code, struct holder_report *r)
{
	if (code > HOLDER_REPORT_MAX)
		return false;
	r->gen_bump = code >> HOLDER_BUMP_SHIFT;
	r->lost = code & HOLDER_LOST_BIT;
	return true;
}
