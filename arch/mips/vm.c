/*
 * vm.c - user address spaces on the MIPS TLB (arch_vm_* of arch_task.h).
 *
 * An address space is a software page table (pagetable.h) plus an ASID
 * (asid.h).  Activating one points the refill handler at its root
 * (mips_pt_current) and puts its ASID in EntryHi; nothing is flushed.
 * A change to a page table that the TLB may already have cached (the
 * refill loads a whole even/odd pair, valid or not) drops the TLB entry
 * for that pair under the address space's ASID, if there is one.
 *
 * User range: kuseg from 4 MiB (programs are linked there and page 0
 * stays unmapped) to 0x7fff0000, leaving the last 64 KiB below KSEG0 as
 * a gap that no user stack or heap can reach.
 *
 * Per CPU: QEMU gives every 34K VPE a TLB of its own (MVPConf0.TLBS = 0,
 * docs/design/platforms.md), so each CPU has its own page-table root word
 * and ASID space (pcpu.h), and an address space holds one ASID per CPU.
 * Generations stay per CPU: a rollover flushes only the TLB that ran out.
 *
 * When a mapping changes, this CPU drops the pair from its TLB.  Another
 * CPU's TLB may still hold the pair under the ASID the address space got
 * there; rather than ring it to find the entry, that ASID is forgotten
 * (asid_forget): the next activation there takes a fresh ASID,
 * and the old value is handed to nobody before that CPU's generation
 * ends and its TLB is flushed, so the stale entries can never be hit.
 * That is exact and needs no ring as long as the address space is not
 * running on that CPU meanwhile, and in Tally it never is: a space is
 * changed only by its own task, on the CPU that task runs on (mmap, brk,
 * page faults, exec, exit), or before its task first runs (fork fills
 * the child's), and a task runs on one CPU at a time.  Should a change
 * ever come from elsewhere while the space runs on another CPU, that CPU
 * is rung and re-activates it (a fresh ASID at once), and the change
 * waits for the answer, so a page being unmapped is unreachable there
 * before it is freed.  (An activation racing such a change would need a
 * barrier on every switch to be caught; none can race today, so the
 * switch stays without one.)
 */
#include <errno.h>
#include <stddef.h>

#include "arch.h"
#include "addrspace.h"
#include "arch_task.h"
#include "asid.h"
#include "cp0.h"
#include "machdep.h"
#include "mm/heap.h"
#include "mips.h"
#include "mm/page.h"
#include "pagetable.h"
#include "pcpu.h"
#include "proc/task.h"
#include "pte.h"

#define USER_BASE   0x00400000u
#define USER_TOP    0x7fff0000u
#define PAGE_OFFSET_MASK ((uintptr_t)PAGE_SIZE - 1)

_Static_assert(ST_UM == (1u << 4), "tlbrefill.S takes the mode from Status bit 4");
_Static_assert(USER_TOP <= KSEG0_BASE, "user range inside kuseg");

struct arch_vm {
	uintptr_t *root;
	struct asid asid[CPU_MAX];      /* the ASID it holds in each CPU's TLB */
};

enum { REFILLS_KERNEL, REFILLS_USER };

/* Active while no user address space is: every entry on the empty leaf. */
static uintptr_t kernel_root[PT_ENTRIES];
/* User pages are cached like KSEG0, so the two views of a page agree. */
static unsigned user_cca;

/* Which space a CPU runs is its page-table root: one word the switch
 * writes anyway (the refill handler's). */
static bool runs_here(const struct arch_vm *vm)
{
	return pcpu_here()->pt_current == (uintptr_t)vm->root;
}

/* On every CPU, before it takes a TLB refill: its root and its ASIDs. */
void vm_cpu_init(void)
{
	struct mips_pcpu *p = pcpu_here();

	p->pt_current = (uintptr_t)kernel_root;
	p->vm_asid_offset = (uint32_t)(offsetof(struct arch_vm, asid) +
				       machdep_cpu_id() * sizeof(struct asid));
	asid_space_init(&p->asids, ENTRYHI_ASID_COUNT);
	cp0_write_entryhi(ASID_KERNEL);
}

void vm_init(void)
{
	pt_init(kernel_root);
	user_cca = cp0_field(cp0_read_config(), CONFIG_K0_MASK, 0);
	vm_cpu_init();
}

void arch_user_range(uintptr_t *base, uintptr_t *top)
{
	*base = USER_BASE;
	*top = USER_TOP;
}

/* The cuts read both counters and the stamps with interrupts off, on
 * one CPU, so one read of DESAVE serves them all (pcpu_here_irqs_off);
 * the console's `cp0` line is statistics, and gets one CPU's pair. */
uint32_t arch_tlb_refill_count(bool user)
{
	return pcpu_here_irqs_off()->tlb_refills[user ? REFILLS_USER : REFILLS_KERNEL];
}

