/*
 * smp.c - the Malta's other CPUs: the 34K's VPEs, started through the MT
 * ASE, and why the other cores run one CPU.
 *
 * What QEMU 7.2's Malta offers beyond CPU 0 is read from the core at boot
 * (docs/design/platforms.md, "CPUs in QEMU", has the measurements):
 *
 *  - 24Kf, 74Kf (no MT ASE, no Coherence Manager): QEMU starts every -smp
 *    CPU at the kernel entry, start.S parks the others, and with no GIC
 *    there is no inter-processor interrupt to release them.  Boot says so.
 *  - 34Kf with -smp N: Config3.MT = 1, MVPConf0 reports N VPEs of one TC
 *    each, TC n is VPE n (QEMU's CPU index, so TargTC = n reaches it;
 *    TCBind.CurVPE reads 0 everywhere), EBase.CPUNum = n, and the VPEs
 *    other than 0 sit halted at the reset vector.  start_vpes() points
 *    each one's TC at mips_vpe_entry (vpe.S) and lets it run: in the MT
 *    ASE's configuration state (MVPControl.VPC, with the others stopped by
 *    dvpe) it halts the TC (TCHalt.H), sets TCRestart, activates the TC
 *    (TCStatus.A) and the VPE (VPEConf0.VPA, and MVP so it may reach
 *    back), clears TCHalt, leaves the configuration state and evpe's.
 *
 * A started VPE takes its own stack, its own Count/Compare tick at HZ,
 * and answers rings: the caller posts fn/arg in the VPE's mailbox and
 * raises the VPE's software interrupt 0 by writing Cause.IP0 in that VPE
 * with mttc0 (QEMU 7.2 implements mttc0 Cause on another VPE: measured,
 * `cpus --ping`).  Software interrupt 1 is the reschedule ring.
 *
 * Every VPE runs tasks, as an x86_64 AP does: the exception entry, the
 * eret path and the TLB refill handler find the running CPU's words
 * (kernel stack, user-time stamps, page-table root, refill ring) through
 * CP0 DESAVE (pcpu.h), so a VPE shares CPU 0's vector page and takes the
 * same entry (mips_trap) for everything.  QEMU gives every VPE a TLB of
 * its own (MVPConf0.TLBS = 0), so each has its own ASIDs (vm.c says how a
 * mapping change reaches the other TLBs).  Its tick is the scheduler's
 * (clock_tick_cpu), the reschedule ring wakes its idle loop or preempts
 * its task, and CPU 0 takes both rings.  Booted with novpetasks the VPEs
 * stay out of the scheduler: they tick, answer rings and keep their
 * hwperf banks through their own small exception path (vpe.S
 * mips_vpe_exc).
 *
 * Under -icount QEMU 7.2 runs the vCPUs in turn on one thread, each until
 * the next timer deadline, so a CPU that spins waiting for another with
 * interrupts off never lets it run (measured: hwperf's cross-calls to a
 * VPE in the scheduler timed out after 50 ticks, `-d exec` showing no
 * instruction of VPE 1 meanwhile).  A waiter therefore re-arms its own
 * Compare now and then (arch_cpu_relax, timer.c timer_yield_vcpu), which
 * ends its turn; and a VPE answers a ring before its tick.  The write
 * that ends a turn also means that the writer's next look at Count comes
 * after the other VPE ran to that deadline, so no loop may wait for
 * Compare to be ahead of Count after its own write (timer.c
 * timer_match_seen: such a loop is what kept the stress benchmark from
 * ending under -icount, measured).  And an idle VPE's tick leaves the
 * hwperf lock alone while only another CPU has counters (hooks.c
 * hwperf_tick_slow): taking it, it waited at every tick for CPU 0's
 * rotation, and that wait, in virtual time, made CPU 0's measured spins
 * 13 to 19 ticks long instead of 12 (`bench run cost` under -icount).
 * With all three, rules_smp, the stress benchmark and the cost rows pass
 * under -icount with tasks on the VPEs.
 *
 * Register facts: MIPS32 PRA (MD00090) Config3 bits 2 (MT) and 29
 * (CMGCR), EBase.CPUNum; MIPS MT ASE (MD00378), mt.h; CMGCRBase = CP0
 * register 15 select 3.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "addrspace.h"
#include "bootargs.h"
#include "console/cmd.h"
#include "cp0.h"
#include "hwperf/hwperf.h"
#include "mm/page.h"
#include "mips.h"
#include "mt.h"
#include "pcpu.h"
#include "proc/sched.h"
#include "proc/task.h"
#include "time/clock.h"
#include "trapframe.h"
#include "version.h"

#define CONFIG3_CMGCR        U32(0x20000000)
/* CMGCRBase holds physical address bits 35:15 in its bits 31:11. */
#define CMGCRBASE_ADDR_MASK  U32(0xfffff800)
#define CMGCRBASE_PA_SHIFT   4

/* One page: the stack its idle task runs on (and its interrupts, which
 * arrive in kernel mode on the current stack). */
#define VPE_STACK_SIZE       PAGE_SIZE
/* With novpetasks, vector offsets from EBase (trap.c has the same):
 * refill, cache error, general, interrupt.  Such a VPE takes no TLB
 * refill (it touches no mapped address), so a refill there is a bug and
 * goes to mips_vpe_trap too. */
