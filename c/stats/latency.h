/* stats/latency.h — the latency distribution of an open-loop run: exact
 * percentiles from the stored samples (one per request, in ns), the mean,
 * the maximum and how many requests waited more than 1 ms. */
#ifndef CGOCOST_STATS_LATENCY_H
#define CGOCOST_STATS_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#define LATENCY_SLOW_NS UINT64_C(1000000) /* "waited more than 1 ms" */

struct latency_summary {
	uint64_t n;
	double p50, p90, p99, p999, max, mean; /* ns; NAN when n == 0 */
	uint64_t over_1ms;		       /* requests whose latency exceeded 1 ms */
};

/* The nearest-rank percentile of an ascending array: the smallest value
 * with at least q of the samples at or below it (q in (0, 1]). NAN if n is
 * 0 or q is outside (0, 1]. Exact: always one of the samples. */
double latency_percentile_sorted(const uint64_t *sorted, size_t n, double q);

/* Summarizes ns[0..n); sorts ns in place. */
void latency_summarize(uint64_t *ns, size_t n, struct latency_summary *out);

#endif
