/*
 * bench_soft.c - a software PMU of a chosen shape for one benchmark run
 * (see bench_soft.h).
 */
#include <stdio.h>

#include "bench_soft.h"
#include "hwperf/hwperf.h"

bool bench_soft_enter(unsigned ncounters, unsigned width,
		      struct softpmu_config *saved, struct bench_sample *s)
{
	struct hwperf_reason why;

	softpmu_get_config(saved);
	if (hwperf_soft_configure(NULL, ncounters, width, &why) == 0)
		return true;
	snprintf(s->skip, sizeof(s->skip), "soft PMU: %s", why.text);
	return false;
}

int bench_soft_leave(const struct softpmu_config *saved)
{
	struct hwperf_reason why;
	int r = hwperf_soft_configure(NULL, saved->ncounters, saved->width, &why);

	if (r < 0)
		printf("bench: soft PMU left at its benchmark shape: %s\n", why.text);
	return r;
}
