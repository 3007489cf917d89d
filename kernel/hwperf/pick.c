/*
 * pick.c - which PMU driver hwperf uses.
 *
 * Every driver is probed and reports one status line.  The choice is the
 * highest-ranked driver that is present and really counts; a driver that
 * is present but does not count (QEMU's PMUs) is reported, never used.
 * The software PMU always counts, so with it registered there is always a
 * choice.  A name given by the user (boot argument pmu=NAME) wins if that
 * driver is present and counts.
 */
#include <string.h>

#include "hwperf.h"

int hwperf_pick(const struct pmu_driver *drv, unsigned n, const char *want,
                void (*report)(const struct pmu_driver *d,
                               const struct pmu_caps *caps, int rc))
{
	int best = -1;
	bool forced = false;

	for (unsigned i = 0; i < n; i++) {
		struct pmu_caps caps;
		int rc = drv[i].ops->probe(&caps);
		bool usable = rc == 0 && caps.counts;
		bool named = want && strcmp(want, drv[i].name) == 0;

		if (report)
			report(&drv[i], &caps, rc);
		if (!usable || (forced && !named))
			continue;
		if (named || best < 0 || drv[i].rank > drv[best].rank) {
			best = (int)i;
			forced = named;
		}
	}
	return best;
}
