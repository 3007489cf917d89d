/*
 * spinlock.c - test-and-test-and-set spinlocks, the lockdebug checks and
 * giant (see spinlock.h for the design and the lock order).
 */
#include "bootargs.h"
#include "spinlock.h"

BOOTARG(lockdebug, "lockdebug=1: panic, naming the lock, on a lock taken twice on one "
	"CPU or held across a switch or sleep");

#define HELD_NAMED 8            /* per CPU, the innermost named in a panic */

bool spin_debug_;
/* lockdebug: how many spinlocks each CPU holds, and the innermost ones. */
static unsigned held[CPU_MAX];
static const struct spinlock *held_stack[CPU_MAX][HELD_NAMED];

void spin_debug_init(void)
{
	spin_debug_ = bootarg_u64("lockdebug", 0, 0, 1) != 0;
}

bool spin_debug_on(void)
{
	return spin_debug_;
}

void spin_lock_debug(struct spinlock *l, uintptr_t site)
{
	unsigned me = arch_cpu_id();

	if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == me + 1)
		panic("lockdebug: lock %s taken twice on cpu %u: first at %#lx, again at %#lx",
		      l->name, me, (unsigned long)l->site, (unsigned long)site);
	while (__atomic_exchange_n(&l->locked, 1u, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			arch_lock_relax(false);
	}
	l->owner = me + 1;
	l->site = site;
	if (held[me] < HELD_NAMED)
		held_stack[me][held[me]] = l;
	held[me]++;
}

void spin_unlock_debug(struct spinlock *l)
{
	if (!l->owner)
		return;
	unsigned me = l->owner - 1;

	l->owner = 0;
	if (held[me] == 0)
		return;
	held[me]--;
	/* Usually the innermost; locks may be let go out of order. */
	for (unsigned i = held[me] < HELD_NAMED ? held[me] : HELD_NAMED - 1; ; i--) {
		if (held_stack[me][i] == l) {
			for (unsigned j = i; j + 1 < HELD_NAMED; j++)
				held_stack[me][j] = held_stack[me][j + 1];
			break;
		}
		if (i == 0)
			break;
	}
}

/* Without lockdebug: with one CPU running, a lock found taken can only
 * be this CPU's own, which would spin forever; say so instead. */
void spin_wait(struct spinlock *l)
{
	if (arch_cpus_online() == 1)
		panic("spinlock %s: taken twice on one CPU", l->name);
	while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
		arch_lock_relax(false);
}

bool spin_is_locked(const struct spinlock *l)
{
	return __atomic_load_n(&l->locked, __ATOMIC_RELAXED) != 0;
}

void spin_assert_none_held_slow(const char *what, int pid, const char *name)
{
	unsigned me = arch_cpu_id();

	if (held[me]) {
		unsigned top = held[me] <= HELD_NAMED ? held[me] - 1 : HELD_NAMED - 1;
		const struct spinlock *l = held_stack[me][top];
		panic("lockdebug: lock %s held across %s by pid %d (%s) on cpu %u, taken at %#lx",
		      l->name, what, pid, name ? name : "?", me, (unsigned long)l->site);
	}
}

/* ---- giant ---------------------------------------------------------------- */

static struct spinlock giant = SPINLOCK_INIT("giant");
bool giant_on_;
static unsigned giant_held[CPU_MAX];

void giant_enable(void)
{
	giant_on_ = true;
}

/* Returns holding giant with interrupts off; f is the caller's state,
 * restored between tries so that a tick or an IPI call waiting here is
 * served, not held up by the holder.  The caller may have moved CPU. */
static void giant_take(irqflags_t f)
{
	while (__atomic_exchange_n(&giant.locked, 1u, __ATOMIC_ACQUIRE)) {
		arch_irq_restore(f);
		while (__atomic_load_n(&giant.locked, __ATOMIC_RELAXED))
			arch_lock_relax(true);
		arch_irq_save();
	}
	giant.owner = arch_cpu_id() + 1;
}

void giant_lock_slow(void)
{
	irqflags_t f = arch_irq_save();

	if (giant_held[arch_cpu_id()] == 0) {
		/* A CPU takes giant holding no spinlock: giant is first. */
		spin_assert_none_held("taking giant", -1, NULL);
		giant_take(f);
	}
	giant_held[arch_cpu_id()]++;
	arch_irq_restore(f);
}

void giant_unlock_slow(void)
{
	irqflags_t f = arch_irq_save();
	unsigned me = arch_cpu_id();

	if (giant_held[me] == 0)
		panic("giant: released on cpu %u, which does not hold it", me);
	if (--giant_held[me] == 0) {
		giant.owner = 0;
		__atomic_store_n(&giant.locked, 0u, __ATOMIC_RELEASE);
	}
	arch_irq_restore(f);
}

unsigned giant_release_all_slow(void)
{
	unsigned me = arch_cpu_id();
	unsigned depth = giant_held[me];

	if (depth) {
		giant_held[me] = 0;
		giant.owner = 0;
		__atomic_store_n(&giant.locked, 0u, __ATOMIC_RELEASE);
	}
	return depth;
}

void giant_reacquire_slow(unsigned depth)
{
	/* In the switch, interrupts off: IPI calls are still answered. */
	giant_take(arch_irq_save());
	giant_held[arch_cpu_id()] = depth;
}

/* One attempt, never spins (a CPU that must keep serving cross-calls while
 * it waits: kernel/hwperf/lock.c); lockdebug records it like a take. */
/* spin_trylock's books under lockdebug, once the lock is taken. */
void spin_trylock_debug(struct spinlock *l)
{
	unsigned me = arch_cpu_id();

	l->owner = me + 1;
	l->site = (uintptr_t)__builtin_return_address(0);
	if (held[me] < HELD_NAMED)
		held_stack[me][held[me]] = l;
	held[me]++;
}
