/* report/text_latency.c — the latency lines of an open-loop run (--rate,
 * --gap-us), the idle policy of the worker as the gaps show it, and the
 * --sweep-rate table with its crossover. */
#include "report/text.h"

#include <math.h>
#include <string.h>

#include "report/format.h"

/* The host kept up when it served at least this share of the rate asked. */
#define KEPT_UP	    0.95
/* The idle policy: latency "jumps" between two gaps when the p50 grows by
 * this factor and by more than 1 ms (what counts as a slow request here):
 * a cold cache adds microseconds, a sleeping worker milliseconds. */
#define JUMP_FACTOR 4.0
#define JUMP_MIN_NS ((double)LATENCY_SLOW_NS)

static void percentile_line(FILE *out, const char *who, const struct latency_rec *l)
{
	char a[32], b[32], c[32], d[32], e[32], f[32];

	fprintf(out, "# %slatency: p50 %s, p90 %s, p99 %s, p99.9 %s, max %s, mean %s\n", who,
		fmt_ns(a, sizeof(a), l->s.p50), fmt_ns(b, sizeof(b), l->s.p90), fmt_ns(c, sizeof(c), l->s.p99),
		fmt_ns(d, sizeof(d), l->s.p999), fmt_ns(e, sizeof(e), l->s.max), fmt_ns(f, sizeof(f), l->s.mean));
}

void report_latency_text(FILE *out, const struct cell_rec *c)
{
	const struct latency_rec *l = &c->latency;
	const struct launch_rec *l0 = c->nlaunches ? &c->launches[0] : NULL;
	char who[48];

	if (!c->has_latency)
		return;
	if (strcmp(l->load, "rate") == 0)
		fprintf(out,
			"# open loop: %g requests/s per plugin, %s arrivals%s, latency from each request's due time\n",
			l->requested_rate, l->arrival, strcmp(l->arrival, "poisson") == 0 ? "" : " (evenly spaced)");
	else
		fprintf(out,
			"# closed loop with an idle gap of %.0f us between calls, latency from each call's due time\n",
			l->gap_us);
	if (strcmp(l->arrival, "poisson") == 0)
		fprintf(out, "# arrival seed: %llu (plugin i: seed + i - 1; --seed)\n", (unsigned long long)l->seed);
	for (size_t i = 0; l0 && l0->ncallers > 1 && i < l0->ncallers; i++)
		if (l0->callers[i].has_latency) {
			snprintf(who, sizeof(who), "plugin %u ", l0->callers[i].index);
			percentile_line(out, who, &l0->callers[i].latency);
		}
	percentile_line(out, l0 && l0->ncallers > 1 ? "all plugins " : "", l);
	if (strcmp(l->load, "rate") == 0)
		fprintf(out, "# rate: requested %g/s per plugin, achieved %.1f/s%s\n", l->requested_rate,
			l->achieved_rate, l->achieved_rate < KEPT_UP * l->requested_rate ? " (did not keep up)" : "");
	else
		fprintf(out, "# rate: achieved %.1f/s per plugin\n", l->achieved_rate);
	fprintf(out, "# over 1 ms: %llu of %llu requests; cpu %.1f cpu-ns/event (process CPU over the run / events)\n",
		(unsigned long long)l->s.over_1ms, (unsigned long long)l->s.n, l->cpu_ns_per_event);
}

/* The cell of mode requested with this load; NULL if none. */
static const struct cell_rec *sweep_cell(const struct doc *d, const char *mode, double rate)
{
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *c = &d->cells[i];
		int max = strcmp(c->latency.load, "gap") == 0;
		if (!c->has_latency || strcmp(c->requested, mode) != 0)
			continue;
		if ((rate <= 0 && max) || (rate > 0 && !max && c->latency.requested_rate == rate))
			return c;
	}
	return NULL;
}

void report_gap_policy_text(FILE *out, const struct doc *d)
{
	const struct cell_rec *prev = NULL;
	int ngaps = 0;

	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *c = &d->cells[i];
		if (!c->has_latency || strcmp(c->latency.load, "gap") != 0)
			continue;
		ngaps++;
		if (prev && c->latency.gap_us > prev->latency.gap_us &&
		    c->latency.s.p50 >= JUMP_FACTOR * prev->latency.s.p50 &&
		    c->latency.s.p50 - prev->latency.s.p50 >= JUMP_MIN_NS) {
			char a[32], b[32], j[32];
			fprintf(out,
				"# idle policy (%s, as measured): latency jumps between a gap of %.0f us and %.0f us: p50 %s -> %s (+%s); the worker stops spinning after an idle time in that range\n",
				c->in_effect, prev->latency.gap_us, c->latency.gap_us,
				fmt_ns(a, sizeof(a), prev->latency.s.p50), fmt_ns(b, sizeof(b), c->latency.s.p50),
				fmt_ns(j, sizeof(j), c->latency.s.p50 - prev->latency.s.p50));
			return;
		}
		prev = c;
	}
	if (ngaps > 1)
		fprintf(out,
			"# idle policy (%s, as measured): no jump of the p50 latency (x%.0f and +%.0f ms) across these gaps\n",
			prev ? prev->in_effect : "?", JUMP_FACTOR, JUMP_MIN_NS / 1e6);
}

