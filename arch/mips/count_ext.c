/*
 * count_ext.c - Count extended to 64 bits (count_ext.h).
 */
#include "count_ext.h"

uint64_t count_ext_read(struct count_ext *e, uint32_t now)
{
	if ((int32_t)(now - e->last) < 0) {
		e->behind++;
		return ((uint64_t)e->high << 32) | e->last;
	}
	if (now < e->last)
		e->high++;
	e->last = now;
	return ((uint64_t)e->high << 32) | now;
}

void count_ext_seed(struct count_ext *e, uint64_t ref, uint32_t now)
{
	/* ref plus the signed distance from ref's low word to now. */
	uint64_t v = ref + (uint64_t)(int64_t)(int32_t)(now - (uint32_t)ref);

	e->last = now;
	e->high = (uint32_t)(v >> 32);
	e->behind = 0;
}
