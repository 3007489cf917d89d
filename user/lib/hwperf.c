/*
 * hwperf.c - the user side of SYS_hwperf: thin wrappers, plus the
 * console's own spec parser (kernel/hwperf/spec.c is linked in as is).
 */
#include <string.h>

#include "tally.h"
#include "tally_hwperf.h"
#include "user_machdep.h"
#include "kernel/hwperf/spec.h"

/* SYS_hwperf takes four arguments: the call inline, not __syscall6's
 * two calls (built without a frame pointer, as syscalls.c is). */
long hwp_call(int op, int id, const void *arg, const void *arg2)
{
	return user_syscall4(SYS_hwperf, op, id, (long)(uintptr_t)arg,
			     (long)(uintptr_t)arg2);
}

int hwp_enable(int pid, const struct hwperf_control *ctl)
{
	return (int)hwp_call(HWPERF_OP_ENABLE, pid, ctl, NULL);
}

int hwp_read(int pid, struct hwperf_counts *out)
{
	return (int)hwp_call(HWPERF_OP_READ, pid, out, NULL);
}

int hwp_read_rusage(int pid, struct hwperf_counts *out, struct hwperf_rusage *ru)
{
	return (int)hwp_call(HWPERF_OP_READ_RUSAGE, pid, out, ru);
}

int hwp_get_control(int pid, struct hwperf_control *out)
{
	return (int)hwp_call(HWPERF_OP_GET_CONTROL, pid, out, NULL);
}

int hwp_set_control(int pid, const struct hwperf_control *ctl)
{
	return (int)hwp_call(HWPERF_OP_SET_CONTROL, pid, ctl, NULL);
}

int hwp_release(int pid)
{
	return (int)hwp_call(HWPERF_OP_RELEASE, pid, NULL, NULL);
}

int hwp_save_child(int pid)
{
	return (int)hwp_call(HWPERF_OP_SAVE_CHILD, pid, NULL, NULL);
}

int hwp_profile_enable(int pid, const struct hwperf_control *ctl)
{
	return (int)hwp_call(HWPERF_OP_PROFILE, pid, ctl, NULL);
}

int hwp_pause(int pid)
{
	return (int)hwp_call(HWPERF_OP_PAUSE, pid, NULL, NULL);
}

int hwp_resume(int pid)
{
	return (int)hwp_call(HWPERF_OP_RESUME, pid, NULL, NULL);
}

int hwp_reset(int pid)
{
	return (int)hwp_call(HWPERF_OP_RESET, pid, NULL, NULL);
}

int hwp_pctr_read(int pid, struct hwperf_pctr *out)
{
	return (int)hwp_call(HWPERF_OP_PCTR_READ, pid, out, NULL);
}

int hwp_sys_acquire(const struct hwperf_control *ctl)
{
	return (int)hwp_call(HWPERF_OP_SYS_ACQUIRE, 0, ctl, NULL);
}

int hwp_sys_read(struct hwperf_counts *out)
{
	return (int)hwp_call(HWPERF_OP_SYS_READ, 0, out, NULL);
}

int hwp_cpu_read(int cpu, struct hwperf_counts *out)
{
	return (int)hwp_call(HWPERF_OP_CPU_READ, cpu, out, NULL);
}

int hwp_sys_get_control(struct hwperf_control *out)
{
	return (int)hwp_call(HWPERF_OP_SYS_GET_CONTROL, 0, out, NULL);
}

int hwp_sys_set_control(const struct hwperf_control *ctl)
{
	return (int)hwp_call(HWPERF_OP_SYS_SET_CONTROL, 0, ctl, NULL);
}

int hwp_sys_release(void)
{
	return (int)hwp_call(HWPERF_OP_SYS_RELEASE, 0, NULL, NULL);
}

int hwp_parse(const char *spec, struct hwperf_control *ctl, char *why, size_t len)
{
	struct hwperf_reason r;
	/* No PMU tables in user space: syntax only; names are the kernel's. */
	int err = hwperf_spec_parse(spec, NULL, ctl, &r);

	if (err && why && len)
		strlcpy(why, r.text, len);
	return err;
}

int hwp_format(const struct hwperf_control *ctl, char *buf, size_t len)
{
	return hwperf_spec_format(ctl, buf, len);
}
