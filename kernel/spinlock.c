/*
 * spinlock.c - interrupt-masking spinlocks (see spinlock.h).
 *
 * While only one CPU runs, finding a lock taken can only mean that this
 * CPU already holds it, which would spin forever; say so instead.
 */
#include "spinlock.h"
#include "proc/task.h"

void spin_lock(struct spinlock *l)
{
	while (__atomic_exchange_n(&l->locked, 1u, __ATOMIC_ACQUIRE)) {
		if (cpu_count() == 1)
			panic("spinlock %s: taken twice on one CPU", l->name);
	}
}

void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->locked, 0u, __ATOMIC_RELEASE);
}

irqflags_t spin_lock_irqsave(struct spinlock *l)
{
	irqflags_t f = arch_irq_save();

	spin_lock(l);
	return f;
}

void spin_unlock_irqrestore(struct spinlock *l, irqflags_t flags)
{
	spin_unlock(l);
	arch_irq_restore(flags);
}

bool spin_is_locked(const struct spinlock *l)
{
	return __atomic_load_n(&l->locked, __ATOMIC_RELAXED) != 0;
}

bool spin_trylock(struct spinlock *l)
{
	return __atomic_exchange_n(&l->locked, 1u, __ATOMIC_ACQUIRE) == 0;
}
