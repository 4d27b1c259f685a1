/* stats/pace.c — see pace.h. */
#include "stats/pace.h"

#include <string.h>

uint64_t pace_group(uint64_t n)
{
	uint64_t g = n / PACE_MAX_GROUPS + (n % PACE_MAX_GROUPS != 0);
	return g < PACE_MIN_GROUP ? PACE_MIN_GROUP : g;
}

void pace_init(struct pace *p)
{
	memset(p, 0, sizeof(*p));
}

void pace_add(struct pace *p, uint64_t calls, uint64_t ns)
{
	if (calls == 0)
		return;
	p->ns += ns;
	p->calls += calls;
	if (p->n < PACE_MAX_GROUPS)
		p->per_op[p->n++] = (double)ns / (double)calls;
}

double pace_mean(const struct pace *p)
{
	return p->calls ? (double)p->ns / (double)p->calls : 0;
}

double pace_fastest(const struct pace *p)
{
	double fastest = p->n ? p->per_op[0] : 0;

	for (size_t i = 1; i < p->n; i++)
		fastest = p->per_op[i] < fastest ? p->per_op[i] : fastest;
	return fastest;
}

double pace_for_blocks(const struct pace *p)
{
	double mean = pace_mean(p), steady = pace_fastest(p);

	return 4 * steady < mean ? 4 * steady : mean;
}
