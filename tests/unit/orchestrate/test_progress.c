/* test_progress.c — the progress line: when it is shown (--progress,
 * --no-progress, a terminal), what it says, that nothing is shown in a
 * run's first second, and that a shown line is erased. Deterministic: the
 * line goes to a memory stream, no run is measured. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "orchestrate/progress.h"

static void test_wanted(void **state)
{
	struct options o;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(progress_wanted(&o, 1), 1); /* a terminal: shown */
	assert_int_equal(progress_wanted(&o, 0), 0); /* a pipe or a file: not */
	o.progress = 1;
	assert_int_equal(progress_wanted(&o, 0), 1);
	o.progress = 0;
	o.no_progress = 1;
	assert_int_equal(progress_wanted(&o, 1), 0);
}

static void test_text(void **state)
{
	char b[PROGRESS_LINE_MAX];

	(void)state;
	assert_string_equal(
		progress_text(b, sizeof(b), 3.24, 10, "generation 5, 120 rounds",
			      "async/sync lib=archive wall 1.805 [1.042, 3.204]"),
		"bench: 3.2 s (budget 10 s); generation 5, 120 rounds; async/sync lib=archive wall 1.805 [1.042, 3.204]");
	assert_string_equal(progress_text(b, sizeof(b), 12.0, 0, "launch 7 of 60 (bench async)", ""),
			    "bench: 12.0 s; launch 7 of 60 (bench async)");
	/* cut, never overrun */
	progress_text(b, 16, 3.24, 10, "generation 5, 120 rounds", "x");
	assert_int_equal(strlen(b), 15);
}

/* Nothing in the first second; once shown, erased at the end. */
static void test_first_second_and_erase(void **state)
{
	struct options o;
	struct progress p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	memset(&o, 0, sizeof(o));
	o.progress = 1;
	progress_begin(&p, &o, 10);
	p.err = f;
	progress_show(&p, "generation 1, 8 rounds", "");
	progress_end(&p);
	fflush(f);
	assert_int_equal(len, 0);      /* too early: nothing, and nothing to erase */
	p.t0 -= PROGRESS_AFTER_NS + 1; /* the run began more than a second ago */
	progress_show(&p, "generation 2, 16 rounds", "");
	progress_show(&p, "generation 3, 24 rounds", ""); /* too soon after the last: skipped */
	progress_end(&p);
	fclose(f);
	assert_non_null(strstr(buf, "\r\033[Kbench: "));
	assert_non_null(strstr(buf, "s (budget 10 s); generation 2, 16 rounds"));
	assert_null(strstr(buf, "generation 3"));
	assert_true(len >= 4 && strcmp(buf + len - 4, "\r\033[K") == 0);
	free(buf);
}

/* --no-progress: nothing, ever. */
static void test_off(void **state)
{
	struct options o;
	struct progress p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	memset(&o, 0, sizeof(o));
	o.no_progress = 1;
	progress_begin(&p, &o, 10);
	p.err = f;
	p.t0 -= 5 * PROGRESS_AFTER_NS;
	progress_show(&p, "generation 9, 72 rounds", "");
	progress_end(&p);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_first_second_and_erase),
		cmocka_unit_test(test_off),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
