/*
 * reason.c - refusals are words (R20): every -errno comes with one line
 * that starts with the errno's name and says why.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "env.h"
#include "internal.h"

#define LOG_LINE_MAX (HWPERF_REASON_MAX + 32)

/* Only the errnos hwperf returns; the console has errno_name for others. */
const char *hwperf_errname(int err)
{
	switch (err < 0 ? -err : err) {
	case EPERM:  return "EPERM";
	case ESRCH:  return "ESRCH";
	case EFAULT: return "EFAULT";
	case EBUSY:  return "EBUSY";
	case ENODEV: return "ENODEV";
	case EINVAL: return "EINVAL";
	case EAGAIN: return "EAGAIN";
	case ETIMEDOUT: return "ETIMEDOUT";
	default:     return "E?";
	}
}

int hwperf_fail(struct hwperf_reason *why, int err, const char *fmt, ...)
{
	if (why) {
		int n = snprintf(why->text, sizeof(why->text), "%s: ",
		                 hwperf_errname(err));
		va_list ap;

		va_start(ap, fmt);
		if (n >= 0 && (size_t)n < sizeof(why->text))
			vsnprintf(why->text + n, sizeof(why->text) - (size_t)n,
			          fmt, ap);
		va_end(ap);
	}
	return err < 0 ? err : -err;
}

/* After the lock is dropped: a task's refusal also goes to the console.
 * The console's own requests (caller NULL) print their errors themselves. */
int hwperf_report(const struct hwperf_task *caller, int rc,
                  const struct hwperf_reason *why)
{
	char line[LOG_LINE_MAX];

	if (rc >= 0 || !caller)
		return rc;
	snprintf(line, sizeof(line), "pid %d: %s", hwperf_env_pid(caller),
	         why ? why->text : hwperf_errname(rc));
	hwperf_env_log(line);
	return rc;
}
