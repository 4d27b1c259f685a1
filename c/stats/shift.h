/* stats/shift.h — the distribution-free interval for the shift between two
 * samples (Hodges-Lehmann, with Bauer's order-statistic bounds): the
 * interval --judge and every comparison use above the size where the
 * bootstrap of the median costs too much. O((nb + nc) log) time, O(1) extra
 * memory. Pure: no I/O. */
#ifndef CGOCOST_STATS_SHIFT_H
#define CGOCOST_STATS_SHIFT_H

#include <stddef.h>

/* The k-th smallest (1-based, 1 <= k <= nb*nc) of the nb*nc differences
 * cur[j] - base[i]; both arrays sorted ascending. */
double shift_kth_difference(const double *base, size_t nb, const double *cur, size_t nc, double k);

/* The interval for the shift d in cur = base + d: the C-th smallest and
 * C-th largest pairwise difference, C = floor(nb*nc/2 - z*sqrt(nb*nc*(nb+nc+1)/12))
 * from the normal approximation of the Mann-Whitney U distribution
 * (Hollander and Wolfe, 4.3); z is the two-sided normal quantile of the
 * level (1.96 for 95%). Both arrays sorted ascending, nb, nc >= 1.
 * Returns 0, or -1 when the samples are too few for that level. */
#define SHIFT_Z95 1.959963984540054

int shift_interval(const double *base, size_t nb, const double *cur, size_t nc, double z, double *lo, double *hi);

#endif
