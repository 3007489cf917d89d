/*
 * apic.c - the local APIC.  On CPU 0 it routes the performance counters'
 * overflow interrupt (LVT PC) to VEC_APIC_PMI, where lapic_pmi_interrupt()
 * hands it to hwperf.  For SMP (smp.c) it sends INIT, startup and fixed
 * IPIs, and on each AP runs the LVT timer at HZ; CPU 0 only uses its
 * timer once, to measure its rate.
 *
 * CPU 0's tick and the devices stay on the 8259 pair, which reaches the
 * CPU through LINT0 (ExtINT, the firmware's "virtual wire") or straight to
 * INTR while the APIC is software-disabled; the APs keep LINT0 masked.
 * Enabling the APIC in software (SVR bit 8) is what lets an LVT entry or
 * an IPI deliver at all (SDM vol. 3A, 10.4.3).
 *
 * Register facts: SDM vol. 3A chapter 10 -- IA32_APIC_BASE (10.4.4,
 * Figure 10-5), the register map (Table 10-1), the version register
 * (10.4.8), the LVT (10.5.1, Figure 10-8), the SVR (10.9, Figure 10-23).
 * x2APIC mode (10.12) is used when the firmware left it on; Tally never
 * switches modes itself.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "apic.h"
#include "arch.h"
#include "cpu.h"
#include "irq.h"
#include "paging.h"
#include "pmu.h"
#include "pmu/lapic_pmi.h"
#include "smp.h"
#include "trap.h"

#define MSR_IA32_APIC_BASE 0x0000001bu
#define APIC_BASE_EXTD (1ull << 10)     /* x2APIC mode */
#define APIC_BASE_EN (1ull << 11)       /* APIC globally enabled */
#define APIC_BASE_ADDR_MASK 0x000ffffffffff000ull
#define CPUID_01_EDX_APIC (1u << 9)

#define LAPIC_REG_VERSION 0x030u
#define LAPIC_REG_SVR 0x0f0u
#define LAPIC_REG_LVT_LINT0 0x350u
#define VERSION_MAX_LVT_SHIFT 16
#define VERSION_MAX_LVT_MASK 0xffu
/* Max LVT Entry is the entry count - 1: the Pentium's 4 entries lack LVT
 * PC, P6 has 5 (4), Pentium 4 and later 6 or more (10.4.8). */
#define MAX_LVT_WITH_PMC 4u
#define SVR_VECTOR_MASK 0x000000ffu
#define SVR_APIC_ENABLE 0x00000100u
#define LVT_DELIVERY_EXTINT 0x7u
#define LAPIC_REG_ID 0x020u
#define LAPIC_REG_ICR_HIGH 0x310u
#define LAPIC_REG_LVT_TIMER 0x320u
#define LAPIC_REG_LVT_LINT1 0x360u
#define LAPIC_REG_LVT_ERROR 0x370u
#define LAPIC_REG_TIMER_INIT 0x380u
#define LAPIC_REG_TIMER_CUR 0x390u
#define LAPIC_REG_TIMER_DIV 0x3e0u
#define XAPIC_ID_SHIFT 24
#define XAPIC_ID_MAX 0xffu
/* Divide configuration 0011b: bus clock / 16 (10.5.4, Figure 10-10). */
#define TIMER_DIV_16 0x3u
#define TIMER_COUNT_MAX 0xffffffffu
#define LVT_TIMER_PERIODIC (1u << 17)

static const struct lapic_regs *regs;
static bool x2apic_mode;
static char why_not[80] = "apic_init() has not run";
static unsigned long spurious_vector, stray;

