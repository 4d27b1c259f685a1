/* Unit tests of model/countparse.c on outputs recorded from the real tools
 * (tests/unit/model/fixtures/): cachegrind 3.19's summary on stderr, perf
 * 6.1's `perf stat -x,` lines, a hardware counter this VM does not give,
 * and an unknown tracepoint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/countparse.h"

/* The fixture's text, malloc'd. */
static char *fixture(const char *name)
{
	const char *src = getenv("CGOCOST_UNIT_SRC");
	char path[4096];
	FILE *f;
	char *text;
	long len;

	assert_non_null(src);
	snprintf(path, sizeof(path), "%s/fixtures/%s", src, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	text = malloc((size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	text[len] = '\0';
	fclose(f);
	return text;
}

/* valgrind 3.19's cachegrind: "==25620== I   refs:      110,797,910",
 * after the banner and a warning line ("--PID--" prefix). */
static void test_cachegrind_recorded(void **state)
{
	char *text = fixture("cachegrind-3.19.stderr"), version[48], why[128];
	uint64_t irefs = 0;

	(void)state;
	assert_int_equal(countparse_cachegrind(text, &irefs, version, sizeof(version), why, sizeof(why)), 0);
	assert_true(irefs == UINT64_C(110797910));
	assert_string_equal(version, "Valgrind-3.19.0");
	free(text);
}

/* The later spelling "I refs:" reads the same; a bench line that happens
 * to say "I refs:" without valgrind's prefix is not the summary; without
 * the summary (valgrind killed before it) there is no count. */
static void test_cachegrind_variants(void **state)
{
	char version[48], why[128];
	uint64_t irefs = 0;

	(void)state;
	assert_int_equal(countparse_cachegrind("==1== Cachegrind\n==1== \n==1== I refs:        1,234\n", &irefs,
					       version, sizeof(version), why, sizeof(why)),
			 0);
	assert_true(irefs == 1234);
	assert_string_equal(version, "");
	assert_int_equal(countparse_cachegrind("I   refs: 5\n==2== I1  misses: 7\n", &irefs, version, sizeof(version),
					       why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "I refs"));
	assert_int_equal(countparse_cachegrind(NULL, &irefs, version, sizeof(version), why, sizeof(why)), -1);
}

/* perf stat -x, as recorded: every event asked for, found by its name in
 * the third field. */
static void test_perf_stat_recorded(void **state)
{
	char *text = fixture("perf-stat-6.1.stderr"), why[128];
	uint64_t v = 0;

	(void)state;
	assert_int_equal(countparse_perf_stat(text, "raw_syscalls:sys_enter", &v, why, sizeof(why)), 0);
	assert_true(v == 528);
	assert_int_equal(countparse_perf_stat(text, "context-switches", &v, why, sizeof(why)), 0);
	assert_true(v == 215);
	assert_int_equal(countparse_perf_stat(text, "page-faults", &v, why, sizeof(why)), 0);
	assert_true(v == 1652);
	assert_int_equal(countparse_perf_stat(text, "syscalls:sys_enter_rt_sigprocmask", &v, why, sizeof(why)), 0);
	assert_true(v == 46);
	assert_int_equal(countparse_perf_stat(text, "syscalls:sys_enter_futex", &v, why, sizeof(why)), 0);
	assert_true(v == 31);
	/* an event not asked for is not found, nor a prefix of one */
	assert_int_equal(countparse_perf_stat(text, "syscalls:sys_enter_mmap", &v, why, sizeof(why)), -1);
	assert_int_equal(countparse_perf_stat(text, "raw_syscalls", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no count of raw_syscalls"));
	free(text);
}

/* A counter perf could not take is no count, never 0: "<not supported>"
 * (the hardware counters on this VM) is said; the software event beside
 * it still reads. */
static void test_perf_stat_not_supported(void **state)
{
	char *text = fixture("perf-stat-not-supported.stderr"), why[128];
	uint64_t v = 99;

	(void)state;
	assert_int_equal(countparse_perf_stat(text, "instructions", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "<not supported>"));
	assert_true(v == 99);
	assert_int_equal(countparse_perf_stat(text, "page-faults", &v, why, sizeof(why)), 0);
	assert_true(v == 48);
	assert_int_equal(
		countparse_perf_stat("<not counted>,,page-faults,0,0.00,,\n", "page-faults", &v, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "<not counted>"));
	free(text);
}

/* perf's refusal of an unknown tracepoint holds no count at all. */
static void test_perf_stat_unknown_event(void **state)
{
	char *text = fixture("perf-stat-unknown-event.stderr"), why[128];
	uint64_t v;

	(void)state;
	assert_int_equal(countparse_perf_stat(text, "syscalls:sys_enter_nosuch", &v, why, sizeof(why)), -1);
	assert_int_equal(countparse_perf_stat("", "page-faults", &v, why, sizeof(why)), -1);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cachegrind_recorded),	cmocka_unit_test(test_cachegrind_variants),
		cmocka_unit_test(test_perf_stat_recorded),	cmocka_unit_test(test_perf_stat_not_supported),
		cmocka_unit_test(test_perf_stat_unknown_event),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
