/* test_series.c — the batch series (timing/series.c): stalls, the split of
 * the operations into batches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/series.h"

static void test_stalls_counted(void **state)
{
	struct series s;
	double slowest, median;
	(void)state;
	assert_int_equal(series_init(&s, 1000, 5), 0);
	/* 200 ops per batch: 100 ns/op is 20 us a batch; one batch holds a 10 ms sleep */
	series_add(&s, 0, 20000);
	series_add(&s, 1, 21000);
	series_add(&s, 2, 10020000);
	series_add(&s, 3, 19000);
	series_add(&s, 4, 20500);
	assert_int_equal(batches_stalls(&s, &slowest, &median), 1);
	assert_true(slowest > 50000.0);
	assert_true(median > 99.0 && median < 103.0);
	series_free(&s);
}

static void test_no_stall_when_uniform(void **state)
{
	struct series s;
	double slowest, median;
	(void)state;
	assert_int_equal(series_init(&s, 10, 10), 0);
	for (uint32_t i = 0; i < 10; i++)
		series_add(&s, i, 900000 + i * 10000); /* within 1 ms of each other */
	assert_int_equal(batches_stalls(&s, &slowest, &median), 0);
	assert_true(slowest == 990000.0);
	series_free(&s);
}

static void test_series_split_keeps_total(void **state)
{
	struct series s;
	uint64_t sum = 0;
	(void)state;
	assert_int_equal(series_init(&s, 103, 10), 0);
	for (uint32_t i = 0; i < 10; i++)
		sum += s.ops[i];
	assert_int_equal(sum, 103);
	assert_int_equal(s.ops[0], 11);
	assert_int_equal(s.ops[9], 10);
	series_free(&s);
	assert_int_equal(series_init(&s, 5, 10), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stalls_counted),
		cmocka_unit_test(test_no_stall_when_uniform),
		cmocka_unit_test(test_series_split_keeps_total),
	};
	return cmocka_run_group_tests_name("series", tests, NULL, NULL);
}
