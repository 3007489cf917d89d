/*
 * timer.c - CP0 Count as the cycle counter and Count/Compare as the tick.
 *
 * Count is 32 bits wide and, on QEMU's Malta, ticks every 6 ns, so it wraps
 * about every 26 s; arch_cycles() extends it to 64 bits by noticing the
 * wrap on each read.  That needs the extension updated at least once per
 * wrap, which each CPU's tick guarantees (timer_count_tick: CPU 0's
 * timer_interrupt, a VPE's vpe_tick); arch_cycles itself updates it only
 * when it finds a wrap.
 *
 * The tick is kept drift-free by stepping Compare by exactly one period
 * from its previous value rather than from "now"; a handler that runs late
 * catches up by delivering the missed ticks.
 */
#include "arch.h"
#include "count_ext.h"
#include "cp0.h"
#include "time/cycle_rate.h"
#include "mips.h"
#include "pcpu.h"

#include <stdio.h>

#define COUNT_HZ_MIN        1000000u        /* below this the measurement failed */
#define COUNT_HZ_MAX        4000000000u
#define COUNT_HZ_FALLBACK   100000000u
/* More missed periods than this means time jumped: resynchronise instead. */
#define CATCHUP_MAX         100u
/* A passed Compare moved this fraction of a period ahead (timer_yield_vcpu). */
#define YIELD_REPEND_DIV    64u

/* Each CPU's extension is in its pcpu block (a 34K VPE reads its own
 * Count: two CPUs sharing one pair would each take the other's later
 * reading for a wrap), reached through DESAVE in one mfc0 (pcpu.h) where
 * indexing a table by the CPU number took six instructions a read. */
static uint64_t count_hz;
static uint32_t period;
static uint32_t next_compare;
static unsigned ip_line = IP_TIMER_DEFAULT;
static unsigned long ticks_missed, resyncs;

/* A wrap since this CPU's extension was last updated: record it with
 * interrupts off (the tick updates the same words). */
static __attribute__((noinline)) uint64_t cycles_wrapped(struct count_ext *e)
{
	irqflags_t flags = arch_irq_save();
	uint64_t v = count_ext_read(e, cp0_read_count());

	arch_irq_restore(flags);
	return v;
}

/*
 * Without masking interrupts (count_ext_peek): last, then high, then
 * Count, in that order -- volatile loads, and the Count read is a memory
 * barrier for the compiler.  About 10 instructions less than a read
 * under arch_irq_save, on every switch's accounting (docs/costs.md).
 */
uint64_t arch_cycles(void)
{
	struct count_ext *e = &pcpu_here()->cext;
	uint32_t last = *(volatile uint32_t *)&e->last;
	uint32_t high = *(volatile uint32_t *)&e->high;
	uint64_t v;

	if (count_ext_peek(last, high, cp0_read_count(), &v))
		return v;
	return cycles_wrapped(e);
}

void timer_count_tick(uint32_t now)
{
	(void)count_ext_read(&pcpu_here()->cext, now);
}

void timer_cpu_start(uint64_t ref)
{
	count_ext_seed(&pcpu_here()->cext, ref, cp0_read_count());
}

/*
 * QEMU 7.2 without MTTCG (as under -icount) runs the vCPUs in turn on one
 * host thread, each until the next timer deadline of the virtual clock.
 * A CPU that spins waiting for another with interrupts off (hwperf's
 * cross-CPU calls hold its lock) is never made to stop, so the other
 * gets no turn at all: measured, a VPE never ran again until CPU 0 gave
 * up its call after 50 ticks (-d exec: no TB of VPE 1 in 93 M).  A write
 * to Compare re-arms this CPU's QEMU timer; as the earliest deadline it
 * ends this vCPU's turn at once and the next one runs.
 * Compare keeps its value while it is ahead of Count.  Passed (a tick
 * pending behind masked interrupts; the write clears it), it is set a
 * 64th of a period ahead, so that the tick pends again at once: moved
 * half a period, a waiter that yielded often pushed CPU 0's ticks away
 * (measured, `bench run stress -n 2` without -icount: 232 s instead of
 * 14 s, and spinners that ran to their end).  The other vCPU's turn then
 * lasts until that deadline, enough to answer a call.  The handler counts
 * what is due from its own next_compare, so no tick is lost or added.
 * On hardware the write costs a few cycles and changes nothing.
 */
