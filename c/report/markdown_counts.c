/* report/markdown_counts.c — the markdown report's table of counts
 * (--count): the rows of the text's counts table (report_count_rows), each
 * count per extraction with its range, an anatomy's change from the step
 * before. */
#include <math.h>
#include <stdio.h>

#include "report/markdown.h"
#include "report/mdtext.h"
#include "report/text.h"
#include "stats/twolength.h"

/* "1077.31 (1076.92 … 1077.80)"; "unresolved (-1.3175 … 1.3195)" when the
 * two lengths do not resolve it (stats/twolength.h); "not counted" or "—"
 * (not asked). */
static void fig_cell(FILE *out, int asked, int has, const struct count_fig *f)
{
	int resolved = twolength_resolved(f->min);
	int big = resolved ? fabs(f->median) >= 10 : fabs(f->min) >= 10 || fabs(f->max) >= 10;
	const char *fmt = big ? " | %.2f (%.2f … %.2f)" : " | %.4f (%.4f … %.4f)";

	if (has && !resolved)
		fprintf(out, big ? " | unresolved (%.2f … %.2f)" : " | unresolved (%.4f … %.4f)", f->min, f->max);
	else if (has)
		fprintf(out, fmt, f->median, f->min, f->max);
	else
		fputs(asked ? " | not counted" : " | —", out);
}

static void change_cell(FILE *out, int has, const struct count_fig *f, int had, const struct count_fig *before)
{
	double d = has && had && twolength_resolved(f->min) && twolength_resolved(before->min)
			   ? f->median - before->median
			   : NAN;

	if (isnan(d))
		fputs(" | ", out);
	else
		fprintf(out, fabs(d) >= 10 ? " | %+.2f" : " | %+.4f", d);
}

void report_markdown_counts(FILE *out, const struct doc *d)
{
	struct count_row rows[COUNT_ROWS_MAX];
	size_t n = report_count_rows(d, rows, COUNT_ROWS_MAX);
	int ins = (d->options.count & COUNT_INSTRUCTIONS) != 0, sys = (d->options.count & COUNT_SYSCALLS) != 0;
	int anatomy = d->options.kind == RUN_ANATOMY;

	if (n > COUNT_ROWS_MAX)
		n = COUNT_ROWS_MAX;
	if (n == 0 || rows[0].floor)
		return;
	fputs("## Counts\n\n", out);
	fprintf(out,
		"Per extraction%s, no clock: -n %llu less -n %llu over the extractions more; median (min … max) of "
		"%u pairs of runs.%s\n\n",
		anatomy ? " (a floor: per call)" : "", (unsigned long long)rows[0].r->n_long,
		(unsigned long long)rows[0].r->n_short, rows[0].r->pairs,
		anatomy ? " Change: from the step before (the minimal driver: from bare)." : "");
	fputs(anatomy ? "| Mode | Step | Instructions | Change | System calls | Change |\n|---|---|---:|---:|---:|---:|\n"
		      : "| Mode | Cell | Instructions | System calls |\n|---|---|---:|---:|\n",
	      out);
	for (size_t i = 0; i < n; i++) {
		const struct counts_rec *r = rows[i].r, *b = rows[i].before;
		fputs("| ", out);
		md_text(out, rows[i].mode);
		fputs(" | ", out);
		md_text(out, rows[i].what);
		fig_cell(out, ins, r->has_instructions, &r->instructions);
		if (anatomy)
			change_cell(out, r->has_instructions, &r->instructions, b && b->has_instructions,
				    b ? &b->instructions : NULL);
		fig_cell(out, sys, r->has_syscalls, &r->syscalls);
		if (anatomy)
			change_cell(out, r->has_syscalls, &r->syscalls, b && b->has_syscalls, b ? &b->syscalls : NULL);
		fputs(" |\n", out);
	}
	fputc('\n', out);
	for (size_t i = 0; i < n; i++)
		if ((rows[i].r->has_instructions && !twolength_resolved(rows[i].r->instructions.min)) ||
		    (rows[i].r->has_syscalls && !twolength_resolved(rows[i].r->syscalls.min))) {
			fprintf(out,
				"Unresolved: a pair's run of -n %llu counted fewer than its run of -n %llu, so no "
				"figure is given; a larger -n resolves it.\n\n",
				(unsigned long long)rows[0].r->n_long, (unsigned long long)rows[0].r->n_short);
			break;
		}
	for (size_t i = 0; i < n; i++)
		if (rows[i].r->instructions_not_counted[0]) {
			fputs("Instructions of the async cells: not counted, by design (", out);
			md_text(out, rows[i].r->instructions_not_counted);
			fputs(").\n\n", out);
			break;
		}
}
