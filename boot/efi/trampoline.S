/*
 * trampoline.S - from UEFI's long mode to the kernel's 32-bit entry.
 *
 * main.c copies these bytes to a page below 4 GiB (the firmware's page
 * tables map it identically, and it stays addressable once paging is
 * off) and calls it, after ExitBootServices, as
 *	trampoline(uint64_t entry, uint32_t magic, uint32_t info)   (SysV)
 * It loads its own GDT, drops to 32-bit compatibility mode, turns paging
 * and long mode off and jumps to entry with EAX = magic, EBX = info: the
 * state a multiboot loader leaves (Intel SDM vol. 3, 10.8.5 "Initializing
 * IA-32e mode", read backwards).  Position-independent: every reference
 * is RIP-relative or computed at run time.
 */

#define CR0_PG_CLEAR    0x7fffffff      /* CR0 with PG (bit 31) clear */
#define CR4_PCIDE       (1 << 17)       /* must be clear before paging goes off */
#define MSR_EFER        0xc0000080
#define EFER_LME        (1 << 8)

/* Descriptor bits (Intel SDM vol. 3, 3.4.5): flat 4 GiB, ring 0. */
#define SEG_FLAT        0x00cf00000000ffff      /* limit 0xfffff, G, D/B */
#define SEG_PRESENT     (1 << 47)
#define SEG_NONSYSTEM   (1 << 44)
#define SEG_CODE        (1 << 43)
#define SEG_RW          (1 << 41)               /* readable code, writable data */
#define SEG_ACCESSED    (1 << 40)
#define SEG_CODE32      (SEG_FLAT | SEG_PRESENT | SEG_NONSYSTEM | SEG_CODE | SEG_RW | SEG_ACCESSED)
#define SEG_DATA32      (SEG_FLAT | SEG_PRESENT | SEG_NONSYSTEM | SEG_RW | SEG_ACCESSED)
#define SEL_CODE32      0x08
#define SEL_DATA32      0x10

	.section .rodata
	.balign 16
	.globl efi_trampoline, efi_trampoline_end
efi_trampoline:
	.code64
	cli
	movl %esi, %ebp                 /* magic; EDI keeps the entry */
	movl %edx, %ebx                 /* info */
	movq %cr4, %rax
	andq $~CR4_PCIDE, %rax
	movq %rax, %cr4
	/* The GDT register is built on the stack: this page may be read-only. */
	leaq tramp_gdt(%rip), %rax
	subq $16, %rsp
	movw $(tramp_gdt_end - tramp_gdt - 1), (%rsp)
	movq %rax, 2(%rsp)
	lgdt (%rsp)
	leaq tramp_prot32(%rip), %rax
	pushq $SEL_CODE32
	pushq %rax
	lretq

	.code32
tramp_prot32:
	movl $SEL_DATA32, %eax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %fs
	movw %ax, %gs
	movw %ax, %ss
	movl %cr0, %eax
	andl $CR0_PG_CLEAR, %eax
	movl %eax, %cr0                 /* paging off: long mode is inactive */
	movl $MSR_EFER, %ecx
	rdmsr
	andl $~EFER_LME, %eax
	wrmsr
	movl %ebp, %eax
	jmp *%edi

	.balign 8
tramp_gdt:
	.quad 0
	.quad SEG_CODE32
	.quad SEG_DATA32
tramp_gdt_end:
efi_trampoline_end:

	/* No executable stack wanted. */
	.section .note.GNU-stack,"",@progbits
