/*
 * hwlose MS: a USER counter holder that sleeps while someone may force
 * SYSTEM mode (R5), then looks at what it lost (R6).  It enables
 * syscalls:u for itself, reads its generation G0, sleeps MS ms, then
 * reads twice: generation G1 and counts C1, then C2.  A task still
 * counting syscalls:u sees C2 = C1 + 1 (the first read); a task that
 * lost its counters sees C2 = C1 (never restarted).  It reports through
 * its exit status:
 *
 *	status = (G1 - G0) << 1 | lost      (G1 - G0 at most GEN_BUMP_MAX)
 *	EXIT_SETUP                          a call failed
 *
 * (the layout is kernel/bench/derive.h's, which decodes it).
 */
#include <stdio.h>

#include "kernel/bench/derive.h"       /* the report's layout, shared with the bench */
#include "tally.h"
#include "tally_hwperf.h"

#define EXIT_SETUP 200
#define GEN_BUMP_MAX (HOLDER_REPORT_MAX >> HOLDER_BUMP_SHIFT)

static struct hwperf_control ctl;
static struct hwperf_counts counts;

int main(int argc, char **argv)
{
	unsigned long ms = arg_count(argc, argv, 1, "hwlose MS");
	char why[HWP_WHY_MAX];

	if (hwp_parse("syscalls:u", &ctl, why, sizeof(why)) < 0) {
		printf("hwlose: %s\n", why);
		return EXIT_SETUP;
	}
	int g0 = hwp_enable(0, &ctl);
	if (g0 < 0 || sleep_ms((unsigned)ms) < 0)
		return EXIT_SETUP;
	int g1 = hwp_read(0, &counts);
	uint64_t c1 = counts.count[0];
	int g2 = hwp_read(0, &counts);
	if (g1 < g0 || g2 < 0 || g1 - g0 > GEN_BUMP_MAX)
		return EXIT_SETUP;
	unsigned lost = counts.count[0] == c1 ? HOLDER_LOST_BIT : 0;
	hwp_release(0);
	return (int)(((unsigned)(g1 - g0) << HOLDER_BUMP_SHIFT) | lost);
}
