/* report/text_warnings.c — the warnings of report/text.h: a fixed set of
 * sentences, each saying what to do, made from the document alone.
 *
 * Noise is summarised across cells: at most three lines a run (too few
 * samples; stalls and outliers; more spinning threads than CPUs), each
 * naming how many cells, the range of their shares, the worst cell and
 * what to do. Every figure stays in the JSON (each cell's statistics and
 * stalled_batches), and --verbose prints the sentences per cell instead.
 * A warning that changes what a figure means (async requested but not in
 * effect, a host that could not keep up with its --rate) is a line of its
 * own for each cell it concerns. */
#include "report/text.h"

#include <stdlib.h>
#include <string.h>

/* What the noise warnings read of one cell. */
struct cell_noise {
	size_t n, outliers;		   /* samples, and those beyond the fences */
	unsigned long long stalled, total; /* stalled blocks or batches, of so many */
	size_t threads, callers, workers;  /* spinning threads: callers + async workers */
	int too_few, noisy, has_stalls, oversubscribed;
};

static struct cell_noise cell_noise(const struct doc *d, const struct cell_rec *cell)
{
	const stats_summary *st = &cell->st.time.s;
	const struct launch_rec *l0 = cell->nlaunches ? &cell->launches[0] : NULL;
	struct cell_noise c = { 0 };

	c.n = st->n;
	c.outliers = st->low_severe + st->low_mild + st->high_mild + st->high_severe;
	c.stalled = cell->st.stalled_batches;
	c.total = cell->st.batches;
	c.callers = l0 ? l0->ncallers : 0;
	c.workers = l0 && strcmp(l0->mode_in_effect, "sync") != 0 ? l0->async_workers : 0;
	/* a --busy library's own thread spins beside the callers */
	for (size_t k = 0; l0 && k < l0->nlibraries; k++)
		c.callers += strcmp(l0->libraries[k].role, "busy") == 0;
	c.threads = c.callers + c.workers;
	c.too_few = st->n < STATS_MIN_CI_SAMPLES && !cell->has_latency;
	c.noisy = st->n > 0 && (double)c.outliers / (double)st->n > 0.1 && !cell->has_latency;
	c.has_stalls = c.stalled > 0 && !cell->has_latency; /* the latency lines say more */
	c.oversubscribed = c.threads > (size_t)d->machine.online_cpus;
	return c;
}

static const char *samples_hint(const struct doc *d)
{
	return d->has_paired ? "--time (a paired run's samples are its generations)" : "--launches or -r";
}

/* The per-cell sentences: --verbose, and a run of one cell. */
static void cell_warnings(FILE *err, const struct doc *d, const struct cell_rec *cell, const struct cell_noise *c)
{
	char who[MODEL_NAME_MAX + 4] = "";

	if (d->ncells > 1)
		snprintf(who, sizeof(who), "%s: ", cell->name);
	if (c->too_few)
		fprintf(err,
			"warning: %s%zu samples are too few for a 95%% interval of the median (need >= %d); use more %s\n",
			who, c->n, STATS_MIN_CI_SAMPLES, samples_hint(d));
	if (c->noisy)
		fprintf(err,
			"warning: %s%zu of %zu samples are outliers: the machine was noisy; rerun, or use more --launches\n",
			who, c->outliers, c->n);
	if (c->oversubscribed)
		fprintf(err,
			"warning: %sthis run spins %zu threads (%zu callers%s) on %d online CPUs: it measures the scheduler as much as the crossing; use fewer plugins or sync\n",
			who, c->threads, c->callers, c->workers > 0 ? " + the SDK's async workers" : "",
			d->machine.online_cpus);
	if (c->has_stalls)
		fprintf(err,
			"warning: %s%llu of %llu %s stalled (1 ms or more slower than the median batch): an async worker slept, the Go GC ran, or a thread was descheduled; compare the slowest batch with the median\n",
			who, c->stalled, c->total, d->has_paired ? "blocks" : "batches");
}

/* A share's range over the cells that have it, and the worst cell. */
struct share_range {
	size_t cells, worst;
	double lo, hi;
};

static void share_add(struct share_range *r, size_t i, double share)
{
	if (r->cells == 0 || share < r->lo)
		r->lo = share;
	if (r->cells == 0 || share > r->hi)
		r->hi = share, r->worst = i;
	r->cells++;
}

/* "3.1%" for one cell, "2.5% to 12.5%" for several. */
static void share_text(char *buf, size_t len, const struct share_range *r)
{
	if (r->cells == 1 || r->lo == r->hi)
		snprintf(buf, len, "%.1f%%", 100 * r->hi);
	else
		snprintf(buf, len, "%.1f%% to %.1f%%", 100 * r->lo, 100 * r->hi);
}

