/*
 * signal.h - per-task signal state, default actions and names.
 *
 * A signal is posted (pending bit set) from anywhere -- kill, a fault, a
 * counter overflow in an interrupt -- and acted on only on the task's way
 * back to user mode (signal_deliver), where its user context can be
 * changed safely.  A handler runs with its own signal blocked until it
 * returns through sigreturn, so an overflow signal that arrives faster
 * than the handler finishes does not nest without bound.
 *
 * The first half is pure bookkeeping on struct sigstate (host tested);
 * the second half acts on tasks (signal_deliver.c).
 */
#ifndef TALLY_SIGNAL_H
#define TALLY_SIGNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uabi.h"

#define SIG_BIT(sig) (1u << ((sig) - 1))

/*
 * pending changes on two CPUs at once: a sender (kill under giant, or an
 * overflow interrupt on the target's CPU) sets a bit while the target,
 * on its own CPU, takes another off on its way to user mode; masking
 * interrupts orders neither against the other CPU, so both sides change
 * it with one atomic read-modify-write and no bit is lost between them.
 * blocked and the handlers are changed by the task itself only.
 */
struct sigstate {
	uint32_t pending;
	uint32_t blocked;                       /* handlers now running */
	uintptr_t handler[SIG_MAX + 1];         /* SIG_DFL, SIG_IGN or a user pc */
	uintptr_t restorer[SIG_MAX + 1];        /* user trampoline into sigreturn */
};

enum sig_action {
	SIGACT_IGNORE,
	SIGACT_TERMINATE,
	SIGACT_HANDLER,
};

bool signal_valid(int sig);
/* "SIGSEGV"; numbers without a traditional name read "SIG20". */
const char *signal_name(int sig);
/* A wait status as every report words it: "exit 3" or "signal SIGSEGV"
 * (at most WAIT_TEXT_MAX with its NUL); snprintf's return. */
#define WAIT_TEXT_MAX 24
int wait_status_text(int status, char *buf, size_t len);
/* "SEGV", "SIGSEGV" or "11" -> 11; -EINVAL otherwise.  0 is accepted
 * ("does it exist?") only when allow_zero. */
int signal_parse(const char *s, bool allow_zero);

void sigstate_init(struct sigstate *s);
/* fork: handlers and blocked set are inherited, pending signals are not. */
void sigstate_fork(struct sigstate *child, const struct sigstate *parent);
/* SYS_signal: -EINVAL for a bad number or for SIGKILL, which is final. */
int sigstate_set_handler(struct sigstate *s, int sig, uintptr_t handler,
			 uintptr_t restorer, uintptr_t *old);
/* Mark sig pending.  Returns false if the task ignores it (dropped). */
bool sigstate_post(struct sigstate *s, int sig);
/* A fault signal must not be lost to a handler that is already running
 * or to SIG_IGN (the instruction would fault again forever): reset it to
 * the default action and post it. */
void sigstate_force(struct sigstate *s, int sig);
/* Lowest pending signal not blocked, taken off pending; 0 if none. */
int sigstate_take(struct sigstate *s);
bool sigstate_deliverable(const struct sigstate *s);
enum sig_action sigstate_action(const struct sigstate *s, int sig);

/* ---- acting on tasks (signal_deliver.c) --------------------------------- */
struct task;
struct trapframe;

/* Post sig to t and wake it if it sleeps.  Counts one signal received. */
void signal_send(struct task *t, int sig);
/* A fault in t's user code (see sigstate_force). */
void signal_send_fault(struct task *t, int sig);
/* Set sig pending without waking t: for callers that hold scheduler
 * locks (hwperf overflow); t sees it at its next return to user mode. */
void signal_post_only(struct task *t, int sig);
/* Act on the current task's pending signals; may not return (termination). */
void signal_deliver(struct trapframe *tf);
/* SYS_sigreturn: restore the context saved by delivery. */
int signal_sigreturn(struct trapframe *tf);

#endif
