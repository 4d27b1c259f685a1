/* Unit tests of stats/change.c: the two-gate verdict on synthetic sample sets
 * with known answers, reproducible intervals, the report line. No timing. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/change.h"
#include "stats/shift.h"
#include "stats/stats.h"

#define N 50

/* n samples of center * (1 + spread * u), u uniform in [-1, 1). */
static void fill(double *x, size_t n, double center, double spread, uint64_t seed)
{
	stats_rng r;
	stats_rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++)
		x[i] = center * (1.0 + spread * (2.0 * stats_rng_uniform(&r) - 1.0));
}

static void assert_ordered(const change_estimate *e)
{
	assert_true(e->lo <= e->point && e->point <= e->hi);
}

/* Every position of an interval against the threshold band (t = 5%): wholly
 * above +t regressed (with the p gate); reaching +t without lying above it
 * inconclusive; wholly below +t a kind of no regression. */
static void test_gates(void **state)
{
	(void)state;
	const double a = 0.05, t = 0.05;
	assert_int_equal(compare_verdict(0.10, 0.30, 0.001, a, t), VERDICT_REGRESSED);
	assert_int_equal(compare_verdict(0.05, 0.30, 0.001, a, t), VERDICT_INCONCLUSIVE); /* on the edge: not beyond */
	assert_int_equal(compare_verdict(0.04, 0.30, 0.001, a, t), VERDICT_INCONCLUSIVE); /* straddles +t */
	assert_int_equal(compare_verdict(-0.10, 0.30, 0.5, a, t), VERDICT_INCONCLUSIVE);  /* wide: nothing ruled out */
	assert_int_equal(compare_verdict(0.01, 0.05, 0.001, a, t), VERDICT_INCONCLUSIVE); /* reaches +t exactly */
	assert_int_equal(compare_verdict(0.10, 0.30, 0.20, a, t), VERDICT_INCONCLUSIVE);  /* p gate fails */
	assert_int_equal(compare_verdict(0.10, 0.30, 0.05, a, t), VERDICT_INCONCLUSIVE);  /* p == alpha fails */
	assert_int_equal(compare_verdict(0.01, 0.03, 0.001, a, t), VERDICT_WITHIN_NOISE); /* inside the band */
	assert_int_equal(compare_verdict(-0.30, -0.04, 0.001, a, t), VERDICT_WITHIN_NOISE);
	assert_int_equal(compare_verdict(-0.02, 0.03, 0.5, a, t), VERDICT_NO_CHANGE);
	assert_int_equal(compare_verdict(-0.30, 0.049, 0.5, a, t), VERDICT_NO_CHANGE); /* below +t: ruled out */
	assert_int_equal(compare_verdict(-0.30, -0.10, 0.001, a, t), VERDICT_IMPROVED);
	assert_int_equal(compare_verdict(-0.30, -0.10, 0.20, a, t), VERDICT_NO_CHANGE); /* improved needs p too */
	assert_int_equal(compare_verdict(NAN, 0.30, 0.001, a, t), VERDICT_UNDEFINED);
	assert_int_equal(compare_verdict(0.10, 0.30, NAN, a, t), VERDICT_UNDEFINED);
	/* which verdicts rule a regression out */
	assert_true(verdict_passes(VERDICT_NO_CHANGE) && verdict_passes(VERDICT_WITHIN_NOISE) &&
		    verdict_passes(VERDICT_IMPROVED));
	assert_false(verdict_passes(VERDICT_REGRESSED) || verdict_passes(VERDICT_INCONCLUSIVE) ||
		     verdict_passes(VERDICT_UNDEFINED));
}

/* How much longer an inconclusive change would need, its interval shrinking
 * as 1/sqrt(n): below the threshold by the upper half, above by the lower. */
static void test_need_factor(void **state)
{
	(void)state;
	change_estimate below = { .lo = -0.02, .point = 0.0, .hi = 0.04, .threshold = 0.02 };
	change_estimate above = { .lo = 0.01, .point = 0.05, .hi = 0.09, .threshold = 0.02 };
	change_estimate on = { .lo = -0.01, .point = 0.02, .hi = 0.05, .threshold = 0.02 };
	assert_float_equal(change_need_factor(&below), 4.0, 1e-12);	   /* (0.04 / 0.02)^2 */
	assert_float_equal(change_need_factor(&above), 16.0 / 9.0, 1e-12); /* (0.04 / 0.03)^2 */
	assert_true(isnan(change_need_factor(&on)));
}

