/*
 * smp.c - the application processors: found in the ACPI MADT, started
 * with INIT-SIPI-SIPI through smp_tramp.asm, then idle with their own
 * LAPIC timer, answering IPIs.  See smp.h for what they do not do yet.
 *
 * The start-up sequence and its delays are Intel SDM vol. 3A 9.4.4.1
 * (INIT, 10 ms, SIPI, 200 us, SIPI, 200 us); the delays are timed with the
 * TSC, whose rate (timer.c) is known by the time smp_boot runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi.h"
#include "apic.h"
#include "arch.h"
#include "bootargs.h"
#include "time/clock.h"
#include "console/cmd.h"
#include "cpu.h"
#include "gdt.h"
#include "hwperf/hwperf.h"
#include "layout.h"
#include "paging.h"
#include "percpu.h"
#include "pmu/lapic_pmi.h"
#include "smp.h"
#include "proc/sched.h"
#include "proc/task.h"
#include "trap.h"

/* ICR low (SDM vol. 3A 10.6.1): delivery mode 10:8, level 14. */
#define ICR_FIXED          0x000u
#define ICR_INIT           0x500u
#define ICR_STARTUP        0x600u
#define ICR_ASSERT         0x4000u

#define US_PER_S           1000000u
#define INIT_DELAY_US      10000u       /* after INIT, before the first SIPI */
#define SIPI_DELAY_US      200u         /* after each SIPI */
/* From the SIPIs to "online": a vCPU thread on a loaded host can be kept
 * off its core for tens of milliseconds (100 ms was missed, 2 of 5 runs). */
#define AP_ONLINE_WAIT_US  500000u
#define CALIBRATE_US       10000u       /* LAPIC timer against the TSC */
#define AP_STACK_SIZE      16384u
#define CR4_PCE            (1ull << 8)  /* per task on CPU 0 (ucounters.c) */

BOOTARG(smpbreak, "smpbreak=APICID: send that CPU no startup IPI, to prove a CPU that "
	"does not start is reported and the others go on (x86_64)");
#define SMPBREAK_NONE      UINT64_MAX
BOOTARG(smplate, "smplate=CPU: that AP dawdles past the BSP's wait before joining, and "
	"gets no INIT after: a late AP parks instead of joining a kernel that counted it "
	"offline (x86_64)");
/* The CPU number smplate= names (SMPBREAK_NONE: none); read by the APs. */
static uint64_t ap_late = SMPBREAK_NONE;

/* smp_tramp.asm */
extern const uint8_t ap_tramp_start[], ap_tramp_end[], ap_tramp_params[];

/* The trampoline's parameter block, in its order. */
struct smp_tramp_params {
	uint64_t cr3;                   /* below 4 GiB: loaded in 32-bit mode */
	uint64_t efer;
	uint64_t stack;
	uint64_t entry;
	uint64_t cpu;
};

static struct {
	uint8_t copy[ACPI_RSDP_MAX_LEN];
	size_t len;                     /* of copy; 0: none */
	uint64_t pa;                    /* where it is, when known */
	const char *source;
} rsdp;

static struct acpi_madt_info madt;
static bool tramp_page_free;
static const char *acpi_why;            /* NULL once the MADT was read */
static unsigned ncpus_known = 1, ncpus_online = 1;
static uint32_t timer_count;            /* LVT timer counts (/16) per tick */
static uint64_t timer_hz;               /* the LVT timer's rate at /16 */
static uint64_t ap_cr0, ap_cr4;

/* CR3 for the trampoline: the kernel's upper half plus an identity map
 * of the first 4 GiB (the instruction that turns paging on must be
 * where it is), the same PDPT the direct map uses. */
static uint64_t ap_pml4[PT_ENTRIES] __attribute__((aligned(PAGE_SIZE)));
static uint8_t ap_stacks[CPU_MAX][AP_STACK_SIZE] __attribute__((aligned(16)));

/* ---- finding the CPUs ---------------------------------------------------- */

void smp_note_rsdp_copy(const void *p, size_t len, const char *source)
{
	const uint8_t *b = p;

	if (len < ACPI_RSDP_V1_LEN)
		return;
	/* Keep an ACPI 2.0+ copy over a 1.0 one, whichever tag came first. */
	if (rsdp.len && rsdp.copy[ACPI_RSDP_REV_OFF] >= 2 && b[ACPI_RSDP_REV_OFF] < 2)
		return;
	rsdp.len = len < sizeof(rsdp.copy) ? len : sizeof(rsdp.copy);
	memcpy(rsdp.copy, p, rsdp.len);
	rsdp.source = source;
}

