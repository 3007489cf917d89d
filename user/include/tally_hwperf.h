/*
 * tally_hwperf.h - the performance counters from a user program: one
 * function per SYS_hwperf operation (kernel/hwperf/abi.h), and the same
 * event-spec parser the console uses (kernel/hwperf/spec.c, compiled into
 * the user library; the kernel checks event names when the control
 * arrives).
 *
 * Every function returns what the kernel returned: the generation number
 * (or 0 where the rule says so), or a negative errno.  `pid` 0 is the
 * calling task.
 */
#ifndef TALLY_USER_HWPERF_H
#define TALLY_USER_HWPERF_H

#include <stddef.h>

#include "kernel/hwperf/abi.h"

/* Room for any parse error ("EINVAL: ..."). */
#define HWP_WHY_MAX 128

long hwp_call(int op, int id, const void *arg, const void *arg2);

int hwp_enable(int pid, const struct hwperf_control *ctl);
int hwp_read(int pid, struct hwperf_counts *out);
int hwp_read_rusage(int pid, struct hwperf_counts *out, struct hwperf_rusage *ru);
int hwp_get_control(int pid, struct hwperf_control *out);
int hwp_set_control(int pid, const struct hwperf_control *ctl);
int hwp_release(int pid);
int hwp_save_child(int pid);
int hwp_profile_enable(int pid, const struct hwperf_control *ctl);

int hwp_sys_acquire(const struct hwperf_control *ctl);
int hwp_sys_read(struct hwperf_counts *out);
/* 0 (not an error) for a CPU that does not exist. */
int hwp_cpu_read(int cpu, struct hwperf_counts *out);
int hwp_sys_get_control(struct hwperf_control *out);
int hwp_sys_set_control(const struct hwperf_control *ctl);
int hwp_sys_release(void);

/* Parse SPEC (syntax: kernel/hwperf/spec.h) into ctl: 0, or -EINVAL with
 * the reason in why (why may be NULL). */
int hwp_parse(const char *spec, struct hwperf_control *ctl, char *why, size_t len);
/* ctl back in spec syntax; returns the full length, like snprintf. */
int hwp_format(const struct hwperf_control *ctl, char *buf, size_t len);

#endif
