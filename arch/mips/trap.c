/*
 * trap.c - installing the exception vectors and deciding what an
 * exception means.
 *
 * Interrupts go to intr.c.  Every other exception is, for now, a kernel
 * bug or a deliberate `crash`: it prints everything a person needs to find
 * the fault (name, EPC, Cause, Status, BadVAddr, all registers) and
 * panics.  User mode will add a branch here that turns faults from KSU =
 * user into signals and Sys into system calls.
 */
#include "arch.h"
#include "addrspace.h"
#include "cp0.h"
#include "mips.h"
#include "trapframe.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Vector offsets from EBase (Status.BEV = 0). */
#define VEC_TLB_REFILL   0x000u
#define VEC_XTLB_REFILL  0x080u
#define VEC_CACHE_ERROR  0x100u
#define VEC_GENERAL      0x180u
#define VEC_INTERRUPT    0x200u      /* only with Cause.IV */

extern const char mips_vec_stub[], mips_vec_stub_end[];
extern const char mips_idle_window[], mips_idle_wait[], mips_idle_done[];
extern const char __text_start[], __text_end[];
extern const char mips_boot_stack[], mips_boot_stack_top[];

uint32_t mips_kstack_top;

_Static_assert(offsetof(struct trapframe, regs) == TF_REG(0), "trapframe regs");
_Static_assert(offsetof(struct trapframe, hi) == TF_HI, "trapframe hi");
_Static_assert(offsetof(struct trapframe, lo) == TF_LO, "trapframe lo");
_Static_assert(offsetof(struct trapframe, epc) == TF_EPC, "trapframe epc");
_Static_assert(offsetof(struct trapframe, status) == TF_STATUS, "trapframe status");
_Static_assert(offsetof(struct trapframe, cause) == TF_CAUSE, "trapframe cause");
_Static_assert(offsetof(struct trapframe, badvaddr) == TF_BADVADDR, "trapframe badvaddr");
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "trapframe size");
_Static_assert(TF_STACK % 8 == 0, "O32 stack alignment");

struct exc_name {
	const char *name;
	const char *what;
};

static const struct exc_name exc_names[EXC_CODES] = {
	[EXC_INT]      = { "Int",      "interrupt" },
	[EXC_MOD]      = { "Mod",      "store to a read-only TLB page" },
	[EXC_TLBL]     = { "TLBL",     "TLB miss or invalid on load or fetch" },
	[EXC_TLBS]     = { "TLBS",     "TLB miss or invalid on store" },
	[EXC_ADEL]     = { "AdEL",     "address error on load or fetch" },
	[EXC_ADES]     = { "AdES",     "address error on store" },
	[EXC_IBE]      = { "IBE",      "bus error on instruction fetch" },
	[EXC_DBE]      = { "DBE",      "bus error on data access" },
	[EXC_SYS]      = { "Sys",      "system call" },
	[EXC_BP]       = { "Bp",       "breakpoint" },
	[EXC_RI]       = { "RI",       "reserved instruction" },
	[EXC_CPU]      = { "CpU",      "coprocessor unusable" },
	[EXC_OV]       = { "Ov",       "arithmetic overflow" },
	[EXC_TR]       = { "Tr",       "trap instruction" },
	[EXC_MSAFPE]   = { "MSAFPE",   "MSA floating point" },
	[EXC_FPE]      = { "FPE",      "floating point" },
	[EXC_C2E]      = { "C2E",      "coprocessor 2" },
	[EXC_TLBRI]    = { "TLBRI",    "TLB read inhibit" },
	[EXC_TLBXI]    = { "TLBXI",    "TLB execute inhibit" },
	[EXC_MSADIS]   = { "MSADis",   "MSA disabled" },
	[EXC_MDMX]     = { "MDMX",     "MDMX unusable" },
	[EXC_WATCH]    = { "WATCH",    "watchpoint" },
	[EXC_MCHECK]   = { "MCheck",   "machine check" },
	[EXC_THREAD]   = { "Thread",   "MT thread exception" },
	[EXC_DSPDIS]   = { "DSPDis",   "DSP ASE disabled" },
	[EXC_GE]       = { "GE",       "virtualization guest exit" },
	[EXC_CACHEERR] = { "CacheErr", "cache error" },
};

static const char *const reg_names[REG_COUNT] = {
	"zero", "at", "v0", "v1", "a0", "a1", "a2", "a3",
	"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7",
	"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
	"t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra",
};

#define REGS_PER_LINE 4

static unsigned exc_code(uint32_t cause)
{
	return cp0_field(cause, CAUSE_EXC_MASK, CAUSE_EXC_SHIFT);
}

static const char *mode_name(uint32_t status)
{
	switch (status & ST_KSU_MASK) {
	case ST_KSU_USER:  return "user";
	case ST_KSU_SUPER: return "supervisor";
	default:           return "kernel";
	}
}

/*
 * Copy the stub to each vector, make sure instruction fetch sees it, then
 * leave the boot vectors.  EBase is written while BEV is still set, as
 * the architecture requires.
 */
