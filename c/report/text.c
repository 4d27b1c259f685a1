/* report/text.c — see text.h. */
#include "report/text.h"

#include <math.h>
#include <string.h>

#include "report/format.h"

static void plugin_lines(FILE *out, const struct launch_rec *l, double *sync_med, double *async_med)
{
	for (size_t i = 0; i < l->ncallers; i++) {
		const struct caller_rec *p = &l->callers[i];
		char pin[48];

		if (p->pinned_cpu >= 0)
			snprintf(pin, sizeof(pin), "pinned to CPU %lld", (long long)p->pinned_cpu);
		else
			snprintf(pin, sizeof(pin), "not pinned");
		if (p->extract_tid == 0 && strcmp(l->mode_in_effect, "unknown") != 0) /* the SDK's state said */
			fprintf(out, "# plugin %u: %s (the SDK's state); caller thread %lld on CPU %d..%d (%s)\n",
				p->index, p->async_in_effect ? "async" : "sync", (long long)p->tid, p->cpu_first,
				p->cpu_last, pin);
		else if (p->extract_tid == 0) /* no probe fields: where Extract ran is unknown */
			fprintf(out, "# plugin %u: mode not verifiable; caller thread %lld on CPU %d..%d (%s)\n",
				p->index, (long long)p->tid, p->cpu_first, p->cpu_last, pin);
		else
			fprintf(out,
				"# plugin %u: %s; caller thread %lld on CPU %d..%d (%s); Extract on thread %llu CPU %llu\n",
				p->index, p->async_in_effect ? "async" : "sync", (long long)p->tid, p->cpu_first,
				p->cpu_last, pin, (unsigned long long)p->extract_tid,
				(unsigned long long)p->extract_cpu);
		fprintf(out,
			"# plugin %u: cold %.1f us; batches median %.2f ns/extraction, slowest %.2f, stalls %u of %zu\n",
			p->index, (double)p->cold_ns / 1e3, p->median_batch_ns, p->slowest_batch_ns, p->stalled_batches,
			p->nbatches);
		if (p->has_async_slot && p->slot_line_bytes)
			fprintf(out,
				"# plugin %u: the SDK's async slot lies %u bytes into a %u-byte cache line: it spans %u line%s, "
				"which both sides write at every extraction\n",
				p->index, p->slot_line_offset, p->slot_line_bytes, p->slot_lines,
				p->slot_lines == 1 ? "" : "s");
		else if (p->has_async_slot)
			fprintf(out, "# plugin %u: the SDK's async slot not found: %s\n", p->index, p->slot_why);
		if (p->async_in_effect && isnan(*async_med))
			*async_med = p->median_batch_ns;
		if (!p->async_in_effect && isnan(*sync_med))
			*sync_med = p->median_batch_ns;
	}
}

/* "1" or "0,1"; "unknown" for a list that could not be read. */
static const char *cpu_list_text(const int *cpus, int n, char *buf, size_t len)
{
	size_t k = 0;

	snprintf(buf, len, "%s", n < 0 ? "unknown" : n == 0 ? "none" : "");
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", cpus[i]);
	return buf;
}

/* --worker-cpu: where the worker side was, as read back after the run. */
static void worker_side_line(FILE *out, const struct launch_rec *l)
{
	const struct worker_side_rec *w = &l->worker_side;
	char allowed[128], ran[128];

	if (!l->has_worker_side)
		return;
	fprintf(out,
		"# worker side: CPU %d asked; every thread but the callers allowed CPU %s after the run; async Extract on CPU %s at the probes\n",
		w->cpu, cpu_list_text(w->allowed, w->nallowed, allowed, sizeof(allowed)),
		cpu_list_text(w->ran_on, w->nran_on, ran, sizeof(ran)));
}

/* Async: the SDK's workers as the callers' probes counted them (each
 * async caller's two probes say which goroutine ran Extract), beside the
 * number the SDK's rule gives; a count below it is what ran. */
static void workers_seen_line(FILE *out, const struct launch_rec *l)
{
	const struct workers_seen_rec *w = &l->workers_seen;
	char cpus[128];

	if (!l->has_workers_seen)
		return;
	fprintf(out,
		"# async workers: %u seen (the goroutines that ran Extract at the probes of %u async caller%s), on CPU %s; "
		"the SDK's rule, ceil(log2 GOMAXPROCS) per library and no more than its callers, gives %llu\n",
		w->goroutines, w->callers, w->callers == 1 ? "" : "s",
		cpu_list_text(w->cpus, w->ncpus, cpus, sizeof(cpus)), (unsigned long long)l->async_workers);
}

