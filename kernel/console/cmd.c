/*
 * cmd.c - find and run console commands; `help`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "console/cmd.h"
#include "proc/task.h"

const struct cmd *cmd_find(const char *name)
{
	const struct cmd *const *c;

	SET_FOREACH(c, cmds) {
		if (strcmp((*c)->name, name) == 0)
			return *c;
	}
	return NULL;
}

bool cmd_extra_args(int argc, char **argv)
{
	if (argc <= 1)
		return false;
	const struct cmd *c = cmd_find(argv[0]);

	printf("error: usage: %s   (no arguments)\n", c ? c->usage : argv[0]);
	return true;
}

int cmd_run(int argc, char **argv)
{
	if (argc == 0)
		return 0;
	const struct cmd *c = cmd_find(argv[0]);
	if (!c) {
		printf("error: unknown command '%s' (try help)\n", argv[0]);
		return -ENOENT;
	}
	if (c->root_only && !task_is_root(current_task())) {
		printf("error: EPERM: %s changes the machine for everyone: root "
		       "only (uid %u)\n", c->name, current_task()->uid);
		return -EPERM;
	}
	int r = c->fn(argc, argv);
	if (r < 0 && r != CMD_ERR_REPORTED)
		printf("error: %s: %s (%s)\n", c->name, errno_name(r), errno_text(r));
	return r;
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd *c;
	const struct cmd *const *e;

	if (argc > 2) {
		printf("error: usage: help [COMMAND]\n");
		return CMD_ERR_REPORTED;
	}
	if (argc == 2) {
		c = cmd_find(argv[1]);
		if (!c) {
			printf("error: unknown command '%s' (try help)\n", argv[1]);
			return CMD_ERR_REPORTED;
		}
		printf("%s - %s\nusage: %s\n", c->name, c->summary, c->usage);
		return 0;
	}
	SET_FOREACH(e, cmds)
		printf("  %-10s %s\n", (*e)->name, (*e)->summary);
	return 0;
}
CONSOLE_CMD(help, "list commands, or show one command's usage", "help [COMMAND]", cmd_help);
