/*
 * witness.c - a QEMU TCG plugin that counts what Tally's guest executes,
 * from outside the guest, per interval the guest marks.
 *
 *   qemu-system-... -plugin build/witness/libwitness.so,arg=out=PATH
 *
 * Counted, split by the instruction's address (user mode below
 * 0x800000000000 on x86-64, below 0x80000000 on MIPS):
 *   user_insns, kernel_insns  instructions executed; each instruction adds
 *                             one as it starts (an inline add per
 *                             instruction, not per translation block, so
 *                             an exception mid-block counts only what ran;
 *                             an instruction that faults and is restarted
 *                             counts at each start, whereas icount counts
 *                             it once, when it completes)
 *   syscalls                  system-call instructions executed in user
 *                             mode (x86 `syscall` 0F 05, MIPS SPECIAL
 *                             function 0x0c)
 *   entries                   user -> kernel transitions: a kernel block
 *                             starting after user instructions ran
 *                             (system calls, interrupts, exceptions, MIPS
 *                             TLB refills)
 *
 * Output (PATH, one line each, flushed at once):
 *   witness version=1 target=TARGET
 *   interval id=N user_insns=U kernel_insns=K syscalls=S entries=E
 *   total user_insns=U kernel_insns=K syscalls=S kernel_syscalls=KS entries=E intervals=N open=O
 *   error TEXT
 * An interval opens at a begin mark and closes at the next end mark
 * (innermost first, if they nest); ids count begin marks from 1 at boot,
 * as the kernel does (kernel/witness.h).  The marks' own instructions are
 * kernel instructions and may or may not be inside kernel_insns.  `total`
 * is written when QEMU exits normally.
 *
 * With arg=prof=PPATH as well, every instruction's executions are also
 * counted by its address, and PPATH gets one line per address executed
 * at exit: `pc 0xADDR n=COUNT` (addresses ascending).  scripts/tally-insnprof
 * folds them into functions; that is how the hot paths' per-function
 * costs in docs/costs.md are measured from outside the guest.
 *
 * One vCPU, unless arg=rr=on says the vCPUs take turns in one thread
 * (QEMU's round robin: -icount, or -accel tcg,thread=single; nothing
 * here can check that): inline counters in plugin API v1 are not per
 * vCPU, so on threads of their own their adds would race, and an entry
 * or an interval is of one CPU's stream.  With rr the totals and the
 * profile are every vCPU's together, exact, and no entries or intervals
 * are kept: the first line says `vcpus=N rr`, the total line has
 * neither field, and a mark in the guest is left alone.
 *
 * Debian ships no plugin header, so the API v1 declarations this file
 * uses are written out below from the documented interface.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"

/* ---- QEMU plugin API, version 1 (the part used here) ------------------------ */

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
				    void *userdata);
void qemu_plugin_outs(const char *string);

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* ---- counting ----------------------------------------------------------------- */

/*
 * The per-address profile: an open-addressed table that only grows, so a
 * counter's address, given to QEMU as an inline add's target, never moves.
 * Retranslations of one address find and share its slot.
 */
#define PROF_SLOTS (1u << 20)

struct prof_slot {
	uint64_t pc;
	uint64_t n;
};

static struct {
	FILE *out;
	struct prof_slot *slots;        /* pc 0 marks an empty slot */
	unsigned used;
	bool full;
} prof;

struct counts {
	uint64_t user_insns;
	uint64_t kernel_insns;
	uint64_t syscalls;              /* in user mode */
	uint64_t kernel_syscalls;       /* in kernel mode: never, on Tally */
	uint64_t entries;
};

/* Intervals nest this deep at most; deeper begins are reported, not kept. */
#define MAX_OPEN 16

static struct {
	enum witness_isa isa;
	bool rr;                        /* several vCPUs in turn: totals only */
	FILE *out;
	struct counts c;
	uint64_t user_seen;             /* user_insns when the kernel last ran */
	uint64_t begins;                /* begin marks executed: the last id */
	unsigned open;
	struct {
		uint64_t id;
		struct counts at;
	} stack[MAX_OPEN];
} w;

static void put(const char *line)
{
	fputs(line, w.out);
	fflush(w.out);
}

/* A kernel block starts: if user instructions ran since the last one, the
 * CPU came from user mode. */
static void kernel_block(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	if (w.c.user_insns != w.user_seen) {
		w.c.entries++;
		w.user_seen = w.c.user_insns;
	}
}

static void mark_begin(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	w.begins++;
	if (w.open == MAX_OPEN) {
		char line[96];
		snprintf(line, sizeof(line), "error interval %llu nests deeper than %d\n",
			 (unsigned long long)w.begins, MAX_OPEN);
		put(line);
		return;
	}
	w.stack[w.open].id = w.begins;
	w.stack[w.open].at = w.c;
	w.open++;
}

static void mark_end(unsigned int vcpu, void *udata)
{
	char line[256];

	(void)vcpu;
	(void)udata;
	if (w.open == 0) {
		put("error end mark with no interval open\n");
		return;
	}
	w.open--;
	const struct counts *a = &w.stack[w.open].at;
	snprintf(line, sizeof(line), "interval id=%llu user_insns=%llu kernel_insns=%llu "
		 "syscalls=%llu entries=%llu\n", (unsigned long long)w.stack[w.open].id,
		 (unsigned long long)(w.c.user_insns - a->user_insns),
		 (unsigned long long)(w.c.kernel_insns - a->kernel_insns),
		 (unsigned long long)(w.c.syscalls - a->syscalls),
		 (unsigned long long)(w.c.entries - a->entries));
	put(line);
}

