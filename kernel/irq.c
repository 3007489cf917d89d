/*
 * irq.c - the board's 16 legacy interrupt lines (kernel/platform.h),
 * and the `irqs` command, which also shows the PMU's overflow interrupt.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "console/cmd.h"
#include "platform.h"
#include "irq.h"
#include "proc/task.h"
#include "pmu_kevent.h"

struct irq_line {
	irq_handler fn;
	void *arg;
	unsigned long count;
};

#define IRQS_USAGE "irqs [--test-pmi]\n" \
	"  ISA lines irqN count=C, spurious count=C, then the PMU's overflow\n" \
	"  interrupt: pmi LINE count=C spurious=S (x86 vector=0xNN, MIPS ip=N;\n" \
	"  pmi none (why) when it is not wired).  S counts interrupts that\n" \
	"  found no overflowed counter.\n" \
	"  --test-pmi (root): raise one on the PMU's line (x86: a self-IPI)\n" \
	"  and print pmi test LINE count=A->B spurious=C->D"

static struct irq_line lines[PLATFORM_IRQS];
static unsigned long spurious;

/* The arch has initialised the interrupt controller
 * in arch_init(); every line starts masked until a handler registers. */
void irq_init(void)
{
	for (unsigned i = 0; i < PLATFORM_IRQS; i++)
		platform_irq_mask(i);
}

int irq_register(unsigned irq, irq_handler fn, void *arg)
{
	if (irq >= PLATFORM_IRQS || !fn)
		return -EINVAL;
	if (lines[irq].fn)
		return -EBUSY;
	lines[irq].fn = fn;
	lines[irq].arg = arg;
	platform_irq_unmask(irq);
	return 0;
}

unsigned long irq_count(unsigned irq)
{
	return irq < PLATFORM_IRQS ? lines[irq].count : 0;
}

void irq_dispatch(unsigned irq)
{
	if (irq >= PLATFORM_IRQS || platform_irq_is_spurious(irq)) {
		spurious++;
		return;
	}
	struct irq_line *l = &lines[irq];
	l->count++;
	pmu_kernel_event(PMU_KEV_IRQS, trap_current_mode(), 1, 0);
	if (l->fn) {
		l->fn(l->arg);
	} else {
		/* Nobody asked for it: silence the line rather than storm. */
		platform_irq_mask(irq);
		spurious++;
	}
	platform_irq_eoi(irq);
}

static void print_pmi(const struct irq_pmi_info *p)
{
	printf("pmi %s count=%lu spurious=%lu%s%s%s\n",
	       p->line[0] ? p->line : "none", p->count, p->spurious,
	       p->note[0] ? " (" : "", p->note, p->note[0] ? ")" : "");
	if (p->extra_name)
		printf("%s count=%lu\n", p->extra_name, p->extra_count);
}

/* How long the self-test waits for its interrupt: it is taken at once on
 * the instruction after the APIC write, so this only bounds a failure. */
#define PMI_TEST_WAIT_DIV 100   /* 1/100 s */

static int pmi_test(void)
{
	struct irq_pmi_info before, after;
	char why[96] = "";
	uint64_t start, limit = arch_cycles_hz() / PMI_TEST_WAIT_DIV;
	int r;

	if (!task_is_root(current_task())) {
		printf("error: irqs --test-pmi: EPERM: root only\n");
		return CMD_ERR_REPORTED;
	}
	arch_pmi_info(&before);
	r = arch_pmi_self_test(why, sizeof(why));
	if (r < 0) {
		printf("error: irqs --test-pmi: %s: %s\n", errno_name(r), why);
		return CMD_ERR_REPORTED;
	}
	start = arch_cycles();
	do
		arch_pmi_info(&after);
	while (after.count == before.count && arch_cycles() - start < limit);
	if (after.count == before.count) {
		printf("error: irqs --test-pmi: EIO: no interrupt on %s "
		       "within 10 ms\n", before.line);
		return CMD_ERR_REPORTED;
	}
	printf("pmi test %s count=%lu->%lu spurious=%lu->%lu\n", after.line,
	       before.count, after.count, before.spurious, after.spurious);
	return 0;
}

static int cmd_irqs(int argc, char **argv)
{
	struct irq_pmi_info pmi;

	if (argc == 2 && strcmp(argv[1], "--test-pmi") == 0)
		return pmi_test();
	if (argc != 1) {
		printf("error: usage: %s\n", IRQS_USAGE);
		return CMD_ERR_REPORTED;
	}
	for (unsigned i = 0; i < PLATFORM_IRQS; i++) {
		if (lines[i].fn || lines[i].count)
			printf("irq%u count=%lu\n", i, lines[i].count);
	}
	printf("spurious count=%lu\n", spurious);
	arch_pmi_info(&pmi);
	print_pmi(&pmi);
	return 0;
}
CONSOLE_CMD(irqs, "interrupt counts per ISA line and the PMU's overflow interrupt",
            IRQS_USAGE, cmd_irqs);
