/* test_baseline.c — saved runs: write -> read round trip through the codec,
 * corrupt, truncated, foreign and mistyped files (each key checked, the
 * path named), and the atomic write. */
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

#include "analyse/analysis.h"
#include "base/atomicfile.h"
#include "model/codec.h"
#include "model_fixture.h"
#include "store/baseline.h"

/* An analysed document: a sync and an async cell of 6 launches each. */
static void analysed_doc(struct doc *d)
{
	char err[256];
	fixture_doc(d);
	fixture_cell(d, "archive", "sync", fixture_launches(6, 70, 1, 110), 6);
	fixture_cell(d, "archive", "async", fixture_launches(6, 230, 2, 600), 6);
	assert_int_equal(analyse_document(d, err, sizeof(err)), 0);
}

static void tmp_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "/tmp/cgocost-test-%d-%s", (int)getpid(), name);
}

static char *read_text(const char *path)
{
	char *data, err[256];
	size_t len;
	assert_int_equal(read_whole_file(path, &data, &len, 1 << 24, err, sizeof(err)), 0);
	return data;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_round_trip(void **state)
{
	char path[256], path2[256], err[512], *a, *b;
	struct doc d, back;
	(void)state;
	tmp_path(path, sizeof(path), "rt.json");
	tmp_path(path2, sizeof(path2), "rt2.json");
	analysed_doc(&d);
	assert_int_equal(baseline_save(path, &d, err, sizeof(err)), 0);
	assert_int_equal(baseline_load(path, &back, err, sizeof(err)), 0);
	assert_int_equal(back.ncells, 2);
	assert_int_equal(back.nratios, d.nratios);
	assert_int_equal(back.cells[1].nlaunches, 6);
	assert_true(back.cells[1].st.time.s.median == d.cells[1].st.time.s.median);
	assert_string_equal(back.cells[0].st.key, d.cells[0].st.key);
	/* written again, the file is the same to the byte */
	assert_int_equal(baseline_save(path2, &back, err, sizeof(err)), 0);
	a = read_text(path);
	b = read_text(path2);
	assert_string_equal(a, b);
	free(a);
	free(b);
	doc_free(&d);
	doc_free(&back);
	unlink(path);
	unlink(path2);
}

/* Replaces the first occurrence of from in s by to (s has room). */
static void replace_once(char *s, size_t cap, const char *from, const char *to)
{
	char *at = strstr(s, from);
	assert_non_null(at);
	assert_true(strlen(s) - strlen(from) + strlen(to) < cap);
	memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
	memcpy(at, to, strlen(to));
}

static void expect_refused(const char *path, const char *text, const char *needle)
{
	struct doc d;
	char err[512];
	write_file(path, text);
	if (baseline_load(path, &d, err, sizeof(err)) != -1)
		fail_msg("accepted a file that should fail with '%s'", needle);
	if (strstr(err, needle) == NULL)
		fail_msg("message '%s' lacks '%s'", err, needle);
	assert_null(strchr(err, '\n'));
}

static void test_corrupt_truncated_foreign(void **state)
{
	char path[256], good[256], err[512], *full;
	struct doc d;
	(void)state;
	tmp_path(path, sizeof(path), "bad.json");
	tmp_path(good, sizeof(good), "good.json");
	analysed_doc(&d);
	assert_int_equal(baseline_save(good, &d, err, sizeof(err)), 0);
	doc_free(&d);
	full = read_text(good);

	full[strlen(full) / 2] = '\0'; /* truncated */
	expect_refused(path, full, "JSON error");
	free(full);
	expect_refused(path, "{\"name\": \"something else\"}", "not a cgocost baseline");
	expect_refused(path, "{\"generator\": \"cgocost bench\", \"schema_version\": 99, \"cells\": []}",
		       "schema_version 99");
	expect_refused(path, "{\"generator\": \"x\", \"schema_version\": 1}", "generator 'x'");

	/* every key checked: a mistyped, a missing, a wrongly typed key */
	full = realloc(read_text(good), 1 << 22);
	replace_once(full, 1 << 22, "\"median_batch_ns_per_extraction\"", "\"median_batch_ns_per_extractoin\"");
	expect_refused(path, full, "cells[0].launches[0].plugins[0].median_batch_ns_per_extraction: missing");
	free(full);
	full = realloc(read_text(good), 1 << 22);
	replace_once(full, 1 << 22, "\"wall_ns\": 0", "\"wall_ns\": \"0\"");
	expect_refused(path, full, "cells[0].launches[0].wall_ns: not a whole number");
	free(full);
	full = realloc(read_text(good), 1 << 22);
	replace_once(full, 1 << 22, "\"key\":", "\"kee\": \"x\", \"key\":");
	expect_refused(path, full, "cells[0].kee: unknown key");
	free(full);
	full = realloc(read_text(good), 1 << 22);
	replace_once(full, 1 << 22, "\"samples\": [", "\"samples\": [\"7\", ");
	expect_refused(path, full, "cells[0].samples: not an array of numbers");
	free(full);

	/* samples a comparison reads: anything but positive numbers is corrupt */
	static const struct {
		const char *samples, *why;
	} bad[] = {
		{ "\"samples\": [\"7\", ", "not an array of numbers" },
		{ "\"samples\": [null, ", "samples[0] is null" },
		{ "\"samples\": [true, ", "not an array of numbers" },
		{ "\"samples\": [{}, ", "not an array of numbers" },
		{ "\"samples\": [[], ", "not an array of numbers" },
		{ "\"samples\": [0, ", "samples[0] is zero" },
		{ "\"samples\": [0.0, ", "samples[0] is zero" },
		{ "\"samples\": [-3.5, ", "samples[0] is negative" },
		{ "\"samples\": [1e-320, ", "samples[0] is subnormal (below 2.2e-308)" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		full = realloc(read_text(good), 1 << 22);
		replace_once(full, 1 << 22, "\"samples\": [", bad[i].samples);
		expect_refused(path, full, bad[i].why);
		free(full);
	}
	/* an empty samples array */
	full = realloc(read_text(good), 1 << 22);
	{
		char *at = strstr(full, "\"samples\": [");
		char *end = strchr(at, ']');
		memmove(at + 12, end, strlen(end) + 1);
	}
	expect_refused(path, full, "no samples");
	free(full);
	/* a ratio's samples too */
	full = realloc(read_text(good), 1 << 22);
	{
		char *at = strstr(full, "\"ratios\": [");
		assert_non_null(at);
		at = strstr(at, "\"samples\": [");
		assert_non_null(at);
		memmove(at + 12 + 3, at + 12, strlen(at + 12) + 1);
		memcpy(at + 12, "-1,", 3);
	}
	expect_refused(path, full, "ratio async/sync lib=archive wall: samples[0] is negative");
	free(full);
	/* the version found is named as found */
	expect_refused(path, "{\"generator\": \"cgocost bench\", \"schema_version\": 1.5, \"cells\": []}",
		       "schema_version 1.5, this cgocost reads 1 to 3");
	expect_refused(path, "{\"generator\": \"cgocost bench\", \"schema_version\": \"1\", \"cells\": []}",
		       "schema_version \"1\", this cgocost reads 1 to 3");

	unlink(path);
	assert_int_equal(baseline_load(path, &d, err, sizeof(err)), -1);
	unlink(good);
}

static void test_unanalysed_document_is_not_a_baseline(void **state)
{
	char path[256], err[512];
	struct doc d;
	(void)state;
	tmp_path(path, sizeof(path), "raw.json");
	fixture_doc(&d);
	fixture_cell(&d, "archive", "sync", fixture_launches(2, 70, 1, 110), 2);
	assert_int_equal(baseline_save(path, &d, err, sizeof(err)), 0);
	doc_free(&d);
	assert_int_equal(baseline_load(path, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no statistics"));
	unlink(path);
}

/* The counting gate's document (its comparison's metric "instructions")
 * is no baseline: its cells' times are valgrind's, and a timed run judged
 * against them would pass a regression of several times. */
static void test_counting_gate_document_is_not_a_baseline(void **state)
{
	char path[256], err[512];
	struct doc d;
	(void)state;
	tmp_path(path, sizeof(path), "counted.json");
	analysed_doc(&d);
	d.has_comparison = 1;
	d.comparison.changes = calloc(1, sizeof(*d.comparison.changes));
	assert_non_null(d.comparison.changes);
	d.comparison.nchanges = 1;
	snprintf(d.comparison.changes[0].scenario, sizeof(d.comparison.changes[0].scenario), "%s", d.cells[0].name);
	snprintf(d.comparison.changes[0].kind, sizeof(d.comparison.changes[0].kind), "cell");
	snprintf(d.comparison.changes[0].metric, sizeof(d.comparison.changes[0].metric), "instructions");
	assert_int_equal(baseline_save(path, &d, err, sizeof(err)), 0);
	doc_free(&d);
	assert_int_equal(baseline_load(path, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the counting gate's document"));
	assert_null(strchr(err, '\n'));
	unlink(path);
}

static void test_failed_save_keeps_old_file(void **state)
{
	char err[512];
	struct doc d;
	(void)state;
	analysed_doc(&d);
	/* a directory that does not exist: the write fails, nothing is created */
	assert_int_equal(baseline_save("/nonexistent-cgocost-dir/base.json", &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent-cgocost-dir/base.json"));
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_corrupt_truncated_foreign),
		cmocka_unit_test(test_unanalysed_document_is_not_a_baseline),
		cmocka_unit_test(test_counting_gate_document_is_not_a_baseline),
		cmocka_unit_test(test_failed_save_keeps_old_file),
	};
	return cmocka_run_group_tests_name("baseline", tests, NULL, NULL);
}
