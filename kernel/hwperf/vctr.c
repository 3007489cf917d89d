/*
 * vctr.c - 32 virtual 64-bit counters per set (R9, R13, R14).
 *
 * Hardware deltas arrive through the driver's sum/start folding (perfctr's
 * a-mode method), so a count never goes backwards whatever the counter's
 * width.  Time-enabled grows while the set is loaded; time-running only
 * for the virtual counters that were on a hardware counter, so a reader
 * can scale a multiplexed count by enabled / running.
 */
#include <string.h>

#include "bits.h"
#include "internal.h"

/* Installs so far: each set's control gets the next number. */
static uint32_t installs;

static uint64_t thresh_of(const struct hwperf_set *s, unsigned i)
{
	return s->ctl.ev[i].thresh > 0 ? (uint64_t)s->ctl.ev[i].thresh : 0;
}

static void vctr_reset(struct hwperf_set *s, unsigned i)
{
	s->c.count[i] = 0;
	s->c.enabled[i] = 0;
	s->c.running[i] = 0;
	s->rot_ctl_id = 0;      /* the rotor's order is time-running's */
	s->seen[i] = 0;
	s->next_at[i] = thresh_of(s, i);
	s->unchecked |= 1u << i;
}

void hwperf_set_clear(struct hwperf_set *s)
{
	/* Sums a switch-out left unfolded predate the clear: folded first,
	 * then cleared with the rest (else they would land after it). */
	hwperf_set_catch_up(s);
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		vctr_reset(s, i);
	s->enabled_owed = 0;
	s->enabled_all_owed = true;
}

uint64_t hwperf_set_enabled(const struct hwperf_set *s, unsigned i)
{
	return s->c.enabled[i] + ((s->used >> i) & 1u ? s->enabled_owed : 0);
}

void hwperf_set_settle(struct hwperf_set *s)
{
	uint64_t owed = s->enabled_owed;

	if (owed == 0)
		return;
	s->enabled_owed = 0;
	s->enabled_all_owed = false;
	if ((s->used & (s->used + 1u)) == 0) {
		/* Counters 0..n-1, the usual shape: a plain walk. */
		unsigned n = s->used == ~0u ? HWPERF_NVCTR : (unsigned)__builtin_ctz(~s->used);
		uint64_t *e = s->c.enabled;
		unsigned i = 0;

		/* A full set eight a turn: the loop's own add, compare and
		 * branch cost three times the add on x86 (compilers left it
		 * rolled). */
		for (; n == HWPERF_NVCTR && i < HWPERF_NVCTR; i += 8) {
			e[i] += owed;
			e[i + 1] += owed;
			e[i + 2] += owed;
			e[i + 3] += owed;
			e[i + 4] += owed;
			e[i + 5] += owed;
			e[i + 6] += owed;
			e[i + 7] += owed;
		}
		for (; i < n; i++)
			e[i] += owed;
	} else {
		for (uint32_t u = s->used; u; u &= u - 1)
			s->c.enabled[__builtin_ctz(u)] += owed;
	}
}

bool hwperf_same_event(const struct hwperf_event *a,
                       const struct hwperf_event *b)
{
	return hwperf_name_eq(a->name, b->name) && a->flags == b->flags &&
	       a->code == b->code && a->modes == b->modes;
}

