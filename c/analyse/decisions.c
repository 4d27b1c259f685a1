/* analyse/decisions.c — see decisions.h. */
#include "analyse/decisions.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

/* The figure a decision rests on: a ratio, its interval, and the cells it
 * divides (NULL when the document does not hold them). */
struct figure {
	double estimate, low, high, level;
	size_t n;
	const struct cell_rec *num, *den;
};

/* The ratio named name: a paired run's estimate first, else the ratio over
 * launches. 0, or -1 when the document has no such ratio. */
static int find_figure(const struct doc *d, const char *name, struct figure *f)
{
	const struct paired_rec *p = &d->paired;
	const struct pair_ratio_rec *r = d->has_paired ? paired_find_ratio(p, name) : NULL;
	const struct ratio_rec *lr;

	memset(f, 0, sizeof(*f));
	f->level = doc_ci_level(d);
	if (r != NULL) {
		f->estimate = r->estimate;
		f->low = r->low;
		f->high = r->high;
		f->n = r->nsamples;
		if (r->num >= 0 && (size_t)r->num < p->ncells)
			f->num = doc_find_cell(d, p->cells[r->num].name);
		if (r->den >= 0 && (size_t)r->den < p->ncells)
			f->den = doc_find_cell(d, p->cells[r->den].name);
		return isfinite(f->estimate) ? 0 : -1;
	}
	if ((lr = doc_find_ratio(d, name)) == NULL)
		return -1;
	f->estimate = lr->st.s.median;
	f->low = lr->st.s.ci_lo;
	f->high = lr->st.s.ci_hi;
	f->n = lr->st.s.n;
	f->num = doc_find_cell(d, lr->numerator);
	f->den = doc_find_cell(d, lr->denominator);
	return isfinite(f->estimate) ? 0 : -1;
}

static void begin(struct decision_rec *r, enum decision_key k)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->key, sizeof(r->key), "%s", decision_key_name(k));
	snprintf(r->question, sizeof(r->question), "%s", decision_question(k));
	r->estimate = r->low = r->high = NAN;
}

static void not_measured(struct decision_rec *r, const char *command)
{
	r->measured = 0;
	snprintf(r->command, sizeof(r->command), "%s", command);
}

/* A question answered by one ratio, lower is better: numerator over
 * denominator, each described for the sentence. */
struct ratio_question {
	enum decision_key key;
	const char *command;	       /* what measures it */
	const char *num, *den;	       /* "an async call (its handoff)", "a sync call" */
	const char *num_tag, *den_tag; /* "async", "sync": the costs' names */
	const char *if_below;	       /* the answer when the whole interval is below 1 */
	const char *if_above;	       /* ... above 1 */
};

/* " (async 283.3 ns, sync 103.6 ns here)": the cells' medians, or "". */
static void costs(char *buf, size_t len, const struct ratio_question *q, const struct figure *f)
{
	buf[0] = '\0';
	if (f->num && f->den && f->num->analysed && f->den->analysed && isfinite(f->num->st.time.s.median) &&
	    isfinite(f->den->st.time.s.median))
		snprintf(buf, len, " (%s %.1f ns, %s %.1f ns here)", q->num_tag, f->num->st.time.s.median, q->den_tag,
			 f->den->st.time.s.median);
}

static void answer_ratio(struct decision_rec *r, const struct ratio_question *q, const char *name,
			 const struct figure *f)
{
	char c[128];

	costs(c, sizeof(c), q, f);
	r->measured = 1;
	snprintf(r->figure, sizeof(r->figure), "%s", name);
	r->estimate = f->estimate;
	r->low = f->low;
	r->high = f->high;
	if (!isfinite(f->low) || !isfinite(f->high)) {
		r->low = r->high = NAN;
		snprintf(r->answer, sizeof(r->answer), "%s", DECISION_TOO_FEW);
		snprintf(
			r->flips_when, sizeof(r->flips_when),
			"the ratio is %.3f%s, but %zu sample%s give%s no %.0f%% interval (%d are needed): an answer needs "
			"more samples, a longer --time or more --launches (as in %s)",
			f->estimate, c, f->n, f->n == 1 ? "" : "s", f->n == 1 ? "s" : "", 100.0 * f->level,
			STATS_MIN_CI_SAMPLES, q->command);
	} else if (f->low > 1.0) {
		snprintf(r->answer, sizeof(r->answer), "%s", q->if_above);
		snprintf(r->flips_when, sizeof(r->flips_when),
			 "%s would win only where it cost less than %s%s: the ratio would have to fall below 1, its "
			 "interval is [%.3f, %.3f]",
			 q->num, q->den, c, f->low, f->high);
	} else if (f->high < 1.0) {
		snprintf(r->answer, sizeof(r->answer), "%s", q->if_below);
		snprintf(r->flips_when, sizeof(r->flips_when),
			 "%s would win only where it cost less than %s%s: the ratio would have to rise above 1, its "
			 "interval is [%.3f, %.3f]",
			 q->den, q->num, c, f->low, f->high);
	} else {
		snprintf(r->answer, sizeof(r->answer), "%s", DECISION_NO_DIFFERENCE);
		snprintf(
			r->flips_when, sizeof(r->flips_when),
			"the interval [%.3f, %.3f] holds 1%s: the answer would be \"%s\" with it wholly below 1, \"%s\" "
			"wholly above; a longer run narrows it",
			f->low, f->high, c, q->if_below, q->if_above);
	}
}

