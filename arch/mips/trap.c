/*
 * trap.c - installing the exception vectors and deciding what an
 * exception means.
 *
 * Every exception and interrupt is bracketed by trap_enter/trap_exit
 * (kernel/entry.c), which cut user and system time exactly; the mode it
 * came from is the KSU the frame saved.  Interrupts go to intr.c.  From
 * user mode, Sys is a system call (mips_syscall, chosen by the entry
 * assembly, run with interrupts on), TLB and Mod faults are page faults,
 * and everything else becomes a signal
 * (user_fault.h); the way back to user mode goes through
 * trap_return_check, where the task may be preempted or get a signal.
 * An exception in kernel mode is a kernel bug or a deliberate `crash`: it
 * prints everything a person needs to find the fault (name, EPC, Cause,
 * Status, BadVAddr, all registers) and panics.
 */
#include "arch.h"
#include "arch_task.h"
#include "addrspace.h"
#include "cp0.h"
#include "mips.h"
#include "pcpu.h"
#include "pmu_kevent.h"
#include "proc/acct.h"
#include "proc/task.h"
#include "syscall.h"
#include "trapframe.h"
#include "user_fault.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Vector offsets from EBase (Status.BEV = 0). */
#define VEC_TLB_REFILL   0x000u
#define VEC_XTLB_REFILL  0x080u      /* 64-bit only; the refill handler runs on */
#define VEC_CACHE_ERROR  0x100u
#define VEC_GENERAL      0x180u
#define VEC_INTERRUPT    0x200u      /* only with Cause.IV */

extern const char mips_vec_stub[], mips_vec_stub_end[];
extern const char mips_tlb_refill[], mips_tlb_refill_end[];
extern const char mips_idle_window[], mips_idle_wait[], mips_idle_done[];
extern const char __text_start[], __text_end[];
extern const char mips_boot_stack[], mips_boot_stack_top[];

_Static_assert(offsetof(struct trapframe, regs) == TF_REG(0), "trapframe regs");
_Static_assert(offsetof(struct trapframe, hi) == TF_HI, "trapframe hi");
_Static_assert(offsetof(struct trapframe, lo) == TF_LO, "trapframe lo");
_Static_assert(offsetof(struct trapframe, epc) == TF_EPC, "trapframe epc");
_Static_assert(offsetof(struct trapframe, status) == TF_STATUS, "trapframe status");
_Static_assert(offsetof(struct trapframe, cause) == TF_CAUSE, "trapframe cause");
_Static_assert(offsetof(struct trapframe, badvaddr) == TF_BADVADDR, "trapframe badvaddr");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "trapframe size");
_Static_assert(TF_STACK % 8 == 0, "O32 stack alignment");
_Static_assert(SYSCALL_FRAME_REPLACED == (intptr_t)(int32_t)((uint32_t)TF_SYSCALL_REPLACED_HI << 16),
	       "vectors.S builds SYSCALL_FRAME_REPLACED with one lui");

struct exc_name {
	const char *name;
	const char *what;
};

