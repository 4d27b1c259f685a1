/* report/text_tables.c — the tables of report/text.h: --compare,
 * --allocators and the comparison against a base. */
#include "report/text.h"

#include <math.h>
#include <string.h>

#include "report/format.h"
#include "stats/twolength.h"

static void compare_row(FILE *out, const struct cell_rec *cell, const char *lib, const char *mode)
{
	const stats_summary *st = &cell->st.time.s, *cs = &cell->st.cpu.s;
	char a[32], b[32], c[32], d[32], e[32], f[32], iv[80];

	snprintf(iv, sizeof(iv), "[%s, %s]", fmt_num(a, sizeof(a), st->ci_lo, "%.2f"),
		 fmt_num(b, sizeof(b), st->ci_hi, "%.2f"));
	fprintf(out, "%-8s %-6s %-6s %12s %25s %8s %12s %12s %5llu/%-4llu\n", lib, mode, cell->in_effect,
		fmt_num(c, sizeof(c), st->median, "%.2f"), iv, fmt_num(d, sizeof(d), half_width_pct(st), "%.2f"),
		fmt_num(e, sizeof(e), cs->median, "%.2f"), fmt_ns(f, sizeof(f), cell->st.cold_ns_median),
		(unsigned long long)cell->st.stalled_batches, (unsigned long long)cell->st.batches);
}

static void ratio_lines(FILE *out, const struct doc *d)
{
	char a[32], b[32], c[32];

	fprintf(out, "ratios (per round, median and 95%% interval):\n");
	for (size_t i = 0; i < d->nratios; i++) {
		const stats_summary *st = &d->ratios[i].st.s;
		fprintf(out, "  %-32s %8s  [%s, %s]\n", d->ratios[i].name, fmt_num(a, sizeof(a), st->median, "%.3f"),
			fmt_num(b, sizeof(b), st->ci_lo, "%.3f"), fmt_num(c, sizeof(c), st->ci_hi, "%.3f"));
	}
}

void report_interference_text(FILE *out, const struct doc *d)
{
	static const char *const modes[] = { "sync", "async" }, *const roles[] = { NULL, "idle", "busy" };
	static const char *const titles[] = { "alone", "B idle", "B busy" };
	const struct options *o = &d->options;

	if (d->ncells == 0)
		return;
	fprintf(out,
		"# cgocost interference: %s alone, beside %s idle, beside it busy (allocating %llu bytes per extraction); %u rounds interleaved, -n %llu -p %u\n",
		o->nlibs ? o->libs[0] : "?", o->busy ? o->busy : "?", (unsigned long long)o->alloc_bytes, o->launches,
		(unsigned long long)o->n, o->plugins);
	report_machine_lines(out, d, &d->cells[0]);
	if (d->cells[0].nlaunches)
		report_libraries_text(out, "# ", &d->cells[0].launches[0]);
	fprintf(out, "%-8s %-6s %-6s %12s %25s %8s %12s %12s %10s\n", "A", "mode", "effect", "ns/extr", "95% interval",
		"±%", "cpu-ns/extr", "cold", "stalls");
	for (int r = 0; r < 3; r++)
		for (int m = 0; m < 2; m++) {
			const struct cell_rec *cell = doc_find_beside(d, modes[m], roles[r]);
			if (cell)
				compare_row(out, cell, titles[r], modes[m]);
		}
	ratio_lines(out, d);
}

void report_compare_text(FILE *out, const struct doc *d)
{
	static const char *const libs[] = { "archive", "shared" }, *const modes[] = { "sync", "async" };
	const struct options *o = &d->options;
	const struct cell_rec *sync, *async, *cplugin;

	if (d->ncells == 0)
		return;
	fprintf(out,
		"# cgocost compare: archive/shared x sync/async, %u rounds interleaved, -n %llu -r %u -p %u, work %s\n",
		o->launches, (unsigned long long)o->n, o->batches, o->plugins, work_name(o->work));
	report_machine_lines(out, d, &d->cells[0]);
	fprintf(out, "%-8s %-6s %-6s %12s %25s %8s %12s %12s %10s\n", "lib", "mode", "effect", "ns/extr",
		"95% interval", "±%", "cpu-ns/extr", "cold", "stalls");
	for (int l = 0; l < 2; l++)
		for (int m = 0; m < 2; m++) {
			const struct cell_rec *cell = doc_find_mode(d, libs[l], modes[m], "extract");
			if (cell)
				compare_row(out, cell, libs[l], modes[m]);
		}
	/* the no-Go baseline: the C plugin in bench-host */
	if ((cplugin = doc_find_mode(d, "loaded", "sync", "extract")) != NULL)
		compare_row(out, cplugin, "C", "sync");
	ratio_lines(out, d);
	for (int l = 0; l < 2; l++)
		for (int m = 0; m < 2; m++) {
			const struct cell_rec *cell = doc_find_mode(d, libs[l], modes[m], "extract");
			if (cell && cell->reason[0])
				fprintf(out, "  note: %s %s is not async: %s\n", libs[l], modes[m], cell->reason);
		}
	sync = doc_find_mode(d, "archive", "sync", "extract");
	async = doc_find_mode(d, "archive", "async", "extract");
	if (sync && sync->st.has_floors)
		report_floors_block(out, "", "floors (archive build, medians over rounds):", &sync->st.floors,
				    sync->st.time.s.median,
				    async && cell_ran_as_asked(async) ? async->st.time.s.median : NAN);
	report_counts_table_text(out, d);
}

