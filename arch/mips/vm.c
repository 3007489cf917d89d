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
 * Only CPU 0 runs: mips_pt_current and the ASID space are per CPU in
 * meaning and become arrays when other CPUs start.
 */
#include <errno.h>

#include "arch.h"
#include "addrspace.h"
#include "arch_task.h"
#include "asid.h"
#include "cp0.h"
#include "mm/heap.h"
#include "mips.h"
#include "mm/page.h"
#include "pagetable.h"
#include "pte.h"

#define USER_BASE   0x00400000u
#define USER_TOP    0x7fff0000u
#define PAGE_OFFSET_MASK ((uintptr_t)PAGE_SIZE - 1)

_Static_assert(ST_UM == (1u << 4), "tlbrefill.S takes the mode from Status bit 4");
_Static_assert(USER_TOP <= KSEG0_BASE, "user range inside kuseg");

struct arch_vm {
	uintptr_t *root;
	struct asid asid;
};

/* tlbrefill.S */
extern uint32_t mips_tlb_refills[2];
extern uintptr_t mips_pt_current;

enum { REFILLS_KERNEL, REFILLS_USER };

/* Active while no user address space is: every entry on the empty leaf. */
static uintptr_t kernel_root[PT_ENTRIES];
static struct asid_space asids;
static struct arch_vm *active;
/* User pages are cached like KSEG0, so the two views of a page agree. */
static unsigned user_cca;

void vm_init(void)
{
	pt_init(kernel_root);
	mips_pt_current = (uintptr_t)kernel_root;
	asid_space_init(&asids, ENTRYHI_ASID_COUNT);
	user_cca = cp0_field(cp0_read_config(), CONFIG_K0_MASK, 0);
	cp0_write_entryhi(ASID_KERNEL);
}

void arch_user_range(uintptr_t *base, uintptr_t *top)
{
	*base = USER_BASE;
	*top = USER_TOP;
}

uint32_t arch_tlb_refill_count(bool user)
{
	return mips_tlb_refills[user ? REFILLS_USER : REFILLS_KERNEL];
}

uint64_t vm_asid_rollovers(void)
{
	return asids.rollovers;
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
	if (active == vm)
		arch_vm_activate(NULL);
	/*
	 * The TLB may still hold entries under this ASID, but no other
	 * address space gets the ASID before the generation ends and the
	 * TLB is flushed, so they can never be hit again.
	 */
	pt_destroy(vm->root);
	kfree(vm);
}

static bool user_page(uintptr_t va)
{
	return va >= USER_BASE && va < USER_TOP && (va & PAGE_OFFSET_MASK) == 0;
}

/* Make the TLB forget va's pair under vm's ASID, if it learnt it. */
static void flush_pair(struct arch_vm *vm, uintptr_t va)
{
	if (!asid_current(&asids, &vm->asid))
		return;         /* no entry can carry an ASID it does not hold */
	tlb_invalidate((va & ENTRYHI_VPN2_MASK) | vm->asid.value);
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
	uint32_t asid = ASID_KERNEL;

	if (vm) {
		if (asid_assign(&asids, &vm->asid))
			tlb_flush_all();
		asid = vm->asid.value;
	}
	active = vm;
	mips_pt_current = (uintptr_t)(vm ? vm->root : kernel_root);
	cp0_write_entryhi(asid);
	/* Nothing above turns interrupts on, so they are still off: only
	 * a caller that had them on (not the switch's) needs them back. */
	if (f)
		arch_irq_enable();
}
