/* test_decisions.c — the six decisions of hand-built documents
 * (analyse/decisions.c): a clear win, a clear loss, an interval that
 * straddles 1, too few samples for an interval, a paired run's estimate
 * over the launches' ratio, the allocators' verdicts, and nothing answered
 * that the document did not measure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "analyse/decisions.h"
#include "model_fixture.h"

/* A ratio over n launches, sample i = center * (1 + spread * jitter[i]). */
static void add_ratio(struct doc *d, const char *name, double center, double spread, size_t n)
{
	static const double jitter[12] = { -1.0, 0.8, -0.4, 0.2, 1.0, -0.6, 0.4, -0.2, 0.6, -0.8, 0.0, 0.1 };
	struct ratio_rec *r = model_append((void **)&d->ratios, &d->nratios, sizeof(*d->ratios));

	assert_non_null(r);
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->metric, sizeof(r->metric), "wall");
	r->samples = calloc(n, sizeof(double));
	r->nsamples = n;
	for (size_t i = 0; i < n; i++)
		r->samples[i] = center * (1.0 + spread * jitter[i % 12]);
	assert_int_equal(stats_summarize(r->samples, n, &r->st.s), 0);
	snprintf(r->st.unit, sizeof(r->st.unit), "ratio");
}

static void empty_doc(struct doc *d)
{
	fixture_doc(d);
	d->analysed = 1;
	d->ci_level = 0.95;
}

static const struct decision_rec *decided(struct doc *d, enum decision_key k)
{
	assert_int_equal(decide(d), 0);
	assert_int_equal(d->ndecisions, DECISION_KEYS);
	for (int i = 0; i < DECISION_KEYS; i++)
		assert_string_equal(d->decisions[i].key, decision_key_name((enum decision_key)i));
	return &d->decisions[k];
}

static void assert_not_measured(const struct decision_rec *r, const char *command)
{
	assert_false(r->measured);
	assert_string_equal(r->answer, "");
	assert_string_equal(r->figure, "");
	assert_string_equal(r->flips_when, "");
	assert_true(isnan(r->estimate) && isnan(r->low) && isnan(r->high));
	assert_string_equal(r->command, command);
}

/* async costs 2.3 times sync, every launch: leave it off; the answer says
 * the interval and what would flip it. */
static void test_clear_loss(void **state)
{
	struct doc d;
	const struct decision_rec *r;

	(void)state;
	empty_doc(&d);
	add_ratio(&d, "async/sync lib=archive wall", 2.3, 0.03, 10);
	r = decided(&d, DECISION_ASYNC);
	assert_true(r->measured);
	assert_string_equal(r->answer, "leave async off");
	assert_string_equal(r->figure, "async/sync lib=archive wall");
	assert_string_equal(r->command, "");
	assert_true(r->low > 1.0 && r->low <= r->estimate && r->estimate <= r->high);
	assert_true(fabs(r->estimate - 2.3) < 0.1);
	assert_non_null(strstr(r->flips_when, "fall below 1"));
	{
		char iv[64];
		snprintf(iv, sizeof(iv), "[%.3f, %.3f]", r->low, r->high);
		assert_non_null(strstr(r->flips_when, iv));
	}
	doc_free(&d);
}

/* c-shared at 0.8 of c-archive, every launch: use it. */
static void test_clear_win(void **state)
{
	struct doc d;
	const struct decision_rec *r;

	(void)state;
	empty_doc(&d);
	add_ratio(&d, "shared/archive mode=sync wall", 0.8, 0.02, 10);
	r = decided(&d, DECISION_LINK);
	assert_true(r->measured);
	assert_string_equal(r->answer, "use c-shared");
	assert_true(r->high < 1.0);
	assert_non_null(strstr(r->flips_when, "rise above 1"));
	/* the rest was not measured */
	assert_not_measured(&d.decisions[DECISION_ASYNC], "bench --compare");
	doc_free(&d);
}

/* An interval that holds 1, however far the median is from it: no
 * difference measured, and the two answers it would take on either side. */