static const struct ratio_rec *find_ratio(const struct doc *d, const char *name)
{
	for (size_t i = 0; i < d->nratios; i++)
		if (strcmp(d->ratios[i].name, name) == 0)
			return &d->ratios[i];
	return NULL;
}

/* "1.013 [0.998, 1.027]" or "+12.3 ns [10.1, 14.0]"; "n/a" when absent. */
static const char *fmt_ratio(char *buf, size_t len, const struct ratio_rec *r)
{
	char a[32], b[32], c[32];
	int diff = r && strcmp(r->metric, "diff") == 0;

	if (r == NULL)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, diff ? "%s ns [%s, %s]" : "%s [%s, %s]",
			 fmt_num(a, sizeof(a), r->st.s.median, diff ? "%+.1f" : "%.3f"),
			 fmt_num(b, sizeof(b), r->st.s.ci_lo, diff ? "%.1f" : "%.3f"),
			 fmt_num(c, sizeof(c), r->st.s.ci_hi, diff ? "%.1f" : "%.3f"));
	return buf;
}

static const char *const step_touches[WORK_COUNT] = {
	[WORK_BARE] = "nothing: constant request and event, no result read",
	[WORK_EVENT] = "+ a new event number each call, read by Extract",
	[WORK_NOOP] = "+ the (empty) result read back by the caller",
	[WORK_U64] = "+ a uint64 value written, read and checked",
	[WORK_STR] = "+ a string value written, read and checked",
};

void report_anatomy_text(FILE *out, const struct doc *d)
{
	static const enum work steps[] = { WORK_BARE, WORK_EVENT, WORK_NOOP, WORK_U64, WORK_STR };
	static const char *const modes[] = { "sync", "async" };
	const struct options *o = &d->options;
	char a[32], b[32], c[32], name[80], iv[64], inc[64];

	if (d->ncells == 0)
		return;
	fprintf(out,
		"# cgocost anatomy: what one extraction is made of, %u rounds interleaved, -n %llu -r %u, lib archive\n",
		o->launches, (unsigned long long)o->n, o->batches);
	report_machine_lines(out, d, &d->cells[0]);
	fprintf(out, "%-6s %-6s %10s %22s %24s  %s\n", "mode", "step", "ns/extr", "95% interval",
		"increment (per round)", "what the step adds");
	for (int m = 0; m < 2; m++)
		for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
			const struct cell_rec *cell = doc_find_work(d, "archive", modes[m], "extract", steps[k], 0);
			const stats_summary *st = cell ? &cell->st.time.s : NULL;
			if (st == NULL)
				continue;
			snprintf(iv, sizeof(iv), "[%s, %s]", fmt_num(a, sizeof(a), st->ci_lo, "%.2f"),
				 fmt_num(b, sizeof(b), st->ci_hi, "%.2f"));
			snprintf(name, sizeof(name), "%s-%s mode=%s diff", work_name(steps[k]),
				 k ? work_name(steps[k - 1]) : "", modes[m]);
			fprintf(out, "%-6s %-6s %10s %22s %24s  %s%s\n", cell->in_effect, work_name(steps[k]),
				fmt_num(c, sizeof(c), st->median, "%.2f"), iv,
				k ? fmt_ratio(inc, sizeof(inc), find_ratio(d, name)) : "", step_touches[steps[k]],
				cell_ran_as_asked(cell) ? "" : " (not the mode asked)");
		}
	fprintf(out, "harness check, bench --work bare / bench-minimal (the textbook loop), per round:\n");
	for (int m = 0; m < 2; m++) {
		const struct ratio_rec *r;
		snprintf(name, sizeof(name), "bench/minimal mode=%s wall", modes[m]);
		r = find_ratio(d, name);
		fprintf(out, "  %-6s %s%s\n", modes[m], fmt_ratio(inc, sizeof(inc), r),
			r && (r->st.s.ci_lo > 1.0 || r->st.s.ci_hi < 1.0 || fabs(r->st.s.median - 1.0) > 0.03)
				? "  (outside the target: interval containing 1, point within 3%)"
				: "");
	}
	for (int m = 0; m < 2; m++) {
		const struct cell_rec *bare = doc_find_work(d, "archive", modes[m], "extract", WORK_BARE, 0);
		const struct cell_rec *noop = doc_find_work(d, "archive", modes[m], "extract", WORK_NOOP, 0);
		if (bare && noop)
			fprintf(out, "reading: %s: moving the event and the result adds %s to the bare %s (noop %s)\n",
				modes[m], fmt_ns(a, sizeof(a), noop->st.time.s.median - bare->st.time.s.median),
				fmt_ns(b, sizeof(b), bare->st.time.s.median),
				fmt_ns(c, sizeof(c), noop->st.time.s.median));
	}
	report_counts_table_text(out, d);
}