static const struct exc_name exc_names[EXC_CODES] = {
	[EXC_INT]      = { "Int",      "interrupt" },
	[EXC_MOD]      = { "Mod",      "store to a read-only TLB page" },
	[EXC_TLBL]     = { "TLBL",     "TLB miss or invalid on load or fetch" },
	[EXC_TLBS]     = { "TLBS",     "TLB miss or invalid on store" },
	[EXC_ADEL]     = { "AdEL",     "address error on load or fetch" },
	[EXC_ADES]     = { "AdES",     "address error on store" },
	[EXC_IBE]      = { "IBE",      "bus error on instruction fetch" },
	[EXC_DBE]      = { "DBE",      "bus error on data access" },
	[EXC_SYS]      = { "Sys",      "system call" },
	[EXC_BP]       = { "Bp",       "breakpoint" },
	[EXC_RI]       = { "RI",       "reserved instruction" },
	[EXC_CPU]      = { "CpU",      "coprocessor unusable" },
	[EXC_OV]       = { "Ov",       "arithmetic overflow" },
	[EXC_TR]       = { "Tr",       "trap instruction" },
	[EXC_MSAFPE]   = { "MSAFPE",   "MSA floating point" },
	[EXC_FPE]      = { "FPE",      "floating point" },
	[EXC_C2E]      = { "C2E",      "coprocessor 2" },
	[EXC_TLBRI]    = { "TLBRI",    "TLB read inhibit" },
	[EXC_TLBXI]    = { "TLBXI",    "TLB execute inhibit" },
	[EXC_MSADIS]   = { "MSADis",   "MSA disabled" },
	[EXC_MDMX]     = { "MDMX",     "MDMX unusable" },
	[EXC_WATCH]    = { "WATCH",    "watchpoint" },
	[EXC_MCHECK]   = { "MCheck",   "machine check" },
	[EXC_THREAD]   = { "Thread",   "MT thread exception" },
	[EXC_DSPDIS]   = { "DSPDis",   "DSP ASE disabled" },
	[EXC_GE]       = { "GE",       "virtualization guest exit" },
	[EXC_CACHEERR] = { "CacheErr", "cache error" },
};

static const char *const reg_names[REG_COUNT] = {
	"zero", "at", "v0", "v1", "a0", "a1", "a2", "a3",
	"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7",
	"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
	"t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra",
};

#define REGS_PER_LINE 4

static unsigned exc_code(uint32_t cause)
{
	return cp0_field(cause, CAUSE_EXC_MASK, CAUSE_EXC_SHIFT);
}

static const char *mode_name(uint32_t status)
{
	switch (status & ST_KSU_MASK) {
	case ST_KSU_USER:  return "user";
	case ST_KSU_SUPER: return "supervisor";
	default:           return "kernel";
	}
}

/*
 * Copy the refill handler and the stub to the vectors, make sure
 * instruction fetch sees them, then leave the boot vectors.  EBase is
 * written while BEV is still set, as the architecture requires.  The
 * refill handler also covers VEC_XTLB_REFILL, which MIPS32 never uses
 * (tlbrefill.S checks that it ends before VEC_CACHE_ERROR).
 */
void trap_init(void)
{
	static const uint32_t vectors[] = {
		VEC_CACHE_ERROR, VEC_GENERAL, VEC_INTERRUPT,
	};
	size_t stub_len = (size_t)(mips_vec_stub_end - mips_vec_stub);
	uint32_t base = KSEG0_BASE;
	bool r2 = cp0_is_release2();

	if (r2) {
		/* Bits 31:30 are fixed at 1, 0: this puts EBase at KSEG0_BASE. */
		cp0_write_ebase(KSEG0_BASE & EBASE_BASE_MASK);
		base = KSEG0_BASE | (cp0_read_ebase() & EBASE_BASE_MASK);
	}
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
		memcpy((void *)(uintptr_t)(base + vectors[i]), mips_vec_stub, stub_len);
	memcpy((void *)(uintptr_t)(base + VEC_TLB_REFILL), mips_tlb_refill,
	       (size_t)(mips_tlb_refill_end - mips_tlb_refill));

	if (r2) {
		uint32_t step;

		__asm__ volatile("rdhwr %0, $" CP0_STR(HWR_SYNCI_STEP) : "=r"(step));
		if (step != 0) {
			for (uint32_t a = base; a < base + VEC_INTERRUPT + stub_len; a += step)
				__asm__ volatile("synci 0(%0)" : : "r"(a) : "memory");
		}
		__asm__ volatile("sync" : : : "memory");
	}

	cp0_write_cause(cp0_read_cause() & ~(CAUSE_IV | CAUSE_IP_SW_MASK));
	cp0_write_status(cp0_read_status() & ~(ST_BEV | ST_ERL));
}

/*
 * An interrupt that arrived after arch_idle's `ei` but before its `wait`
 * finished skips the wait, so the caller re-checks for work at once.
 */
static unsigned long idle_restarts;

