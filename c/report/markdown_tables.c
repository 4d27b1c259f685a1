/* report/markdown_tables.c — the markdown report's tables of cells, ratios
 * and verdicts (see markdown.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/markdown.h"
#include "report/mdtext.h"

static const char *fmt_p(char *buf, size_t len, double p);

static double level_pct(const struct doc *d)
{
	return 100.0 * doc_ci_level(d);
}

static const char *fmt_interval_ns(char *buf, size_t len, const stats_summary *s)
{
	char lo[32], hi[32];

	if (!isfinite(s->ci_lo) || !isfinite(s->ci_hi))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "[%s, %s] (±%.2f%%)", fmt_ns(lo, sizeof(lo), s->ci_lo),
			 fmt_ns(hi, sizeof(hi), s->ci_hi), half_width_pct(s));
	return buf;
}

static void cell_row(FILE *out, const struct cell_rec *c)
{
	const stats_summary *s = &c->st.time.s;
	char a[32], b[32], e[32], sd[32], iv[96];

	fputs("| ", out);
	md_code(out, c->name);
	if (c->analysed)
		fprintf(out, " | %s/%s | %s | %s … %s (sd %s) | %zu", fmt_ns(a, sizeof(a), s->median),
			cell_unit_noun(c), fmt_interval_ns(iv, sizeof(iv), s), fmt_ns(b, sizeof(b), s->min),
			fmt_ns(e, sizeof(e), s->max), fmt_ns(sd, sizeof(sd), s->stddev), s->n);
	else
		fputs(" | n/a | n/a | n/a | 0", out);
	fputs(" | ", out);
	md_text(out, c->requested);
	fputs(" | ", out);
	md_text(out, c->in_effect);
	fprintf(out, " | %s |\n", c->mode_verified ? "yes" : "no (no probe fields)");
}

void report_markdown_cells(FILE *out, const struct doc *d)
{
	int reasons = 0;

	fputs("## Cells\n\n", out);
	if (d->ncells == 0) {
		fputs("No cells.\n\n", out);
		return;
	}
	fprintf(out, "Each cell's median and its %.0f%% interval over %s.\n\n", level_pct(d),
		d->samples_are_batches ? "the batches of one launch (not independent: use --launches)"
				       : "its samples (one per launch, or per generation of a paired run)");
	fprintf(out,
		"| Cell | Median | %.0f%% interval | Spread: min … max | n | Mode requested | In effect | Verified |\n",
		level_pct(d));
	fputs("|---|---|---|---|---:|---|---|---|\n", out);
	for (size_t i = 0; i < d->ncells; i++)
		cell_row(out, &d->cells[i]);
	fputc('\n', out);
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *c = &d->cells[i];
		if (c->reason[0] == '\0')
			continue;
		fputs("- ", out);
		md_code(out, c->name);
		fputs(": async not in effect: ", out);
		md_text(out, c->reason);
		fputc('\n', out);
		reasons = 1;
	}
	if (reasons)
		fputc('\n', out);
	report_markdown_counts(out, d);
}

/* A ratio's value: a plain ratio, or ns for a difference (--anatomy). */
static const char *fmt_value(char *buf, size_t len, double v, int diff)
{
	return diff ? fmt_ns(buf, len, v) : fmt_num(buf, len, v, "%.3f");
}

static void paired_ratios(FILE *out, const struct doc *d)
{
	const struct paired_rec *p = &d->paired;

	fprintf(out,
		"Paired in this run: each ratio's Hodges-Lehmann estimate over %zu generation%s and its signed-rank %.0f%% "
		"interval.\n\n",
		p->ngenerations, p->ngenerations == 1 ? "" : "s", level_pct(d));
	fprintf(out, "| Ratio | Estimate | %.0f%% interval | Half-width | Generations | p (signed rank) |\n",
		level_pct(d));
	fputs("|---|---:|---|---:|---:|---:|\n", out);
	for (size_t i = 0; i < p->nratios; i++) {
		const struct pair_ratio_rec *r = &p->ratios[i];
		char e[32], lo[32], hi[32], hw[32], pv[32];
		fputs("| ", out);
		md_code(out, r->name);
		fmt_num(e, sizeof(e), r->estimate, "%.3f");
		fmt_num(lo, sizeof(lo), r->low, "%.3f");
		fmt_num(hi, sizeof(hi), r->high, "%.3f");
		fmt_num(hw, sizeof(hw), r->half_width_pct, "±%.2f%%");
		fmt_p(pv, sizeof(pv), r->p);
		if (isfinite(r->low) && isfinite(r->high))
			fprintf(out, " | %s | [%s, %s] | %s | %zu | %s |\n", e, lo, hi, hw, r->nsamples, pv);
		else
			fprintf(out, " | %s | n/a | %s | %zu | %s |\n", e, hw, r->nsamples, pv);
	}
	fputc('\n', out);
}

