/* analyse/paired.c — see paired.h. */
#include "analyse/paired.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/roundtrip.h"
#include "analyse/verdict.h"
#include "stats/change.h"
#include "stats/signrank.h"
#include "stats/stats.h"

/* The per-round ratios of two cells' per-extraction arrays. */
static double *ratios_of(const double *num, const double *den, size_t n)
{
	double *x = malloc((n + 1) * sizeof(double));
	if (x == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++)
		x[i] = num[i] / den[i];
	return x;
}

/* The statistics of one ratio: the generations' ratios are the samples
 * (each the median of its rounds); the rounds pooled are shown beside them,
 * for the precision within one process. */
static int analyse_ratio(const struct paired_rec *p, struct pair_ratio_rec *r, double threshold, double level)
{
	const struct pair_cell_rec *a = &p->cells[r->num], *b = &p->cells[r->den];
	size_t n = a->nblocks < b->nblocks ? a->nblocks : b->nblocks, g = p->ngenerations;
	double *pairs = ratios_of(a->block_ns, b->block_ns, n);
	double *x = malloc((g + 1) * sizeof(double)), *cpu = malloc((g + 1) * sizeof(double));
	double *logs = malloc((g + 1) * sizeof(double));
	struct signrank sr;
	struct signrank_ci ci;
	int rc = -1;

	if (pairs == NULL || x == NULL || cpu == NULL || logs == NULL ||
	    paired_generation_ratios(p, r, a->block_ns, b->block_ns, x) != 0 ||
	    paired_generation_ratios(p, r, a->block_cpu_ns, b->block_cpu_ns, cpu) != 0)
		goto out;
	for (size_t i = 0; i < g; i++)
		logs[i] = log(x[i]);
	snprintf(r->st.unit, sizeof(r->st.unit), "ratio");
	snprintf(r->cpu.unit, sizeof(r->cpu.unit), "ratio");
	snprintf(r->pairs.unit, sizeof(r->pairs.unit), "ratio");
	/* a judged ratio's interval at the level its verdict was drawn at
	 * (the sequential design's look, paired_judged_level), the others' at
	 * 95% */
	if (stats_summarize(x, g, &r->st.s) != 0 || stats_summarize(cpu, g, &r->cpu.s) != 0 ||
	    stats_summarize(pairs, n, &r->pairs.s) != 0 || signrank_test(logs, g, &sr) != 0 ||
	    signrank_ratio_interval(x, g, r->judged ? level : 0.95, &ci) != 0)
		goto out;
	r->estimate = ci.point;
	r->low = ci.lo;
	r->high = ci.hi;
	r->coverage = ci.coverage;
	r->half_width_pct = 100.0 * (r->high - r->low) / 2.0 / r->estimate;
	r->p = sr.p;
	r->w_plus = sr.w_plus;
	r->exact = sr.exact;
	free(r->samples);
	r->samples = x;
	r->nsamples = g;
	x = NULL;
	if (r->judged) {
		memset(&r->ch, 0, sizeof(r->ch));
		r->ch.point = r->estimate - 1.0;
		r->ch.lo = r->low - 1.0;
		r->ch.hi = r->high - 1.0;
		r->ch.p = r->p;
		r->ch.alpha = 1.0 - level;
		r->ch.threshold = threshold;
		r->ch.verdict = compare_verdict(r->ch.lo, r->ch.hi, r->ch.p, r->ch.alpha, threshold);
	}
	rc = 0;
out:
	free(pairs);
	free(x);
	free(cpu);
	free(logs);
	return rc;
}

int analyse_paired(struct doc *d, double threshold, char *err, size_t errlen)
{
	struct paired_rec *p = &d->paired;

	if (!d->has_paired)
		return 0;
	for (size_t k = 0; k < p->nratios; k++) {
		struct pair_ratio_rec *r = &p->ratios[k];
		if (r->num < 0 || r->den < 0 || (size_t)r->num >= p->ncells || (size_t)r->den >= p->ncells) {
			snprintf(err, errlen, "paired ratio %s names a cell that is not there", r->name);
			return -1;
		}
		if (analyse_ratio(p, r, threshold, paired_judged_level(p)) != 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	if (roundtrip_analyse(d) != 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int compare_paired(struct doc *d, const char *against, double threshold)
{
	struct comparison_rec *cmp = &d->comparison;

	memset(cmp, 0, sizeof(*cmp));
	d->has_comparison = 1;
	snprintf(cmp->against, sizeof(cmp->against), "%s", against);
	cmp->same_time = 1;
	cmp->machine_key_matches = 1;
	cmp->threshold = threshold;
	cmp->alpha = VERDICT_ALPHA;
	for (size_t k = 0; k < d->paired.nratios; k++) {
		struct pair_ratio_rec *r = &d->paired.ratios[k];
		struct change_rec *c;
		if (!r->judged)
			continue;
		/* too few generations: the figures stand, the verdict does not */
		if (r->nsamples < VERDICT_MIN_GENERATIONS)
			r->ch.verdict = VERDICT_UNDEFINED;
		if ((c = model_append((void **)&cmp->changes, &cmp->nchanges, sizeof(*cmp->changes))) == NULL)
			return -1;
		snprintf(c->scenario, sizeof(c->scenario), "%s", r->name);
		snprintf(c->kind, sizeof(c->kind), "pair");
		c->gated = 1;
		c->ch = r->ch;
		c->base_n = c->n = r->nsamples;
		if (format_change(c->line, sizeof(c->line), &c->ch) < 0)
			snprintf(c->line, sizeof(c->line), "change: n/a");
	}
	verdict_require(cmp, VERDICT_MIN_GENERATIONS);
	/* what would tell: the generations' time so far, that many times more */
	if (cmp->inconclusive && isfinite(cmp->need_factor) && d->paired.elapsed_s > 0)
		cmp->need_s = d->paired.elapsed_s * (cmp->need_factor > 1 ? cmp->need_factor - 1 : 0);
	return 0;
}

verdict_t paired_look(const struct paired_rec *pr, double alpha, double threshold)
{
	size_t judged = 0, g = pr->ngenerations;
	int regressed = 0, passed = 1;
	double *x = malloc((g + 1) * sizeof(double)), *logs = malloc((g + 1) * sizeof(double));

	for (size_t k = 0; k < pr->nratios; k++)
		judged += pr->ratios[k].judged != 0;
	for (size_t k = 0; x != NULL && logs != NULL && judged && k < pr->nratios; k++) {
		const struct pair_ratio_rec *r = &pr->ratios[k];
		struct signrank sr;
		struct signrank_ci ci;
		double a = alpha / (double)judged;
		verdict_t v = VERDICT_UNDEFINED;
		if (!r->judged)
			continue;
		if (paired_generation_ratios(pr, r, pr->cells[r->num].block_ns, pr->cells[r->den].block_ns, x) == 0) {
			for (size_t i = 0; i < g; i++)
				logs[i] = log(x[i]);
			if (signrank_test(logs, g, &sr) == 0 && signrank_ratio_interval(x, g, 1.0 - a, &ci) == 0)
				v = compare_verdict(ci.lo - 1.0, ci.hi - 1.0, sr.p, a, threshold);
		}
		regressed |= v == VERDICT_REGRESSED;
		passed &= verdict_passes(v);
	}
	free(x);
	free(logs);
	if (!judged)
		return VERDICT_UNDEFINED;
	return regressed ? VERDICT_REGRESSED : passed ? VERDICT_NO_CHANGE : VERDICT_INCONCLUSIVE;
}
