/*
 * percpu.c - each CPU's struct x86_cpu, indexed by CPU number (0 is the
 * boot CPU; smp.c numbers the APs it starts), and the GS bases that find
 * it.
 */
#include <stddef.h>

#include "cpu.h"
#include "percpu.h"
#include "proc/task.h"

_Static_assert(offsetof(struct x86_cpu, self) == PERCPU_SELF, "syscall_entry.asm");
_Static_assert(offsetof(struct x86_cpu, kernel_rsp) == PERCPU_KERNEL_RSP, "syscall_entry.asm");
_Static_assert(offsetof(struct x86_cpu, user_rsp) == PERCPU_USER_RSP, "syscall_entry.asm");
_Static_assert(offsetof(struct x86_cpu, save_rax) == PERCPU_SAVE_RAX, "the TSC stamps");
_Static_assert(offsetof(struct x86_cpu, save_rdx) == PERCPU_SAVE_RDX, "the TSC stamps");
_Static_assert(offsetof(struct x86_cpu, entry_tsc) == PERCPU_ENTRY_TSC, "the TSC stamps");
_Static_assert(offsetof(struct x86_cpu, exit_tsc) == PERCPU_EXIT_TSC, "the TSC stamps");
_Static_assert(offsetof(struct x86_cpu, exit_sink) == PERCPU_EXIT_SINK, "the TSC stamps");
_Static_assert(offsetof(struct x86_cpu, is_ap) == PERCPU_IS_AP, "percpu_is_ap");
_Static_assert(offsetof(struct x86_cpu, id) == PERCPU_ID, "machdep_cpu_id");
_Static_assert(offsetof(struct x86_cpu, local) == PERCPU_LOCAL, "machdep_cpu_local");
_Static_assert(offsetof(struct x86_cpu, kevents) == PERCPU_KEVENTS, "machdep_kevents_any");

static struct x86_cpu cpus[CPU_MAX];

struct x86_cpu *percpu_get(unsigned id)
{
	return id < CPU_MAX ? &cpus[id] : NULL;
}

/* kernel/arch.h: the word machdep_kevents_any tests.  Nothing caches it:
 * the system call's entry tests it itself (kernel/entry.c
 * trap_syscall_enter). */
void arch_kevents_set(unsigned cpu, uint32_t kinds)
{
	__atomic_store_n(&cpus[cpu].kevents, kinds, __ATOMIC_RELAXED);
}

uint32_t arch_kevents_of(unsigned cpu)
{
	return __atomic_load_n(&cpus[cpu].kevents, __ATOMIC_RELAXED);
}

void percpu_init_cpu(unsigned id)
{
	struct x86_cpu *c = &cpus[id];

	c->self = c;
	c->id = id;
	c->local = &cpus_[id];
	c->is_ap = id != 0;
	c->exit_sink = &c->exit_tsc;
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)c);
	/* The user's GS base, swapped in on the way to ring 3. */
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

void percpu_init(void)
{
	percpu_init_cpu(0);
}