static void decide_ratio(struct decision_rec *r, const struct doc *d, const struct ratio_question *q,
			 const char *const *names, size_t nnames)
{
	struct figure f;

	begin(r, q->key);
	for (size_t i = 0; i < nnames; i++)
		if (find_figure(d, names[i], &f) == 0) {
			answer_ratio(r, q, names[i], &f);
			return;
		}
	not_measured(r, q->command);
}

/* The allocator change a malloc decision rests on: the best improvement,
 * else the smallest change of those without a verdict either way, else
 * (every one regressed) the smallest regression; NULL when none has a
 * verdict. */
static const struct cell_rec *malloc_figure(const struct doc *d, int *defined_any)
{
	const struct cell_rec *best[3] = { NULL, NULL, NULL }; /* improved, neither, regressed */

	*defined_any = 0;
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *c = &d->cells[i];
		verdict_t v = c->vs_glibc.ch.verdict;
		int k;
		if (!c->has_vs_glibc)
			continue;
		*defined_any = 1;
		if (v == VERDICT_UNDEFINED || !isfinite(c->vs_glibc.ch.point))
			continue;
		k = v == VERDICT_IMPROVED ? 0 : v == VERDICT_REGRESSED ? 2 : 1;
		if (best[k] == NULL || c->vs_glibc.ch.point < best[k]->vs_glibc.ch.point)
			best[k] = c;
	}
	return best[0] ? best[0] : best[1] ? best[1] : best[2];
}

#define MALLOC_COMMAND "bench --allocators glibc,jemalloc,tcmalloc,mimalloc"

static void decide_malloc(struct decision_rec *r, const struct doc *d)
{
	int any;
	const struct cell_rec *c = malloc_figure(d, &any);
	const change_estimate *ch;
	double t;

	begin(r, DECISION_MALLOC);
	if (!any) {
		not_measured(r, MALLOC_COMMAND);
		return;
	}
	r->measured = 1;
	if (c == NULL) {
		snprintf(r->answer, sizeof(r->answer), "%s", DECISION_TOO_FEW);
		snprintf(r->flips_when, sizeof(r->flips_when),
			 "no allocator has a verdict against glibc (each side needs at least %d samples): an answer "
			 "needs more --launches (%s --launches 10)",
			 COMPARE_MIN_SAMPLES, MALLOC_COMMAND);
		return;
	}
	ch = &c->vs_glibc.ch;
	t = 100.0 * ch->threshold;
	snprintf(r->figure, sizeof(r->figure), "%s vs glibc", c->name);
	r->estimate = 1.0 + ch->point;
	r->low = 1.0 + ch->lo;
	r->high = 1.0 + ch->hi;
	if (ch->verdict == VERDICT_IMPROVED) {
		snprintf(r->answer, sizeof(r->answer), "use %s", c->allocator);
		snprintf(
			r->flips_when, sizeof(r->flips_when),
			"%s stops winning if its change against glibc is not wholly below -%.0f%% (the threshold) with "
			"p < %.2f: it is [%+.1f%%, %+.1f%%], p = %.3f",
			c->allocator, t, ch->alpha, 100.0 * ch->lo, 100.0 * ch->hi, ch->p);
	} else if (ch->verdict == VERDICT_REGRESSED) {
		snprintf(r->answer, sizeof(r->answer), "keep glibc");
		snprintf(r->flips_when, sizeof(r->flips_when),
			 "another malloc would win only if its change against glibc fell wholly below -%.0f%% with p < "
			 "%.2f: every one measured costs more, the least, %s, [%+.1f%%, %+.1f%%], p = %.3f",
			 t, ch->alpha, c->allocator, 100.0 * ch->lo, 100.0 * ch->hi, ch->p);
	} else {
		snprintf(r->answer, sizeof(r->answer), "%s", DECISION_NO_DIFFERENCE);
		snprintf(r->flips_when, sizeof(r->flips_when),
			 "%s, the best measured, changes by [%+.1f%%, %+.1f%%] against glibc (p = %.3f): it would have "
			 "to fall wholly below -%.0f%% (use %s) or above +%.0f%% (keep glibc) with p < %.2f",
			 c->allocator, 100.0 * ch->lo, 100.0 * ch->hi, ch->p, t, c->allocator, t, ch->alpha);
	}
}

