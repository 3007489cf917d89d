/*
 * models.c - the registry of event models by name, for listing any
 * model's table on any machine and dispatching against it.
 */
#include <ctype.h>
#include <stddef.h>

#include "events.h"

static const struct ev_model *const models[] = {
	&ev_model_intel_arch,
	&ev_model_amd_legacy,
	&ev_model_amd_core,
	&ev_model_mips_24k,
	&ev_model_mips_34k,
	&ev_model_mips_74k,
	&ev_model_mips_1004k,
	&ev_model_mips_interaptiv,
	&ev_model_mips_p5600,
	&ev_model_r10000,
	&ev_model_r12000,
};

#define NMODELS (sizeof(models) / sizeof(models[0]))

static int fold(int c)
{
	return c == '_' ? '-' : tolower(c);
}

bool events_name_eq(const char *a, const char *b)
{
	while (*a && *b && fold((unsigned char)*a) == fold((unsigned char)*b)) {
		a++;
		b++;
	}
	return *a == '\0' && *b == '\0';
}

unsigned events_model_count(void)
{
	return NMODELS;
}

const struct ev_model *events_model_at(unsigned i)
{
	if (i >= NMODELS)
		return NULL;
	intel_arch_model_prepare();
	return models[i];
}

const struct ev_model *events_model_find(const char *name)
{
	for (unsigned i = 0; i < NMODELS; i++)
		if (events_name_eq(models[i]->name, name))
			return events_model_at(i);
	return NULL;
}
