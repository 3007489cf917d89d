/*
 * smp.h - finding the CPUs (ACPI MADT), starting the application
 * processors, and running a function on another CPU (smp.c).
 *
 * This is SMP's first step: the APs come up, take their own LAPIC timer
 * and IPIs, and idle.  They run no task and take no kernel lock (the
 * kernel's locks only mask interrupts on one CPU, kernel/spinlock.h), so
 * the task layer still sees one CPU (cpu_count() == 1).
 */
#ifndef TALLY_X86_64_SMP_H
#define TALLY_X86_64_SMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trapframe.h"

/* Where the trampoline runs (smp_tramp.asm says the same): a startup IPI
 * names a 4 KiB page below 1 MiB by its number. */
#define SMP_TRAMP_PA     0x8000u
#define SMP_SIPI_VECTOR  (SMP_TRAMP_PA >> 12)
#define SMP_TRAMP_SIZE   0x1000u  /* the page it is copied to */

/* How far an AP got, for the boot report of one that did not finish. */
#define SMP_STAGE_NONE     0u   /* never reached ap_entry */
#define SMP_STAGE_ENTRY    1u   /* in C on its own stack */
#define SMP_STAGE_TABLES   2u   /* own GDT, TSS, IDT, GS */
#define SMP_STAGE_APIC     3u   /* APIC enabled, timer running */
#define SMP_STAGE_ONLINE   4u   /* idling with interrupts on */
#define SMP_STAGE_JOINING  5u   /* past the point of no return: joining */
#define SMP_STAGE_GIVEN_UP 6u   /* the BSP stopped waiting: park, never join */

/* Default wait for an IPI call's answer. */
#define SMP_CALL_TIMEOUT_US 100000u

/* The loaders' RSDP: a copy (multiboot2 ACPI tags) or an address (UEFI).
 * Called before smp_discover; a copy of ACPI 2.0+ wins over 1.0. */
void smp_note_rsdp_copy(const void *rsdp, size_t len, const char *source);
void smp_note_rsdp_pa(uint64_t pa, const char *source);

/* Whether the firmware's map calls the trampoline page free RAM (asked
 * before low memory is cut from the free list); smp_boot refuses to
 * overwrite a page the firmware keeps. */
void smp_note_tramp_ram(bool free_ram);

/* Find the RSDP (noted, else the BIOS areas) and parse the MADT.  In
 * x86_64_boot once the direct map covers low memory: prints nothing,
 * smp_boot reports. */
void smp_discover(void);

/*
 * Start every AP the MADT lists (INIT-SIPI-SIPI), each on its own GDT,
 * TSS, IST stacks, GS area and LAPIC timer at hz.  Once, on CPU 0, after
 * the TSC rate is known and before interrupts are enabled.  A CPU that
 * does not start is reported with its APIC id and the reason; the rest go
 * on.
 */
void smp_boot(unsigned hz);

/* trap() on an AP: its APIC vectors, or a fatal exception. */
void smp_ap_trap(struct trapframe *tf);
/* apic_interrupt() for VEC_APIC_TIMER, VEC_IPI_CALL, VEC_IPI_RESCHED on
 * any CPU; the caller signals EOI. */
void smp_apic_vector(unsigned vector);

/*
 * Run fn(arg) on CPU cpu (in its interrupt handler, interrupts off) and
 * wait up to timeout_us for it to finish.  fn and arg must outlive a
 * timeout: a late CPU still runs them when it wakes.  0; -ENODEV (no
 * such CPU), -EAGAIN (not online), -EBUSY (it still owes the answer to a
 * call that timed out), -ETIMEDOUT (no answer; *late = cpu).  On the
 * caller's own CPU fn runs at once.  CPU 0 only.
 */
int smp_call(unsigned cpu, void (*fn)(void *), void *arg, unsigned timeout_us,
	     unsigned *late);
/* The same on every other online CPU; the first error, with *late the
 * first CPU that did not answer. */
int smp_call_others(void (*fn)(void *), void *arg, unsigned timeout_us,
		    unsigned *late);
/* Send CPU cpu the reschedule IPI (its handler only counts it for now). */
int smp_resched(unsigned cpu);

#endif
