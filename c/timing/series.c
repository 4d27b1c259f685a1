/* series.c — batches of a timed loop. */
#include "timing/series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

int series_init(struct series *s, uint64_t n, uint32_t nbatches)
{
	memset(s, 0, sizeof(*s));
	if (nbatches == 0 || n < nbatches)
		return -1;
	s->ns = calloc(nbatches, sizeof(*s->ns));
	s->ops = calloc(nbatches, sizeof(*s->ops));
	if (s->ns == NULL || s->ops == NULL) {
		series_free(s);
		return -1;
	}
	s->nbatches = nbatches;
	/* n requests split as evenly as possible, the remainder to the first batches */
	for (uint32_t i = 0; i < nbatches; i++)
		s->ops[i] = n / nbatches + (i < n % nbatches ? 1 : 0);
	s->total_ops = n;
	return 0;
}

void series_free(struct series *s)
{
	free(s->ns);
	free(s->ops);
	memset(s, 0, sizeof(*s));
}

void series_add(struct series *s, uint32_t batch, uint64_t ns)
{
	s->ns[batch] = ns;
	s->total_ns += ns;
}

double series_batch_per_op(const struct series *s, uint32_t batch)
{
	return (double)s->ns[batch] / (double)s->ops[batch];
}

double series_per_op(const struct series *s)
{
	return s->total_ops ? (double)s->total_ns / (double)s->total_ops : 0.0;
}

uint32_t batches_stalls(const struct series *s, double *slowest_per_op, double *median_per_op)
{
	double *ns = malloc(s->nbatches * sizeof(*ns));
	double median_ns;
	uint32_t stalls = 0;

	*slowest_per_op = NAN;
	*median_per_op = NAN;
	if (ns == NULL || s->nbatches == 0) {
		free(ns);
		return 0;
	}
	for (uint32_t i = 0; i < s->nbatches; i++)
		ns[i] = (double)s->ns[i];
	median_ns = stats_median(ns, s->nbatches);
	for (uint32_t i = 0; i < s->nbatches; i++) {
		double per = series_batch_per_op(s, i);
		if (isnan(*slowest_per_op) || per > *slowest_per_op)
			*slowest_per_op = per;
		if (ns[i] >= median_ns + STALL_EXCESS_NS)
			stalls++;
		ns[i] = per;
	}
	*median_per_op = stats_median(ns, s->nbatches);
	free(ns);
	return stalls;
}

double series_median_per_op(const struct series *s)
{
	double slowest, median;
	batches_stalls(s, &slowest, &median);
	return median;
}
