/* Unit tests of stats/steady.c: the steady-state rule that ends a paired
 * block's lead-in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/steady.h"

/* Feeds groups; the index of the group that made it steady, or -1. */
static int steady_at(const uint64_t *ns, int n)
{
	struct steady s;

	steady_init(&s);
	for (int i = 0; i < n; i++)
		if (steady_add(&s, ns[i]))
			return i;
	return -1;
}

/* A loop that repeats: steady at its STEADY_RUN-th group, not before. */
static void test_steady_from_the_start(void **state)
{
	const uint64_t ns[] = { 1000, 1010, 990, 1005, 1000 };

	(void)state;
	assert_int_equal(steady_at(ns, 5), STEADY_RUN - 1);
}

/* An async worker waking: one group of milliseconds, then the loop's
 * pace; steady only once the slow group has left the last STEADY_RUN. */
static void test_a_slow_first_group_delays_it(void **state)
{
	const uint64_t ns[] = { 5000000, 3200, 3300, 3250, 3210, 3300 };

	(void)state;
	assert_int_equal(steady_at(ns, 6), STEADY_RUN);
}

/* The band's edge: the slowest 1 + STEADY_BAND times the fastest is
 * steady, a little more is not. */
static void test_the_band(void **state)
{
	uint64_t in[STEADY_RUN], out[STEADY_RUN];

	(void)state;
	for (int i = 0; i < STEADY_RUN; i++)
		in[i] = out[i] = 1000;
	in[1] = (uint64_t)(1000 * (1.0 + STEADY_BAND));
	out[1] = in[1] + 10;
	assert_int_equal(steady_at(in, STEADY_RUN), STEADY_RUN - 1);
	assert_int_equal(steady_at(out, STEADY_RUN), -1);
}

/* A loop that keeps drifting (warming up over many groups) is steady only
 * where STEADY_RUN groups in a row agree. */
static void test_a_drift_waits(void **state)
{
	const uint64_t ns[] = { 4000, 3000, 2200, 1700, 1400, 1200, 1100, 1050, 1040 };

	(void)state;
	/* 1400 1200 1100 1050: 1400 / 1050 = 1.33, out; 1200 .. 1040: 1.15, in */
	assert_int_equal(steady_at(ns, 9), 8);
}

/* A clock that did not move gives no steady state. */
static void test_zero_is_no_measurement(void **state)
{
	const uint64_t ns[] = { 0, 0, 0, 0, 0, 0 };

	(void)state;
	assert_int_equal(steady_at(ns, 6), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_from_the_start),
		cmocka_unit_test(test_a_slow_first_group_delays_it),
		cmocka_unit_test(test_the_band),
		cmocka_unit_test(test_a_drift_waits),
		cmocka_unit_test(test_zero_is_no_measurement),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
