/*
 * console_identity.c - who the console is when it asks for something: the
 * one answer every console command uses (hwperf_console.h).
 *
 * The console runs as its own task (pid PID_CONSOLE, uid 0).  `as UID CMD`
 * runs one command with the console's uid changed, so a person can see
 * what an ordinary user gets (EPERM for k-mode counters, R4/R8) without
 * writing a program; the uid is restored whatever the command does.
 * The uid is the whole of the identity: hwperf is asked as the kernel
 * (root) while it is 0, and as the console's own task otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "console/cmd.h"
#include "hwperf/hwperf_console.h"
#include "proc/task.h"

int hwperf_console_pid(void)
{
	return current_task()->pid;
}

struct hwperf_task *hwperf_console_caller(void)
{
	struct task *me = current_task();

	return task_is_root(me) ? NULL : &me->hw;
}

static int cmd_as(int argc, char **argv)
{
	uint64_t uid;

	if (argc < 3 || parse_u64(argv[1], 0, &uid) || uid > UID_MAX) {
		printf("error: usage: as UID COMMAND [ARGS...]   (UID 0..%u)\n", UID_MAX);
		return CMD_ERR_REPORTED;
	}
	if (cmd_find(argv[2]) && cmd_find(argv[2])->fn == cmd_as) {
		printf("error: as: cannot nest `as`\n");
		return CMD_ERR_REPORTED;
	}
	struct task *me = current_task();
	unsigned saved = me->uid;

	me->uid = (unsigned)uid;
	int r = cmd_run(argc - 2, argv + 2);
	me->uid = saved;
	/* cmd_run has already printed any error. */
	return r < 0 ? CMD_ERR_REPORTED : 0;
}
CONSOLE_CMD(as, "run one console command as another uid (to see EPERM)",
	    "as UID COMMAND [ARGS...]", cmd_as);
