/*
 * proc.h - the life of a task: spawn, fork, exit, wait, kill.
 *
 * A task that ends becomes a ZOMBIE holding only its exit status, its
 * accounting and its table slot: its user pages go at once, its kernel
 * stack when its parent reaps it (waitpid), because until then the task
 * was still running on that stack.  A task whose parent ended first is
 * detached and freed by the next task to run after it exits.
 */
#ifndef TALLY_PROC_H
#define TALLY_PROC_H

#include <stdbool.h>
#include <stdint.h>

#include "proc/acct.h"

struct task;
struct trapframe;

#define SPAWN_ARGS_MAX 16               /* words after the program name */
#define SPAWN_ARG_BYTES 1024            /* all words together, with NULs */

struct spawn_req {
	const char *prog;
	int argc;                       /* argv[0] is the program name */
	char *const *argv;
	unsigned uid;
	int pgid;                       /* 0: a new group led by the task */
	/* pgid is the kernel's choice, not the requester's (a counted run
	 * joins the console's group so its caller may touch it, R8). */
	bool kernel_group;
	bool pin;                       /* run on cpu only (else anywhere) */
	unsigned cpu;
};

/* Start a built-in program as a child of the current task: its pid, or
 * -ENOENT (no such program), -EPERM (a group the requester may not join),
 * -EAGAIN, -ENOMEM, -ENOEXEC, -E2BIG, -EINVAL. */
int proc_spawn(const struct spawn_req *req);
/* Copy the current user task; the child returns 0 from the system call. */
int proc_fork(struct trapframe *tf);
/* End the current task with a WAIT_STATUS_* status. */
void proc_exit(int status) __attribute__((noreturn));
/*
 * Reap a child of the current task (pid > 0, or WAIT_ANY): its pid, and
 * its status and accounting; 0 with WNOHANG if none has ended; -ECHILD,
 * -EINTR, -EINVAL.
 */
int proc_waitpid(int pid, int *status, int options, struct task_acct *acct);
/* Signal pid (> 0), the caller's group (0) or group -pid (< -1) as the
 * current task.  sig 0 only checks.  -ESRCH, -EPERM, -EINVAL. */
int proc_kill(int pid, int sig);
/* Free a detached zombie that has left the CPU (sched.c). */
void proc_release(struct task *t);
/* Where a new user task starts on its own stack. */
void proc_user_entry(void *arg);

#endif
