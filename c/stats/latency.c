/* stats/latency.c — see latency.h. */
#include "stats/latency.h"

#include <math.h>
#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

double latency_percentile_sorted(const uint64_t *sorted, size_t n, double q)
{
	double rank;
	size_t k;

	if (n == 0 || !(q > 0.0 && q <= 1.0))
		return NAN;
	rank = ceil(q * (double)n - 1e-9); /* 1-based; the epsilon keeps 0.99 * 100 at 99 */
	k = rank < 1.0 ? 0 : (size_t)rank - 1;
	if (k >= n)
		k = n - 1;
	return (double)sorted[k];
}

void latency_summarize(uint64_t *ns, size_t n, struct latency_summary *out)
{
	long double sum = 0;

	out->n = n;
	out->over_1ms = 0;
	if (n > 1) /* qsort wants a valid pointer even for nothing to sort */
		qsort(ns, n, sizeof(*ns), cmp_u64);
	for (size_t i = 0; i < n; i++) {
		sum += ns[i];
		out->over_1ms += ns[i] > LATENCY_SLOW_NS;
	}
	out->p50 = latency_percentile_sorted(ns, n, 0.50);
	out->p90 = latency_percentile_sorted(ns, n, 0.90);
	out->p99 = latency_percentile_sorted(ns, n, 0.99);
	out->p999 = latency_percentile_sorted(ns, n, 0.999);
	out->max = n ? (double)ns[n - 1] : NAN;
	out->mean = n ? (double)(sum / (long double)n) : NAN;
}
