/*
 * prof_sample.c - the kernel's side of sample records: the env calls the
 * overflow path makes (kernel/hwperf/env.h: one record per profile hit,
 * the cycle counter and the idle count for the pctr read), the rings'
 * pages, and printing.
 *
 * A record is taken from the overflow path, hwperf lock held, interrupts
 * off, on the CPU the profiled task runs on: its user registers are in
 * its trap frame (the last entry from user mode), and its stack is read
 * only through copy_from_user, which walks the page table and answers
 * -EFAULT for anything unmapped, so a bad frame pointer ends the walk.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "arch_task.h"
#include "hwperf/env.h"
#include "hwperf/format.h"
#include "hwperf/spec.h"
#include "mm/heap.h"
#include "machdep.h"
#include "mm/page.h"
#include "tools/prof_sample.h"
#include "proc/program_syms.h"
#include "proc/task.h"
#include "mm/uvm.h"

_Static_assert(PROF_RING_MAX <= (PAGE_SIZE / sizeof(struct hwperf_sample)) *
	       PROF_RING_PAGES_MAX, "the largest ring must fit its pages");

#define UNWIND MACHDEP_USER_UNWIND          /* the arch's (machdep.h) */

#define SAMPLE_LINE_MAX 400
#define EVENT_NAME_MAX (HWPERF_NAME_MAX + 8)

/* ---- env.h: cycles and idle (the pctr read) ------------------------------- */

uint64_t hwperf_env_cycles(void)
{
	return arch_cycles();
}

void hwperf_env_idle(uint64_t *cycles, uint64_t *iterations)
{
	*cycles = 0;
	*iterations = 0;
	for (unsigned i = 0; i < cpu_count(); i++) {
		const struct cpu *c = cpu_get(i);

		if (!c || !c->idle)
			continue;
		/* The idle task is a kernel thread: all its time is kernel
		 * time, cut at every interrupt that wakes it. */
		struct task_acct v;

		acct_view(&v, &c->idle->acct);
		*cycles += v.sys_cycles + v.user_cycles;
		*iterations += c->idle_iterations;
	}
}

/* ---- env.h: one record per profile hit ------------------------------------- */

static int read_user(void *ctx, uintptr_t addr, void *dst, size_t n)
{
	return copy_from_user(ctx, dst, addr, n);
}

void hwperf_env_profile_sample(struct hwperf_task *h, unsigned vctr, uintptr_t pc)
{
	struct task *t = container_of(h, struct task, hw);
	const struct task_profile *p = t->profile;
	struct hwperf_sample *s;
	uintptr_t text_hi;
	bool cut = false;

	if (!p || !p->ring || !t->utf || !t->uvm || pc < p->base)
		return;
	/* The same hits the histogram counts: in the program's text. */
	text_hi = p->base + ((uintptr_t)p->nbuckets << p->shift);
	if (pc >= text_hi || !(s = hwperf_ring_next(p->ring)))
		return;
	s->cycles = arch_cycles();
	s->pc = pc;
	s->pid = t->pid;
	s->cpu = (uint16_t)this_cpu()->id;
	s->vctr = (uint8_t)vctr;
	struct hwperf_uregs r = {
		.pc = pc, .sp = arch_tf_sp(t->utf), .fp = arch_tf_fp(t->utf),
		.ra = arch_tf_ra(t->utf), .text_lo = p->base, .text_hi = text_hi,
		.stack_hi = t->uvm->stack_top,
	};
	s->depth = (uint8_t)hwperf_callchain(UNWIND, &r, read_user, t->uvm, s->chain,
					     HWPERF_SAMPLE_DEPTH, &cut);
	s->flags = cut ? HWPERF_SAMPLE_TRUNC : 0;
}

/* ---- rings ------------------------------------------------------------------- */

void prof_records_free(struct prof_records *r)
{
	for (unsigned i = 0; i < r->npages; i++)
		page_free(r->pages[i]);
	memset(r, 0, sizeof(*r));
}

int prof_records_alloc(struct prof_records *r, uint32_t want)
{
	uint32_t per = PAGE_SIZE / sizeof(struct hwperf_sample);

	memset(r, 0, sizeof(*r));
	if (want < PROF_RING_MIN || want > PROF_RING_MAX)
		return -EINVAL;
	while (r->npages * per < want) {
		void *pg = page_alloc();

		if (!pg) {
			prof_records_free(r);
			return -ENOMEM;
		}
		r->pages[r->npages++] = pg;
	}
	hwperf_ring_init(&r->ring, r->pages, PAGE_SIZE,
			 hwperf_ring_capacity(PAGE_SIZE, r->npages, want));
	return 0;
}

/* ---- printing ----------------------------------------------------------------- */

/* The program's "ADDRESS NAME" lines, one at a time. */
static void print_syms(const char *prog, bool json)
{
	const struct program_syms *syms = program_syms_find(prog);
	const char *p = syms ? syms->start : NULL;
	bool first = true;

	while (p && p < syms->end) {
		const char *nl = memchr(p, '\n', (size_t)(syms->end - p));
		const char *end = nl ? nl : syms->end;
		const char *sp = memchr(p, ' ', (size_t)(end - p));

		if (sp && sp > p && end > sp + 1) {
			int alen = (int)(sp - p), nlen = (int)(end - sp - 1);

			if (json)
				printf("%s{\"addr\":\"0x%.*s\",\"name\":\"%.*s\"}",
				       first ? "" : ",\n", alen, p, nlen, sp + 1);
			else
				printf("sym 0x%.*s %.*s\n", alen, p, nlen, sp + 1);
			first = false;
		}
		p = end + 1;
	}
	if (json && !first)
		printf("\n");
}

