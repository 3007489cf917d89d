/*
 * errno.c - error numbers back to their names, for the console.
 *
 * Scripts read the console and match on the names, so a name printed here
 * is part of the console's format: never rename one.
 */
#include <errno.h>
#include <stddef.h>

struct errno_desc {
	int num;
	const char *name;
	const char *text;
};

static const struct errno_desc errno_table[] = {
	{ 0,       "OK",      "success" },
	{ EPERM,   "EPERM",   "operation not permitted" },
	{ ENOENT,  "ENOENT",  "no such file or entry" },
	{ ESRCH,   "ESRCH",   "no such task" },
	{ EINTR,   "EINTR",   "interrupted" },
	{ EIO,     "EIO",     "input/output error" },
	{ E2BIG,   "E2BIG",   "argument list too long" },
	{ ENOEXEC, "ENOEXEC", "not an executable" },
	{ EBADF,   "EBADF",   "bad descriptor" },
	{ ECHILD,  "ECHILD",  "no child task" },
	{ EAGAIN,  "EAGAIN",  "try again" },
	{ ENOMEM,  "ENOMEM",  "out of memory" },
	{ EACCES,  "EACCES",  "permission denied" },
	{ EFAULT,  "EFAULT",  "bad address" },
	{ EBUSY,   "EBUSY",   "device or resource busy" },
	{ EEXIST,  "EEXIST",  "already exists" },
	{ ENODEV,  "ENODEV",  "no such device" },
	{ EINVAL,  "EINVAL",  "invalid argument" },
	{ ENOSPC,  "ENOSPC",  "no space left" },
	{ ERANGE,  "ERANGE",  "result out of range" },
	{ ENOSYS,  "ENOSYS",  "function not implemented" },
	{ ENOTSUP, "ENOTSUP", "operation not supported" },
	{ ETIMEDOUT, "ETIMEDOUT", "timed out" },
};

/*
 * Kernel functions return -ENAME and user code sees ENAME, so both signs
 * name the same error.  Unknown numbers get one fixed string rather than a
 * formatted "E123": that would need a shared buffer, which two CPUs (or a
 * task and an interrupt) could overwrite under each other; a caller that
 * wants the number prints it alongside.
 */
static const struct errno_desc *errno_find(int err)
{
	size_t i;

	for (i = 0; i < sizeof(errno_table) / sizeof(errno_table[0]); i++) {
		/* Comparing both signs avoids negating INT_MIN. */
		if (errno_table[i].num == err || -errno_table[i].num == err)
			return &errno_table[i];
	}
	return NULL;
}

const char *errno_name(int err)
{
	const struct errno_desc *d = errno_find(err);

	return d ? d->name : "E?";
}

const char *errno_text(int err)
{
	const struct errno_desc *d = errno_find(err);

	return d ? d->text : "unknown error";
}
