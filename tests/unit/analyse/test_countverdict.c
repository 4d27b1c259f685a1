/* test_countverdict.c — the counting gate's verdict (compare_counts): the
 * instructions per extraction of both builds' cell, one sample a pair of
 * counted runs, through the same two gates as every change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyse/verdict.h"
#include "model_fixture.h"

/* A counted cell (no launches: nothing timed) with n pairs about 1080 *
 * scale instructions per extraction, the run-to-run spread of -n 100000
 * (0.3% range). */
static void counted(struct doc *d, double scale, size_t n, size_t shift)
{
	static const double jitter[8] = { 0.9991, 1.0012, 0.9998, 1.0007, 0.9989, 1.0003, 1.0010, 0.9995 };
	struct cell_rec *c;

	fixture_doc(d);
	c = fixture_cell(d, "archive", "sync", NULL, 0);
	c->has_counts = 1;
	c->counts.has_instructions = 1;
	c->counts.instructions.npairs = n;
	for (size_t i = 0; i < n; i++)
		c->counts.instructions.per_pair[i] = 1080.0 * scale * jitter[(i + shift) % 8];
}

static const struct change_rec *gate(double scale, size_t n, struct doc *cur)
{
	struct doc base;

	counted(&base, 1, n, 0);
	counted(cur, scale, n, 3);
	assert_int_equal(compare_counts(&base, cur, "other/bench", 0.005, 1, 5), 0);
	doc_free(&base);
	assert_int_equal(cur->comparison.nchanges, 1);
	return &cur->comparison.changes[0];
}

static void test_same_counts_no_regression(void **state)
{
	struct doc cur;
	const struct change_rec *c = gate(1, 5, &cur);

	(void)state;
	assert_string_equal(c->metric, "instructions");
	assert_string_equal(c->kind, "cell");
	assert_int_equal(c->gated, 1);
	assert_int_equal(c->n, 5);
	assert_int_equal(c->base_n, 5);
	/* the samples judged are kept with the change, for the reports */
	assert_true(c->samples[0] == cur.cells[0].counts.instructions.per_pair[0]);
	assert_true(c->base_samples[4] > 1078 && c->base_samples[4] < 1082);
	assert_int_not_equal(c->ch.verdict, VERDICT_REGRESSED);
	assert_int_equal(cur.comparison.regressed, 0);
	assert_int_equal(cur.comparison.same_time, 1);
	assert_string_equal(cur.comparison.undefined_because, "");
	doc_free(&cur);
}

static void test_one_percent_more_regresses(void **state)
{
	struct doc cur;
	const struct change_rec *c = gate(1.01, 5, &cur);

	(void)state;
	assert_int_equal(c->ch.verdict, VERDICT_REGRESSED);
	assert_true(c->ch.lo > 0.005 && c->ch.point > 0.008 && c->ch.point < 0.012);
	assert_true(c->ch.p < 0.05);
	assert_int_equal(cur.comparison.regressed, 1);
	doc_free(&cur);
}

/* +0.4%: every pair above the base (p small), but the interval reaches
 * 0.5% without lying above it: inconclusive, never "no regression" */
static void test_near_threshold_is_inconclusive(void **state)
{
	struct doc cur;
	const struct change_rec *c = gate(1.004, 5, &cur);

	(void)state;
	assert_true(c->ch.p < 0.05);
	assert_true(c->ch.lo < 0.005 && c->ch.hi >= 0.005);
	assert_int_equal(c->ch.verdict, VERDICT_INCONCLUSIVE);
	assert_int_equal(cur.comparison.regressed, 0);
	assert_int_equal(cur.comparison.inconclusive, 1);
	assert_true(cur.comparison.need_factor > 1);
	doc_free(&cur);
}

/* +0.1%: the whole interval below 0.5%, a regression that large ruled out */
static void test_below_threshold_passes(void **state)
{
	struct doc cur;
	const struct change_rec *c = gate(1.001, 5, &cur);

	(void)state;
	assert_true(c->ch.hi < 0.005);
	assert_true(verdict_passes(c->ch.verdict));
	assert_int_equal(cur.comparison.regressed, 0);
	assert_int_equal(cur.comparison.inconclusive, 0);
	doc_free(&cur);
}

static void test_too_few_pairs_is_no_verdict(void **state)
{
	struct doc cur;
	const struct change_rec *c = gate(1.05, 4, &cur);
	char sentence[128];

	(void)state;
	assert_int_equal(c->ch.verdict, VERDICT_UNDEFINED);
	assert_int_equal(cur.comparison.regressed, 0);
	assert_string_equal(cur.comparison.undefined_because, "too few pairs of counted runs for a verdict: 4 of 5");
	assert_string_equal(change_sentence(c, sentence, sizeof(sentence)), "Too few pairs for a verdict (4 of 5).");
	/* no evidence either way: inconclusive, and 5 / 4 the pairs would do */
	assert_int_equal(cur.comparison.inconclusive, 1);
	assert_float_equal(cur.comparison.need_factor, 1.25, 1e-12);
	doc_free(&cur);
}

static void test_uncounted_side_is_not_compared(void **state)
{
	struct doc base, cur;

	(void)state;
	counted(&base, 1, 5, 0);
	counted(&cur, 1.05, 5, 0);
	base.cells[0].counts.has_instructions = 0;
	assert_int_equal(compare_counts(&base, &cur, "other/bench", 0.005, 1, 5), 0);
	assert_int_equal(cur.comparison.nchanges, 0);
	assert_int_equal(cur.comparison.regressed, 0);
	doc_free(&base);
	doc_free(&cur);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_counts_no_regression),
		cmocka_unit_test(test_one_percent_more_regresses),
		cmocka_unit_test(test_near_threshold_is_inconclusive),
		cmocka_unit_test(test_below_threshold_passes),
		cmocka_unit_test(test_too_few_pairs_is_no_verdict),
		cmocka_unit_test(test_uncounted_side_is_not_compared),
	};
	return cmocka_run_group_tests_name("countverdict", tests, NULL, NULL);
}