void report_markdown_ratios(FILE *out, const struct doc *d)
{
	fputs("## Ratios\n\n", out);
	if (d->has_paired && d->paired.nratios > 0) {
		paired_ratios(out, d);
		return;
	}
	if (d->nratios == 0) {
		fputs("No ratios: this run measured no two configurations side by side.\n\n", out);
		return;
	}
	fprintf(out, "Same-run ratios, one sample a round: the median and its %.0f%% interval.\n\n", level_pct(d));
	fprintf(out, "| Ratio | Median | %.0f%% interval | n |\n", level_pct(d));
	fputs("|---|---:|---|---:|\n", out);
	for (size_t i = 0; i < d->nratios; i++) {
		const struct ratio_rec *r = &d->ratios[i];
		const stats_summary *s = &r->st.s;
		int diff = strcmp(r->metric, "diff") == 0;
		char m[32], lo[32], hi[32];
		fputs("| ", out);
		md_code(out, r->name);
		fmt_value(m, sizeof(m), s->median, diff);
		if (isfinite(s->ci_lo) && isfinite(s->ci_hi))
			fprintf(out, " | %s | [%s, %s] | %zu |\n", m, fmt_value(lo, sizeof(lo), s->ci_lo, diff),
				fmt_value(hi, sizeof(hi), s->ci_hi, diff), s->n);
		else
			fprintf(out, " | %s | n/a | %zu |\n", m, s->n);
	}
	fputc('\n', out);
}

/* A p-value: "< 0.001" below it, else three decimals; "n/a". */
static const char *fmt_p(char *buf, size_t len, double p)
{
	if (isfinite(p) && p < 0.001)
		snprintf(buf, len, "< 0.001");
	else
		fmt_num(buf, len, p, "%.3f");
	return buf;
}

static const char *pct(char *buf, size_t len, double v)
{
	return fmt_num(buf, len, 100.0 * v, "%+.2f%%");
}

static void verdict_cell(FILE *out, const struct change_rec *c)
{
	char sentence[128];

	switch (c->ch.verdict) {
	case VERDICT_REGRESSED:
		fputs("**regressed**", out);
		break;
	case VERDICT_IMPROVED:
		fputs("improved", out);
		break;
	case VERDICT_NO_CHANGE:
		fputs("no change", out);
		break;
	case VERDICT_WITHIN_NOISE:
		fputs("within noise", out);
		break;
	case VERDICT_INCONCLUSIVE:
		fputs("**inconclusive**", out);
		break;
	case VERDICT_UNDEFINED: {
		/* "Too few samples ... side)." as "undefined: too few samples ... side)" */
		size_t len;
		change_sentence(c, sentence, sizeof(sentence));
		len = strlen(sentence);
		if (len > 0 && sentence[len - 1] == '.')
			sentence[len - 1] = '\0';
		if (sentence[0] >= 'A' && sentence[0] <= 'Z')
			sentence[0] = (char)(sentence[0] - 'A' + 'a');
		fputs("undefined: ", out);
		md_text(out, sentence);
		break;
	}
	}
	if (!c->gated)
		fputs(" (not gated)", out);
}

