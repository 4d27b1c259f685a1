/* tests/unit/orchestrate/test_count.c — what --count takes and refuses
 * (count_refusal, orchestrate/count.h) now that a --compare or --anatomy
 * counts every cell: an async cell's instructions are left out there, not
 * refused; a single async launch, -p > 1 and --against are still refused.
 * And the lengths a count records (count_lengths), with the test hook that
 * sets fewer pairs. No tool runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/options.h"
#include "orchestrate/count.h"

static struct options counted(enum run_kind kind, uint32_t what)
{
	struct options o;

	options_defaults(&o);
	o.kind = kind;
	o.count = what;
	return o;
}

static void test_plans_are_counted(void **state)
{
	char buf[512];
	struct options o;

	(void)state;
	o = counted(RUN_COMPARE, COUNT_ALL);
	assert_null(count_refusal(&o, buf, sizeof(buf)));
	o = counted(RUN_ANATOMY, COUNT_INSTRUCTIONS);
	assert_null(count_refusal(&o, buf, sizeof(buf)));
	/* -a asks nothing of a plan's cells (each has its mode): not refused */
	o.async = 1;
	assert_null(count_refusal(&o, buf, sizeof(buf)));
	/* system calls of a plan with -p 2: counted */
	o = counted(RUN_COMPARE, COUNT_SYSCALLS);
	o.plugins = 2;
	assert_null(count_refusal(&o, buf, sizeof(buf)));
}

static void test_still_refused(void **state)
{
	char buf[512];
	const char *why;
	struct options o;

	(void)state;
	o = counted(RUN_SINGLE, COUNT_INSTRUCTIONS);
	o.async = 1;
	why = count_refusal(&o, buf, sizeof(buf));
	assert_non_null(why);
	assert_non_null(strstr(why, "worker's spinning"));
	o = counted(RUN_ANATOMY, COUNT_INSTRUCTIONS);
	o.plugins = 2;
	why = count_refusal(&o, buf, sizeof(buf));
	assert_non_null(why);
	assert_non_null(strstr(why, "-p 2 callers"));
	o = counted(RUN_LAUNCHES, COUNT_SYSCALLS);
	why = count_refusal(&o, buf, sizeof(buf));
	assert_non_null(why);
	assert_non_null(strstr(why, "not a run of kind launches"));
	/* --against with system calls: the gate judges instructions only */
	o = counted(RUN_COMPARE, COUNT_SYSCALLS);
	o.base = BASE_BUILD;
	why = count_refusal(&o, buf, sizeof(buf));
	assert_non_null(why);
	assert_non_null(strstr(why, "give --count instructions"));
}

static void test_lengths(void **state)
{
	struct options o = counted(RUN_COMPARE, COUNT_ALL);
	struct counts_rec r;

	(void)state;
	o.n = 5000;
	o.plugins = 2;
	unsetenv(COUNT_PAIRS_ENV);
	count_lengths(&o, &r);
	assert_true(r.n_short == 5000 && r.n_long == 10000 && r.ops == 10000);
	assert_int_equal(r.pairs, COUNT_PAIRS);
	setenv(COUNT_PAIRS_ENV, "1", 1);
	count_lengths(&o, &r);
	assert_int_equal(r.pairs, 1);
	/* out of range: the default */
	setenv(COUNT_PAIRS_ENV, "9", 1);
	count_lengths(&o, &r);
	assert_int_equal(r.pairs, COUNT_PAIRS);
	unsetenv(COUNT_PAIRS_ENV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plans_are_counted),
		cmocka_unit_test(test_still_refused),
		cmocka_unit_test(test_lengths),
	};
	return cmocka_run_group_tests_name("count", tests, NULL, NULL);
}
