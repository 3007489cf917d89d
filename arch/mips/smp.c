/*
 * smp.c - why the Malta runs one CPU (kernel/arch.h arch_cpus_online).
 *
 * What QEMU 7.2's Malta offers beyond CPU 0 is read from the core at boot
 * and said in one line: whether it has the MT ASE and how many VPEs
 * (Config3.MT, MVPConf0.PVPE), and whether a Coherence Manager exists
 * (Config3.CMGCR, then CMGCRBase).  The measured facts per core and the
 * command used are in docs/design/platforms.md ("CPUs in QEMU").
 *
 * Register facts: MIPS32 PRA (MD00090) Config3 bits 2 (MT) and 29
 * (CMGCR); MIPS MT ASE (MD00378) MVPConf0 = CP0 register 0 select 2,
 * PVPE bits 13:10 (VPEs - 1); CMGCRBase = CP0 register 15 select 3.
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "time/clock.h"
#include "cp0.h"
#include "version.h"

#define CONFIG3_CMGCR        U32(0x20000000)
#define MVPCONF0_PVPE_MASK   U32(0x00003c00)
#define MVPCONF0_PVPE_SHIFT  10
/* CMGCRBase holds physical address bits 35:15 in its bits 31:11. */
#define CMGCRBASE_ADDR_MASK  U32(0xfffff800)
#define CMGCRBASE_PA_SHIFT   4

/* Read only when Config3.MT says the register exists. */
static uint32_t read_mvpconf0(void)
{
	uint32_t v;

	__asm__ volatile("mfc0 %0, $0, 2" : "=r"(v) : : "memory");
	return v;
}

/* Read only when Config3.CMGCR says the register exists. */
static uint32_t read_cmgcrbase(void)
{
	uint32_t v;

	__asm__ volatile("mfc0 %0, $15, 3" : "=r"(v) : : "memory");
	return v;
}

unsigned arch_cpus_online(void)
{
	return 1;
}

/* The Malta runs one CPU: there is no other to ring. */
unsigned arch_cpu_id(void)
{
	return 0;
}

void arch_cpu_relax(void)
{
}

int arch_cpu_ring(unsigned cpu, void (*fn)(void *), void *arg)
{
	(void)cpu;
	(void)fn;
	(void)arg;
	return -ENODEV;
}

int arch_cpu_brief(unsigned cpu, char *buf, size_t len)
{
	if (cpu != 0)
		return -ENODEV;
	snprintf(buf, len, "online=1 role=boot timer=cp0-count ticks=%llu",
		 (unsigned long long)clock_ticks());
	return 0;
}

static void say_why_one_cpu(void)
{
	uint32_t c3 = cp0_has_config3() ? cp0_read_config3() : 0;
	unsigned mt = !!(c3 & CONFIG3_MT), cm = !!(c3 & CONFIG3_CMGCR), vpes = 1;

	printf("smp: Malta runs one CPU: Config3.MT=%u Config3.CMGCR=%u", mt, cm);
	if (mt) {
		vpes = cp0_field(read_mvpconf0(), MVPCONF0_PVPE_MASK,
				 MVPCONF0_PVPE_SHIFT) + 1;
		printf(" MVPConf0 VPEs=%u", vpes);
	}
	if (cm)
		printf(" CMGCRBase=%#llx", (unsigned long long)(read_cmgcrbase() &
		       CMGCRBASE_ADDR_MASK) << CMGCRBASE_PA_SHIFT);
	if (mt && vpes > 1)
		printf(": the other VPEs stay halted at reset; starting them (MT ASE) "
		       "is not written yet\n");
	else if (mt)
		printf(": one VPE (QEMU gives the 34Kf one per -smp CPU)\n");
	else if (cm)
		printf(": bring-up through the Coherence Manager is not written yet\n");
	else
		printf(": QEMU starts any other -smp CPU at the kernel entry, which parks "
		       "it (WAIT, interrupts off); with no GIC there is no IPI to "
		       "release it\n");
}
BOOT_HOOK(malta_cpus, say_why_one_cpu);

/* One CPU: no other holder to wait on politely, and no call to answer. */
void arch_lock_relax(bool poll_calls)
{
	(void)poll_calls;
}

/* One CPU: a wake-up never names another CPU. */
void arch_resched_cpu(unsigned cpu)
{
	(void)cpu;
}
