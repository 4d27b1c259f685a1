/* test_analysis.c — statistics of synthetic documents with known answers,
 * and the per-round ratios (analyse/analysis.c). No timing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "analyse/analysis.h"
#include "model/codec.h"
#include "model_fixture.h"

static void test_launch_medians_are_the_samples(void **state)
{
	struct doc d;
	char err[256];
	const struct cell_rec *c;
	(void)state;

	fixture_doc(&d);
	/* launch medians 10..16: median 13, mean 13; cpu 20..26 */
	fixture_cell(&d, "archive", "sync", fixture_launches(7, 10, 1, 20), 7);
	assert_int_equal(analyse_document(&d, err, sizeof(err)), 0);
	c = &d.cells[0];
	assert_int_equal(c->st.time.s.n, 7);
	assert_true(c->st.time.s.median == 13.0);
	assert_true(c->st.time.s.mean == 13.0);
	assert_true(c->st.time.s.min == 10.0 && c->st.time.s.max == 16.0);
	/* n = 7: the interval is [X(1), X(7)] (coverage 1 - 2/128) */
	assert_true(c->st.time.s.ci_lo == 10.0 && c->st.time.s.ci_hi == 16.0);
	assert_true(c->st.cpu.s.median == 23.0);
	assert_int_equal(c->st.nsamples, 7);
	assert_int_equal(d.samples_are_batches, 0);
	assert_non_null(strstr(c->st.key, "cpu=Test CPU"));
	assert_null(strstr(c->st.key, "extra_ns"));
	doc_free(&d);
}

static void test_single_launch_uses_batches_and_null_for_undefined(void **state)
{
	struct doc d;
	double b[3] = { 5, 6, 7 };
	struct launch_rec *l = calloc(1, sizeof(*l));
	char err[256], *text;
	json_t *j, *c;
	(void)state;

	fixture_doc(&d);
	*l = fixture_launch(6, 9, b, 3);
	fixture_cell(&d, "shared", "async", l, 1);
	assert_int_equal(analyse_document(&d, err, sizeof(err)), 0);
	assert_int_equal(d.cells[0].st.time.s.n, 3);
	assert_true(d.cells[0].st.time.s.median == 6.0);
	assert_int_equal(d.samples_are_batches, 1);
	/* three samples: no interval; in JSON it is null, never 0 */
	j = doc_to_json(&d);
	c = json_array_get(json_object_get(j, "cells"), 0);
	assert_true(json_is_null(json_object_get(json_object_get(c, "statistics"), "ci_low")));
	assert_true(json_is_null(json_object_get(json_object_get(c, "cpu_statistics"), "stddev")));
	assert_non_null(
		strstr(json_string_value(json_object_get(json_object_get(j, "analysis"), "samples")), "batches"));
	text = json_dumps(j, JSON_COMPACT);
	assert_null(strstr(text, "NaN"));
	free(text);
	json_decref(j);
	doc_free(&d);
}

static const struct ratio_rec *ratio(const struct doc *d, const char *name)
{
	for (size_t i = 0; i < d->nratios; i++)
		if (strcmp(d->ratios[i].name, name) == 0)
			return &d->ratios[i];
	return NULL;
}

static void test_ratios_per_round(void **state)
{
	struct doc d;
	struct launch_rec *s = calloc(6, sizeof(*s)), *a = calloc(6, sizeof(*a));
	double b[1] = { 1 };
	const struct ratio_rec *wall, *cpu;
	char err[256];
	(void)state;

	fixture_doc(&d);
	for (int i = 0; i < 6; i++) {
		s[i] = fixture_launch(100 + i, 110, b, 1);
		a[i] = fixture_launch(3 * (100 + i), 660, b, 1); /* exactly 3x, round by round */
	}
	fixture_cell(&d, "archive", "sync", s, 6);
	fixture_cell(&d, "archive", "async", a, 6);
	assert_int_equal(analyse_document(&d, err, sizeof(err)), 0);
	wall = ratio(&d, "async/sync lib=archive wall");
	cpu = ratio(&d, "async/sync lib=archive cpu");
	assert_non_null(wall);
	assert_non_null(cpu);
	assert_true(wall->st.s.median > 2.999999 && wall->st.s.median < 3.000001);
	assert_true(wall->st.s.ci_lo > 2.999999);
	assert_true(cpu->st.s.median == 6.0);
	assert_string_equal(wall->numerator, "lib=archive/mode=async/work=noop/p=1");
	doc_free(&d);
}

static void test_no_async_ratio_when_async_fell_back(void **state)
{
	struct doc d;
	struct cell_rec *fallback;
	char err[256];
	(void)state;

	fixture_doc(&d);
	fixture_cell(&d, "archive", "sync", fixture_launches(3, 100, 0, 110), 3);
	fallback = fixture_cell(&d, "archive", "async", fixture_launches(3, 100, 0, 110), 3);
	snprintf(fallback->in_effect, sizeof(fallback->in_effect), "sync");
	assert_int_equal(analyse_document(&d, err, sizeof(err)), 0);
	assert_int_equal(d.nratios, 0);
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_launch_medians_are_the_samples),
		cmocka_unit_test(test_single_launch_uses_batches_and_null_for_undefined),
		cmocka_unit_test(test_ratios_per_round),
		cmocka_unit_test(test_no_async_ratio_when_async_fell_back),
	};
	return cmocka_run_group_tests_name("analysis", tests, NULL, NULL);
}