static const uint32_t vpe_vector_offsets[] = { 0x000u, 0x100u, 0x180u, 0x200u };
#define VPE_VECTOR_END       0x280u

#define IP_RING              0u          /* software interrupt 0: a call */
#define IP_RESCHED           1u          /* software interrupt 1 */
#define US_PER_S             1000000u
#define VPE_ONLINE_WAIT_US   100000u
#define CALL_TIMEOUT_US      100000u
#define CATCHUP_MAX          100u

BOOTARG(novpetasks, "34K VPEs other than 0 stay out of the scheduler: they tick, "
	"answer rings and count, but run no task (mips)");
BOOTARG(vpetasks, "34K VPEs other than 0 run tasks (mips; the default, accepted "
	"for command lines that name it)");
BOOTARG(smpbreak, "smpbreak=N: leave 34K VPE N halted, to prove a VPE that does not "
	"start is reported and the others go on (mips)");
#define SMPBREAK_NONE        UINT64_MAX

enum vpe_stage {
	VPE_STAGE_NONE,         /* never reached mips_vpe_main */
	VPE_STAGE_ENTRY,        /* in C on its own stack */
	VPE_STAGE_ONLINE,       /* tick running, interrupts on */
};

struct vpe {
	uint32_t stage;
	uint32_t posting;               /* a caller is filling the mailbox */
	uint32_t cpunum;                /* EBase.CPUNum, as it read it */
	uint32_t curvpe;                /* TCBind.CurVPE, as the VPE read it */
	uint32_t curvpe_remote;         /* the same by mftc0 from VPE 0 */
	uint32_t next_compare;
	uint32_t ticks;                 /* its own Count/Compare ticks */
	uint64_t ipis, resched;
	uint32_t call_seq, call_done;
	void (*call_fn)(void *);
	void *call_arg;
	const char *why_offline;
};

static struct vpe vpes[CPU_MAX];
static unsigned nvpes_known = 1, nvpes_online = 1;
/* CPU 0 takes rings (Status.IM0) once another VPE is online. */
static bool cpu0_rings;
static uint32_t vpe_period;             /* Count cycles per tick */
static unsigned vpe_timer_ip;
/* CPU 0's arch_cycles() just before the VPEs were let run (timer.c). */
static uint64_t vpe_cycles_ref;
/* CPU 0's EBase: every CPU takes its exceptions through the same code
 * (pcpu.h), so the VPEs share its vector page. */
static uint32_t cpu0_ebase;
/* The VPEs run tasks (unless novpetasks). */
static bool vpe_tasks;
/* novpetasks: the VPEs' own vector page. */
static uint8_t *vpe_vectors;
extern const char mips_vpe_vec_stub[], mips_vpe_vec_stub_end[];
void mips_vpe_trap(struct trapframe *tf);

struct mips_pcpu mips_pcpu[CPU_MAX];
_Static_assert(offsetof(struct mips_pcpu, user_entry) == PCPU_USER_ENTRY, "pcpu.h");
_Static_assert(offsetof(struct mips_pcpu, user_exit) == PCPU_USER_EXIT, "pcpu.h");
_Static_assert(offsetof(struct mips_pcpu, exit_sink) == PCPU_EXIT_SINK, "pcpu.h");
_Static_assert(offsetof(struct mips_pcpu, kframe) == PCPU_KFRAME, "pcpu.h");
_Static_assert(offsetof(struct mips_pcpu, tlb_refills) == PCPU_REFILLS, "pcpu.h");
_Static_assert(offsetof(struct mips_pcpu, rr) == PCPU_RR, "pcpu.h");
_Static_assert(offsetof(struct mips_pcpu, refill_count) == PCPU_REFILL_COUNT, "pcpu.h");
_Static_assert(offsetof(struct mips_pcpu, refill_at) == PCPU_REFILL_AT, "pcpu.h");
_Static_assert(offsetof(struct mips_pcpu, pt_current) == PCPU_PT_CURRENT, "pcpu.h");
_Static_assert(offsetof(struct mips_pcpu, syscall_slow) == PCPU_SYSCALL_SLOW, "pcpu.h");

/* vpe.S reads the stack for its EBase.CPUNum here (0: not started),
 * below mips_vpe_max. */
uint32_t mips_vpe_stack_top[CPU_MAX];
const uint32_t mips_vpe_max = CPU_MAX;

extern const char mips_vpe_entry[];
void mips_vpe_main(unsigned cpu) __attribute__((noreturn));

/* Read only when Config3.CMGCR says the register exists. */
static uint32_t read_cmgcrbase(void)
{
	uint32_t v;

	__asm__ volatile("mfc0 %0, $15, 3" : "=r"(v) : : "memory");
	return v;
}

static uint32_t stage_of(const struct vpe *v)
{
	return __atomic_load_n(&v->stage, __ATOMIC_ACQUIRE);
}

/* ---- what the portable kernel asks (kernel/arch.h) ----------------------- */

unsigned arch_cpus_online(void)
{
	return nvpes_online;
}

/*
 * The CPU number lives in Context.PTEBase (bits 31:23), which every MIPS32
 * core has (Release 1 too, which has no EBase), which is per VPE on the
 * 34K, and which Tally's TLB refill does not use (it walks its own table
 * from BadVAddr).  Two instructions and no branch, the cheapest of the
 * ways measured (docs/costs.md says what it costs a one-CPU Malta).
 * Hardware writes only BadVPN2 (bits 22:4).
 */
