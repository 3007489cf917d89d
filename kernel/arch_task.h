/*
 * arch_task.h - what tasks, user mode and address spaces ask of each
 * machine.  The second half of the arch contract (arch.h is the first):
 * implemented once per architecture under arch/<arch>/.
 *
 * The portable kernel never looks inside a trapframe or a page table; it
 * goes through these functions, so kernel/ stays free of arch code.
 */
#ifndef TALLY_MACHINE_TASK_H
#define TALLY_MACHINE_TASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct trapframe;       /* arch/<arch>/trapframe.h: the saved user state */
struct arch_vm;         /* one address space's page-table root (and ASID) */

/* --- user address range ---------------------------------------------------
 * User virtual addresses are [ARCH_USER_BASE, ARCH_USER_TOP); both page
 * aligned.  Programs are linked at ARCH_USER_BASE.  Defined by the arch in
 * arch_user_range(); constants so that user/ can link against them too.  */
void arch_user_range(uintptr_t *base, uintptr_t *top);

/* --- kernel context switch ------------------------------------------------- */
/*
 * Save callee-saved registers on the current kernel stack, store the stack
 * pointer in *from_sp, load to_sp and restore what is saved there.
 */
void arch_switch(uintptr_t *from_sp, uintptr_t to_sp);
/*
 * Lay out a new kernel stack (top = highest address) so that the first
 * arch_switch to the returned sp calls entry(arg) with interrupts enabled.
 * entry never returns.
 */
uintptr_t arch_kstack_init(void *top, void (*entry)(void *), void *arg);
/* The kernel stack the CPU switches to on a trap from user mode. */
void arch_set_kernel_stack(void *top);

/* --- entering and leaving user mode ---------------------------------------- */
size_t arch_trapframe_size(void);
/* A fresh user context: pc, stack pointer and two argument registers. */
void arch_tf_init_user(struct trapframe *tf, uintptr_t pc, uintptr_t sp,
		       uintptr_t arg0, uintptr_t arg1);
/* Restore tf and drop to user mode.  Never returns.  Used by the kernel
 * to start a new task (kernel/entry.c trap_enter_user), which has already
 * called trap_return_check and trap_exit(true), with interrupts off. */
void arch_return_to_user(struct trapframe *tf) __attribute__((noreturn));

uintptr_t arch_tf_pc(const struct trapframe *tf);
uintptr_t arch_tf_sp(const struct trapframe *tf);
/* The frame pointer (rbp; MIPS s8/fp) and the return-address register
 * (MIPS ra; 0 on x86-64, which has none): for sample call chains. */
uintptr_t arch_tf_fp(const struct trapframe *tf);
uintptr_t arch_tf_ra(const struct trapframe *tf);
/* The system call number: the arch's ABI register, all of it (the
 * dispatch's bounds test rejects every value past the table). */
uintptr_t arch_tf_syscall_nr(const struct trapframe *tf);
/*
 * Where the call's six arguments are: in the frame itself when the ABI's
 * argument registers lie there in order (MIPS: a0..a3, t0, t1; x86-64's
 * frame keeps rdi, rsi, rdx, r10, r8, r9 so), else copied into buf.  Valid
 * until the frame changes; a handler that replaces the frame reads its
 * arguments first.
 */
/* A system call argument: it may be read in place from the trap frame,
 * whose registers have their own type. */
typedef uintptr_t __attribute__((may_alias)) syscall_arg_t;
const syscall_arg_t *arch_tf_syscall_args(const struct trapframe *tf, uintptr_t buf[6]);
/* Result of a system call (negative errno on failure); also steps past the
 * syscall instruction where the arch needs it (MIPS EPC += 4). */
void arch_tf_set_return(struct trapframe *tf, intptr_t value);
/* Print the user registers (fault reports). */
void arch_tf_dump(const struct trapframe *tf);

/*
 * Signals: push a copy of *tf and the signal number onto the user stack
 * (through the copy functions below, so a bad stack is -EFAULT), then aim
 * tf at handler(sig) with a return address of restorer, which must make
 * the sigreturn system call.  arch_signal_return undoes it from the user
 * stack, refusing any saved state that would give user mode privileges.
 */
int arch_signal_push(struct trapframe *tf, int sig, uintptr_t handler, uintptr_t restorer);
/* Returns the signal number of the frame it undid (so the kernel can
 * unblock it), or -EFAULT. */
int arch_signal_return(struct trapframe *tf);

