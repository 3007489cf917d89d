/*
 * prof_sample.h - sample-record rings for `prof -r` and `hwperf profile
 * -r`, and their printing (formats: kernel/hwperf/sample.h, docs/hwperf.md
 * "Sample records").
 */
#ifndef TALLY_PROF_SAMPLE_H
#define TALLY_PROF_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "hwperf/hwperf.h"
#include "hwperf/sample.h"

#define PROF_RING_PAGES_MAX 64u
#define PROF_RING_DEFAULT 1024u
/* The most records 64 pages hold, and the least worth asking for. */
#define PROF_RING_MAX 2048u
#define PROF_RING_MIN 1u

struct prof_records {
	struct hwperf_ring ring;
	struct hwperf_sample *pages[PROF_RING_PAGES_MAX];
	unsigned npages;
};

/* Pages for want records (1..PROF_RING_MAX): 0 or -ENOMEM (nothing kept). */
int prof_records_alloc(struct prof_records *r, uint32_t want);
void prof_records_free(struct prof_records *r);

/*
 * Print the records of r: a `samples kept=N dropped=D capacity=C
 * depth_max=M` line, one `sample ...` line per record, then the program's
 * symbols as `sym ADDRESS NAME` lines; with json, one JSON document
 * instead (docs/hwperf.md).  ctl names each record's event.
 */
void prof_records_print(const struct prof_records *r,
                        const struct hwperf_control *ctl, const char *prog,
                        bool json);

/*
 * The console's one ring (`hwperf profile -r N PID SPEC`): gives user
 * task pid a profile (buckets over its text, as prof's) with a ring of n
 * records, taking the ring back from the task armed before.  0, or
 * -ESRCH (no such user task), -EBUSY (it has prof's profile already),
 * -EINVAL/-ENOMEM (the ring); why says which.
 */
int prof_console_arm(int pid, uint32_t n, const struct hwperf_control *ctl,
                     struct hwperf_reason *why);
void prof_console_disarm(void);
/* Print the console ring's records so far (prof_records_print's format);
 * returns the pid they belong to, or -ENOENT when nothing was armed. */
int prof_console_print(bool json);

#endif
