/* stats/pace.c — see pace.h. */
#include "stats/pace.h"

#include <string.h>

#include "stats/stats.h"

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

double pace_per_op(const struct pace *p)
{
	double x[PACE_MAX_GROUPS];

	if (p->n < 3)
		return pace_mean(p);
	memcpy(x, p->per_op, p->n * sizeof(x[0]));
	stats_sort(x, p->n);
	return stats_quantile_sorted(x, p->n, 0.25);
}

double pace_for_blocks(const struct pace *p)
{
	double mean = pace_mean(p), steady = pace_per_op(p);

	return 4 * steady < mean ? 4 * steady : mean;
}
