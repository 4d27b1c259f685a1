/* stats/shift.c — see shift.h. */
#include "stats/shift.h"

#include <math.h>

/* How many differences cur[j] - base[i] are <= t: for each j (ascending),
 * the base values from the first whose difference is <= t on, a pointer
 * that only moves forward. */
static double count_at_most(const double *base, size_t nb, const double *cur, size_t nc, double t)
{
	double count = 0;
	size_t i = 0;

	for (size_t j = 0; j < nc; j++) {
		while (i < nb && cur[j] - base[i] > t)
			i++;
		count += (double)(nb - i);
	}
	return count;
}

/* The smallest difference cur[j] - base[i] above t (INFINITY if none): for
 * each j, the last base value whose difference is still above t. */
static double smallest_above(const double *base, size_t nb, const double *cur, size_t nc, double t)
{
	double best = INFINITY;
	size_t i = 0;

	for (size_t j = 0; j < nc; j++) {
		while (i + 1 < nb && cur[j] - base[i + 1] > t)
			i++;
		if (cur[j] - base[i] > t && cur[j] - base[i] < best)
			best = cur[j] - base[i];
	}
	return best;
}

double shift_kth_difference(const double *base, size_t nb, const double *cur, size_t nc, double k)
{
	double lo = cur[0] - base[nb - 1], hi = cur[nc - 1] - base[0];

	/* the smallest difference is the first; then, with count(lo) < k <=
	 * count(hi), bisect until the next difference above lo is the k-th */
	if (count_at_most(base, nb, cur, nc, lo) >= k)
		return lo;
	for (int it = 0; it < 2000; it++) {
		double next = smallest_above(base, nb, cur, nc, lo), mid;
		if (count_at_most(base, nb, cur, nc, next) >= k)
			return next;
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (count_at_most(base, nb, cur, nc, mid) >= k)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

int shift_interval(const double *base, size_t nb, const double *cur, size_t nc, double z, double *lo, double *hi)
{
	double m = (double)nb * (double)nc, n = (double)(nb + nc);
	double c = floor(m / 2.0 - z * sqrt(m * (n + 1.0) / 12.0));

	if (!(c >= 1.0))
		return -1;
	*lo = shift_kth_difference(base, nb, cur, nc, c);
	*hi = shift_kth_difference(base, nb, cur, nc, m + 1.0 - c);
	return 0;
}