/* The summaries of a run of several cells: at most three lines. */
static void summary_warnings(FILE *err, const struct doc *d, const struct cell_noise *cs)
{
	struct share_range stalls = { 0 }, outl = { 0 };
	size_t few = 0, fewest = 0, over = 0, most = 0, noisy = 0;

	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_noise *c = &cs[i];

		if (c->too_few && (few++ == 0 || c->n < cs[fewest].n))
			fewest = i;
		if (c->oversubscribed && (over++ == 0 || c->threads > cs[most].threads))
			most = i;
		if (c->has_stalls)
			share_add(&stalls, i, (double)c->stalled / (double)(c->total ? c->total : 1));
		if (c->noisy)
			share_add(&outl, i, (double)c->outliers / (double)c->n);
		noisy += c->has_stalls || c->noisy;
	}
	if (few > 0)
		fprintf(err,
			"warning: the samples of %zu of %zu cells are too few for a 95%% interval of the median (need >= %d; fewest %zu, %s); use more %s\n",
			few, d->ncells, STATS_MIN_CI_SAMPLES, cs[fewest].n, d->cells[fewest].name, samples_hint(d));
	if (noisy > 0) {
		char st[MODEL_NAME_MAX + 160] = "", ou[MODEL_NAME_MAX + 160] = "", share[40];

		if (stalls.cells > 0) {
			const struct cell_noise *w = &cs[stalls.worst];

			share_text(share, sizeof(share), &stalls);
			snprintf(st, sizeof(st), "%s stalled in %zu (%s of their %s; worst %s, %llu of %llu)",
				 d->has_paired ? "blocks" : "batches", stalls.cells, share,
				 d->has_paired ? "blocks" : "batches", d->cells[stalls.worst].name, w->stalled,
				 w->total);
		}
		if (outl.cells > 0) {
			const struct cell_noise *w = &cs[outl.worst];

			share_text(share, sizeof(share), &outl);
			snprintf(ou, sizeof(ou), "outliers in %zu (%s of their samples; worst %s, %zu of %zu)",
				 outl.cells, share, d->cells[outl.worst].name, w->outliers, w->n);
		}
		fprintf(err,
			"warning: noise in %zu of %zu cells: %s%s%s: a worker slept, the Go GC ran or a thread was descheduled; rerun on a quieter machine or with %s; --verbose says it per cell\n",
			noisy, d->ncells, st, st[0] && ou[0] ? ", " : "", ou,
			d->has_paired ? "a longer --time" : "more --launches");
	}
	if (over > 0) {
		const struct cell_noise *c = &cs[most];

		fprintf(err,
			"warning: this run spins up to %zu threads (%zu callers%s, %s) on %d online CPUs, more than the CPUs in %zu of %zu cells: they measure the scheduler as much as the crossing; use fewer plugins or sync\n",
			c->threads, c->callers, c->workers > 0 ? " + the SDK's async workers" : "", d->cells[most].name,
			d->machine.online_cpus, over, d->ncells);
	}
}

void report_warnings(FILE *err, const struct doc *d, int verbose)
{
	if (d->options.method == METHOD_COUNTED)
		return; /* the counting gate: its launches ran under valgrind, judged by counts */
	struct cell_noise *cs = d->ncells ? calloc(d->ncells, sizeof(*cs)) : NULL;

	for (size_t i = 0; i < d->ncells; i++) {
		struct cell_noise c = cell_noise(d, &d->cells[i]);

		if (cs)
			cs[i] = c;
		if (verbose || d->ncells == 1 || cs == NULL)
			cell_warnings(err, d, &d->cells[i], &c);
	}
	if (cs && !verbose && d->ncells > 1)
		summary_warnings(err, d, cs);
	free(cs);

	/* what changes the meaning of a figure: a line each */
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *cell = &d->cells[i];
		char who[MODEL_NAME_MAX + 4] = "";

		if (d->ncells > 1)
			snprintf(who, sizeof(who), "%s: ", cell->name);
		if (cell->has_latency && cell->latency.achieved_rate < 0.95 * cell->latency.requested_rate)
			fprintf(err,
				"warning: %sthe host could not keep up: %.1f requests/s achieved of %g asked; latencies include the backlog; ask for a lower --rate\n",
				who, cell->latency.achieved_rate, cell->latency.requested_rate);
		if (cell->reason[0])
			fprintf(err, "warning: %sasync was requested but is not in effect: %s\n", who, cell->reason);
	}
}
