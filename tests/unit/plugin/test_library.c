/* test_library.c — the plugin API version check (plugin/library.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plugin/library.h"

static void test_api_version_check(void **state)
{
	char err[256], newer[32];
	(void)state;

	assert_int_equal(api_version_check(plugin_api_header_version(), err, sizeof(err)), 0);
	assert_int_equal(api_version_check("3.0.0", err, sizeof(err)), 0);
	snprintf(newer, sizeof(newer), "3.%d.0", PLUGIN_API_VERSION_MINOR + 1);
	assert_int_equal(api_version_check(newer, err, sizeof(err)), -1);
	assert_non_null(strstr(err, newer));
	assert_non_null(strstr(err, plugin_api_header_version()));
	assert_int_equal(api_version_check("2.0.0", err, sizeof(err)), -1);
	assert_int_equal(api_version_check("4.0.0", err, sizeof(err)), -1);
	assert_int_equal(api_version_check("three", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a version"));
	assert_int_equal(api_version_check(NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, plugin_api_header_version()));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_version_check),
	};
	return cmocka_run_group_tests_name("library", tests, NULL, NULL);
}
