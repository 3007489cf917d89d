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
#include <stdint.h>

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

/* perfmon's stop/start and clear, pctr's read (docs/hwperf.md "Pause, resume,
 * reset and the pctr read"): pause and resume keep the generation, reset
 * bumps it; the pctr read is a read plus the cycle counter and the idle
 * count. */
int hwp_pause(int pid);
int hwp_resume(int pid);
int hwp_reset(int pid);
int hwp_pctr_read(int pid, struct hwperf_pctr *out);

int hwp_sys_acquire(const struct hwperf_control *ctl);
int hwp_sys_read(struct hwperf_counts *out);
/* 0 (not an error) for a CPU that does not exist. */
int hwp_cpu_read(int cpu, struct hwperf_counts *out);
int hwp_sys_get_control(struct hwperf_control *out);
int hwp_sys_set_control(const struct hwperf_control *ctl);
int hwp_sys_release(void);

/* ---- reading without a system call (the read page, abi.h) ---------------- */

/* Map the caller's read page and allow its user-mode counter reads.
 * Returns the generation, or -ENODEV (the active PMU's counters cannot
 * be read in user mode), -ENOMEM.  A forked child must map again. */
int hwp_map(void);

struct hwp_uread {
	uint64_t count[HWPERF_NVCTR];
	uint32_t used;                  /* virtual counters in use */
	/* The page's sequence number these values belong to: it moves by 2
	 * each time the kernel returns to this task's user mode, so two
	 * reads whose seq differ by 2k saw k kernel exits in between. */
	uint32_t seq;
	unsigned retries;               /* added to at every retry, never reset */
};

/*
 * The caller's counts, read from its page and the cycle counter without
 * entering the kernel: the same values a read system call would return at
 * that instant.  Only the counters in `used` are written; the others keep
 * what r held.  Retries while the kernel is writing the page or ran in
 * between (the sequence moved).  Returns the generation, -EINVAL when the
 * page was not mapped, or -ENODEV when the counts are system-wide (only a
 * system call reads those).
 */
int hwp_uread(struct hwp_uread *r);

/* arch/<arch>/user/ucounters.*: the cycle counter as user mode reads it
 * (rdtsc; RDHWR $2), and the read only a task that mapped its page may
 * make (rdpmc; RDHWR $2): anyone else gets SIGSEGV (x86) or SIGILL (MIPS). */
unsigned long hwp_ucycles(void);
unsigned long hwp_uguarded(void);
/* A hardware counter by its rdpmc index (the page's uindex), all the bits
 * rdpmc returns: x86 only, and only in a task that mapped its page.  MIPS
 * has no user-readable PMC (PerfCnt is CP0): its kernel never publishes a
 * counter as HWPERF_UREAD_RDPMC, so there this is never called and
 * answers 0. */
unsigned long hwp_urdpmc(uint32_t index);

/* Parse SPEC (syntax: kernel/hwperf/spec.h) into ctl: 0, or -EINVAL with
 * the reason in why (why may be NULL). */
int hwp_parse(const char *spec, struct hwperf_control *ctl, char *why, size_t len);
/* ctl back in spec syntax; returns the full length, like snprintf. */
int hwp_format(const struct hwperf_control *ctl, char *buf, size_t len);

#endif
