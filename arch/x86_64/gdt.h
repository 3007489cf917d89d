/*
 * gdt.h - segment selectors and the task state segment.
 *
 * The order is fixed by SYSCALL/SYSRET (Intel SDM vol. 2, SYSRET): with
 * STAR[47:32] = GDT_KERNEL_CS the kernel stack segment is the next entry,
 * and with STAR[63:48] = GDT_USER32_CS the 64-bit user code and stack
 * selectors are +16 and +8 from it.
 */
#ifndef TALLY_X86_64_GDT_H
#define TALLY_X86_64_GDT_H

#include <stdint.h>

#define GDT_KERNEL_CS   0x08
#define GDT_KERNEL_DS   0x10
#define GDT_USER32_CS   0x18    /* SYSRET's base selector; empty slot */
#define GDT_USER_DS     0x20
#define GDT_USER_CS     0x28
#define GDT_TSS         0x30    /* 16 bytes: two slots */
#define GDT_SLOTS       8
#define RING_KERNEL     0
#define RING_USER       3       /* as DPL, and as RPL in a selector */

/* Interrupt stack table slots (1-based; 0 means "no switch"). */
#define IST_DOUBLE_FAULT  1
#define IST_NMI           2
#define IST_MACHINE_CHECK 3
#define IST_SLOTS         7

/* CPU 0's table; gdt_init_cpu loads CPU cpu's own (GDT, TSS, selectors). */
void gdt_init(void);
void gdt_init_cpu(unsigned cpu);

/* tss.c */
struct tss;
struct tss *tss_init(unsigned cpu);
uint16_t tss_limit(void);
/* Stack CPU 0 switches to on an interrupt from user mode (only CPU 0
 * runs tasks yet; the SMP scheduler will make it the running CPU's). */
void tss_set_rsp0(uint64_t rsp0);
/* If addr lies on one of the IST stacks, its bounds; else 0. */
int tss_ist_bounds(uint64_t addr, uint64_t *bottom, uint64_t *top);

#endif
