/*
 * tally.h - the user program library: system calls and a few helpers.
 *
 * Every call returns what the kernel returned: a negative errno on
 * failure (errno_name() turns it into "EFAULT"), there is no global errno.
 */
#ifndef TALLY_USER_H
#define TALLY_USER_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/syscall_nr.h"
#include "kernel/uabi.h"

#define PAGE_SIZE 4096u

/* arch/<arch>/user/syscall.*: the trap itself. */
long __syscall6(long nr, long a0, long a1, long a2, long a3, long a4, long a5);
/* Returns from a signal handler into sys_sigreturn (never called). */
void __sigreturn_trampoline(void);

void exit(int code) __attribute__((noreturn));
long write(int fd, const void *buf, size_t len);
int getpid(void);
int getppid(void);
int getuid(void);
int setuid(unsigned uid);
int getpgid(int pid);
int setpgid(int pid, int pgid);
int fork(void);
int waitpid(int pid, int *status, int options);
int yield(void);
int sleep_ms(unsigned ms);
int kill(int pid, int sig);
/* Returns the previous handler, or a negative errno. */
long signal(int sig, void (*handler)(int));
/* args: the words after the name, NULL-terminated; may be NULL. */
int spawn(const char *name, const char *const *args);
/* The heap end (0 asks); a negative errno on failure. */
long brk(void *end);
int getrusage(int who, struct tally_rusage *ru);

/* Parse argv[i] as a decimal count, or print usage and exit. */
unsigned long arg_count(int argc, char **argv, int i, const char *usage);
/* arch/<arch>/user/sysloop.*: n getppid calls in a loop of known shape. */
void tally_sysloop(uint32_t n);
/* arch/<arch>/user/benchloop.*: n turns of the benchmark loop on *cell
 * (the shape of the kernel's arch_bench_loop; user/loop.c). */
void tally_bench_loop(uint32_t n, volatile uint32_t *cell);
/* arg_count for a loop count that must fit 32 bits (the loop programs). */
uint32_t arg_count32(int argc, char **argv, int i, const char *usage);

#endif
