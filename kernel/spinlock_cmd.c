/*
 * spinlock_cmd.c - `lockcheck`: make the lockdebug checks (spinlock.h)
 * fire on purpose, to prove that each can fail.  Both end in a panic
 * naming the lock, so they are refused unless lockdebug=1 is on: without
 * it the double take would spin forever.
 */
#include <stdio.h>
#include <string.h>

#include "console/cmd.h"
#include "proc/sched.h"
#include "spinlock.h"

#define LOCKCHECK_USAGE "lockcheck twice|sleep"

static struct spinlock lockcheck_lock = SPINLOCK_INIT("lockcheck");

static int cmd_lockcheck(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "twice") && strcmp(argv[1], "sleep"))) {
		printf("error: usage: " LOCKCHECK_USAGE "\n");
		return CMD_ERR_REPORTED;
	}
	if (!spin_debug_on()) {
		printf("error: lockcheck: EINVAL: lockdebug is off (boot with lockdebug=1); "
		       "the check would hang instead of panicking\n");
		return CMD_ERR_REPORTED;
	}
	irqflags_t f = spin_lock_irqsave(&lockcheck_lock);
	if (strcmp(argv[1], "twice") == 0)
		spin_lock(&lockcheck_lock);             /* panics: taken twice */
	else
		sched_sleep_ticks(1);                   /* panics: held across a sleep */
	spin_unlock_irqrestore(&lockcheck_lock, f);
	printf("error: lockcheck: the check did not fire\n");
	return CMD_ERR_REPORTED;
}
CONSOLE_CMD(lockcheck, "lockdebug=1 only: take a lock twice, or sleep holding one (panics)",
	    LOCKCHECK_USAGE, cmd_lockcheck);
