/*
 * arch.h - what the portable kernel asks of each machine.
 *
 * Every function here is implemented once per architecture under
 * arch/<arch>/.  Nothing in kernel/ may include an arch header directly:
 * this file is the whole contract, so a reader can see in one place what
 * porting Tally to a new machine means.
 */
#ifndef TALLY_MACHINE_H
#define TALLY_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOT_MEM_RANGES_MAX 32

/* One range of physical RAM that the kernel may hand out. */
struct mem_range {
	uint64_t base;
	uint64_t size;
};

/*
 * Filled in by the arch's early boot code from multiboot (x86) or the
 * YAMON-style argc/argv/envp (Malta) before kmain runs.  Ranges exclude the
 * kernel image, boot modules and anything the firmware reserved.
 */
struct boot_info {
	const char *cmdline;           /* never NULL; "" when none */
	uint64_t mem_total;            /* bytes of RAM the firmware reported */
	unsigned nmem;
	struct mem_range mem[BOOT_MEM_RANGES_MAX];
	const char *loader;            /* "multiboot1", "multiboot2", "malta" */
};

/* Portable kernel entry; the arch calls it once with interrupts off. */
void kmain(struct boot_info *bi) __attribute__((noreturn));

/* --- identity ----------------------------------------------------------- */
const char *arch_name(void);                   /* "x86_64" or "mips" */
/* One line: vendor, family/model or PRId, core name. */
void arch_cpu_describe(char *buf, size_t len);
/* CPUs running, the boot CPU included (1 without SMP).  Only CPU 0 runs
 * tasks so far: the others idle (cpu_count() is the task layer's view). */
unsigned arch_cpus_online(void);
/* One line about CPU cpu for `sched`/`cpus` (APIC id, online, timer
 * ticks); -ENODEV past the last CPU the machine has. */
int arch_cpu_brief(unsigned cpu, char *buf, size_t len);
/* This CPU's number: 0 is the boot CPU, and ids are those of
 * arch_cpu_brief.  Cheap (one load) and valid from interrupt context. */
unsigned arch_cpu_id(void);
/* The most CPUs the kernel runs (per-CPU tables are this long). */
#define CPU_MAX 16
/*
 * Interrupt CPU cpu so that it runs fn(arg) in its interrupt handler,
 * with interrupts off, and return at once without waiting (the caller
 * polls whatever fn writes).  0; -EBUSY when an earlier ring to that CPU
 * is still unanswered (it will run its own fn first); -ENODEV (no such
 * CPU) or -EAGAIN (not online).  Not for the caller's own CPU.
 */
int arch_cpu_ring(unsigned cpu, void (*fn)(void *), void *arg);
/* In a loop that waits for another CPU: x86's PAUSE, which also lets
 * QEMU's round-robin TCG (-icount) run the other vCPUs at once. */
void arch_cpu_relax(void);

/*
 * Three arrays of n 64-bit words out at once: dst[0..n) = src[0..n),
 * every dst[n..2n) = fill, dst[2n..3n) = src[2n..3n) (src[n..2n) is not
 * read).  hwperf's full-set read is this (kernel/hwperf/vctr.c: counts,
 * the one time-enabled, running), and on a 32-bit machine its 768 bytes
 * are most of the read: each arch moves them its fastest way.  dst and
 * src do not overlap; src is aligned as a uint64_t array is, dst may be
 * a user's buffer at any address; called with interrupts off.
 */
void arch_copy_fill_u64(uint64_t *dst, const uint64_t *src, uint64_t fill,
			unsigned n);
/* The same a word at a time for words from..n-1: what each arch falls
 * back to, or finishes with. */
static inline void copy_fill_u64_words(uint64_t *dst, const uint64_t *src,
				       uint64_t fill, unsigned from, unsigned n)
{
	for (unsigned i = from; i < n; i++) {
		dst[i] = src[i];
		dst[n + i] = fill;
		dst[2 * n + i] = src[2 * n + i];
	}
}

/* --- bring-up, called by kmain in this order ---------------------------- */
/* Traps and the interrupt controller (all lines masked); after this a fault prints
 * a dump. */