static void cost_lines(FILE *out, const struct launch_rec *l)
{
	double requests = (double)launch_requests(l), vol = 0, invol = 0;
	long long migs = 0;
	char steal[32], mig[32];

	for (size_t i = 0; i < l->ncallers; i++) {
		vol += (double)l->callers[i].vol_switches;
		invol += (double)l->callers[i].invol_switches;
		migs = migs < 0 || l->callers[i].migrations < 0 ? -1 : migs + l->callers[i].migrations;
	}
	fprintf(out, "# cpu: %.2f cpu-ns/extraction (callers %.2f, other threads %.2f)\n", l->cpu_ns_per_extraction,
		l->callers_cpu_ns_per_extraction, l->other_cpu_ns_per_extraction);
	if (isnan(l->steal_ns))
		snprintf(steal, sizeof(steal), "unknown");
	else
		snprintf(steal, sizeof(steal), "%.1f ms", l->steal_ns / 1e6);
	if (migs < 0)
		snprintf(mig, sizeof(mig), "unknown");
	else
		snprintf(mig, sizeof(mig), "%lld", migs);
	fprintf(out,
		"# noise: steal %s, context switches per 1000 requests %.3f voluntary + %.3f involuntary, caller migrations %s\n",
		steal, 1000.0 * vol / requests, 1000.0 * invol / requests, mig);
	if (l->c_allocs.counted)
		fprintf(out,
			"# c allocations: %llu mallocs, %llu frees over the timed batches, all threads (%.4f and %.4f per extraction)\n",
			(unsigned long long)l->c_allocs.mallocs, (unsigned long long)l->c_allocs.frees,
			l->c_allocs.mallocs_per_iteration, l->c_allocs.frees_per_iteration);
	fprintf(out,
		"# go allocations: %llu objects, %llu bytes over the timed batches, all threads (%.3f objects, %.1f bytes per extraction)\n",
		(unsigned long long)l->go_allocs, (unsigned long long)l->go_alloc_bytes,
		(double)l->go_allocs / requests, (double)l->go_alloc_bytes / requests);
}

static void extract_text(FILE *out, const struct doc *d, const struct cell_rec *c, const struct launch_rec *l)
{
	const struct options *o = &d->options;
	double sync_med = NAN, async_med = NAN;
	char title[128];
	/* --per-event per-field: an event is K calls of one field */
	uint32_t per_call = o->per_event && o->host_calls == HOST_CALLS_PER_FIELD ? 1 : o->fields;

	for (size_t i = 0; i < l->ncallers; i++)
		report_seed_line(out, l->callers[i].index, l->callers[i].elapsed_ns, l->callers[i].extractions);
	fprintf(out, "# aggregate: %zu plugin%s, %.4g extractions/s, wall time %.3f ms\n", l->ncallers,
		l->ncallers == 1 ? "" : "s", (double)launch_requests(l) / ((double)l->wall_ns / 1e9),
		(double)l->wall_ns / 1e6);
	report_machine_lines(out, d, c);
	report_libraries_text(out, "# ", l);
	fprintf(out, "# allocator: %s (malloc served by %s)\n", c->allocator, c->allocator_path);
	report_mode_text(out, c, l);
	fprintf(out, "# work: %s, %u field%s per call, %u batches of ~%llu, warm-up %llu\n", work_name(o->work),
		per_call, per_call == 1 ? "" : "s", o->batches, (unsigned long long)(o->n / o->batches),
		(unsigned long long)o->warmup);
	report_per_event_text(out, c, l);
	if (o->extra_ns)
		fprintf(out, "# extra cost: %llu ns busy loop inside every Extract (--extra-ns)\n",
			(unsigned long long)o->extra_ns);
	plugin_lines(out, l, &sync_med, &async_med);
	worker_side_line(out, l);
	workers_seen_line(out, l);
	cost_lines(out, l);
	if (l->has_floors) {
		snprintf(title, sizeof(title), "floors (same loop and clock, %llu calls in %u batches, median batch):",
			 (unsigned long long)o->n, o->batches);
		report_floors_block(out, "# ", title, &l->floors, sync_med, async_med);
	}
	report_latency_text(out, c);
}