unsigned long trap_idle_restarts(void)
{
	return idle_restarts;
}

static void idle_restart(struct trapframe *tf)
{
	if (tf->epc >= (uintptr_t)mips_idle_window &&
	    tf->epc <= (uintptr_t)mips_idle_wait) {
		tf->epc = (uintptr_t)mips_idle_done;
		idle_restarts++;
	}
}

void mips_dump_frame(const struct trapframe *tf)
{
	unsigned code = exc_code(tf->cause);
	const struct exc_name *e = &exc_names[code];

	printf("\n*** MIPS exception %u: %s (%s) in %s mode\n", code,
	       e->name ? e->name : "reserved", e->what ? e->what : "?",
	       mode_name(tf->status));
	printf("EPC 0x%08x%s\n", (unsigned)tf->epc,
	       (tf->cause & CAUSE_BD) ? "  (the faulting instruction is the delay slot at EPC+4)" : "");
	printf("Cause 0x%08x  Status 0x%08x  BadVAddr 0x%08x\n",
	       (unsigned)tf->cause, (unsigned)tf->status, (unsigned)tf->badvaddr);
	for (unsigned i = 0; i < REG_COUNT; i++) {
		printf("%-4s %08x%s", reg_names[i], (unsigned)tf->regs[i],
		       (i % REGS_PER_LINE == REGS_PER_LINE - 1) ? "\n" : "  ");
	}
	printf("hi   %08x  lo   %08x\n", (unsigned)tf->hi, (unsigned)tf->lo);
}

static __attribute__((noreturn)) void trap_fatal(struct trapframe *tf)
{
	static int depth;
	unsigned code = exc_code(tf->cause);

	if (++depth > 1) {
		/* Faulting while reporting a fault: say the minimum and stop. */
		printf("\n*** MIPS exception %u at epc 0x%08x while handling another\n",
		       code, (unsigned)tf->epc);
		arch_halt();
	}
	mips_dump_frame(tf);
	panic("mips: %s exception in %s mode at EPC 0x%08x",
	      exc_names[code].name ? exc_names[code].name : "reserved",
	      mode_name(tf->status), (unsigned)tf->epc);
}

static bool frame_from_user(const struct trapframe *tf)
{
	return (tf->status & ST_KSU_MASK) == ST_KSU_USER;
}

/*
 * The entry assembly leaves the frame's BadVAddr alone (a system call or
 * an interrupt, most traps, has none): every other exception stores it
 * here, before anything it does could take another exception.  From the
 * entry to here the kernel touched only KSEG0 (unmapped: no TLB
 * exception), with interrupts off.
 */
static void frame_badvaddr(struct trapframe *tf)
{
	tf->badvaddr = cp0_read_badvaddr();
}

/* A system call never comes here (mips_syscall); Sys is fatal like any
 * exception mips_user_fault has no signal for. */
static void user_exception(struct trapframe *tf, unsigned code)
{
	struct user_fault f;

	frame_badvaddr(tf);
	switch (code) {
	case EXC_TLBL:
	case EXC_TLBS:
	case EXC_MOD:
		/* 0: mapped, retry; otherwise SIGSEGV is posted. */
		(void)trap_page_fault(tf, tf->badvaddr, code != EXC_TLBL, true);
		return;
	}
	f = mips_user_fault(code, tf->badvaddr, tf->epc, (tf->cause & CAUSE_BD) != 0);
	if (f.signo == 0)
		trap_fatal(tf);
	trap_user_fault(tf, f.signo, f.what, f.addr);
}

static void kernel_exception(struct trapframe *tf, unsigned code)
{
	bool tlb = code == EXC_TLBL || code == EXC_TLBS || code == EXC_MOD;

	frame_badvaddr(tf);
	/* The kernel never touches user memory directly: this is a bug,
	 * unless the kernel one day maps it on demand. */
	if (tlb && trap_page_fault(tf, tf->badvaddr, code != EXC_TLBL, false) == 0)
		return;
	trap_fatal(tf);
}

