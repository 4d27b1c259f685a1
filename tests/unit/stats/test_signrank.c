/* Unit tests of c/stats/signrank.c: hand-counted exact cases, the published
 * critical values of the two-sided test at alpha = 0.05, a brute-force
 * enumeration of all 2^n sign assignments, and the normal approximation
 * checked against its formula evaluated here. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats/signrank.h"

static void assert_close(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.17g, want %.17g (tolerance %g)", got, want, tol);
}

static struct signrank run(const double *d, size_t n)
{
	struct signrank r;
	assert_int_equal(signrank_test(d, n, &r), 0);
	return r;
}

/* Two-sided normal p with the continuity correction, from W+ and the null
 * variance, evaluated independently of the code under test. */
static double normal_p(double w_plus, double mean, double var)
{
	double dev = fabs(w_plus - mean) - 0.5;
	if (dev <= 0)
		return 1;
	return erfc(dev / sqrt(var) / sqrt(2.0));
}

/* n = 5, all positive: W+ = 1+2+3+4+5 = 15, the largest value, reached by
 * one of the 2^5 = 32 sign assignments: P(W+ >= 15) = 1/32, p = 2/32. */
static void test_five_positive(void **state)
{
	(void)state;
	const double d[] = { 0.3, 0.1, 0.5, 0.2, 0.4 };
	struct signrank r = run(d, 5);
	assert_int_equal(r.n, 5);
	assert_close(r.w_plus, 15, 0);
	assert_int_equal(r.exact, 1);
	assert_close(r.p, 0.0625, 0);
}

/* All negative: W+ = 0, P(W+ <= 0) = 1/32, p = 2/32 again. */
static void test_five_negative(void **state)
{
	(void)state;
	const double d[] = { -0.3, -0.1, -0.5, -0.2, -0.4 };
	struct signrank r = run(d, 5);
	assert_close(r.w_plus, 0, 0);
	assert_int_equal(r.exact, 1);
	assert_close(r.p, 0.0625, 0);
}

/* n = 5, only the smallest negative: W+ = 14. Sums >= 14: {2,3,4,5} = 14 and
 * {1,2,3,4,5} = 15, so P(W+ >= 14) = 2/32 and p = 4/32 = 0.125. */
static void test_five_one_negative(void **state)
{
	(void)state;
	const double d[] = { 0.3, -0.1, 0.5, 0.2, 0.4 };
	struct signrank r = run(d, 5);
	assert_close(r.w_plus, 14, 0);
	assert_close(r.p, 0.125, 0);
}

/* n = 1: W+ is 0 or 1 with probability 1/2 each; either tail is 1/2 or 1,
 * the smaller is 1/2, p = min(1, 2 * 1/2) = 1. */
static void test_one(void **state)
{
	(void)state;
	const double pos[] = { 2.5 }, neg[] = { -2.5 };
	struct signrank r = run(pos, 1);
	assert_int_equal(r.n, 1);
	assert_close(r.w_plus, 1, 0);
	assert_int_equal(r.exact, 1);
	assert_close(r.p, 1, 0);
	r = run(neg, 1);
	assert_close(r.w_plus, 0, 0);
	assert_close(r.p, 1, 0);
}

/* Nothing to test: p = 1, with no data or with zeros only. */
static void test_empty(void **state)
{
	(void)state;
	const double zeros[] = { 0.0, -0.0, 0.0 };
	struct signrank r = run(NULL, 0);
	assert_int_equal(r.n, 0);
	assert_close(r.w_plus, 0, 0);
	assert_close(r.p, 1, 0);
	r = run(zeros, 3);
	assert_int_equal(r.n, 0);
	assert_close(r.p, 1, 0);
}

/* The null distribution for n = 4 (subsets of {1,2,3,4} by sum s):
 *   s      0 1 2 3 4 5 6 7 8 9 10
 *   count  1 1 1 2 2 2 2 2 1 1 1   (16 in all)
 * {1, -2, -3, 4}: W+ = 5 = n(n+1)/4, the centre: P(W+ <= 5) = 9/16, p = 1.
 * {1, -2, 3, -4}: W+ = 4: P(W+ <= 4) = 7/16, p = 14/16 = 0.875. */
static void test_symmetric(void **state)
{
	(void)state;
	const double centre[] = { 1, -2, -3, 4 }, near[] = { 1, -2, 3, -4 };
	struct signrank r = run(centre, 4);
	assert_close(r.w_plus, 5, 0);
	assert_int_equal(r.exact, 1);
	assert_close(r.p, 1, 0);
	r = run(near, 4);
	assert_close(r.w_plus, 4, 0);
	assert_close(r.p, 0.875, 0);
}