static void change_row(FILE *out, const struct change_rec *c)
{
	char e[32], lo[32], hi[32], pv[32];

	fputs("| ", out);
	md_code(out, c->scenario);
	fputs(" | ", out);
	md_text(out, c->kind);
	if (c->metric[0]) {
		fputs(", ", out);
		md_text(out, c->metric);
	}
	pct(e, sizeof(e), c->ch.point);
	if (isfinite(c->ch.lo) && isfinite(c->ch.hi))
		fprintf(out, " | %s | [%s, %s]", e, pct(lo, sizeof(lo), c->ch.lo), pct(hi, sizeof(hi), c->ch.hi));
	else
		fprintf(out, " | %s | n/a", e);
	fprintf(out, " | ±%g%% | %s | %zu, %zu | ", 100.0 * c->ch.threshold, fmt_p(pv, sizeof(pv), c->ch.p), c->base_n,
		c->n);
	verdict_cell(out, c);
	fputs(" |\n", out);
}

static void overall(FILE *out, const struct comparison_rec *cmp)
{
	size_t improved = 0;

	for (size_t i = 0; i < cmp->nchanges; i++)
		improved += cmp->changes[i].gated && cmp->changes[i].ch.verdict == VERDICT_IMPROVED;
	if (cmp->regressed) {
		fputs("**Verdict: regression detected** (exit status 1)\n\n", out);
		return;
	}
	if (cmp->inconclusive) {
		char said[MODEL_TEXT_MAX + MODEL_NAME_MAX + 256];
		/* "inconclusive, why; what would tell" */
		comparison_sentence(cmp, said, sizeof(said));
		fputs("**Verdict: inconclusive**, ", out);
		md_text(out, said + strlen("inconclusive, "));
		fprintf(out, " (exit status %d)\n\n", comparison_status(cmp));
		return;
	}
	fprintf(out, "**Verdict: no regression** (exit status 0)");
	if (improved)
		fprintf(out, "; %zu of %zu change%s improved", improved, cmp->nchanges, cmp->nchanges == 1 ? "" : "s");
	fputs("\n\n", out);
}

void report_markdown_verdicts(FILE *out, const struct doc *d)
{
	const struct comparison_rec *cmp = &d->comparison;
	int notes = 0;

	if (!d->has_comparison)
		return;
	fputs("## Verdict against ", out);
	md_code(out, cmp->against);
	fputs("\n\n", out);
	if (cmp->nchanges && cmp->changes[0].metric[0])
		fprintf(out,
			"Instructions per extraction, counted under valgrind in this run, the builds alternating (one "
			"sample a pair of runs at two lengths); threshold ±%g%%, alpha %.2f, bootstrap seed %llu.\n\n",
			100.0 * cmp->threshold, cmp->alpha, (unsigned long long)cmp->seed);
	else if (d->has_paired) {
		char seq[256];
		fprintf(out,
			"Paired in this run; threshold ±%g%%, alpha %.2f; each change over %zu generations: Hodges-Lehmann, "
			"signed-rank interval and p",
			100.0 * cmp->threshold, cmp->alpha, d->paired.ngenerations);
		if (paired_sequential_text(&d->paired, seq, sizeof(seq))[0]) {
			fputs("; ", out);
			md_text(out, seq);
		}
		fputs(".\n\n", out);
	} else
		fprintf(out, "%s; threshold ±%g%%, alpha %.2f, bootstrap seed %llu, %llu resamples.\n\n",
			cmp->same_time		   ? "Interleaved in this run"
			: cmp->machine_key_matches ? "Same machine key"
						   : "Machine key differs: absolute times not gated, ratios only",
			100.0 * cmp->threshold, cmp->alpha, (unsigned long long)cmp->seed,
			(unsigned long long)cmp->resamples);
	fprintf(out,
		"| Change | Kind | Estimate | %.4g%% interval | Threshold | p | Samples (base, this) | Verdict |\n",
		d->has_paired ? 100.0 * paired_judged_level(&d->paired) : level_pct(d));
	fputs("|---|---|---:|---|---:|---:|---|---|\n", out);
	for (size_t i = 0; i < cmp->nchanges; i++)
		change_row(out, &cmp->changes[i]);
	fputc('\n', out);
	for (size_t i = 0; i < cmp->nchanges; i++) {
		const struct change_rec *c = &cmp->changes[i];
		if (c->gated)
			continue;
		fputs("- not gated, ", out);
		md_code(out, c->scenario);
		fputs(": ", out);
		md_text(out, c->not_gated_because);
		fputc('\n', out);
		notes = 1;
	}
	if (notes)
		fputc('\n', out);
	overall(out, cmp);
}
