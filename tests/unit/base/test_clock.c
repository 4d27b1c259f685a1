/* test_clock.c — a thread's CPU clock against wall time: a thread that ran
 * through a window is on its CPU, one that ran less than the window by
 * more than the slack lost it, and a clock that cannot be read counts as
 * a thread that did not run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/clock.h"

static void test_off_cpu(void **state)
{
	(void)state;
	/* ran the whole window, or more (the reads themselves) */
	assert_false(off_cpu_ns(1000000, 5000, 5000 + 1000000, 50000));
	assert_false(off_cpu_ns(1000000, 5000, 5000 + 1002000, 50000));
	/* short of it by the slack, and by more than the slack */
	assert_false(off_cpu_ns(1000000, 5000, 5000 + 950000, 50000));
	assert_true(off_cpu_ns(1000000, 5000, 5000 + 949999, 50000));
	/* a clock that could not be read, at either end, or going back */
	assert_true(off_cpu_ns(1000000, 0, 1005000, 50000));
	assert_true(off_cpu_ns(1000000, 5000, 0, 50000));
	assert_true(off_cpu_ns(1000000, 5000, 4000, 50000));
}

static void test_cpu_clock(void **state)
{
	(void)state;
	uint64_t a = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	volatile uint64_t x = 0;
	for (int i = 0; i < 1000000; i++)
		x += (uint64_t)i;
	assert_true(a > 0 && clock_ns(CLOCK_THREAD_CPUTIME_ID) > a);
	assert_int_equal(clock_ns((clockid_t)-1), 0); /* no such clock */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off_cpu),
		cmocka_unit_test(test_cpu_clock),
	};
	return cmocka_run_group_tests_name("clock", tests, NULL, NULL);
}