void arch_init(struct boot_info *bi);
/*
 * Start the periodic tick at hz; each tick calls clock_tick()
 * (kernel/time/clock.c) from interrupt context.  Also measures the cycle counter rate
 * against the board's reference timer (kernel/platform.h) before returning.
 */
void arch_timer_start(unsigned hz);

/* --- the cycle counter (TSC, CP0 Count extended to 64 bits) -------------- */
uint64_t arch_cycles(void);
uint64_t arch_cycles_hz(void);                 /* measured at timer start */

/*
 * Where user time starts and stops.  The entry assembly reads the cycle
 * counter within a few instructions of every entry from user mode, and
 * the exit assembly within a few of every return to it, because anything
 * read later (or earlier) in C would charge the kernel's own entry and
 * exit code to the user.  So the kernel cannot close the user interval
 * at the exit itself: it closes it at the next entry from user mode.
 *
 * arch_user_span, called by trap_enter for an entry from user mode with
 * interrupts off: *left is the cycle counter when the last return to user
 * mode left the kernel, *back when this entry arrived, both as
 * arch_cycles() values.  since is an arch_cycles() value at or before
 * both and less than 2^32 cycles before them (the accounting clock's last
 * cut, which every tick moves on): a machine whose stamps are 32 bits
 * wide places them after it, with no read of its own.  Time the CPU spent in kernel code that makes no
 * entry of its own (the MIPS TLB refill handler) is already moved out of
 * user time: *left is later by that much.
 *
 * arch_user_stamp_to: the next return to user mode also writes its stamp
 * (the low arch_user_cycles_bits() of arch_cycles(), as user mode reads
 * the counter) to *where, zero-extended; refill time moves it as it moves
 * *left.  Call it last on the way out, with interrupts off.  Each entry
 * from user mode forgets it.  The read page's cycle start uses it.
 */
void arch_user_span(uint64_t since, uint64_t *left, uint64_t *back);
void arch_user_stamp_to(uint64_t *where);

/*
 * How tight the cut is, for the ucut benchmark and docs/tasks.md: at most
 * max_kernel_insns kernel instructions per round trip into the kernel land
 * on the user side (the entry instructions before the stamp, the exit
 * instructions after it); user/sysloop.c's loop runs sysloop_insns user
 * instructions per system call.
 */
struct arch_user_cut {
	uint32_t max_kernel_insns;
	uint32_t sysloop_insns;
};
extern const struct arch_user_cut arch_user_cut;

/*
 * A kernel-mode loop of known shape for the cycle and event benchmarks
 * (arch/<arch>/bench_loop.*).  Each iteration loads *cell, adds one, stores
 * it back, decrements the count and branches back (taken n - 1 times).
 * arch_bench_loop reads the cycle counter before and after, inside the
 * routine, and returns the difference mod 2^32; the fixed part between
 * the reads is laid out so that the run at 0 measures it exactly.  Call it
 * with interrupts off for an exact count.  arch_loop_shape says what one
 * iteration is on this machine; user/loop.c runs the same shape in user
 * mode.
 */
struct arch_loop_shape {
	uint32_t insns;                 /* instructions per iteration */
	uint32_t loads, stores, branches;
	uint32_t insns_per_tick;        /* instructions per cycle-counter tick at cpi=1 */
};
extern const struct arch_loop_shape arch_loop_shape;
uint32_t arch_bench_loop(uint32_t n, uint32_t *cell);

/* --- interrupts ---------------------------------------------------------- */
typedef unsigned long irqflags_t;
irqflags_t arch_irq_save(void);                /* disable, return old state */
void arch_irq_restore(irqflags_t flags);
void arch_irq_enable(void);
/* Enable interrupts and wait for one, atomically with respect to wakeups. */
void arch_idle(void);

/* --- SMP ----------------------------------------------------------------- */
/* Between two looks at a held lock: the CPU's spin-wait hint, and with
 * poll_calls (giant's wait, which holds no spinlock) also run a
 * cross-CPU call posted to this CPU, so a CPU spinning with interrupts
 * off never makes a caller time out.  kernel/spinlock.h. */
