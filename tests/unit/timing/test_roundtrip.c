/* The cache-line round trip: clean batches are kept, a batch in which a
 * thread lost its CPU is not (timing/roundtrip.h). */
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "base/clock.h"
#include "timing/roundtrip.h"

/* The allowed CPUs, the first two in a and b; their number. */
static int allowed(int *a, int *b)
{
	cpu_set_t set;
	int n = 0;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	*a = *b = -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set)) {
			if (n == 0)
				*a = c;
			else if (n == 1)
				*b = c;
			n++;
		}
	return n;
}

/* Two CPUs: every try is kept or dropped, and the kept batches make a
 * figure; on a loaded machine the step may fall short, each try then
 * dropped as off CPU. */
static void test_two_cpus(void **state)
{
	struct series s;
	struct rt_result r;
	char err[256] = "";
	int a, b;
	(void)state;

	if (allowed(&a, &b) < 2)
		skip();
	assert_int_equal(series_init(&s, 2000, 4), 0);
	assert_int_equal(rt_measure(&s, 100, a, b, &r, err, sizeof(err)), 0);
	assert_true(r.tries >= r.kept && r.dropped == r.tries - r.kept);
	if (r.kept == s.nbatches) {
		double m = series_median_per_op(&s);
		assert_true(isfinite(m) && m > 0);
	} else {
		assert_true(r.tries >= FLOOR_TRIES * 4);
	}
	series_free(&s);
}

/* Both threads on one CPU: each round trip waits for the other's time
 * slice, so no batch is clean; after its tries and its whole budget the
 * measurement gives up, every try dropped. */
static void test_one_cpu_is_no_figure(void **state)
{
	struct series s;
	struct rt_result r;
	char err[256] = "";
	int a, b;
	(void)state;

	allowed(&a, &b);
	assert_int_equal(series_init(&s, 30, 3), 0);
	uint64_t t0 = now_ns();
	assert_int_equal(rt_measure(&s, 0, a, a, &r, err, sizeof(err)), 0);
	assert_true(now_ns() - t0 >= FLOOR_BUDGET_NS);
	assert_int_equal(r.kept, 0);
	assert_true(r.tries >= FLOOR_TRIES * 3);
	assert_int_equal(r.dropped, r.tries);
	series_free(&s);
}

/* A CPU that cannot be had: -1 with the message, no thread left waiting. */
static void test_unpinnable_cpu(void **state)
{
	struct series s;
	struct rt_result r;
	char err[256] = "";
	int a, b;
	(void)state;

	allowed(&a, &b);
	assert_int_equal(series_init(&s, 30, 3), 0);
	assert_int_equal(rt_measure(&s, 10, a, 4000, &r, err, sizeof(err)), -1);
	char want[80];
	snprintf(want, sizeof(want), "cache-line round trip: cannot pin to CPUs %d and 4000", a);
	assert_string_equal(err, want);
	series_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_cpus),
		cmocka_unit_test(test_one_cpu_is_no_figure),
		cmocka_unit_test(test_unpinnable_cpu),
	};
	return cmocka_run_group_tests_name("roundtrip", tests, NULL, NULL);
}
