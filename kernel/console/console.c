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

/* The output lock (console.h): the CPU holding it + 1 (0: free), and how
 * many times that CPU took it. */
static unsigned out_owner;
static unsigned out_depth;
/* About a second of pause loops on QEMU: a line takes microseconds. */
#define OUT_SPIN_MAX (1u << 26)

unsigned long console_out_lock(void)
{
	irqflags_t f = arch_irq_save();
	unsigned me = arch_cpu_id() + 1, free_ = 0;

	if (__atomic_load_n(&out_owner, __ATOMIC_RELAXED) == me) {
		out_depth++;
		return f;
	}
	for (unsigned spins = 0;
	     !__atomic_compare_exchange_n(&out_owner, &free_, me, false,
	                                  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
	     free_ = 0) {
		if (++spins == OUT_SPIN_MAX) {
			__atomic_store_n(&out_owner, me, __ATOMIC_RELAXED);
			break;
		}
		arch_cpu_relax();
	}
	out_depth = 1;
	return f;
}

void console_out_unlock(unsigned long flags)
{
	if (--out_depth == 0)
		__atomic_store_n(&out_owner, 0, __ATOMIC_RELEASE);
	arch_irq_restore(flags);
}

void console_putc(char c)
{
	irqflags_t f = console_out_lock();

	platform_console_putc(c);
	console_out_unlock(f);
}

void console_write(const char *s)
{
	irqflags_t f = console_out_lock();

	while (*s)
		platform_console_putc(*s++);
	console_out_unlock(f);
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
	irqflags_t f = console_out_lock();   /* keep lines from interleaving */
	int n = vcbprintf(put_cb, NULL, fmt, ap);
	console_out_unlock(f);
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
	irqflags_t f = console_out_lock();

	(void)arg;
	while (n--)
		platform_console_putc(*s++);
	console_out_unlock(f);
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
