/* series.c — batches of a timed loop. */
#include "series.h"

#include <stdlib.h>
#include <string.h>

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

void series_per_op_all(const struct series *s, double *out)
{
	for (uint32_t i = 0; i < s->nbatches; i++)
		out[i] = series_batch_per_op(s, i);
}