void smp_note_rsdp_pa(uint64_t pa, const char *source)
{
	if (pa == 0 || rsdp.len)
		return;
	rsdp.pa = pa;
	rsdp.source = source;
}

void smp_note_tramp_ram(bool free_ram)
{
	tramp_page_free = free_ram;
}

/* ACPI tables are read through the boot map, which covers 0..4 GiB. */
static const uint8_t *map_low(uint64_t pa, size_t len, void *ctx)
{
	(void)ctx;
	if (pa >= BOOT_MAP_END || len > BOOT_MAP_END - pa)
		return NULL;
	return arch_phys_to_virt(pa);
}

static const uint8_t *scan_bios(void)
{
	uint16_t seg;
	uint64_t ebda;
	long off;

	memcpy(&seg, map_low(ACPI_BDA_EBDA_SEG, 2, NULL), sizeof(seg));
	ebda = (uint64_t)seg << 4;
	/* A plausible EBDA lies in the last 128 KiB below 640 KiB. */
	if (ebda >= 0x80000u && ebda < 0xa0000u) {
		off = acpi_rsdp_scan(map_low(ebda, ACPI_EBDA_SCAN_LEN, NULL),
				     ACPI_EBDA_SCAN_LEN);
		if (off >= 0) {
			rsdp.pa = ebda + (uint64_t)off;
			return map_low(rsdp.pa, ACPI_RSDP_MAX_LEN, NULL);
		}
	}
	off = acpi_rsdp_scan(map_low(ACPI_BIOS_AREA, ACPI_BIOS_AREA_LEN, NULL),
			     ACPI_BIOS_AREA_LEN);
	if (off < 0)
		return NULL;
	rsdp.pa = ACPI_BIOS_AREA + (uint64_t)off;
	return map_low(rsdp.pa, ACPI_RSDP_MAX_LEN, NULL);
}

void smp_discover(void)
{
	const uint8_t *p;
	size_t avail = ACPI_RSDP_MAX_LEN;
	uint64_t root, madt_pa;
	uint32_t madt_len;
	bool xsdt;
	const char *why;

	if (rsdp.len) {
		p = rsdp.copy;
		avail = rsdp.len;
	} else if (rsdp.pa) {
		p = map_low(rsdp.pa, ACPI_RSDP_MAX_LEN, NULL);
		if (!p) {
			acpi_why = "rsdp above 4 GiB";
			return;
		}
	} else {
		rsdp.source = "bios scan";
		p = scan_bios();
		if (!p) {
			acpi_why = "no rsdp in the ebda or bios area";
			return;
		}
		/* The scan checked what lies beyond the bytes it needed. */
		avail = (size_t)(BOOT_MAP_END - rsdp.pa) < ACPI_RSDP_MAX_LEN ?
			(size_t)(BOOT_MAP_END - rsdp.pa) : ACPI_RSDP_MAX_LEN;
	}
	if (acpi_rsdp_parse(p, avail, &root, &xsdt, &why) != 0 ||
	    acpi_find_table(map_low, NULL, root, xsdt, "APIC", &madt_pa, &madt_len,
			    &why) != 0 ||
	    acpi_madt_parse(map_low(madt_pa, madt_len, NULL), madt_len, &madt, &why) != 0) {
		acpi_why = why;
		return;
	}
	acpi_why = NULL;
}

/* ---- starting the APs ---------------------------------------------------- */

static void delay_us(unsigned us)
{
	uint64_t n = arch_cycles_hz() * us / US_PER_S;
	uint64_t t0 = rdtsc();

	while (rdtsc() - t0 < n)
		__asm__ volatile("pause");
}

static uint32_t stage_of(const struct x86_cpu *c)
{
	if (!c)
		return SMP_STAGE_NONE;
	return __atomic_load_n(&c->stage, __ATOMIC_ACQUIRE);
}

/*
 * An AP that the BSP stopped waiting for must never join late: the kernel
 * already counts it offline, and a CPU that schedules while the others
 * believe there is one CPU breaks every lock's assumptions.  So each step
 * forward is a compare-exchange from the step before; when the BSP has
 * given up (SMP_STAGE_GIVEN_UP) the exchange fails and the AP parks with
 * interrupts off, touching nothing shared.
 */