void report_allocators_text(FILE *out, const struct doc *d)
{
	char a[32], b[32], c[32];

	if (d->ncells == 0)
		return;
	report_machine_lines(out, d, &d->cells[0]);
	fprintf(out,
		"# each allocator preloaded in its own launches, interleaved round by round; changes against glibc\n");
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *cell = &d->cells[i];
		const stats_summary *st = &cell->st.time.s;
		fprintf(out, "%-60s %12s  [%s, %s]  (%s)\n", cell->name, fmt_ns(a, sizeof(a), st->median),
			fmt_ns(b, sizeof(b), st->ci_lo), fmt_ns(c, sizeof(c), st->ci_hi), cell->allocator_path);
		if (cell->has_vs_glibc)
			fprintf(out, "    %s %s\n", cell->vs_glibc.line, verdict_sentence(cell->vs_glibc.ch.verdict));
	}
}

/* A counted change's side: the median of its samples with their range. */
static void counted_side(FILE *out, const char *side, const double *x, size_t n)
{
	double med, lo, hi;
	char pct[32];

	twolength_spread(x, n, &med, &lo, &hi);
	fprintf(out, "  %s %.2f [%.2f .. %.2f] (range %s%%) over %zu pairs\n", side, med, lo, hi,
		fmt_num(pct, sizeof(pct), twolength_range_pct(med, lo, hi), "%.2f"), n);
}

void report_comparison_text(FILE *out, const struct doc *d)
{
	const struct comparison_rec *cmp = &d->comparison;
	const char *of = "";

	if (!d->has_comparison)
		return;
	/* the counting gate's changes are of instructions, not times */
	for (size_t i = 0; i < cmp->nchanges; i++)
		if (strcmp(cmp->changes[i].metric, "instructions") == 0)
			of = " in instructions/extraction";
	if (d->has_paired) {
		char seq[256];
		fprintf(out,
			"\ncomparison against %s (paired in this run; threshold ±%g%%, alpha %.2f; the change over %zu "
			"generations: Hodges-Lehmann, signed-rank interval and p)\n",
			cmp->against, 100.0 * cmp->threshold, cmp->alpha, d->paired.ngenerations);
		if (paired_sequential_text(&d->paired, seq, sizeof(seq))[0])
			fprintf(out, "  %s\n", seq);
	} else
		fprintf(out,
			"\ncomparison against %s%s (%s; threshold ±%g%%, alpha %.2f, bootstrap seed %llu, %llu resamples)\n",
			cmp->against, of,
			of[0]			   ? "counted in this run, the builds alternating"
			: cmp->same_time	   ? "interleaved in this run"
			: cmp->machine_key_matches ? "same machine key"
						   : "machine key differs: absolute times not gated, ratios only",
			100.0 * cmp->threshold, cmp->alpha, (unsigned long long)cmp->seed,
			(unsigned long long)cmp->resamples);
	for (size_t i = 0; i < cmp->nchanges; i++) {
		const struct change_rec *c = &cmp->changes[i];
		char sentence[128];
		change_sentence(c, sentence, sizeof(sentence));
		fprintf(out, "%s %s%s\n", c->kind, c->scenario, c->metric[0] ? " (instructions/extraction)" : "");
		if (c->metric[0]) {
			counted_side(out, "this build", c->samples, c->n);
			counted_side(out, "--against ", c->base_samples, c->base_n);
		}
		fprintf(out, "  %s\n", c->line);
		if (c->gated)
			fprintf(out, "  %s\n", sentence);
		else
			fprintf(out, "  %s (not gated: %s)\n", sentence, c->not_gated_because);
	}
	{
		char said[MODEL_TEXT_MAX + MODEL_NAME_MAX + 256];
		comparison_sentence(cmp, said, sizeof(said));
		fprintf(out, "verdict: %s%s (exit status %d%s)\n", said, of, comparison_status(cmp),
			cmp->inconclusive && cmp->inconclusive_pass ? ", --inconclusive pass" : "");
	}
}