#define CONTEXT_PTEBASE_SHIFT 23

void mips_set_cpu_number(unsigned cpu)
{
	struct mips_pcpu *p = &mips_pcpu[cpu];

	cp0_write_context((uint32_t)cpu << CONTEXT_PTEBASE_SHIFT);
	/* machdep.h machdep_cpu_local: this_cpu() on a VPE is that VPE's. */
	cp0_write_errorepc((uint32_t)(uintptr_t)&cpus_[cpu]);
	/* Before its first exception: every eret stamps through exit_sink. */
	p->exit_sink = &p->user_exit;
	cp0_write_desave((uint32_t)(uintptr_t)p);
}

unsigned arch_cpu_id(void)
{
	return machdep_cpu_id();
}

_Static_assert(CONTEXT_PTEBASE_SHIFT == MACHDEP_CONTEXT_CPU_SHIFT, "machdep.h");
_Static_assert(CP0_CONTEXT == 4 && CP0_ERROREPC == 30, "machdep.h register numbers");

/*
 * No MIPS instruction makes QEMU's round-robin TCG run the other VPE
 * sooner (PAUSE measured: the -icount ping stays 3,332,5xx cycles), but a
 * Compare write does (timer.c, timer_yield_vcpu).  At most once per
 * 1/RELAX_YIELD_DIV of a tick of waiting, so that a waiter that looks
 * often does not make QEMU switch vCPUs every few instructions.  Only
 * with another CPU online: one CPU has nobody to wait for, and its relax
 * stays empty.
 */
#define RELAX_YIELD_DIV      64u
static uint32_t relax_last[CPU_MAX];

void arch_cpu_relax(void)
{
	if (nvpes_online > 1) {
		unsigned me = arch_cpu_id();
		uint32_t now = cp0_read_count();

		if (now - relax_last[me] >= vpe_period / RELAX_YIELD_DIV) {
			relax_last[me] = now;
			timer_yield_vcpu();
		}
	}
}

/* Raise software interrupt ip in VPE cpu: mttc0 to its TC's Cause (in
 * QEMU, TC n is VPE n).  Only IP0/IP1 are written by a
 * Cause store, so the VPE's timer and device lines are not disturbed;
 * the VPE clears the bit itself before it looks at its mailbox.  The
 * read-modify-write can race the VPE's own clear of the other software
 * bit: at worst that bit is raised once more, a ring with nothing new
 * posted, which the VPE counts and ignores. */
static void raise_soft(unsigned cpu, unsigned ip)
{
	irqflags_t f = arch_irq_save();

	mt_target_tc(cpu);
	mt_write_tc_mtcause(mt_read_tc_mtcause() | CAUSE_IP(ip));
	arch_irq_restore(f);
}

static int post_call(unsigned cpu, void (*fn)(void *), void *arg)
{
	struct vpe *v;

	if (cpu >= nvpes_known)
		return -ENODEV;
	v = &vpes[cpu];
	/* CPU 0 takes rings only once there are VPEs to send them (intr.c
	 * hands it its software lines, mips_soft_interrupt). */
	if ((cpu == 0 && !__atomic_load_n(&cpu0_rings, __ATOMIC_ACQUIRE)) ||
	    stage_of(v) != VPE_STAGE_ONLINE)
		return -EAGAIN;
	/* Several CPUs may ring one (VPEs ring CPU 0): the first to claim
	 * the mailbox fills it, the others find it busy. */
	if (__atomic_exchange_n(&v->posting, 1, __ATOMIC_ACQUIRE))
		return -EBUSY;
	if (__atomic_load_n(&v->call_done, __ATOMIC_ACQUIRE) != v->call_seq) {
		__atomic_store_n(&v->posting, 0, __ATOMIC_RELEASE);
		return -EBUSY;
	}
	v->call_fn = fn;
	v->call_arg = arg;
	__atomic_store_n(&v->call_seq, v->call_seq + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&v->posting, 0, __ATOMIC_RELEASE);
	raise_soft(cpu, IP_RING);
	return 0;
}

int arch_cpu_ring(unsigned cpu, void (*fn)(void *), void *arg)
{
	return post_call(cpu, fn, arg);
}

static bool answered(unsigned cpu)
{
	const struct vpe *v = &vpes[cpu];

	return __atomic_load_n(&v->call_done, __ATOMIC_ACQUIRE) == v->call_seq;
}

/* Run fn on cpu (not this one) and wait until it did, answering this
 * CPU's own mailbox meanwhile (so two CPUs calling each other both get
 * through).  A CPU that is not online has nothing to do: -EAGAIN. */
int mips_cpu_call_wait(unsigned cpu, void (*fn)(void *), void *arg)
{
	int err;

	while ((err = post_call(cpu, fn, arg)) == -EBUSY)
		arch_lock_relax(true);
	if (err)
		return err;
	while (!answered(cpu))
		arch_lock_relax(true);
	return 0;
}

static void run_posted_call(struct vpe *v)
{
	uint32_t seq = __atomic_load_n(&v->call_seq, __ATOMIC_ACQUIRE);

	if (seq != v->call_done) {
		v->call_fn(v->call_arg);
		__atomic_store_n(&v->call_done, seq, __ATOMIC_RELEASE);
	}
}

