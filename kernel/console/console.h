/*
 * console.h - the kernel's console: printf goes here, the shell reads here.
 */
#ifndef TALLY_CONSOLE_H
#define TALLY_CONSOLE_H

#include <stdarg.h>
#include <stdbool.h>

void console_init(void);
void console_putc(char c);
void console_write(const char *s);
/*
 * What one call prints stays together when several CPUs print: printf,
 * console_write and a task's write() chunk each hold the console's output
 * for their whole text (interrupts masked on this CPU; the innermost lock,
 * kernel/spinlock.h).  A CPU may take it again inside (a panic in the
 * middle of a line); a holder that keeps it past OUT_SPIN_MAX waits is
 * taken over, so a CPU that died printing silences no other.
 */
unsigned long console_out_lock(void);
void console_out_unlock(unsigned long flags);
/* Blocking read of one byte (idles the CPU while waiting). */
int console_getc(void);
/*
 * Ctrl-C while a command runs that listens for it: armed (its waits,
 * waitpid, end at once with -EINTR) or watching (it polls
 * console_intr_pending).  The byte then never reaches the line editor.
 * The command says what became of its task.  Each command starts
 * neither, with nothing pending; an unheard Ctrl-C goes to the editor.
 */
void console_intr_arm(void);
void console_intr_watch(void);
/* Stop interrupting waits (e.g. to reap a task just killed). */
void console_intr_disarm(void);
bool console_intr_pending(void);
/* The shell: never returns. */
void console_shell(void) __attribute__((noreturn));

#endif
