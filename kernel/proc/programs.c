/*
 * programs.c - look up the embedded user programs by name.
 */
#include <stdio.h>
#include <string.h>

#include "console/cmd.h"
#include "proc/programs.h"

const struct program *program_find(const char *name)
{
	const struct program *const *p;

	SET_FOREACH(p, programs) {
		if (strcmp((*p)->name, name) == 0)
			return *p;
	}
	return NULL;
}

static int cmd_programs(int argc, char **argv)
{
	const struct program *const *p;

	if (cmd_extra_args(argc, argv))
		return CMD_ERR_REPORTED;
	SET_FOREACH(p, programs)
		printf("%s size=%zu\n", (*p)->name, (size_t)((*p)->end - (*p)->start));
	return 0;
}
CONSOLE_CMD(programs, "the user programs built into the kernel", "programs", cmd_programs);