static uint64_t *prof_counter(uint64_t pc)
{
	uint64_t h = (pc * 0x9e3779b97f4a7c15ull) >> 44;

	for (unsigned i = 0; i < PROF_SLOTS; i++) {
		struct prof_slot *s = &prof.slots[(h + i) & (PROF_SLOTS - 1)];

		if (s->pc == pc)
			return &s->n;
		if (s->pc == 0) {
			if (prof.used >= PROF_SLOTS / 2) {
				prof.full = true;   /* reported at exit, not guessed */
				return NULL;
			}
			prof.used++;
			s->pc = pc;
			return &s->n;
		}
	}
	return NULL;
}

static int by_pc(const void *a, const void *b)
{
	const struct prof_slot *x = a, *y = b;

	return (x->pc > y->pc) - (x->pc < y->pc);
}

static void prof_write(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < PROF_SLOTS; i++)
		if (prof.slots[i].pc && prof.slots[i].n)
			prof.slots[n++] = prof.slots[i];
	qsort(prof.slots, n, sizeof(prof.slots[0]), by_pc);
	fprintf(prof.out, "witness-prof version=1 addresses=%u\n", n);
	if (prof.full)
		fprintf(prof.out, "error more than %u addresses: the rest were not counted\n",
			PROF_SLOTS / 2);
	for (unsigned i = 0; i < n; i++)
		fprintf(prof.out, "pc %#llx n=%llu\n", (unsigned long long)prof.slots[i].pc,
			(unsigned long long)prof.slots[i].n);
	fclose(prof.out);
}

static void instrument_insn(struct qemu_plugin_insn *insn)
{
	unsigned f = witness_classify(w.isa, qemu_plugin_insn_vaddr(insn),
				      qemu_plugin_insn_data(insn),
				      qemu_plugin_insn_size(insn));
	bool user = f & WITNESS_INSN_USER;

	qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
		user ? &w.c.user_insns : &w.c.kernel_insns, 1);
	if (prof.out) {
		uint64_t *n = prof_counter(qemu_plugin_insn_vaddr(insn));

		if (n)
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
				QEMU_PLUGIN_INLINE_ADD_U64, n, 1);
	}
	if (f & WITNESS_INSN_SYSCALL)
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
			user ? &w.c.syscalls : &w.c.kernel_syscalls, 1);
	/* Marks are kernel code: a user program cannot open intervals. */
	if (w.rr)
		return;
	if (!user && (f & WITNESS_INSN_BEGIN))
		qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_begin,
						       QEMU_PLUGIN_CB_NO_REGS, NULL);
	if (!user && (f & WITNESS_INSN_END))
		qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_end,
						       QEMU_PLUGIN_CB_NO_REGS, NULL);
}

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	if (n == 0)
		return;
	/* A block lies within one page, so its first address gives its mode. */
	unsigned f0 = witness_classify(w.isa,
		qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0)), NULL, 0);
	if (!(f0 & WITNESS_INSN_USER) && !w.rr)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, kernel_block,
						     QEMU_PLUGIN_CB_NO_REGS, NULL);
	for (size_t i = 0; i < n; i++)
		instrument_insn(qemu_plugin_tb_get_insn(tb, i));
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	char line[320];
	int n;

	(void)id;
	(void)udata;
	n = snprintf(line, sizeof(line), "total user_insns=%llu kernel_insns=%llu syscalls=%llu "
		     "kernel_syscalls=%llu", (unsigned long long)w.c.user_insns,
		     (unsigned long long)w.c.kernel_insns, (unsigned long long)w.c.syscalls,
		     (unsigned long long)w.c.kernel_syscalls);
	if (!w.rr && n > 0 && (size_t)n < sizeof(line))
		snprintf(line + n, sizeof(line) - (size_t)n, " entries=%llu intervals=%llu open=%u",
			 (unsigned long long)w.c.entries, (unsigned long long)w.begins, w.open);
	put(line);
	put("\n");
	fclose(w.out);
	if (prof.out)
		prof_write();
}

static int refuse(const char *why)
{
	char line[256];

	snprintf(line, sizeof(line), "witness: %s\n", why);
	qemu_plugin_outs(line);
	return -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv);

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL, *prof_path = NULL;
	char line[128];

	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "out=", 4) == 0)
			path = argv[i] + 4;
		else if (strncmp(argv[i], "prof=", 5) == 0 && argv[i][5])
			prof_path = argv[i] + 5;
		else if (strcmp(argv[i], "rr=on") == 0)
			w.rr = true;
		else
			return refuse("unknown argument (use arg=out=PATH[,arg=prof=PATH][,arg=rr=on])");
	}
	if (!path || !*path)
		return refuse("no output file (use arg=out=PATH)");
	if (!info->system_emulation)
		return refuse("system emulation only");
	if ((info->system.smp_vcpus != 1 || info->system.max_vcpus != 1) && !w.rr)
		return refuse("one vCPU only (-smp 1): inline counts are not per vCPU "
			      "(arg=rr=on if they run in turn: -icount)");
	if (!witness_isa_of(info->target_name, &w.isa))
		return refuse("target is not x86_64, mips or mipsel");
	w.out = fopen(path, "w");
	if (!w.out)
		return refuse("cannot open the output file");
	if (prof_path) {
		prof.slots = calloc(PROF_SLOTS, sizeof(prof.slots[0]));
		prof.out = prof.slots ? fopen(prof_path, "w") : NULL;
		if (!prof.out)
			return refuse("cannot open the profile file (or no memory for it)");
	}
	if (w.rr)
		snprintf(line, sizeof(line), "witness version=1 target=%s vcpus=%d rr\n",
			 info->target_name, info->system.smp_vcpus);
	else
		snprintf(line, sizeof(line), "witness version=1 target=%s\n", info->target_name);
	put(line);
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
