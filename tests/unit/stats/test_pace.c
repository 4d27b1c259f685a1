/* Unit tests of stats/pace.c: the pace a paired child sizes its blocks
 * from. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/pace.h"

/* A warm-up of 10 groups of 1024 calls at 500 ns a call, one of them
 * holding a 10 ms wake-up of the async worker: the pace is the loop's
 * 500 ns, where the mean over every call would be about 1.5 us. */
static void test_a_wake_up_is_not_the_pace(void **state)
{
	struct pace p;

	(void)state;
	pace_init(&p);
	for (int i = 0; i < 10; i++)
		pace_add(&p, 1024, 1024 * 500 + (i == 0 ? 10000000 : 0));
	assert_float_equal(pace_fastest(&p), 500.0, 1e-9);
	assert_true((double)p.ns / (double)p.calls > 1400.0);
}

/* A loop slowed in all but one group of its warm-up (the sanitizers beside
 * CI's other streams: the first quartile 5x the blocks' pace): the pace is
 * the one group that ran alone, wherever it lies. */
static void test_the_fastest_group_sets_it(void **state)
{
	struct pace p;
	const uint64_t ns[] = { 900, 910, 890, 905, 915, 920, 100, 930, 940 };

	(void)state;
	pace_init(&p);
	for (int i = 0; i < 9; i++)
		pace_add(&p, 1, ns[i]);
	assert_float_equal(pace_fastest(&p), 100.0, 1e-9);
	assert_true(pace_mean(&p) > 800.0);
}

/* One group: its pace, which is the mean; none: 0; an empty group counts
 * for nothing. */
static void test_one_group_or_none(void **state)
{
	struct pace p;

	(void)state;
	pace_init(&p);
	assert_float_equal(pace_fastest(&p), 0.0, 0);
	pace_add(&p, 0, 12345);
	assert_float_equal(pace_fastest(&p), 0.0, 0);
	assert_float_equal(pace_mean(&p), 0.0, 0);
	pace_add(&p, 4000, 1000000);
	assert_float_equal(pace_fastest(&p), 250.0, 1e-9);
	assert_float_equal(pace_mean(&p), 250.0, 1e-9);
}

/* Groups past PACE_MAX_GROUPS count in the mean only; the fastest is one
 * of the first PACE_MAX_GROUPS. */
static void test_groups_past_the_cap(void **state)
{
	struct pace p;

	(void)state;
	pace_init(&p);
	for (int i = 0; i < PACE_MAX_GROUPS; i++)
		pace_add(&p, 10, 10 * 200);
	for (int i = 0; i < 3 * PACE_MAX_GROUPS; i++)
		pace_add(&p, 10, 10 * 50);
	assert_int_equal(p.n, PACE_MAX_GROUPS);
	assert_int_equal(p.calls, 40 * PACE_MAX_GROUPS);
	assert_float_equal(pace_fastest(&p), 200.0, 1e-9);
	assert_float_equal(pace_mean(&p), (200.0 + 3 * 50.0) / 4, 1e-9);
}

/* The group for a loop of n calls: at least PACE_MIN_GROUP, and at most
 * PACE_MAX_GROUPS groups for n (the last one may be short). */
static void test_the_group_size(void **state)
{
	const uint64_t n[] = {
		0,	  1,	     10000, PACE_MIN_GROUP * PACE_MAX_GROUPS, PACE_MIN_GROUP * PACE_MAX_GROUPS + 1,
		10000000, UINT64_MAX
	};

	(void)state;
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		uint64_t g = pace_group(n[i]);
		assert_true(g >= PACE_MIN_GROUP);
		assert_true(n[i] / g + (n[i] % g != 0) <= PACE_MAX_GROUPS);
	}
	assert_int_equal(pace_group(10000), PACE_MIN_GROUP);
	assert_int_equal(pace_group(PACE_MIN_GROUP * PACE_MAX_GROUPS + 1), PACE_MIN_GROUP + 1);
}

/* The pace blocks are sized at: the mean while the warm-up ran at one
 * pace, or with a wake-up that a quarter of a block's time absorbs; four
 * times the steady pace when a stall dominates the warm-up (the C
 * plugin's 30 ms sleep in 0.23 ms of calls: a block of 3 us at the mean);
 * never faster than the mean. */
static void test_the_pace_for_blocks(void **state)
{
	struct pace p;

	(void)state;
	pace_init(&p);
	assert_float_equal(pace_for_blocks(&p), 0.0, 0);
	for (int i = 0; i < 10; i++)
		pace_add(&p, 1000, 1000 * 500);
	assert_float_equal(pace_for_blocks(&p), 500.0, 1e-9);
	pace_init(&p);
	for (int i = 0; i < 10; i++)
		pace_add(&p, 1024, 1024 * 500 + (i == 0 ? 1000000 : 0));
	assert_float_equal(pace_for_blocks(&p), (double)p.ns / (double)p.calls, 1e-9);
	pace_init(&p);
	for (int i = 0; i < 10; i++)
		pace_add(&p, 1024, 1024 * 23 + (i == 4 ? 30000000 : 0));
	assert_float_equal(pace_for_blocks(&p), 4 * 23.0, 1e-9);
	assert_true((double)p.ns / (double)p.calls > 2900);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_wake_up_is_not_the_pace),
		cmocka_unit_test(test_the_fastest_group_sets_it),
		cmocka_unit_test(test_one_group_or_none),
		cmocka_unit_test(test_groups_past_the_cap),
		cmocka_unit_test(test_the_group_size),
		cmocka_unit_test(test_the_pace_for_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