/* Zeros are dropped before ranking: the five positive values among zeros
 * are the n = 5 all-positive case. */
static void test_zeros_dropped(void **state)
{
	(void)state;
	const double d[] = { 0, 0.3, 0, 0.1, -0.0, 0.5, 0.2, 0, 0.4 };
	struct signrank r = run(d, 9);
	assert_int_equal(r.n, 5);
	assert_close(r.w_plus, 15, 0);
	assert_int_equal(r.exact, 1);
	assert_close(r.p, 0.0625, 0);
}

/* A sample of n differences with magnitudes proportional to the ranks
 * 1..n, negative exactly for the ranks in neg[0..nneg) (all signs flipped
 * when flip), out of order: odd ranks fill the array from the front, even
 * ranks from the back. W- = the sum of neg (W+ when flipped). */
static double *critical_sample(size_t n, const size_t *neg, size_t nneg, int flip)
{
	double *d = malloc(n * sizeof *d);
	size_t lo = 0, hi = n;
	assert_non_null(d);
	for (size_t rank = 1; rank <= n; rank++) {
		double v = 0.0137 * (double)rank;
		for (size_t k = 0; k < nneg; k++)
			if (neg[k] == rank)
				v = -v;
		if (flip)
			v = -v;
		if (rank % 2)
			d[lo++] = v;
		else
			d[--hi] = v;
	}
	return d;
}

/* Checks that the sample with W- = sum(neg) (and its mirror, W+ = sum(neg))
 * is significant at 0.05 when sig, not when !sig; returns p. */
static double check_critical(size_t n, const size_t *neg, size_t nneg, int sig)
{
	double total = (double)n * (double)(n + 1) / 2, t = 0, p = 0;
	for (size_t k = 0; k < nneg; k++)
		t += (double)neg[k];
	for (int flip = 0; flip <= 1; flip++) {
		double *d = critical_sample(n, neg, nneg, flip);
		struct signrank r = run(d, n);
		free(d);
		assert_int_equal(r.n, n);
		assert_int_equal(r.exact, 1);
		assert_close(r.w_plus, flip ? t : total - t, 0);
		if (sig && !(r.p < 0.05))
			fail_msg("n = %zu, T = %g: p = %.17g, want < 0.05", n, t, r.p);
		if (!sig && !(r.p >= 0.05))
			fail_msg("n = %zu, T = %g: p = %.17g, want >= 0.05", n, t, r.p);
		if (flip)
			assert_close(r.p, p, 0); /* the distribution is symmetric */
		p = r.p;
	}
	return p;
}

/* Published critical values of the two-sided test at alpha = 0.05 (the
 * standard table printed in statistics textbooks; each also re-checked by
 * enumerating the 2^n sign assignments before writing this test): T is the
 * largest min(W+, W-) still significant: n = 8: 3, n = 10: 8, n = 15: 25,
 * n = 20: 52, n = 50: 434. Each is checked at T (p < 0.05) and T + 1
 * (p >= 0.05).
 *
 * n = 8 and n = 10 by hand: the number of subsets of {1..n} with sum s is,
 * for s <= n, the number of partitions of s into distinct parts:
 *   s  0 1 2 3 4 5 6 7 8 9
 *   q  1 1 1 2 2 3 4 5 6 8
 * n = 8:  P(W <= 3) = (1+1+1+2)/256 = 5/256, p = 10/256 = 0.0390625;
 *         P(W <= 4) = 7/256, p = 14/256 = 0.0546875.
 * n = 10: P(W <= 8) = 25/1024, p = 50/1024 = 0.048828125;
 *         P(W <= 9) = 33/1024, p = 66/1024 = 0.064453125. */
static void test_critical_values(void **state)
{
	(void)state;
	const size_t n8_3[] = { 3 }, n8_4[] = { 4 };
	const size_t n10_8[] = { 8 }, n10_9[] = { 9 };
	const size_t n15_25[] = { 15, 10 }, n15_26[] = { 15, 11 };
	const size_t n20_52[] = { 20, 19, 13 }, n20_53[] = { 20, 19, 14 };
	const size_t n50_434[] = { 50, 49, 48, 47, 46, 45, 44, 43, 42, 20 };
	const size_t n50_435[] = { 50, 49, 48, 47, 46, 45, 44, 43, 42, 21 };

	assert_close(check_critical(8, n8_3, 1, 1), 10.0 / 256, 0);
	assert_close(check_critical(8, n8_4, 1, 0), 14.0 / 256, 0);
	assert_close(check_critical(10, n10_8, 1, 1), 50.0 / 1024, 0);
	assert_close(check_critical(10, n10_9, 1, 0), 66.0 / 1024, 0);
	check_critical(15, n15_25, 2, 1);
	check_critical(15, n15_26, 2, 0);
	check_critical(20, n20_52, 3, 1);
	check_critical(20, n20_53, 3, 0);
	check_critical(50, n50_434, 10, 1);
	check_critical(50, n50_435, 10, 0);
}

