/* analyse/analysis.c — see analysis.h. */
#include "analyse/analysis.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int summarize(struct summary_rec *r, double **keep, size_t *nkeep, double *x, size_t n, const char *unit)
{
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	if (stats_summarize(x, n, &r->s) != 0) {
		free(x);
		return -1;
	}
	*keep = x;
	*nkeep = n;
	return 0;
}

/* Median over launches of one number of each launch, the double at byte
 * offset off of struct launch_rec (undefined ones left out). */
static double launches_median(const struct cell_rec *c, size_t off)
{
	double *x = malloc((c->nlaunches + 1) * sizeof(double)), m;
	size_t k = 0;

	if (x == NULL)
		return NAN;
	for (size_t i = 0; i < c->nlaunches; i++) {
		double v = *(const double *)(const void *)((const char *)&c->launches[i] + off);
		if (!isnan(v))
			x[k++] = v;
	}
	m = k ? stats_median(x, k) : NAN;
	free(x);
	return m;
}

#define AT(field) offsetof(struct launch_rec, field)

/* The cold extraction: the median over launches of each first caller's. */
static double cold_median(const struct cell_rec *c)
{
	double *x = malloc((c->nlaunches + 1) * sizeof(double)), m;
	size_t k = 0;

	if (x == NULL)
		return NAN;
	for (size_t i = 0; i < c->nlaunches; i++)
		if (c->launches[i].ncallers)
			x[k++] = (double)c->launches[i].callers[0].cold_ns;
	m = k ? stats_median(x, k) : NAN;
	free(x);
	return m;
}

void cell_key(const struct doc *d, const struct cell_rec *c, char *buf, size_t len)
{
	const struct options *o = &d->options;
	char cpus[4096] = "[";
	size_t k = 1;

	for (int i = 0; i < o->ncpus && k < sizeof(cpus) - 16; i++)
		k += (size_t)snprintf(cpus + k, sizeof(cpus) - k, "%s%d", i ? "," : "", o->cpus[i]);
	snprintf(cpus + k, sizeof(cpus) - k, "]");
	snprintf(
		buf, len,
		"cpu=%s;online_cpus=%d;kernel=%s;go=%s;lib=%s;malloc=%s;n=%llu;runs=%u;plugins=%u;work=%s;fields=%u;warmup=%llu;pinned=%s",
		d->machine.cpu_model, d->machine.online_cpus, d->machine.kernel, c->go_version, c->lib, c->allocator,
		(unsigned long long)o->n, o->batches, o->plugins, work_name(o->work), o->fields,
		(unsigned long long)o->warmup, cpus);
}

/* The samples of a cell: one per launch (the launch's median batch), or,
 * with a single launch, its batches (not independent: said in the note). */
static double *cell_samples(const struct cell_rec *c, size_t *n)
{
	size_t k = 0, cap = 0;
	const struct launch_rec *l = &c->launches[0];
	double *x;

	if (c->nlaunches >= 2) {
		x = malloc(c->nlaunches * sizeof(double));
		for (size_t i = 0; x && i < c->nlaunches; i++)
			x[k++] = c->launches[i].ns_per_extraction;
		*n = k;
		return x;
	}
	for (size_t i = 0; i < l->ncallers; i++)
		cap += l->callers[i].nbatches;
	if ((x = malloc((cap + 1) * sizeof(double))) == NULL)
		return NULL;
	for (size_t i = 0; i < l->ncallers; i++)
		for (size_t b = 0; b < l->callers[i].nbatches; b++)
			if (l->callers[i].batches[b].ops > 0)
				x[k++] = (double)l->callers[i].batches[b].ns / (double)l->callers[i].batches[b].ops;
	*n = k;
	return x;
}

/* Stalls, batches and the slowest batch over every caller of every launch;
 * allocations per request. */
