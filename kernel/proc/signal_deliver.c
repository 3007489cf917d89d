/*
 * signal_deliver.c - posting signals to tasks and acting on them at the
 * return to user mode.
 *
 * Pending and blocked bits change with interrupts masked: a counter
 * overflow may post a signal from interrupt context at any moment.
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "arch_task.h"
#include "pmu_kevent.h"
#include "proc/proc.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "proc/task.h"

void signal_send(struct task *t, int sig)
{
	irqflags_t f = arch_irq_save();
	t->acct.signals++;
	bool live = sigstate_post(&t->sig, sig);
	arch_irq_restore(f);
	/* A sleeping user task wakes to act on it (its wait says EINTR). */
	if (live && !t->kthread)
		sched_wakeup(t);
}

void signal_post_only(struct task *t, int sig)
{
	irqflags_t f = arch_irq_save();
	t->acct.signals++;
	sigstate_post(&t->sig, sig);
	arch_irq_restore(f);
}

void signal_send_fault(struct task *t, int sig)
{
	irqflags_t f = arch_irq_save();
	t->acct.signals++;
	sigstate_force(&t->sig, sig);
	arch_irq_restore(f);
}

static void kill_self(int sig)
{
	proc_exit(WAIT_STATUS_SIGNALED(sig));
}

void signal_deliver(struct trapframe *tf)
{
	struct task *t = current_task();

	irqflags_t f = arch_irq_save();
	int sig = sigstate_take(&t->sig);
	if (!sig) {
		arch_irq_restore(f);
		return;
	}
	enum sig_action act = sigstate_action(&t->sig, sig);
	uintptr_t handler = t->sig.handler[sig];
	uintptr_t restorer = t->sig.restorer[sig];
	if (act == SIGACT_HANDLER)
		t->sig.blocked |= SIG_BIT(sig);
	pmu_kernel_event(PMU_KEV_SIGNALS, PMU_MODE_K, 1, arch_tf_pc(tf));
	arch_irq_restore(f);

	if (act == SIGACT_TERMINATE)
		kill_self(sig);
	if (act == SIGACT_HANDLER && arch_signal_push(tf, sig, handler, restorer) < 0) {
		printf("fault: pid %d (%s): no room for the %s frame on its stack: SIGSEGV\n",
		       t->pid, t->name, signal_name(sig));
		kill_self(SIGSEGV);
	}
}

int signal_sigreturn(struct trapframe *tf)
{
	struct task *t = current_task();
	int sig = arch_signal_return(tf);

	if (sig < 0) {
		printf("fault: pid %d (%s): bad signal frame at sigreturn: SIGSEGV\n",
		       t->pid, t->name);
		kill_self(SIGSEGV);
	}
	irqflags_t f = arch_irq_save();
	if (signal_valid(sig))
		t->sig.blocked &= ~SIG_BIT(sig);
	arch_irq_restore(f);
	return 0;
}
