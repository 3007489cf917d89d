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

bool asid_assign(struct asid_space *s, struct asid *a)
{
	bool flush = false;

	if (asid_current(s, a))
		return false;
	if (s->next >= s->count) {
		s->generation++;
		s->rollovers++;
		s->next = ASID_FIRST;
		flush = true;
	}
	a->generation = s->generation;
	a->value = s->next++;
	return flush;
}
