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

#include "set.h"

#define CMD_ERR_REPORTED (-1000)
#define CMD_ARGV_MAX 32

typedef int (*cmd_fn)(int argc, char **argv);

struct cmd {
	const char *name;
	const char *summary;   /* one line, shown by `help` */
	const char *usage;     /* full usage, shown by `help NAME` */
	cmd_fn fn;
};

#define CONSOLE_CMD(cname, csummary, cusage, cfn) \
	static const struct cmd cmd_entry_##cname = { \
		.name = #cname, .summary = csummary, .usage = cusage, .fn = cfn }; \
	SET_ADD(cmds, cname, &cmd_entry_##cname)

SET_DECLARE(cmds, const struct cmd);

const struct cmd *cmd_find(const char *name);
/* Run one already-split command line; prints errors itself. */
int cmd_run(int argc, char **argv);

#endif
