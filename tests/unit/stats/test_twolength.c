/* Unit tests of stats/twolength.c: the two-length difference per operation
 * and the spread of several pairs, on synthetic counts. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/twolength.h"

/* A run of n operations costing fixed + n * per: what the longer run does
 * more, over its extra operations, is per; the fixed part cancels. */
static void test_fixed_part_cancels(void **state)
{
	const uint64_t fixed = 97000000, per = 1077, n = 100000;

	(void)state;
	assert_true(twolength_per_op(fixed + n * per, fixed + 2 * n * per, n) == 1077.0);
	/* a fractional cost: 3 calls every 4 operations */
	assert_true(twolength_per_op(500 + 3 * n / 4, 500 + 3 * 2 * n / 4, n) == 0.75);
	/* totals past 2^53 keep their difference exact */
	assert_true(twolength_per_op(UINT64_C(9007199254740993), UINT64_C(9007199254740993) + 3, 3) == 1.0);
}

/* A count that does not grow with the length differences to noise around
 * 0, negative included: never clamped, never taken as its absolute value. */
static void test_negative_difference(void **state)
{
	(void)state;
	assert_true(twolength_per_op(580, 573, 100000) == -7.0 / 100000);
	assert_true(twolength_per_op(573, 573, 100000) == 0.0);
}

/* No extra operation: no figure. */
static void test_no_ops_is_nan(void **state)
{
	(void)state;
	assert_true(isnan(twolength_per_op(1, 2, 0)));
}

/* The figure of several pairs: their median, with their smallest and
 * largest; the input is left as it was. */
static void test_spread_of_pairs(void **state)
{
	double x[] = { 1077.9, 1076.8, 1077.2 }, med, lo, hi;

	(void)state;
	twolength_spread(x, 3, &med, &lo, &hi);
	assert_true(med == 1077.2);
	assert_true(lo == 1076.8);
	assert_true(hi == 1077.9);
	assert_true(x[0] == 1077.9 && x[1] == 1076.8 && x[2] == 1077.2);
	/* an even count: the mean of the two middle ones */
	double y[] = { 4, 1, 3, 2 };
	twolength_spread(y, 4, &med, &lo, &hi);
	assert_true(med == 2.5 && lo == 1 && hi == 4);
	/* one pair: no spread */
	twolength_spread(y, 1, &med, &lo, &hi);
	assert_true(med == 4 && lo == 4 && hi == 4);
	/* none: nothing defined */
	twolength_spread(y, 0, &med, &lo, &hi);
	assert_true(isnan(med) && isnan(lo) && isnan(hi));
}

/* The range as a percent of the median: 1076.8 .. 1077.9 around 1077.2 is
 * about 0.1%; a median of 0 has no relative range. */
static void test_range_pct(void **state)
{
	(void)state;
	assert_true(fabs(twolength_range_pct(1077.2, 1076.8, 1077.9) - 100.0 * 1.1 / 1077.2) < 1e-9);
	assert_true(fabs(twolength_range_pct(-2, -3, -1) - 100.0) < 1e-12);
	assert_true(isnan(twolength_range_pct(0, -1, 1)));
	assert_true(isnan(twolength_range_pct(NAN, 1, 2)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_part_cancels), cmocka_unit_test(test_negative_difference),
		cmocka_unit_test(test_no_ops_is_nan),	   cmocka_unit_test(test_spread_of_pairs),
		cmocka_unit_test(test_range_pct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