static const struct lapic_regs *find_apic(void)
{
	uint64_t base;
	volatile void *page;

	if (!(cpuid(CPUID_SIGNATURE, 0).edx & CPUID_01_EDX_APIC)) {
		snprintf(why_not, sizeof(why_not), "no local APIC (CPUID.01H:EDX.APIC = 0)");
		return NULL;
	}
	base = rdmsr(MSR_IA32_APIC_BASE);
	if (!(base & APIC_BASE_EN)) {
		/* Enabling it would move the 8259 off INTR: not done here. */
		snprintf(why_not, sizeof(why_not), "local APIC disabled by firmware (IA32_APIC_BASE.EN = 0)");
		return NULL;
	}
	if (base & APIC_BASE_EXTD) {
		x2apic_mode = true;
		return &lapic_x2apic_regs;
	}
	page = paging_map_mmio(base & APIC_BASE_ADDR_MASK);
	if (!page) {
		snprintf(why_not, sizeof(why_not), "local APIC at %#llx, above the boot map",
		         (unsigned long long)(base & APIC_BASE_ADDR_MASK));
		return NULL;
	}
	return lapic_xapic_regs((volatile uint32_t *)page);
}

/*
 * A software-disabled APIC holds every LVT entry masked (10.4.7.2), LINT0
 * included, and would stop the 8259 the moment it is enabled; so LINT0
 * becomes ExtINT, the virtual wire, as the firmware would have set it.
 * An APIC the firmware already enabled keeps its LINT0 as it is.
 */
static void software_enable(void)
{
	uint32_t svr = regs->read(LAPIC_REG_SVR);

	if (svr & SVR_APIC_ENABLE) {
		regs->write(LAPIC_REG_SVR, (svr & ~SVR_VECTOR_MASK) | VEC_APIC_SPURIOUS);
		return;
	}
	regs->write(LAPIC_REG_SVR, (svr & ~SVR_VECTOR_MASK) | SVR_APIC_ENABLE |
	            VEC_APIC_SPURIOUS);
	regs->write(LAPIC_REG_LVT_LINT0, LVT_DELIVERY_EXTINT << LVT_DELIVERY_SHIFT);
}

void apic_init(void)
{
	uint32_t max_lvt;

	regs = find_apic();
	if (!regs)
		return;
	max_lvt = (regs->read(LAPIC_REG_VERSION) >> VERSION_MAX_LVT_SHIFT) &
	          VERSION_MAX_LVT_MASK;
	if (max_lvt < MAX_LVT_WITH_PMC) {
		snprintf(why_not, sizeof(why_not), "local APIC has no LVT PC (Max LVT Entry %u)",
		         (unsigned)max_lvt);
		regs = NULL;
		return;
	}
	software_enable();
	if (lapic_pmi_init(regs, VEC_APIC_PMI) != 0) {
		snprintf(why_not, sizeof(why_not), "LVT PC refused vector %#x", VEC_APIC_PMI);
		return;
	}
	why_not[0] = '\0';
}

/* Vectors APIC_VECTOR_BASE..APIC_VECTOR_END - 1, interrupts off. */
void apic_interrupt(const struct trapframe *tf, bool user)
{
	switch (tf->vector) {
	case VEC_APIC_PMI:
		lapic_pmi_interrupt((uintptr_t)tf->rip, user ? PMU_MODE_U : PMU_MODE_K);
		return;
	case VEC_APIC_SPURIOUS:
		/* Not in service: no EOI (10.9). */
		spurious_vector++;
		return;
	case VEC_APIC_TIMER:
	case VEC_IPI_CALL:
	case VEC_IPI_RESCHED:
		smp_apic_vector((unsigned)tf->vector);
		regs->write(LAPIC_REG_EOI, 0);
		return;
	default:
		/* Nothing programs these; an EOI keeps lower vectors flowing. */
		stray++;
		if (regs)
			regs->write(LAPIC_REG_EOI, 0);
		return;
	}
}

void arch_pmi_info(struct irq_pmi_info *out)
{
	memset(out, 0, sizeof(*out));
	if (lapic_pmi_ready())
		snprintf(out->line, sizeof(out->line), "vector=%#x", lapic_pmi_vector());
	else
		snprintf(out->note, sizeof(out->note), "%s", why_not);
	out->count = lapic_pmi_count();
	out->spurious = lapic_pmi_spurious();
	out->extra_name = "apic-other";     /* spurious vector, unassigned vectors */
	out->extra_count = spurious_vector + stray;
}

