/* test_sequential.c — the group-sequential design of a paired --against
 * (stats/sequential.c): its schedule, its alpha spending, and by
 * simulation that stopping at the first decisive look keeps both error
 * rates, where the naive rule (a 95% interval looked at after every
 * generation) does not. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "stats/change.h"
#include "stats/sequential.h"
#include "stats/signrank.h"
#include "stats/stats.h"

/* 12, 15, 19, 24, 30, 38, 48: each 25% past the one before, none at or
 * past nmax; K counts them and the final. */
static void test_schedule(void **state)
{
	struct seq_design d;
	const size_t looks[] = { 12, 15, 19, 24, 30, 38, 48 };
	size_t n = 0;

	(void)state;
	seq_init(&d, 12, 50, 0.05);
	for (size_t k = 1; k <= 60; k++)
		if (seq_is_look(&d, k)) {
			assert_true(n < sizeof(looks) / sizeof(looks[0]));
			assert_int_equal(k, looks[n++]);
		}
	assert_int_equal(n, 7);
	assert_int_equal(d.nlooks, 8);
	/* a look at nmax is the final's, not a scheduled one */
	seq_init(&d, 12, 30, 0.05);
	assert_false(seq_is_look(&d, 30));
	assert_int_equal(d.nlooks, 5);
	/* a budget below the first look: one look, the final */
	seq_init(&d, 12, 8, 0.05);
	assert_int_equal(d.nlooks, 1);
	assert_false(seq_is_look(&d, 12));
}

/* alpha / K at each scheduled look, the rest at the final; never more than
 * alpha in all, however the looks are taken. */
static void test_spending(void **state)
{
	struct seq_design d;

	(void)state;
	seq_init(&d, 12, 30, 0.05); /* looks 12, 15, 19, 24 and the final */
	for (int k = 0; k < 4; k++)
		assert_float_equal(seq_take(&d, 0), 0.01, 1e-15);
	assert_float_equal(seq_take(&d, 0), 0.0, 1e-15); /* past the schedule: nothing left to spend */
	assert_float_equal(seq_take(&d, 1), 0.01, 1e-12);
	assert_true(d.spent <= 0.05 + 1e-15);
	/* time ran out after two looks: the final takes the three left */
	seq_init(&d, 12, 30, 0.05);
	seq_take(&d, 0);
	seq_take(&d, 0);
	assert_float_equal(seq_take(&d, 1), 0.03, 1e-12);
	assert_float_equal(d.spent, 0.05, 1e-12);
}

/* A standard normal draw (Box-Muller). */
static double normal(stats_rng *r)
{
	double u = stats_rng_uniform(r), v = stats_rng_uniform(r);
	return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * M_PI * v);
}

/* A generation's log ratio: symmetric about shift, heavier-tailed than a
 * normal (one in ten generations three times as noisy), as generations of
 * an async cell on a shared machine are. */
static double generation(stats_rng *r, double shift)
{
	double sd = stats_rng_uniform(r) < 0.1 ? 0.09 : 0.03;
	return shift + sd * normal(r);
}

/* One look at x[0..n): the verdict of the interval at 1 - a. */
static verdict_t look(const double *x, size_t n, double a, double threshold)
{
	struct signrank_ci ci;
	struct signrank sr;

	assert_int_equal(signrank_interval(x, n, 1.0 - a, &ci), 0);
	assert_int_equal(signrank_test(x, n, &sr), 0);
	return compare_verdict(exp(ci.lo) - 1.0, exp(ci.hi) - 1.0, sr.p, a, threshold);
}

#define RUNS  1000
#define NMAX  30
#define FIRST 12

/* One run: generations arrive until a look decides or NMAX is reached;
 * sequential uses the design, else every generation from FIRST on is
 * looked at with a 95% interval (the naive rule). The verdict it ends on. */
static verdict_t run(stats_rng *r, double shift, double threshold, int sequential)
{
	double x[NMAX];
	struct seq_design d;
	verdict_t v = VERDICT_UNDEFINED;

	seq_init(&d, FIRST, NMAX, 0.05);
	for (size_t n = 1; n <= NMAX; n++) {
		int final = n == NMAX;
		x[n - 1] = generation(r, shift);
		if (sequential && (final || seq_is_look(&d, n)))
			v = look(x, n, seq_take(&d, final), threshold);
		else if (!sequential && n >= FIRST)
			v = look(x, n, 0.05, threshold);
		else
			continue;
		if (v == VERDICT_REGRESSED || verdict_passes(v))
			break;
	}
	return v;
}

/* The rates of a rule over RUNS runs: how often it ended regressed, and
 * how often it ended ruling a regression out. */
static void rates(double shift, double threshold, int sequential, double *regressed, double *passed)
{
	stats_rng r;
	int nr = 0, np = 0;

	stats_rng_seed(&r, 20261204);
	for (int i = 0; i < RUNS; i++) {
		verdict_t v = run(&r, shift, threshold, sequential);
		nr += v == VERDICT_REGRESSED;
		np += verdict_passes(v);
	}
	*regressed = (double)nr / RUNS;
	*passed = (double)np / RUNS;
}

/* A/A judged against a threshold of 0 (any regression found is false): the
 * design keeps the false alarms under alpha / 2 (one side of a two-sided
 * interval) within the simulation's error; the naive rule does not. */
static void test_false_alarms(void **state)
{
	double seq_r, seq_p, naive_r, naive_p;

	(void)state;
	rates(0.0, 0.0, 1, &seq_r, &seq_p);
	rates(0.0, 0.0, 0, &naive_r, &naive_p);
	print_message("A/A at threshold 0: false alarms %.3f sequential, %.3f naive\n", seq_r, naive_r);
	assert_true(seq_r <= 0.025 + 3 * sqrt(0.025 * 0.975 / RUNS));
	assert_true(naive_r > 0.05);
}

/* A change exactly as large as the threshold (+2%): judging it "no
 * regression" is a wrong pass; the design keeps those under alpha / 2, the
 * naive rule does not. */
static void test_wrong_passes(void **state)
{
	double seq_r, seq_p, naive_r, naive_p;

	(void)state;
	rates(log(1.02), 0.02, 1, &seq_r, &seq_p);
	rates(log(1.02), 0.02, 0, &naive_r, &naive_p);
	print_message("+2%% at threshold 2%%: wrong passes %.3f sequential, %.3f naive\n", seq_p, naive_p);
	assert_true(seq_p <= 0.025 + 3 * sqrt(0.025 * 0.975 / RUNS));
	assert_true(naive_p > 0.05);
}

/* And it still decides: +10% is found regressed, A/A at a 5% band ruled
 * out, in most runs, most of them before the last generation. */
static void test_power(void **state)
{
	double r, p;

	(void)state;
	rates(log(1.10), 0.02, 1, &r, &p);
	assert_true(r > 0.9);
	rates(0.0, 0.05, 1, &r, &p);
	assert_true(p > 0.9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule),     cmocka_unit_test(test_spending),
		cmocka_unit_test(test_false_alarms), cmocka_unit_test(test_wrong_passes),
		cmocka_unit_test(test_power),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