static void ap_advance(struct x86_cpu *c, uint32_t from, uint32_t to)
{
	if (__atomic_compare_exchange_n(&c->stage, &from, to, false,
	                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* Where an AP lands in 64-bit C, on its own stack; never returns. */
static void ap_entry(uint64_t cpu) __attribute__((noreturn, used));
static void ap_entry(uint64_t cpu)
{
	struct x86_cpu *c = percpu_get((unsigned)cpu);

	/* The kernel's own tables: the identity slot was for the climb only. */
	write_cr3(arch_virt_to_phys(boot_pml4));
	ap_advance(c, SMP_STAGE_NONE, SMP_STAGE_ENTRY);
	gdt_init_cpu((unsigned)cpu);
	idt_load();
	percpu_init_cpu((unsigned)cpu);
	write_cr0(ap_cr0);
	write_cr4(ap_cr4);
	/* SYSCALL's MSRs are per CPU (EFER came with the trampoline). */
	syscall_init();
	ap_advance(c, SMP_STAGE_ENTRY, SMP_STAGE_TABLES);
	apic_ap_init();
	/* Its own counters interrupt it too (hwperf keeps them, R19). */
	lapic_pmi_init_cpu();
	c->apic_id = apic_id();
	ap_advance(c, SMP_STAGE_TABLES, SMP_STAGE_APIC);
	if (cpu == ap_late)
		delay_us(2 * AP_ONLINE_WAIT_US);
	/* The timer only once it is sure to join: a parked AP stays quiet. */
	ap_advance(c, SMP_STAGE_APIC, SMP_STAGE_JOINING);
	apic_timer_periodic(timer_count);
	/* Into the scheduler: this context becomes the CPU's idle task, and
	 * its traps take the full path (accounting, preemption). */
	sched_ap_start((unsigned)cpu);
	c->is_ap = 0;
	__atomic_store_n(&c->stage, SMP_STAGE_ONLINE, __ATOMIC_RELEASE);
	sched_ap_idle();
}

static const char *stage_why(uint32_t stage)
{
	switch (stage) {
	case SMP_STAGE_NONE:
		return "no answer to INIT-SIPI-SIPI within 500 ms";
	case SMP_STAGE_ENTRY:
		return "reached long mode, stuck before its own GDT/IDT";
	case SMP_STAGE_TABLES:
		return "stuck enabling its local APIC";
	default:
		return "stuck before going online";
	}
}

static int start_ap(unsigned n, uint32_t apic, bool no_sipi)
{
	struct x86_cpu *c = percpu_get(n);
	struct smp_tramp_params p = {
		.cr3 = arch_virt_to_phys(ap_pml4),
		.efer = rdmsr(MSR_EFER),
		.stack = (uint64_t)(uintptr_t)(ap_stacks[n] + AP_STACK_SIZE),
		.entry = (uint64_t)(uintptr_t)ap_entry,
		.cpu = n,
	};
	uint8_t *low = arch_phys_to_virt(SMP_TRAMP_PA);
	int err;

	c->apic_id = apic;
	c->stage = SMP_STAGE_NONE;
	c->why_offline = NULL;
	memcpy(low + (ap_tramp_params - ap_tramp_start), &p, sizeof(p));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	err = apic_send_ipi(apic, ICR_INIT | ICR_ASSERT);
	if (err) {
		c->why_offline = err == -EINVAL ? "APIC id beyond xAPIC's 8 bits" :
			"INIT not sent: the APIC kept the last IPI pending";
		return err;
	}
	delay_us(INIT_DELAY_US);
	for (unsigned i = 0; i < 2 && !no_sipi && stage_of(c) == SMP_STAGE_NONE; i++) {
		if (apic_send_ipi(apic, ICR_STARTUP | ICR_ASSERT | SMP_SIPI_VECTOR) != 0) {
			c->why_offline = "SIPI not sent: the APIC kept the last IPI pending";
			return -EBUSY;
		}
		delay_us(SIPI_DELAY_US);
	}
	uint64_t limit = arch_cycles_hz() * AP_ONLINE_WAIT_US / US_PER_S;
	uint64_t t0 = rdtsc();
	while (stage_of(c) < SMP_STAGE_ONLINE && rdtsc() - t0 < limit)
		__asm__ volatile("pause");
	/* Give up on it, unless it is already joining (then it is a few
	 * hundred instructions from online, and will get there). */
	uint32_t seen = stage_of(c);
	while (seen < SMP_STAGE_ONLINE &&
	       !__atomic_compare_exchange_n(&c->stage, &seen, SMP_STAGE_GIVEN_UP, false,
	                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
	if (seen == SMP_STAGE_ONLINE || seen == SMP_STAGE_JOINING) {
		while (stage_of(c) != SMP_STAGE_ONLINE)
			__asm__ volatile("pause");
		return 0;
	}
	c->why_offline = no_sipi ? "no answer within 500 ms (smpbreak: no SIPI sent)" :
		stage_why(seen);
	/* Back to wait-for-SIPI, so it cannot wake later on the next AP's
	 * trampoline parameters.  The INIT may not go out (the APIC can keep
	 * the last IPI pending), so the park above must hold on its own:
	 * smplate= withholds it to prove that. */
	if (n != ap_late)
		(void)apic_send_ipi(apic, ICR_INIT | ICR_ASSERT);
	return -ETIMEDOUT;
}

/* The LVT timer's rate against the TSC: the same reference the cycle
 * counter's rate was measured against.  0 when it did not count. */
static uint64_t calibrate_timer(void)
{
	uint64_t hz = arch_cycles_hz(), t0, t1;
	uint32_t c0, c1;

	apic_timer_free_run();
	t0 = rdtsc();
	c0 = apic_timer_count();
	delay_us(CALIBRATE_US);
	c1 = apic_timer_count();
	t1 = rdtsc();
	apic_timer_stop();
	if (c1 >= c0 || t1 == t0)
		return 0;
	return (uint64_t)(c0 - c1) * hz / (t1 - t0);
}

void smp_boot(unsigned hz)
{
	struct x86_cpu *c0 = percpu_get(0);
	uint32_t bsp = apic_id();
	const char *why;
	unsigned left_off = 0;
	uint64_t brk = bootarg_u64("smpbreak", SMPBREAK_NONE, 0, UINT32_MAX);

	ap_late = bootarg_u64("smplate", SMPBREAK_NONE, 1, CPU_MAX - 1);

	c0->apic_id = bsp;
	c0->stage = SMP_STAGE_ONLINE;
	if (acpi_why) {
		printf("smp: one CPU: no MADT (%s; rsdp from %s)\n", acpi_why,
		       rsdp.source ? rsdp.source : "nowhere");
		return;
	}
	if (madt.ncpus <= 1)
		return;
	if (!apic_usable(&why)) {
		printf("smp: one CPU of %u: %s\n", madt.ncpus, why);
		return;
	}
	if (!tramp_page_free) {
		printf("smp: one CPU of %u: the trampoline page %#x is not free RAM in "
		       "the firmware's map\n", madt.ncpus, SMP_TRAMP_PA);
		return;
	}
	timer_hz = calibrate_timer();
	timer_count = (uint32_t)(timer_hz / hz);
	if (timer_count == 0) {
		printf("smp: one CPU of %u: the LAPIC timer did not count\n", madt.ncpus);
		return;
	}
	/* Giant on before any AP can run a task (kernel/spinlock.h). */
	sched_smp_prepare();
	if ((size_t)(ap_tramp_end - ap_tramp_start) > SMP_TRAMP_SIZE)
		panic("smp: the trampoline (%zu bytes) outgrew its page",
		      (size_t)(ap_tramp_end - ap_tramp_start));
	memcpy(arch_phys_to_virt(SMP_TRAMP_PA), ap_tramp_start,
	       (size_t)(ap_tramp_end - ap_tramp_start));
	memcpy(ap_pml4, boot_pml4, sizeof(ap_pml4));
	ap_pml4[PML4_IDENTITY] = boot_pml4[PT_INDEX(DIRECT_MAP_BASE, PML4_SHIFT)];
	ap_cr0 = read_cr0();
	ap_cr4 = read_cr4() & ~CR4_PCE;

	for (unsigned i = 0; i < madt.ncpus; i++) {
		uint32_t apic = madt.cpu[i].apic_id;
		unsigned n = ncpus_known;

		if (apic == bsp)
			continue;
		if (n >= CPU_MAX) {
			left_off++;
			continue;
		}
		ncpus_known++;
		if (start_ap(n, apic, apic == brk) == 0) {
			ncpus_online++;
		} else {
			printf("smp: cpu %u (apic %u) did not start: %s\n", n, apic,
			       percpu_get(n)->why_offline);
		}
	}
	printf("smp: %u of %u CPUs online (rsdp from %s); APs schedule, LAPIC timer "
	       "%llu Hz /16, %u counts per tick at %u Hz\n", ncpus_online,
	       madt.ncpus, rsdp.source, (unsigned long long)timer_hz, timer_count, hz);
	if (left_off)
		printf("smp: %u CPU%s left off: more than CPU_MAX (%u)\n", left_off,
		       left_off == 1 ? "" : "s", CPU_MAX);
}

/* ---- interrupts and calls ------------------------------------------------ */

void smp_ap_trap(struct trapframe *tf)
{
	if (tf->vector >= APIC_VECTOR_BASE && tf->vector < APIC_VECTOR_END) {
		apic_interrupt(tf, false);
		return;
	}
	trap_fatal(tf);
}

/* The mailbox's call, if one is posted and not yet run; interrupts off
 * (the IPI handler, or a CPU waiting on giant: arch_lock_relax). */
static void run_posted_call(struct x86_cpu *c)
{
	uint64_t seq = __atomic_load_n(&c->call_seq, __ATOMIC_ACQUIRE);

	if (seq != c->call_done) {
		c->call_fn(c->call_arg);
		__atomic_store_n(&c->call_done, seq, __ATOMIC_RELEASE);
	}
}

void arch_lock_relax(bool poll_calls)
{
	__asm__ volatile("pause");
	if (poll_calls && ncpus_online > 1) {
		irqflags_t f = arch_irq_save();
		run_posted_call(this_x86_cpu());
		arch_irq_restore(f);
	}
}

void arch_resched_cpu(unsigned cpu)
{
	/* A CPU that cannot be reached is not running tasks either. */
	(void)smp_resched(cpu);
}

void smp_apic_vector(unsigned vector)
{
	struct x86_cpu *c = this_x86_cpu();

	switch (vector) {
	case VEC_APIC_TIMER:
		c->ticks++;
		/* An AP that runs tasks: its accounting, preemption and PMU
		 * tick, as CPU 0's i8254 tick (which also keeps the wall
		 * clock).  One still coming up: the PMU counts its tick. */
		if (c->id != 0 && !c->is_ap) {
			hwperf_cpu_tick_seen();
			clock_tick_cpu();
		} else {
			hwperf_idle_cpu_tick();
		}
		return;
	case VEC_IPI_CALL:
		c->ipis++;
		run_posted_call(c);
		return;
	case VEC_IPI_RESCHED:
		/* The work is on the way out of this interrupt (trap_exit:
		 * the waker set need_resched); here it is only counted. */
		c->ipis++;
		c->resched++;
		return;
	default:
		return;
	}
}

static int post_call(unsigned cpu, void (*fn)(void *), void *arg)
{
	struct x86_cpu *c = percpu_get(cpu);

	if (cpu >= ncpus_known)
		return -ENODEV;
	if (stage_of(c) != SMP_STAGE_ONLINE)
		return -EAGAIN;
	if (__atomic_load_n(&c->call_done, __ATOMIC_ACQUIRE) != c->call_seq)
		return -EBUSY;
	c->call_fn = fn;
	c->call_arg = arg;
	__atomic_store_n(&c->call_seq, c->call_seq + 1, __ATOMIC_RELEASE);
	return apic_send_ipi(c->apic_id, ICR_FIXED | ICR_ASSERT | VEC_IPI_CALL);
}

static bool answered(unsigned cpu)
{
	const struct x86_cpu *c = percpu_get(cpu);

	if (!c)
		return true;            /* no such CPU owes anything */
	return __atomic_load_n(&c->call_done, __ATOMIC_ACQUIRE) == c->call_seq;
}

static int wait_answer(unsigned cpu, uint64_t t0, uint64_t limit, unsigned *late)
{
	while (!answered(cpu)) {
		if (rdtsc() - t0 >= limit) {
			*late = cpu;
			return -ETIMEDOUT;
		}
		__asm__ volatile("pause");
	}
	return 0;
}

int smp_call(unsigned cpu, void (*fn)(void *), void *arg, unsigned timeout_us,
	     unsigned *late)
{
	uint64_t t0 = rdtsc();
	int err;

	if (cpu == this_x86_cpu()->id) {
		irqflags_t f = arch_irq_save();
		fn(arg);
		arch_irq_restore(f);
		return 0;
	}
	err = post_call(cpu, fn, arg);
	if (err)
		return err;
	return wait_answer(cpu, t0, arch_cycles_hz() * timeout_us / US_PER_S, late);
}

int smp_call_others(void (*fn)(void *), void *arg, unsigned timeout_us,
		    unsigned *late)
{
	uint64_t t0 = rdtsc(), limit = arch_cycles_hz() * timeout_us / US_PER_S;
	unsigned self = this_x86_cpu()->id;
	bool posted[CPU_MAX] = { false };
	int first = 0;

	for (unsigned i = 0; i < ncpus_known; i++) {
		if (i == self || stage_of(percpu_get(i)) != SMP_STAGE_ONLINE)
			continue;
		int err = post_call(i, fn, arg);
		if (err == 0)
			posted[i] = true;
		else if (!first) {
			first = err;
			*late = i;
		}
	}
	for (unsigned i = 0; i < ncpus_known; i++) {
		if (posted[i]) {
			int err = wait_answer(i, t0, limit, late);
			if (err && !first)
				first = err;
		}
	}
	return first;
}

int smp_resched(unsigned cpu)
{
	const struct x86_cpu *c = percpu_get(cpu);

	if (cpu >= ncpus_known)
		return -ENODEV;
	if (stage_of(c) != SMP_STAGE_ONLINE)
		return -EAGAIN;
	return apic_send_ipi(c->apic_id, ICR_FIXED | ICR_ASSERT | VEC_IPI_RESCHED);
}

/* ---- what the portable kernel asks (kernel/arch.h) ----------------------- */

/* One GS-relative load: the software PMU asks at every counted event. */
unsigned arch_cpu_id(void)
{
	unsigned id;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(id)
			 : "i"(offsetof(struct x86_cpu, id)));
	return id;
}

int arch_cpu_ring(unsigned cpu, void (*fn)(void *), void *arg)
{
	return post_call(cpu, fn, arg);
}

void arch_cpu_relax(void)
{
	__asm__ volatile("pause");
}

unsigned arch_cpus_online(void)
{
	return ncpus_online;
}

int arch_cpu_brief(unsigned cpu, char *buf, size_t len)
{
	const struct x86_cpu *c = percpu_get(cpu);

	if (cpu >= ncpus_known)
		return -ENODEV;
	if (cpu == 0)
		snprintf(buf, len, "apic=%u online=1 role=boot timer=i8254 ticks=%llu",
			 c->apic_id, (unsigned long long)clock_ticks());
	else
		snprintf(buf, len, "apic=%u online=%d role=ap timer=lapic ticks=%llu",
			 c->apic_id, stage_of(c) == SMP_STAGE_ONLINE,
			 (unsigned long long)c->ticks);
	return 0;
}

/* ---- `cpus` -------------------------------------------------------------- */

static volatile unsigned ping_from;
/* Per CPU: the last ping round it answered (`cpus --ping all`). */
static volatile uint32_t ping_round_seen[CPU_MAX];
static uint32_t ping_round;

/* Runs on the pinged CPU: say who answered, and in which round. */
static void ping_fn(void *arg)
{
	unsigned id = this_x86_cpu()->id;

	(void)arg;
	__atomic_store_n(&ping_from, id, __ATOMIC_RELEASE);
	__atomic_store_n(&ping_round_seen[id], ping_round, __ATOMIC_RELEASE);
}

static int cpus_ping_all(void)
{
	unsigned late = 0, answered = 0;
	uint64_t t0, t1;
	int err;

	ping_round++;
	t0 = rdtsc();
	err = smp_call_others(ping_fn, NULL, SMP_CALL_TIMEOUT_US, &late);
	t1 = rdtsc();
	for (unsigned i = 1; i < ncpus_known; i++)
		if (__atomic_load_n(&ping_round_seen[i], __ATOMIC_ACQUIRE) == ping_round)
			answered++;
	if (err == -ETIMEDOUT) {
		printf("error: cpus: ETIMEDOUT: cpu %u did not answer within %u ms\n",
		       late, SMP_CALL_TIMEOUT_US / 1000);
		return CMD_ERR_REPORTED;
	}
	if (err == -EBUSY) {
		printf("error: cpus: EBUSY: cpu %u still owes an earlier call\n", late);
		return CMD_ERR_REPORTED;
	}
	if (err)
		return err;
	printf("all answered: cpus=%u cycles=%llu\n", answered,
	       (unsigned long long)(t1 - t0));
	return 0;
}

/* The reschedule IPI: nothing to reschedule on an AP yet, so this proves
 * only that the vector arrives (its count in `cpus`). */
static int cpus_resched(const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);
	int err;

	if (arg[0] < '0' || arg[0] > '9' || *end != '\0') {
		printf("error: cpus: EINVAL: --resched needs a CPU number, not '%s'\n", arg);
		return CMD_ERR_REPORTED;
	}
	if (n == 0 || n >= ncpus_known) {
		printf("error: cpus: ENODEV: no AP %lu (%u known)\n", n, ncpus_known);
		return CMD_ERR_REPORTED;
	}
	err = smp_resched((unsigned)n);
	if (err == -EAGAIN) {
		printf("error: cpus: EAGAIN: cpu %lu is not online\n", n);
		return CMD_ERR_REPORTED;
	}
	if (err)
		return err;
	printf("cpu %lu sent the reschedule IPI\n", n);
	return 0;
}

static int cpus_ping(const char *arg)
{
	char *end;
	unsigned long n;
	unsigned late = 0;
	uint64_t t0, t1;
	int err;

	if (strcmp(arg, "all") == 0)
		return cpus_ping_all();
	n = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end != '\0') {
		printf("error: cpus: EINVAL: --ping needs a CPU number, not '%s'\n", arg);
		return CMD_ERR_REPORTED;
	}
	if (n >= ncpus_known) {
		printf("error: cpus: ENODEV: no cpu %lu (%u known)\n", n, ncpus_known);
		return CMD_ERR_REPORTED;
	}
	ping_from = CPU_MAX;
	t0 = rdtsc();
	err = smp_call((unsigned)n, ping_fn, NULL, SMP_CALL_TIMEOUT_US, &late);
	t1 = rdtsc();
	switch (err) {
	case 0:
		printf("cpu %lu answered: from=cpu%u apic=%u cycles=%llu\n", n,
		       __atomic_load_n(&ping_from, __ATOMIC_ACQUIRE),
		       percpu_get((unsigned)n)->apic_id, (unsigned long long)(t1 - t0));
		return 0;
	case -EAGAIN:
		printf("error: cpus: EAGAIN: cpu %lu (apic %u) is not online: %s\n", n,
		       percpu_get((unsigned)n)->apic_id, percpu_get((unsigned)n)->why_offline);
		return CMD_ERR_REPORTED;
	case -EBUSY:
		printf("error: cpus: EBUSY: cpu %lu still owes an earlier call\n", n);
		return CMD_ERR_REPORTED;
	case -ETIMEDOUT:
		printf("error: cpus: ETIMEDOUT: cpu %u did not answer within %u ms\n",
		       late, SMP_CALL_TIMEOUT_US / 1000);
		return CMD_ERR_REPORTED;
	default:
		return err;
	}
}

static int cmd_cpus(int argc, char **argv)
{
	char line[128];

	if (argc == 3 && strcmp(argv[1], "--ping") == 0)
		return cpus_ping(argv[2]);
	if (argc == 3 && strcmp(argv[1], "--resched") == 0)
		return cpus_resched(argv[2]);
	if (argc != 1) {
		printf("error: usage: cpus [--ping N|all] [--resched N]\n");
		return CMD_ERR_REPORTED;
	}
	printf("cpus: online=%u known=%u\n", ncpus_online, ncpus_known);
	for (unsigned i = 0; i < ncpus_known; i++) {
		const struct x86_cpu *c = percpu_get(i);
		arch_cpu_brief(i, line, sizeof(line));
		printf("cpu=%u %s ipis=%llu resched=%llu", i, line,
		       (unsigned long long)c->ipis, (unsigned long long)c->resched);
		if (i && stage_of(c) != SMP_STAGE_ONLINE)
			printf(" why=\"%s\"", c->why_offline ? c->why_offline : "?");
		printf("\n");
	}
	return 0;
}
CONSOLE_CMD(cpus, "each CPU: APIC id, online, timer ticks, IPIs; --ping N or all: an IPI round trip",
	    "cpus [--ping N|all] [--resched N]", cmd_cpus);
