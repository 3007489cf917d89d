/*
 * dispatch_sets.h - every event set the dispatch tests place, with the
 * answer `events` gives for it: test_events_dispatch checks each answer,
 * test_events_agree checks hwperf places each set as `events` says.
 * A set added to the dispatch tests belongs here.
 */
#ifndef TALLY_TEST_DISPATCH_SETS_H
#define TALLY_TEST_DISPATCH_SETS_H

#include "events/events.h"

#define DS_MAX 5

struct dispatch_set {
	const char *model;
	uint32_t unavail;
	unsigned n;
	const char *specs[DS_MAX];
	enum ev_err want;
};

static const struct dispatch_set dispatch_sets[] = {
	{ "intel-arch", 0, 3, { "cycles", "instructions", "ref-cycles" }, EV_OK },
	{ "intel-arch", 0, 2, { "cycles", "cycles" }, EV_OK },
	{ "intel-arch", 0x0f, 2, { "cycles", "instructions" }, EV_OK },
	{ "74k", 0, 4, { "cycles", "instructions", "branch-misses",
	                 "dcache-misses" }, EV_OK },
	{ "74k", 0, 2, { "cycles", "branch-misses" }, EV_OK },
	{ "r10000", 0, 2, { "cycles", "cycles" }, EV_OK },
	{ "r10000", 0, 2, { "TLB_MISSES", "cycles" }, EV_OK },
	{ "24k", 0, 3, { "cycles", "instructions", "branches" }, EV_ERR_TOOMANY },
	{ "74k", 0xe, 2, { "cycles", "instructions" }, EV_ERR_TOOMANY },
	{ "24k", 0, 2, { "branches", "dcache-accesses" }, EV_ERR_NOASSIGN },
	{ "74k", 0xa, 1, { "branch-misses" }, EV_ERR_NOASSIGN },
	{ "24k", 0, 2, { "branches", "branches" }, EV_ERR_EVTMANY },
	{ "r10000", 0, 2, { "tlb-misses", "tlb-misses" }, EV_ERR_EVTMANY },
	{ "24k", 0, 2, { "cycles", "no-such-event" }, EV_ERR_NOTFOUND },
	{ "24k", 0, 1, { "" }, EV_ERR_INVAL },
	{ "amd-legacy", 0, 1, { "requests-to-l2" }, EV_ERR_UMASK },
	{ "amd-legacy", 0, 1, { "cycles:data" }, EV_ERR_UMASK },
	{ "amd-legacy", 0, 1, { "requests-to-l2:bogus" }, EV_ERR_UMASK },
	{ "amd-legacy", 0, 1, { "requests-to-l2:" }, EV_ERR_UMASK },
	{ "amd-legacy", 0, 1, { "requests-to-l2:instructions:data" }, EV_OK },
	{ "amd-legacy", 0, 1, { "data-cache-refills"
	                        ":system" }, EV_OK },
	{ "amd-legacy", 0, 1, { "data-cache-refills" },
	  EV_OK },
	{ "amd-core", 0, 2, { "L2_CACHE_REQ_STAT:IC_FILL_MISS:LS_RD_BLK_C",
	                      "cache-misses" }, EV_OK },
};

#define N_DISPATCH_SETS (sizeof(dispatch_sets) / sizeof(dispatch_sets[0]))

#endif
