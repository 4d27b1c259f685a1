/* Unit tests of c/stats.c on fixed inputs with independently known answers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/stats.h"

#define EPS 1e-12

static void assert_close(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.17g, want %.17g (tolerance %g)", got, want, tol);
}

/* R: quantile(1:4) -> 1.00 1.75 2.50 3.25 4.00 (type 7 by hand: h = 3q). */
static void test_quantile_four(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3, 4 };
	assert_close(stats_quantile_sorted(x, 4, 0.0), 1.0, EPS);
	assert_close(stats_quantile_sorted(x, 4, 0.25), 1.75, EPS);
	assert_close(stats_quantile_sorted(x, 4, 0.5), 2.5, EPS);
	assert_close(stats_quantile_sorted(x, 4, 0.75), 3.25, EPS);
	assert_close(stats_quantile_sorted(x, 4, 1.0), 4.0, EPS);
}

/* x = 3 1 4 1 5 9 2 6 5 3, sorted 1 1 2 3 3 4 5 5 6 9; h = 9q:
 * q=.1: h=.9 -> 1 + .9*0 = 1;  q=.25: h=2.25 -> 2 + .25*1 = 2.25;
 * q=.5: h=4.5 -> 3 + .5*1 = 3.5;  q=.75: h=6.75 -> 5 + .75*0 = 5;
 * q=.9: h=8.1 -> 6 + .1*3 = 6.3. (R prints 1.00 2.25 3.50 5.00 6.30.) */
static void test_quantile_ten(void **state)
{
	(void)state;
	double x[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 };
	stats_sort(x, 10);
	assert_close(stats_quantile_sorted(x, 10, 0.1), 1.0, EPS);
	assert_close(stats_quantile_sorted(x, 10, 0.25), 2.25, EPS);
	assert_close(stats_quantile_sorted(x, 10, 0.5), 3.5, EPS);
	assert_close(stats_quantile_sorted(x, 10, 0.75), 5.0, EPS);
	assert_close(stats_quantile_sorted(x, 10, 0.9), 6.3, 1e-12);
}

static void test_quantile_undefined(void **state)
{
	(void)state;
	const double x[] = { 7 };
	assert_true(isnan(stats_quantile_sorted(x, 0, 0.5)));
	assert_true(isnan(stats_quantile_sorted(x, 1, -0.1)));
	assert_true(isnan(stats_quantile_sorted(x, 1, 1.5)));
	assert_true(isnan(stats_quantile_sorted(x, 1, NAN)));
	assert_close(stats_quantile_sorted(x, 1, 0.3), 7.0, 0);
}

static void test_median(void **state)
{
	(void)state;
	const double odd[] = { 9, 1, 5, 3, 7 };
	const double even[] = { 4, 8, 1, 2, 9, 6 };	 /* sorted 1 2 4 6 8 9 */
	const double dup[] = { 2, 2, 2, 1, 3, 2, 2, 5 }; /* sorted 1 2 2 2 2 2 3 5 */
	assert_close(stats_median(odd, 5), 5.0, 0);
	assert_close(stats_median(even, 6), 5.0, 0);
	assert_close(stats_median(dup, 8), 2.0, 0);
	assert_true(isnan(stats_median(odd, 0)));
}

/* Classic example: 2 4 4 4 5 5 7 9 has mean 5, population sd 2, so sample
 * sd sqrt(32/7). Sorted, n = 8: q1 h=1.75 -> 4, median 4.5, q3 h=5.25 ->
 * 5 + .25*2 = 5.5; IQR 1.5, so the mild fences are 1.75 and 7.75 (severe:
 * -0.5 and 10): 9 is a mild high outlier. The 95% median interval for n = 8
 * is [X(1), X(8)] with coverage 1 - 2/256. */