/* --- address spaces ---------------------------------------------------------- */
#define VM_PROT_READ   0x1u
#define VM_PROT_WRITE  0x2u
#define VM_PROT_EXEC   0x4u

/* A new, empty user address space; the kernel half is shared. NULL: ENOMEM. */
struct arch_vm *arch_vm_create(void);
/* Free the page tables (not the mapped pages: the kernel owns those). */
void arch_vm_destroy(struct arch_vm *vm);
/* Pages holding user address spaces' tables, all freed with them; and
 * kernel-half tables, made once and shared by every address space (`mem`). */
size_t arch_vm_table_pages(void);
size_t arch_vm_kernel_table_pages(void);
/* Map one user page to physical page pa.  -ENOMEM, -EEXIST. */
int arch_vm_map(struct arch_vm *vm, uintptr_t va, uint64_t pa, unsigned prot);
/* Unmap one user page, returning its physical address (0 if none), and
 * flush it from the TLB. */
uint64_t arch_vm_unmap(struct arch_vm *vm, uintptr_t va);
/* Physical address of the page holding va, or 0; *prot gets its rights. */
uint64_t arch_vm_lookup(struct arch_vm *vm, uintptr_t va, unsigned *prot);
/* Make vm the current user address space (NULL: none, kernel threads). */
void arch_vm_activate(struct arch_vm *vm);

/* --- called by arch trap code into the kernel (kernel/entry.c) --------------- */
/* Every kernel entry and exit, for exact user/system time and the soft PMU.
 * trap_exit(false), on the way back into interrupted kernel code, may
 * switch tasks (kernel threads are preemptible): call it with interrupts
 * off, after the interrupt controller got its EOI, on the interrupted
 * task's kernel stack.  On the way to user mode the order is
 * trap_return_check, then trap_exit(true). */
void trap_enter(bool from_user);
void trap_exit(bool to_user);
/*
 * The same for a system call, the arch's way: trap_syscall_enter,
 * with interrupts off, is trap_enter(true) and counts the call (one
 * test of the PMU's wanted kinds for both), so follow it with
 * trap_syscall_run.  On the way out, with interrupts
 * off, trap_syscall_exit_due says whether trap_return_check and
 * trap_exit(true) have anything to do (one test); if so
 * trap_syscall_exit_work does it, and says whether return work
 * (preemption, a signal) ran, which may have changed the frame.
 */
void trap_syscall_enter(const struct trapframe *tf);
/* trap_syscall_enter's cut when the arch found that a counter wants the
 * cycles or the calls (pmu_kevent.h). */
void trap_syscall_enter_counted(const struct trapframe *tf);
bool trap_syscall_exit_due(void);
bool trap_syscall_exit_work(struct trapframe *tf);
/* When trap_syscall_exit_due: the read page's fill if that is all there
 * is to do, else true (return work due: trap_syscall_exit_work next). */
bool trap_syscall_exit_light(void);
/* A system call from user mode, counted by trap_syscall_enter: run.
 * True when the call replaced the frame (sigreturn): no return value was
 * written, and every register of the frame must go back as it now is. */
bool trap_syscall_run(struct trapframe *tf);
/*
 * A page fault at addr.  Returns 0 if the kernel mapped the page (demand
 * paging: retry the instruction); otherwise, for a user fault, the task
 * gets SIGSEGV (posted; the arch goes on to trap_return_check, which
 * delivers it) and -EFAULT is returned; a kernel-mode fault returns
 * -EFAULT and the arch panics.
 */
int trap_page_fault(struct trapframe *tf, uintptr_t addr, bool write, bool user);
/*
 * Any other exception from user mode: deliver signo to the task.  The
 * signals user/fault.c and tests/system/test_tasks.py expect: an access
 * to kernel addresses SIGSEGV (also MIPS address errors on KSEG
 * addresses), a misaligned access SIGBUS, an x86 #GP SIGSEGV, a MIPS
 * coprocessor-unusable or reserved instruction SIGILL, #UD SIGILL,
 * #DE and the MIPS trap with code 7 (divide by zero) SIGFPE.
 */
void trap_user_fault(struct trapframe *tf, int signo, const char *what, uintptr_t addr);
/* Last thing before returning to user mode: preemption and signals. */
void trap_return_check(struct trapframe *tf);

/*
 * TLB refills done by the arch's software refill handler (MIPS), counted
 * in the handler itself by the mode it interrupted, as a free-running
 * 32-bit count; the kernel charges the differences to the running task.
 * Machines that refill in hardware return 0.
 */
uint32_t arch_tlb_refill_count(bool user);

#endif
