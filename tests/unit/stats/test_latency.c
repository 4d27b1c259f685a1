/* Unit tests of the exact latency percentiles (stats/latency.c) on known
 * values. Nothing here reads a real clock. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/latency.h"

/* 1..100: the nearest-rank percentile q is the value ceil(100 q). */
static void test_percentiles_exact(void **state)
{
	uint64_t x[100];
	struct latency_summary s;
	(void)state;
	for (int i = 0; i < 100; i++)
		x[i] = (uint64_t)(100 - i); /* unsorted on purpose */
	latency_summarize(x, 100, &s);
	assert_int_equal(s.n, 100);
	assert_true(s.p50 == 50.0);
	assert_true(s.p90 == 90.0);
	assert_true(s.p99 == 99.0);
	assert_true(s.p999 == 100.0);
	assert_true(s.max == 100.0);
	assert_true(s.mean == 50.5);
	assert_int_equal(s.over_1ms, 0);
}

/* 1000 values, 0..999 ms: p99.9 is the 999th, 3 exceed 1 ms... and a
 * single sample is every percentile. */
static void test_percentiles_thousand(void **state)
{
	uint64_t *x = malloc(1000 * sizeof(*x)), one = 7;
	struct latency_summary s;
	(void)state;
	for (int i = 0; i < 1000; i++)
		x[i] = (uint64_t)i * 1000; /* 0 .. 999 us */
	x[0] = 5000000;			   /* one at 5 ms */
	x[1] = 1000001;			   /* one just over 1 ms */
	x[2] = 1000000;			   /* exactly 1 ms: not over */
	latency_summarize(x, 1000, &s);
	assert_int_equal(s.over_1ms, 2);
	assert_true(s.max == 5000000.0);
	assert_true(s.p999 == 1000001.0);
	assert_true(latency_percentile_sorted(x, 1000, 0.5) == 502000.0);
	latency_summarize(&one, 1, &s);
	assert_true(s.p50 == 7.0 && s.p999 == 7.0 && s.max == 7.0 && s.mean == 7.0);
	latency_summarize(NULL, 0, &s);
	assert_true(isnan(s.p50) && isnan(s.max) && isnan(s.mean));
	assert_true(isnan(latency_percentile_sorted(x, 1000, 0.0)));
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles_exact),
		cmocka_unit_test(test_percentiles_thousand),
	};
	return cmocka_run_group_tests_name("latency", tests, NULL, NULL);
}
