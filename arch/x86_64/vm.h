/*
 * vm.h - the user half of the x86_64 address space (vm.c).
 *
 *   0x0000000000400000 .. 0x00007ffffffff000   user pages, 4 KiB each
 *
 * The last page below the non-canonical hole stays unmapped: a SYSCALL
 * at its very end would leave a non-canonical return address in RCX,
 * and SYSRET to one faults in ring 0 on Intel CPUs.
 */
#ifndef TALLY_X86_64_VM_H
#define TALLY_X86_64_VM_H

#define ARCH_USER_BASE   0x0000000000400000ull
#define ARCH_USER_TOP    0x00007ffffffff000ull
/* First address past the lower canonical half. */
#define CANONICAL_LOW_END 0x0000800000000000ull

/* Called by arch_init: enables no-execute pages if the CPU has them. */
void vm_init(void);

#endif