/* The async answer in the machine's units (analyse/roundtrip.h): what
 * transfers to another machine is the number of round trips, not the ns. */
static void async_in_round_trips(struct decision_rec *r, const struct doc *d)
{
	const struct roundtrip_rec *rt = &d->paired.roundtrip;
	const struct roundtrip_lib_rec *l = rt->nlibs > 0 ? &rt->libs[0] : NULL;
	char add[DECISION_TEXT_MAX];
	size_t at = strlen(r->flips_when);

	if (!r->measured || !d->has_paired || !d->paired.has_roundtrip || l == NULL || !isfinite(l->crossover_ns))
		return;
	if (!isfinite(l->rts_low) || !isfinite(l->rts_high)) {
		/* too few generations for an interval: the figures, no conclusion
		 * (as the paired text says it, report/text_pairs.c) */
		snprintf(add, sizeof(add),
			 ". In round trips: async (lib=%s) costs %.2f cache-line round trips [n/a] from %zu "
			 "generation%s; no conclusion on where async would beat sync",
			 l->lib, l->rts, rt->ngen, rt->ngen == 1 ? "" : "s");
		snprintf(r->flips_when + at, sizeof(r->flips_when) - at, "%s", add);
		return;
	}
	snprintf(add, sizeof(add),
		 ". In round trips: async (lib=%s) costs %.2f cache-line round trips, and this machine's round trip "
		 "is %.1f ns; async would beat sync only where a round trip is below %.1f ns",
		 l->lib, l->rts, rt->ns, l->crossover_ns);
	snprintf(r->flips_when + at, sizeof(r->flips_when) - at, "%s", add);
}

int decide(struct doc *d)
{
	static const struct ratio_question qs[] = {
		{ DECISION_ASYNC, "bench --compare", "an async call (its handoff)", "a sync call", "async", "sync",
		  "turn async on", "leave async off" },
		{ DECISION_LINK, "bench --compare", "a c-shared call", "a c-archive call", "c-shared", "c-archive",
		  "use c-shared", "use c-archive" },
		{ DECISION_LANGUAGE, "bench --compare", "a call into the Go plugin", "a call into the C plugin", "Go",
		  "C", "write it in Go", "write it in C" },
		{ DECISION_POOLING, "bench --scenario lifecycle --launches 10", "a reused instance", "a fresh instance",
		  "reuse", "alloc", "pool instances", "allocate instances" },
	};
	const char *async[2] = { "async/sync lib=archive wall", NULL };
	size_t nasync = 1;
	static const char *const link[] = { "shared/archive mode=sync wall" };
	static const char *const language[] = { "go sync/c lib=archive wall" };
	static const char *const pooling[] = {
		"reuse/alloc lib=archive mode=sync wall",
		"reuse/alloc lib=archive mode=async wall",
		"reuse/alloc lib=shared mode=sync wall",
		"reuse/alloc lib=shared mode=async wall",
	};
	struct decision_rec *r = calloc(DECISION_KEYS, sizeof(*r));

	if (r == NULL)
		return -1;
	/* your plugin's --compare: its own async/sync, named after it */
	for (size_t k = 0; d->has_paired && k < d->paired.nratios; k++)
		if (strncmp(d->paired.ratios[k].name, "async/sync plugin=", 18) == 0) {
			async[nasync++] = d->paired.ratios[k].name;
			break;
		}
	decide_ratio(&r[DECISION_ASYNC], d, &qs[0], async, nasync);
	async_in_round_trips(&r[DECISION_ASYNC], d);
	decide_ratio(&r[DECISION_LINK], d, &qs[1], link, 1);
	decide_ratio(&r[DECISION_LANGUAGE], d, &qs[2], language, 1);
	decide_ratio(&r[DECISION_POOLING], d, &qs[3], pooling, sizeof(pooling) / sizeof(pooling[0]));
	decide_malloc(&r[DECISION_MALLOC], d);
	begin(&r[DECISION_TOOLCHAIN], DECISION_TOOLCHAIN);
	not_measured(&r[DECISION_TOOLCHAIN], "make matrix");
	free(d->decisions);
	d->decisions = r;
	d->ndecisions = DECISION_KEYS;
	return 0;
}