void prof_records_print(const struct prof_records *r,
			const struct hwperf_control *ctl, const char *prog,
			bool json)
{
	static char line[SAMPLE_LINE_MAX];
	char ev[EVENT_NAME_MAX];
	const struct hwperf_ring *g = &r->ring;

	if (json)
		printf("{\"program\":\"%s\",\"kept\":%u,\"dropped\":%llu,\"capacity\":%u,"
		       "\"depth_max\":%u,\"records\":[\n", prog, (unsigned)g->n,
		       (unsigned long long)g->dropped, (unsigned)g->cap,
		       HWPERF_SAMPLE_DEPTH);
	else
		printf("samples kept=%u dropped=%llu capacity=%u depth_max=%u\n",
		       (unsigned)g->n, (unsigned long long)g->dropped,
		       (unsigned)g->cap, HWPERF_SAMPLE_DEPTH);
	for (uint32_t i = 0; i < g->n; i++) {
		const struct hwperf_sample *s = hwperf_ring_get(g, i);

		hwperf_event_name(&ctl->ev[s->vctr % HWPERF_NVCTR], ev, sizeof(ev));
		hwperf_sample_format(s, ev, json, line, sizeof(line));
		printf("%s%s\n", line, json && i + 1 < g->n ? "," : "");
	}
	if (json)
		printf("],\"syms\":[\n");
	print_syms(prog, json);
	if (json)
		printf("]}\n");
}

/* ---- the console's ring: `hwperf profile -r N PID SPEC`, `hwperf samples` ---- */

#define CON_BUCKET_BLOCK 2040u          /* kmalloc's largest block */
#define CON_BUCKETS_MAX (CON_BUCKET_BLOCK / sizeof(uint32_t))
#define CON_MIN_SHIFT 2

/* One at a time: arming again takes the ring from the last task first. */
static struct {
	struct prof_records rec;
	struct hwperf_control ctl;
	char prog[TASK_NAME_MAX];
	int pid;
	bool armed;
} con;

static struct task_profile *con_profile_alloc(void)
{
	struct task_profile *p = kzalloc(sizeof(*p));

	if (!p)
		return NULL;
	p->buckets = kzalloc(CON_BUCKETS_MAX * sizeof(uint32_t));
	if (!p->buckets) {
		kfree(p);
		return NULL;
	}
	p->ring = &con.rec.ring;
	return p;
}

/* Buckets over t's text, as prof has them, so hits and records agree. */
static void con_profile_fill(struct task_profile *p, const struct task *t)
{
	const struct uvm *u = t->uvm;

	for (unsigned i = 0; i < u->nseg; i++)
		if (u->seg[i].prot & VM_PROT_EXEC) {
			p->base = u->seg[i].start;
			p->shift = CON_MIN_SHIFT;
			while (((u->seg[i].end - p->base) >> p->shift) > CON_BUCKETS_MAX)
				p->shift++;
			p->nbuckets = (uint32_t)((u->seg[i].end - p->base) >> p->shift);
			return;
		}
}

/* The last armed task, if it still lives, stops using the ring. */
static void con_disarm(void)
{
	unsigned long hf;
	irqflags_t f;

	if (!con.armed)
		return;
	/* hwperf's lock first (the overflow path holds it while it writes
	 * a record), then the task table's: the order env.h fixes. */
	hf = hwperf_env_lock();
	f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_find(con.pid);
	if (t && t->profile && t->profile->ring == &con.rec.ring)
		t->profile->ring = NULL;
	spin_unlock_irqrestore(&task_table_lock, f);
	hwperf_env_unlock(hf);
	prof_records_free(&con.rec);
	con.armed = false;
}

int prof_console_arm(int pid, uint32_t n, const struct hwperf_control *ctl,
		     struct hwperf_reason *why)
{
	struct task_profile *p;
	int err = 0;

	con_disarm();
	if ((err = prof_records_alloc(&con.rec, n)) < 0) {
		snprintf(why->text, sizeof(why->text), "%s: a ring of %u records "
			 "(1..%u)", errno_name(err), (unsigned)n, PROF_RING_MAX);
		return err;
	}
	if (!(p = con_profile_alloc())) {
		prof_records_free(&con.rec);
		snprintf(why->text, sizeof(why->text), "ENOMEM: no memory for "
			 "pid %d's profile", pid);
		return -ENOMEM;
	}
	/* The lock keeps the task and its address space while we look. */
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_find(pid);
	if (!t || t->kthread || !t->uvm || t->state == TASK_ZOMBIE) {
		err = -ESRCH;
	} else if (t->profile) {
		err = -EBUSY;
	} else {
		con_profile_fill(p, t);
		t->profile = p;
		con.pid = pid;
		con.ctl = *ctl;
		memcpy(con.prog, t->name, sizeof(con.prog));
		con.armed = true;
	}
	spin_unlock_irqrestore(&task_table_lock, f);
	if (err) {
		kfree(p->buckets);
		kfree(p);
		prof_records_free(&con.rec);
		snprintf(why->text, sizeof(why->text), err == -EBUSY ?
			 "EBUSY: pid %d already has a profile buffer (prof's or an "
			 "earlier hwperf profile -r)" :
			 "ESRCH: no user task with pid %d", pid);
	}
	return err;
}

void prof_console_disarm(void)
{
	con_disarm();
}

int prof_console_print(bool json)
{
	struct prof_records snap;
	unsigned long hf;

	if (!con.armed)
		return -ENOENT;
	/* Records below n are whole: each is written with hwperf's lock held. */
	hf = hwperf_env_lock();
	snap = con.rec;
	hwperf_env_unlock(hf);
	prof_records_print(&snap, &con.ctl, con.prog, json);
	return con.pid;
}