/* A small xorshift generator, local to the test. */
static uint64_t next_u64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static double next_uniform(uint64_t *s)
{
	return (double)(next_u64(s) >> 11) / 9007199254740992.0;
}

/* Random samples without ties, n = 1..16, against a brute-force count over
 * all 2^n sign assignments (ranks found by counting, O(n^2)). */
static void test_brute_force(void **state)
{
	(void)state;
	uint64_t seed = 0x9e3779b97f4a7c15u;
	for (size_t n = 1; n <= 16; n++) {
		for (int rep = 0; rep < 8; rep++) {
			double d[16], w = 0;
			size_t perm[16];
			uint64_t below = 0, above = 0, tail;
			for (size_t i = 0; i < n; i++)
				perm[i] = i + 1;
			for (size_t i = n; i > 1; i--) {
				size_t j = (size_t)(next_u64(&seed) % i), tmp = perm[i - 1];
				perm[i - 1] = perm[j];
				perm[j] = tmp;
			}
			for (size_t i = 0; i < n; i++) {
				d[i] = 0.01 * (double)perm[i] + 1e-4 * next_uniform(&seed);
				if (next_u64(&seed) & 1)
					d[i] = -d[i];
			}
			for (size_t i = 0; i < n; i++) {
				size_t rank = 0;
				for (size_t j = 0; j < n; j++)
					if (fabs(d[j]) <= fabs(d[i]))
						rank++;
				if (d[i] > 0)
					w += (double)rank;
			}
			for (uint32_t mask = 0; mask < (1u << n); mask++) {
				double s = 0;
				for (size_t k = 0; k < n; k++)
					if (mask & (1u << k))
						s += (double)(k + 1);
				below += s <= w;
				above += s >= w;
			}
			tail = below < above ? below : above;
			double want = 2.0 * (double)tail / (double)(1u << n);
			if (want > 1)
				want = 1;

			struct signrank r = run(d, n);
			assert_int_equal(r.exact, 1);
			assert_close(r.w_plus, w, 0);
			assert_close(r.p, want, 1e-15);
		}
	}
}

/* {1, -1, 2, 3}: |d| sorted 1 1 2 3, ranks 1.5 1.5 3 4, W+ = 1.5 + 3 + 4 =
 * 8.5. A tie, so the normal approximation: mean = 4*5/4 = 5, var = 4*5*9/24
 * - (2^3 - 2)/48 = 7.5 - 0.125 = 7.375, z = (8.5 - 5 - 0.5)/sqrt(7.375) =
 * 1.10469, p = 2(1 - Phi(z)) = 0.269294. */
static void test_ties_small(void **state)
{
	(void)state;
	const double d[] = { 1, -1, 2, 3 };
	struct signrank r = run(d, 4);
	assert_int_equal(r.n, 4);
	assert_close(r.w_plus, 8.5, 0);
	assert_int_equal(r.exact, 0);
	assert_close(r.p, erfc(3 / sqrt(7.375) / sqrt(2.0)), 1e-12);
	assert_close(r.p, 0.26929413671973673, 1e-9);
}

/* All |d| equal: every rank is (n+1)/2 and W+ = k(n+1)/2 for k positive
 * values, so W+ is a scaled sign count: mean n(n+1)/4, variance
 * ((n+1)/2)^2 n/4 = n(n+1)^2/16, which is what the tie correction must give
 * (n(n+1)(2n+1)/24 - (n^3 - n)/48 = n(n+1)^2/16). Here in the sign-count
 * form: z = ((n+1)/2 (k - n/2) - 0.5) / ((n+1)/2 sqrt(n)/2).
 * n = 10, k = 7: z = (5.5 * 2 - 0.5)/(5.5 * sqrt(10)/2) = 1.20742, p = 0.227272.
 * n = 10000, k = 5100: z = (5000.5 * 100 - 0.5)/(5000.5 * 50) = 1.999998,
 * p = 0.0455005. */
