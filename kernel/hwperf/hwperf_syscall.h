/*
 * hwperf_syscall.h - SYS_hwperf: the IRIX /proc counter ioctls and the
 * syssgi HWPERF_* commands as one system call (ops: hwperf/abi.h).
 */
#ifndef TALLY_HWPERF_SYSCALL_H
#define TALLY_HWPERF_SYSCALL_H

#include <stdint.h>

#include "arch_task.h"

struct trapframe;

/* a[0] op, a[1] pid or cpu, a[2] and a[3] user pointers (see abi.h). */
intptr_t sys_hwperf(const syscall_arg_t *a, struct trapframe *tf);

#endif
