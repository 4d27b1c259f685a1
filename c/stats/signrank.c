/* stats/signrank.c — see signrank.h. */
#include "stats/signrank.h"

#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Orders by |x| ascending; a value and its negation compare equal. */
static int cmp_abs(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
	return (x > y) - (x < y);
}

/* The exact two-sided p of W+ = w (an integer: no ties) over ranks 1..n,
 * n <= SIGNRANK_EXACT_MAX: count[s] is the number of subsets of {1..n}
 * whose sum is s, i.e. of sign assignments giving W+ = s, built one rank at
 * a time (count_k[s] = count_{k-1}[s] + count_{k-1}[s - k]). */
static double exact_p(size_t n, double w)
{
	uint64_t count[SIGNRANK_EXACT_MAX * (SIGNRANK_EXACT_MAX + 1) / 2 + 1] = { 0 };
	size_t max = n * (n + 1) / 2, ws = (size_t)w;
	uint64_t below = 0, above = 0, tail;

	count[0] = 1;
	for (size_t k = 1; k <= n; k++)
		for (size_t s = max; s >= k; s--)
			count[s] += count[s - k];
	for (size_t s = 0; s <= max; s++) {
		if (s <= ws)
			below += count[s];
		if (s >= ws)
			above += count[s];
	}
	/* 2 * tail <= 2^(n+1) <= 2^51: exact in a double, as is the scaling */
	tail = below < above ? below : above;
	double p = ldexp((double)(2 * tail), -(int)n);
	return p < 1 ? p : 1;
}

int signrank_test(const double *d, size_t n, struct signrank *out)
{
	double *a, w_plus = 0, ties = 0;
	size_t m = 0;
	int has_nan = 0;

	out->n = 0;
	out->w_plus = 0;
	out->p = NAN;
	out->exact = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(d[i]))
			has_nan = 1;
		if (d[i] != 0) /* true for NaN too */
			m++;
	}
	if (m == 0) {
		out->p = 1;
		out->exact = 1;
		return 0;
	}
	if (has_nan) {
		out->n = m;
		out->w_plus = NAN;
		return 0;
	}

	a = malloc(m * sizeof *a);
	if (a == NULL)
		return -1;
	m = 0;
	for (size_t i = 0; i < n; i++)
		if (d[i] != 0)
			a[m++] = d[i];
	qsort(a, m, sizeof *a, cmp_abs);

	/* a[i..j) share one |d|: ranks i+1..j, average (i + 1 + j) / 2 */
	for (size_t i = 0, j; i < m; i = j) {
		double rank, t;
		j = i + 1;
		while (j < m && fabs(a[j]) == fabs(a[i]))
			j++;
		rank = ((double)i + 1 + (double)j) / 2;
		t = (double)(j - i);
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (a[k] > 0)
				w_plus += rank;
	}
	free(a);

	out->n = m;
	out->w_plus = w_plus;
	if (ties == 0 && m <= SIGNRANK_EXACT_MAX) {
		out->p = exact_p(m, w_plus);
		out->exact = 1;
	} else {
		double nn = (double)m;
		double mean = nn * (nn + 1) / 4;
		double var = nn * (nn + 1) * (2 * nn + 1) / 24 - ties / 48;
		double dev = fabs(w_plus - mean) - 0.5;
		/* var > 0 for m >= 1: one tie group of all m leaves m(m+1)^2/16 */
		out->p = dev > 0 ? erfc(dev / sqrt(var) / sqrt(2.0)) : 1;
		out->exact = 0;
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The depth d of the interval: the largest d with P(W+ < d) <= (1 - level)
 * / 2, exact for n <= SIGNRANK_EXACT_MAX, else from the normal law. */
static size_t interval_depth(size_t n, double level, double *coverage)
{
	size_t max = n * (n + 1) / 2, d = 0;
	double tail = (1.0 - level) / 2.0;

	if (n <= SIGNRANK_EXACT_MAX) {
		uint64_t count[SIGNRANK_EXACT_MAX * (SIGNRANK_EXACT_MAX + 1) / 2 + 1] = { 0 }, below = 0;
		count[0] = 1;
		for (size_t k = 1; k <= n; k++)
			for (size_t s = max; s >= k; s--)
				count[s] += count[s - k];
		/* P(W+ < d) = P(W+ <= d - 1) */
		while (d <= max && ldexp((double)(below + count[d]), -(int)n) <= tail)
			below += count[d++];
		*coverage = 1.0 - 2.0 * ldexp((double)below, -(int)n);
		return d;
	}
	{
		double mean = (double)max / 2.0, sd = sqrt((double)n * (n + 1) * (2 * n + 1) / 24.0);
		double z = stats_z_two_sided(level);
		d = (size_t)floor(mean - z * sd + 0.5);
		*coverage = level;
		return d;
	}
}

int signrank_interval(const double *x, size_t n, double level, struct signrank_ci *out)
{
	size_t m = n * (n + 1) / 2, k = 0, d;
	double *w;

	out->lo = out->point = out->hi = NAN;
	out->coverage = NAN;
	if (n == 0)
		return 0;
	if ((w = malloc(m * sizeof(double))) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			w[k++] = (x[i] + x[j]) / 2.0;
	qsort(w, m, sizeof(double), cmp_double);
	out->point = m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2.0;
	d = interval_depth(n, level, &out->coverage);
	if (d >= 1 && d <= m / 2) {
		out->lo = w[d - 1];
		out->hi = w[m - d];
	} else {
		out->coverage = NAN; /* too few values for this level */
	}
	free(w);
	return 0;
}

int signrank_ratio_interval(const double *ratios, size_t n, double level, struct signrank_ci *out)
{
	double *logs = malloc((n + 1) * sizeof(double));
	int rc;

	if (logs == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		logs[i] = log(ratios[i]);
	rc = signrank_interval(logs, n, level, out);
	free(logs);
	if (rc == 0) {
		out->lo = exp(out->lo);
		out->point = exp(out->point);
		out->hi = exp(out->hi);
	}
	return rc;
}
