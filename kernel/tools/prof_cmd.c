/*
 * prof_cmd.c - `prof [-e SPEC] [-n TOP] [-r N] [--json] PROG [ARGS...]`: run a built-in
 * program with an overflow threshold whose every expiry adds one to the
 * bucket of the interrupted user PC (R15, IRIX HWPERF_PROFENABLE), and
 * print the hottest buckets with the program's function names.
 *
 *	ok gen=1
 *	... the program's own output ...
 *	prof hits=H buckets=B bucket_bytes=4 base=0x400000
 *	pc=0x400120 count=C pct=P.PP sym=__syscall6+0x10     hottest first
 *	exit 0 | signal SIGSEGV
 *
 * Buckets cover the program's text segment; their size is the smallest
 * power of two (at least one MIPS instruction) that keeps them in one
 * heap block.  `pc` is a bucket's first address.  Names come from the
 * program's symbols kept at build time (program_syms.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_task.h"
#include "console/cmd.h"
#include "tools/counted_spawn.h"
#include "mm/heap.h"
#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "proc/program_syms.h"
#include "tools/prof_sample.h"
#include "proc/proc.h"
#include "tools/stat_math.h"
#include "proc/task.h"
#include "mm/uvm.h"

#define PROF_USAGE "prof [-e SPEC] [-n TOP] [-r N] [--json] PROG [ARGS...]"
#define PROF_DEFAULT_SPEC "cycles:u:thresh=100000"
#define PROF_HEAP_BLOCK 2040u           /* kmalloc's largest block */
#define PROF_BUCKETS_MAX (PROF_HEAP_BLOCK / sizeof(uint32_t))
#define PROF_MIN_SHIFT 2                /* 4 bytes: one MIPS instruction */
#define PROF_TOP_DEFAULT 10
#define PROF_TOP_MAX 50
#define PCT100_WHOLE 10000u
#define PCT100_UNIT 100u
#define SYM_NAME_MAX 48

/* One command at a time; too big for the console's stack. */
static struct {
	struct hwperf_control ctl;
	struct hwperf_control final_ctl;
	struct hwperf_counts counts;
	uint32_t buckets[PROF_BUCKETS_MAX];
	uint32_t nbuckets;
	unsigned shift;
	uintptr_t base;
	int final_gen;
	bool reaped;
	struct prof_records rec;        /* -r: the sample ring */
} pf;

struct prof_opts {
	const char *spec;
	unsigned top;
	uint32_t records;               /* 0: no records */
	bool json;
	int prog;
};

/* ---- buckets over the child's text ----------------------------------------- */

static void setup_profile(struct task *t, struct counted_run *r)
{
	const struct uvm *u = t->uvm;
	struct task_profile *p = r->prof;
	uintptr_t start = 0, end = 0;

	for (unsigned i = 0; i < u->nseg; i++)
		if (u->seg[i].prot & VM_PROT_EXEC) {
			start = u->seg[i].start;
			end = u->seg[i].end;
			break;
		}
	p->base = start;
	p->shift = PROF_MIN_SHIFT;
	while (((end - start) >> p->shift) > PROF_BUCKETS_MAX)
		p->shift++;
	p->nbuckets = (uint32_t)((end - start) >> p->shift);
}

static struct task_profile *new_profile(void)
{
	struct task_profile *p = kzalloc(sizeof(*p));

	if (!p)
		return NULL;
	p->buckets = kzalloc(PROF_BUCKETS_MAX * sizeof(uint32_t));
	if (!p->buckets) {
		kfree(p);
		return NULL;
	}
	return p;
}

static void on_reap(struct task *t, void *arg)
{
	const struct task_profile *p = t->profile;

	(void)arg;
	pf.final_gen = hwperf_task_final(&t->hw, &pf.final_ctl, &pf.counts);
	pf.nbuckets = p ? p->nbuckets : 0;
	pf.shift = p ? p->shift : 0;
	pf.base = p ? p->base : 0;
	if (p)
		memcpy(pf.buckets, p->buckets, pf.nbuckets * sizeof(uint32_t));
	pf.reaped = true;
}

/* ---- output ------------------------------------------------------------------- */

static uint64_t total_hits(void)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < pf.nbuckets; i++)
		n += pf.buckets[i];
	return n;
}

/* The hottest bucket not printed yet (printed ones are zeroed), or -1. */
static int hottest(void)
{
	int best = -1;

	for (uint32_t i = 0; i < pf.nbuckets; i++)
		if (pf.buckets[i] && (best < 0 || pf.buckets[i] > pf.buckets[best]))
			best = (int)i;
	return best;
}

static void print_bucket(const struct program_syms *syms, int b, uint64_t hits)
{
	uintptr_t pc = pf.base + ((uintptr_t)b << pf.shift), off = 0;
	unsigned p = (unsigned)stat_muldiv(pf.buckets[b], PCT100_WHOLE, hits);
	char name[SYM_NAME_MAX] = "?";

	if (syms)
		program_sym_lookup(syms->start, (size_t)(syms->end - syms->start), pc,
				   name, sizeof(name), &off);
	printf("pc=%#lx count=%u pct=%u.%02u sym=%s+%#lx\n", (unsigned long)pc,
	       (unsigned)pf.buckets[b], p / PCT100_UNIT, p % PCT100_UNIT, name,
	       (unsigned long)off);
}

