/* analyse/verdict.c — see verdict.h. */
#include "analyse/verdict.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stats/change.h"

#define NOT_GATED                                                                                                      \
	"machine key differs (CPU, kernel, Go version, library or options): absolute times are not comparable; judged by ratios"

static void judge(struct change_rec *r, const char *scenario, const char *kind, const double *xb, size_t nb,
		  const double *xc, size_t nc, int gated, double threshold, uint64_t seed)
{
	memset(r, 0, sizeof(*r));
	if (compare_change(xb, nb, xc, nc, threshold, VERDICT_ALPHA, seed, &r->ch) != 0) {
		memset(&r->ch, 0, sizeof(r->ch));
		r->ch.lo = r->ch.point = r->ch.hi = r->ch.p = NAN;
		r->ch.alpha = VERDICT_ALPHA;
		r->ch.threshold = threshold;
		r->ch.verdict = VERDICT_UNDEFINED;
	}
	snprintf(r->scenario, sizeof(r->scenario), "%s", scenario);
	snprintf(r->kind, sizeof(r->kind), "%s", kind);
	r->gated = gated;
	r->base_n = nb;
	r->n = nc;
	if (format_change(r->line, sizeof(r->line), &r->ch) < 0)
		snprintf(r->line, sizeof(r->line), "change: n/a");
	if (!gated)
		snprintf(r->not_gated_because, sizeof(r->not_gated_because), "%s", NOT_GATED);
}

static struct change_rec *next_change(struct comparison_rec *cmp)
{
	return model_append((void **)&cmp->changes, &cmp->nchanges, sizeof(*cmp->changes));
}

/* cur's comparison, empty, against the build or baseline named against,
 * judged with these gates. */
static void comparison_begin(struct doc *cur, const char *against, int same_time, double threshold, uint64_t seed)
{
	struct comparison_rec *cmp = &cur->comparison;

	memset(cmp, 0, sizeof(*cmp));
	cur->has_comparison = 1;
	snprintf(cmp->against, sizeof(cmp->against), "%s", against);
	cmp->same_time = same_time;
	cmp->machine_key_matches = 1;
	cmp->threshold = threshold;
	cmp->alpha = VERDICT_ALPHA;
	cmp->seed = seed;
	cmp->resamples = COMPARE_RESAMPLES;
}

/* The run's verdict from its gated changes: regressed when one is; else
 * inconclusive when one could not tell (inconclusive, or undefined: too
 * few samples), with what would tell it; else no regression. */
static void conclude(struct comparison_rec *cmp)
{
	cmp->regressed = cmp->inconclusive = 0;
	cmp->need_factor = cmp->need_s = NAN;
	for (size_t i = 0; i < cmp->nchanges; i++) {
		const struct change_rec *c = &cmp->changes[i];
		size_t n = c->n < c->base_n ? c->n : c->base_n,
		       min = c->min_n > COMPARE_MIN_SAMPLES ? c->min_n : COMPARE_MIN_SAMPLES;
		double f;
		if (!c->gated)
			continue;
		if (c->ch.verdict == VERDICT_REGRESSED)
			cmp->regressed = 1;
		if (verdict_passes(c->ch.verdict) || c->ch.verdict == VERDICT_REGRESSED)
			continue;
		/* the most any undecided change needs; NAN (one that no length
		 * would tell, or not known) wins */
		f = c->ch.verdict == VERDICT_UNDEFINED ? (n ? (double)min / (double)n : NAN)
						       : change_need_factor(&c->ch);
		if (!cmp->inconclusive)
			cmp->need_factor = f;
		else if (isnan(f) || isnan(cmp->need_factor))
			cmp->need_factor = NAN;
		else if (f > cmp->need_factor)
			cmp->need_factor = f;
		cmp->inconclusive = 1;
	}
	if (cmp->regressed)
		cmp->inconclusive = 0;
}

/* verdict_require's, what naming the samples in the reason ("too few
 * generations for a verdict: N of M"). */
