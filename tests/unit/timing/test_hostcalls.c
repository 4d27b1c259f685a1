/* test_hostcalls.c — the plugin's count of plugin_extract_fields calls
 * against the driver's (timing/hostcalls.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/hostcalls.h"

static struct probe counted(uint64_t calls)
{
	struct probe p;
	memset(&p, 0, sizeof(p));
	p.known = 1u << PROBE_HOSTCALLS;
	p.host_calls = calls;
	return p;
}

static void test_counts_match(void **state)
{
	struct probe a = counted(10), b;
	double per;
	char err[256];
	(void)state;

	b = counted(10 + 100 * 4 + 1); /* 100 events of 4 calls, and the probe */
	assert_int_equal(hostcalls_check(&a, &b, 100, 4, &per, err, sizeof(err)), 0);
	assert_true(per == 4.0);
	b = counted(10 + 100 + 1);
	assert_int_equal(hostcalls_check(&a, &b, 100, 1, &per, err, sizeof(err)), 0);
	assert_true(per == 1.0);
}

static void test_mismatch_named(void **state)
{
	struct probe a = counted(10), b = counted(10 + 100 + 1);
	double per = 0;
	char err[256];
	(void)state;

	/* the driver thinks it made 4 calls an event, the plugin saw one */
	assert_int_equal(hostcalls_check(&a, &b, 100, 4, &per, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "counted 101 plugin_extract_fields calls"));
	assert_non_null(strstr(err, "the driver made 401"));
	/* a counter that went backwards */
	b = counted(5);
	assert_int_equal(hostcalls_check(&a, &b, 0, 1, &per, err, sizeof(err)), -1);
}

static void test_not_counted(void **state)
{
	struct probe a = counted(PROBE_NOT_COUNTED), b = counted(PROBE_NOT_COUNTED);
	double per = 0;
	char err[64];
	(void)state;

	assert_int_equal(hostcalls_check(&a, &b, 100, 4, &per, err, sizeof(err)), 0);
	assert_true(isnan(per));
	memset(&a, 0, sizeof(a)); /* a plugin without mock.hostcalls */
	b = a;
	assert_int_equal(hostcalls_check(&a, &b, 100, 4, &per, err, sizeof(err)), 0);
	assert_true(isnan(per));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_match),
		cmocka_unit_test(test_mismatch_named),
		cmocka_unit_test(test_not_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