void arch_lock_relax(bool poll_calls);
/* Interrupt CPU cpu so that it looks at its run queue (reschedule IPI). */
void arch_resched_cpu(unsigned cpu);

/* --- ISA I/O space: port I/O on x86, KSEG1 window on Malta --------------- */
uint8_t arch_io_in8(uint16_t port);
void arch_io_out8(uint16_t port, uint8_t val);

/* --- physical memory ----------------------------------------------------- */
void *arch_phys_to_virt(uint64_t pa);
uint64_t arch_virt_to_phys(const void *va);

/* --- TLB ---------------------------------------------------------------- */
/*
 * Entries the software TLB refill handler replaces round robin (MIPS), or
 * 0 where the CPU walks page tables in hardware and the kernel never sees
 * a refill (x86).  Benchmarks derive exact refill counts from it.
 */
unsigned arch_tlb_refill_ring(void);

/* --- leaving ------------------------------------------------------------- */
/* Largest status that reaches the host on every machine (x86's exit device
 * has 7 bits and Tally biases them; see drivers/isa_debug_exit.h). */
#define ARCH_EXIT_STATUS_MAX 111
/*
 * Leave the machine with a status the host can see (isa-debug-exit on x86,
 * UHI semihosting on Malta).  On hardware without an exit device, halt.
 */
void arch_exit(int code) __attribute__((noreturn));
void arch_reboot(void) __attribute__((noreturn));
void arch_halt(void) __attribute__((noreturn)); /* interrupts off, forever */

/* Print the registers of the current context (used by panic). */
void arch_dump_stack(void);

/*
 * Show a boot stage where a person at the board can see it without a
 * console (Malta's ASCII display; POST port 0x80 on x86).  At most 8 chars.
 */
void arch_boot_progress(const char *stage);

/*
 * Raise the named CPU exception in kernel mode, to prove the trap path
 * end to end (console command `crash`).  Kinds are the arch's own
 * ("ud", "pf", "de", "gp" on x86; "ade", "tlbl", "ri", "bp" on mips);
 * "list" prints them.  Returns -EINVAL for an unknown kind; never returns
 * for a known one, since every kernel-mode exception panics.
 */
int arch_crash(const char *kind);

/* --- counters user mode reads itself (kernel/hwperf/upage.c) ------------- */
/*
 * Allow or forbid, on this CPU, the user-mode reads of the task about to
 * run: x86 rdpmc (CR4.PCE; rdtsc is always allowed), MIPS RDHWR $2 and $3
 * (HWREna CC and CCRes).  Called at every switch-in, and when a task maps
 * its read page.  A forbidden read faults and the task gets a signal.
 */
void arch_user_counters(bool allow);
/* Bits of the cycle counter as user mode reads it (x86 rdtsc 64, MIPS
 * RDHWR $2 32); they are the low bits of arch_cycles(). */
unsigned arch_user_cycles_bits(void);

/* --- the PMU layer's kernel-event kinds (kernel/pmu_kevent.h) ------------- */
/*
 * CPU cpu's counters now count kinds (pmu_kevents_want; called on any
 * CPU, cpu < CPU_MAX): the arch keeps the word where that CPU's hooks
 * test it in the fewest instructions (machdep.h machdep_kevents_any).  An
 * arch whose system call's fast way keeps a per-CPU hint instead of
 * reading the word (MIPS: arch/mips/trap.c) makes that CPU's next call
 * read the word again, after it is stored, when kinds wants what that
 * way skips.
 */
void arch_kevents_set(unsigned cpu, uint32_t kinds);
/* CPU cpu's word as arch_kevents_set left it (cpu < CPU_MAX). */
uint32_t arch_kevents_of(unsigned cpu);

/* --- called by arch code into the kernel --------------------------------- */
void clock_tick(void);                          /* kernel/time/clock.c */
void irq_dispatch(unsigned isa_irq);            /* kernel/irq.c   */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