static void test_straddling_interval(void **state)
{
	struct doc d;
	const struct decision_rec *r;

	(void)state;
	empty_doc(&d);
	add_ratio(&d, "go sync/c lib=archive wall", 1.05, 0.2, 10);
	r = decided(&d, DECISION_LANGUAGE);
	assert_true(r->low < 1.0 && r->high > 1.0);
	assert_true(r->measured);
	assert_string_equal(r->answer, DECISION_NO_DIFFERENCE);
	assert_non_null(strstr(r->flips_when, "holds 1"));
	assert_non_null(strstr(r->flips_when, "write it in Go"));
	assert_non_null(strstr(r->flips_when, "write it in C"));
	doc_free(&d);
}

/* Five launches give a median but no 95% interval: not an answer. */
static void test_too_few_samples(void **state)
{
	struct doc d;
	const struct decision_rec *r;

	(void)state;
	empty_doc(&d);
	add_ratio(&d, "reuse/alloc lib=archive mode=sync wall", 0.1, 0.01, 5);
	r = decided(&d, DECISION_POOLING);
	assert_true(r->measured);
	assert_string_equal(r->answer, DECISION_TOO_FEW);
	assert_string_equal(r->figure, "reuse/alloc lib=archive mode=sync wall");
	assert_true(isfinite(r->estimate));
	assert_true(isnan(r->low) && isnan(r->high));
	assert_non_null(strstr(r->flips_when, "5 samples"));
	doc_free(&d);
}

/* A document that measured nothing of the six: nothing answered, each
 * with the command that would measure it; the toolchain never. */
static void test_not_measured(void **state)
{
	struct doc d;

	(void)state;
	empty_doc(&d);
	/* a ratio that answers nothing */
	add_ratio(&d, "async/sync lib=archive cpu", 0.5, 0.01, 10);
	decided(&d, DECISION_ASYNC);
	assert_not_measured(&d.decisions[DECISION_ASYNC], "bench --compare");
	assert_not_measured(&d.decisions[DECISION_LINK], "bench --compare");
	assert_not_measured(&d.decisions[DECISION_LANGUAGE], "bench --compare");
	assert_not_measured(&d.decisions[DECISION_POOLING], "bench --scenario lifecycle --launches 10");
	assert_not_measured(&d.decisions[DECISION_MALLOC], "bench --allocators glibc,jemalloc,tcmalloc,mimalloc");
	assert_not_measured(&d.decisions[DECISION_TOOLCHAIN], "make matrix");
	assert_string_equal(d.decisions[DECISION_TOOLCHAIN].question, "Which Go toolchain?");
	/* decided twice: the same six, not twelve */
	assert_int_equal(decide(&d), 0);
	assert_int_equal(d.ndecisions, DECISION_KEYS);
	doc_free(&d);
}

/* A paired run answers from its paired estimate and interval, not from
 * the ratio over launches, which here says the opposite. */
static void test_paired_estimate(void **state)
{
	struct doc d;
	const struct decision_rec *r;
	struct pair_ratio_rec *pr;
	struct pair_cell_rec *pc;

	(void)state;
	empty_doc(&d);
	fixture_cell(&d, "archive", "sync", fixture_launches(6, 100, 1, 150), 6);
	fixture_cell(&d, "archive", "async", fixture_launches(6, 250, 1, 400), 6);
	for (size_t i = 0; i < d.ncells; i++) {
		d.cells[i].analysed = 1;
		d.cells[i].st.time.s.median = i == 0 ? 104.0 : 240.0;
	}
	add_ratio(&d, "async/sync lib=archive wall", 0.5, 0.01, 10);
	d.has_paired = 1;
	for (size_t i = 0; i < 2; i++) {
		pc = model_append((void **)&d.paired.cells, &d.paired.ncells, sizeof(*pc));
		snprintf(pc->name, sizeof(pc->name), "%s", d.cells[i].name);
	}
	pr = model_append((void **)&d.paired.ratios, &d.paired.nratios, sizeof(*pr));
	snprintf(pr->name, sizeof(pr->name), "async/sync lib=archive wall");
	pr->num = 1;
	pr->den = 0;
	pr->estimate = 2.33;
	pr->low = 2.21;
	pr->high = 2.45;
	pr->nsamples = 12;
	r = decided(&d, DECISION_ASYNC);
	assert_string_equal(r->answer, "leave async off");
	assert_true(r->estimate == 2.33 && r->low == 2.21 && r->high == 2.45);
	assert_non_null(strstr(r->flips_when, "(async 240.0 ns, sync 104.0 ns here)"));
	assert_non_null(strstr(r->flips_when, "[2.210, 2.450]"));
	doc_free(&d);
}

