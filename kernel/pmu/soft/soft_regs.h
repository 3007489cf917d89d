/*
 * soft_regs.h - the software PMU driver's inside: its events, its register
 * layout, and the hooks the kernel's events reach it through (pmu_kevent.h).
 * Only the driver and its host tests include this file.
 *
 * The software PMU: counters that count what the kernel sees.
 *
 * It sits behind the same struct pmu_ops as the hardware drivers, so
 * hwperf's multiplexing, wrap folding and thresholds run unchanged where
 * no hardware counts (QEMU).  Its counters are `width` bits wide and
 * really wrap there; an interrupt-mode counter that wraps calls
 * pmu_interrupt() at once, from inside the hook that counted the event,
 * so a threshold of n acts after exactly n events.  It never claims
 * instructions, branches or cache events.
 *
 * Events (table "soft"; every counter can count every event):
 *
 *	cycles       cycle-counter time, split by mode at each kernel entry/exit
 *	syscalls     system calls
 *	csw          context switches, voluntary or not
 *	csw-vol      voluntary context switches (the task blocked or yielded)
 *	csw-invol    involuntary context switches (preempted)
 *	faults       page faults
 *	tlb-refills  TLB refill exceptions (MIPS; none on x86, which walks in hardware)
 *	irqs         device interrupts
 *	ticks        timer ticks
 *	signals      signals delivered (at the return to user mode)
 *
 * Mode filtering: an event is counted by a counter when the mode it is
 * reported in is among the counter's mode bits (U, K, X; S does not
 * exist here).  Report an event in the mode the CPU was in when it arose:
 * the interrupted mode for faults, TLB refills, interrupts and ticks; U for
 * a system call from user mode; for a context switch or a signal, the
 * mode of the entry that led to it.
 *
 * The kernel reports through pmu_kevent.h, which calls the driver's hooks
 * (soft_kernel_event, softpmu_mode_switch, softpmu_user_span) only for the
 * kinds some counter loaded on that CPU counts: the driver says which,
 * bank by bank, at every resume and suspend (pmu_kevents_want).  A
 * scheduler switch is counted before
 * hwperf_switch_slow takes the old task's counters off.  While no counter
 * counts cycles the bank's mode is not followed; the resume that loads one
 * starts it at that moment, in K mode, where every resume runs.
 *
 * User cycles held back (pmu_kevent.h pmu_user_hold): while a bank's
 * cycles counters all count U alone, its CPU's entries hold their user
 * spans instead of calling softpmu_user_span, below a room the driver
 * sets from those counters' distances to their wraps.  Every operation
 * that reads or changes the bank's counters adds what is held first
 * (held_in; the hand-over of two sets programmed alike does it in its
 * own pass), and softpmu_peek shows a register with it, so nothing can
 * see a difference: only the entry that would reach a wrap is told, and
 * its interrupt comes where it came.
 */
#ifndef TALLY_SOFT_REGS_H
#define TALLY_SOFT_REGS_H

#include <stdint.h>

#include "pmu.h"
#include "softpmu.h"

enum softpmu_event {
	SOFTPMU_CYCLES,
	SOFTPMU_SYSCALLS,
	SOFTPMU_CSW,            /* counts both of the next two */
	SOFTPMU_CSW_VOL,
	SOFTPMU_CSW_INVOL,
	SOFTPMU_FAULTS,
	SOFTPMU_TLB_REFILLS,
	SOFTPMU_IRQS,
	SOFTPMU_TICKS,
	SOFTPMU_SIGNALS,
	SOFTPMU_NEVENTS
};

#define SOFTPMU_MAX_CPUS 16     /* HWPERF_MAX_CPUS */
#define SOFTPMU_MODES (PMU_MODE_U | PMU_MODE_K | PMU_MODE_X)

/* Register layout of a soft counter's control value (evtsel). */
#define SOFTPMU_SEL_EVENT_MASK 0xffu
#define SOFTPMU_SEL_MODE_SHIFT 8
#define SOFTPMU_SEL_ENABLE (1u << 16)
#define SOFTPMU_SEL_INT (1u << 17)
/* Set by check() on a cycles counter that counts U: the counters the
 * user cycles the kernel holds back go to (pmu_kevent.h), found at a
 * switch from the word it loads anyway.  Not part of the event's key
 * (enable and event), so counting is unchanged by it. */
#define SOFTPMU_SEL_UCYCLES (1u << 18)

/*
 * The soft PMU's global registers (pmu_control.global[], check()'s
 * output): what the bank as a whole does while the set is loaded, found
 * once per checked control so that a resume only copies it.
 */
#define SOFTPMU_GLOBAL_ON 0             /* bit = hw counter enabled */
#define SOFTPMU_GLOBAL_CYCLES 1         /* counters counting cycles, by mode (softpmu.c) */
#define SOFTPMU_GLOBAL_KINDS 2          /* pmu_kevent kinds the counters count */
#define SOFTPMU_GLOBAL_NOT_U 3          /* counters counting cycles outside U */

void softpmu_event(enum softpmu_event ev, uint32_t mode, uint64_t n,
                   uintptr_t pc);
/* The CPU changes mode at cycle-counter time now; cycles since the last
 * switch go to counters counting cycles in the mode being left. */
void softpmu_mode_switch(uint32_t new_mode, uint64_t now, uintptr_t pc);
/*
 * An entry from user mode, told after the fact (kernel/arch.h
 * arch_user_span): the CPU left the kernel at `left` and came back at
 * `back`.  Cycles up to left go to the mode the bank was in (K), those
 * from left to back to U, and the bank is in K from back on.  One call,
 * with the bank moved to `back` before any counter is touched, because
 * an overflow interrupt raised by the first half may fold and restart a
 * set at a later clock, which a second switch stamped `back` would then
 * see as time running backwards.  cpu is the CPU that entered (whose bank
 * is credited), which the kernel's entry has at hand: no lookup through
 * the configuration's this_cpu, an indirect call that cost every entry
 * its saved registers.
 */
void softpmu_user_span(uint64_t left, uint64_t back, uintptr_t pc, unsigned cpu);

/* The raw register value of a counter (tests, `hwperf regs`). */
uint64_t softpmu_peek(unsigned cpu, unsigned hw);

extern const struct pmu_ops softpmu_ops;
extern const struct pmu_event_table softpmu_table;

#endif