static void check_all_tied(size_t n, size_t k, double want_approx)
{
	double *d = malloc(n * sizeof *d);
	double h = ((double)n + 1) / 2, nn = (double)n;
	assert_non_null(d);
	for (size_t i = 0; i < n; i++)
		d[i] = i % 2 == 0 && i < 2 * (n - k) ? -0.25 : 0.25; /* the negatives spread out */
	size_t neg = 0;
	for (size_t i = 0; i < n; i++)
		neg += d[i] < 0;
	assert_int_equal(neg, n - k);

	struct signrank r = run(d, n);
	free(d);
	double z = (h * ((double)k - nn / 2) - 0.5) / (h * sqrt(nn) / 2);
	assert_int_equal(r.n, n);
	assert_int_equal(r.exact, 0);
	assert_close(r.w_plus, h * (double)k, 0);
	assert_close(r.p, erfc(z / sqrt(2.0)), 1e-12);
	assert_close(r.p, want_approx, 1e-6);
}

static void test_ties_only(void **state)
{
	(void)state;
	check_all_tied(10, 7, 0.227272);
	check_all_tied(10000, 5100, 0.0455005);
}

/* n = 200 (beyond the exact range), differences 0.3 + uniform(-1, 1): the
 * median difference is 0.3, about 0.5 standard deviations; the test sees it
 * with a tiny p. */
static void test_large_shift(void **state)
{
	(void)state;
	double d[200];
	uint64_t seed = 12345;
	for (size_t i = 0; i < 200; i++)
		d[i] = 0.3 + 2 * (next_uniform(&seed) - 0.5);
	struct signrank r = run(d, 200);
	assert_int_equal(r.n, 200);
	assert_int_equal(r.exact, 0);
	assert_true(r.w_plus > 200.0 * 201 / 4);
	if (!(r.p < 1e-6))
		fail_msg("p = %.17g, want < 1e-6", r.p);
}

/* No shift: d = +1, -2, +3, -4, ..., -200. The odd ranks are positive:
 * W+ = 1 + 3 + ... + 199 = 100^2 = 10000, mean 200*201/4 = 10050, var =
 * 200*201*401/24 = 671675, z = 49.5/sqrt(671675) = 0.0604, p = 0.951838.
 * The same at n = 20000: W+ = 10^8, mean 100005000, var =
 * 20000*20001*40001/24, z = 4999.5/sd, p = 0.995115. */
static void check_alternating(size_t n, double want_approx)
{
	double *d = malloc(n * sizeof *d), nn = (double)n;
	assert_non_null(d);
	for (size_t i = 0; i < n; i++)
		d[n - 1 - i] = (i % 2 ? -1.0 : 1.0) * (double)(i + 1) * 1e-3;
	struct signrank r = run(d, n);
	free(d);
	double half = nn / 2, w = half * half;
	assert_int_equal(r.n, n);
	assert_int_equal(r.exact, 0);
	assert_close(r.w_plus, w, 0);
	assert_close(r.p, normal_p(w, nn * (nn + 1) / 4, nn * (nn + 1) * (2 * nn + 1) / 24), 1e-12);
	assert_close(r.p, want_approx, 1e-6);
}

static void test_large_null(void **state)
{
	(void)state;
	check_alternating(200, 0.951838);
	check_alternating(20000, 0.995115);
}

/* The exact distribution up to n = 50 without ties, the normal
 * approximation from 51 on; for n = 51 all positive, W+ = 1326, mean 663,
 * var = 51*52*103/24 = 11381.5, z = 662.5/106.68 = 6.21. */
static void test_exact_boundary(void **state)
{
	(void)state;
	double d[51];
	for (size_t i = 0; i < 51; i++)
		d[i] = 0.5 + (double)i;
	struct signrank r = run(d, 50);
	assert_int_equal(r.exact, 1);
	assert_close(r.p, ldexp(1, -49), 0); /* 2 * 2^-50 */
	r = run(d, 51);
	assert_int_equal(r.exact, 0);
	assert_close(r.w_plus, 1326, 0);
	assert_close(r.p, normal_p(1326, 663, 51.0 * 52 * 103 / 24), 1e-15);
	assert_true(r.p < 1e-8);
}

/* A NaN makes the statistics NAN (not a crash in the sort). */
static void test_nan(void **state)
{
	(void)state;
	const double d[] = { 0.1, NAN, -0.2 };
	struct signrank r = run(d, 3);
	assert_true(isnan(r.p));
	assert_true(isnan(r.w_plus));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_five_positive),
		cmocka_unit_test(test_five_negative),
		cmocka_unit_test(test_five_one_negative),
		cmocka_unit_test(test_one),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_symmetric),
		cmocka_unit_test(test_zeros_dropped),
		cmocka_unit_test(test_critical_values),
		cmocka_unit_test(test_brute_force),
		cmocka_unit_test(test_ties_small),
		cmocka_unit_test(test_ties_only),
		cmocka_unit_test(test_large_shift),
		cmocka_unit_test(test_large_null),
		cmocka_unit_test(test_exact_boundary),
		cmocka_unit_test(test_nan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