/*
 * Returns through mips_trap_return_kept (vectors.S), which leaves the
 * callee-saved registers as this function hands them back: nothing here
 * rewrites them in the frame (only sigreturn does, a system call).
 */
void mips_trap(struct trapframe *tf)
{
	bool user = frame_from_user(tf);
	unsigned code = exc_code(tf->cause);

	trap_enter(user);
	if (code == EXC_INT) {
		/* The idle window is kernel code: a user pc is never in it. */
		if (!user)
			idle_restart(tf);
		intr_dispatch(tf->cause & cp0_read_status() & CAUSE_IP_MASK,
		              tf->cause, tf->epc, user);
	} else if (user) {
		user_exception(tf, code);
	} else {
		kernel_exception(tf, code);
	}
	if (user) {
		trap_return_check(tf);
		trap_exit(true);
	} else {
		trap_exit(false);
	}
}

/*
 * A system call from user mode, chosen by the exception entry
 * (vectors.S) from Cause.ExcCode and Status.UM before any C runs: the
 * arch's fast way (kernel/arch_task.h), without mips_trap's tests for
 * interrupts and faults, the mode and the scheduler's state, since only
 * a task in user mode gets here.  The frame's EPC is already where the
 * call resumes (the entry moved it on, or usermode.c mips_syscall_slot
 * did), and the frame may lack s0-s7 and fp (trapframe.h
 * TF_CAUSE_FULL): nothing here reads them, and C keeps the user's in
 * their registers.
 *
 * mips_syscall is the cut, no more: it returns the handler
 * (syscall_handler), which the entry calls itself, with the arguments
 * in the frame and the frame (it has its address in sp), so that no C
 * function on the way keeps a stack frame; then the entry does
 * trap_syscall_run's rest (the result into the frame, unless
 * SYSCALL_FRAME_REPLACED: mips_syscall_replaced) and asks
 * trap_syscall_exit_due itself, with interrupts off again.  When the
 * short cut cannot run, the handler it returns is mips_syscall_slow,
 * which cuts the generic way and then calls the call's own.
 */

/*
 * The common system call's whole cut (kernel/entry.c trap_syscall_enter
 * in its deferred form, acct.h acct_cut_syscall_short), taken when the
 * CPU's slow hint is clear (pcpu.h: no TLB refill since the slow cut
 * last cleared it, so the refill counters are still the clock's, and no
 * counter wants the calls or their cycles, and the exit sink is
 * user_exit, so that the exit stamp is read there and the sink needs
 * no putting back).  The stamps are arch_user_span's (pcpu_user_span).
 * False, with nothing stored, when the span's own limits refuse:
 * mips_syscall_slow then.
 */
static inline bool syscall_cut_short(struct mips_pcpu *p)
{
	struct cpu *c = this_cpu();
	/* The stamp read once: the stores below could alias it. */
	uint64_t since = c->clock.stamp, left, back;

	/* The sink is user_exit while the hint is clear (pcpu.h). */
	pcpu_user_span(p, p->user_exit, since, &left, &back);

	return acct_cut_syscall_short(&c->clock, &c->current->acct, since, left, back);
}

/*
 * The short cut while the cycles alone are counted (hint
 * PCPU_SLOW_HELD): the same cut, and the span held for the PMU's
 * driver (kernel/pmu_kevent.h) when it fits this CPU's room; no call,
 * so mips_syscall stays a leaf on both ways.  The room
 * is tested before the cut stores anything: false, with nothing stored,
 * when either refuses, and the slow cut then does it all (the driver
 * told, the held cycles with it).  A span out of order is 2^31 or more
 * as 32 bits, and every room is below that.
 */
static inline __attribute__((always_inline)) bool syscall_cut_held(struct mips_pcpu *p)
{
	struct cpu *c = this_cpu();
	uint64_t since = c->clock.stamp, left, back;
	struct pmu_user_hold *h = c->hold;
	uint32_t user;

	pcpu_user_span(p, p->user_exit, since, &left, &back);
	user = (uint32_t)(back - left);
	if (user >= h->room - h->held)
		return false;
	if (!acct_cut_syscall_short(&c->clock, &c->current->acct, since, left, back))
		return false;
	h->held += user;
	return true;
}