/* An allocator cell judged against glibc with the given change. */
static void judged_cell(struct doc *d, const char *allocator, double lo, double point, double hi, verdict_t v)
{
	struct cell_rec *c = fixture_cell(d, "archive", "sync", NULL, 0);

	snprintf(c->name + strlen(c->name), sizeof(c->name) - strlen(c->name), "/malloc=%s", allocator);
	snprintf(c->allocator, sizeof(c->allocator), "%s", allocator);
	c->has_vs_glibc = 1;
	c->vs_glibc.ch = (change_estimate){
		.lo = lo, .point = point, .hi = hi, .p = 0.001, .alpha = 0.05, .threshold = 0.05, .verdict = v
	};
}

static void test_allocators(void **state)
{
	struct doc d;
	const struct decision_rec *r;

	(void)state;
	/* the best improvement wins, whatever else regressed */
	empty_doc(&d);
	judged_cell(&d, "jemalloc", -0.12, -0.10, -0.08, VERDICT_IMPROVED);
	judged_cell(&d, "tcmalloc", -0.30, -0.20, -0.07, VERDICT_IMPROVED);
	judged_cell(&d, "mimalloc", 0.10, 0.20, 0.30, VERDICT_REGRESSED);
	r = decided(&d, DECISION_MALLOC);
	assert_true(r->measured);
	assert_string_equal(r->answer, "use tcmalloc");
	assert_non_null(strstr(r->figure, "malloc=tcmalloc vs glibc"));
	assert_true(fabs(r->estimate - 0.80) < 1e-12 && fabs(r->low - 0.70) < 1e-12 && fabs(r->high - 0.93) < 1e-12);
	assert_non_null(strstr(r->flips_when, "[-30.0%, -7.0%]"));
	doc_free(&d);

	/* every one costs more: keep glibc, naming the least regression */
	empty_doc(&d);
	judged_cell(&d, "jemalloc", 0.06, 0.08, 0.10, VERDICT_REGRESSED);
	judged_cell(&d, "mimalloc", 0.10, 0.20, 0.30, VERDICT_REGRESSED);
	r = decided(&d, DECISION_MALLOC);
	assert_string_equal(r->answer, "keep glibc");
	assert_non_null(strstr(r->flips_when, "jemalloc"));
	doc_free(&d);

	/* within the threshold band: no difference measured */
	empty_doc(&d);
	judged_cell(&d, "jemalloc", -0.04, -0.01, 0.02, VERDICT_NO_CHANGE);
	judged_cell(&d, "mimalloc", 0.10, 0.20, 0.30, VERDICT_REGRESSED);
	r = decided(&d, DECISION_MALLOC);
	assert_string_equal(r->answer, DECISION_NO_DIFFERENCE);
	assert_non_null(strstr(r->figure, "malloc=jemalloc"));
	doc_free(&d);

	/* judged, but no verdict: too few samples, no figure */
	empty_doc(&d);
	judged_cell(&d, "jemalloc", NAN, -0.01, NAN, VERDICT_UNDEFINED);
	r = decided(&d, DECISION_MALLOC);
	assert_true(r->measured);
	assert_string_equal(r->answer, DECISION_TOO_FEW);
	assert_string_equal(r->figure, "");
	assert_true(isnan(r->estimate));
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clear_loss),	    cmocka_unit_test(test_clear_win),
		cmocka_unit_test(test_straddling_interval), cmocka_unit_test(test_too_few_samples),
		cmocka_unit_test(test_not_measured),	    cmocka_unit_test(test_paired_estimate),
		cmocka_unit_test(test_allocators),
	};
	return cmocka_run_group_tests_name("decisions", tests, NULL, NULL);
}
