/*
 * proc_cmds.c - console commands for tasks: ps, spawn, kill, wait.
 *
 * The console is the task `console` (pid 1), uid 0: what it spawns are
 * its children, and `wait` reaps them.  Output lines are parseable:
 *
 *   pid N                       spawn
 *   exit N | signal SIGNAME     how a waited-for task ended
 *   interrupted: pid N left running ...   Ctrl-C during the wait
 *   rusage pid=N utime_us=... stime_us=... syscalls=... vcsw=... ivcsw=...
 *          faults=... tlb_user=... tlb_kernel=... signals=...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "console/cmd.h"
#include "console/console.h"
#include "proc/proc.h"
#include "proc/sched.h"
#include "proc/task.h"

#define NS_PER_US 1000u
#define OPT_PREFIX "--"

struct ps_row {
	int pid, ppid, pgid;
	unsigned uid;
	const char *state;
	int prio;
	int cpu, pin;
	uint64_t migrations;
	char name[TASK_NAME_MAX];
	struct tally_rusage ru;
};

static bool snapshot(unsigned slot, struct ps_row *r)
{
	bool live = false;

	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_slot(slot);
	if (t->state != TASK_FREE) {
		live = true;
		r->pid = t->pid;
		r->ppid = t->parent ? t->parent->pid : 0;
		r->pgid = t->pgid;
		r->uid = t->uid;
		r->state = task_state_name(t->state);
		r->prio = t->prio;
		r->cpu = t->cpu;
		r->pin = t->pin;
		r->migrations = t->migrations;
		memcpy(r->name, t->name, sizeof(r->name));
		acct_to_rusage(&t->acct, arch_cycles_hz(), &r->ru);
	}
	spin_unlock_irqrestore(&task_table_lock, f);
	return live;
}

static int cmd_ps(int argc, char **argv)
{
	struct ps_row r;

	(void)argv;
	if (argc != 1) {
		printf("error: usage: ps\n");
		return CMD_ERR_REPORTED;
	}
	/* Rows are copied under the lock and printed outside it, so a long
	 * listing does not hold interrupts off. */
	/* CPU: where it runs or last ran; PIN: the only CPU it may use,
	 * or '-'; MIGR: times it changed CPU.  Last, so older parsers of the
	 * first columns still work. */
	printf("  PID  PPID  PGID   UID STATE  PRI NAME             UTIME_US   STIME_US CPU PIN   MIGR\n");
	for (unsigned i = 0; i < TASK_MAX; i++) {
		char pin[8] = "-";

		if (!snapshot(i, &r))
			continue;
		if (r.pin >= 0)
			snprintf(pin, sizeof(pin), "%d", r.pin);
		printf("%5d %5d %5d %5u %-6s %3d %-16s %10llu %10llu %3d %3s %6llu\n",
		       r.pid, r.ppid, r.pgid, r.uid, r.state, r.prio, r.name,
		       (unsigned long long)(r.ru.utime_ns / NS_PER_US),
		       (unsigned long long)(r.ru.stime_ns / NS_PER_US), r.cpu, pin,
		       (unsigned long long)r.migrations);
	}
	return 0;
}
CONSOLE_CMD(ps, "tasks: pid, parent, group, uid, state, priority, name, times, cpu, pin, migrations",
	    "ps", cmd_ps);

static void print_end(int pid, int status, const struct task_acct *a)
{
	struct tally_rusage ru;

	char how[WAIT_TEXT_MAX];

	wait_status_text(status, how, sizeof(how));
	printf("%s\n", how);
	acct_to_rusage(a, arch_cycles_hz(), &ru);
	printf("rusage pid=%d utime_us=%llu stime_us=%llu syscalls=%llu vcsw=%llu "
	       "ivcsw=%llu faults=%llu tlb_user=%llu tlb_kernel=%llu signals=%llu\n",
	       pid, (unsigned long long)(ru.utime_ns / NS_PER_US),
	       (unsigned long long)(ru.stime_ns / NS_PER_US),
	       (unsigned long long)ru.syscalls, (unsigned long long)ru.vcsw,
	       (unsigned long long)ru.ivcsw, (unsigned long long)ru.faults,
	       (unsigned long long)ru.tlb_user, (unsigned long long)ru.tlb_kernel,
	       (unsigned long long)ru.signals);
}

/* Ctrl-C ends the wait, not the task: it is the person's to keep. */
static int wait_and_print(int pid)
{
	struct task_acct a;
	int status;

	console_intr_arm();
	int r = proc_waitpid(pid, &status, 0, &a);
	console_intr_disarm();
	if (r == -EINTR) {
		printf("interrupted: pid %d left running (`wait %d` reports its "
		       "end, `kill %d` ends it)\n", pid, pid, pid);
		return 0;
	}
	if (r < 0)
		return r;
	print_end(r, status, &a);
	return 0;
}

static int parse_id(const char *s, uint64_t max, uint64_t *out)
{
	return (s && parse_u64(s, 0, out) == 0 && *out <= max) ? 0 : -EINVAL;
}

#define SPAWN_USAGE "spawn [--uid N] [--pgid N] [--cpu N] [--wait] PROG [ARGS...]"

static int spawn_usage(const char *why)
{
	printf("error: spawn: %s (usage: %s)\n", why, SPAWN_USAGE);
	return CMD_ERR_REPORTED;
}

