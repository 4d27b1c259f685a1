/* timing/floorcheck.c — see floorcheck.h. */
#include "timing/floorcheck.h"

#include <math.h>
#include <stdio.h>

void floor_fig_of_series(struct floor_fig *f, const struct series *s)
{
	*f = (struct floor_fig){ NAN, NAN, NAN };
	if (s->nbatches == 0)
		return;
	f->median_ns = series_median_per_op(s);
	f->min_ns = f->max_ns = series_batch_per_op(s, 0);
	for (uint32_t b = 1; b < s->nbatches; b++) {
		double x = series_batch_per_op(s, b);
		f->min_ns = x < f->min_ns ? x : f->min_ns;
		f->max_ns = x > f->max_ns ? x : f->max_ns;
	}
}

/* x > FLOOR_RATIO * base, both measured */
static int over(double x, double base)
{
	return !isnan(x) && !isnan(base) && base > 0 && x > FLOOR_RATIO * base;
}

int floor_check(const struct floor_fig figs[FLOOR_KINDS], enum floor_kind k, char *why, size_t len)
{
	const struct floor_fig *f = &figs[k];
	double rt = figs[FLOOR_HANDOFF].median_ns, bare = figs[FLOOR_REF_BARE].median_ns;
	int ref = k == FLOOR_REF_BARE || k == FLOOR_REF_EVENT || k == FLOOR_REF_RESULT;

	if (isnan(f->median_ns))
		return 0;
	if (!(f->median_ns <= FLOOR_SCHEDULING_NS)) {
		snprintf(why, len, "%.0f ns per operation is a scheduling event (over %.0f µs), not %s", f->median_ns,
			 FLOOR_SCHEDULING_NS / 1000, ref || k == FLOOR_HANDOFF ? "a few cache lines" : "a call");
		return 1;
	}
	if (over(f->median_ns, f->min_ns)) {
		snprintf(
			why, len,
			"its median batch (%.2f ns) is %.0fx its fastest (%.2f ns): most batches measured something else (a thread descheduled or asleep)",
			f->median_ns, f->median_ns / f->min_ns, f->min_ns);
		return 1;
	}
	if (ref && over(f->median_ns, rt)) {
		snprintf(
			why, len,
			"%.2f ns is %.0fx the cache-line round trip (%.2f ns), and a spin handoff is a few round trips",
			f->median_ns, f->median_ns / rt, rt);
		return 1;
	}
	if ((k == FLOOR_REF_EVENT || k == FLOOR_REF_RESULT) && over(f->median_ns, bare)) {
		snprintf(why, len, "%.2f ns is %.0fx the bare step (%.2f ns), and the step adds one cache line to it",
			 f->median_ns, f->median_ns / bare, bare);
		return 1;
	}
	if (k == FLOOR_HANDOFF && over(f->median_ns, bare)) {
		snprintf(why, len,
			 "%.2f ns is %.0fx the reference handoff's bare step (%.2f ns), which contains a round trip",
			 f->median_ns, f->median_ns / bare, bare);
		return 1;
	}
	return 0;
}
