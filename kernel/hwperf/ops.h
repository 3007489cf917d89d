/*
 * ops.h - hwperf's one table of operations, the front door shared by the
 * system call (kernel/hwperf/hwperf_syscall.c, which copies through uvm) and the
 * `hwperf` console command (cmd.c, which parses words).
 *
 * Each HWPERF_OP_* (abi.h) has one row: its console words, what it takes
 * besides its id, what its id is, who may ask, and the handler both doors
 * call.  A door only turns its own input into a struct hwperf_call and its
 * output back; what the op does is decided here, once.
 */
#ifndef TALLY_HWPERF_OPS_H
#define TALLY_HWPERF_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "abi.h"
#include "hwperf.h"

struct uvm;

/* What an op takes besides its id; the system call's unused pointers
 * must be 0 (EINVAL). */
enum hwperf_arg_kind {
	HWPERF_ARG_NONE,        /* nothing */
	HWPERF_ARG_CTL_IN,      /* a control to act on (console: a SPEC) */
	HWPERF_ARG_CTL_OUT,     /* a control to fill (console: `spec ...`) */
	HWPERF_ARG_COUNTS_OUT,  /* counts to fill (console: count lines) */
	HWPERF_ARG_COUNTS_RU,   /* counts and resource usage to fill */
	HWPERF_ARG_PCTR_OUT,    /* a pctr read to fill */
};

/* What the id names. */
enum hwperf_id_kind {
	HWPERF_ID_PID,          /* a task (0: the caller) */
	HWPERF_ID_CHILD,        /* a child task; the console also names its parent */
	HWPERF_ID_CPU,          /* a CPU */
	HWPERF_ID_ZERO,         /* nothing: must be 0 */
};

/*
 * Who may ask: the rule hwperf applies (state.c, syscpu.c, upage.c give
 * the EPERM and its reason; tests/unit/kernel/hwperf/test_ops.c holds each
 * row to it).  Root is uid 0, or the kernel itself (a NULL caller).
 */
enum hwperf_perm {
	HWPERF_PERM_TARGET,     /* root, the task itself, or its process group */
	HWPERF_PERM_MODES,      /* as TARGET, and root for modes k, s and x */
	HWPERF_PERM_PARENT,     /* as TARGET, and root or the child's parent */
	HWPERF_PERM_ROOT,       /* root only */
	HWPERF_PERM_ANY,        /* anyone: the answer is about the caller or
				 * the system as a whole */
};

/* One call, as both doors describe it. */
struct hwperf_call {
	struct hwperf_task *caller;     /* NULL: the kernel, as root */
	int id;                         /* pid or cpu, per the row */
	struct hwperf_control *ctl;     /* CTL_IN / CTL_OUT */
	struct hwperf_counts *counts;   /* COUNTS_OUT / COUNTS_RU */
	struct hwperf_rusage *ru;       /* COUNTS_RU */
	struct hwperf_pctr *pctr;       /* PCTR_OUT */
	struct uvm *uvm;                /* HWPERF_OP_MAP: the caller's space */
};

typedef int (*hwperf_op_fn)(const struct hwperf_call *c, struct hwperf_reason *why);

struct hwperf_op {
	const char *name;       /* console words ("sys force"); NULL: no console */
	const char *self_name;  /* words for the same op on the console's own
				 * task (no id word), or NULL */
	uint8_t arg;            /* enum hwperf_arg_kind */
	uint8_t id;             /* enum hwperf_id_kind */
	uint8_t perm;           /* enum hwperf_perm */
	hwperf_op_fn run;
};

/* Row op of the table, or NULL when op is out of range. */
const struct hwperf_op *hwperf_op_get(uintptr_t op);

/* The system call's argument check against row d: unused pointers are 0
 * and a used one is not (EFAULT), an ID_ZERO id is 0, no id is negative. */
int hwperf_op_check(const struct hwperf_op *d, int id, uintptr_t arg, uintptr_t arg2);

/* The console's match for words argv[0..argc): the op whose console words
 * start argv and whose whole form (words, id words, SPEC) has argc words;
 * failing that, the first whose words start argv (its argument check will
 * say what is wrong).  -1 when none does.  *self says the words were the
 * row's self_name, *words how many words the name took. */
int hwperf_op_match(int argc, char *const *argv, bool *self, int *words);

/* Words the console form of row d takes after its name. */
int hwperf_op_arg_words(const struct hwperf_op *d, bool self);

/* HWPERF_OP_MAP's handler lives with the system call (it maps a page in
 * the caller's address space); the table names it. */
int hwperf_op_map(const struct hwperf_call *c, struct hwperf_reason *why);

#endif
