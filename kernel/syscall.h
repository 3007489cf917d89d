/*
 * syscall.h - the one system call table (numbers: syscall_nr.h).
 */
#ifndef TALLY_SYSCALL_H
#define TALLY_SYSCALL_H

#include <stdbool.h>
#include <stdint.h>

#include "arch_task.h"
#include "syscall_nr.h"

#define SYSCALL_ARGS 6
/* A handler's result meaning "the user context was replaced (sigreturn):
 * do not write a return value into it".  No call returns it otherwise:
 * below every -errno, and no address a call returns (brk) is negative.
 * Small enough for a sign-extended 32-bit immediate, so that x86_64
 * compares with it in one instruction. */
#define SYSCALL_FRAME_REPLACED ((intptr_t)-0x40000000)

struct trapframe;

/* Runs system call nr for the current task: its result, -ENOSYS for an
 * unknown number (any register value: a word, so nothing is truncated
 * into range). */
intptr_t syscall_dispatch(uintptr_t nr, const syscall_arg_t args[SYSCALL_ARGS],
			  struct trapframe *tf);
/* A handler: the call's arguments (SYSCALL_ARGS of them) and its frame. */
typedef intptr_t (*syscall_fn)(const syscall_arg_t *a, struct trapframe *tf);
/* syscall_dispatch's handler for nr, one that returns -ENOSYS for an
 * unknown number: for an arch whose entry calls the handler itself
 * (arch/mips/vectors.S), after its cut, so that nothing between them
 * keeps a stack frame. */
syscall_fn syscall_handler(uintptr_t nr);
/* Every number below SYS_COUNT has a handler (dispatch tests no NULL);
 * x86_64's syscall_init checks it at every boot. */
bool syscall_table_complete(void);

#endif
