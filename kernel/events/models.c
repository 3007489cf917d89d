/*
 * models.c - the registry of event models by name, for listing any
 * model's table on any machine and dispatching against it.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "events.h"

static const struct ev_model *const models[] = {
	&ev_model_intel_arch,
	&ev_model_intel_skylake,
	&ev_model_amd_legacy,
	&ev_model_amd_core,
	&ev_model_amd_fam19h,
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
	intel_skl_model_prepare();
	return models[i];
}

const struct ev_model *events_model_find(const char *name)
{
	for (unsigned i = 0; i < NMODELS; i++)
		if (events_name_eq(models[i]->name, name))
			return events_model_at(i);
	return NULL;
}

void events_caps_of_model(const struct ev_model *m, struct pmu_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	snprintf(caps->name, sizeof(caps->name), "%s", m->name);
	snprintf(caps->status, sizeof(caps->status), "%s: model table, no "
	         "hardware", m->name);
	caps->ncounters = m->ncounters;
	for (unsigned k = 0; k < m->ncounters && k < PMU_MAX_COUNTERS; k++)
		caps->counter[k].fixed = (m->fixed >> k) & 1u;
	caps->modes = PMU_MODE_U | PMU_MODE_K;
	caps->slots_per_counter = m->slots_per_counter;
	caps->ntables = m->ntables;
	for (unsigned t = 0; t < m->ntables; t++)
		caps->tables[t] = m->tables[t];
	caps->umask_sets = m->umask_sets;
	caps->numask_sets = m->numask_sets;
	caps->fields = m->encode ? m->fields : 0;
	caps->cmask_max = m->cmask_max;
}