static void lifecycle_text(FILE *out, const struct doc *d, const struct cell_rec *c, const struct launch_rec *l)
{
	double requests = (double)launch_requests(l);

	for (size_t i = 0; i < l->ncallers; i++)
		report_iteration_line(out, c->scenario, l->callers[i].index, l->callers[i].elapsed_ns,
				      l->callers[i].extractions);
	if (strcmp(c->scenario, "alloc") == 0)
		fprintf(out,
			"# alloc: per iteration plugin_init, one extraction, plugin_destroy (init and destroy serialized)%s\n",
			l->ncallers && l->callers[0].async_in_effect
				? "; async is in effect, so every iteration starts and stops the SDK's async worker"
				: "");
	else
		fprintf(out,
			"# reuse: per iteration an instance taken from a pool of %u, one extraction, given back; %lld takes waited for an instance\n",
			d->options.pool, (long long)l->pool_waits);
	if (l->c_allocs.counted)
		fprintf(out, "# %s: C-side %.3f mallocs and %.3f frees per iteration (all threads)\n", c->scenario,
			l->c_allocs.mallocs_per_iteration, l->c_allocs.frees_per_iteration);
	fprintf(out, "# %s: Go %.3f objects, %.1f bytes allocated per iteration\n", c->scenario,
		(double)l->go_allocs / requests, (double)l->go_alloc_bytes / requests);
}

void report_run_text(FILE *out, const struct doc *d, const struct cell_rec *c)
{
	if (c->nlaunches == 0)
		return;
	if (strcmp(c->scenario, "extract") == 0)
		extract_text(out, d, c, &c->launches[0]);
	else
		lifecycle_text(out, d, c, &c->launches[0]);
}

static void outlier_line(FILE *out, const stats_summary *s)
{
	size_t total = s->low_severe + s->low_mild + s->high_mild + s->high_severe;

	if (total == 0)
		return;
	fprintf(out,
		"# Found %zu outliers among %zu measurements (%.2f%%): %zu low severe, %zu low mild, %zu high mild, %zu high severe (reported, not dropped)\n",
		total, s->n, 100.0 * (double)total / (double)s->n, s->low_severe, s->low_mild, s->high_mild,
		s->high_severe);
}

void report_cell_summary(FILE *out, const struct doc *d, const struct cell_rec *c, int brief)
{
	const stats_summary *st = &c->st.time.s, *cs = &c->st.cpu.s;
	char a[32], b[32], cc[32], e[32], f[32];

	fprintf(out, "# time:   [%s %s %s]  (median and its 95%% interval, exact coverage %s%%, over %zu %s)\n",
		fmt_ns(a, sizeof(a), st->ci_lo), fmt_ns(b, sizeof(b), st->median), fmt_ns(cc, sizeof(cc), st->ci_hi),
		fmt_num(e, sizeof(e), 100 * st->ci_level, "%.1f"), st->n,
		d->samples_are_batches ? "batches of one launch" : "launches");
	fprintf(out, "# spread: mean %s ± %s sd, min %s, max %s, interval half-width %s%% of the median\n",
		fmt_ns(a, sizeof(a), st->mean), fmt_ns(b, sizeof(b), st->stddev), fmt_ns(cc, sizeof(cc), st->min),
		fmt_ns(e, sizeof(e), st->max), fmt_num(f, sizeof(f), half_width_pct(st), "%.2f"));
	outlier_line(out, st);
	if (brief)
		return;
	fprintf(out, "# cpu:    [%s %s %s] cpu-ns/extraction, of which threads other than the callers %s\n",
		fmt_num(a, sizeof(a), cs->ci_lo, "%.2f"), fmt_num(b, sizeof(b), cs->median, "%.2f"),
		fmt_num(cc, sizeof(cc), cs->ci_hi, "%.2f"), fmt_num(e, sizeof(e), c->st.other_cpu_ns_median, "%.2f"));
	fprintf(out,
		"# stalls: %llu of %llu batches, slowest batch %s/extraction; cold (first extraction of a new thread) %s\n",
		(unsigned long long)c->st.stalled_batches, (unsigned long long)c->st.batches,
		fmt_ns(a, sizeof(a), c->st.slowest_batch_ns), fmt_ns(b, sizeof(b), c->st.cold_ns_median));
	fprintf(out, "# noise:  context switches %s per 1000 requests, steal %s (medians over launches)\n",
		fmt_num(a, sizeof(a), c->st.switches_per_1000_median, "%.3f"),
		fmt_ns(b, sizeof(b), c->st.steal_ns_median));
	fprintf(out, "# go allocations: %s objects, %s bytes per %s\n",
		fmt_num(a, sizeof(a), c->st.go_allocs_per_extraction, "%.3f"),
		fmt_num(b, sizeof(b), c->st.go_alloc_bytes_per_extraction, "%.1f"), cell_unit_noun(c));
	if (!isnan(c->st.c_mallocs_per_iteration))
		fprintf(out, "# c allocations: %s mallocs, %s frees per %s (counted by the preloaded counter)\n",
			fmt_num(a, sizeof(a), c->st.c_mallocs_per_iteration, "%.3f"),
			fmt_num(b, sizeof(b), c->st.c_frees_per_iteration, "%.3f"), cell_unit_noun(c));
	fprintf(out, "# allocator: %s (%s)\n", c->allocator, c->allocator_path);
}