int arch_cpu_brief(unsigned cpu, char *buf, size_t len)
{
	const struct vpe *v;

	if (cpu >= nvpes_known)
		return -ENODEV;
	v = &vpes[cpu];
	if (cpu == 0)
		snprintf(buf, len, "vpe=0 online=1 role=boot timer=cp0-count ticks=%llu",
			 (unsigned long long)clock_ticks());
	else
		snprintf(buf, len, "vpe=%u online=%d role=vpe timer=cp0-count ticks=%llu",
			 /* the VPE's own EBase.CPUNum once it ran, else the
			  * TC it was to start (TargTC) */
			 stage_of(v) == VPE_STAGE_NONE ? cpu : (unsigned)v->cpunum,
			 stage_of(v) == VPE_STAGE_ONLINE,
			 (unsigned long long)__atomic_load_n(&v->ticks, __ATOMIC_RELAXED));
	return 0;
}

/* A waiter with interrupts off may owe a call itself: answer it, so two
 * CPUs calling each other never both time out. */
void arch_lock_relax(bool poll_calls)
{
	if (poll_calls && nvpes_online > 1) {
		irqflags_t f = arch_irq_save();
		/* CPU 0 too, once it takes rings; before, its mailbox is
		 * always answered and this does nothing. */
		run_posted_call(&vpes[arch_cpu_id()]);
		arch_irq_restore(f);
	}
	arch_cpu_relax();
}

/* A wake-up or a pin for a task on another CPU (sched.c kick_if): the
 * waker set its need_resched; the ring makes it look now rather than at
 * its next tick.  CPU 0 takes the ring once there are VPEs.  Never
 * inlined: LTO inlined it into the switch, and with it the paths of
 * several CPUs, which made a one-CPU switch 24 instructions longer. */
__attribute__((noinline)) void arch_resched_cpu(unsigned cpu)
{
	if (cpu >= nvpes_known || stage_of(&vpes[cpu]) != VPE_STAGE_ONLINE)
		return;
	if (cpu == 0 && !__atomic_load_n(&cpu0_rings, __ATOMIC_ACQUIRE))
		return;
	raise_soft(cpu, IP_RESCHED);
}

/* On any CPU, from intr.c: the software lines among the pending ones
 * nobody else handles.  A call ring runs the posted call; a reschedule
 * ring needs nothing more than the interrupt itself (the return to user
 * mode preempts, the idle loop looks at need_resched). */
uint32_t mips_soft_interrupt(uint32_t pending)
{
	uint32_t soft = pending & (CAUSE_IP(IP_RING) | CAUSE_IP(IP_RESCHED));
	unsigned cpu = arch_cpu_id();
	struct vpe *v = &vpes[cpu];

	/* A VPE takes its rings from the start (a wake-up may ring it before
	 * every VPE is online: left unhandled, the line would be masked as
	 * stray and the VPE deaf to rings); CPU 0 once it opened the lines. */
	if (!soft || (cpu == 0 && !__atomic_load_n(&cpu0_rings, __ATOMIC_ACQUIRE)))
		return pending;
	/* Cleared before the mailbox is read: a ring posted after this
	 * raises the line again. */
	cp0_write_cause(cp0_read_cause() & ~soft);
	if (soft & CAUSE_IP(IP_RING)) {
		v->ipis++;
		run_posted_call(v);
	}
	if (soft & CAUSE_IP(IP_RESCHED)) {
		v->ipis++;
		v->resched++;
	}
	return pending & ~soft;
}

/* ---- on the VPE ----------------------------------------------------------- */

/* This VPE's Compare stepped past now: the ticks due (timer.c does the
 * same for CPU 0, signed differences since Count and Compare wrap). */
static unsigned vpe_ticks_due(struct vpe *v)
{
	uint32_t now = cp0_read_count();
	unsigned due = 0;

	timer_count_tick(now);
	while ((int32_t)(now - v->next_compare) >= 0) {
		v->next_compare += vpe_period;
		if (++due > CATCHUP_MAX) {
			v->next_compare = now + vpe_period;
			break;
		}
	}
	cp0_write_compare(v->next_compare);
	while ((int32_t)(cp0_read_count() - v->next_compare) >= 0 && !timer_match_seen()) {
		v->next_compare += vpe_period;
		due++;
		cp0_write_compare(v->next_compare);
	}
	return due;
}

/*
 * A VPE's tick in the scheduler, from intr_dispatch (CPU 0's is
 * timer_interrupt, which also keeps the wall clock): the scheduler's tick
 * for its CPU, as an x86_64 AP's (kernel/time/clock.h).  Never inlined:
 * inlined, its registers made CPU 0's tick save six more (15 cycles a
 * tick measured).
 */
__attribute__((noinline)) void mips_vpe_tick(void)
{
	struct vpe *v = &vpes[arch_cpu_id()];

	for (unsigned due = vpe_ticks_due(v); due > 0; due--) {
		__atomic_store_n(&v->ticks, v->ticks + 1, __ATOMIC_RELAXED);
		hwperf_cpu_tick_seen();
		clock_tick_cpu();
	}
}

