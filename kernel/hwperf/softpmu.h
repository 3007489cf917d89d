/*
 * softpmu.h - the software PMU: counters that count what the kernel sees.
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
 * Where the kernel must call the hooks (all with interrupts off, never
 * from inside an hwperf env callback):
 *
 *	trap/interrupt entry   softpmu_mode_switch(K or X, now, interrupted pc)
 *	return to user         softpmu_mode_switch(PMU_MODE_U, now, return pc)
 *	syscall entry          softpmu_event(SOFTPMU_SYSCALLS, U, 1, pc)
 *	page fault             softpmu_event(SOFTPMU_FAULTS, mode, 1, pc)
 *	TLB refill             softpmu_event(SOFTPMU_TLB_REFILLS, mode, 1, pc)
 *	device interrupt       softpmu_event(SOFTPMU_IRQS, mode, 1, pc)
 *	timer tick             softpmu_event(SOFTPMU_TICKS, mode, 1, pc)
 *	scheduler switch       softpmu_event(SOFTPMU_CSW_VOL or _INVOL, K, 1, 0),
 *	                       counted before hwperf_switch_out of the old task
 *	signal delivery        softpmu_event(SOFTPMU_SIGNALS, K, 1, pc)
 */
#ifndef TALLY_SOFTPMU_H
#define TALLY_SOFTPMU_H

#include <stdint.h>

#include "pmu.h"

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

#define SOFTPMU_COUNTERS_DEFAULT 2
#define SOFTPMU_COUNTERS_MIN 1
#define SOFTPMU_COUNTERS_MAX PMU_MAX_COUNTERS
#define SOFTPMU_WIDTH_DEFAULT 32
#define SOFTPMU_WIDTH_MIN 8
#define SOFTPMU_WIDTH_MAX 64
#define SOFTPMU_MAX_CPUS 8
#define SOFTPMU_MODES (PMU_MODE_U | PMU_MODE_K | PMU_MODE_X)

/* Register layout of a soft counter's control value (evtsel). */
#define SOFTPMU_SEL_EVENT_MASK 0xffu
#define SOFTPMU_SEL_MODE_SHIFT 8
#define SOFTPMU_SEL_ENABLE (1u << 16)
#define SOFTPMU_SEL_INT (1u << 17)

struct softpmu_config {
	unsigned ncounters;             /* boot arg softpmu.counters */
	unsigned width;                 /* boot arg softpmu.width */
	uint64_t (*clock)(void);        /* the cycle counter */
	unsigned (*this_cpu)(void);
};

/* Before probe.  Returns -EINVAL (counters or width out of range). */
int softpmu_configure(const struct softpmu_config *cfg);
/* The configuration in force (what `hwperf soft` shows). */
void softpmu_get_config(struct softpmu_config *out);
/*
 * Change the number of counters and their width at run time, keeping the
 * clock, the CPU lookup and each CPU's current mode.  Every counter is
 * cleared and disabled, so it may only be called while no counter set is
 * loaded on any CPU: hwperf_soft_configure checks that and re-probes.
 * Returns -EINVAL (counters or width out of range; nothing changes).
 */
int softpmu_reconfigure(unsigned ncounters, unsigned width);

struct hwperf_task;
struct hwperf_reason;
/*
 * Run-time reconfiguration through hwperf (softcfg.c), for benchmarks of
 * multiplexing and wrap-around and for `hwperf soft`.  Allowed only while
 * the software PMU is the active driver (ENODEV), the caller is root
 * (EPERM), and the PMU is FREE with nothing loaded on any CPU (EBUSY,
 * naming the holder, R20).  EINVAL for a count or width out of range.
 * Returns 0; on refusal why says which, and nothing changed.
 */
int hwperf_soft_configure(struct hwperf_task *caller, unsigned ncounters,
                          unsigned width, struct hwperf_reason *why);

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
 * see as time running backwards.
 */
void softpmu_user_span(uint64_t left, uint64_t back, uintptr_t pc);

/* The raw register value of a counter (tests, `hwperf regs`). */
uint64_t softpmu_peek(unsigned cpu, unsigned hw);

extern const struct pmu_ops softpmu_ops;
extern const struct pmu_event_table softpmu_table;

#endif