/* The kinds whose counters the short cut would miss: the counted cut
 * (kernel/entry.c) reports them; of them, the cycles alone may be held
 * (syscall_cut_held). */
#define SLOW_KEVENTS (PMU_KEV_BIT(PMU_KEV_CYCLES) | PMU_KEV_BIT(PMU_KEV_SYSCALLS))
#define HELD_KEVENTS PMU_KEV_BIT(PMU_KEV_CYCLES)
/*
 * kernel/arch.h: cpu's word, and its hint set after the word is stored
 * whenever a counter loaded there wants those kinds; that CPU's next
 * call then reads the word (mips_syscall_slow).  Any block, online or
 * not: one that starts later starts with what its word says.  A change
 * that wants neither needs nothing: the next slow cut clears the hint.
 */
void arch_kevents_set(unsigned cpu, uint32_t kinds)
{
	struct mips_pcpu *p = &mips_pcpu[cpu];

	__atomic_store_n(&p->kevents, kinds, __ATOMIC_RELAXED);
	if (!(kinds & SLOW_KEVENTS))
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&p->syscall_slow, PCPU_SLOW_COUNTED, __ATOMIC_RELAXED);
}

uint32_t arch_kevents_of(unsigned cpu)
{
	return __atomic_load_n(&mips_pcpu[cpu].kevents, __ATOMIC_RELAXED);
}

/* Whether a counter loaded on this CPU (p) wants what the short cut
 * skips. */
static inline bool slow_kevents_wanted(const struct mips_pcpu *p)
{
	return (__atomic_load_n(&p->kevents, __ATOMIC_RELAXED) & SLOW_KEVENTS) != 0;
}

/* Whether of those the counters loaded on this CPU want the cycles alone. */
static inline bool held_kevents_only(const struct mips_pcpu *p)
{
	return (__atomic_load_n(&p->kevents, __ATOMIC_RELAXED) & SLOW_KEVENTS) ==
	       HELD_KEVENTS;
}

/*
 * The rest, the generic way, and then the call's own handler: the
 * counted cut while a counter wants the cycles or the calls (the hint
 * stays set, so that calls keep coming here until none does), else
 * trap_syscall_enter (which brings the clock's refill counts up to
 * date) with the hint cleared first.  Cleared before the PMU's word is
 * read again, so that a change of it made on another CPU meanwhile
 * (arch_kevents_set, which sets the hint after it changes the word)
 * is never lost: a read that still sees nothing wanted came before
 * that change, so its hint store comes after the clear.  Nothing here
 * can take a refill: interrupts are off and only KSEG0 is touched.
 */
