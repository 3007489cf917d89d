/*
 * percpu.h - what each CPU keeps for itself, reached through GS.
 *
 * In the kernel GS base points at the running CPU's struct x86_cpu; in
 * user mode it holds the user's value (0) and MSR_KERNEL_GS_BASE holds
 * ours, so every entry from ring 3 starts with SWAPGS and every return
 * to it ends with one.  The SYSCALL entry finds its stack here: SYSCALL
 * switches neither stack nor GS by itself.
 *
 * syscall_entry.asm and trapentry.asm read the fields by offset; the asserts in percpu.c
 * keep both in step.
 */
#ifndef TALLY_X86_64_PERCPU_H
#define TALLY_X86_64_PERCPU_H

#include <stdint.h>

struct x86_cpu {
	struct x86_cpu *self;           /* GS:0, so C can find the struct */
	/* The running task's kernel stack top less 8: the SYSCALL stub's
	 * first push goes below the frame's SS slot (kstack.c). */
	uint64_t kernel_rsp;
	uint64_t user_rsp;              /* SYSCALL entry's scratch */
	/* The user/kernel boundary (kernel/arch.h arch_user_span): the
	 * entry and exit stubs park RAX and RDX here to read the TSC. */
	uint64_t save_rax;
	uint64_t save_rdx;
	uint64_t entry_tsc;             /* the last entry from ring 3 */
	uint64_t exit_tsc;              /* the last return to ring 3 ... */
	uint64_t *exit_sink;            /* ... written here; &exit_tsc or a read page */
	/* Nonzero on an application processor: trap() sends its interrupts
	 * to smp.c, away from the task accounting only CPU 0 runs. */
	uint32_t is_ap;
	unsigned id;
	/* The portable kernel's struct cpu for this CPU (this_cpu()). */
	void *local;
	/* The kernel-event kinds this CPU's loaded counters count
	 * (kernel/pmu_kevent.h): every hook's gate tests it in place, one
	 * GS-relative test as a shared word's took one RIP-relative one. */
	uint32_t kevents;
	/* SMP (smp.c); written by this CPU, read by CPU 0's `cpus`. */
	uint32_t apic_id;
	volatile uint32_t stage;        /* how far bring-up got (SMP_STAGE_*) */
	volatile uint64_t ticks;        /* LVT timer interrupts taken */
	volatile uint64_t ipis;         /* IPIs handled (call and reschedule) */
	volatile uint64_t resched;
	/* The call mailbox: CPU 0 fills fn/arg, then bumps call_seq and sends
	 * VEC_IPI_CALL; this CPU runs fn and sets call_done = call_seq. */
	void (*call_fn)(void *);
	void *call_arg;
	volatile uint64_t call_seq, call_done;
	const char *why_offline;        /* NULL while it runs */
};

#define PERCPU_SELF        0
#define PERCPU_KERNEL_RSP  8
#define PERCPU_USER_RSP    16
#define PERCPU_SAVE_RAX    24
#define PERCPU_SAVE_RDX    32
#define PERCPU_ENTRY_TSC   40
#define PERCPU_EXIT_TSC    48
#define PERCPU_EXIT_SINK   56
#define PERCPU_IS_AP       64
#define PERCPU_ID          68
#define PERCPU_LOCAL       72
#define PERCPU_KEVENTS     80

/* Boot CPU: point GS at its area.  Right after gdt_init (which zeroes
 * GS), so that trap() can read it from the first fault on. */
void percpu_init(void);
/* CPU id's area (id < CPU_MAX), and pointing this CPU's GS at it. */
struct x86_cpu *percpu_get(unsigned id);
void percpu_init_cpu(unsigned id);

/* True on an AP; two instructions, for trap()'s every entry. */
static inline int percpu_is_ap(void)
{
	uint32_t v;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(v) : "i"(PERCPU_IS_AP));
	return v != 0;
}

/* The stubs' fields, one GS-relative load each, without first loading
 * `self`. */
static inline uint64_t percpu_entry_tsc(void)
{
	uint64_t v;

	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(v) : "i"(PERCPU_ENTRY_TSC));
	return v;
}

static inline uint64_t *percpu_exit_sink(void)
{
	uint64_t *p;

	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(p) : "i"(PERCPU_EXIT_SINK));
	return p;
}

static inline struct x86_cpu *this_x86_cpu(void)
{
	struct x86_cpu *c;

	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(c) : "i"(PERCPU_SELF));
	return c;
}

#endif