static void test_summary_basic(void **state)
{
	(void)state;
	double x[] = { 5, 2, 9, 4, 4, 7, 4, 5 };
	double copy[8];
	memcpy(copy, x, sizeof x);
	stats_summary s;
	assert_int_equal(stats_summarize(x, 8, &s), 0);
	assert_memory_equal(x, copy, sizeof x); /* input untouched */
	assert_int_equal(s.n, 8);
	assert_close(s.mean, 5.0, EPS);
	assert_close(s.stddev, sqrt(32.0 / 7.0), EPS);
	assert_close(s.min, 2.0, 0);
	assert_close(s.max, 9.0, 0);
	assert_close(s.median, 4.5, EPS);
	assert_close(s.q1, 4.0, EPS);
	assert_close(s.q3, 5.5, EPS);
	assert_close(s.ci_lo, 2.0, 0);
	assert_close(s.ci_hi, 9.0, 0);
	assert_close(s.ci_level, 1.0 - 2.0 / 256.0, EPS);
	assert_int_equal(s.high_mild, 1);
	assert_int_equal(s.low_severe + s.low_mild + s.high_severe, 0);
}

static void test_summary_undefined(void **state)
{
	(void)state;
	stats_summary s;
	assert_int_equal(stats_summarize(NULL, 0, &s), 0);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median) && isnan(s.mean) && isnan(s.stddev));
	assert_true(isnan(s.min) && isnan(s.max) && isnan(s.q1) && isnan(s.q3));
	assert_true(isnan(s.ci_lo) && isnan(s.ci_hi) && isnan(s.ci_level));

	const double one[] = { 42.0 };
	assert_int_equal(stats_summarize(one, 1, &s), 0);
	assert_close(s.median, 42.0, 0);
	assert_close(s.mean, 42.0, 0);
	assert_close(s.min, 42.0, 0);
	assert_true(isnan(s.stddev)); /* needs two samples, never 0 */
	assert_true(isnan(s.ci_lo) && isnan(s.ci_level));

	/* five samples: [min, max] covers only 93.75%, so no interval */
	const double five[] = { 1, 2, 3, 4, 5 };
	assert_int_equal(stats_summarize(five, 5, &s), 0);
	assert_true(isnan(s.ci_lo) && isnan(s.ci_hi) && isnan(s.ci_level));
	assert_close(s.stddev, sqrt(2.5), EPS);

	const double withnan[] = { 1, NAN, 3 };
	assert_int_equal(stats_summarize(withnan, 3, &s), 0);
	assert_int_equal(s.n, 3);
	assert_true(isnan(s.median) && isnan(s.mean));
}

/* Order-statistic ranks against the binomial table (sum of C(n,i)/2^n,
 * e.g. n=10: P(B<=1) = 11/1024, coverage 1 - 22/1024 = 0.978515625;
 * rank 3 would give 1 - 112/1024 = 0.890625 < 0.95). */
static void test_ci_ranks(void **state)
{
	(void)state;
	size_t lo, hi;
	double cov;
	assert_int_equal(stats_median_ci_ranks(5, 0.95, &lo, &hi, &cov), -1);
	assert_int_equal(stats_median_ci_ranks(0, 0.95, &lo, &hi, &cov), -1);

	assert_int_equal(stats_median_ci_ranks(6, 0.95, &lo, &hi, &cov), 0);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 6);
	assert_close(cov, 62.0 / 64.0, EPS);

	assert_int_equal(stats_median_ci_ranks(10, 0.95, &lo, &hi, &cov), 0);
	assert_int_equal(lo, 2);
	assert_int_equal(hi, 9);
	assert_close(cov, 1.0 - 22.0 / 1024.0, EPS);

	/* n=20: P(B<=5) = (1+20+190+1140+4845+15504)/2^20 = 21700/1048576 */
	assert_int_equal(stats_median_ci_ranks(20, 0.95, &lo, &hi, &cov), 0);
	assert_int_equal(lo, 6);
	assert_int_equal(hi, 15);
	assert_close(cov, 1.0 - 2.0 * 21700.0 / 1048576.0, EPS);

	/* n=10 at 90%: rank 2 (0.9785) is the last with P(B<=k) <= 0.05; rank 3
     * gives 0.890625 < 0.90 */
	assert_int_equal(stats_median_ci_ranks(10, 0.90, &lo, &hi, &cov), 0);
	assert_int_equal(lo, 2);
}

