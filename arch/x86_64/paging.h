/*
 * paging.h - 4-level page tables (Intel SDM vol. 3, 4.5).  The boot tables
 * are built in boot/x86_64/boot_paging.asm; this file grows the direct map
 * to all RAM and later code (user space) adds to them.
 */
#ifndef TALLY_X86_64_PAGING_H
#define TALLY_X86_64_PAGING_H

#include <stdint.h>

struct boot_info;

#define PTE_PRESENT      (1ull << 0)
#define PTE_WRITE        (1ull << 1)
#define PTE_USER         (1ull << 2)     /* ring 3 may use it */
#define PTE_PWT          (1ull << 3)     /* with PCD: PAT entry 3, UC at reset */
#define PTE_PCD          (1ull << 4)
#define PTE_LARGE        (1ull << 7)     /* PD entry maps 2 MiB */
/* Bits 11:9 are ignored by the MMU and left to software. */
#define PTE_SW_EXEC      (1ull << 9)     /* asked for VM_PROT_EXEC */
#define PTE_NX           (1ull << 63)    /* honoured once EFER.NXE is set */
#define PTE_ADDR_MASK    0x000ffffffffff000ull
#define PTE_TABLE        (PTE_PRESENT | PTE_WRITE)
#define PTE_LARGE_RW     (PTE_PRESENT | PTE_WRITE | PTE_LARGE)

#define PT_ENTRIES       512u
#define PML4_SHIFT       39
#define PDPT_SHIFT       30
#define PD_SHIFT         21
#define PT_SHIFT         12
/* PML4 slots 256..511 map the upper half: the kernel's, in every PML4. */
#define PML4_KERNEL_FIRST (PT_ENTRIES / 2)
#define LARGE_PAGE_SIZE  (1ull << PD_SHIFT)
#define PT_INDEX(va, shift) (((va) >> (shift)) & (PT_ENTRIES - 1))

#define PML4_IDENTITY    0u              /* boot only */

/* boot/x86_64/boot_paging.asm */
extern uint64_t boot_pml4[PT_ENTRIES];

/*
 * Map every available range of bi into the direct map (the boot tables
 * cover the first 4 GiB), taking page-table pages from bi's low RAM.
 */
void paging_map_ram(struct boot_info *bi);
/* Remove the boot identity map: the lower half is empty afterwards. */
void paging_drop_identity(void);
/*
 * Make the direct map's 2 MiB page holding pa uncacheable, for device
 * registers there (the local APIC), and return pa's address in the direct
 * map.  Only below 4 GiB, which the boot tables map (NULL otherwise); the
 * whole 2 MiB page changes, so it must hold no RAM.
 */
volatile void *paging_map_mmio(uint64_t pa);

#endif
