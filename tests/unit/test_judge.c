/* test_judge.c — the verdict on plain sample files, and the allocator names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyse/judge.h"
#include "measure/allocs.h"

static void write_lines(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *run_judge(const char *a, const char *b, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	*rc = judge_files(a, b, 0.05, 1, out, "test");
	fclose(out);
	return buf;
}

static void test_judge_verdicts(void **state)
{
	char base[64], slow[64], same[64], bad[64];
	char *out;
	int rc;
	(void)state;
	snprintf(base, sizeof(base), "/tmp/cgocost-judge-%d-base", (int)getpid());
	snprintf(slow, sizeof(slow), "/tmp/cgocost-judge-%d-slow", (int)getpid());
	snprintf(same, sizeof(same), "/tmp/cgocost-judge-%d-same", (int)getpid());
	snprintf(bad, sizeof(bad), "/tmp/cgocost-judge-%d-bad", (int)getpid());
	write_lines(base, "# ns/op\n100\n101\n99\n100\n102\n98\n\n");
	write_lines(slow, "130\n131\n129\n130\n132\n128\n");
	write_lines(same, "100\n101\n99\n100\n102\n98\n");
	write_lines(bad, "100\nfast\n");

	out = run_judge(base, slow, &rc);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(out, "+30.00%"));
	assert_non_null(strstr(out, "Performance has regressed."));
	free(out);

	out = run_judge(slow, base, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "Performance has improved."));
	free(out);

	out = run_judge(base, same, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "No change in performance detected."));
	free(out);

	out = run_judge(base, bad, &rc);
	assert_int_equal(rc, 2);
	free(out);
	out = run_judge(base, "/nonexistent/cgocost", &rc);
	assert_int_equal(rc, 2);
	free(out);
	unlink(base);
	unlink(slow);
	unlink(same);
	unlink(bad);
}

static void test_allocator_names(void **state)
{
	const char *so = "unset";
	char path[512];
	const char *name;
	(void)state;
	assert_int_equal(allocator_soname("glibc", &so), 0);
	assert_null(so);
	assert_int_equal(allocator_soname("jemalloc", &so), 0);
	assert_string_equal(so, "libjemalloc.so.2");
	setenv("CGOCOST_TCMALLOC", "libmy-tcmalloc.so", 1);
	assert_int_equal(allocator_soname("tcmalloc", &so), 0);
	assert_string_equal(so, "libmy-tcmalloc.so");
	unsetenv("CGOCOST_TCMALLOC");
	assert_int_equal(allocator_soname("hoard", &so), -1);
	/* this test runs on glibc's malloc: that is what must be reported */
	allocator_in_effect(path, sizeof(path), &name);
	assert_string_equal(name, "glibc");
	assert_non_null(strstr(path, "libc.so"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_verdicts),
		cmocka_unit_test(test_allocator_names),
	};
	return cmocka_run_group_tests_name("judge", tests, NULL, NULL);
}