/* The same ranks through stats_summarize on shuffled 1..n: X(r) = r. */
static void test_summary_ci_values(void **state)
{
	(void)state;
	const size_t ns[] = { 6, 10, 20 };
	const double want_lo[] = { 1, 2, 6 }, want_hi[] = { 6, 9, 15 };
	for (size_t t = 0; t < 3; t++) {
		size_t n = ns[t];
		double x[20];
		for (size_t i = 0; i < n; i++)
			x[i] = (double)((i * 7) % n + 1); /* 7 is coprime with 6, 10, 20 */
		stats_summary s;
		assert_int_equal(stats_summarize(x, n, &s), 0);
		assert_close(s.ci_lo, want_lo[t], 0);
		assert_close(s.ci_hi, want_hi[t], 0);
		assert_true(s.ci_level >= 0.95);
	}
}

/* Crafted so the quartiles are exact: sorted -20 -10 2 3 4 5 6 7 8 9 20 30,
 * n=12: q1 (h=2.75) = 2.75, q3 (h=8.25) = 8.25, IQR 5.5; mild fences
 * -5.5 / 16.5, severe fences -13.75 / 24.75. */
static void test_outliers(void **state)
{
	(void)state;
	const double x[] = { 6, 30, 2, -10, 9, 4, 20, 3, -20, 7, 5, 8 };
	stats_summary s;
	assert_int_equal(stats_summarize(x, 12, &s), 0);
	assert_close(s.q1, 2.75, EPS);
	assert_close(s.q3, 8.25, EPS);
	assert_int_equal(s.low_severe, 1);  /* -20 */
	assert_int_equal(s.low_mild, 1);    /* -10 */
	assert_int_equal(s.high_mild, 1);   /* 20 */
	assert_int_equal(s.high_severe, 1); /* 30 */

	/* values exactly on a fence are not beyond it: 16.5 is no outlier, 24.75
     * is beyond the mild fence but not the severe one */
	const double y[] = { 6, 24.75, 2, -10, 9, 4, 16.5, 3, -20, 7, 5, 8 };
	assert_int_equal(stats_summarize(y, 12, &s), 0);
	assert_int_equal(s.low_severe, 1);
	assert_int_equal(s.low_mild, 1);
	assert_int_equal(s.high_mild, 1);
	assert_int_equal(s.high_severe, 0);

	/* the low side on its fences: -13.75 is beyond the mild fence only, -5.5
     * is no outlier */
	const double z[] = { 6, 24.75, 2, -5.5, 9, 4, 16.5, 3, -13.75, 7, 5, 8 };
	assert_int_equal(stats_summarize(z, 12, &s), 0);
	assert_close(s.q1, 2.75, EPS);
	assert_close(s.q3, 8.25, EPS);
	assert_int_equal(s.low_severe, 0);
	assert_int_equal(s.low_mild, 1);
	assert_int_equal(s.high_mild, 1);
	assert_int_equal(s.high_severe, 0);
}

/* Brute force: enumerate every way to pick which na of the N = na+nb ranks
 * belong to a, and count U <= u_obs and U >= u_obs. */
static double enumerate_p(size_t na, size_t nb, double u_obs)
{
	size_t n = na + nb;
	unsigned long le = 0, ge = 0, total = 0;
	for (unsigned long mask = 0; mask < (1ul << n); mask++) {
		if ((size_t)__builtin_popcountl(mask) != na)
			continue;
		double u = 0; /* pairs a > b: for each a at rank i, count b below it */
		size_t b_below = 0;
		for (size_t i = 0; i < n; i++) {
			if (mask & (1ul << i))
				u += (double)b_below;
			else
				b_below++;
		}
		total++;
		le += u <= u_obs;
		ge += u >= u_obs;
	}
	double p = 2.0 * (double)(le < ge ? le : ge) / (double)total;
	return p > 1.0 ? 1.0 : p;
}

/* Hollander & Wolfe (1973), p. 69, used in R's ?wilcox.test: W = 35 and the
 * exact one-sided p-value 0.1272, i.e. 382 of the C(15,5) = 3003 rank
 * arrangements have U >= 35; two-sided 764/3003 (counted by enumeration). */