void report_launches_text(FILE *out, const struct doc *d)
{
	const struct cell_rec *first = d->ncells ? &d->cells[0] : NULL;

	for (size_t ci = 0; ci < d->ncells; ci++) {
		const struct cell_rec *cell = &d->cells[ci];
		size_t np = cell->nlaunches ? cell->launches[0].ncallers : 0;
		int extract = strcmp(cell->scenario, "extract") == 0;

		for (size_t p = 0; p < np; p++) {
			uint64_t ns = 0, ops = 0;
			for (size_t i = 0; i < cell->nlaunches; i++)
				if (p < cell->launches[i].ncallers) {
					ns += cell->launches[i].callers[p].elapsed_ns;
					ops += cell->launches[i].callers[p].extractions;
				}
			if (extract)
				report_seed_line(out, (uint32_t)p + 1, ns, ops);
			else
				report_iteration_line(out, cell->scenario, (uint32_t)p + 1, ns, ops);
		}
		fprintf(out, "# %s: %zu launches (fresh processes), the lines above are totals over them\n", cell->name,
			cell->nlaunches);
		report_cell_summary(out, d, cell, 0);
	}
	if (first == NULL)
		return;
	report_machine_lines(out, d, first);
	fprintf(out, "# mode: %s requested, %s in effect (verified in every launch: which thread ran Extract)\n",
		first->requested, first->in_effect);
	if (first->reason[0])
		fprintf(out, "# async not in effect: %s\n", first->reason);
	if (first->st.has_floors)
		report_floors_line(out, &first->st.floors);
	report_ratios_text(out, d);
}

void report_ratios_text(FILE *out, const struct doc *d)
{
	char a[32], b[32], c[32];

	for (size_t i = 0; i < d->nratios; i++) {
		const struct ratio_rec *r = &d->ratios[i];
		const stats_summary *st = &r->st.s;
		fprintf(out, "# ratio %s: %s [%s, %s]\n", r->name, fmt_num(a, sizeof(a), st->median, "%.3f"),
			fmt_num(b, sizeof(b), st->ci_lo, "%.3f"), fmt_num(c, sizeof(c), st->ci_hi, "%.3f"));
		if (strncmp(r->name, "reuse/alloc", 11) == 0) {
			/* the saving, from the two cells' medians */
			const struct cell_rec *ca = doc_find_cell(d, r->denominator),
					      *cr = doc_find_cell(d, r->numerator);
			double al = ca ? ca->st.time.s.median : NAN, re = cr ? cr->st.time.s.median : NAN;
			fprintf(out, "# reuse saves %s per iteration (%s%% of alloc's %s)\n",
				fmt_ns(a, sizeof(a), al - re), fmt_num(b, sizeof(b), 100.0 * (al - re) / al, "%.1f"),
				fmt_ns(c, sizeof(c), al));
		}
	}
}

void report_single_text(FILE *out, const struct doc *d)
{
	for (size_t i = 0; i < d->ncells; i++)
		report_run_text(out, d, &d->cells[i]);
	for (size_t i = 0; i < d->ncells; i++) {
		report_cell_summary(out, d, &d->cells[i], 1);
		report_counts_text(out, d, &d->cells[i]);
	}
	report_ratios_text(out, d);
	report_gap_policy_text(out, d);
}
