/*
 * abi.h - what user programs and the kernel agree on for the performance
 * counters: the operations of SYS_hwperf and the structures they pass.
 *
 * Included by kernel/hwperf/hwperf.h and by user/include/tally_hwperf.h,
 * so it uses only fixed-width types and no kernel header.  Both sides are
 * built by the same compiler for the same ABI, so layouts match.
 *
 *	long SYS_hwperf(op, id, arg, arg2)
 *
 * `id` is a pid for the task operations (0 = the caller) and a CPU number
 * for HWPERF_OP_CPU_READ.  Each operation returns the generation number
 * (R7), or 0 where the rule says so (system release, a CPU that does not
 * exist), or a negated errno.  A pointer the kernel cannot read or write
 * gives -EFAULT and changes nothing; an unknown op, or a non-zero argument
 * an op does not use, gives -EINVAL.
 *
 * Op numbers are ABI: only ever append.
 */
#ifndef TALLY_HWPERF_ABI_H
#define TALLY_HWPERF_ABI_H

#include <stdint.h>

#define HWPERF_NVCTR 32         /* virtual counters per set (IRIX's 32) */
/* A control must fit one kernel heap block (hwperf_syscall.c), so names
 * with their unit masks stay within 31 characters. */
#define HWPERF_NAME_MAX 32
#define HWPERF_SIG_MAX 32       /* overflow signals are 1..32, 0 = none */

/*                                 id     arg                    arg2 */
#define HWPERF_OP_ENABLE        0 /* pid  const hwperf_control*  0     PIOCENEVCTRS */
#define HWPERF_OP_READ          1 /* pid  hwperf_counts*         0     PIOCGETEVCTRS */
#define HWPERF_OP_READ_RUSAGE   2 /* pid  hwperf_counts*  hwperf_rusage* PIOCGETPREVCTRS */
#define HWPERF_OP_GET_CONTROL   3 /* pid  hwperf_control*        0     PIOCGETEVCTRL */
#define HWPERF_OP_SET_CONTROL   4 /* pid  const hwperf_control*  0     PIOCSETEVCTRL */
#define HWPERF_OP_RELEASE       5 /* pid  0                      0     PIOCRELEVCTRS */
#define HWPERF_OP_SAVE_CHILD    6 /* pid  0                      0     PIOCSAVECCNTRS */
#define HWPERF_OP_PROFILE       7 /* pid  const hwperf_control*  0     HWPERF_PROFENABLE */
#define HWPERF_OP_SYS_ACQUIRE   8 /* 0    const hwperf_control*  0     HWPERF_ENSYSCNTRS */
#define HWPERF_OP_SYS_READ      9 /* 0    hwperf_counts*         0     HWPERF_GET_SYSCNTRS */
#define HWPERF_OP_CPU_READ     10 /* cpu  hwperf_counts*         0     HWPERF_GET_CPUCNTRS */
#define HWPERF_OP_SYS_GET_CONTROL 11 /* 0 hwperf_control*        0     HWPERF_GET_SYSEVCTRL */
#define HWPERF_OP_SYS_SET_CONTROL 12 /* 0 const hwperf_control*  0     HWPERF_SET_SYSEVCTRL */
#define HWPERF_OP_SYS_RELEASE  13 /* 0    0                      0     HWPERF_RELSYSCNTRS */
#define HWPERF_OP_MAP          14 /* 0    0                      0     (user read page) */
/* (+) pctr and perfmon habits: see "Pause, resume, reset and the pctr
 * read" in docs/hwperf.md for the rules (R-numbers) each follows. */
#define HWPERF_OP_PAUSE        15 /* pid  0                      0     perfmon PMCSTOP */
#define HWPERF_OP_RESUME       16 /* pid  0                      0     perfmon PMCSTART */
#define HWPERF_OP_RESET        17 /* pid  0                      0     perfmon PMCCLEAR */
#define HWPERF_OP_PCTR_READ    18 /* pid  hwperf_pctr*           0     pctr PCIOCRD */
#define HWPERF_OP_COUNT        19