static void test_mw_textbook(void **state)
{
	(void)state;
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	assert_close(stats_mann_whitney_u(x, 10, y, 5), 35.0, 0);
	assert_close(stats_mann_whitney_p(x, 10, y, 5), 764.0 / 3003.0, 1e-12);
	assert_close(stats_mann_whitney_p(y, 5, x, 10), 764.0 / 3003.0, 1e-12);
	assert_close(enumerate_p(10, 5, 35.0), 764.0 / 3003.0, 1e-12);

	/* complete separation of 3 vs 3: 2 of C(6,3) = 20 arrangements as extreme */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	assert_close(stats_mann_whitney_u(a, 3, b, 3), 0.0, 0);
	assert_close(stats_mann_whitney_p(a, 3, b, 3), 0.1, 1e-12);
}

/* Exact p of the library against enumeration for random tie-free samples. */
static void test_mw_exact_vs_enumeration(void **state)
{
	(void)state;
	stats_rng r;
	stats_rng_seed(&r, 12345);
	const size_t sizes[][2] = { { 1, 1 }, { 1, 5 }, { 2, 3 }, { 4, 4 }, { 5, 7 }, { 8, 8 }, { 3, 12 } };
	for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
		for (int rep = 0; rep < 5; rep++) {
			size_t na = sizes[t][0], nb = sizes[t][1];
			double a[16], b[16];
			for (size_t i = 0; i < na; i++)
				a[i] = stats_rng_uniform(&r) + 0.3 * (double)rep;
			for (size_t i = 0; i < nb; i++)
				b[i] = stats_rng_uniform(&r);
			double u = stats_mann_whitney_u(a, na, b, nb);
			assert_close(stats_mann_whitney_p(a, na, b, nb), enumerate_p(na, nb, u), 1e-12);
		}
	}
}

/* With ties: a = 1 2 2 3 4, b = 3 4 4 5 6. Midranks by hand: 1->1, 2->2.5,
 * 3->4.5, 4->7, 5->9, 6->10; R_a = 1+2.5+2.5+4.5+7 = 17.5, U = 17.5-15 = 2.5,
 * E[U] = 12.5. Tie groups of 2, 2, 3: sum(t^3-t) = 36; N = 10:
 * var = 25/12 * (11 - 36/90) = 265/12. Continuity: z = (10-0.5)/sqrt(265/12)
 * = 2.02158, p = erfc(z/sqrt 2) = 0.0432196 (R's wilcox.test, with the
 * "cannot compute exact p-value with ties" warning, uses this formula). */
static void test_mw_ties_normal(void **state)
{
	(void)state;
	const double a[] = { 1, 2, 2, 3, 4 }, b[] = { 3, 4, 4, 5, 6 };
	assert_close(stats_mann_whitney_u(a, 5, b, 5), 2.5, 0);
	double want = erfc(9.5 / sqrt(265.0 / 12.0) / sqrt(2.0));
	assert_close(want, 0.0432196, 1e-7);
	assert_close(stats_mann_whitney_p(a, 5, b, 5), want, 1e-12);

	const double same[] = { 3, 3, 3, 3 };
	assert_close(stats_mann_whitney_p(same, 4, same, 3), 1.0, 0);
	assert_true(isnan(stats_mann_whitney_p(same, 0, same, 3)));
	assert_true(isnan(stats_mann_whitney_p(same, 3, same, 0)));
	const double withnan[] = { 1, NAN };
	assert_true(isnan(stats_mann_whitney_p(withnan, 2, same, 3)));
}

/* At the switch point the exact (49 x 49) and normal (no ties, so the plain
 * variance mn(N+1)/12) p-values must agree closely: a check that the exact
 * recurrence stays accurate for the largest tables it builds. */
static void test_mw_exact_large(void **state)
{
	(void)state;
	double a[49], b[49];
	for (int i = 0; i < 49; i++) {
		a[i] = (double)(2 * i) + 0.5 * (i % 3 == 0); /* interleaved, shifted */
		b[i] = (double)(2 * i) - 7.25;
	}
	double u = stats_mann_whitney_u(a, 49, b, 49);
	double m = 49.0 * 49.0, var = m * 99.0 / 12.0;
	double normal = erfc((fabs(u - m / 2.0) - 0.5) / sqrt(var) / sqrt(2.0));
	double exact = stats_mann_whitney_p(a, 49, b, 49);
	assert_true(normal > 0.01 && normal < 0.9);
	assert_close(exact, normal, 0.01 * normal);
}

