/* report/text_pairs.c — the text of a paired run (--compare, --against): how
 * the run was made (generations, rounds, blocks, lead-ins, placement, what
 * stopped it), the cells, and every ratio with its interval over
 * generations beside the precision within one process. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/text.h"
#include "stats/stats.h"
#include "stats/steady.h"

static double median_of(const double *x, size_t n)
{
	return n ? stats_median(x, n) : NAN;
}

static void how_text(FILE *out, const struct paired_rec *p)
{
	double first = 0;
	size_t blocks = 0;

	for (size_t i = 0; i < p->ncells; i++) {
		first = fmax(first, median_of(p->cells[i].first_call_ns, p->cells[i].nfirst));
		blocks += p->cells[i].nblocks;
	}
	fprintf(out,
		"paired run: %zu cells, each in one process a generation; %zu generations of fresh processes, "
		"%u rounds, %zu blocks; stopped by %s after %.2f s (--time %g%s%s)\n",
		p->ncells, p->ngenerations, p->rounds, blocks, p->stopped_by, p->elapsed_s, p->budget_s,
		p->precision_pct > 0 ? ", --precision " : "", p->precision_pct > 0 ? "set" : "");
	/* what was asked: a child sizes its blocks at its warm-up's pace, so a
	 * cell's blocks last its calls times its ns/extr. (the table) */
	if (p->block_ms > 0) {
		fprintf(out, "  blocks: %.3g ms timed each", p->block_ms);
		if (p->async_block_ms > 0 && p->async_block_ms != p->block_ms)
			fprintf(out, ", an async cell's %.3g ms,", p->async_block_ms);
		fprintf(out, " at the pace of each child's warm-up");
	} else {
		fprintf(out, "  blocks: -n extractions each");
	}
	fprintf(out, "; a round runs every cell once, in a random order (seed %llu)\n",
		(unsigned long long)p->order_seed);
	if (p->has_steady)
		fprintf(out,
			"  lead-ins (untimed, excluded): before every block, until %d groups of %d calls in a row lie "
			"within %.0f%% of each other, and %.0f us at least after an async block or a start (its worker "
			"spins on); %.0f us at most after the first call (%u of %zu blocks reached that); the slowest "
			"cell's median first call %.0f us (an async worker waking from its sleep)\n",
			STEADY_RUN, STEADY_GROUP, STEADY_BAND * 100, p->lead_in_us, p->lead_in_steady_max_us,
			p->lead_ins_capped, blocks, first / 1e3);
	else
		fprintf(out,
			"  lead-ins (untimed, excluded): %.0f us or more before every block; the slowest cell's median "
			"first call %.0f us (an async worker waking from its sleep)\n",
			p->lead_in_us, first / 1e3);
	fprintf(out, "  time: %.2f s timed, %.2f s in lead-ins, %.2f s starting and ending processes\n", p->timed_s,
		p->lead_s, p->startup_s);
	fprintf(out,
		"  placement: every caller on CPU %d, every other thread of its process (the async worker among them) "
		"on the other CPUs\n",
		p->caller_cpu);
}

static void cells_text(FILE *out, const struct paired_rec *p)
{
	char a[32], b[32];
	int w = 44; /* the names in full, up to 80 columns */

	for (size_t i = 0; i < p->ncells; i++)
		w = strlen(p->cells[i].name) > (size_t)w ? (int)strlen(p->cells[i].name) : w;
	w = w > 80 ? 80 : w;
	fprintf(out, "\n%-*s %-8s %12s %12s %8s %7s %13s\n", w, "cell", "side", "ns/extr.", "cpu-ns/extr.", "calls",
		"blocks", "lead-in, med.");
	for (size_t i = 0; i < p->ncells; i++) {
		const struct pair_cell_rec *c = &p->cells[i];
		char l[32];
		fprintf(out, "%-*.*s %-8s %12s %12s %8llu %7zu %13s\n", w, w, c->name, c->side,
			fmt_ns(a, sizeof(a), median_of(c->block_ns, c->nblocks)),
			fmt_ns(b, sizeof(b), median_of(c->block_cpu_ns, c->ncpu)), (unsigned long long)c->per_block,
			c->nblocks, fmt_ns(l, sizeof(l), median_of(c->lead_ns, c->nlead)));
	}
	fprintf(out, "  (medians over blocks, lead-ins excluded; an absolute cell is as noisy as the machine: read the "
		     "ratios; calls: a block's in the last generation)\n");
}