static void require(struct comparison_rec *cmp, size_t min, const char *what)
{
	size_t fewest = SIZE_MAX;

	cmp->min_samples = min;
	cmp->regressed = 0;
	cmp->undefined_because[0] = '\0';
	for (size_t i = 0; i < cmp->nchanges; i++) {
		struct change_rec *c = &cmp->changes[i];
		size_t n = c->n < c->base_n ? c->n : c->base_n;
		c->min_n = min;
		if (n < fewest)
			fewest = n;
		if (n < min)
			c->ch.verdict = VERDICT_UNDEFINED;
	}
	if (cmp->nchanges && fewest < min)
		snprintf(cmp->undefined_because, sizeof(cmp->undefined_because), "too few %s for a verdict: %zu of %zu",
			 what, fewest, min);
	conclude(cmp);
}

int compare_documents(const struct doc *base, struct doc *cur, const char *against, int same_time, double threshold,
		      uint64_t seed)
{
	struct comparison_rec *cmp = &cur->comparison;
	struct change_rec *r;

	comparison_begin(cur, against, same_time, threshold, seed);
	for (size_t i = 0; i < cur->ncells; i++) {
		const struct cell_rec *c = &cur->cells[i], *b = doc_find_cell(base, c->name);
		int match;
		if (b == NULL)
			continue;
		match = strcmp(b->st.key, c->st.key) == 0;
		cmp->machine_key_matches &= match;
		if ((r = next_change(cmp)) == NULL)
			return -1;
		judge(r, c->name, "cell", b->st.samples, b->st.nsamples, c->st.samples, c->st.nsamples,
		      same_time || match, threshold, seed);
	}
	for (size_t i = 0; i < cur->nratios; i++) {
		const struct ratio_rec *c = &cur->ratios[i], *b = doc_find_ratio(base, c->name);
		if (b == NULL)
			continue;
		if ((r = next_change(cmp)) == NULL)
			return -1;
		judge(r, c->name, "ratio", b->samples, b->nsamples, c->samples, c->nsamples, 1, threshold, seed);
	}
	conclude(cmp);
	/* two builds at one time: a verdict needs enough launches on a side */
	if (same_time)
		verdict_require(cmp, VERDICT_MIN_GENERATIONS);
	return 0;
}

int compare_counts(const struct doc *base, struct doc *cur, const char *against, double threshold, uint64_t seed,
		   size_t min)
{
	struct comparison_rec *cmp = &cur->comparison;
	struct change_rec *r;

	comparison_begin(cur, against, 1, threshold, seed);
	for (size_t i = 0; i < cur->ncells; i++) {
		const struct cell_rec *c = &cur->cells[i], *b = doc_find_cell(base, c->name);
		if (b == NULL || !c->has_counts || !b->has_counts || !c->counts.has_instructions ||
		    !b->counts.has_instructions)
			continue;
		if ((r = next_change(cmp)) == NULL)
			return -1;
		judge(r, c->name, "cell", b->counts.instructions.per_pair, b->counts.instructions.npairs,
		      c->counts.instructions.per_pair, c->counts.instructions.npairs, 1, threshold, seed);
		snprintf(r->metric, sizeof(r->metric), "instructions");
		memcpy(r->base_samples, b->counts.instructions.per_pair, r->base_n * sizeof(double));
		memcpy(r->samples, c->counts.instructions.per_pair, r->n * sizeof(double));
	}
	require(cmp, min, "pairs of counted runs");
	return 0;
}

void verdict_require(struct comparison_rec *cmp, size_t min)
{
	require(cmp, min, "generations");
}

void compare_allocators(struct doc *d, double threshold, uint64_t seed)
{
	for (size_t i = 0; i < d->ncells; i++) {
		struct cell_rec *c = &d->cells[i];
		const char *m = strstr(c->name, "/malloc=");
		char base_name[MODEL_NAME_MAX + 16];
		const struct cell_rec *b;

		if (m == NULL || strcmp(m, "/malloc=glibc") == 0)
			continue;
		snprintf(base_name, sizeof(base_name), "%.*s/malloc=glibc", (int)(m - c->name), c->name);
		if ((b = doc_find_cell(d, base_name)) == NULL)
			continue;
		judge(&c->vs_glibc, c->name, "cell", b->st.samples, b->st.nsamples, c->st.samples, c->st.nsamples, 1,
		      threshold, seed);
		c->has_vs_glibc = 1;
	}
}