static intptr_t mips_syscall_slow(const syscall_arg_t *args, struct trapframe *tf)
{
	struct mips_pcpu *p = pcpu_here_irqs_off();

	if (!slow_kevents_wanted(p)) {
		__atomic_store_n(&p->syscall_slow, 0, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (!slow_kevents_wanted(p)) {
			trap_syscall_enter(tf);
			goto call;
		}
		__atomic_store_n(&p->syscall_slow, PCPU_SLOW_COUNTED, __ATOMIC_RELAXED);
	} else if (held_kevents_only(p)) {
		/* The same order as the clear's above: a change that adds
		 * the calls, made meanwhile, is seen here or sets the hint
		 * after this store. */
		__atomic_store_n(&p->syscall_slow, PCPU_SLOW_HELD, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (!held_kevents_only(p))
			__atomic_store_n(&p->syscall_slow, PCPU_SLOW_COUNTED, __ATOMIC_RELAXED);
	}
	trap_syscall_enter_counted(tf);
call:
	__asm__ volatile("ei" : : : "memory");
	return syscall_dispatch(arch_tf_syscall_nr(tf), args, tf);
}

/*
 * The handler mips_syscall returns when the short cut refused a call
 * with the hint clear and the exit sink elsewhere than user_exit: the
 * short cut read a stamp the last return did not write, so the hint
 * that arch_user_stamp_to sets (pcpu.h) went missing.  A kernel bug.
 */
static intptr_t mips_syscall_sink_lost(const syscall_arg_t *args, struct trapframe *tf)
{
	(void)args;
	panic("mips: the exit sink is %p with the system call's slow hint clear (epc %08x)",
	      (void *)pcpu_here_irqs_off()->exit_sink, (unsigned)tf->epc);
}

/* fn, built where this is, on a slow way, not before the hint's test
 * (an empty asm that takes it: two instructions on every call). */
static inline syscall_fn slow_way(syscall_fn fn)
{
	__asm__("" : "+r"(fn));
	return fn;
}

/* The call's number as the entry had it in v0 (the frame holds it too). */
syscall_fn mips_syscall(uintptr_t nr)
{
	struct mips_pcpu *p = pcpu_here_irqs_off();

	if (__builtin_expect(p->syscall_slow != 0, 0)) {
		if (p->syscall_slow != PCPU_SLOW_HELD || !syscall_cut_held(p))
			return slow_way(mips_syscall_slow);
		__asm__ volatile("ei" : : : "memory");
		return syscall_handler(nr);
	}
	if (__builtin_expect(!syscall_cut_short(p), 0)) {
		/* Refused (rare), so checked here at no cost to the others:
		 * the stamp just read was the last return's only if the sink
		 * is user_exit.  A handler, not a call: a call would give
		 * this leaf a stack frame. */
		if (p->exit_sink != &p->user_exit)
			return slow_way(mips_syscall_sink_lost);
		return slow_way(mips_syscall_slow);
	}
	/* No ehb: the hazard only delays a pending interrupt by a few
	 * instructions, and nothing here waits for one. */
	__asm__ volatile("ei" : : : "memory");
	return syscall_handler(nr);
}

/* A call that replaced the frame (sigreturn): the whole frame back,
 * through the return work's checks.  Interrupts are off (the entry). */
void mips_syscall_replaced(struct trapframe *tf)
{
	trap_return_check(tf);
	trap_exit(true);
	arch_return_to_user(tf);
}

/*
 * Where the current code was called from.  O32 code built without frame
 * pointers has no chain to follow, so the chain is guessed: every stack
 * word that points into kernel text is printed, marked '?' because it may
 * be a stale return address (a trap frame's EPC and ra show up this way
 * too).  Resolve with  llvm-addr2line -f -e build/mips/tally.elf ADDR...
 * The scan stops at the top of the boot stack, or for any other stack at
 * the end of sp's page, which is always mapped.
 */
#define STACK_SCAN_MAX 32u
#define STACK_PAGE     4096u

void arch_dump_stack(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	uintptr_t top = (sp | (STACK_PAGE - 1)) + 1;
	unsigned found = 0;

	if (sp >= (uintptr_t)mips_boot_stack && sp < (uintptr_t)mips_boot_stack_top)
		top = (uintptr_t)mips_boot_stack_top;
	printf("  sp %08x  ra %08x  Status %08x  Cause %08x  EPC %08x\n",
	       (unsigned)sp, (unsigned)(uintptr_t)__builtin_return_address(0),
	       (unsigned)cp0_read_status(), (unsigned)cp0_read_cause(),
	       (unsigned)cp0_read_epc());
	printf("  call trace (? = maybe stale):\n");
	for (uintptr_t p = sp; p < top && found < STACK_SCAN_MAX; p += sizeof(uint32_t)) {
		uint32_t w = *(const uint32_t *)p;

		/* Instructions are word aligned; other text-range values are data. */
		if (w >= (uintptr_t)__text_start && w < (uintptr_t)__text_end &&
		    w % sizeof(uint32_t) == 0) {
			printf("    ? %08x\n", (unsigned)w);
			found++;
		}
	}
}
