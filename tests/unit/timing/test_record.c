/* test_record.c — the reason async was not in effect (timing/record.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/record.h"

static void test_async_reason(void **state)
{
	struct probe p = { .known = (1u << PROBE_SLOTS) - 1, .gomaxprocs = 1, .async_configured = 1 };
	struct probe silent = { .known = 1u << PROBE_TID };
	(void)state;
	/* a plugin that reports neither: no reason is made up */
	assert_non_null(strstr(async_not_in_effect_reason(&silent), "reason unknown"));
	assert_non_null(strstr(async_not_in_effect_reason(&p), "GOMAXPROCS < 2"));
	p.gomaxprocs = 2;
	p.async_configured = 0;
	assert_non_null(strstr(async_not_in_effect_reason(&p), "switch was off"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_async_reason),
	};
	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
