/*
 * hwperf_console.h - who the console is when a command asks hwperf for
 * something.  One owner answers for every command (`hwperf`, and `stat`
 * and `prof` through counted_spawn.c): kernel/console/console_identity.c.
 * Counter names and count lines are format.h's.
 */
#ifndef TALLY_HWPERF_CONSOLE_H
#define TALLY_HWPERF_CONSOLE_H

#include "hwperf.h"

/* The caller hwperf sees for the console: NULL (the kernel, acting as
 * root) while the console's uid is root, its own task while `as UID`
 * makes it an ordinary user. */
struct hwperf_task *hwperf_console_caller(void);
/* The console's own pid: the target of `hwperf sys enable` and `stat -a`. */
int hwperf_console_pid(void);

#endif
