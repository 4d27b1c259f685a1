/* test_verdict.c — the verdict of one document against another: both gates,
 * what is gated when the machine keys differ, and --against. */
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

/* An analysed-looking document: one cell and one ratio with 12 samples of
 * about +-1% jitter around 100 * cell_scale and 3 * ratio_scale. */
static void doc(struct doc *d, const char *key, double cell_scale, double ratio_scale)
{
	static const double jitter[12] = { 0.995, 1.004, 0.998, 1.009, 0.991, 1.002,
					   1.006, 0.997, 1.001, 0.993, 1.008, 0.999 };
	struct cell_rec *c;
	struct ratio_rec *r;

	fixture_doc(d);
	c = fixture_cell(d, "archive", "async", NULL, 0);
	r = model_append((void **)&d->ratios, &d->nratios, sizeof(*d->ratios));
	snprintf(c->st.key, sizeof(c->st.key), "%s", key);
	snprintf(r->name, sizeof(r->name), "async/sync lib=archive wall");
	c->analysed = d->analysed = 1;
	c->st.samples = calloc(12, sizeof(double));
	r->samples = calloc(12, sizeof(double));
	c->st.nsamples = r->nsamples = 12;
	for (int i = 0; i < 12; i++) {
		c->st.samples[i] = 100.0 * cell_scale * jitter[i];
		r->samples[i] = 3.0 * ratio_scale * jitter[(i + 5) % 12];
	}
}

static const struct change_rec *change(const struct doc *d, const char *kind)
{
	for (size_t i = 0; i < d->comparison.nchanges; i++)
		if (strcmp(d->comparison.changes[i].kind, kind) == 0)
			return &d->comparison.changes[i];
	return NULL;
}

static void judge(double cell_b, double ratio_b, const char *key_b, int same_time, struct doc *cur)
{
	struct doc base;
	doc(&base, "k", 1, 1);
	doc(cur, key_b, cell_b, ratio_b);
	assert_int_equal(compare_documents(&base, cur, "base.json", same_time, 0.05, 1), 0);
	doc_free(&base);
}

static void test_identical_is_no_regression(void **state)
{
	struct doc d;
	(void)state;
	judge(1, 1, "k", 0, &d);
	assert_int_equal(d.comparison.regressed, 0);
	assert_int_equal(change(&d, "cell")->ch.verdict, VERDICT_NO_CHANGE);
	assert_true(change(&d, "cell")->gated);
	assert_true(d.comparison.alpha == VERDICT_ALPHA);
	doc_free(&d);
}

static void test_threefold_slowdown_regresses(void **state)
{
	struct doc d;
	(void)state;
	judge(3, 3, "k", 0, &d);
	assert_int_equal(d.comparison.regressed, 1);
	assert_int_equal(change(&d, "cell")->ch.verdict, VERDICT_REGRESSED);
	assert_int_equal(change(&d, "ratio")->ch.verdict, VERDICT_REGRESSED);
	assert_true(change(&d, "cell")->ch.lo > 1.5);
	assert_non_null(strstr(change(&d, "cell")->line, "change: ["));
	doc_free(&d);
}

/* Another machine: absolute times are reported but not gated; ratios are. */
static void test_other_machine_judged_by_ratios(void **state)
{
	struct doc d;
	(void)state;
	judge(3, 1, "machine B", 0, &d);
	assert_int_equal(d.comparison.regressed, 0); /* 3x slower cell, same ratio: not a regression */
	assert_false(change(&d, "cell")->gated);
	assert_int_equal(change(&d, "cell")->ch.verdict, VERDICT_REGRESSED);
	assert_true(change(&d, "cell")->not_gated_because[0] != '\0');
	assert_false(d.comparison.machine_key_matches);
	doc_free(&d);
	/* the same, interleaved in one run (--against): absolute times gated */
	judge(3, 1, "machine B", 1, &d);
	assert_int_equal(d.comparison.regressed, 1);
	doc_free(&d);
	/* and a ratio that moved is caught on another machine too */
	judge(1, 1.3, "machine B", 0, &d);
	assert_int_equal(d.comparison.regressed, 1);
	doc_free(&d);
}

