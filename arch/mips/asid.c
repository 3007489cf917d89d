/*
 * asid.c - ASID generations (asid.h).
 */
#include "asid.h"

void asid_space_init(struct asid_space *s, uint32_t count)
{
	s->generation = 1;
	s->next = ASID_FIRST;
	s->count = count;
	s->rollovers = 0;
}

bool asid_current(const struct asid_space *s, const struct asid *a)
{
	return a->generation == s->generation;
}

/* The generation's low half: its second word on a big-endian machine. */
#define GEN_LOW_WORD (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

void asid_forget(struct asid *a)
{
	__atomic_store_n((uint32_t *)&a->generation + GEN_LOW_WORD, 0u, __ATOMIC_RELAXED);
}

bool asid_assign(struct asid_space *s, struct asid *a)
{
	bool flush = false;

	if (asid_current(s, a))
		return false;
	if (s->next >= s->count) {
		s->generation++;
		/* A low half of 0 is a forgotten ASID's (asid_forget). */
		if ((uint32_t)s->generation == 0)
			s->generation++;
		s->rollovers++;
		s->next = ASID_FIRST;
		flush = true;
	}
	a->generation = s->generation;
	a->value = s->next++;
	return flush;
}
