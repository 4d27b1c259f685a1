/* stats/stats.h - the statistics layer: pure math over samples, no I/O and
 * no knowledge of what was measured (summaries, intervals, rank tests; the
 * change estimate and its verdict in stats/change.h).
 *
 * Pure summary statistics of timing samples (no I/O).
 *
 * Undefined statistics are NAN, never 0. Inputs are finite values; a sample
 * containing NaN yields NAN statistics (see stats_summarize). */
#ifndef CGOCOST_STATS_STATS_H
#define CGOCOST_STATS_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Fewest samples for which a distribution-free 95% interval of the median
 * exists: with n = 5 even [min, max] covers only 1 - 2/32 = 93.75%. */
#define STATS_MIN_CI_SAMPLES 6

typedef struct stats_summary {
	size_t n;
	double median, mean, stddev, min, max; /* NAN when undefined (n == 0; stddev needs n >= 2) */
	double q1, q3;			       /* quartiles, type-7 (R default) interpolation */
	double ci_lo, ci_hi; /* distribution-free 95% CI of the median from order statistics; NAN when n < 6 */
	double ci_level;     /* exact binomial coverage of that interval (>= 0.95), NAN if undefined */
	size_t low_severe, low_mild, high_mild,
		high_severe; /* Tukey fences: mild beyond 1.5 IQR, severe beyond 3 IQR; counted, never dropped */
} stats_summary;

/* Summarizes x[0..n) (unsorted; not modified). Returns 0, or -1 on allocation
 * failure (out then holds the n == 0 summary). If x contains a NaN, every
 * statistic is NAN and the outlier counts are 0. */
int stats_summarize(const double *x, size_t n, stats_summary *out);

/* Type-7 quantile (R's default) of an ascending array: h = (n-1)q,
 * x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]).
 * NAN if n == 0 or q is outside [0, 1]. */
double stats_quantile_sorted(const double *sorted, size_t n, double q);

/* z with P(|Z| <= z) = level for a standard normal Z (1.96 for 0.95), by
 * bisection on erfc: no table, any level in (0, 1). */
double stats_z_two_sided(double level);

/* Median of x[0..n) (unsorted; not modified). NAN if n == 0 or on allocation
 * failure. */
double stats_median(const double *x, size_t n);

/* Ranks (1-based order statistics) of the distribution-free confidence
 * interval of the median: [X(lo), X(hi)] with hi = n + 1 - lo and lo the
 * largest rank whose exact coverage, P(lo <= B <= n - lo) for B ~ Bin(n, 1/2),
 * is at least level. Stores the coverage in *coverage. Returns 0, or -1 when
 * no such interval exists (n too small; for level 0.95, n < 6) or level is not
 * in (0, 1). Example: n = 10 -> ranks 2 and 9, coverage 0.978515625. */
int stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi, double *coverage);

/* Two-sided Mann-Whitney U (Wilcoxon rank-sum) p-value. Exact distribution
 * when na < 50, nb < 50 and there are no ties; otherwise the normal
 * approximation with tie-corrected variance and continuity correction (as R's
 * wilcox.test). 1 when every value is equal. NAN if na or nb is 0, a value is
 * NaN, or allocation fails. */
double stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

/* The U statistic of a: the number of pairs (a_i, b_j) with a_i > b_j, ties
 * counting 1/2. NAN if na or nb is 0 or on allocation failure. */
double stats_mann_whitney_u(const double *a, size_t na, const double *b, size_t nb);

/* Small deterministic PRNG (xoshiro256**, seeded through splitmix64) so that
 * resampling is reproducible from a printed seed. */
typedef struct stats_rng {
	uint64_t s[4];
} stats_rng;

void stats_rng_seed(stats_rng *r, uint64_t seed);
uint64_t stats_rng_next(stats_rng *r);
double stats_rng_uniform(stats_rng *r);		/* in [0, 1), 53 bits */
size_t stats_rng_below(stats_rng *r, size_t n); /* uniform in [0, n), unbiased; 0 if n == 0 */

/* Sorts x ascending in place (NaN-free input). */
void stats_sort(double *x, size_t n);

/* The k-th smallest (0-based) of x[0..n), partially reordering x; k < n. */
double stats_select(double *x, size_t n, size_t k);

/* Median of x[0..n), partially reordering x (no allocation); NAN if n == 0. */
double stats_median_inplace(double *x, size_t n);

#endif