/* splitmix64 from state 0 yields 0xe220a8397b1dcdaf first (the published test
 * vector). The xoshiro256** outputs pin the sequence so that a seed printed in
 * an old report keeps reproducing its interval. */
static void test_rng(void **state)
{
	(void)state;
	stats_rng r, r2;
	stats_rng_seed(&r, 0);
	assert_true(r.s[0] == 0xe220a8397b1dcdafu);
	assert_true(stats_rng_next(&r) == 0x99ec5f36cb75f2b4u);
	assert_true(stats_rng_next(&r) == 0xbf6e1f784956452au);

	stats_rng_seed(&r, 99);
	stats_rng_seed(&r2, 99);
	for (int i = 0; i < 100; i++)
		assert_true(stats_rng_next(&r) == stats_rng_next(&r2));

	size_t count[6] = { 0 };
	for (int i = 0; i < 60000; i++) {
		size_t k = stats_rng_below(&r, 6);
		assert_true(k < 6);
		count[k]++;
		double u = stats_rng_uniform(&r);
		assert_true(u >= 0.0 && u < 1.0);
	}
	for (int k = 0; k < 6; k++) /* sd of each count is 91; allow 5 sd */
		assert_true(count[k] > 10000 - 456 && count[k] < 10000 + 456);
	assert_int_equal(stats_rng_below(&r, 0), 0);
	assert_int_equal(stats_rng_below(&r, 1), 0);
}

static void test_select(void **state)
{
	(void)state;
	stats_rng r;
	stats_rng_seed(&r, 7);
	for (size_t n = 1; n <= 40; n++) {
		double x[40], sorted[40], work[40];
		for (size_t i = 0; i < n; i++)
			x[i] = (double)stats_rng_below(&r, 10); /* many duplicates */
		memcpy(sorted, x, n * sizeof *x);
		stats_sort(sorted, n);
		for (size_t i = 1; i < n; i++)
			assert_true(sorted[i - 1] <= sorted[i]);
		for (size_t k = 0; k < n; k++) {
			memcpy(work, x, n * sizeof *x);
			assert_close(stats_select(work, n, k), sorted[k], 0);
		}
	}
}

/* Coverage by simulation: exponential(1) samples have true median ln 2; the
 * interval must cover it in a fraction of trials close to the exact level it
 * reports (within 4.5 binomial sd, about 0.014 for 4000 trials) and never
 * below 0.93. Deterministic: the PRNG is seeded. */
static void test_ci_coverage(void **state)
{
	(void)state;
	const size_t ns[] = { 6, 10, 20, 50 };
	const int trials = 4000;
	stats_rng r;
	stats_rng_seed(&r, 2024);
	for (size_t t = 0; t < 4; t++) {
		size_t n = ns[t];
		double x[50], level = NAN;
		int covered = 0;
		for (int k = 0; k < trials; k++) {
			for (size_t i = 0; i < n; i++)
				x[i] = -log(1.0 - stats_rng_uniform(&r));
			stats_summary s;
			assert_int_equal(stats_summarize(x, n, &s), 0);
			level = s.ci_level;
			covered += s.ci_lo <= M_LN2 && M_LN2 <= s.ci_hi;
		}
		double frac = (double)covered / trials;
		double sd = sqrt(level * (1.0 - level) / trials);
		if (!(frac >= 0.93 && fabs(frac - level) <= 4.5 * sd))
			fail_msg("n=%zu: covered %.4f, stated level %.4f", n, frac, level);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile_four),
		cmocka_unit_test(test_quantile_ten),
		cmocka_unit_test(test_quantile_undefined),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_summary_basic),
		cmocka_unit_test(test_summary_undefined),
		cmocka_unit_test(test_ci_ranks),
		cmocka_unit_test(test_summary_ci_values),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_mw_textbook),
		cmocka_unit_test(test_mw_exact_vs_enumeration),
		cmocka_unit_test(test_mw_ties_normal),
		cmocka_unit_test(test_mw_exact_large),
		cmocka_unit_test(test_rng),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_ci_coverage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
