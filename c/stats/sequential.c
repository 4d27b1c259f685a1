/* stats/sequential.c — see sequential.h. */
#include "stats/sequential.h"

#include <math.h>

/* The look after one at n samples. */
static size_t next_look(size_t n)
{
	size_t g = (size_t)ceil(SEQ_GROWTH * (double)n - 1e-9);
	return g > n ? g : n + 1;
}

void seq_init(struct seq_design *d, size_t first, size_t nmax, double alpha)
{
	d->first = first ? first : 1;
	d->nmax = nmax;
	d->alpha = alpha;
	d->taken = 0;
	d->spent = 0;
	d->nlooks = 1;
	for (size_t n = d->first; n < nmax; n = next_look(n))
		d->nlooks++;
}

int seq_is_look(const struct seq_design *d, size_t n)
{
	for (size_t k = d->first; k < d->nmax && k <= n; k = next_look(k))
		if (k == n)
			return 1;
	return 0;
}

double seq_take(struct seq_design *d, int final)
{
	double a;

	if (final)
		a = d->alpha - d->spent;
	else if (d->taken + 1 < d->nlooks)
		a = d->alpha / d->nlooks;
	else
		a = 0;
	if (a < 0)
		a = 0;
	d->spent += a;
	d->taken++;
	return a;
}
