/*
 * console.h - the kernel's console: printf goes here, the shell reads here.
 */
#ifndef TALLY_CONSOLE_H
#define TALLY_CONSOLE_H

#include <stdarg.h>

void console_init(void);
void console_putc(char c);
void console_write(const char *s);
/* Blocking read of one byte (idles the CPU while waiting). */
int console_getc(void);
/* The shell: never returns. */
void console_shell(void) __attribute__((noreturn));

#endif
