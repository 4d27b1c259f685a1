/* analyse/roundtrip.c — see roundtrip.h. */
#include "analyse/roundtrip.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/signrank.h"
#include "stats/stats.h"
#include "stats/theilsen.h"

/* The rounds the three cells all have. */
static size_t common_rounds(const struct paired_rec *p, int a, int b, int c)
{
	size_t n = p->cells[a].nblocks;

	if (p->cells[b].nblocks < n)
		n = p->cells[b].nblocks;
	return p->cells[c].nblocks < n ? p->cells[c].nblocks : n;
}

void roundtrip_fit(struct roundtrip_lib_rec *l, const double *rt, const double *async, size_t n)
{
	struct theilsen ts;
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, rt[i]);
		hi = fmax(hi, rt[i]);
	}
	l->fitted = 0;
	l->slope = l->slope_low = l->slope_high = l->intercept_ns = NAN;
	if (n < ROUNDTRIP_FIT_MIN) {
		snprintf(l->why, sizeof(l->why), "%zu generations: a line needs %d at least", n, ROUNDTRIP_FIT_MIN);
		return;
	}
	if (!(hi >= ROUNDTRIP_FIT_SPREAD * lo)) {
		snprintf(l->why, sizeof(l->why),
			 "the round trip moved from %.1f to %.1f ns over %zu generations (x%.2f): too little for a "
			 "slope (x%.1f needed)",
			 lo, hi, n, hi / lo, ROUNDTRIP_FIT_SPREAD);
		return;
	}
	if (theilsen_fit(rt, async, n, 0.95, &ts) != 0 || !isfinite(ts.slope_lo)) {
		snprintf(l->why, sizeof(l->why), "no interval for the slope from %zu generations", n);
		return;
	}
	l->fitted = 1;
	l->slope = ts.slope;
	l->slope_low = ts.slope_lo;
	l->slope_high = ts.slope_hi;
	l->intercept_ns = ts.intercept;
}

/* One library: its async and sync cells, through its two ratios. */
static int one_lib(struct paired_rec *p, const char *lib, struct roundtrip_lib_rec *l)
{
	char name[80];
	const struct pair_ratio_rec *as, *ar;
	int rc = -1;

	snprintf(name, sizeof(name), "async/sync lib=%s wall", lib);
	as = paired_find_ratio(p, name);
	snprintf(name, sizeof(name), "async/roundtrip lib=%s wall", lib);
	ar = paired_find_ratio(p, name);
	memset(l, 0, sizeof(*l));
	snprintf(l->lib, sizeof(l->lib), "%s", lib);
	l->rts = l->rts_low = l->rts_high = l->crossover_ns = l->crossover_low = l->crossover_high = NAN;
	l->sync_ns = l->async_ns = NAN;
	if (as == NULL || ar == NULL || as->num != ar->num)
		return 1; /* not this library */
	const struct pair_cell_rec *a = &p->cells[as->num], *s = &p->cells[as->den], *r = &p->cells[ar->den];
	size_t n = common_rounds(p, as->num, as->den, ar->den), g = p->ngenerations;
	double *z = malloc((n + 1) * sizeof(double)), *zg = malloc((g + 1) * sizeof(double));
	double *ag = malloc((g + 1) * sizeof(double)), *sg = malloc((g + 1) * sizeof(double));
	struct signrank_ci ci;

	if (z == NULL || zg == NULL || ag == NULL || sg == NULL)
		goto out;
	for (size_t i = 0; i < n; i++)
		z[i] = r->block_ns[i] * s->block_ns[i] / a->block_ns[i];
	paired_generation_medians(p, z, n, zg);
	paired_generation_medians(p, a->block_ns, n, ag);
	paired_generation_medians(p, s->block_ns, n, sg);
	l->rts = ar->estimate;
	l->rts_low = ar->low;
	l->rts_high = ar->high;
	l->async_ns = stats_median(ag, g);
	l->sync_ns = stats_median(sg, g);
	if (signrank_ratio_interval(zg, g, 0.95, &ci) != 0)
		goto out;
	l->crossover_ns = ci.point;
	l->crossover_low = ci.lo;
	l->crossover_high = ci.hi;
	roundtrip_fit(l, p->roundtrip.gen_ns, ag, p->roundtrip.ngen);
	rc = 0;
out:
	free(z);
	free(zg);
	free(ag);
	free(sg);
	return rc;
}

int roundtrip_points(const struct paired_rec *p, const char *lib, double *rt, double *async)
{
	char name[80];
	const struct pair_ratio_rec *ar;
	size_t n;

	snprintf(name, sizeof(name), "async/roundtrip lib=%s wall", lib);
	if ((ar = paired_find_ratio(p, name)) == NULL || p->ngenerations == 0)
		return 0;
	n = p->cells[ar->num].nblocks < p->cells[ar->den].nblocks ? p->cells[ar->num].nblocks
								  : p->cells[ar->den].nblocks;
	paired_generation_medians(p, p->cells[ar->den].block_ns, n, rt);
	paired_generation_medians(p, p->cells[ar->num].block_ns, n, async);
	return (int)p->ngenerations;
}

int roundtrip_analyse(struct doc *d)
{
	static const char *const libs[] = { "archive", "shared" };
	struct paired_rec *p = &d->paired;
	struct roundtrip_rec *rt = &p->roundtrip;
	const struct pair_ratio_rec *ar = paired_find_ratio(p, "async/roundtrip lib=archive wall");
	size_t g = p->ngenerations;
	stats_summary gs;

	if (!d->has_paired || ar == NULL || g == 0)
		return 0;
	free(rt->gen_ns);
	free(rt->libs);
	memset(rt, 0, sizeof(*rt));
	snprintf(rt->cell, sizeof(rt->cell), "%s", p->cells[ar->den].name);
	if ((rt->gen_ns = malloc(g * sizeof(double))) == NULL || (rt->libs = calloc(2, sizeof(*rt->libs))) == NULL)
		return -1;
	rt->ngen = g;
	paired_generation_medians(p, p->cells[ar->den].block_ns, p->cells[ar->den].nblocks, rt->gen_ns);
	if (stats_summarize(rt->gen_ns, g, &gs) != 0)
		return -1;
	rt->ns = gs.median;
	rt->ns_min = gs.min;
	rt->ns_max = gs.max;
	p->has_roundtrip = 1;
	for (size_t k = 0; k < 2; k++) {
		int rc = one_lib(p, libs[k], &rt->libs[rt->nlibs]);
		if (rc < 0)
			return -1;
		if (rc == 0)
			rt->nlibs++;
	}
	return 0;
}