/* New control: counts of unchanged events survive, changed ones restart. */
void hwperf_set_install(struct hwperf_set *s, const struct hwperf_control *ctl,
                        const struct hwperf_res *res)
{
	uint32_t kept = 0, rethresh = 0, reach = 0;
	unsigned nused = 0;

	/* Sums left unfolded belong to the old control's slots. */
	hwperf_set_catch_up(s);
	/* Time owed to the used counters is theirs before used changes. */
	hwperf_set_settle(s);
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!res[i].used || !s->has_ctl ||
		    !hwperf_same_event(&s->ctl.ev[i], &ctl->ev[i]))
			continue;
		kept |= 1u << i;
		if (s->ctl.ev[i].thresh != ctl->ev[i].thresh)
			rethresh |= 1u << i;
	}
	s->ctl = *ctl;
	memcpy(s->res, res, sizeof(s->res));
	s->used = 0;
	s->thresh_used = 0;
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (res[i].used) {
			s->used |= 1u << i;
			reach |= res[i].hwmask;
			nused++;
		}
		if (res[i].used && ctl->ev[i].thresh > 0)
			s->thresh_used |= 1u << i;
		if (!(kept & (1u << i)))
			vctr_reset(s, i);
		else if (rethresh & (1u << i))
			s->next_at[i] = s->c.count[i] + thresh_of(s, i);
	}
	s->crowded = nused > bits_count(reach);
	s->placed = 0;
	s->ctl_seq++;
	/* Never reused, unlike ctl_seq, which restarts with a new task's
	 * set: what the placement engine was last given is known by it. */
	s->ctl_id = ++installs;
	s->has_ctl = true;
}

void hwperf_set_fold(struct hwperf_set *s)
{
	uint64_t elapsed = s->pst.cycles_sum;
	uint32_t placed = s->placed;
	/* Only the counts on hardware and the running times of the placed
	 * counters move relative to anything else: time-enabled grows for
	 * every used counter alike, which no invariant can break.  The
	 * placed counters are exactly the slots' (hwperf_place keeps the two
	 * alike, hwperf_unload clears both) or none: only an install, while
	 * another CPU still holds the slots, clears placed alone, and whole
	 * (hwperf_set_install).  So one pass over the slots adds both, every
	 * slot's running time or none: no second pass over placed, and no
	 * test of each slot's bit (x86_64: 5 of a slot's 15 instructions). */
	uint64_t run = placed ? elapsed : 0;

	for (unsigned k = 0; k < s->pst.ctl.n; k++) {
		unsigned vi = s->slot_vctr[k];

		s->c.count[vi] += s->pst.ctr[k].sum;
		s->pst.ctr[k].sum = 0;
		s->c.running[vi] += run;
	}
	s->unchecked |= placed;
	s->fold_owed = false;   /* every sum is in c now */
	s->pst.cycles_sum = 0;
	s->since_place += elapsed;
	/* Every switch and tick folds: time-enabled, alike for every used
	 * counter, is owed once (settled at a read), and time-running goes
	 * to the counters on hardware only (above). */
	s->enabled_owed += elapsed;
}

/*
 * The fold a switch-out left for later (hwperf_set_fold_later): the
 * sums belong to the set's last placement, whose slots (place_n, their
 * slot_vctr) and placed counters (place_mask) still stand: only
 * hwperf_place_full and hwperf_set_install change them, and both catch
 * up first.  A set off the PMU has no slots and nothing placed
 * (unloaded_books), so the fold sees that placement's for the moment; a
 * set loaded again since has them already.  Out of line: the rare case
 * of every reader.
 */
void hwperf_set_fold_owed(struct hwperf_set *s)
{
	unsigned n = s->pst.ctl.n;
	uint32_t placed = s->placed;

	s->pst.ctl.n = s->place_n;
	s->placed = s->place_mask;
	hwperf_set_fold(s);
	s->pst.ctl.n = n;
	s->placed = placed;
}

/*
 * A full set whose whole time-enabled is owed (enabled_all_owed): every
 * counter's enabled is the one owed value, stored, never loaded or added
 * (a 64-bit add is a carry sequence on a 32-bit machine).  Nothing is
 * settled, so the flag survives the read.  The copy is the environment's
 * (the arch's fastest: a 32-bit MIPS moves eight bytes an instruction
 * through its FPU, where the integer registers move four).
 */
static void export_full_owed(const struct hwperf_set *s, struct hwperf_counts *out)
{
	hwperf_env_counts_out(out, &s->c, s->enabled_owed);
}

