/* test_judge.c — the verdict on plain sample files (analyse/judge.c). */
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

static void write_lines(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *run_judge_with(const char *a, const char *b, int inconclusive_pass, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	*rc = judge_files(a, b, 0.05, 1, inconclusive_pass, out, "test");
	fclose(out);
	return buf;
}

static char *run_judge(const char *a, const char *b, int *rc)
{
	return run_judge_with(a, b, 0, rc);
}

static void test_judge_verdicts(void **state)
{
	char base[64], slow[64], same[64], bad[64], wide[64], few[64];
	char *out;
	int rc;
	(void)state;
	snprintf(base, sizeof(base), "/tmp/cgocost-judge-%d-base", (int)getpid());
	snprintf(slow, sizeof(slow), "/tmp/cgocost-judge-%d-slow", (int)getpid());
	snprintf(same, sizeof(same), "/tmp/cgocost-judge-%d-same", (int)getpid());
	snprintf(bad, sizeof(bad), "/tmp/cgocost-judge-%d-bad", (int)getpid());
	snprintf(wide, sizeof(wide), "/tmp/cgocost-judge-%d-wide", (int)getpid());
	snprintf(few, sizeof(few), "/tmp/cgocost-judge-%d-few", (int)getpid());
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

	/* nothing detected, nothing ruled out: inconclusive, 4, or 0 when the
	 * user lets it pass */
	write_lines(wide, "80\n140\n95\n120\n70\n135\n");
	out = run_judge(base, wide, &rc);
	assert_int_equal(rc, 4);
	assert_non_null(
		strstr(out, "Inconclusive: a change as large as the threshold is neither shown nor ruled out."));
	free(out);
	out = run_judge_with(base, wide, 1, &rc);
	assert_int_equal(rc, 0);
	free(out);
	/* 2 to 4 numbers a side: no interval, inconclusive */
	write_lines(few, "130\n131\n129\n");
	out = run_judge(base, few, &rc);
	assert_int_equal(rc, 4);
	assert_non_null(strstr(out, "[n/a "));
	assert_non_null(strstr(out, "need at least 5 on each side"));
	free(out);

	out = run_judge(base, bad, &rc);
	assert_int_equal(rc, 2);
	free(out);
	write_lines(bad, "");
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
	unlink(wide);
	unlink(few);
}

static void expect_parse_refused(const char *text, const char *why)
{
	double *x = (double *)1;
	size_t n = 7;
	char err[256] = "";
	if (judge_parse(text, strlen(text), "f.txt", &x, &n, err, sizeof(err)) != -1)
		fail_msg("accepted '%s'", text);
	assert_null(x);
	assert_int_equal(n, 0);
	if (strstr(err, why) == NULL || strncmp(err, "f.txt: ", 7) != 0)
		fail_msg("'%s': message '%s' lacks '%s'", text, err, why);
	assert_null(strchr(err, '\n'));
}

/* What people write is read; everything strtod would also take is not. */
static void test_judge_parse(void **state)
{
	double *x;
	size_t n;
	char err[256];
	static const char ok[] = "# ns/op\n 12\n1.5\t\n.5\r\n2e3\n7E-1\n\n";
	(void)state;
	assert_int_equal(judge_parse(ok, strlen(ok), "f.txt", &x, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 5);
	assert_true(x[0] == 12 && x[1] == 1.5 && x[2] == 0.5 && x[3] == 2000 && x[4] == 0.7);
	free(x);
	/* the text need not end in a newline, nor in a NUL */
	assert_int_equal(judge_parse("3\n4xyz", 3, "f.txt", &x, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	free(x);

	expect_parse_refused("", "0 samples, a verdict needs at least 2");
	expect_parse_refused("# only a comment\n\n", "0 samples");
	expect_parse_refused("5\n", "1 sample, a verdict needs at least 2");
	expect_parse_refused("0x10\n5\n", "line 1 is not a positive decimal number: '0x10'");
	expect_parse_refused("5\n0X1p3\n", "line 2 is not a positive decimal number");
	expect_parse_refused("5\ninf\n", "line 2");
	expect_parse_refused("5\nnan\n", "line 2");
	expect_parse_refused("5\n-5\n", "line 2");
	expect_parse_refused("5\n+5\n", "line 2");
	expect_parse_refused("5\n0\n", "line 2 is not a positive finite number: '0'");
	expect_parse_refused("5\n1e999\n", "line 2 is not a positive finite number");
	/* a subnormal sample once made a verdict "too few samples", exit 0 */
	expect_parse_refused("1e-320\n100\n101\n", "line 1 is too small to compute with (subnormal");
	expect_parse_refused("5\n1e\n", "line 2");
	expect_parse_refused("5\n5 6\n", "line 2");
	expect_parse_refused("5\n.\n", "line 2");
	{
		static const char nul[] = "5\n6\0\n7\n";
		double *y;
		assert_int_equal(judge_parse(nul, sizeof(nul) - 1, "f.txt", &y, &n, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "NUL byte"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_verdicts),
		cmocka_unit_test(test_judge_parse),
	};
	return cmocka_run_group_tests_name("judge", tests, NULL, NULL);
}