/* With novpetasks, every exception of a VPE (vpe.S mips_vpe_exc). */
void mips_vpe_trap(struct trapframe *tf)
{
	unsigned cpu = arch_cpu_id();
	struct vpe *v = &vpes[cpu];
	uint32_t pending, other;

	if (cp0_field(tf->cause, CAUSE_EXC_MASK, CAUSE_EXC_SHIFT) != EXC_INT) {
		mips_dump_frame(tf);
		panic("smp: exception on cpu %u (vpe %u) at EPC 0x%08x", cpu,
		      (unsigned)v->cpunum, (unsigned)tf->epc);
	}
	pending = tf->cause & cp0_read_status() & CAUSE_IP_MASK;
	if (pending & (CAUSE_IP(IP_RING) | CAUSE_IP(IP_RESCHED)))
		/* Cleared before the mailbox is read: a ring posted after
		 * this raises the line again. */
		cp0_write_cause(cp0_read_cause() &
				~(pending & (CAUSE_IP(IP_RING) | CAUSE_IP(IP_RESCHED))));
	if (pending & CAUSE_IP(IP_RING)) {
		v->ipis++;
		run_posted_call(v);
	}
	if (pending & CAUSE_IP(IP_RESCHED)) {
		v->ipis++;
		v->resched++;
	}
	if (pending & CAUSE_IP(vpe_timer_ip)) {
		for (unsigned due = vpe_ticks_due(v); due > 0; due--) {
			__atomic_store_n(&v->ticks, v->ticks + 1, __ATOMIC_RELAXED);
			/* It runs no task: the PMU still counts its tick and
			 * keeps its SYSTEM blocks (kernel/hwperf/hwperf.h). */
			hwperf_idle_cpu_tick();
		}
	}
	other = pending & ~(CAUSE_IP(IP_RING) | CAUSE_IP(IP_RESCHED) |
			    CAUSE_IP(vpe_timer_ip));
	if (other)
		/* Nothing else is wired to a VPE but CPU 0: mask, never loop. */
		cp0_write_status(cp0_read_status() & ~other);
}

void mips_vpe_main(unsigned cpu)
{
	struct vpe *v = &vpes[cpu];

	v->cpunum = cpu;
	mips_set_cpu_number(cpu);
	v->curvpe = mt_read_tcbind() & TCBIND_CURVPE_MASK;
	mips_copy64_cpu_init();
	__atomic_store_n(&v->stage, VPE_STAGE_ENTRY, __ATOMIC_RELEASE);
	if (vpe_tasks) {
		/* Its TLB, root and ASIDs, then CPU 0's vectors (written
		 * while BEV is still set): from here it may take an
		 * exception. */
		tlb_init();
		vm_cpu_init();
		intr_cpu_init();
		cp0_write_ebase(cpu0_ebase);
	} else {
		/* Its own vector page, written while BEV is still set. */
		cp0_write_ebase((uint32_t)(uintptr_t)vpe_vectors & EBASE_BASE_MASK);
	}
	cp0_write_cause(0);
	timer_cpu_start(vpe_cycles_ref);
	v->next_compare = cp0_read_count() + vpe_period;
	cp0_write_compare(v->next_compare);
	/* A vCPU the host held up for a period between the read and the
	 * write would otherwise wait a whole Count wrap (26 s) for its first
	 * tick: seen once on a loaded host, ticks=0 after 300 ms. */
	while ((int32_t)(cp0_read_count() - v->next_compare) >= 0) {
		v->next_compare += vpe_period;
		cp0_write_compare(v->next_compare);
	}
	/* Interrupts off (IE) until it is in the scheduler, so that its
	 * first tick finds its idle task; then on, as the idle loop expects
	 * them (with idlespin it never opens a window of its own). */
	cp0_write_status((cp0_read_status() & ~(ST_BEV | ST_ERL | ST_EXL | ST_IE | ST_IM_MASK)) |
			 ST_IM(vpe_timer_ip) | ST_IM(IP_RING) | ST_IM(IP_RESCHED));
	if (vpe_tasks)
		sched_ap_start(cpu);
	__atomic_store_n(&v->stage, VPE_STAGE_ONLINE, __ATOMIC_RELEASE);
	arch_irq_enable();
	if (vpe_tasks)
		sched_ap_idle();
	for (;;)
		arch_idle();
}

static void fill_vectors(void)
{
	size_t stub = (size_t)(mips_vpe_vec_stub_end - mips_vpe_vec_stub);
	uintptr_t base = (uintptr_t)vpe_vectors;
	uint32_t step;

	for (size_t i = 0; i < sizeof(vpe_vector_offsets) / sizeof(vpe_vector_offsets[0]); i++)
		memcpy(vpe_vectors + vpe_vector_offsets[i], mips_vpe_vec_stub, stub);
	/* Make instruction fetch see them (34K is Release 2: synci). */
	__asm__ volatile("rdhwr %0, $" CP0_STR(HWR_SYNCI_STEP) : "=r"(step));
	if (step != 0) {
		for (uintptr_t a = base; a < base + VPE_VECTOR_END; a += step)
			__asm__ volatile("synci 0(%0)" : : "r"(a) : "memory");
	}
	__asm__ volatile("sync" : : : "memory");
}

/* ---- starting the VPEs (on CPU 0) ----------------------------------------- */

/* Point TC n (bound to VPE n) at mips_vpe_entry and let it run at the next
 * evpe; in the configuration state, the other VPEs stopped. */
