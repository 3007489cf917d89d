/*
 * ops.c - the table of hwperf operations (ops.h): one row per HWPERF_OP_*,
 * read by the system call and by the `hwperf` console command alike.
 */
#include <errno.h>
#include <string.h>

#include "ops.h"

/* ---- the handlers: one call description in, hwperf's answer out ---------- */

static int op_enable(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_enable(c->caller, c->id, c->ctl, why);
}

static int op_read(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_read(c->caller, c->id, c->counts, why);
}

static int op_read_rusage(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_read_rusage(c->caller, c->id, c->counts, c->ru, why);
}

static int op_get_control(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_get_control(c->caller, c->id, c->ctl, why);
}

static int op_set_control(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_set_control(c->caller, c->id, c->ctl, why);
}

static int op_release(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_release(c->caller, c->id, why);
}

static int op_save_child(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_save_child(c->caller, c->id, why);
}

static int op_profile(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_profile_enable(c->caller, c->id, c->ctl, why);
}

static int op_sys_acquire(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_sys_acquire(c->caller, c->ctl, why);
}

static int op_sys_read(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_sys_read(c->caller, c->counts, why);
}

static int op_cpu_read(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_cpu_read(c->caller, c->id, c->counts, why);
}

static int op_sys_get_control(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_sys_get_control(c->caller, c->ctl, why);
}

static int op_sys_set_control(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_sys_set_control(c->caller, c->ctl, why);
}

static int op_sys_release(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_sys_release(c->caller, why);
}

static int op_pause(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_pause(c->caller, c->id, why);
}

static int op_resume(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_resume(c->caller, c->id, why);
}

static int op_reset(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_reset(c->caller, c->id, why);
}

static int op_pctr_read(const struct hwperf_call *c, struct hwperf_reason *why)
{
	return hwperf_pctr_read(c->caller, c->id, c->pctr, why);
}

/* ---- the table -------------------------------------------------------------- */

#define ROW(op_, name_, self_, arg_, id_, perm_, fn_) \
	[op_] = { .name = name_, .self_name = self_, .arg = HWPERF_ARG_##arg_, \
		  .id = HWPERF_ID_##id_, .perm = HWPERF_PERM_##perm_, .run = fn_ }

static const struct hwperf_op table[HWPERF_OP_COUNT] = {
	/* `sys enable SPEC` is PIOCENEVCTRS on the console itself: with a
	 * k-mode event that asks for SYSTEM mode without forcing (R4). */
	ROW(HWPERF_OP_ENABLE, "enable", "sys enable", CTL_IN, PID, MODES, op_enable),
	ROW(HWPERF_OP_READ, "read", NULL, COUNTS_OUT, PID, TARGET, op_read),
	ROW(HWPERF_OP_READ_RUSAGE, "read -r", NULL, COUNTS_RU, PID, TARGET, op_read_rusage),
	ROW(HWPERF_OP_GET_CONTROL, "getctl", NULL, CTL_OUT, PID, TARGET, op_get_control),
	ROW(HWPERF_OP_SET_CONTROL, "setctl", NULL, CTL_IN, PID, MODES, op_set_control),
	ROW(HWPERF_OP_RELEASE, "release", NULL, NONE, PID, TARGET, op_release),
	ROW(HWPERF_OP_SAVE_CHILD, "savechild", NULL, NONE, CHILD, PARENT, op_save_child),
	ROW(HWPERF_OP_PROFILE, "profile", NULL, CTL_IN, PID, MODES, op_profile),
	ROW(HWPERF_OP_SYS_ACQUIRE, "sys force", NULL, CTL_IN, ZERO, ROOT, op_sys_acquire),
	ROW(HWPERF_OP_SYS_READ, "sys read", NULL, COUNTS_OUT, ZERO, ANY, op_sys_read),
	ROW(HWPERF_OP_CPU_READ, "sys read --cpu", NULL, COUNTS_OUT, CPU, ANY, op_cpu_read),
	ROW(HWPERF_OP_SYS_GET_CONTROL, "sys getctl", NULL, CTL_OUT, ZERO, ANY,
	    op_sys_get_control),
	ROW(HWPERF_OP_SYS_SET_CONTROL, "sys setctl", NULL, CTL_IN, ZERO, ROOT,
	    op_sys_set_control),
	ROW(HWPERF_OP_SYS_RELEASE, "sys release", NULL, NONE, ZERO, ROOT, op_sys_release),
	/* A page in the caller's own address space: nothing to ask for
	 * from the console. */
	ROW(HWPERF_OP_MAP, NULL, NULL, NONE, ZERO, ANY, hwperf_op_map),
	ROW(HWPERF_OP_PAUSE, "pause", NULL, NONE, PID, TARGET, op_pause),
	ROW(HWPERF_OP_RESUME, "resume", NULL, NONE, PID, TARGET, op_resume),
	ROW(HWPERF_OP_RESET, "reset", NULL, NONE, PID, TARGET, op_reset),
	ROW(HWPERF_OP_PCTR_READ, "pctr", NULL, PCTR_OUT, PID, TARGET, op_pctr_read),
};

const struct hwperf_op *hwperf_op_get(uintptr_t op)
{
	return op < HWPERF_OP_COUNT ? &table[op] : NULL;
}

/* ---- the system call's check ------------------------------------------------ */

int hwperf_op_check(const struct hwperf_op *d, int id, uintptr_t arg, uintptr_t arg2)
{
	bool uses_arg = d->arg != HWPERF_ARG_NONE;
	bool uses_arg2 = d->arg == HWPERF_ARG_COUNTS_RU;

	if ((!uses_arg && arg) || (!uses_arg2 && arg2))
		return -EINVAL;
	if (d->id == HWPERF_ID_ZERO && id != 0)
		return -EINVAL;
	if (id < 0)
		return -EINVAL;
	/* A NULL pointer is as bad as any other unmapped one. */
	if ((uses_arg && !arg) || (uses_arg2 && !arg2))
		return -EFAULT;
	return 0;
}

/* ---- the console's words ---------------------------------------------------- */

int hwperf_op_arg_words(const struct hwperf_op *d, bool self)
{
	int n = 0;

	if (!self)
		n = d->id == HWPERF_ID_CHILD ? 2 : d->id == HWPERF_ID_ZERO ? 0 : 1;
	return n + (d->arg == HWPERF_ARG_CTL_IN ? 1 : 0);
}

/* How many words of argv the name's words are, or 0 when they differ. */
static int name_words(const char *name, int argc, char *const *argv)
{
	int n = 0;

	if (!name)
		return 0;
	while (*name) {
		size_t len = strcspn(name, " ");

		if (n >= argc || strlen(argv[n]) != len || strncmp(argv[n], name, len) != 0)
			return 0;
		n++;
		name += len;
		while (*name == ' ')
			name++;
	}
	return n;
}

int hwperf_op_match(int argc, char *const *argv, bool *self, int *words)
{
	int first = -1, first_words = 0;
	bool first_self = false;

	for (int op = 0; op < HWPERF_OP_COUNT; op++) {
		for (int s = 0; s < 2; s++) {
			int w = name_words(s ? table[op].self_name : table[op].name, argc, argv);

			if (w == 0)
				continue;
			if (w + hwperf_op_arg_words(&table[op], s) == argc) {
				*self = s;
				*words = w;
				return op;
			}
			if (first < 0) {
				first = op;
				first_words = w;
				first_self = s;
			}
		}
	}
	*self = first_self;
	*words = first_words;
	return first;
}