static void ratios_text(FILE *out, const struct paired_rec *p)
{
	fprintf(out, "\n%-44s %26s %7s %6s %7s %8s %22s\n", "ratio", "estimate [95% interval]", "+-%", "gens", "pairs",
		"p", "within one process");
	size_t undefined = 0;
	for (size_t k = 0; k < p->nratios; k++) {
		const struct pair_ratio_rec *r = &p->ratios[k];
		char est[64], within[64], half[16] = "n/a", pv[16] = "n/a";
		/* too few generations for an interval: n/a, never "nan" */
		if (isfinite(r->low) && isfinite(r->high)) {
			snprintf(est, sizeof(est), "%.4f [%.4f, %.4f]", r->estimate, r->low, r->high);
			snprintf(half, sizeof(half), "%.2f", r->half_width_pct);
			snprintf(pv, sizeof(pv), "%.3g", r->p);
		} else {
			snprintf(est, sizeof(est), "%.4f [n/a]", r->estimate);
			undefined++;
		}
		if (isfinite(r->pairs.s.ci_lo) && isfinite(r->pairs.s.ci_hi))
			snprintf(within, sizeof(within), "%.4f [%.4f, %.4f]", r->pairs.s.median, r->pairs.s.ci_lo,
				 r->pairs.s.ci_hi);
		else
			snprintf(within, sizeof(within), "%.4f [n/a]", r->pairs.s.median);
		fprintf(out, "%-44.44s %26s %7s %6zu %7zu %8s %22s\n", r->name, est, half, r->nsamples, r->pairs.s.n,
			pv, within);
	}
	fprintf(out,
		"  estimate: Hodges-Lehmann over the generations' ratios (each the median of its rounds), interval and "
		"p from the Wilcoxon signed-rank test of their logs;\n"
		"  within one process: the median over every round with its interval, which leaves out how much one "
		"process differs from the next\n");
	if (undefined)
		fprintf(out,
			"  n/a: no interval and no p from fewer than %d generations; no conclusion is drawn from "
			"%s estimate\n",
			STATS_MIN_CI_SAMPLES, undefined == 1 ? "its" : "their");
	if (p->has_sequential)
		fprintf(out,
			"  this/base ratios (judged): interval at %.2f%%, the level of the sequential look the verdict was "
			"drawn at, not 95%%\n",
			100.0 * paired_judged_level(p));
}

/* "[1.23, 4.56]", or "[no interval]" with too few generations. */
static const char *interval(char *buf, size_t len, double lo, double hi, const char *fmt)
{
	char a[24], b[24];

	if (!isfinite(lo) || !isfinite(hi))
		return snprintf(buf, len, "[no interval: too few generations]"), buf;
	snprintf(buf, len, "[%s, %s]", fmt_num(a, sizeof(a), lo, fmt), fmt_num(b, sizeof(b), hi, fmt));
	return buf;
}

