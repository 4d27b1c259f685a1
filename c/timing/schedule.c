/* timing/schedule.c — see schedule.h. */
#include "timing/schedule.h"

#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"

int schedule_make(struct schedule *s, size_t n, double rate, enum arrival arrival, uint64_t seed)
{
	stats_rng rng;
	double t = 0.0, mean_gap = 1e9 / rate;

	s->n = n;
	s->rate = rate;
	if ((s->at_ns = calloc(n ? n : 1, sizeof(*s->at_ns))) == NULL)
		return -1;
	stats_rng_seed(&rng, seed);
	for (size_t i = 0; i < n; i++) {
		if (arrival == ARRIVAL_EVEN) {
			t = (double)i * mean_gap;
		} else if (i > 0) {
			/* inverse transform: -ln(1 - U) is exponential of mean 1 */
			t += -log1p(-stats_rng_uniform(&rng)) * mean_gap;
		}
		s->at_ns[i] = (uint64_t)llround(t);
	}
	return 0;
}

void schedule_free(struct schedule *s)
{
	free(s->at_ns);
	s->at_ns = NULL;
	s->n = 0;
}

double schedule_achieved_rate(uint64_t requests, uint64_t start_ns, uint64_t end_ns)
{
	if (requests == 0 || end_ns <= start_ns)
		return NAN;
	return (double)requests * 1e9 / (double)(end_ns - start_ns);
}
