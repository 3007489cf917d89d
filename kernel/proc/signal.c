/*
 * signal.c - signal numbers, names and per-task signal bookkeeping.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc/signal.h"

#define SIG_PREFIX "SIG"
#define SIG_PREFIX_LEN 3

/* Index = signal number; every valid number has an entry. */
static const char *const names[SIG_MAX + 1] = {
	"SIG0", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
	"SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2",
	"SIGPIPE", "SIGALRM", "SIGTERM", "SIG16", "SIGCHLD", "SIG18", "SIG19",
	"SIG20", "SIG21", "SIG22", "SIG23", "SIG24", "SIG25", "SIG26", "SIG27",
	"SIG28", "SIG29", "SIG30", "SIG31", "SIG32",
};

bool signal_valid(int sig)
{
	return sig >= 1 && sig <= SIG_MAX;
}

const char *signal_name(int sig)
{
	return (sig >= 0 && sig <= SIG_MAX) ? names[sig] : "SIG?";
}

int wait_status_text(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		return snprintf(buf, len, "signal %s", signal_name(WTERMSIG(status)));
	return snprintf(buf, len, "exit %d", WEXITSTATUS(status));
}

int signal_parse(const char *s, bool allow_zero)
{
	uint64_t n;

	if (parse_u64(s, 10, &n) == 0) {
		if ((n == 0 && allow_zero) || (n >= 1 && n <= SIG_MAX))
			return (int)n;
		return -EINVAL;
	}
	if (strncmp(s, SIG_PREFIX, SIG_PREFIX_LEN) == 0)
		s += SIG_PREFIX_LEN;
	for (int sig = 1; sig <= SIG_MAX; sig++) {
		if (strcmp(names[sig] + SIG_PREFIX_LEN, s) == 0)
			return sig;
	}
	return -EINVAL;
}

/* Signals whose default is to do nothing; every other one terminates. */
static bool default_ignored(int sig)
{
	return sig == SIGCHLD;
}

void sigstate_init(struct sigstate *s)
{
	memset(s, 0, sizeof(*s));
}

void sigstate_fork(struct sigstate *child, const struct sigstate *parent)
{
	*child = *parent;
	child->pending = 0;
}

/* One atomic step: a bit another CPU sets meanwhile stays (signal.h). */
static void pending_clear(struct sigstate *s, int sig)
{
	__atomic_fetch_and(&s->pending, ~SIG_BIT(sig), __ATOMIC_RELAXED);
}

int sigstate_set_handler(struct sigstate *s, int sig, uintptr_t handler,
			 uintptr_t restorer, uintptr_t *old)
{
	if (!signal_valid(sig) || sig == SIGKILL)
		return -EINVAL;
	if (old)
		*old = s->handler[sig];
	s->handler[sig] = handler;
	s->restorer[sig] = restorer;
	/* A signal that is now ignored must not stay pending. */
	if (sigstate_action(s, sig) == SIGACT_IGNORE)
		pending_clear(s, sig);
	return 0;
}

enum sig_action sigstate_action(const struct sigstate *s, int sig)
{
	if (sig == SIGKILL)
		return SIGACT_TERMINATE;
	if (s->handler[sig] == SIG_IGN)
		return SIGACT_IGNORE;
	if (s->handler[sig] == SIG_DFL)
		return default_ignored(sig) ? SIGACT_IGNORE : SIGACT_TERMINATE;
	return SIGACT_HANDLER;
}

bool sigstate_post(struct sigstate *s, int sig)
{
	if (sigstate_action(s, sig) == SIGACT_IGNORE)
		return false;
	__atomic_fetch_or(&s->pending, SIG_BIT(sig), __ATOMIC_RELAXED);
	return true;
}

void sigstate_force(struct sigstate *s, int sig)
{
	if ((s->blocked & SIG_BIT(sig)) || s->handler[sig] == SIG_IGN) {
		s->handler[sig] = SIG_DFL;
		s->blocked &= ~SIG_BIT(sig);
	}
	__atomic_fetch_or(&s->pending, SIG_BIT(sig), __ATOMIC_RELAXED);
}

bool sigstate_deliverable(const struct sigstate *s)
{
	/* SIGKILL cannot be blocked: it ends even a task inside a handler. */
	return (s->pending & ~s->blocked) || (s->pending & SIG_BIT(SIGKILL));
}

int sigstate_take(struct sigstate *s)
{
	uint32_t ready = __atomic_load_n(&s->pending, __ATOMIC_RELAXED) &
	                 (~s->blocked | SIG_BIT(SIGKILL));

	if (!ready)
		return 0;
	int sig = __builtin_ctz(ready) + 1;
	pending_clear(s, sig);
	return sig;
}
