/*
 * syscall.h - the one system call table (numbers: syscall_nr.h).
 */
#ifndef TALLY_SYSCALL_H
#define TALLY_SYSCALL_H

#include <stdint.h>

#include "arch_task.h"
#include "syscall_nr.h"

#define SYSCALL_ARGS 6
/* A handler's result meaning "the user context was replaced (sigreturn):
 * do not write a return value into it". */
#define SYSCALL_FRAME_REPLACED INTPTR_MIN

struct trapframe;

/* Runs system call nr for the current task: its result, -ENOSYS for an
 * unknown number. */
intptr_t syscall_dispatch(unsigned nr, const syscall_arg_t args[SYSCALL_ARGS],
			  struct trapframe *tf);

#endif
