/* test_analysis.c — statistics of synthetic documents with known answers,
 * the per-round ratios, and the Go benchmark lines. No timing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "analysis.h"
#include "jsonutil.h"
#include "report_doc.h"

/* A launch whose one plugin ran batches of 100 ops at the given ns/op. */
static json_t *launch(double summary, double cpu, const double *per_op, int nb)
{
	json_t *batches = json_array();
	for (int i = 0; i < nb; i++)
		json_array_append_new(batches, json_pack("{s:f, s:i}", "ns", per_op[i] * 100.0, "ops", 100));
	return json_pack("{s:f, s:f, s:f, s:f, s:[{s:o, s:i, s:f, s:i, s:i}], s:n}", "ns_per_extraction",
			 summary, "cpu_ns_per_extraction", cpu, "other_cpu_ns_per_extraction", cpu - summary,
			 "switches_per_1000", 0.5, "plugins", "batches", batches, "stalled_batches", 0,
			 "slowest_batch_ns_per_extraction", per_op[nb - 1], "cold_ns", 5000, "extractions",
			 100 * nb, "floors");
}

static json_t *cell(const char *lib, const char *mode, json_t *launches)
{
	char name[128];
	snprintf(name, sizeof(name), "lib=%s/mode=%s/work=noop/p=1", lib, mode);
	return json_pack("{s:s, s:s, s:s, s:{s:s, s:s}, s:o}", "name", name, "lib", lib, "go_version",
			 "go1.26.8", "mode", "requested", mode, "in_effect", mode, "launches", launches);
}

static json_t *doc_of(json_t *cells)
{
	return json_pack("{s:i, s:s, s:{s:s, s:i, s:s}, s:{s:i, s:i, s:i, s:s, s:i, s:i, s:i, s:[]}, s:o}",
			 "schema_version", 1, "generator", "cgocost bench", "machine", "cpu_model", "Test CPU",
			 "online_cpus", 2, "kernel", "6.1", "options", "n", 1000, "runs", 10, "plugins", 1, "work",
			 "noop", "fields", 1, "warmup", 10, "extra_ns", 0, "cpus", "cells", cells);
}

static void test_launch_medians_are_the_samples(void **state)
{
	double b[2] = {1, 1};
	json_t *ls = json_array();
	/* launch medians 10..16: median 13, mean 13 */
	for (int i = 0; i < 7; i++)
		json_array_append_new(ls, launch(10 + i, 20 + i, b, 2));
	json_t *d = doc_of(json_pack("[o]", cell("archive", "sync", ls)));
	char err[256];
	(void)state;

	assert_int_equal(analyse_document(d, err, sizeof(err)), 0);
	json_t *c = json_array_get(json_object_get(d, "cells"), 0);
	json_t *st = json_object_get(c, "statistics");
	assert_true(jget_num(st, "n") == 7);
	assert_true(jget_num(st, "median") == 13.0);
	assert_true(jget_num(st, "mean") == 13.0);
	assert_true(jget_num(st, "min") == 10.0 && jget_num(st, "max") == 16.0);
	/* n = 7: the interval is [X(1), X(7)] (coverage 1 - 2/128) */
	assert_true(jget_num(st, "ci_low") == 10.0 && jget_num(st, "ci_high") == 16.0);
	assert_true(jget_num(json_object_get(c, "cpu_statistics"), "median") == 23.0);
	assert_int_equal(json_array_size(json_object_get(c, "samples")), 7);
	assert_non_null(strstr(jget_str(json_object_get(d, "analysis"), "samples"), "launch medians"));
	assert_non_null(strstr(jget_str(c, "key"), "cpu=Test CPU"));
	assert_null(strstr(jget_str(c, "key"), "extra_ns"));
	json_decref(d);
}