static void release_tc(unsigned n)
{
	mt_target_tc(n);
	vpes[n].curvpe_remote = mt_read_tc_tcbind() & TCBIND_CURVPE_MASK;
	mt_write_tc_tchalt(TCHALT_H);
	mt_write_tc_tcrestart((uint32_t)(uintptr_t)mips_vpe_entry);
	mt_write_tc_tcstatus((mt_read_tc_tcstatus() & ~(TCSTATUS_TKSU_MASK | TCSTATUS_IXMT)) |
			     TCSTATUS_A);
	mt_write_tc_vpeconf0(mt_read_tc_vpeconf0() | VPECONF0_VPA | VPECONF0_MVP);
	mt_write_tc_tchalt(0);
}

static const char *stage_why(uint32_t stage)
{
	return stage == VPE_STAGE_NONE ? "did not reach mips_vpe_main within 100 ms" :
		"reached C, never went online";
}

static void start_vpes(unsigned n, uint32_t mvpconf0)
{
	struct timer_stats st;
	uint64_t brk = bootarg_u64("smpbreak", SMPBREAK_NONE, 0, UINT32_MAX);
	unsigned left_off = 0;
	uint64_t limit, t0;
	irqflags_t f;

	timer_stats(&st);
	vpe_period = st.period;
	vpe_timer_ip = timer_ip();
	if (n > CPU_MAX) {
		left_off = n - CPU_MAX;
		n = CPU_MAX;
	}
	cpu0_ebase = cp0_read_ebase() & EBASE_BASE_MASK;
	vpe_tasks = !bootarg_present("novpetasks");
	if (!vpe_tasks) {
		/* A page, taken (with a page of stack per VPE) only when there
		 * are VPEs to start, so that a one-CPU boot clears no more BSS
		 * than before. */
		vpe_vectors = page_alloc();
		if (!vpe_vectors) {
			printf("smp: Malta runs one CPU of %u VPEs: no page for their "
			       "vectors\n", n);
			return;
		}
	}
	nvpes_known = n;
	vpes[0].stage = VPE_STAGE_ONLINE;
	for (unsigned i = 1; i < n; i++) {
		uint8_t *stack = page_alloc();

		if (stack)
			mips_vpe_stack_top[i] = (uint32_t)(uintptr_t)(stack + VPE_STACK_SIZE);
		else
			vpes[i].why_offline = "no memory for its stack";
	}
	if (vpe_tasks)
		/* Giant on before any VPE can run a task (kernel/spinlock.h). */
		sched_smp_prepare();
	else
		fill_vectors();

	f = arch_irq_save();
	vpe_cycles_ref = arch_cycles();
	(void)mt_dvpe();
	mt_write_mvpcontrol(mt_read_mvpcontrol() | MVPCONTROL_VPC);
	for (unsigned i = 1; i < n; i++)
		if (mips_vpe_stack_top[i] && i != brk)
			release_tc(i);
	mt_write_mvpcontrol(mt_read_mvpcontrol() & ~MVPCONTROL_VPC);
	mt_evpe();
	arch_irq_restore(f);

	limit = arch_cycles_hz() * VPE_ONLINE_WAIT_US / US_PER_S;
	for (unsigned i = 1; i < n; i++) {
		struct vpe *v = &vpes[i];

		t0 = arch_cycles();
		while (stage_of(v) != VPE_STAGE_ONLINE && arch_cycles() - t0 < limit)
			;
		/* vpe.S indexed its stack and mips_vpe_main its structure by
		 * EBase.CPUNum: online here means CPUNum == i. */
		if (stage_of(v) == VPE_STAGE_ONLINE) {
			nvpes_online++;
			continue;
		}
		if (!v->why_offline)
			v->why_offline = i == brk ? "left halted (smpbreak), never reached "
				"mips_vpe_main within 100 ms" : stage_why(stage_of(v));
		printf("smp: cpu %u did not start: %s\n", i, v->why_offline);
	}
	if (nvpes_online > 1) {
		/* Now a VPE may ring CPU 0 (`cpus --ring0 N`). */
		f = arch_irq_save();
		__atomic_store_n(&cpu0_rings, true, __ATOMIC_RELEASE);
		cp0_write_status(cp0_read_status() | ST_IM(IP_RING) | ST_IM(IP_RESCHED));
		arch_irq_restore(f);
	}
	printf("smp: %u of %u VPEs online (MT ASE: TCRestart, TCStatus.A, VPEConf0.VPA, "
	       "evpe; MVPConf0 TLBS=%u, MVPControl.STLB=%u); each ticks on its own "
	       "Count/Compare at %u Hz and is rung by mttc0 Cause.IP0\n", nvpes_online, n,
	       !!(mvpconf0 & MVPCONF0_TLBS), !!(mt_read_mvpcontrol() & MVPCONTROL_STLB),
	       clock_hz);
	if (vpe_tasks && nvpes_online > 1)
		printf("smp: every online VPE runs tasks (its own run queue, "
		       "tick and TLB with per-CPU ASIDs; the entry's words per CPU through "
		       "DESAVE); the console and device interrupts stay on cpu 0\n");
	else if (!vpe_tasks)
		printf("smp: novpetasks: VPEs other than 0 run no tasks; they tick, "
		       "answer rings and count\n");
	if (left_off)
		printf("smp: %u VPE%s left off: more than CPU_MAX (%u)\n", left_off,
		       left_off == 1 ? "" : "s", CPU_MAX);
}

