/* stats/theilsen.h — the Theil-Sen line through points (x[i], y[i]): the
 * slope is the median of the slopes of every pair of points with distinct
 * x, the intercept the median of y[i] - slope x[i]; the slope's interval
 * is the distribution-free one from Kendall's tau (Sen 1968): of the N
 * sorted pairwise slopes, those of ranks (N - C) / 2 and (N + C) / 2 + 1,
 * C = z sqrt(n (n - 1) (2n + 5) / 18), z the normal quantile of the level
 * (ties in x are not corrected for). Robust to a few wild points, which
 * least squares is not. Pure: no I/O. */
#ifndef CGOCOST_STATS_THEILSEN_H
#define CGOCOST_STATS_THEILSEN_H

#include <stddef.h>

struct theilsen {
	double slope, slope_lo, slope_hi; /* lo, hi NAN when n is too small for the level */
	double intercept;
	size_t npairs; /* pairs of points with distinct x */
};

/* Fits y = slope x + intercept over x[0..n), y[0..n). 0; -1 when fewer
 * than two distinct x (out all NAN) or out of memory. */
int theilsen_fit(const double *x, const double *y, size_t n, double level, struct theilsen *out);

#endif