static int cmd_spawn(int argc, char **argv)
{
	/* The console's own uid: root, unless `as UID spawn ...` says otherwise. */
	struct spawn_req req = { .uid = current_task()->uid, .pgid = 0 };
	bool wait = false;
	uint64_t v;
	int i = 1;

	for (; i < argc && strncmp(argv[i], OPT_PREFIX, strlen(OPT_PREFIX)) == 0; i++) {
		if (strcmp(argv[i], "--wait") == 0) {
			wait = true;
		} else if (strcmp(argv[i], "--uid") == 0) {
			if (parse_id(argv[++i], UID_MAX, &v))
				return spawn_usage("--uid needs a number 0..65535");
			req.uid = (unsigned)v;
		} else if (strcmp(argv[i], "--pgid") == 0) {
			if (parse_id(argv[++i], PID_MAX, &v))
				return spawn_usage("--pgid needs a number 0..32767");
			req.pgid = (int)v;
		} else if (strcmp(argv[i], "--cpu") == 0) {
			const char *arg = argv[++i];
			if (!arg)
				return spawn_usage("--cpu needs a CPU number");
			if (parse_id(arg, CPU_MAX - 1, &v) || !cpu_get((unsigned)v)) {
				printf("error: spawn: ENODEV: no CPU '%s' runs tasks (0..%u)\n",
				       arg, cpu_count() - 1);
				return CMD_ERR_REPORTED;
			}
			req.pin = true;
			req.cpu = (unsigned)v;
		} else {
			return spawn_usage("unknown option");
		}
	}
	if (i >= argc)
		return spawn_usage("no program named");
	if (!task_is_root(current_task()) && req.uid != current_task()->uid) {
		printf("error: spawn: only root may start a task as another uid\n");
		return CMD_ERR_REPORTED;
	}
	req.prog = argv[i];
	req.argc = argc - i;
	req.argv = &argv[i];
	int pid = proc_spawn(&req);
	if (pid == -ENOENT) {
		printf("error: spawn: no program '%s' (see `programs`)\n", req.prog);
		return CMD_ERR_REPORTED;
	}
	if (pid == -EPERM) {
		printf("error: spawn: EPERM: uid %u may not join process group "
		       "%d: it holds no task of that uid\n", req.uid, req.pgid);
		return CMD_ERR_REPORTED;
	}
	if (pid < 0)
		return pid;
	printf("pid %d\n", pid);
	return wait ? wait_and_print(pid) : 0;
}
CONSOLE_CMD(spawn, "start a built-in user program; --wait reports how it ended",
	    SPAWN_USAGE, cmd_spawn);

static int cmd_wait(int argc, char **argv)
{
	uint64_t pid;

	if (argc != 2 || parse_id(argv[1], PID_MAX, &pid) || pid == 0) {
		printf("error: usage: wait PID\n");
		return CMD_ERR_REPORTED;
	}
	return wait_and_print((int)pid);
}
CONSOLE_CMD(wait, "wait for a task the console spawned; print how it ended",
	    "wait PID", cmd_wait);

static int cmd_kill(int argc, char **argv)
{
	int sig = SIGTERM;
	uint64_t pid;
	int i = 1;

	if (argc == 3 && argv[1][0] == '-') {
		sig = signal_parse(argv[1] + 1, true);
		if (sig < 0) {
			printf("error: kill: unknown signal '%s'\n", argv[1] + 1);
			return CMD_ERR_REPORTED;
		}
		i = 2;
	}
	if (argc != i + 1 || parse_id(argv[i], PID_MAX, &pid) || pid == 0) {
		printf("error: usage: kill [-SIG] PID\n");
		return CMD_ERR_REPORTED;
	}
	return proc_kill((int)pid, sig);
}
CONSOLE_CMD(kill, "send a signal (default SIGTERM) to a task", "kill [-SIG] PID", cmd_kill);

#define PIN_USAGE "pin PID CPU|-"

/* Repin a running user task: it moves at its CPU's next switch. */
static int cmd_pin(int argc, char **argv)
{
	uint64_t pid, cpu = 0;
	bool unpin = argc == 3 && strcmp(argv[2], "-") == 0;

	if (argc != 3 || parse_id(argv[1], PID_MAX, &pid) ||
	    (!unpin && parse_id(argv[2], CPU_MAX - 1, &cpu))) {
		printf("error: usage: " PIN_USAGE "\n");
		return CMD_ERR_REPORTED;
	}
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_find((int)pid);
	bool alive = t && t->state != TASK_NEW && t->state != TASK_ZOMBIE;
	spin_unlock_irqrestore(&task_table_lock, f);
	/* The console holds giant: t is not reaped meanwhile. */
	if (!alive) {
		printf("error: pin: ESRCH: no live task %llu\n", (unsigned long long)pid);
		return CMD_ERR_REPORTED;
	}
	int err = sched_set_pin(t, unpin ? -1 : (int)cpu);
	if (err == -ENODEV) {
		printf("error: pin: ENODEV: no CPU %llu runs tasks (0..%u)\n",
		       (unsigned long long)cpu, cpu_count() - 1);
		return CMD_ERR_REPORTED;
	}
	if (err == -EPERM) {
		printf("error: pin: EPERM: pid %llu is a kernel thread\n", (unsigned long long)pid);
		return CMD_ERR_REPORTED;
	}
	return err;
}
CONSOLE_CMD(pin, "pin a user task to one CPU (or '-' to let it run anywhere)",
	    PIN_USAGE, cmd_pin);
