/* stats/signrank.h — the Wilcoxon signed-rank test of a paired sample: are the
 * differences d[i] (here: log ratios of paired blocks) centred on zero?
 *
 * The differences equal to zero are dropped (Wilcoxon's convention); the
 * others are ranked by |d| ascending, ties (|d| exactly equal, no tolerance)
 * sharing the average of their ranks; W+ is the sum of the ranks of the
 * positive differences.
 *
 * - No ties among |d| and n <= SIGNRANK_EXACT_MAX: p from the exact null
 *   distribution of W+ (all 2^n sign assignments equally likely, counted by
 *   dynamic programming over the rank sums), two-sided
 *   p = min(1, 2 min(P(W+ <= w), P(W+ >= w))).
 * - Otherwise the normal approximation: mean n(n+1)/4, variance
 *   n(n+1)(2n+1)/24 - sum(t^3 - t)/48 over the tie groups of size t, and a
 *   continuity correction of 0.5 towards the mean:
 *   z = max(0, |w - mean| - 0.5) / sd, p = 2 (1 - Phi(z)) = erfc(z / sqrt 2).
 *
 * O(n log n) time (one sort), O(n) extra memory. Pure: no I/O. */
#ifndef CGOCOST_STATS_SIGNRANK_H
#define CGOCOST_STATS_SIGNRANK_H

#include <stddef.h>

/* Largest n for the exact distribution: the counts of the 2^n sign
 * assignments stay exact in 64-bit integers (and in doubles, 2^50 < 2^53). */
#define SIGNRANK_EXACT_MAX 50

struct signrank {
	size_t n;      /* non-zero differences used (zeros dropped, Wilcoxon's convention) */
	double w_plus; /* sum of the ranks of the positive differences (average ranks for ties) */
	double p;      /* two-sided p-value */
	int exact;     /* 1: p from the exact null distribution; 0: normal approximation */
};

/* Tests d[0..n) (not modified; d may be NULL when n == 0). Returns 0, or -1
 * when out of memory (out then holds n = 0, w_plus = 0, p = NAN, exact = 0).
 * n == 0 after dropping zeros gives w_plus = 0, p = 1, exact = 1. A NaN in d
 * gives w_plus = p = NAN (n counts the non-zero values, NaN included). */
int signrank_test(const double *d, size_t n, struct signrank *out);

/* The Hodges-Lehmann estimate of the centre of x[0..n) (the median of the
 * n(n+1)/2 Walsh averages (x_i + x_j)/2, i <= j) and the interval the
 * signed-rank test gives it: [W(d), W(M+1-d)] of the sorted averages, d the
 * largest depth with P(W+ < d) <= (1 - level)/2 (exact for n <=
 * SIGNRANK_EXACT_MAX, else the normal law). Assumes a distribution
 * symmetric about its centre (log ratios of paired runs). lo and hi are
 * NAN when n is too small for the level (n < 6 at 95%). 0, or -1 when out
 * of memory. */
struct signrank_ci {
	double lo, point, hi;
	double coverage; /* exact coverage of [lo, hi] (n <= SIGNRANK_EXACT_MAX), else the level */
};
int signrank_interval(const double *x, size_t n, double level, struct signrank_ci *out);

/* The same for ratios (all > 0): taken on their logs, given back as ratios. */
int signrank_ratio_interval(const double *ratios, size_t n, double level, struct signrank_ci *out);

#endif
