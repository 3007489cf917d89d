/*
 * uabi.h - everything user programs and the kernel agree on besides the
 * system call numbers: signal numbers, wait status, resource usage.
 *
 * Included by user/ as well, so it uses only fixed-width types.
 */
#ifndef TALLY_UABI_H
#define TALLY_UABI_H

#include <stdint.h>

/* ---- signals: the traditional Unix numbers ------------------------------ */
#define SIGHUP   1
#define SIGINT   2
#define SIGQUIT  3
#define SIGILL   4
#define SIGTRAP  5
#define SIGABRT  6
#define SIGBUS   7
#define SIGFPE   8
#define SIGKILL  9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
/* Signals are 1..SIG_MAX, so hwperf's overflow signals (1..32) all exist. */
#define SIG_MAX 32

/* Handler values with a meaning of their own (SYS_signal). */
#define SIG_DFL ((uintptr_t)0)
#define SIG_IGN ((uintptr_t)1)

/* ---- wait status ---------------------------------------------------------
 * Low 7 bits: the signal that killed the task, or 0 if it exited; then
 * bits 8..15: its exit code.  The usual macros read it. */
#define WAIT_SIG_MASK 0x7f
#define WAIT_CODE_SHIFT 8
#define WAIT_CODE_MASK 0xff
#define WAIT_STATUS_EXITED(code) (((code) & WAIT_CODE_MASK) << WAIT_CODE_SHIFT)
#define WAIT_STATUS_SIGNALED(sig) ((sig) & WAIT_SIG_MASK)
#define WIFEXITED(s)   (((s) & WAIT_SIG_MASK) == 0)
#define WEXITSTATUS(s) (((s) >> WAIT_CODE_SHIFT) & WAIT_CODE_MASK)
#define WIFSIGNALED(s) (((s) & WAIT_SIG_MASK) != 0)
#define WTERMSIG(s)    ((s) & WAIT_SIG_MASK)

#define WAIT_ANY (-1)           /* waitpid: any child */
#define WNOHANG 0x1             /* waitpid: return 0 instead of sleeping */

/* ---- resource usage (SYS_getrusage) -------------------------------------- */
#define RUSAGE_SELF     0
#define RUSAGE_CHILDREN 1       /* summed over reaped children */

struct tally_rusage {
	uint64_t utime_ns;      /* cycle counter, split at every kernel entry/exit */
	uint64_t stime_ns;
	uint64_t syscalls;
	uint64_t vcsw;          /* gave up the CPU: yield, sleep, wait */
	uint64_t ivcsw;         /* preempted */
	uint64_t faults;        /* page faults taken by the CPU */
	uint64_t tlb_user;      /* software TLB refills (MIPS), by mode */
	uint64_t tlb_kernel;
	uint64_t signals;       /* signals posted to the task */
};

#endif
