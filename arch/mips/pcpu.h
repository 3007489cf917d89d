/*
 * pcpu.h - the words the exception entry, the eret path and the TLB
 * refill handler keep for the CPU they run on, one block per CPU.
 *
 * Each CPU (a 34K VPE) finds its own block through CP0 DESAVE (register
 * 31, select 0), the EJTAG debug handler's scratch word: Tally has no
 * EJTAG debugger, every MIPS32 core has the register (QEMU 7.2 reads and
 * writes it like any CP0 field, per VPE), and one mfc0 reads it where a
 * fixed word's address took one lui.  So a per-CPU word costs CPU 0 what
 * the fixed word did, and a path that reaches several words through the
 * base loads it once (the entry from user mode and the refill handler
 * got shorter: docs/costs.md).  The shared eret path stays shared: a task
 * that slept on one CPU and resumes on another returns through whatever
 * copy of the path it entered by, so nothing on it may name a CPU.
 * smp.c (mips_set_cpu_number) writes DESAVE before a CPU takes its first
 * exception.
 *
 * The offsets are the assembler's view; the struct below is C's, and
 * smp.c checks that the two agree.
 */
#ifndef TALLY_MIPS_PCPU_H
#define TALLY_MIPS_PCPU_H

#define PCPU_USER_ENTRY    0    /* Count when the last exception from user mode came */
#define PCPU_USER_EXIT     4    /* Count at the last eret, refill time added */
#define PCPU_EXIT_SINK     8    /* where the exit stamp goes (user_span.c) */
#define PCPU_KFRAME        12   /* where an entry from user mode puts its frame */
#define PCPU_REFILLS       16   /* refills that interrupted [0] kernel, [1] user */
#define PCPU_RR            24   /* struct tlb_rr: next, mask */
#define PCPU_REFILL_COUNT  32   /* Count at the refill's first instruction */
#define PCPU_REFILL_AT     36   /* $at while the refill borrows it */
#define PCPU_PT_CURRENT    40   /* root of the active page table */
#define PCPU_SYSCALL_SLOW  44   /* non-zero: the next system call cuts the slow way */

/* syscall_slow's other values (any non-zero word would do; each says
 * who set it, for a reader of a dump). */
#define PCPU_SLOW_COUNTED  1    /* a counter wants the calls or their cycles */
#define PCPU_SLOW_SINK     2    /* the exit sink points at a read page */
/* The cycles alone are counted, not the calls: the next call may hold
 * its span (trap.c syscall_cut_held) and is otherwise the short cut's;
 * set by the slow cut only, which then did all the slow cut's checks. */
#define PCPU_SLOW_HELD     3

#ifndef __ASSEMBLER__
#include <stdint.h>

#include "arch.h"
#include "asid.h"
#include "count_ext.h"
#include "mips.h"

struct arch_vm;

struct mips_pcpu {
	uint32_t user_entry;
	uint32_t user_exit;
	uint32_t *exit_sink;
	uint32_t kframe;                /* kernel stack top - TF_STACK (kstack.c) */
	uint32_t tlb_refills[2];
	struct tlb_rr rr;
	uint32_t refill_count;
	uint32_t refill_at;
	uintptr_t pt_current;
	/*
	 * The system call's slow hint (trap.c mips_syscall): zero when the
	 * short cut may run, so that the call asks this one word where it
	 * compared both refill counters with the clock's (eight instructions),
	 * read the PMU's wanted kinds (five), and read the exit stamp through
	 * the exit sink and put the sink back (three).
	 * The refill handler stores its (never zero) block address here, since
	 * the counters above moved; arch_kevents_set stores
	 * PCPU_SLOW_COUNTED in a CPU's when a counter loaded there wants the
	 * calls or their cycles; arch_user_stamp_to stores PCPU_SLOW_SINK when it
	 * points the sink elsewhere than user_exit, so that while the hint is
	 * clear the sink is user_exit.  Cleared only by the slow cut, before
	 * it compares the counters, reads the kinds and puts the sink back
	 * (arch_user_span): the other cuts do those and leave it, which costs
	 * a later call one slow cut at most.  PCPU_SLOW_HELD says the same
	 * of the counters and the sink as 0 does (the slow cut stores it
	 * where it would clear the word, when of the two kinds only the
	 * cycles are wanted), so every other value overrides it.
	 */
	uint32_t syscall_slow;
	/* C's alone, from here. */
	/* The kernel-event kinds this CPU's loaded counters count
	 * (kernel/pmu_kevent.h): every hook's gate loads it through DESAVE,
	 * an mfc0 where a shared word's address took a lui. */
	uint32_t kevents;
	struct asid_space asids;        /* this CPU's TLB's ASIDs (vm.c) */
	/* Where an arch_vm keeps this CPU's ASID (vm.c): an add on the
	 * switch path instead of reading and scaling the CPU number. */
	uint32_t vm_asid_offset;
	struct count_ext cext;          /* Count extended to 64 bits (timer.c) */
	uint32_t timer_bit;             /* the tick's shortcut line (intr.c) */
};

extern struct mips_pcpu mips_pcpu[CPU_MAX];

/* The running CPU's block.  Volatile: a read after a switch (the task
 * may have moved) is never merged with one before it. */
static inline struct mips_pcpu *pcpu_here(void)
{
	struct mips_pcpu *p;

	__asm__ volatile("mfc0 %0, $31, 0" : "=r"(p));
	return p;
}

/*
 * The same for code that runs with interrupts off, so on one CPU from
 * its first read to its last: not volatile, so the compiler may merge
 * its reads (a system call's cut reads the refill counters and the
 * stamps: one mfc0 instead of three).  Only for readers that never span
 * a switch, and never mixed with pcpu_here in a way that would need the
 * two to differ.
 */
static inline struct mips_pcpu *pcpu_here_irqs_off(void)
{
	struct mips_pcpu *p;

	__asm__("mfc0 %0, $31, 0" : "=r"(p));
	return p;
}

/*
 * The user interval the stamps give, exit the one the sink holds (the
 * last eret's, refill time added) and entry p's user_entry, placed on
 * the 64-bit cycle counter by their distance on from since, the clock's
 * last cut (user_span.c): left where user mode began, back where it
 * ended (count_ext_span: stamps out of order stay so).  Stores nothing,
 * so a caller that may still hand the cut to the generic path (trap.c)
 * leaves the exit sink as it found it.
 */
static inline void pcpu_user_span(const struct mips_pcpu *p, uint32_t exit, uint64_t since,
				  uint64_t *left, uint64_t *back)
{
	count_ext_span(since, exit, p->user_entry, left, back);
}
#endif

#endif
