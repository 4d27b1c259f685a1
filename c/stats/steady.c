/* stats/steady.c — see steady.h. */
#include "stats/steady.h"

void steady_init(struct steady *s)
{
	s->n = 0;
}

int steady_add(struct steady *s, uint64_t group_ns)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	s->last[s->n % STEADY_RUN] = group_ns;
	s->n++;
	if (s->n < STEADY_RUN)
		return 0;
	for (unsigned i = 0; i < STEADY_RUN; i++) {
		lo = s->last[i] < lo ? s->last[i] : lo;
		hi = s->last[i] > hi ? s->last[i] : hi;
	}
	return lo > 0 && (double)hi <= (1.0 + STEADY_BAND) * (double)lo;
}