void timer_yield_vcpu(void)
{
	irqflags_t f = arch_irq_save();
	uint32_t cmp = cp0_read_compare();

	/* The write also clears a match that came between the read of Count
	 * and the write (a host that holds the vCPU up makes that window
	 * long): unless Compare is still ahead after the write, or Count met
	 * it since (timer_match_seen), set it again from now.  Measured
	 * without this: CPU 0 lost its tick until Count wrapped. */
	for (;;) {
		uint32_t now = cp0_read_count();

		if ((int32_t)(cmp - now) <= 0)
			cmp = now + period / YIELD_REPEND_DIV;
		cp0_write_compare(cmp);
		if ((int32_t)(cmp - cp0_read_count()) > 0 || timer_match_seen())
			break;
	}
	arch_irq_restore(f);
}

/*
 * Under -icount the write that makes this vCPU yield ends its turn, and
 * its next instruction runs only once the other vCPU has run to the
 * next deadline, which is at or after the Compare just written: Count
 * has always passed it by then.  A loop that stepped Compare until it
 * was ahead of Count never ended (measured with `bench run stress` on two
 * VPEs: VPE 1 read Count 1,640,617 past the Compare it had just written,
 * about a period, at every step, and stepped forever; every test of
 * "ahead" failed).  Cause.TI tells the one case that needs another write
 * (written behind Count) from the one that does not (met since).
 * Release 2 only: before it the line's IP bit is also the counters'.
 */
static bool has_ti;

bool timer_match_seen(void)
{
	return has_ti && (cp0_read_cause() & CAUSE_TI);
}

uint64_t arch_cycles_hz(void)
{
	return count_hz;
}

void timer_stats(struct timer_stats *st)
{
	st->period = period;
	st->next_compare = next_compare;
	st->ticks_missed = ticks_missed;
	st->resyncs = resyncs;
	st->count_behind = 0;
	for (unsigned c = 0; c < CPU_MAX; c++)
		st->count_behind += __atomic_load_n(&mips_pcpu[c].cext.behind, __ATOMIC_RELAXED);
}

unsigned timer_ip(void)
{
	return ip_line;
}

/* IntCtl names the timer's line on Release 2; before that it is IP7. */
static unsigned find_timer_ip(void)
{
	unsigned ip;

	if (!cp0_is_release2())
		return IP_TIMER_DEFAULT;
	ip = cp0_field(cp0_read_intctl(), INTCTL_IPTI_MASK, INTCTL_IPTI_SHIFT);
	return ip >= IP_I8259 ? ip : IP_TIMER_DEFAULT;
}

/*
 * CPU 0's tick, which also keeps the wall clock (a VPE's is smp.c's
 * mips_vpe_tick, intr.c tells them apart).
 * From intr_dispatch, with interrupts off (mips_trap runs an interrupt
 * with them off), so the wrap check needs no save and restore of its own.
 */
void timer_interrupt(void)
{
	uint32_t now = cp0_read_count();
	unsigned due = 0;

	timer_count_tick(now);
	if (now - next_compare < period) {
		/* Every tick but a late one: one period due, the next ahead. */
		next_compare += period;
		due = 1;
	} else {
		/* Signed differences: Count and Compare wrap. */
		while ((int32_t)(now - next_compare) >= 0) {
			next_compare += period;
			if (++due > CATCHUP_MAX) {
				next_compare = now + period;
				resyncs++;
				break;
			}
		}
	}
	cp0_write_compare(next_compare);
	/* Compare may have been passed while it was being written (and not
	 * met since: timer_match_seen). */
	while ((int32_t)(cp0_read_count() - next_compare) >= 0 && !timer_match_seen()) {
		next_compare += period;
		due++;
		cp0_write_compare(next_compare);
	}
	if (due == 0) {
		/* Woken before Compare (a write raced the match): not a tick. */
		return;
	}
	if (due > 1)
		ticks_missed += due - 1;
	while (due-- > 0)
		clock_tick();
}

void arch_timer_start(unsigned hz)
{
	irqflags_t flags = arch_irq_save();
	uint64_t measured;

	ip_line = find_timer_ip();
	has_ti = cp0_is_release2();
	measured = cycle_rate_boot(arch_cycles, NULL)->hz;
	if (measured < COUNT_HZ_MIN || measured > COUNT_HZ_MAX) {
		printf("mips: Count rate measured as %llu Hz, implausible; assuming %u Hz\n",
		       (unsigned long long)measured, COUNT_HZ_FALLBACK);
		measured = COUNT_HZ_FALLBACK;
		cycle_rate_set(&(struct cycle_rate){ .hz = measured, .source = "fallback" });
	}
	count_hz = measured;
	if (hz == 0)
		hz = 1;
	period = (uint32_t)(count_hz / hz);
	next_compare = cp0_read_count() + period;
	cp0_write_compare(next_compare);
	cp0_write_status(cp0_read_status() | ST_IM(ip_line));
	arch_irq_restore(flags);
}