/* All CPUs' (statistics). */
uint64_t vm_asid_rollovers(void)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < cpu_count(); i++)
		n += mips_pcpu[i].asids.rollovers;
	return n;
}

size_t arch_vm_table_pages(void)
{
	return pt_pages();
}

/* The kernel half is KSEG0/KSEG1, unmapped: no tables of its own. */
size_t arch_vm_kernel_table_pages(void)
{
	return 0;
}

struct arch_vm *arch_vm_create(void)
{
	struct arch_vm *vm = kzalloc(sizeof(*vm));

	if (!vm)
		return NULL;
	vm->root = pt_create();
	if (!vm->root) {
		kfree(vm);
		return NULL;
	}
	return vm;
}

void arch_vm_destroy(struct arch_vm *vm)
{
	if (!vm)
		return;
	if (runs_here(vm))
		arch_vm_activate(NULL);
	/*
	 * The TLBs may still hold entries under its ASIDs, but no other
	 * address space gets one of them before that CPU's generation ends
	 * and its TLB is flushed, so they can never be hit again.  No other
	 * CPU runs it: its only task is the one ending it, here.
	 */
	pt_destroy(vm->root);
	kfree(vm);
}

static bool user_page(uintptr_t va)
{
	return va >= USER_BASE && va < USER_TOP && (va & PAGE_OFFSET_MASK) == 0;
}

/* On the CPU that runs vm while another changed it (the top of this
 * file): its ASID here is stale now, so activating it again takes a
 * fresh one, and no old entry of the pair can answer. */
static void reactivate(void *arg)
{
	irqflags_t f = arch_irq_save();

	if (runs_here(arg))
		arch_vm_activate(arg);
	arch_irq_restore(f);
}

/* Make every TLB forget va's pair under vm's ASIDs, if it learnt it. */
static void flush_pair(struct arch_vm *vm, uintptr_t va)
{
	/* Every CPU slot up to the last online one: a VPE that did not
	 * start (smpbreak) leaves a gap, and its TLB holds nothing. */
	unsigned here = arch_cpu_id(), n = cpu_count();

	if (asid_current(&mips_pcpu[here].asids, &vm->asid[here]))
		tlb_invalidate((va & ENTRYHI_VPN2_MASK) | vm->asid[here].value);
	/* (no entry can carry an ASID it does not hold) */
	for (unsigned i = 0; i < n; i++) {
		if (i == here)
			continue;
		asid_forget(&vm->asid[i]);
		if (__atomic_load_n(&mips_pcpu[i].pt_current, __ATOMIC_RELAXED) ==
		    (uintptr_t)vm->root)
			mips_cpu_call_wait(i, reactivate, vm);
	}
}

int arch_vm_map(struct arch_vm *vm, uintptr_t va, uint64_t pa, unsigned prot)
{
	uint32_t *slot;

	if (!user_page(va) || (pa & PAGE_OFFSET_MASK) || pa >= PTE_PA_LIMIT)
		return -EINVAL;
	slot = pt_slot(vm->root, va, true);
	if (!slot)
		return -ENOMEM;
	if (pte_valid(*slot))
		return -EEXIST;
	*slot = pte_make(pa, prot, user_cca);
	flush_pair(vm, va);
	return 0;
}

uint64_t arch_vm_unmap(struct arch_vm *vm, uintptr_t va)
{
	uint32_t *slot;
	uint64_t pa;

	if (!user_page(va))
		return 0;
	slot = pt_slot(vm->root, va, false);
	if (!slot || !pte_valid(*slot))
		return 0;
	pa = pte_pa(*slot);
	*slot = 0;
	flush_pair(vm, va);
	return pa;
}

uint64_t arch_vm_lookup(struct arch_vm *vm, uintptr_t va, unsigned *prot)
{
	uint32_t pte;

	if (va < USER_BASE || va >= USER_TOP)
		return 0;
	pte = pt_get(vm->root, va);
	if (!pte_valid(pte))
		return 0;
	if (prot)
		*prot = pte_prot(pte);
	return pte_pa(pte);
}

/*
 * Interrupts stay off from choosing the ASID to writing EntryHi, so a
 * generation cannot roll over in between.
 */
void arch_vm_activate(struct arch_vm *vm)
{
	irqflags_t f = arch_irq_save();
	struct mips_pcpu *p = pcpu_here();
	uint32_t asid = ASID_KERNEL;

	if (vm) {
		struct asid *a = (struct asid *)((char *)vm + p->vm_asid_offset);

		if (asid_assign(&p->asids, a))
			tlb_flush_all();
		asid = a->value;
	}
	p->pt_current = (uintptr_t)(vm ? vm->root : kernel_root);
	cp0_write_entryhi(asid);
	/* Nothing above turns interrupts on, so they are still off: only
	 * a caller that had them on (not the switch's) needs them back. */
	if (f)
		arch_irq_enable();
}