static void cell_totals(const struct cell_rec *c, struct cell_stats *s)
{
	double allocs = 0, bytes = 0, requests = 0, cm = 0, cf = 0;
	int counted = 1;

	s->slowest_batch_ns = NAN;
	for (size_t i = 0; i < c->nlaunches; i++) {
		const struct launch_rec *l = &c->launches[i];
		for (size_t j = 0; j < l->ncallers; j++) {
			const struct caller_rec *p = &l->callers[j];
			s->stalled_batches += p->stalled_batches;
			s->batches += p->nbatches;
			if (!isnan(p->slowest_batch_ns) &&
			    (isnan(s->slowest_batch_ns) || p->slowest_batch_ns > s->slowest_batch_ns))
				s->slowest_batch_ns = p->slowest_batch_ns;
		}
		allocs += (double)l->go_allocs;
		bytes += (double)l->go_alloc_bytes;
		requests += (double)launch_requests(l);
		counted &= l->c_allocs.counted;
		cm += (double)l->c_allocs.mallocs;
		cf += (double)l->c_allocs.frees;
	}
	s->go_allocs_per_extraction = allocs / requests;
	s->go_alloc_bytes_per_extraction = bytes / requests;
	s->c_mallocs_per_iteration = counted ? cm / requests : NAN;
	s->c_frees_per_iteration = counted ? cf / requests : NAN;
}

/* The spread of a cell's floors: the fastest and slowest batch over its
 * launches; the wake-ups and the rejected attempts, summed. */
static void cell_floor_spreads(const struct cell_rec *c, struct floors_rec *f)
{
	f->has_spread = 1;
	f->ref_wakeups = f->ref_dropped_batches = f->handoff_dropped_batches = 0;
	f->nrejected = 0;
	f->spread_batches = c->launches[0].floors.spread_batches;
	for (int k = 0; k < FLOOR_KINDS; k++)
		f->spread[k] = (struct floor_spread){ NAN, NAN };
	for (size_t i = 0; i < c->nlaunches; i++) {
		const struct floors_rec *l = &c->launches[i].floors;
		if (!l->has_spread) {
			f->has_spread = 0;
			f->ref_wakeups = f->ref_dropped_batches = f->handoff_dropped_batches = -1;
			return;
		}
		for (int k = 0; k < FLOOR_KINDS; k++) {
			if (isnan(f->spread[k].min_ns) || l->spread[k].min_ns < f->spread[k].min_ns)
				f->spread[k].min_ns = l->spread[k].min_ns;
			if (isnan(f->spread[k].max_ns) || l->spread[k].max_ns > f->spread[k].max_ns)
				f->spread[k].max_ns = l->spread[k].max_ns;
		}
		f->ref_wakeups = f->ref_wakeups < 0 || l->ref_wakeups < 0 ? -1 : f->ref_wakeups + l->ref_wakeups;
		f->ref_dropped_batches = f->ref_dropped_batches < 0 || l->ref_dropped_batches < 0
						 ? -1
						 : f->ref_dropped_batches + l->ref_dropped_batches;
		f->handoff_dropped_batches = f->handoff_dropped_batches < 0 || l->handoff_dropped_batches < 0
						     ? -1
						     : f->handoff_dropped_batches + l->handoff_dropped_batches;
		f->nrejected += l->nrejected;
	}
}

static void cell_floors(const struct cell_rec *c, struct cell_stats *s)
{
	s->has_floors = c->launches[0].has_floors;
	if (!s->has_floors)
		return;
	s->floors.c_call_ns = launches_median(c, AT(floors.c_call_ns));
	s->floors.go_raw_ns = launches_median(c, AT(floors.go_raw_ns));
	s->floors.go_raw_cold_ns = launches_median(c, AT(floors.go_raw_cold_ns));
	s->floors.handoff_ns = launches_median(c, AT(floors.handoff_ns));
	s->floors.ref_bare_ns = launches_median(c, AT(floors.ref_bare_ns));
	s->floors.ref_event_ns = launches_median(c, AT(floors.ref_event_ns));
	s->floors.ref_result_ns = launches_median(c, AT(floors.ref_result_ns));
	s->floors.ref_wake_ns = launches_median(c, AT(floors.ref_wake_ns));
	s->floors.handoff_cpus[0] = c->launches[0].floors.handoff_cpus[0];
	s->floors.handoff_cpus[1] = c->launches[0].floors.handoff_cpus[1];
	cell_floor_spreads(c, &s->floors);
}

