/* test_baseline.c — saved runs: write -> read round trip, corrupt, truncated
 * and foreign files, the atomic write, and the verdict of one document
 * against another (both gates, what is gated when keys differ). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "baseline.h"
#include "jsonutil.h"

/* A saved-run shape: one cell and one ratio with the given samples. */
static json_t *doc(const char *key, double cell_scale, double ratio_scale)
{
	json_t *s = json_array(), *r = json_array();
	/* deterministic jitter of about +-1% */
	static const double jitter[12] = {0.995, 1.004, 0.998, 1.009, 0.991, 1.002,
					  1.006, 0.997, 1.001, 0.993, 1.008, 0.999};
	for (int i = 0; i < 12; i++) {
		json_array_append_new(s, json_real(100.0 * cell_scale * jitter[i]));
		json_array_append_new(r, json_real(3.0 * ratio_scale * jitter[(i + 5) % 12]));
	}
	return json_pack("{s:i, s:s, s:[{s:s, s:s, s:o}], s:[{s:s, s:o}], s:n}", "schema_version", 1,
			 "generator", "cgocost bench", "cells", "name", "lib=archive/mode=async/work=noop/p=1",
			 "key", key, "samples", s, "ratios", "name", "async/sync lib=archive wall", "samples", r,
			 "comparison");
}

static const json_t *change(const json_t *cmp, const char *kind)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(cmp, "changes"), i, c) if (strcmp(jget_str(c, "kind"), kind) == 0) return c;
	return NULL;
}

static void tmp_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "/tmp/cgocost-test-%d-%s", (int)getpid(), name);
}

static void test_round_trip(void **state)
{
	char path[256], err[512];
	json_t *d = doc("k", 1, 1), *back;
	(void)state;
	tmp_path(path, sizeof(path), "rt.json");
	assert_int_equal(baseline_save(path, d, err, sizeof(err)), 0);
	back = baseline_load(path, err, sizeof(err));
	assert_non_null(back);
	assert_true(json_equal(d, back));
	json_decref(back);
	json_decref(d);
	unlink(path);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_corrupt_truncated_foreign(void **state)
{
	char path[256], err[512];
	char *full;
	json_t *d = doc("k", 1, 1);
	(void)state;
	tmp_path(path, sizeof(path), "bad.json");

	full = json_dumps(d, JSON_COMPACT);
	full[strlen(full) / 2] = '\0'; /* truncated */
	write_file(path, full);
	assert_null(baseline_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "JSON error"));
	free(full);

	write_file(path, "{\"name\": \"something else\"}");
	assert_null(baseline_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "not a cgocost baseline"));

	write_file(path, "{\"generator\": \"cgocost bench\", \"schema_version\": 99, \"cells\": []}");
	assert_null(baseline_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "schema_version 99"));

	write_file(path, "{\"generator\": \"cgocost bench\", \"schema_version\": 1, \"cells\": [{\"name\": \"x\"}], \"ratios\": []}");
	assert_null(baseline_load(path, err, sizeof(err)));
	assert_non_null(strstr(err, "lacks"));

	unlink(path);
	assert_null(baseline_load(path, err, sizeof(err)));
	json_decref(d);
}

static void test_failed_save_keeps_old_file(void **state)
{
	char err[512];
	json_t *d = doc("k", 1, 1);
	(void)state;
	/* a directory that does not exist: the write fails, nothing is created */
	assert_int_equal(baseline_save("/nonexistent-cgocost-dir/base.json", d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent-cgocost-dir/base.json"));
	json_decref(d);
}

static void test_identical_is_no_regression(void **state)
{
	json_t *a = doc("k", 1, 1), *b = doc("k", 1, 1), *cmp;
	int regressed = -1;
	(void)state;
	cmp = compare_documents(a, b, "base.json", 0, 0.05, 1, &regressed);
	assert_int_equal(regressed, 0);
	assert_string_equal(jget_str(change(cmp, "cell"), "verdict"), "no_change");
	assert_true(json_is_true(json_object_get(change(cmp, "cell"), "gated")));
	json_decref(cmp);
	json_decref(a);
	json_decref(b);
}

static void test_threefold_slowdown_regresses(void **state)
{
	json_t *a = doc("k", 1, 1), *b = doc("k", 3, 3), *cmp;
	int regressed = 0;
	(void)state;
	cmp = compare_documents(a, b, "base.json", 0, 0.05, 1, &regressed);
	assert_int_equal(regressed, 1);
	assert_string_equal(jget_str(change(cmp, "cell"), "verdict"), "regressed");
	assert_string_equal(jget_str(change(cmp, "ratio"), "verdict"), "regressed");
	assert_true(jget_num(change(cmp, "cell"), "low") > 1.5);
	assert_non_null(strstr(jget_str(change(cmp, "cell"), "line"), "change: ["));
	json_decref(cmp);
	json_decref(a);
	json_decref(b);
}

/* Another machine: absolute times are reported but not gated; ratios are. */
static void test_other_machine_judged_by_ratios(void **state)
{
	json_t *a = doc("machine A", 1, 1), *b = doc("machine B", 3, 1), *cmp;
	int regressed = -1;
	(void)state;
	cmp = compare_documents(a, b, "base.json", 0, 0.05, 1, &regressed);
	assert_int_equal(regressed, 0); /* 3x slower cell, same ratio: not a regression */
	assert_false(json_is_true(json_object_get(change(cmp, "cell"), "gated")));
	assert_string_equal(jget_str(change(cmp, "cell"), "verdict"), "regressed");
	assert_non_null(jget_str(change(cmp, "cell"), "not_gated_because"));
	assert_false(json_is_true(json_object_get(cmp, "machine_key_matches")));
	json_decref(cmp);
	/* the same, interleaved in one run (--against): absolute times gated */
	cmp = compare_documents(a, b, "other", 1, 0.05, 1, &regressed);
	assert_int_equal(regressed, 1);
	json_decref(cmp);
	/* and a ratio that moved is caught on another machine too */
	json_decref(b);
	b = doc("machine B", 1, 1.3);
	cmp = compare_documents(a, b, "base.json", 0, 0.05, 1, &regressed);
	assert_int_equal(regressed, 1);
	json_decref(cmp);
	json_decref(a);
	json_decref(b);
}

static void test_small_change_within_noise(void **state)
{
	json_t *a = doc("k", 1, 1), *b = doc("k", 1.02, 1), *cmp;
	int regressed = -1;
	(void)state;
	cmp = compare_documents(a, b, "base.json", 0, 0.05, 1, &regressed);
	assert_int_equal(regressed, 0);
	assert_string_equal(jget_str(change(cmp, "cell"), "verdict"), "within_noise");
	json_decref(cmp);
	json_decref(a);
	json_decref(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_corrupt_truncated_foreign),
		cmocka_unit_test(test_failed_save_keeps_old_file),
		cmocka_unit_test(test_identical_is_no_regression),
		cmocka_unit_test(test_threefold_slowdown_regresses),
		cmocka_unit_test(test_other_machine_judged_by_ratios),
		cmocka_unit_test(test_small_change_within_noise),
	};
	return cmocka_run_group_tests_name("baseline", tests, NULL, NULL);
}