static void test_single_launch_uses_batches_and_null_for_undefined(void **state)
{
	double b[3] = {5, 6, 7};
	json_t *d = doc_of(json_pack("[o]", cell("shared", "async", json_pack("[o]", launch(6, 9, b, 3)))));
	char err[256];
	char *text;
	(void)state;

	assert_int_equal(analyse_document(d, err, sizeof(err)), 0);
	json_t *c = json_array_get(json_object_get(d, "cells"), 0);
	json_t *st = json_object_get(c, "statistics");
	assert_true(jget_num(st, "n") == 3);
	assert_true(jget_num(st, "median") == 6.0);
	/* three samples: no interval; it is null, never 0 */
	assert_true(json_is_null(json_object_get(st, "ci_low")));
	assert_true(json_is_null(json_object_get(json_object_get(c, "cpu_statistics"), "stddev")));
	assert_non_null(strstr(jget_str(json_object_get(d, "analysis"), "samples"), "batches"));
	text = json_dumps(d, JSON_COMPACT);
	assert_null(strstr(text, "NaN"));
	free(text);
	json_decref(d);
}

static void test_ratios_per_round(void **state)
{
	double b[1] = {1};
	json_t *s = json_array(), *a = json_array();
	for (int i = 0; i < 6; i++) {
		json_array_append_new(s, launch(100 + i, 110, b, 1));
		json_array_append_new(a, launch(3 * (100 + i), 660, b, 1)); /* exactly 3x, round by round */
	}
	json_t *d = doc_of(json_pack("[o, o]", cell("archive", "sync", s), cell("archive", "async", a)));
	char err[256];
	size_t i;
	json_t *r;
	int wall = 0, cpu = 0;
	(void)state;

	assert_int_equal(analyse_document(d, err, sizeof(err)), 0);
	json_array_foreach(json_object_get(d, "ratios"), i, r)
	{
		json_t *st = json_object_get(r, "statistics");
		if (strcmp(jget_str(r, "name"), "async/sync lib=archive wall") == 0) {
			wall = 1;
			assert_true(jget_num(st, "median") > 2.999999 && jget_num(st, "median") < 3.000001);
			assert_true(jget_num(st, "ci_low") > 2.999999);
		}
		if (strcmp(jget_str(r, "name"), "async/sync lib=archive cpu") == 0) {
			cpu = 1;
			assert_true(jget_num(st, "median") == 6.0);
		}
	}
	assert_true(wall && cpu);
	json_decref(d);
}

static void test_no_async_ratio_when_async_fell_back(void **state)
{
	double b[1] = {1};
	json_t *s = json_array(), *a = json_array();
	for (int i = 0; i < 3; i++) {
		json_array_append_new(s, launch(100, 110, b, 1));
		json_array_append_new(a, launch(100, 110, b, 1));
	}
	json_t *fallback = cell("archive", "async", a);
	json_object_set_new(json_object_get(fallback, "mode"), "in_effect", json_string("sync"));
	json_t *d = doc_of(json_pack("[o, o]", cell("archive", "sync", s), fallback));
	char err[256];
	(void)state;
	assert_int_equal(analyse_document(d, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(json_object_get(d, "ratios")), 0);
	json_decref(d);
}

static void test_gobench_lines(void **state)
{
	double b[2] = {50, 70};
	json_t *ls = json_array();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;
	json_array_append_new(ls, launch(60, 80, b, 2));
	json_array_append_new(ls, launch(61, 81, b, 2));
	json_t *c = cell("archive", "async", ls);
	json_object_set_new(c, "gomaxprocs", json_integer(2));
	json_t *d = doc_of(json_pack("[o]", c));
	json_object_set_new(json_object_get(d, "machine"), "arch", json_string("x86_64"));
	f = open_memstream(&buf, &len);
	report_gobench(f, d);
	fclose(f);
	assert_string_equal(buf, "goos: linux\ngoarch: amd64\ncpu: Test CPU\npkg: cgocost\n"
				 "BenchmarkExtract/lib=archive/mode=async/work=noop/p=1-2\t200\t60.00 ns/op\t80.00 cpu-ns/op\n"
				 "BenchmarkExtract/lib=archive/mode=async/work=noop/p=1-2\t200\t61.00 ns/op\t81.00 cpu-ns/op\n");
	free(buf);
	json_decref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_launch_medians_are_the_samples),
		cmocka_unit_test(test_single_launch_uses_batches_and_null_for_undefined),
		cmocka_unit_test(test_ratios_per_round),
		cmocka_unit_test(test_no_async_ratio_when_async_fell_back),
		cmocka_unit_test(test_gobench_lines),
	};
	return cmocka_run_group_tests_name("analysis", tests, NULL, NULL);
}
