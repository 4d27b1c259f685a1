/* test_format.c — output formatting: the seed line exactly (report/format.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/format.h"

static char *capture_seed(uint32_t index, uint64_t elapsed, uint64_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_seed_line(f, index, elapsed, n);
	fclose(f);
	return buf;
}

static void test_seed_line_exact(void **state)
{
	char *s;
	(void)state;
	s = capture_seed(1, 25121098, 100000);
	assert_string_equal(s, "plugin 1: 251.21 ns/extraction (elapsed time 25121098ns, extractions 100000)\n");
	free(s);
	s = capture_seed(12, 1000, 3);
	assert_string_equal(s, "plugin 12: 333.33 ns/extraction (elapsed time 1000ns, extractions 3)\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_line_exact),
	};
	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
