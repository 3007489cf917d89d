/*
 * syscall_entry.c - SYSCALL/SYSRET: the MSRs that route the instruction
 * to syscall_entry.asm, and the C half of that entry.
 *
 * Only 64-bit code can make system calls: GDT_USER32_CS is an empty
 * descriptor (gdt.c), so ring 3 never reaches compatibility mode and
 * MSR_CSTAR, its SYSCALL target, is never used.  SYSENTER, which Intel
 * CPUs accept in 64-bit mode, is kept off (whatever the firmware left):
 * with MSR_SYSENTER_CS 0 it raises #GP, a SIGSEGV like INT 0x80.
 */
#include <stdbool.h>

#include "arch.h"
#include "arch_task.h"
#include "cpu.h"
#include "gdt.h"
#include "syscall.h"
#include "syscall_frame.h"
#include "trap.h"
#include "vm.h"

/* TF: no single-step trap in the stub; AC, NT: no user state leaks in. */
#define SYSCALL_RFLAGS_CLEARED (RFLAGS_IF | RFLAGS_DF | RFLAGS_TF | RFLAGS_AC | \
				RFLAGS_NT | RFLAGS_IOPL)
#define USER_CS (GDT_USER_CS | RING_USER)
#define USER_SS (GDT_USER_DS | RING_USER)

/* syscall_entry.asm */
void syscall_entry(void);
void syscall_from_user(struct trapframe *tf);

_Static_assert(GDT_KERNEL_DS == GDT_KERNEL_CS + 8, "SYSCALL loads SS = CS + 8");
_Static_assert(GDT_USER_DS == GDT_USER32_CS + 8 && GDT_USER_CS == GDT_USER32_CS + 16,
	       "SYSRET loads SS = base + 8, CS = base + 16");
_Static_assert(USER_CS == 0x2b && USER_SS == 0x23, "syscall_entry.asm hard-codes them");

void syscall_init(void)
{
	wrmsr(MSR_STAR, ((uint64_t)GDT_KERNEL_CS << STAR_SYSCALL_CS_SHIFT) |
			((uint64_t)(GDT_USER32_CS | RING_USER) << STAR_SYSRET_CS_SHIFT));
	wrmsr(MSR_LSTAR, (uint64_t)(uintptr_t)syscall_entry);
	wrmsr(MSR_SFMASK, SYSCALL_RFLAGS_CLEARED);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	wrmsr(MSR_SYSENTER_CS, 0);
	/* The table is shared by every arch; a hole would be a NULL call. */
	if (!syscall_table_complete())
		panic("syscall table has a hole");
}

/*
 * SYSRET restores RIP from RCX and RFLAGS from R11 and takes CS and SS
 * from MSR_STAR, so it is exact only for a frame that says the same.  A
 * non-canonical RCX would fault in ring 0 after the user's RSP is loaded.
 * Only a frame that return work or sigreturn rewrote needs the test.
 */
static bool sysret_fits(const struct trapframe *tf)
{
	return tf->rcx == tf->rip && tf->r11 == tf->rflags &&
	       tf->rip < CANONICAL_LOW_END && tf->cs == USER_CS && tf->ss == USER_SS;
}

/*
 * The frame the entry built needs no test: RCX is the address after a
 * SYSCALL that ran in user space, below ARCH_USER_TOP, so canonical even
 * when that instruction ends the last user page; RCX, R11, CS and SS are
 * what the stub pushed.
 */
_Static_assert(ARCH_USER_TOP < CANONICAL_LOW_END, "a SYSCALL's RCX is canonical");

/*
 * Returns: leave by SYSRET (syscall_entry.asm restores rax and the
 * argument registers from the frame; C kept the others).  A frame that
 * sigreturn replaced, or that return work (a signal delivered) left
 * unfit for SYSRET, leaves from here instead by IRETQ with every
 * register from the frame.  Interrupts are off on entry (SFMASK) and on
 * the way out.
 */
void syscall_from_user(struct trapframe *tf)
{
	trap_syscall_enter(tf);         /* the cut, and the call counted */
	sti();
	if (trap_syscall_run(tf)) {
		/* sigreturn: the frame's callee-saved registers are new too. */
		cli();
		syscall_frame_mark(tf);
		trap_return_check(tf);
		trap_exit(true);
		arch_return_to_user(tf);
	}
	/* Off until user mode: nothing posted from here on can be missed. */
	cli();
	if (!trap_syscall_exit_due())
		return;
	syscall_frame_complete(tf);
	if (trap_syscall_exit_work(tf) && !sysret_fits(tf))
		arch_return_to_user(tf);
}