static void malta_cpus(void)
{
	uint32_t c3 = cp0_has_config3() ? cp0_read_config3() : 0;
	unsigned mt = !!(c3 & CONFIG3_MT), cm = !!(c3 & CONFIG3_CMGCR), vpes_n = 1;
	uint32_t mvpconf0 = 0;

	if (mt) {
		mvpconf0 = mt_read_mvpconf0();
		vpes_n = cp0_field(mvpconf0, MVPCONF0_PVPE_MASK, MVPCONF0_PVPE_SHIFT) + 1;
	}
	if (mt && vpes_n > 1) {
		start_vpes(vpes_n, mvpconf0);
		return;
	}
	printf("smp: Malta runs one CPU: Config3.MT=%u Config3.CMGCR=%u", mt, cm);
	if (mt)
		printf(" MVPConf0 VPEs=%u", vpes_n);
	if (cm)
		printf(" CMGCRBase=%#llx", (unsigned long long)(read_cmgcrbase() &
		       CMGCRBASE_ADDR_MASK) << CMGCRBASE_PA_SHIFT);
	if (mt)
		printf(": one VPE (QEMU gives the 34Kf one per -smp CPU)\n");
	else if (cm)
		printf(": bring-up through the Coherence Manager is not written yet\n");
	else
		printf(": QEMU starts any other -smp CPU at the kernel entry, which parks "
		       "it (WAIT, interrupts off); with no GIC there is no IPI to "
		       "release it\n");
}
BOOT_HOOK(malta_cpus, malta_cpus);

/* ---- `cpus` ---------------------------------------------------------------- */

static volatile unsigned ping_from;
/* this_cpu()->id where the call ran: the struct cpu the VPE finds. */
static volatile unsigned ping_local;
static volatile uint32_t ping_round_seen[CPU_MAX];
static uint32_t ping_round;

/* Runs on the pinged CPU: say who answered, and in which round. */
static void ping_fn(void *arg)
{
	unsigned id = arch_cpu_id();

	(void)arg;
	__atomic_store_n(&ping_local, this_cpu()->id, __ATOMIC_RELEASE);
	__atomic_store_n(&ping_from, id, __ATOMIC_RELEASE);
	__atomic_store_n(&ping_round_seen[id], ping_round, __ATOMIC_RELEASE);
}

static int wait_answer(unsigned cpu, uint64_t t0, uint64_t limit)
{
	while (!answered(cpu)) {
		if (arch_cycles() - t0 >= limit)
			return -ETIMEDOUT;
	}
	return 0;
}

static int parse_cpu(const char *arg, const char *opt, unsigned long *n)
{
	char *end;

	*n = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end != '\0') {
		printf("error: cpus: EINVAL: %s needs a CPU number, not '%s'\n", opt, arg);
		return CMD_ERR_REPORTED;
	}
	return 0;
}

static int cpus_ping_all(void)
{
	uint64_t limit = arch_cycles_hz() * CALL_TIMEOUT_US / US_PER_S, t0, t1;
	bool posted[CPU_MAX] = { false };
	unsigned got = 0;

	ping_round++;
	t0 = arch_cycles();
	for (unsigned i = 1; i < nvpes_known; i++)
		posted[i] = stage_of(&vpes[i]) == VPE_STAGE_ONLINE &&
			    post_call(i, ping_fn, NULL) == 0;
	for (unsigned i = 1; i < nvpes_known; i++) {
		if (posted[i] && wait_answer(i, t0, limit) != 0) {
			printf("error: cpus: ETIMEDOUT: cpu %u did not answer within %u ms\n",
			       i, CALL_TIMEOUT_US / 1000);
			return CMD_ERR_REPORTED;
		}
	}
	t1 = arch_cycles();
	for (unsigned i = 1; i < nvpes_known; i++)
		if (__atomic_load_n(&ping_round_seen[i], __ATOMIC_ACQUIRE) == ping_round)
			got++;
	printf("all answered: cpus=%u cycles=%llu\n", got, (unsigned long long)(t1 - t0));
	return 0;
}

static int cpus_ping(const char *arg)
{
	unsigned long n;
	uint64_t t0, t1;
	int err;

	if (strcmp(arg, "all") == 0)
		return cpus_ping_all();
	if (parse_cpu(arg, "--ping", &n))
		return CMD_ERR_REPORTED;
	if (n >= nvpes_known) {
		printf("error: cpus: ENODEV: no cpu %lu (%u known)\n", n, nvpes_known);
		return CMD_ERR_REPORTED;
	}
	ping_from = CPU_MAX;
	ping_local = CPU_MAX;
	t0 = arch_cycles();
	if (n == 0) {
		irqflags_t f = arch_irq_save();
		ping_fn(NULL);
		arch_irq_restore(f);
		err = 0;
	} else {
		err = post_call((unsigned)n, ping_fn, NULL);
		if (err == 0)
			err = wait_answer((unsigned)n, t0,
					  arch_cycles_hz() * CALL_TIMEOUT_US / US_PER_S);
	}
	t1 = arch_cycles();
	switch (err) {
	case 0:
		printf("cpu %lu answered: from=cpu%u vpe=%u this_cpu=%u cycles=%llu\n", n,
		       __atomic_load_n(&ping_from, __ATOMIC_ACQUIRE),
		       (unsigned)vpes[n].cpunum,
		       __atomic_load_n(&ping_local, __ATOMIC_ACQUIRE),
		       (unsigned long long)(t1 - t0));
		return 0;
	case -EAGAIN:
		printf("error: cpus: EAGAIN: cpu %lu is not online: %s\n", n,
		       vpes[n].why_offline ? vpes[n].why_offline : "?");
		return CMD_ERR_REPORTED;
	case -EBUSY:
		printf("error: cpus: EBUSY: cpu %lu still owes an earlier call\n", n);
		return CMD_ERR_REPORTED;
	case -ETIMEDOUT:
		printf("error: cpus: ETIMEDOUT: cpu %lu did not answer within %u ms\n",
		       n, CALL_TIMEOUT_US / 1000);
		return CMD_ERR_REPORTED;
	default:
		return err;
	}
}