/* Async in the machine's units (analyse/roundtrip.h). */
static void roundtrip_text(FILE *out, const struct paired_rec *p)
{
	const struct roundtrip_rec *rt = &p->roundtrip;
	char i1[80], i2[80];

	if (!p->has_roundtrip)
		return;
	fprintf(out,
		"\nround trip: %s, the C plugin's own spin handoff (no Go): one cache-line round trip between the "
		"caller's CPU and the worker's per extraction, %.1f ns (generations %.1f .. %.1f ns)\n",
		rt->cell, rt->ns, rt->ns_min, rt->ns_max);
	for (size_t k = 0; k < rt->nlibs; k++) {
		const struct roundtrip_lib_rec *l = &rt->libs[k];
		if (!isfinite(l->rts_low) || !isfinite(l->rts_high)) {
			/* the figures of too few generations, and no conclusion */
			fprintf(out,
				"  lib=%s: async is %.2f round trips [n/a] (%.1f ns), sync %.1f ns; no conclusion "
				"on where async would beat sync from %zu generation%s (%d are needed)\n",
				l->lib, l->rts, l->async_ns, l->sync_ns, rt->ngen, rt->ngen == 1 ? "" : "s",
				STATS_MIN_CI_SAMPLES);
			continue;
		}
		fprintf(out,
			"  lib=%s: async is %.2f round trips %s (%.1f ns), sync %.1f ns; async would beat sync only "
			"where a round trip is below %.1f ns %s\n",
			l->lib, l->rts, interval(i1, sizeof(i1), l->rts_low, l->rts_high, "%.2f"), l->async_ns,
			l->sync_ns, l->crossover_ns,
			interval(i2, sizeof(i2), l->crossover_low, l->crossover_high, "%.1f"));
		if (l->fitted)
			fprintf(out, "    line over the generations: async = %.2f %s x round trip %+.1f ns\n", l->slope,
				interval(i1, sizeof(i1), l->slope_low, l->slope_high, "%.2f"), l->intercept_ns);
		else
			fprintf(out, "    no line over the generations: %s\n", l->why);
	}
	fprintf(out, "  crossover: per round, round trip x sync / async (async costing the same number of round "
		     "trips); Hodges-Lehmann over the generations with its signed-rank interval\n");
}

struct slot_place {
	uint32_t offset, lines, bytes;
	unsigned n;
};

/* Counts caller p's slot place in seen (at most 4 distinct), or in
 * *unknown when it was not found; nothing when it was not looked for. */
static void tally_slot(struct slot_place *seen, unsigned *nseen, unsigned *unknown, const struct caller_rec *p)
{
	unsigned j = 0;

	if (!p->has_async_slot)
		return;
	if (p->slot_line_bytes == 0) {
		(*unknown)++;
		return;
	}
	while (j < *nseen && (seen[j].offset != p->slot_line_offset || seen[j].lines != p->slot_lines))
		j++;
	if (j == *nseen && *nseen < 4)
		seen[(*nseen)++] = (struct slot_place){ p->slot_line_offset, p->slot_lines, p->slot_line_bytes, 0 };
	if (j < *nseen)
		seen[j].n++;
}

/* Where the Go SDK's async slot lay in each async cell's processes
 * (plugin/sdkslot.h): the lines an async extraction moves. Each distinct
 * place with the number of launches (generations) it was found in. */
static void slots_text(FILE *out, const struct doc *d)
{
	int head = 0;

	for (size_t i = 0; i < d->ncells; i++) {
		struct slot_place seen[4];
		unsigned nseen = 0, unknown = 0;
		const struct cell_rec *c = &d->cells[i];

		for (size_t l = 0; l < c->nlaunches; l++)
			for (size_t k = 0; k < c->launches[l].ncallers; k++)
				tally_slot(seen, &nseen, &unknown, &c->launches[l].callers[k]);
		if (nseen == 0 && unknown == 0)
			continue;
		if (!head++)
			fprintf(out, "\nasync slots (the Go SDK's request slot, written from both CPUs at every async "
				     "extraction; where the allocator, or --slot-offset, put it):\n");
		fprintf(out, "  %s:", c->name);
		for (unsigned j = 0; j < nseen; j++)
			fprintf(out, "%s %u bytes into a %u-byte line, %u line%s (%u launch%s)", j ? ";" : "",
				seen[j].offset, seen[j].bytes, seen[j].lines, seen[j].lines == 1 ? "" : "s", seen[j].n,
				seen[j].n == 1 ? "" : "es");
		if (unknown)
			fprintf(out, "%s not found in %u launch%s", nseen ? ";" : "", unknown,
				unknown == 1 ? "" : "es");
		fputc('\n', out);
	}
}

void report_paired_text(FILE *out, const struct doc *d)
{
	if (!d->has_paired)
		return;
	how_text(out, &d->paired);
	cells_text(out, &d->paired);
	ratios_text(out, &d->paired);
	roundtrip_text(out, &d->paired);
	slots_text(out, d);
	if (d->ncells > 0)
		report_machine_lines(out, d, &d->cells[0]);
	report_counts_table_text(out, d); /* a counted --compare's */
}