static void print_profile(const char *prog, unsigned top)
{
	const struct program_syms *syms = program_syms_find(prog);
	uint64_t hits = total_hits();
	int b;

	printf("prof hits=%llu buckets=%u bucket_bytes=%u base=%#lx\n",
	       (unsigned long long)hits, (unsigned)pf.nbuckets, 1u << pf.shift,
	       (unsigned long)pf.base);
	for (unsigned n = 0; n < top && (b = hottest()) >= 0; n++) {
		print_bucket(syms, b, hits);
		pf.buckets[b] = 0;
	}
}

/* ---- the command ----------------------------------------------------------------- */

static int usage_err(const char *what)
{
	printf("err EINVAL: %s (usage: %s)\n", what, PROF_USAGE);
	return CMD_ERR_REPORTED;
}

static int parse_opts(int argc, char **argv, struct prof_opts *o)
{
	uint64_t v;
	int i = 1;

	*o = (struct prof_opts){ .spec = PROF_DEFAULT_SPEC, .top = PROF_TOP_DEFAULT };
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-e") == 0 && i + 1 < argc) {
			o->spec = argv[++i];
		} else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc &&
			   parse_u64(argv[i + 1], 0, &v) == 0 && v >= 1 && v <= PROF_TOP_MAX) {
			o->top = (unsigned)v;
			i++;
		} else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc &&
			   parse_u64(argv[i + 1], 0, &v) == 0 && v >= PROF_RING_MIN &&
			   v <= PROF_RING_MAX) {
			o->records = (uint32_t)v;
			i++;
		} else if (strcmp(argv[i], "--json") == 0) {
			o->json = true;
		} else {
			return usage_err(argv[i]);
		}
	}
	o->prog = i;
	if (o->json && !o->records)
		return usage_err("--json prints records: give -r N");
	return i < argc ? 0 : usage_err("no program named");
}

static void print_end(int status)
{
	char how[WAIT_TEXT_MAX];

	wait_status_text(status, how, sizeof(how));
	printf("%s\n", how);
}

/* The ring lives with the command, which outlives the child. */
static struct task_profile *new_profile_with(const struct prof_opts *o)
{
	struct task_profile *p;

	if (o->records && prof_records_alloc(&pf.rec, o->records) < 0)
		return NULL;
	p = new_profile();
	if (!p) {
		prof_records_free(&pf.rec);
		return NULL;
	}
	p->ring = o->records ? &pf.rec.ring : NULL;
	return p;
}

static int run_prof(int argc, char **argv, const struct prof_opts *o)
{
	struct hwperf_reason why;
	int gen, status;

	struct counted_run run = {
		.ctl = &pf.ctl, .profile = true, .prof = new_profile_with(o),
		.setup = setup_profile, .on_reap = on_reap,
	};
	if (!run.prof) {
		printf("err ENOMEM: no memory for the profile buckets or records\n");
		return CMD_ERR_REPORTED;
	}
	pf.reaped = false;
	int pid = counted_spawn(argc - o->prog, argv + o->prog, &run, &gen, &why);
	if (pid < 0) {
		printf("err %s\n", why.text);
		return CMD_ERR_REPORTED;
	}
	printf("ok gen=%d\n", gen);
	int r = counted_wait(pid, &status);

	if (r == -EINTR)
		return 0;
	if (r < 0 || !pf.reaped) {
		printf("error: prof: waiting for pid %d failed\n", pid);
		return CMD_ERR_REPORTED;
	}
	print_profile(argv[o->prog], o->top);
	if (o->records)
		prof_records_print(&pf.rec, &pf.ctl, argv[o->prog], o->json);
	print_end(status);
	return 0;
}

static int cmd_prof(int argc, char **argv)
{
	struct hwperf_reason why;
	struct prof_opts o;
	int rc;

	if (parse_opts(argc, argv, &o) < 0)
		return CMD_ERR_REPORTED;
	if (hwperf_spec_parse(o.spec, hwperf_caps(), &pf.ctl, &why) < 0) {
		printf("err %s\n", why.text);
		return CMD_ERR_REPORTED;
	}
	rc = run_prof(argc, argv, &o);
	/* Every way out of run_prof has reaped the child (or never had
	 * one), so nothing refers to the ring any more. */
	prof_records_free(&pf.rec);
	return rc;
}
CONSOLE_CMD(prof, "run a program, profiling its user PC at each counter threshold",
	    PROF_USAGE "\n"
	    "  -e SPEC   events with thresholds (default " PROF_DEFAULT_SPEC ");\n"
	    "            each threshold expiry adds one to the interrupted PC's bucket\n"
	    "  -n TOP    hottest buckets to print (default 10, at most 50)\n"
	    "  -r N      also keep one sample record per hit (ring of N, 1..2048;\n"
	    "            the rest are counted as dropped), printed after the buckets:\n"
	    "            `samples kept=K dropped=D capacity=N depth_max=M`, per record\n"
	    "            `sample pid= cpu= cycles= vctr= event= pc= chain=`, then `sym A NAME`\n"
	    "  --json    the records as one JSON document instead (with -r)\n"
	    "First line `ok gen=N` or `err ENAME: reason`; then the program's output;\n"
	    "`prof hits=H buckets=B bucket_bytes=S base=A`; per bucket\n"
	    "`pc=A count=C pct=P sym=NAME+OFF`, hottest first; then `exit N`/`signal NAME`.",
	    cmd_prof);
