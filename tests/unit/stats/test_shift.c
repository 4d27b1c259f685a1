/* Unit tests of stats/shift.c: the shift of two samples, its k-th pairwise
 * difference and its interval (compare_change's choice between it and the
 * bootstrap is tested in test_change.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/shift.h"
#include "stats/stats.h"

/* The k-th pairwise difference, against brute force on small samples with
 * ties. */
static void test_shift_kth_brute_force(void **state)
{
	(void)state;
	double b[] = { 1, 2, 2, 5, 9 }, c[] = { 0, 2, 3, 3, 7, 8 }, d[30];
	size_t k = 0;
	for (size_t i = 0; i < 5; i++)
		for (size_t j = 0; j < 6; j++)
			d[k++] = c[j] - b[i];
	stats_sort(d, 30);
	for (size_t r = 1; r <= 30; r++)
		assert_true(shift_kth_difference(b, 5, c, 6, (double)r) == d[r - 1]);
	double lo, hi;
	assert_int_equal(shift_interval(b, 1, c, 1, SHIFT_Z95, &lo, &hi), -1); /* too few */
}

/* The interval of a clear shift holds it, and is ordered. */
static void test_shift_interval(void **state)
{
	double b[40], c[40], lo, hi;

	(void)state;
	for (int i = 0; i < 40; i++) {
		b[i] = 100.0 + (double)(i % 7);
		c[i] = 110.0 + (double)(i % 5);
	}
	assert_int_equal(shift_interval(b, 40, c, 40, SHIFT_Z95, &lo, &hi), 0);
	assert_true(lo <= hi);
	assert_true(lo > 0 && hi < 20);
	assert_true(lo <= shift_kth_difference(b, 40, c, 40, 800.0) && shift_kth_difference(b, 40, c, 40, 800.0) <= hi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shift_kth_brute_force),
		cmocka_unit_test(test_shift_interval),
	};
	return cmocka_run_group_tests_name("shift", tests, NULL, NULL);
}
