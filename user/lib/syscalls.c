/*
 * syscalls.c - one thin wrapper per system call.
 */
#include "tally.h"
#include "user_machdep.h"

#define SC0(nr) user_syscall0((nr))
#define SC1(nr, a) user_syscall1((nr), (long)(a))
#define SC2(nr, a, b) user_syscall2((nr), (long)(a), (long)(b))
#define SC3(nr, a, b, c) user_syscall3((nr), (long)(a), (long)(b), (long)(c))

void exit(int code)
{
	for (;;)
		SC1(SYS_exit, code);
}

long write(int fd, const void *buf, size_t len)
{
	return SC3(SYS_write, fd, (uintptr_t)buf, len);
}

int getpid(void) { return (int)SC0(SYS_getpid); }
int getppid(void) { return (int)SC0(SYS_getppid); }
int getuid(void) { return (int)SC0(SYS_getuid); }
int setuid(unsigned uid) { return (int)SC1(SYS_setuid, uid); }
int getpgid(int pid) { return (int)SC1(SYS_getpgid, pid); }
int setpgid(int pid, int pgid) { return (int)SC2(SYS_setpgid, pid, pgid); }
int fork(void) { return (int)SC0(SYS_fork); }
int yield(void) { return (int)SC0(SYS_yield); }
int sleep_ms(unsigned ms) { return (int)SC1(SYS_sleep, ms); }
int kill(int pid, int sig) { return (int)SC2(SYS_kill, pid, sig); }

int waitpid(int pid, int *status, int options)
{
	return (int)SC3(SYS_waitpid, pid, (uintptr_t)status, options);
}

long signal(int sig, void (*handler)(int))
{
	return SC3(SYS_signal, sig, (uintptr_t)handler,
		   (uintptr_t)__sigreturn_trampoline);
}

int spawn(const char *name, const char *const *args)
{
	return (int)SC2(SYS_spawn, (uintptr_t)name, (uintptr_t)args);
}

long brk(void *end)
{
	return SC1(SYS_brk, (uintptr_t)end);
}

int getrusage(int who, struct tally_rusage *ru)
{
	return (int)SC2(SYS_getrusage, who, (uintptr_t)ru);
}
