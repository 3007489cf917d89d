/*
 * user_span.c - the user interval as the entry and exit stubs stamped it
 * (kernel/arch.h arch_user_span; the stamps: percpu.inc).
 *
 * x86 walks its page tables in hardware, so no kernel code runs inside a
 * user interval without an entry of its own, and the stamps are the
 * interval exactly.
 */
#include "arch.h"
#include "percpu.h"

/*
 * Per round trip: SYSCALL's stub runs SWAPGS and two stores before RDTSC,
 * an interrupt's runs its vector stub, the mode test, SWAPGS and two
 * stores; the exit runs the stores and reloads after RDTSC (SYSRET's
 * path: RCX, R11, RAX, RDX and RSP from the frame), SWAPGS and SYSRET
 * or IRETQ: 13 in all.  Measured by the ucut benchmark (docs/tasks.md, Accounting).
 */
const struct arch_user_cut arch_user_cut = {
	.max_kernel_insns = 32,
	.sysloop_insns = 4,             /* mov, syscall, dec, jnz */
};

void arch_user_span(uint64_t since, uint64_t *left, uint64_t *back)
{
	(void)since;    /* the stamps are whole TSC values */
	/* Through GS field by field: every entry from ring 3 runs this.  The
	 * sink is left where it is: only the task that exited through it
	 * can enter again before a switch, and the switch points it home
	 * (kstack.c arch_set_kernel_stack). */
	*left = *percpu_exit_sink();
	*back = percpu_entry_tsc();
}

void arch_user_stamp_to(uint64_t *where)
{
	struct x86_cpu *c = this_x86_cpu();

	c->exit_sink = where ? where : &c->exit_tsc;
}