/* Runs on the relaying VPE: ring CPU 0 from there. */
static volatile int relay_err;
static void relay_fn(void *arg)
{
	(void)arg;
	__atomic_store_n(&relay_err, post_call(0, ping_fn, NULL), __ATOMIC_RELEASE);
}

/*
 * VPE n rings CPU 0: CPU 0 posts relay_fn to n, n posts ping_fn to CPU 0
 * and raises CPU 0's Cause.IP0 with mttc0, and CPU 0 runs it in its
 * interrupt handler while this command spins with interrupts on (never
 * polling its own mailbox, so cpu 0's ipis count says the interrupt came).
 */
static int cpus_ring0(const char *arg)
{
	uint64_t limit = arch_cycles_hz() * CALL_TIMEOUT_US / US_PER_S, t0, t1;
	unsigned long n;
	int err;

	if (parse_cpu(arg, "--ring0", &n))
		return CMD_ERR_REPORTED;
	if (n == 0 || n >= nvpes_known) {
		printf("error: cpus: ENODEV: no VPE %lu to ring cpu 0 from (%u known)\n", n,
		       nvpes_known);
		return CMD_ERR_REPORTED;
	}
	ping_from = CPU_MAX;
	ping_local = CPU_MAX;
	relay_err = 1;
	t0 = arch_cycles();
	err = post_call((unsigned)n, relay_fn, NULL);
	if (err == 0)
		err = wait_answer((unsigned)n, t0, limit);
	if (err == 0)
		err = __atomic_load_n(&relay_err, __ATOMIC_ACQUIRE);
	if (err == 0)
		err = wait_answer(0, t0, limit);
	t1 = arch_cycles();
	switch (err) {
	case 0:
		printf("cpu 0 answered a ring from cpu %lu: from=cpu%u this_cpu=%u cycles=%llu\n",
		       n, __atomic_load_n(&ping_from, __ATOMIC_ACQUIRE),
		       __atomic_load_n(&ping_local, __ATOMIC_ACQUIRE),
		       (unsigned long long)(t1 - t0));
		return 0;
	case -EAGAIN:
		printf("error: cpus: EAGAIN: cpu %lu or cpu 0 takes no ring\n", n);
		return CMD_ERR_REPORTED;
	case -EBUSY:
		printf("error: cpus: EBUSY: a mailbox still owes an earlier call\n");
		return CMD_ERR_REPORTED;
	case -ETIMEDOUT:
		printf("error: cpus: ETIMEDOUT: no answer within %u ms\n", CALL_TIMEOUT_US / 1000);
		return CMD_ERR_REPORTED;
	default:
		return err;
	}
}

static int cpus_resched(const char *arg)
{
	unsigned long n;

	if (parse_cpu(arg, "--resched", &n))
		return CMD_ERR_REPORTED;
	if (n == 0 || n >= nvpes_known) {
		printf("error: cpus: ENODEV: no VPE %lu to ring (%u known)\n", n, nvpes_known);
		return CMD_ERR_REPORTED;
	}
	if (stage_of(&vpes[n]) != VPE_STAGE_ONLINE) {
		printf("error: cpus: EAGAIN: cpu %lu is not online\n", n);
		return CMD_ERR_REPORTED;
	}
	raise_soft((unsigned)n, IP_RESCHED);
	printf("cpu %lu sent the reschedule ring\n", n);
	return 0;
}

static int cmd_cpus(int argc, char **argv)
{
	char line[128];

	if (argc == 3 && strcmp(argv[1], "--ping") == 0)
		return cpus_ping(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--resched") == 0)
		return cpus_resched(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--ring0") == 0)
		return cpus_ring0(argv[2]);
	if (argc != 1) {
		printf("error: usage: cpus [--ping N|all] [--resched N] [--ring0 N]\n");
		return CMD_ERR_REPORTED;
	}
	printf("cpus: online=%u known=%u\n", nvpes_online, nvpes_known);
	for (unsigned i = 0; i < nvpes_known; i++) {
		const struct vpe *v = &vpes[i];

		arch_cpu_brief(i, line, sizeof(line));
		printf("cpu=%u %s ipis=%llu resched=%llu", i, line,
		       (unsigned long long)v->ipis, (unsigned long long)v->resched);
		/* Measured, for docs/design/platforms.md: what TCBind says. */
		if (i)
			printf(" tcbind_curvpe=%u/%u", (unsigned)v->curvpe,
			       (unsigned)v->curvpe_remote);
		if (i && stage_of(v) != VPE_STAGE_ONLINE)
			printf(" why=\"%s\"", v->why_offline ? v->why_offline : "?");
		printf("\n");
	}
	return 0;
}
CONSOLE_CMD(cpus, "each CPU (34K VPE): online, timer ticks, rings; --ping N or all: "
	    "a ring round trip", "cpus [--ping N|all] [--resched N] [--ring0 N]", cmd_cpus);
