/* test_gobench.c — the Go benchmark lines of a synthetic document
 * (report/gobench.c). No timing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "model/model.h"
#include "model_fixture.h"
#include "report/gobench.h"

static void test_gobench_lines(void **state)
{
	struct doc d;
	double b[2] = { 50, 70 };
	struct launch_rec *ls = calloc(2, sizeof(*ls));
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;

	fixture_doc(&d);
	ls[0] = fixture_launch(60, 80, b, 2);
	ls[1] = fixture_launch(61, 81, b, 2);
	fixture_cell(&d, "archive", "async", ls, 2);
	f = open_memstream(&buf, &len);
	report_gobench(f, &d);
	fclose(f);
	assert_string_equal(
		buf, "goos: linux\ngoarch: amd64\ncpu: Test CPU\npkg: cgocost\n"
		     "BenchmarkExtract/lib=archive/mode=async/work=noop/p=1-2\t200\t60.00 ns/op\t80.00 cpu-ns/op\n"
		     "BenchmarkExtract/lib=archive/mode=async/work=noop/p=1-2\t200\t61.00 ns/op\t81.00 cpu-ns/op\n");
	free(buf);
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gobench_lines),
	};
	return cmocka_run_group_tests_name("gobench", tests, NULL, NULL);
}