/* +20% with +-0.5% noise: far beyond a 5% threshold. */
static void test_regressed(void **state)
{
	(void)state;
	double b[N], c[N];
	fill(b, N, 100.0, 0.005, 1);
	fill(c, N, 120.0, 0.005, 2);
	change_estimate e;
	assert_int_equal(compare_change(b, N, c, N, 0.05, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_REGRESSED);
	assert_true(fabs(e.point - 0.20) < 0.01);
	assert_true(e.lo > 0.18 && e.hi < 0.22);
	assert_ordered(&e);
	assert_true(e.p < 1e-10);
	assert_true(e.seed == 42);
	assert_int_equal(e.resamples, COMPARE_RESAMPLES);
	assert_true(e.alpha == 0.05 && e.threshold == 0.05);
}

static void test_improved(void **state)
{
	(void)state;
	double b[N], c[N];
	fill(b, N, 100.0, 0.005, 3);
	fill(c, N, 80.0, 0.005, 4);
	change_estimate e;
	assert_int_equal(compare_change(b, N, c, N, 0.05, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_IMPROVED);
	assert_true(fabs(e.point + 0.20) < 0.01);
	assert_ordered(&e);
}

/* +2% with tight noise is significant but inside a 5% band; with a 1% band
 * the same samples are a regression. */
static void test_within_noise(void **state)
{
	(void)state;
	double b[N], c[N];
	fill(b, N, 100.0, 0.005, 5);
	fill(c, N, 102.0, 0.005, 6);
	change_estimate e;
	assert_int_equal(compare_change(b, N, c, N, 0.05, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_WITHIN_NOISE);
	assert_true(e.p < 0.05);
	assert_true(fabs(e.point - 0.02) < 0.005);
	assert_int_equal(compare_change(b, N, c, N, 0.01, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_REGRESSED);
}

/* Identical samples: U = mn/2 exactly, p = 1, change 0. */
static void test_identical(void **state)
{
	(void)state;
	double b[N];
	fill(b, N, 100.0, 0.02, 7);
	change_estimate e;
	assert_int_equal(compare_change(b, N, b, N, 0.05, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_NO_CHANGE);
	assert_true(e.point == 0.0);
	assert_true(e.p == 1.0);
	assert_true(e.lo < 0.0 && e.hi > 0.0);

	/* constant samples: every value tied, still p = 1 and a zero interval */
	double k[10];
	for (int i = 0; i < 10; i++)
		k[i] = 250.0;
	assert_int_equal(compare_change(k, 10, k, 10, 0.05, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_NO_CHANGE);
	assert_true(e.lo == 0.0 && e.point == 0.0 && e.hi == 0.0);
}

/* Interleaved sets (cur_k = base_k + 1 on a grid of step 2) differ by 1% at
 * most while spreading over +-30%: the rank test sees nothing. */
static void test_noisy_no_change(void **state)
{
	(void)state;
	double b[30], c[30];
	for (int k = 0; k < 30; k++) {
		b[k] = 70.0 + 2.0 * k;
		c[29 - k] = 71.0 + 2.0 * k;
	}
	change_estimate e;
	assert_int_equal(compare_change(b, 30, c, 30, 0.05, 0.05, 42, &e), 0);
	assert_true(e.p > 0.5);
	/* nothing detected, and nothing ruled out: the interval reaches +5% */
	assert_true(e.hi >= 0.05);
	assert_int_equal(e.verdict, VERDICT_INCONCLUSIVE);
	/* a wide enough band is ruled out */
	assert_int_equal(compare_change(b, 30, c, 30, 0.5, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_NO_CHANGE);
}

/* Below COMPARE_MIN_SAMPLES a side the bootstrap's interval does not hold
 * its level (simulated: 66% at 2 + 2, 92% at 4 + 4): none is given, and no
 * verdict, however large the change; 5 + 5 gives one. */
static void test_no_interval_below_five(void **state)
{
	(void)state;
	const double b[] = { 100, 101, 102, 103, 104 }, c[] = { 150, 151, 152, 153, 154 };
	change_estimate e;
	for (size_t n = 2; n < COMPARE_MIN_SAMPLES; n++) {
		assert_int_equal(compare_change(b, n, c, n, 0.05, 0.05, 42, &e), 0);
		assert_true(isnan(e.lo) && isnan(e.hi) && isnan(e.p));
		assert_int_equal(e.verdict, VERDICT_UNDEFINED);
	}
	assert_int_equal(COMPARE_MIN_SAMPLES, 5);
	assert_int_equal(compare_change(b, 5, c, 5, 0.05, 0.05, 42, &e), 0);
	assert_true(e.lo > 0.05 && e.p < 0.05);
	assert_int_equal(e.verdict, VERDICT_REGRESSED);
}

static void test_undefined(void **state)
{
	(void)state;
	const double b[] = { 100 }, c[] = { 120, 121 };
	change_estimate e;
	assert_int_equal(compare_change(b, 1, c, 2, 0.05, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_UNDEFINED);
	assert_true(isnan(e.lo) && isnan(e.hi) && isnan(e.p));
	assert_true(fabs(e.point - 0.205) < 1e-12); /* the medians exist */

	assert_int_equal(compare_change(c, 2, b, 1, 0.05, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_UNDEFINED);

	assert_int_equal(compare_change(NULL, 0, c, 2, 0.05, 0.05, 42, &e), 0);
	assert_int_equal(e.verdict, VERDICT_UNDEFINED);
	assert_true(isnan(e.point));
}

static void test_bad_input(void **state)
{
	(void)state;
	const double good[] = { 1, 2, 3 };
	const double neg[] = { 1, -2, 3 }, zero[] = { 1, 0, 3 }, nan[] = { 1, NAN, 3 }, inf[] = { 1, INFINITY, 3 };
	const double *bad[] = { neg, zero, nan, inf };
	change_estimate e;
	for (int i = 0; i < 4; i++) {
		errno = 0;
		assert_int_equal(compare_change(good, 3, bad[i], 3, 0.05, 0.05, 1, &e), -1);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(e.verdict, VERDICT_UNDEFINED);
		assert_int_equal(compare_change(bad[i], 3, good, 3, 0.05, 0.05, 1, &e), -1);
	}
	assert_int_equal(compare_change(good, 3, good, 3, -0.01, 0.05, 1, &e), -1);
	assert_int_equal(compare_change(good, 3, good, 3, NAN, 0.05, 1, &e), -1);
	assert_int_equal(compare_change(good, 3, good, 3, 0.05, 0.0, 1, &e), -1);
	assert_int_equal(compare_change(good, 3, good, 3, 0.05, 1.0, 1, &e), -1);
	assert_int_equal(compare_change(NULL, 3, good, 3, 0.05, 0.05, 1, &e), -1);
	assert_int_equal(compare_change(good, 3, good, 3, 0.05, 0.05, 1, NULL), -1);
	assert_int_equal(compare_change_resamples(good, 3, good, 3, 0.05, 0.05, 1, 10, &e), -1);
}

/* Same inputs and seed: bit-identical estimates; another seed moves the
 * interval of noisy samples. */
static void test_deterministic(void **state)
{
	(void)state;
	double b[N], c[N];
	fill(b, N, 100.0, 0.2, 8);
	fill(c, N, 103.0, 0.2, 9);
	change_estimate e1, e2, e3;
	assert_int_equal(compare_change(b, N, c, N, 0.05, 0.05, 123456789, &e1), 0);
	assert_int_equal(compare_change(b, N, c, N, 0.05, 0.05, 123456789, &e2), 0);
	assert_memory_equal(&e1.lo, &e2.lo, sizeof e1.lo);
	assert_memory_equal(&e1.hi, &e2.hi, sizeof e1.hi);
	assert_memory_equal(&e1.point, &e2.point, sizeof e1.point);
	assert_memory_equal(&e1.p, &e2.p, sizeof e1.p);
	assert_int_equal(e1.verdict, e2.verdict);
	assert_int_equal(compare_change(b, N, c, N, 0.05, 0.05, 987654321, &e3), 0);
	assert_true(e3.lo != e1.lo || e3.hi != e1.hi);
	assert_true(e3.point == e1.point && e3.p == e1.p); /* not resampled */
}

/* By simulation: exponential samples with scale 100 (base) and 110 (cur)
 * have a true change of the median of exactly +10%; the 95% interval must
 * cover it in at least 92% and at most 99.5% of trials (measured: 0.96-0.97).
 * Under no change, with a zero threshold, at most 6% of trials may be judged
 * a change (measured: 2-3%). Seeded, so deterministic. */
static void test_bootstrap_coverage(void **state)
{
	(void)state;
	const size_t ns[] = { 20, 50 };
	const int trials = 300;
	stats_rng r;
	stats_rng_seed(&r, 77);
	for (size_t s = 0; s < 2; s++) {
		size_t n = ns[s];
		int covered = 0, false_change = 0;
		for (int t = 0; t < trials; t++) {
			double b[N], c[N], c0[N];
			for (size_t i = 0; i < n; i++) {
				b[i] = -100.0 * log(1.0 - stats_rng_uniform(&r));
				double u = -log(1.0 - stats_rng_uniform(&r));
				c[i] = 110.0 * u;
				c0[i] = 100.0 * u;
			}
			change_estimate e;
			assert_int_equal(
				compare_change_resamples(b, n, c, n, 0.05, 0.05, (unsigned long long)t, 2000, &e), 0);
			covered += e.lo <= 0.10 && 0.10 <= e.hi;
			assert_int_equal(
				compare_change_resamples(b, n, c0, n, 0.0, 0.05, (unsigned long long)t, 2000, &e), 0);
			false_change += e.verdict == VERDICT_REGRESSED || e.verdict == VERDICT_IMPROVED;
		}
		double cov = (double)covered / trials, fp = (double)false_change / trials;
		if (!(cov >= 0.92 && cov <= 0.995 && fp <= 0.06))
			fail_msg("n=%zu: coverage %.3f, false changes %.3f", n, cov, fp);
	}
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The percentile interval against the exact bootstrap distribution. Base is
 * constant (every resample median is 100), cur = 100 200 ... 600: enumerating
 * all 6^6 resamples of cur gives the exact distribution of its median (the
 * mean of the 3rd and 4th smallest), whose 2.5% and 97.5% quantiles are 150
 * and 550 (CDF 0.0087 at 100, 0.0349 at 150; 0.9651 at 500, 0.9913 at 550),
 * so the interval must be [+50%, +450%]. The test first checks that the exact
 * CDF stays >= 0.005 away from the percentile on both sides, so that 10000
 * random resamples (sd of an empirical CDF about 0.002) land on the same value. */
static void test_bootstrap_exact(void **state)
{
	(void)state;
	const double base[] = { 100, 100, 100, 100, 100 }; /* COMPARE_MIN_SAMPLES, every resample's median 100 */
	const double cur[] = { 100, 200, 300, 400, 500, 600 };
	static double med[46656];
	size_t m = 0;
	for (int code = 0; code < 46656; code++) {
		double x[6];
		for (int i = 0, c = code; i < 6; i++, c /= 6)
			x[i] = cur[c % 6];
		qsort(x, 6, sizeof *x, cmp_d);
		med[m++] = (x[2] + x[3]) / 2.0;
	}
	qsort(med, m, sizeof *med, cmp_d);
	const double qs[] = { 0.025, 0.975 };
	double want[2];
	for (int k = 0; k < 2; k++) {
		size_t i = 0; /* the smallest value whose CDF reaches q */
		while ((double)(i + 1) / (double)m < qs[k])
			i++;
		double v = med[i];
		size_t below = 0, upto = 0;
		for (size_t j = 0; j < m; j++) {
			below += med[j] < v;
			upto += med[j] <= v;
		}
		assert_true((double)below / (double)m < qs[k] - 0.005);
		assert_true((double)upto / (double)m > qs[k] + 0.005);
		want[k] = v / 100.0 - 1.0;
	}
	assert_true(fabs(want[0] - 0.5) < 1e-12 && fabs(want[1] - 4.5) < 1e-12);

	change_estimate e;
	assert_int_equal(compare_change(base, 5, cur, 6, 0.05, 0.05, 42, &e), 0);
	assert_true(fabs(e.lo - want[0]) < 1e-12);
	assert_true(fabs(e.hi - want[1]) < 1e-12);
	assert_true(fabs(e.point - 2.5) < 1e-12); /* median 350 */
}

/* n samples of center * exp(sd * z), z about standard normal (the sum of
 * 12 uniforms). */
static void fill_lognormal(double *x, size_t n, double center, double sd, uint64_t seed)
{
	stats_rng r;
	stats_rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++) {
		double z = -6.0;
		for (int k = 0; k < 12; k++)
			z += stats_rng_uniform(&r);
		x[i] = center * exp(sd * z);
	}
}

/* Above COMPARE_BOOTSTRAP_MAX samples the interval is the distribution-free
 * one of the shift of logs. Where both can be computed they agree: each
 * contains the other's point, their ends differ by less than half the
 * bootstrap's width, and the verdicts are the same, for no change, a
 * change within the noise band and a regression. */
static void test_shift_agrees_with_bootstrap(void **state)
{
	(void)state;
	enum { M = 2000 };
	static double b[M], c[M];
	static const double factor[] = { 1.0, 1.02, 1.10, 0.90 };
	for (int i = 0; i < 4; i++) {
		change_estimate boot, shift;
		fill_lognormal(b, M, 100.0, 0.1, 11 + (uint64_t)i);
		fill_lognormal(c, M, 100.0 * factor[i], 0.1, 21 + (uint64_t)i);
		assert_int_equal(compare_change_resamples(b, M, c, M, 0.05, 0.05, 7, 2000, &boot), 0);
		assert_int_equal(compare_change_shift(b, M, c, M, 0.05, &shift), 0);
		assert_int_equal(shift.resamples, 0);
		assert_true(shift.point == boot.point && shift.p == boot.p);
		double width = boot.hi - boot.lo;
		assert_true(fabs(shift.lo - boot.lo) < width / 2 && fabs(shift.hi - boot.hi) < width / 2);
		assert_true(shift.lo <= boot.point && boot.point <= shift.hi);
		assert_true(shift.lo <= factor[i] - 1 && factor[i] - 1 <= shift.hi);
		assert_int_equal(shift.verdict, boot.verdict);
	}
	/* compare_change switches by size: below, the bootstrap; above, the shift */
	change_estimate e;
	assert_int_equal(compare_change(b, M, c, M, 0.05, 0.05, 7, &e), 0);
	assert_int_equal(e.resamples, COMPARE_RESAMPLES);
	double *big = malloc(6000 * sizeof(double)), *big2 = malloc(6000 * sizeof(double));
	assert_non_null(big);
	assert_non_null(big2);
	fill_lognormal(big, 6000, 100.0, 0.1, 5);
	fill_lognormal(big2, 6000, 120.0, 0.1, 6);
	assert_int_equal(compare_change(big, 6000, big2, 6000, 0.05, 0.05, 7, &e), 0);
	assert_int_equal(e.resamples, 0);
	assert_int_equal(e.verdict, VERDICT_REGRESSED);
	assert_true(e.lo < 0.2 && 0.2 < e.hi);
	free(big);
	free(big2);
}

static void test_sentences(void **state)
{
	(void)state;
	assert_string_equal(verdict_sentence(VERDICT_REGRESSED), "Performance has regressed.");
	assert_string_equal(verdict_sentence(VERDICT_IMPROVED), "Performance has improved.");
	assert_string_equal(verdict_sentence(VERDICT_NO_CHANGE), "No change in performance detected.");
	assert_string_equal(verdict_sentence(VERDICT_WITHIN_NOISE), "Change within noise threshold.");
	assert_string_equal(verdict_sentence(VERDICT_UNDEFINED),
			    "Too few samples to detect a change (need at least 5 on each side).");
	assert_string_equal(verdict_sentence(VERDICT_INCONCLUSIVE),
			    "Inconclusive: a change as large as the threshold is neither shown nor ruled out.");
	assert_string_equal(verdict_name(VERDICT_INCONCLUSIVE), "inconclusive");
	assert_string_equal(verdict_name(VERDICT_REGRESSED), "regressed");
	assert_string_equal(verdict_name(VERDICT_UNDEFINED), "undefined");
}

static void check_line(double lo, double pt, double hi, double p, double alpha, const char *want)
{
	change_estimate c = { lo, pt, hi, p, alpha, 0.05, 0, COMPARE_RESAMPLES, VERDICT_UNDEFINED };
	char buf[128];
	int n = format_change(buf, sizeof buf, &c);
	assert_string_equal(buf, want);
	assert_int_equal(n, (int)strlen(want));
}

static void test_format(void **state)
{
	(void)state;
	check_line(-0.0337, -0.0334, -0.0332, 0.001, 0.05, "change: [-3.37% -3.34% -3.32%] (p = 0.00 < 0.05)");
	check_line(-0.0337, -0.0334, -0.0332, 0.42, 0.05, "change: [-3.37% -3.34% -3.32%] (p = 0.42 > 0.05)");
	check_line(0.15, 0.20, 0.25, 0.0, 0.05, "change: [15.00% +20.00% 25.00%] (p = 0.00 < 0.05)");
	check_line(-0.01, 0.0, 0.01, 0.05, 0.05, "change: [-1.00% +0.00% 1.00%] (p = 0.05 > 0.05)");
	/* a p that rounds to alpha gets the digits that tell them apart
	 * (issue 36: "p = 0.05 < 0.05") */
	check_line(-0.01, 0.03, 0.07, 0.0496, 0.05, "change: [-1.00% +3.00% 7.00%] (p = 0.0496 < 0.05)");
	check_line(-0.01, 0.03, 0.07, 0.0504, 0.05, "change: [-1.00% +3.00% 7.00%] (p = 0.0504 > 0.05)");
	check_line(0.1, 0.2, 0.3, 0.00096, 0.001, "change: [10.00% +20.00% 30.00%] (p = 0.00096 < 0.001)");
	check_line(-0.00001, -0.00001, 0.00001, 1.0, 0.05, "change: [0.00% +0.00% 0.00%] (p = 1.00 > 0.05)");
	check_line(NAN, NAN, NAN, NAN, 0.05, "change: [n/a n/a n/a] (p = n/a > 0.05)");
	check_line(NAN, 0.205, NAN, NAN, 0.05, "change: [n/a +20.50% n/a] (p = n/a > 0.05)");
	check_line(0.1, 0.2, INFINITY, 0.0004, 0.001, "change: [10.00% +20.00% n/a] (p = 0.000 < 0.001)");
	check_line(1.5, 2.0, 2.5, 0.0, 0.01, "change: [150.00% +200.00% 250.00%] (p = 0.00 < 0.01)");
	/* found by make fuzz: samples of 1e-213 against 1 made a change of
	 * 1e163%, whose %.2f did not fit any line */
	check_line(1.11111e161, 3.33333e161, 2e213, 0.333, 0.05,
		   "change: [1.11e+163% +3.33e+163% 2.00e+215%] (p = 0.33 > 0.05)");
	check_line(-0.5, 9999.99, 10000.0, 0.0, 0.05, "change: [-50.00% +999999.00% 1.00e+06%] (p = 0.00 < 0.05)");
	change_estimate worst = { -1e300, 1e300, DBL_MAX, 0.5, 0.05, 0.05, 0, COMPARE_RESAMPLES, VERDICT_NO_CHANGE };
	char line80[80];
	assert_int_equal(format_change(line80, sizeof line80, &worst), 55);
	assert_string_equal(line80, "change: [-1.00e+302% +1.00e+302% n/a] (p = 0.50 > 0.05)");

	change_estimate c = { -0.0337, -0.0334, -0.0332, 0.001, 0.05, 0.05, 0, COMPARE_RESAMPLES, VERDICT_IMPROVED };
	char small[48]; /* the line needs 49 bytes with its NUL */
	assert_int_equal(format_change(small, sizeof small, &c), -1);
	char exact[49];
	assert_int_equal(format_change(exact, sizeof exact, &c), 48);
	assert_int_equal(format_change(NULL, 10, &c), -1);
	assert_int_equal(format_change(exact, sizeof exact, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gates),		cmocka_unit_test(test_need_factor),
		cmocka_unit_test(test_regressed),	cmocka_unit_test(test_improved),
		cmocka_unit_test(test_within_noise),	cmocka_unit_test(test_identical),
		cmocka_unit_test(test_noisy_no_change), cmocka_unit_test(test_no_interval_below_five),
		cmocka_unit_test(test_undefined),	cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_deterministic),	cmocka_unit_test(test_bootstrap_coverage),
		cmocka_unit_test(test_bootstrap_exact), cmocka_unit_test(test_shift_agrees_with_bootstrap),
		cmocka_unit_test(test_sentences),	cmocka_unit_test(test_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