static int analyse_cell(const struct doc *d, struct cell_rec *c, char *err, size_t errlen)
{
	struct cell_stats *s = &c->st;
	size_t n;
	double *x;

	if (c->nlaunches == 0) {
		snprintf(err, errlen, "cell %s has no launches", c->name);
		return -1;
	}
	x = cell_samples(c, &n);
	if (x == NULL || summarize(&s->time, &s->samples, &s->nsamples, x, n,
				   strcmp(c->scenario, "extract") ? "ns/iteration" : "ns/extraction") != 0)
		goto oom;
	if ((x = malloc(c->nlaunches * sizeof(double))) == NULL)
		goto oom;
	for (size_t i = 0; i < c->nlaunches; i++)
		x[i] = c->launches[i].cpu_ns_per_extraction;
	if (summarize(&s->cpu, &s->cpu_samples, &s->ncpu_samples, x, c->nlaunches, "cpu-ns/extraction") != 0)
		goto oom;
	s->cold_ns_median = cold_median(c);
	cell_totals(c, s);
	s->other_cpu_ns_median = launches_median(c, AT(other_cpu_ns_per_extraction));
	s->switches_per_1000_median = launches_median(c, AT(switches_per_1000));
	s->steal_ns_median = launches_median(c, AT(steal_ns));
	cell_floors(c, s);
	cell_key(d, c, s->key, sizeof(s->key));
	c->analysed = 1;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* A cell that ran in the mode it stands for: ratios are made of these only. */
static const struct cell_rec *honest_cell(const struct doc *d, const char *lib, const char *mode, const char *scenario)
{
	const struct cell_rec *c = doc_find_mode(d, lib, mode, scenario);
	return c && cell_ran_as_asked(c) ? c : NULL;
}

/* One ratio per round: both cells ran in the same round, side by side.
 * metric "wall" and "cpu" divide; "diff" subtracts (ns). */
static int add_ratio(struct doc *d, const char *name, const struct cell_rec *num, const struct cell_rec *den,
		     const char *metric)
{
	int diff = strcmp(metric, "diff") == 0;
	size_t n = num->nlaunches < den->nlaunches ? num->nlaunches : den->nlaunches;
	int cpu = strcmp(metric, "cpu") == 0;
	struct ratio_rec *r;
	double *x;

	if (n == 0)
		return 0;
	if ((x = malloc(n * sizeof(double))) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		x[i] = cpu    ? num->launches[i].cpu_ns_per_extraction / den->launches[i].cpu_ns_per_extraction
		       : diff ? num->launches[i].ns_per_extraction - den->launches[i].ns_per_extraction
			      : num->launches[i].ns_per_extraction / den->launches[i].ns_per_extraction;
	if ((r = model_append((void **)&d->ratios, &d->nratios, sizeof(*d->ratios))) == NULL) {
		free(x);
		return -1;
	}
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->numerator, sizeof(r->numerator), "%s", num->name);
	snprintf(r->denominator, sizeof(r->denominator), "%s", den->name);
	snprintf(r->metric, sizeof(r->metric), "%s", metric);
	return summarize(&r->st, &r->samples, &r->nsamples, x, n, diff ? "ns" : "ratio");
}

/* --anatomy: per mode, bench/minimal on the bare step (the harness check),
 * and each step's increment over the one before it, round by round. */
static int add_anatomy_ratios(struct doc *d)
{
	static const enum work steps[] = { WORK_BARE, WORK_EVENT, WORK_NOOP, WORK_U64, WORK_STR };
	static const char *const modes[] = { "sync", "async" };
	char name[80];
	int rc = 0;

	for (int m = 0; m < 2; m++) {
		const struct cell_rec *bare = doc_find_work(d, "archive", modes[m], "extract", WORK_BARE, 0);
		const struct cell_rec *minimal = doc_find_work(d, "archive", modes[m], "extract", WORK_BARE, 1);
		if (bare && minimal && cell_ran_as_asked(bare) && cell_ran_as_asked(minimal)) {
			snprintf(name, sizeof(name), "bench/minimal mode=%s wall", modes[m]);
			rc |= add_ratio(d, name, bare, minimal, "wall");
		}
		for (size_t k = 1; k < sizeof(steps) / sizeof(steps[0]); k++) {
			const struct cell_rec *prev = doc_find_work(d, "archive", modes[m], "extract", steps[k - 1], 0);
			const struct cell_rec *cur = doc_find_work(d, "archive", modes[m], "extract", steps[k], 0);
			if (prev && cur && cell_ran_as_asked(prev) && cell_ran_as_asked(cur)) {
				snprintf(name, sizeof(name), "%s-%s mode=%s diff", work_name(steps[k]),
					 work_name(steps[k - 1]), modes[m]);
				rc |= add_ratio(d, name, cur, prev, "diff");
			}
		}
	}
	return rc;
}

static int add_ratios(struct doc *d)
{
	static const char *const libs[] = { "archive", "shared" }, *const modes[] = { "sync", "async" };
	char name[80];
	int rc = 0;

	for (int l = 0; l < 2; l++) {
		const struct cell_rec *s = honest_cell(d, libs[l], "sync", "extract");
		const struct cell_rec *a = honest_cell(d, libs[l], "async", "extract");
		if (s && a) {
			snprintf(name, sizeof(name), "async/sync lib=%s wall", libs[l]);
			rc |= add_ratio(d, name, a, s, "wall");
			snprintf(name, sizeof(name), "async/sync lib=%s cpu", libs[l]);
			rc |= add_ratio(d, name, a, s, "cpu");
		}
	}
	for (int m = 0; m < 2; m++) {
		const struct cell_rec *ar = honest_cell(d, "archive", modes[m], "extract");
		const struct cell_rec *sh = honest_cell(d, "shared", modes[m], "extract");
		if (ar && sh) {
			snprintf(name, sizeof(name), "shared/archive mode=%s wall", modes[m]);
			rc |= add_ratio(d, name, sh, ar, "wall");
		}
	}
	/* what writing the plugin in Go costs: the Go mock over the C mock */
	{
		const struct cell_rec *c = honest_cell(d, "loaded", "sync", "extract");
		for (int m = 0; c && m < 2; m++) {
			const struct cell_rec *g = honest_cell(d, "archive", modes[m], "extract");
			if (g) {
				snprintf(name, sizeof(name), "go %s/c lib=archive wall", modes[m]);
				rc |= add_ratio(d, name, g, c, "wall");
			}
		}
	}
	/* interference: A beside another library, over A alone */
	for (int m = 0; m < 2; m++) {
		static const char *const roles[] = { "idle", "busy" };
		const struct cell_rec *alone = doc_find_beside(d, modes[m], NULL);
		for (int k = 0; alone && cell_ran_as_asked(alone) && k < 2; k++) {
			const struct cell_rec *b = doc_find_beside(d, modes[m], roles[k]);
			if (b && cell_ran_as_asked(b)) {
				snprintf(name, sizeof(name), "%s/alone mode=%s wall", roles[k], modes[m]);
				rc |= add_ratio(d, name, b, alone, "wall");
			}
		}
	}
	/* lifecycle: what reuse costs next to allocation, per library and mode */
	for (int l = 0; l < 2; l++)
		for (int m = 0; m < 2; m++) {
			const struct cell_rec *al = honest_cell(d, libs[l], modes[m], "alloc");
			const struct cell_rec *re = honest_cell(d, libs[l], modes[m], "reuse");
			if (al && re) {
				snprintf(name, sizeof(name), "reuse/alloc lib=%s mode=%s wall", libs[l], modes[m]);
				rc |= add_ratio(d, name, re, al, "wall");
			}
		}
	return rc;
}

int analyse_document(struct doc *d, char *err, size_t errlen)
{
	int single = 0;

	for (size_t i = 0; i < d->ncells; i++) {
		if (analyse_cell(d, &d->cells[i], err, errlen) != 0)
			return -1;
		single |= d->cells[i].nlaunches < 2;
	}
	d->analysed = 1;
	if (add_ratios(d) != 0 || (d->options.kind == RUN_ANATOMY && add_anatomy_ratios(d) != 0)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	d->ci_level = 0.95;
	d->samples_are_batches = single;
	return 0;
}