int arch_pmi_self_test(char *why, size_t len)
{
	int r = lapic_pmi_self_ipi();

	if (r == -ENODEV)
		snprintf(why, len, "no PMI vector: %s", why_not);
	else if (r == -EBUSY)
		snprintf(why, len, "the APIC never finished sending the previous IPI");
	return r;
}

/* ---- what SMP needs: identity, IPIs, the LVT timer ---------------------- */

bool apic_usable(const char **why)
{
	if (why)
		*why = why_not;
	return regs != NULL;
}

uint32_t apic_id(void)
{
	uint32_t v;

	if (!regs)
		return 0;
	v = regs->read(LAPIC_REG_ID);
	/* xAPIC keeps the 8-bit id in 31:24; x2APIC's register is the id. */
	return x2apic_mode ? v : v >> XAPIC_ID_SHIFT;
}

int apic_send_ipi(uint32_t dest, uint32_t icr_low)
{
	unsigned polls = 0;

	if (!regs)
		return -ENODEV;
	if (x2apic_mode) {
		/* One 64-bit MSR; no delivery status to wait on (10.12.9). */
		wrmsr(X2APIC_MSR_OF(LAPIC_REG_ICR_LOW), ((uint64_t)dest << 32) | icr_low);
		return 0;
	}
	if (dest > XAPIC_ID_MAX)
		return -EINVAL;
	while (regs->read(LAPIC_REG_ICR_LOW) & ICR_DELIVERY_PENDING)
		if (++polls >= ICR_IDLE_POLLS)
			return -EBUSY;
	regs->write(LAPIC_REG_ICR_HIGH, dest << XAPIC_ID_SHIFT);
	/* Writing the low half is what sends. */
	regs->write(LAPIC_REG_ICR_LOW, icr_low);
	return 0;
}

/*
 * An AP's APIC after INIT is software-disabled with every LVT entry
 * masked.  Enable it with the same spurious vector as CPU 0, and keep
 * LINT0/LINT1 masked: the 8259 (ExtINT) and NMI wiring belong to CPU 0.
 */
void apic_ap_init(void)
{
	uint32_t svr = regs->read(LAPIC_REG_SVR);

	regs->write(LAPIC_REG_LVT_LINT0, LVT_MASKED);
	regs->write(LAPIC_REG_LVT_LINT1, LVT_MASKED);
	regs->write(LAPIC_REG_LVT_ERROR, LVT_MASKED);
	regs->write(LAPIC_REG_SVR, (svr & ~SVR_VECTOR_MASK) | SVR_APIC_ENABLE |
	            VEC_APIC_SPURIOUS);
	regs->write(LAPIC_REG_EOI, 0);
}

void apic_eoi(void)
{
	regs->write(LAPIC_REG_EOI, 0);
}

/*
 * The timer counts the APIC's bus clock divided by 16 (10.5.4).  One-shot
 * from the largest count, masked so no interrupt comes; the caller reads
 * how far it fell after a known number of TSC cycles.
 */
void apic_timer_free_run(void)
{
	regs->write(LAPIC_REG_TIMER_DIV, TIMER_DIV_16);
	regs->write(LAPIC_REG_LVT_TIMER, LVT_MASKED | VEC_APIC_TIMER);
	regs->write(LAPIC_REG_TIMER_INIT, TIMER_COUNT_MAX);
}

uint32_t apic_timer_count(void)
{
	return regs->read(LAPIC_REG_TIMER_CUR);
}

void apic_timer_stop(void)
{
	regs->write(LAPIC_REG_TIMER_INIT, 0);
	regs->write(LAPIC_REG_LVT_TIMER, LVT_MASKED | VEC_APIC_TIMER);
}

void apic_timer_periodic(uint32_t count)
{
	regs->write(LAPIC_REG_TIMER_DIV, TIMER_DIV_16);
	regs->write(LAPIC_REG_LVT_TIMER, LVT_TIMER_PERIODIC | VEC_APIC_TIMER);
	regs->write(LAPIC_REG_TIMER_INIT, count);
}
