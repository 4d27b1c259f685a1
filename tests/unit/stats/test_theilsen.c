/* Unit tests of stats/theilsen.c: the robust line and its slope's interval
 * on synthetic points with a known slope. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/theilsen.h"

/* Points exactly on a line: the line itself, an interval of one value. */
static void test_exact_line(void **state)
{
	double x[8], y[8];
	struct theilsen ts;

	(void)state;
	for (int i = 0; i < 8; i++) {
		x[i] = 90.0 + 10.0 * i;
		y[i] = 2.5 * x[i] + 30.0;
	}
	assert_int_equal(theilsen_fit(x, y, 8, 0.95, &ts), 0);
	assert_true(fabs(ts.slope - 2.5) < 1e-12);
	assert_true(fabs(ts.intercept - 30.0) < 1e-9);
	assert_true(fabs(ts.slope_lo - 2.5) < 1e-12 && fabs(ts.slope_hi - 2.5) < 1e-12);
	assert_int_equal(ts.npairs, 28);
}

/* A noisy line: the interval holds the true slope and is not a point; two
 * wild points move neither the slope nor the intercept much (least squares
 * would be pulled far off). */
static void test_noise_and_outliers(void **state)
{
	double x[12], y[12];
	struct theilsen ts;
	uint64_t s = 12345;

	(void)state;
	for (int i = 0; i < 12; i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		double noise = ((double)(s >> 11) / 9007199254740992.0 - 0.5) * 10.0; /* +-5 ns */
		x[i] = 100.0 + 15.0 * i;
		y[i] = 2.0 * x[i] + 40.0 + noise;
	}
	y[3] += 5000.0; /* two blocks that stalled */
	y[8] += 8000.0;
	assert_int_equal(theilsen_fit(x, y, 12, 0.95, &ts), 0);
	assert_true(ts.slope_lo < 2.0 && 2.0 < ts.slope_hi);
	assert_true(ts.slope_lo < ts.slope_hi);
	assert_true(fabs(ts.slope - 2.0) < 0.1);
	assert_true(fabs(ts.intercept - 40.0) < 15.0);
}

/* Too few points for a 95% interval: the slope, no interval. */
static void test_few_points(void **state)
{
	double x[] = { 1, 2, 3 }, y[] = { 2, 4, 6 };
	struct theilsen ts;

	(void)state;
	assert_int_equal(theilsen_fit(x, y, 3, 0.95, &ts), 0);
	assert_true(fabs(ts.slope - 2.0) < 1e-12);
	assert_true(isnan(ts.slope_lo) && isnan(ts.slope_hi));
}

/* No two distinct x: no line at all. */
static void test_one_x(void **state)
{
	double x[] = { 5, 5, 5, 5 }, y[] = { 1, 2, 3, 4 };
	struct theilsen ts;

	(void)state;
	assert_int_equal(theilsen_fit(x, y, 4, 0.95, &ts), -1);
	assert_true(isnan(ts.slope) && isnan(ts.intercept));
	assert_int_equal(theilsen_fit(x, y, 1, 0.95, &ts), -1);
	assert_int_equal(theilsen_fit(x, y, 0, 0.95, &ts), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_line),
		cmocka_unit_test(test_noise_and_outliers),
		cmocka_unit_test(test_few_points),
		cmocka_unit_test(test_one_x),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