static void test_small_change_within_noise(void **state)
{
	struct doc d;
	(void)state;
	judge(1.02, 1, "k", 0, &d);
	assert_int_equal(d.comparison.regressed, 0);
	assert_int_equal(change(&d, "cell")->ch.verdict, VERDICT_WITHIN_NOISE);
	doc_free(&d);
}

/* --against (one run, two builds): a threefold slowdown seen in fewer
 * than VERDICT_MIN_GENERATIONS launches a side is no verdict, and never
 * "no regression"; from the minimum on it is one. */
static void test_too_few_generations_is_no_verdict(void **state)
{
	struct doc base, cur;
	char sentence[128];
	(void)state;
	doc(&base, "k", 1, 1);
	doc(&cur, "k", 3, 3);
	base.cells[0].st.nsamples = cur.cells[0].st.nsamples = 6;
	base.ratios[0].nsamples = cur.ratios[0].nsamples = 6;
	assert_int_equal(compare_documents(&base, &cur, "other/bench", 1, 0.05, 1), 0);
	assert_int_equal(cur.comparison.regressed, 0);
	assert_int_equal(cur.comparison.min_samples, VERDICT_MIN_GENERATIONS);
	assert_string_equal(cur.comparison.undefined_because, "too few generations for a verdict: 6 of 12");
	assert_int_equal(change(&cur, "cell")->ch.verdict, VERDICT_UNDEFINED);
	assert_int_equal(change(&cur, "ratio")->ch.verdict, VERDICT_UNDEFINED);
	/* the figures stay: a 200% change, printed */
	assert_true(change(&cur, "cell")->ch.point > 1.5);
	assert_string_equal(change_sentence(change(&cur, "cell"), sentence, sizeof(sentence)),
			    "Too few generations for a verdict (6 of 12).");
	doc_free(&cur);
	doc_free(&base);
	/* twelve a side: the verdict stands */
	judge(3, 3, "k", 1, &cur);
	assert_int_equal(cur.comparison.regressed, 1);
	assert_string_equal(cur.comparison.undefined_because, "");
	assert_string_equal(change_sentence(change(&cur, "cell"), sentence, sizeof(sentence)),
			    "Performance has regressed.");
	doc_free(&cur);
	/* a baseline (another time) keeps its own rule: 2 a side */
	judge(3, 3, "k", 0, &cur);
	assert_int_equal(cur.comparison.min_samples, 0);
	assert_int_equal(cur.comparison.regressed, 1);
	doc_free(&cur);
}

/* verdict_require alone: one side short is enough to undefine a change,
 * and a change with enough samples keeps its regression. */
static void test_require_counts_the_shorter_side(void **state)
{
	struct comparison_rec cmp;
	struct change_rec ch[2];
	(void)state;
	memset(&cmp, 0, sizeof(cmp));
	memset(ch, 0, sizeof(ch));
	ch[0].gated = ch[1].gated = 1;
	ch[0].ch.verdict = ch[1].ch.verdict = VERDICT_REGRESSED;
	ch[0].base_n = 20, ch[0].n = 11;
	ch[1].base_n = 12, ch[1].n = 12;
	cmp.changes = ch;
	cmp.nchanges = 2;
	verdict_require(&cmp, 12);
	assert_int_equal(ch[0].ch.verdict, VERDICT_UNDEFINED);
	assert_int_equal(ch[1].ch.verdict, VERDICT_REGRESSED);
	assert_int_equal(cmp.regressed, 1);
	assert_string_equal(cmp.undefined_because, "too few generations for a verdict: 11 of 12");
	ch[1].ch.verdict = VERDICT_NO_CHANGE;
	verdict_require(&cmp, 12);
	assert_int_equal(cmp.regressed, 0);
	assert_string_equal(cmp.undefined_because, "too few generations for a verdict: 11 of 12");
	ch[0].n = 12;
	ch[0].ch.verdict = VERDICT_NO_CHANGE;
	verdict_require(&cmp, 12);
	assert_string_equal(cmp.undefined_because, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical_is_no_regression),
		cmocka_unit_test(test_threefold_slowdown_regresses),
		cmocka_unit_test(test_other_machine_judged_by_ratios),
		cmocka_unit_test(test_small_change_within_noise),
		cmocka_unit_test(test_too_few_generations_is_no_verdict),
		cmocka_unit_test(test_require_counts_the_shorter_side),
	};
	return cmocka_run_group_tests_name("verdict", tests, NULL, NULL);
}