void trap_init(void)
{
	static const uint32_t vectors[] = {
		VEC_TLB_REFILL, VEC_XTLB_REFILL, VEC_CACHE_ERROR,
		VEC_GENERAL, VEC_INTERRUPT,
	};
	size_t stub_len = (size_t)(mips_vec_stub_end - mips_vec_stub);
	uint32_t base = KSEG0_BASE;
	bool r2 = cp0_is_release2();

	if (r2) {
		cp0_write_ebase(KSEG0_BASE & EBASE_BASE_MASK);
		base = KSEG0_BASE | (cp0_read_ebase() & EBASE_BASE_MASK);
	}
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
		memcpy((void *)(uintptr_t)(base + vectors[i]), mips_vec_stub, stub_len);

	if (r2) {
		uint32_t step;

		__asm__ volatile("rdhwr %0, $" CP0_STR(HWR_SYNCI_STEP) : "=r"(step));
		if (step != 0) {
			for (uint32_t a = base; a < base + VEC_INTERRUPT + stub_len; a += step)
				__asm__ volatile("synci 0(%0)" : : "r"(a) : "memory");
		}
		__asm__ volatile("sync" : : : "memory");
	}

	cp0_write_cause(cp0_read_cause() & ~(CAUSE_IV | CAUSE_IP_SW_MASK));
	cp0_write_status(cp0_read_status() & ~(ST_BEV | ST_ERL));
}

/*
 * An interrupt that arrived after arch_idle's `ei` but before its `wait`
 * finished skips the wait, so the caller re-checks for work at once.
 */
static unsigned long idle_restarts;

unsigned long trap_idle_restarts(void)
{
	return idle_restarts;
}

static void idle_restart(struct trapframe *tf)
{
	if (tf->epc >= (uintptr_t)mips_idle_window &&
	    tf->epc <= (uintptr_t)mips_idle_wait) {
		tf->epc = (uintptr_t)mips_idle_done;
		idle_restarts++;
	}
}

static void dump_frame(const struct trapframe *tf)
{
	unsigned code = exc_code(tf->cause);
	const struct exc_name *e = &exc_names[code];

	printf("\n*** MIPS exception %u: %s (%s) in %s mode\n", code,
	       e->name ? e->name : "reserved", e->what ? e->what : "?",
	       mode_name(tf->status));
	printf("EPC 0x%08x%s\n", (unsigned)tf->epc,
	       (tf->cause & CAUSE_BD) ? "  (the faulting instruction is the delay slot at EPC+4)" : "");
	printf("Cause 0x%08x  Status 0x%08x  BadVAddr 0x%08x\n",
	       (unsigned)tf->cause, (unsigned)tf->status, (unsigned)tf->badvaddr);
	for (unsigned i = 0; i < REG_COUNT; i++) {
		printf("%-4s %08x%s", reg_names[i], (unsigned)tf->regs[i],
		       (i % REGS_PER_LINE == REGS_PER_LINE - 1) ? "\n" : "  ");
	}
	printf("hi   %08x  lo   %08x\n", (unsigned)tf->hi, (unsigned)tf->lo);
}

static void trap_fatal(struct trapframe *tf)
{
	static int depth;
	unsigned code = exc_code(tf->cause);

	if (++depth > 1) {
		/* Faulting while reporting a fault: say the minimum and stop. */
		printf("\n*** MIPS exception %u at epc 0x%08x while handling another\n",
		       code, (unsigned)tf->epc);
		arch_halt();
	}
	dump_frame(tf);
	panic("mips: %s exception in %s mode at EPC 0x%08x",
	      exc_names[code].name ? exc_names[code].name : "reserved",
	      mode_name(tf->status), (unsigned)tf->epc);
}

void mips_trap(struct trapframe *tf)
{
	if (exc_code(tf->cause) == EXC_INT) {
		idle_restart(tf);
		intr_dispatch(tf->cause & cp0_read_status() & CAUSE_IP_MASK);
		return;
	}
	trap_fatal(tf);
}

/*
 * Where the current code was called from.  O32 code built without frame
 * pointers has no chain to follow, so this prints the registers that
 * still mean something and then every stack word that holds an address
 * inside the kernel's text: the return addresses among them are the call
 * chain (with some stale ones mixed in).
 */
#define STACK_SCAN_BYTES 1024u
#define STACK_SCAN_MAX   16u

void arch_dump_stack(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	uintptr_t end = sp + STACK_SCAN_BYTES;
	unsigned found = 0;

	if (sp >= (uintptr_t)mips_boot_stack && sp < (uintptr_t)mips_boot_stack_top)
		end = (uintptr_t)mips_boot_stack_top;
	printf("sp 0x%08x  ra 0x%08x  Status 0x%08x  Cause 0x%08x  EPC 0x%08x\n",
	       (unsigned)sp, (unsigned)(uintptr_t)__builtin_return_address(0),
	       (unsigned)cp0_read_status(), (unsigned)cp0_read_cause(),
	       (unsigned)cp0_read_epc());
	printf("text addresses on the stack:");
	for (uintptr_t p = sp; p + 4 <= end && found < STACK_SCAN_MAX; p += 4) {
		uint32_t w = *(const uint32_t *)p;

		if (w >= (uintptr_t)__text_start && w < (uintptr_t)__text_end) {
			printf(" %08x", (unsigned)w);
			found++;
		}
	}
	printf(found ? "\n" : " none\n");
}
