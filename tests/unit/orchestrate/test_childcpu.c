/* tests/unit/orchestrate/test_childcpu.c — a child group's CPU time: the
 * /proc stat line read field by field past the command's last ')', and the
 * time of a live group growing while it works and not while it sleeps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "orchestrate/childcpu.h"

static void test_parse_stat_line(void **state)
{
	long pgrp = 0;
	uint64_t ticks = 0;

	(void)state;
	/* a name with a space and parentheses: the fields count from the last ')' */
	assert_int_equal(
		proc_stat_parse("4242 (a (b) c) R 1 777 777 0 -1 4194560 10 0 0 0 120 35 0 0 20 0 1 0", &pgrp, &ticks),
		0);
	assert_int_equal(pgrp, 777);
	assert_int_equal(ticks, 155);
	assert_int_equal(proc_stat_parse("4242 (bench) S 1 9 9 0 -1 0 0 0 0 0 7 0", &pgrp, &ticks), 0);
	assert_int_equal(pgrp, 9);
	assert_int_equal(ticks, 7);
	/* not a stat line: no ')', or too few fields */
	assert_int_equal(proc_stat_parse("4242 bench S 1 9 9", &pgrp, &ticks), -1);
	assert_int_equal(proc_stat_parse("4242 (bench) S 1 9", &pgrp, &ticks), -1);
	assert_int_equal(proc_stat_parse("", &pgrp, &ticks), -1);
}

static double process_cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* This process's group: its time grows by about the CPU this process
 * burns (ticks of 10 ms: within two of them), and a group nobody is in
 * reads -1. */
static void test_group_time_grows_with_work(void **state)
{
	int64_t a, b;
	double t0;
	volatile uint64_t x = 0;

	(void)state;
	a = child_group_cpu_ns(getpgrp());
	assert_true(a >= 0);
	t0 = process_cpu_s();
	while (process_cpu_s() - t0 < 0.3)
		x++;
	b = child_group_cpu_ns(getpgrp());
	assert_true(b - a >= 200000000); /* 0.3 s of this process's CPU, at least 0.2 s seen */
	assert_int_equal(child_group_cpu_ns(0), -1);
	assert_int_equal(child_group_cpu_ns(999999999), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat_line),
		cmocka_unit_test(test_group_time_grows_with_work),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
