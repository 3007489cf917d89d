/*
 * hwperf_console.h - what the console commands around hwperf share:
 * who the console acts as, and the counter-line printer used by `hwperf`,
 * `stat` and the benchmarks.
 */
#ifndef TALLY_HWPERF_CONSOLE_H
#define TALLY_HWPERF_CONSOLE_H

#include "hwperf.h"

/* The task the console's hwperf requests come from (NULL: the kernel,
 * acting as root).  `as UID CMD` sets it for one command. */
void hwperf_console_set_caller(struct hwperf_task *t);
/* The console's own pid: the target of `hwperf sys enable`. */
int hwperf_console_pid(void);

/* Whether slot ev names an event (by name or raw code). */
bool hwperf_slot_used(const struct hwperf_event *ev);
/* Slot i's name in spec syntax ("syscalls:u", "r1c0:u"), with "@I=" in
 * front when the same event is in two slots: what every count line shows. */
void hwperf_counter_name(const struct hwperf_control *ctl, unsigned i,
			 char *buf, size_t len);
/* One `NAME count=C enabled=E running=R` line per counter in use. */
void hwperf_print_counts(const struct hwperf_control *ctl, const struct hwperf_counts *c);

#endif
