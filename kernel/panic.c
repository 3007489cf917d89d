/*
 * panic.c - stop the kernel with a message that stays on the console.
 *
 * By default a panic halts, so a person at a board can read the dump.
 * Tests and board labs boot with onpanic=exit to get a status instead.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "bootargs.h"
#include "console/cmd.h"
#include "console/console.h"
#include "panic.h"

BOOTARG(onpanic, "after a panic: halt (default), exit (leave QEMU with status 3) or reboot");

static volatile int panicking;

static void put_cb(char c, void *arg)
{
	(void)arg;
	console_putc(c);
}

void panic(const char *fmt, ...)
{
	va_list ap;

	arch_irq_save();
	if (panicking++) {      /* a fault while panicking: stop quietly */
		arch_halt();
	}
	/* The whole report in one piece; let go before stopping, so the
	 * other CPUs' output goes on (console.h). */
	unsigned long out = console_out_lock();
	console_write("\npanic: ");
	va_start(ap, fmt);
	vcbprintf(put_cb, NULL, fmt, ap);
	va_end(ap);
	printf("\n");
	arch_dump_stack();

	const char *what = bootarg_get("onpanic");
	if (what && strcmp(what, "exit") == 0) {
		printf("panic: leaving with status %d (onpanic=exit)\n", PANIC_EXIT_CODE);
		arch_exit(PANIC_EXIT_CODE);
	}
	if (what && strcmp(what, "reboot") == 0)
		arch_reboot();
	printf("panic: system halted\n");
	console_out_unlock(out);
	arch_irq_save();
	arch_halt();
}

static int cmd_crash(int argc, char **argv)
{
	if (argc != 2) {
		printf("error: usage: crash KIND|list\n");
		return CMD_ERR_REPORTED;
	}
	if (strcmp(argv[1], "panic") == 0)
		panic("requested from the console");
	int r = arch_crash(argv[1]);
	if (r == -EINVAL) {
		printf("error: crash: unknown kind '%s' (try crash list)\n", argv[1]);
		return CMD_ERR_REPORTED;
	}
	return r;
}
CONSOLE_CMD_ROOT(crash, "raise a CPU exception in the kernel, to test the trap path",
	    "crash KIND|panic|list   (the kernel panics; see boot argument onpanic)",
	    cmd_crash);
