/*
 * console.c - kernel printf, console input and the `tally> ` shell.
 *
 * Output is polled on the serial line (kernel/platform.h) so it works with
 * interrupts off (panics); input arrives by interrupt into the line driver's
 * ring and is read here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "console/args.h"
#include "console/cmd.h"
#include "console/console.h"
#include "console/lineedit.h"
#include "proc/sched.h"
#include "proc/task.h"
#include "platform.h"

#define PROMPT "tally> "

#define CH_CTRL_C 0x03

static struct lineedit editor;
static struct task *shell_task;
static volatile bool cmd_running;       /* between Enter and the prompt */
static volatile bool intr_armed;
static volatile bool intr_watched;
static volatile bool intr_seen;

/*
 * Interrupt context: a Ctrl-C typed while a command that listens for it
 * runs is for that command.  Any other Ctrl-C goes to the line editor as
 * before, where it cancels whatever was typed ahead.
 */
static bool rx_filter(uint8_t b)
{
	if (b != CH_CTRL_C || !cmd_running || !(intr_armed || intr_watched))
		return false;
	intr_seen = true;
	if (intr_armed && shell_task) {
		shell_task->wait_intr = true;
		sched_wakeup(shell_task);
	}
	return true;
}

void console_intr_arm(void)
{
	irqflags_t f = arch_irq_save();

	intr_armed = true;
	if (intr_seen && shell_task)
		shell_task->wait_intr = true;   /* typed before the wait began */
	arch_irq_restore(f);
}

void console_intr_disarm(void)
{
	irqflags_t f = arch_irq_save();

	intr_armed = false;
	if (shell_task)
		shell_task->wait_intr = false;
	arch_irq_restore(f);
}

void console_intr_watch(void)
{
	intr_watched = true;
}

bool console_intr_pending(void)
{
	return intr_seen;
}

void console_init(void)
{
	platform_console_init();
}

void console_putc(char c)
{
	platform_console_putc(c);
}

void console_write(const char *s)
{
	while (*s)
		platform_console_putc(*s++);
}

static void put_cb(char c, void *arg)
{
	(void)arg;
	platform_console_putc(c);
}

int printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	irqflags_t f = arch_irq_save();   /* keep lines from interleaving */
	int n = vcbprintf(put_cb, NULL, fmt, ap);
	arch_irq_restore(f);
	va_end(ap);
	return n;
}

int console_getc(void)
{
	for (;;) {
		irqflags_t f = arch_irq_save();
		int c = platform_console_getc();
		if (c >= 0) {
			arch_irq_restore(f);
			return c;
		}
		/* Before the scheduler: idle, atomically re-enabling
		 * interrupts so a byte arriving now still wakes us.  After:
		 * let other tasks run until the next tick. */
		sched_wait_interrupt();
		arch_irq_restore(f);
	}
}

static void echo_cb(const char *s, size_t n, void *arg)
{
	(void)arg;
	while (n--)
		platform_console_putc(*s++);
}

static void run_line(char *line)
{
	char *argv[CMD_ARGV_MAX + 1];
	int argc = args_split(line, argv, CMD_ARGV_MAX);

	if (argc == -E2BIG)
		printf("error: too many words (max %d); line ignored\n", CMD_ARGV_MAX);
	else if (argc == -EINVAL)
		printf("error: unterminated quote; line ignored\n");
	else {
		intr_seen = false;
		cmd_running = true;
		cmd_run(argc, argv);
		cmd_running = false;
		intr_watched = false;
		console_intr_disarm();
	}
}

/* Bytes the serial hardware itself lost are named once, after the line they hit:
 * a script that pasted input must not trust a silently shortened line. */
static void report_overruns(void)
{
	static uint32_t reported;
	uint32_t now = platform_console_rx_overruns();

	if (now != reported) {
		printf("warning: console input: %u byte(s) lost in the UART "
		       "(receive overrun)\n", (unsigned)(now - reported));
		reported = now;
	}
}

void console_shell(void)
{
	le_init(&editor, echo_cb, NULL);
	shell_task = current_task();
	platform_console_set_rx_filter(rx_filter);
	console_write(PROMPT);
	for (;;) {
		char c = (char)console_getc();
		enum le_result r = le_feed(&editor, c);

		switch (r) {
		case LE_MORE:
			continue;
		case LE_LINE: {
			char line[LINE_MAX_LEN + 1];
			strlcpy(line, le_line(&editor), sizeof(line));
			run_line(line);
			break;
		}
		case LE_TOOLONG:
			printf("error: line too long (max %d characters); ignored\n",
			       LINE_MAX_LEN);
			break;
		case LE_CANCEL:
			break;
		}
		report_overruns();
		console_write(PROMPT);
	}
}

static int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	printf("\n");
	return 0;
}
CONSOLE_CMD(echo, "print the arguments", "echo [WORD...]", cmd_echo);
