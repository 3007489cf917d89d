/*
 * mips.h - what the files of arch/mips tell each other.  Nothing outside
 * arch/mips includes this; the portable kernel sees only kernel/arch.h.
 */
#ifndef TALLY_MIPS_MIPS_H
#define TALLY_MIPS_MIPS_H

#include <stdbool.h>
#include <stdint.h>

struct boot_info;
struct trapframe;

/* boot.c: C entry from start.S, with the loader's a0..a3. */
void mips_boot(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3)
	__attribute__((noreturn));

/* bootinfo.c */
void bootinfo_parse(struct boot_info *bi, uint32_t a0, uint32_t a1,
		    uint32_t a2, uint32_t a3);
/* A problem found while parsing, to print once the console works; or NULL. */
const char *bootinfo_warning(void);

/* semihost.c */
void semihost_detect(uint32_t a0);
bool semihost_present(void);
void semihost_exit(int code) __attribute__((noreturn));

/* copy64.c: each CPU says whether it has an FPU, once, before it runs
 * tasks; copy64_fpu.S the FPU's copy of arch_copy_fill_u64 for n 32
 * (fill by address). */
void mips_copy64_cpu_init(void);
void mips_copy_fill_fpu32(uint64_t *dst, const uint64_t *src,
			  const uint64_t *fill);

/* tlb.c */
/* Where the refill handler writes next: index = next, then
 * next = (next + 1) & mask.  Offsets shared with tlbrefill.S. */
struct tlb_rr {
	uint32_t next;
	uint32_t mask;
};
void tlb_init(void);
unsigned tlb_entries(void);
/* Entries the refill handler cycles through (a power of two). */
unsigned tlb_ring_entries(void);
void tlb_flush_all(void);
/* Drop the entry that matches EntryHi value entryhi, if there is one. */
void tlb_invalidate(uint32_t entryhi);

/* vm.c: before trap_init, which installs the refill handler that reads
 * the page-table root vm_init sets up. */
void vm_init(void);
/* vm.c: this CPU's page-table root and ASID space (vm_init does CPU 0's). */
void vm_cpu_init(void);
uint64_t vm_asid_rollovers(void);

/* trap.c */
void trap_init(void);
/* Exception name, CP0 registers and every GPR of a frame. */
void mips_dump_frame(const struct trapframe *tf);
/* Interrupts that arrived inside arch_idle's window and skipped its wait. */
unsigned long trap_idle_restarts(void);

/* uaccess.c: one word of the current task's user memory; 0 or -1. */
int mips_user_read_word(uintptr_t va, uint32_t *word);

/* intr.c */
void intr_init(void);
/* On a VPE: its own view of the lines (its tick is not CPU 0's). */
void intr_cpu_init(void);
/* pending: Cause.IP & Status.IM; cause, pc (EPC) and user from the frame. */
void intr_dispatch(uint32_t pending, uint32_t cause, uintptr_t pc, bool user);

/* timer.c */
struct timer_stats {
	uint32_t period;              /* Count cycles per tick */
	uint32_t next_compare;
	unsigned long ticks_missed;   /* ticks delivered late, in a catch-up */
	unsigned long resyncs;        /* times time jumped too far to catch up */
	unsigned long count_behind;   /* every CPU's readings of Count behind its
	                               * last (count_ext.h: Count stepped back) */
};
void timer_stats(struct timer_stats *st);
unsigned timer_ip(void);
void timer_interrupt(void);
/* Every tick of every CPU, interrupts off: keep this CPU's 64-bit
 * extension of Count within a wrap of now (arch_cycles relies on it). */
void timer_count_tick(uint32_t now);
/* On a CPU other than 0, before its first arch_cycles(): extend its Count
 * to 64 bits as CPU 0's, given ref, an arch_cycles() of CPU 0's taken
 * less than 2^31 Count ticks before. */
void timer_cpu_start(uint64_t ref);
/* Re-arm this CPU's Compare so that QEMU's round robin of vCPUs ends this
 * one's turn (smp.c, arch_cpu_relax); no tick is lost or added. */
void timer_yield_vcpu(void);
/* After a Compare write that Count has already passed: did Count meet it
 * since the write (Release 2's Cause.TI, which the write clears)?  Then
 * the tick is pending; if not, Compare was written behind Count and will
 * raise nothing until Count wraps, so it must be written again. */
bool timer_match_seen(void);

/* smp.c: this CPU's number, kept where arch_cpu_id reads it. */
void mips_set_cpu_number(unsigned cpu);
/* smp.c: CPU 0's software interrupt lines (a ring from a VPE), given
 * the pending lines nobody else handles; returns those still unhandled. */
uint32_t mips_soft_interrupt(uint32_t pending);
/* smp.c: a VPE's timer interrupt (timer_interrupt hands it over). */
void mips_vpe_tick(void);
/* smp.c: run fn(arg) on another CPU and wait for it; -EAGAIN when that
 * CPU is not online. */
int mips_cpu_call_wait(unsigned cpu, void (*fn)(void *), void *arg);

#endif
