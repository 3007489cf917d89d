/*
 * list.h - intrusive doubly linked lists with a sentinel head.
 *
 * A node lives inside the object it links (a task is on a run queue and a
 * wait queue through two nodes of its own), so queueing never allocates
 * and never fails -- the scheduler cannot run out of memory.
 */
#ifndef TALLY_LIST_H
#define TALLY_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_node {
	struct list_node *prev, *next;
};

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

static inline void list_init(struct list_node *head)
{
	head->prev = head->next = head;
}

/* A node not on any list points at itself, so membership is testable. */
static inline bool list_linked(const struct list_node *n)
{
	return n->next != n && n->next != NULL;
}

static inline bool list_empty(const struct list_node *head)
{
	return head->next == head;
}

static inline void list_add_tail(struct list_node *head, struct list_node *n)
{
	n->prev = head->prev;
	n->next = head;
	head->prev->next = n;
	head->prev = n;
}

static inline void list_del(struct list_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	list_init(n);
}

static inline struct list_node *list_first(const struct list_node *head)
{
	return list_empty(head) ? NULL : head->next;
}

#define list_for_each_safe(pos, tmp, head) \
	for (pos = (head)->next, tmp = pos->next; pos != (head); \
	     pos = tmp, tmp = pos->next)

#endif