/* Every read leaves through here, so every read is checked: the
 * counters changed since the last check (invariant.c).  The set keeps
 * the ABI's layout, so the counts leave in one copy: an assignment,
 * which the compiler may do better than a call (x86-64: one
 * `rep movsq`, 96 instructions under icount against memcpy's 275). */
void hwperf_set_export(struct hwperf_set *s, struct hwperf_counts *out)
{
	hwperf_set_catch_up(s);
	hwperf_inv_check_set(s, s == &hwperf_core.sys);
	if (s->used == ~0u && s->enabled_all_owed) {
		export_full_owed(s, out);
		return;
	}
	/* A 64-bit add is a carry sequence on a 32-bit machine: there the
	 * owed time goes in on the way out, not in place and then copied. */
	if (sizeof(uintptr_t) < sizeof(uint64_t)) {
		hwperf_set_export_owing(s, out);
		return;
	}
	hwperf_set_settle(s);
	*out = s->c;
}

void hwperf_set_export_owing(const struct hwperf_set *s, struct hwperf_counts *out)
{
	uint64_t owed = s->enabled_owed;
	const uint64_t *e = s->c.enabled;
	unsigned i = 0, n;

	/* A full set, the usual shape of a 32-counter read: one pass moves
	 * all three arrays, four counters a turn, so the three share one
	 * loop's overhead and no call (Malta: memcpy's two 256-byte copies,
	 * 374 instructions, and this function's 535 with its own loop for
	 * enabled became 766 in all). */
	if (s->used == ~0u) {
		for (; i < HWPERF_NVCTR; i += 4) {
			out->count[i] = s->c.count[i];
			out->count[i + 1] = s->c.count[i + 1];
			out->count[i + 2] = s->c.count[i + 2];
			out->count[i + 3] = s->c.count[i + 3];
			out->enabled[i] = e[i] + owed;
			out->enabled[i + 1] = e[i + 1] + owed;
			out->enabled[i + 2] = e[i + 2] + owed;
			out->enabled[i + 3] = e[i + 3] + owed;
			out->running[i] = s->c.running[i];
			out->running[i + 1] = s->c.running[i + 1];
			out->running[i + 2] = s->c.running[i + 2];
			out->running[i + 3] = s->c.running[i + 3];
		}
		return;
	}
	memcpy(out->count, s->c.count, sizeof(out->count));
	memcpy(out->running, s->c.running, sizeof(out->running));
	if (s->used & (s->used + 1u)) {
		for (; i < HWPERF_NVCTR; i++)
			out->enabled[i] = hwperf_set_enabled(s, i);
		return;
	}
	/* Counters 0..n-1, the usual shape: owed to those, four a turn
	 * for a full set, and the rest copied. */
	n = s->used == ~0u ? HWPERF_NVCTR : (unsigned)__builtin_ctz(~s->used);
	for (; n == HWPERF_NVCTR && i < HWPERF_NVCTR; i += 4) {
		out->enabled[i] = e[i] + owed;
		out->enabled[i + 1] = e[i + 1] + owed;
		out->enabled[i + 2] = e[i + 2] + owed;
		out->enabled[i + 3] = e[i + 3] + owed;
	}
	for (; i < n; i++)
		out->enabled[i] = e[i] + owed;
	for (; i < HWPERF_NVCTR; i++)
		out->enabled[i] = e[i];
}

/* A child's counts join the parent's; they are not the parent's events,
 * so the parent's next threshold moves along with them. */
void hwperf_set_add(struct hwperf_set *dst, const struct hwperf_set *src)
{
	hwperf_set_settle(dst);
	dst->enabled_all_owed = false;
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		dst->c.count[i] += src->c.count[i];
		dst->next_at[i] += src->c.count[i];
		dst->c.enabled[i] += hwperf_set_enabled(src, i);
		dst->c.running[i] += src->c.running[i];
	}
	dst->rot_ctl_id = 0;    /* the rotor's order is time-running's */
	dst->unchecked = ~0u;
}