/* Each launch's seed (its own, derived from --seed and its cell). */
static void sweep_seeds(FILE *out, const struct doc *d)
{
	const struct options *o = &d->options;

	fprintf(out, "# seeds, one a launch (from --seed %llu and the cell; plugin i: seed + i - 1):",
		(unsigned long long)o->seed);
	for (int k = 0; k < o->nsweep; k++)
		for (int async = 0; async < 2; async++) {
			const struct cell_rec *c = sweep_cell(d, async ? "async" : "sync", o->sweep[k]);
			if (c == NULL)
				continue;
			if (o->sweep[k] > 0)
				fprintf(out, " %g %s %llu", o->sweep[k], async ? "async" : "sync",
					(unsigned long long)c->latency.seed);
			else
				fprintf(out, " max %s %llu", async ? "async" : "sync",
					(unsigned long long)c->latency.seed);
			fprintf(out, k == o->nsweep - 1 && async ? "" : ",");
		}
	fprintf(out, "\n");
}

void report_sweep_text(FILE *out, const struct doc *d)
{
	const struct options *o = &d->options;
	double crossover = NAN, below_cpu = NAN;
	int crossed = 0, unjudged = 0, rows = 0;

	fprintf(out,
		"# rate sweep: sync and async at each rate, one fresh launch each, interleaved; latency from each request's due time\n");
	fprintf(out, "# %-9s | %-36s | %-36s | %-19s | %s\n", "rate/s", "sync p50 / p99 / p99.9",
		"async p50 / p99 / p99.9", "cpu-ns/event s / a", "over 1 ms s / a");
	for (int k = 0; k < o->nsweep; k++) {
		const struct cell_rec *s = sweep_cell(d, "sync", o->sweep[k]), *a = sweep_cell(d, "async", o->sweep[k]);
		char rate[24], t[6][32], sl[96], al[96];
		if (s == NULL || a == NULL)
			continue;
		if (o->sweep[k] > 0)
			snprintf(rate, sizeof(rate), "%g", o->sweep[k]);
		else
			snprintf(rate, sizeof(rate), "max");
		snprintf(sl, sizeof(sl), "%s / %s / %s", fmt_ns(t[0], 32, s->latency.s.p50),
			 fmt_ns(t[1], 32, s->latency.s.p99), fmt_ns(t[2], 32, s->latency.s.p999));
		snprintf(al, sizeof(al), "%s / %s / %s", fmt_ns(t[3], 32, a->latency.s.p50),
			 fmt_ns(t[4], 32, a->latency.s.p99), fmt_ns(t[5], 32, a->latency.s.p999));
		fprintf(out, "# %-9s | %-36s | %-36s | %8.0f / %-8.0f | %llu / %llu\n", rate, sl, al,
			s->latency.cpu_ns_per_event, a->latency.cpu_ns_per_event,
			(unsigned long long)s->latency.s.over_1ms, (unsigned long long)a->latency.s.over_1ms);
		rows++;
		if (!cell_ran_as_asked(s) || !cell_ran_as_asked(a)) {
			unjudged++; /* a mode that did not run is never compared */
			continue;
		}
		if (o->sweep[k] > 0 && a->latency.s.p99 <= s->latency.s.p99) {
			if (!crossed) {
				crossover = o->sweep[k];
				crossed = 1;
			}
		} else if (o->sweep[k] > 0) {
			crossed = 0; /* the crossover is the rate above which async stays no worse */
			crossover = NAN;
			below_cpu = a->latency.cpu_ns_per_event;
		}
	}
	sweep_seeds(out, d);
	if (unjudged) {
		fprintf(out,
			"# crossover: not judged: at %d of %d rates a cell did not run in the mode asked (async fell back "
			"to sync: see the warnings)\n",
			unjudged, rows);
		return;
	}
	if (!isnan(crossover))
		fprintf(out,
			"# crossover: from %g requests/s up (of the rates swept), async's p99 is no worse than sync's%s",
			crossover, isnan(below_cpu) ? "\n" : "");
	else
		fprintf(out,
			"# crossover: none on this machine: at every rate swept, async's p99 is worse than sync's\n");
	if (!isnan(crossover) && !isnan(below_cpu))
		fprintf(out, "; below it async spends %.0f cpu-ns/event\n", below_cpu);
}
