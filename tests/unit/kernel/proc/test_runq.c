/* Host tests of kernel/proc/runq.c: priority order, round robin, the tick rule. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "proc/runq.h"

#define NODES 6

struct item {
	struct list_node node;
	int id;
};

static struct item items[NODES];

static int pop_id(struct runq *rq)
{
	struct list_node *n = runq_pop(rq);
	return n ? container_of(n, struct item, node)->id : -1;
}

static int setup(void **state)
{
	(void)state;
	for (int i = 0; i < NODES; i++) {
		items[i].id = i;
		list_init(&items[i].node);
	}
	return 0;
}

static void test_empty(void **state)
{
	(void)state;
	struct runq rq;

	runq_init(&rq);
	assert_null(runq_pop(&rq));
	assert_int_equal(runq_best_prio(&rq), PRIO_LEVELS);
	assert_int_equal(rq.count, 0);
}

static void test_most_urgent_first(void **state)
{
	(void)state;
	struct runq rq;

	runq_init(&rq);
	runq_push(&rq, &items[0].node, PRIO_LOW);
	runq_push(&rq, &items[1].node, PRIO_NORMAL);
	runq_push(&rq, &items[2].node, PRIO_HIGH);
	assert_int_equal(runq_best_prio(&rq), PRIO_HIGH);
	assert_int_equal(pop_id(&rq), 2);
	assert_int_equal(pop_id(&rq), 1);
	assert_int_equal(pop_id(&rq), 0);
	assert_int_equal(pop_id(&rq), -1);
	assert_int_equal(rq.count, 0);
	assert_int_equal(rq.nonempty, 0);
}

static void test_fifo_within_level(void **state)
{
	(void)state;
	struct runq rq;

	runq_init(&rq);
	for (int i = 0; i < NODES; i++)
		runq_push(&rq, &items[i].node, PRIO_NORMAL);
	for (int i = 0; i < NODES; i++)
		assert_int_equal(pop_id(&rq), i);
}

/* Run the head, put it back at the tail: everyone gets turns in order. */
static void test_round_robin(void **state)
{
	(void)state;
	struct runq rq;
	const int tasks = 3, rounds = 4;

	runq_init(&rq);
	for (int i = 0; i < tasks; i++)
		runq_push(&rq, &items[i].node, PRIO_NORMAL);
	for (int turn = 0; turn < tasks * rounds; turn++) {
		int id = pop_id(&rq);
		assert_int_equal(id, turn % tasks);
		runq_push(&rq, &items[id].node, PRIO_NORMAL);
	}
	assert_int_equal(rq.count, tasks);
}

static void test_remove_middle(void **state)
{
	(void)state;
	struct runq rq;

	runq_init(&rq);
	runq_push(&rq, &items[0].node, PRIO_NORMAL);
	runq_push(&rq, &items[1].node, PRIO_NORMAL);
	runq_push(&rq, &items[2].node, PRIO_LOW);
	runq_remove(&rq, &items[1].node, PRIO_NORMAL);
	assert_false(list_linked(&items[1].node));
	assert_int_equal(rq.count, 2);
	runq_remove(&rq, &items[0].node, PRIO_NORMAL);
	/* The level emptied: its bit must go, or pop would find nothing. */
	assert_int_equal(runq_best_prio(&rq), PRIO_LOW);
	assert_int_equal(pop_id(&rq), 2);
}

static void test_prio_valid(void **state)
{
	(void)state;
	assert_true(runq_prio_valid(PRIO_HIGH));
	assert_true(runq_prio_valid(PRIO_LOW));
	assert_false(runq_prio_valid(-1));
	assert_false(runq_prio_valid(PRIO_LEVELS));
}

static void test_tick_rule(void **state)
{
	(void)state;
	struct runq rq;
	const unsigned some_left = 1, used_up = 0;

	runq_init(&rq);
	/* Alone: never yields, slice or not. */
	assert_false(runq_must_yield(&rq, PRIO_NORMAL, used_up));
	/* A less urgent task waits: keep running. */
	runq_push(&rq, &items[0].node, PRIO_LOW);
	assert_false(runq_must_yield(&rq, PRIO_NORMAL, used_up));
	/* Same level waits: yield only when the slice is used up. */
	runq_push(&rq, &items[1].node, PRIO_NORMAL);
	assert_false(runq_must_yield(&rq, PRIO_NORMAL, some_left));
	assert_true(runq_must_yield(&rq, PRIO_NORMAL, used_up));
	/* A more urgent one waits: yield at once. */
	runq_push(&rq, &items[2].node, PRIO_HIGH);
	assert_true(runq_must_yield(&rq, PRIO_NORMAL, some_left));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_empty, setup),
		cmocka_unit_test_setup(test_most_urgent_first, setup),
		cmocka_unit_test_setup(test_fifo_within_level, setup),
		cmocka_unit_test_setup(test_round_robin, setup),
		cmocka_unit_test_setup(test_remove_middle, setup),
		cmocka_unit_test_setup(test_prio_valid, setup),
		cmocka_unit_test_setup(test_tick_rule, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
