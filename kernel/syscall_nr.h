/*
 * syscall_nr.h - system call numbers: the ABI between user/ and the kernel.
 *
 * Shared by kernel/syscall.c (the one dispatch table) and user/lib.  Only
 * ever append: a number, once given, keeps its meaning.
 *
 *   x86-64: `syscall`, number in rax, arguments rdi rsi rdx r10 r8 r9,
 *           result in rax.
 *   MIPS:   `syscall`, number in v0, arguments a0 a1 a2 a3 t0 t1,
 *           result in v0; at, v1, t0-t9, hi and lo come back zero
 *           (clobbered, as under Linux o32), the rest as they went
 *           (docs/tasks.md, "The system call contract").
 * A result below zero is a negated errno (libc/include/errno.h).
 */
#ifndef TALLY_SYSCALL_NR_H
#define TALLY_SYSCALL_NR_H

#define SYS_exit        0   /* (int code) never returns */
#define SYS_write       1   /* (int fd, const void *buf, size_t len) -> bytes */
#define SYS_getpid      2
#define SYS_getppid     3
#define SYS_getuid      4
#define SYS_setuid      5   /* (unsigned uid) root only */
#define SYS_getpgid     6   /* (int pid) 0 = self */
#define SYS_setpgid     7   /* (int pid, int pgid) 0 = self / own pid */
#define SYS_fork        8   /* -> child pid in the parent, 0 in the child */
#define SYS_waitpid     9   /* (int pid, int *status, int options) -> pid */
#define SYS_yield      10
#define SYS_sleep      11   /* (unsigned ms) -> 0, or -EINTR */
#define SYS_kill       12   /* (int pid, int sig) */
#define SYS_signal     13   /* (int sig, handler, restorer) -> old handler */
#define SYS_sigreturn  14   /* only from the restorer trampoline */
#define SYS_spawn      15   /* (const char *name, const char *const *args) -> pid;
                             * args: the words after the name, NULL-ended, or NULL */
#define SYS_brk        16   /* (void *end) -> new end; 0 asks for the current */
#define SYS_getrusage  17   /* (int who, struct tally_rusage *ru) */
#define SYS_hwperf     18   /* (int op, int pid_or_cpu, void *arg, void *arg2)
                             * -> generation, 0 or -errno; ops: hwperf/abi.h */

#define SYS_COUNT      19

#endif
