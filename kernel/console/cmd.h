/*
 * cmd.h - console commands, registered next to the code they drive.
 *
 *	static int cmd_uptime(int argc, char **argv) { ... }
 *	CONSOLE_CMD(uptime, "time since boot", "uptime", cmd_uptime);
 *
 * A command returns 0 on success or a negative errno; the shell prints
 * nothing extra for 0 and `error: NAME: ENAME` otherwise, unless the command
 * already printed its own error line (then it returns CMD_ERR_REPORTED).
 */
#ifndef TALLY_CMD_H
#define TALLY_CMD_H

#include <stdbool.h>

#include "set.h"

#define CMD_ERR_REPORTED (-1000)
#define CMD_ARGV_MAX 32

typedef int (*cmd_fn)(int argc, char **argv);

struct cmd {
	const char *name;
	const char *summary;   /* one line, shown by `help` */
	const char *usage;     /* full usage, shown by `help NAME` */
	cmd_fn fn;
	bool root_only;        /* changes the machine: other uids get EPERM */
};

#define CONSOLE_CMD_(cname, csummary, cusage, cfn, croot) \
	static const struct cmd cmd_entry_##cname = { \
		.name = #cname, .summary = csummary, .usage = cusage, .fn = cfn, \
		.root_only = croot }; \
	SET_ADD(cmds, cname, &cmd_entry_##cname)
#define CONSOLE_CMD(cname, csummary, cusage, cfn) \
	CONSOLE_CMD_(cname, csummary, cusage, cfn, false)
/* A command that changes the machine for everyone (stops, resets or
 * crashes it: crash, poweroff, reboot): `as UID` with UID != 0 gets
 * `error: EPERM: ...` and the command never runs.  The rest check the
 * uid where it matters (hwperf R3/R5/R8, kill, spawn --uid/--pgid); the
 * benchmarks that need SYSTEM mode SKIP for other uids. */
#define CONSOLE_CMD_ROOT(cname, csummary, cusage, cfn) \
	CONSOLE_CMD_(cname, csummary, cusage, cfn, true)

SET_DECLARE(cmds, const struct cmd);

const struct cmd *cmd_find(const char *name);
/* For a command that takes no arguments: true (after printing
 * `error: usage: ...`) when it was given some. */
bool cmd_extra_args(int argc, char **argv);
/* Run one already-split command line; prints errors itself. */
int cmd_run(int argc, char **argv);

#endif