#define HWPERF_EV_RAW 0x1u      /* `code` is a raw driver code, not `name` */
/* With RAW: `code` is an event-select number (perf's cpu/event=N/); the
 * driver builds its code from it and the fields below. */
#define HWPERF_EV_EVSEL 0x2u
#define HWPERF_EV_UMASK 0x4u    /* `umask` replaces the unit mask */
#define HWPERF_EV_CMASK 0x8u    /* `cmask` is the counter mask */
#define HWPERF_EV_INV 0x10u     /* invert the counter-mask comparison */
#define HWPERF_EV_EDGE 0x20u    /* count rising edges */
#define HWPERF_EV_FIELDS (HWPERF_EV_UMASK | HWPERF_EV_CMASK | \
                          HWPERF_EV_INV | HWPERF_EV_EDGE)

/* Mode bits of an event (the R10000 control register's low bits). */
#define HWPERF_MODE_X 0x1u      /* EXL: exception level, transient kernel */
#define HWPERF_MODE_K 0x2u      /* kernel */
#define HWPERF_MODE_S 0x4u      /* supervisor */
#define HWPERF_MODE_U 0x8u      /* user */

/* One virtual counter's request; all zero = slot unused. */
struct hwperf_event {
	/* event table name, with unit-mask names after ':'
	 * ("inst-retired:any-p"); "" if raw/unused */
	char name[HWPERF_NAME_MAX];
	uint32_t flags;                 /* HWPERF_EV_* */
	uint32_t code;                  /* raw code when HWPERF_EV_RAW */
	uint32_t modes;                 /* HWPERF_MODE_*; none is an error */
	uint16_t umask;                 /* with HWPERF_EV_UMASK */
	uint16_t cmask;                 /* with HWPERF_EV_CMASK */
	int64_t thresh;                 /* act every thresh events; 0 = never */
};

/* A whole request (IRIX hwperf_profevctrarg_t): events, thresholds and
 * the overflow signal. */
struct hwperf_control {
	struct hwperf_event ev[HWPERF_NVCTR];
	int sig;                        /* signal on overflow, 0..32 */
};

/* Counts of every virtual counter, with the times (cycle-counter ticks)
 * it was wanted and on hardware, to scale a multiplexed count (R9). */
struct hwperf_counts {
	uint64_t count[HWPERF_NVCTR];
	uint64_t enabled[HWPERF_NVCTR]; /* cycles the event was wanted */
	uint64_t running[HWPERF_NVCTR]; /* cycles it was on a hardware counter */
};

/* What the kernel accounts per task (R9, IRIX PIOCGETPREVCTRS). */
struct hwperf_rusage {
	uint64_t utime_ns;
	uint64_t stime_ns;
	uint64_t faults;
	uint64_t tlb_refills;
	uint64_t signals;
	uint64_t vcsw;
	uint64_t ivcsw;
	uint64_t syscalls;
	/* (+) The same times in cycle-counter ticks: exact, and directly
	 * comparable with a cycles:u / cycles:k count. */
	uint64_t utime_cycles;
	uint64_t stime_cycles;
};

/*
 * (+) One read of everything pctr's PCIOCRD returns together: the task's
 * counts, the cycle counter and the idle count.  `cycles` is the cycle
 * counter (arch_cycles: TSC, CP0 Count extended to 64 bits) read in the
 * same call, right after the counts; `idle_cycles` is the cycle-counter
 * time every CPU's idle task has been accounted so far and
 * `idle_iterations` its loop count (pctr's pctr_idl): both only grow, and
 * between two reads idle_cycles grows by at most ncpus times what cycles
 * grew by.
 */
struct hwperf_pctr {
	uint64_t cycles;
	uint64_t idle_cycles;
	uint64_t idle_iterations;
	uint32_t gen;                   /* the set's generation, as returned */
	uint32_t ncpus;                 /* CPUs the idle figures cover */
	struct hwperf_counts counts;
};

