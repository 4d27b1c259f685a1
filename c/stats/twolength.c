/* stats/twolength.c — see twolength.h. */
#include "stats/twolength.h"

#include <math.h>

#include "stats/stats.h"

double twolength_per_op(uint64_t short_total, uint64_t long_total, uint64_t ops)
{
	/* the difference taken in integers, so that totals past 2^53 lose
	 * nothing before it is divided */
	double diff =
		long_total >= short_total ? (double)(long_total - short_total) : -(double)(short_total - long_total);

	if (ops == 0)
		return NAN;
	return diff / (double)ops;
}

void twolength_spread(const double *x, size_t n, double *median, double *min, double *max)
{
	stats_summary s;

	/* NAN-free input: only an allocation failure leaves s undefined */
	stats_summarize(x, n, &s);
	*median = s.median;
	*min = s.min;
	*max = s.max;
}

double twolength_range_pct(double median, double min, double max)
{
	if (!(fabs(median) > 0) || isnan(min) || isnan(max))
		return NAN;
	return 100.0 * (max - min) / fabs(median);
}

int twolength_resolved(double min)
{
	return min >= 0;
}
