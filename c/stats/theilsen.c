/* stats/theilsen.c — see theilsen.h. */
#include "stats/theilsen.h"

#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int theilsen_fit(const double *x, const double *y, size_t n, double level, struct theilsen *out)
{
	size_t m = 0, cap = n * (n - (n > 0)) / 2 + 1;
	double *s = malloc(cap * sizeof(double)), *r;

	out->slope = out->slope_lo = out->slope_hi = out->intercept = NAN;
	out->npairs = 0;
	if (s == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (x[j] != x[i])
				s[m++] = (y[j] - y[i]) / (x[j] - x[i]);
	if (m == 0 || (r = malloc(n * sizeof(double))) == NULL) {
		free(s);
		return -1;
	}
	qsort(s, m, sizeof(double), cmp);
	out->npairs = m;
	out->slope = stats_quantile_sorted(s, m, 0.5);
	for (size_t i = 0; i < n; i++)
		r[i] = y[i] - out->slope * x[i];
	out->intercept = stats_median(r, n);
	{
		double c = stats_z_two_sided(level) * sqrt((double)n * (double)(n - 1) * (double)(2 * n + 5) / 18.0);
		double lo = floor(((double)m - c) / 2.0), hi = ceil(((double)m + c) / 2.0) + 1.0;
		/* 1-based ranks of the sorted slopes, inside [1, m] */
		if (lo >= 1.0 && hi <= (double)m) {
			out->slope_lo = s[(size_t)lo - 1];
			out->slope_hi = s[(size_t)hi - 1];
		}
	}
	free(r);
	free(s);
	return 0;
}