/* ---- reading without a system call (HWPERF_OP_MAP) ------------------------
 *
 * HWPERF_OP_MAP maps the calling task's *read page* read-only at
 * HWPERF_UPAGE_ADDR (the same address on every machine: above any heap,
 * below any stack) and lets it read the cycle counter in user mode (x86:
 * CR4.PCE set while it runs, so rdpmc works too; rdtsc always does.
 * MIPS: HWREna.CC and CCRes, so RDHWR $2 and $3 work).  Tasks that did
 * not map get a fault from rdpmc (SIGSEGV) and RDHWR $2 (SIGILL).
 * Mapping twice is allowed and changes nothing; a forked child does not
 * inherit the page.  Errors: ENODEV when the active PMU's counters cannot
 * be read in user mode (the software PMU's can: its events change only
 * in the kernel, except cycles, which is the cycle counter itself; a
 * hardware PMU's can when its driver names every counter's rdpmc index),
 * ENOMEM, EINVAL for a non-zero id or argument.
 *
 * The kernel rewrites the page every time it returns to the task's user
 * mode, so each value is exact as of that moment; `seq` is odd while it
 * writes and moves by two per rewrite.  A reader (hwp_uread) loops:
 * read seq (retry while odd), read every counter and the cycle counter,
 * read seq again, and retry if it moved -- it moved exactly when the
 * kernel ran in between (a tick, a preemption, a fold, a rotation of
 * multiplexed events, a new control).  Counter i's value is
 *
 *	NONE:    sum
 *	CYCLES:  sum + ((cycle counter - ucycles_start) & (2^width - 1))
 *
 *	RDPMC:   sum + ((rdpmc(uindex[i]) - start) & (2^width - 1))
 *
 * where the cycle counter is rdtsc (64 bits) on x86 and RDHWR $2 (CP0
 * Count, 32 bits) on MIPS: the same clock the software PMU's cycles event
 * counts, so the value is the one a system call read would return at
 * that instant.  RDPMC (x86 hardware PMUs) reads the counter the event is
 * on now; rdpmc returns more bits than the counter has, so the difference
 * is masked to its width, as the kernel's own fold does.  An event
 * rotated off the hardware by multiplexing is NONE until it is back.
 * MIPS PerfCnt is CP0, which user mode cannot read: with a MIPS hardware
 * PMU active, HWPERF_OP_MAP answers ENODEV. */
#define HWPERF_UPAGE_ADDR 0x7f000000u

#define HWPERF_UREAD_NONE   0u  /* changes only in the kernel: sum is exact */
#define HWPERF_UREAD_CYCLES 1u  /* sum plus the cycle counter since start */
/* (+) sum plus hardware counter uindex[i] since start (x86 rdpmc) */
#define HWPERF_UREAD_RDPMC  2u

/* upage.flags */
#define HWPERF_UPAGE_SYSCALL_ONLY 0x1u /* counts are system-wide: use a read */

struct hwperf_uctr {
	uint64_t sum;                   /* count when the kernel last left */
	uint64_t start;                 /* RDPMC: the PMC then, masked to width */
	uint32_t how;                   /* HWPERF_UREAD_* */
	uint32_t width;                 /* bits of the counter user mode reads */
};

struct hwperf_upage {
	uint32_t seq;                   /* odd while the kernel writes */
	uint32_t gen;                   /* the set's generation (R7) */
	uint32_t used;                  /* virtual counters in use */
	uint32_t flags;                 /* HWPERF_UPAGE_* */
	/* (+) The cycle counter when user mode resumed, masked to the
	 * width of the CYCLES counters: the start of each of them.  The
	 * kernel's exit path writes it as its last act, after seq is even. */
	uint64_t ucycles_start;
	struct hwperf_uctr c[HWPERF_NVCTR];
	/* (+) Counter i's rdpmc ECX when c[i].how is HWPERF_UREAD_RDPMC. */
	uint32_t uindex[HWPERF_NVCTR];
};

#endif
