/* report/text_counts.c — the counts: block of a counted cell (--count):
 * each count per extraction with the range of its pairs, after the times;
 * and the counts table of a counted --compare or --anatomy. */
#include <math.h>
#include <string.h>

#include "report/format.h"
#include "report/text.h"
#include "stats/twolength.h"

/* A system call named below this many per extraction is left out of the
 * text (it is in the JSON): less than one call a thousand extractions is
 * what the runs' own differences leave. */
#define COUNT_TEXT_LEAST 0.001

/* "1077.31 [1076.92 .. 1077.80]": two decimals from 10 up, four below; a
 * count the two lengths do not resolve (a pair counted less in its longer
 * run: stats/twolength.h) gives no figure, only its range:
 * "unresolved [-1.3175 .. 1.3195]". */
static const char *fig(char *buf, size_t len, const struct count_fig *f)
{
	int resolved = twolength_resolved(f->min);
	int big = resolved ? fabs(f->median) >= 10 : fabs(f->min) >= 10 || fabs(f->max) >= 10;
	const char *fmt = big ? "%.2f [%.2f .. %.2f]" : "%.4f [%.4f .. %.4f]";
	double least = big ? 0.005 : 0.00005, v[3] = { f->median, f->min, f->max };

	/* what rounds to zero is printed as 0, not -0 */
	for (int i = 0; i < 3; i++)
		if (fabs(v[i]) < least)
			v[i] = 0;
	if (!resolved)
		snprintf(buf, len, big ? "unresolved [%.2f .. %.2f]" : "unresolved [%.4f .. %.4f]", v[1], v[2]);
	else
		snprintf(buf, len, fmt, v[0], v[1], v[2]);
	return buf;
}

/* Whether any figure of r is one the two lengths do not resolve. */
static int any_unresolved(const struct counts_rec *r)
{
	int n = 0;

	if (r->has_instructions)
		n += !twolength_resolved(r->instructions.min);
	if (r->has_syscalls) {
		n += !twolength_resolved(r->syscalls.min) + !twolength_resolved(r->context_switches.min) +
		     !twolength_resolved(r->page_faults.min);
		for (size_t i = 0; i < r->nnames; i++)
			n += fabs(r->by_name[i].per_op.median) >= COUNT_TEXT_LEAST &&
			     !twolength_resolved(r->by_name[i].per_op.min);
	}
	return n > 0;
}

/* What "unresolved" means, and what resolves it. */
static void unresolved_note(FILE *out, const char *indent, const struct counts_rec *r, const char *unit)
{
	fprintf(out,
		"%sunresolved: a pair's run of -n %llu counted fewer than its run of -n %llu: what the runs do "
		"besides the %llu %ss more (start-up, the exit, the scheduler) varies by more than those add, so no "
		"figure is given; a larger -n resolves it\n",
		indent, (unsigned long long)r->n_long, (unsigned long long)r->n_short, (unsigned long long)r->ops,
		unit);
}

static void syscalls_lines(FILE *out, const struct counts_rec *r)
{
	char a[96];
	size_t zero = 0;

	fprintf(out, "#   system calls      %s  %s, %u runs in %.1f s\n", fig(a, sizeof(a), &r->syscalls),
		r->syscalls_tool, 2 * r->pairs, r->syscalls_s);
	for (size_t i = 0; i < r->nnames; i++) {
		if (fabs(r->by_name[i].per_op.median) < COUNT_TEXT_LEAST) {
			zero++;
			continue;
		}
		fprintf(out, "#     %-16s%s\n", r->by_name[i].name, fig(a, sizeof(a), &r->by_name[i].per_op));
	}
	if (zero)
		fprintf(out, "#     (%zu more by name: less than %g each)\n", zero, COUNT_TEXT_LEAST);
	fprintf(out, "#   context switches  %s\n", fig(a, sizeof(a), &r->context_switches));
	fprintf(out, "#   page faults       %s\n", fig(a, sizeof(a), &r->page_faults));
}

void report_counts_text(FILE *out, const struct doc *d, const struct cell_rec *c)
{
	const struct counts_rec *r = &c->counts;
	const char *unit = d->options.per_event ? "event" : "extraction";
	char a[96], pct[32];

	if (!c->has_counts)
		return;
	fprintf(out,
		"# counts: per %s, no clock: -n %llu less -n %llu (the same warm-up, %llu) over the %llu %ss "
		"more; median [min .. max] of %u pairs\n",
		unit, (unsigned long long)r->n_long, (unsigned long long)r->n_short,
		(unsigned long long)d->options.warmup, (unsigned long long)r->ops, unit, r->pairs);
	if (r->has_instructions)
		fprintf(out, "#   instructions      %s (range %s%%)  %s, %u runs in %.1f s\n",
			fig(a, sizeof(a), &r->instructions),
			fmt_num(pct, sizeof(pct),
				twolength_range_pct(r->instructions.median, r->instructions.min, r->instructions.max),
				"%.2f"),
			r->instructions_tool, 2 * r->pairs, r->instructions_s);
	else if (d->options.count & COUNT_INSTRUCTIONS)
		fprintf(out, "#   instructions      not counted (why: on stderr)\n");
	if (r->has_syscalls)
		syscalls_lines(out, r);
	else if (d->options.count & COUNT_SYSCALLS)
		fprintf(out, "#   system calls      not counted (why: on stderr)\n");
	if (any_unresolved(r))
		unresolved_note(out, "#   ", r, unit);
}

void report_count_gate_text(FILE *out, const struct doc *d)
{
	for (size_t i = 0; i < d->ncells; i++) {
		const struct counts_rec *r = &d->cells[i].counts;
		if (!d->cells[i].has_counts || !r->has_instructions)
			continue;
		fprintf(out,
			"# the counting gate: instructions per extraction, no clock: -n %llu less -n %llu (the same "
			"warm-up, %llu) over the %llu extractions more, %u pairs of counted runs a build, the builds "
			"alternating; %s, %.1f s for this build's runs\n",
			(unsigned long long)r->n_long, (unsigned long long)r->n_short,
			(unsigned long long)d->options.warmup, (unsigned long long)r->ops, r->pairs,
			r->instructions_tool, r->instructions_s);
		return;
	}
}

/* A count's column: its figure, "not counted" (asked, not taken), or
 * blank (not asked). */
static const char *column(char *buf, size_t len, int asked, int has, const struct count_fig *f)
{
	if (has)
		return fig(buf, len, f);
	snprintf(buf, len, "%s", asked ? "not counted" : "");
	return buf;
}

/* "+14.37" from the step before, when both were counted; "". */
static const char *step_change(char *buf, size_t len, int has, const struct count_fig *f, int had,
			       const struct count_fig *before)
{
	double d = has && had && twolength_resolved(f->min) && twolength_resolved(before->min)
			   ? f->median - before->median
			   : NAN;
	double least = fabs(d) >= 10 ? 0.005 : 0.00005;

	if (isnan(d))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, fabs(d) >= 10 ? "%+.2f" : "%+.4f", fabs(d) < least ? 0.0 : d);
	return buf;
}

static void table_row(FILE *out, const struct doc *d, const struct count_row *row)
{
	char a[96], b[32], c[96], e[32];
	const struct counts_rec *r = row->r, *before = row->before;
	int ins = (d->options.count & COUNT_INSTRUCTIONS) != 0, sys = (d->options.count & COUNT_SYSCALLS) != 0;

	char line[512];
	size_t n;

	snprintf(line, sizeof(line), "%-6s %-12s %-30s %9s  %-27s %9s%s", row->mode, row->what,
		 column(a, sizeof(a), ins, r->has_instructions, &r->instructions),
		 before ? step_change(b, sizeof(b), r->has_instructions, &r->instructions, before->has_instructions,
				      &before->instructions)
			: "",
		 column(c, sizeof(c), sys, r->has_syscalls, &r->syscalls),
		 before ? step_change(e, sizeof(e), r->has_syscalls, &r->syscalls, before->has_syscalls,
				      &before->syscalls)
			: "",
		 row->floor	? "  (per call)"
		 : row->minimal ? "  (its change: from bare)"
				: "");
	for (n = strlen(line); n > 0 && line[n - 1] == ' '; n--)
		;
	fprintf(out, "%.*s\n", (int)n, line);
}

static const struct counts_rec *counted(const struct cell_rec *c)
{
	return c && c->has_counts ? &c->counts : NULL;
}

static size_t add_row(struct count_row *rows, size_t n, size_t max, struct count_row row)
{
	if (n < max)
		rows[n] = row;
	return n + 1;
}

/* An anatomy's rows: per mode its steps in order, the minimal driver after
 * bare; then the floors. */
static size_t anatomy_rows(const struct doc *d, struct count_row *rows, size_t max)
{
	static const enum work steps[] = { WORK_BARE, WORK_EVENT, WORK_NOOP, WORK_U64, WORK_STR };
	static const char *const modes[] = { "sync", "async" };
	size_t n = 0;

	for (int m = 0; m < 2; m++) {
		const struct counts_rec *before = NULL, *r;
		for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
			if ((r = counted(doc_find_work(d, "archive", modes[m], "extract", steps[k], 0))) == NULL)
				continue;
			n = add_row(rows, n, max,
				    (struct count_row){
					    .mode = modes[m], .what = work_name(steps[k]), .r = r, .before = before });
			before = r;
			if (steps[k] == WORK_BARE &&
			    (r = counted(doc_find_work(d, "archive", modes[m], "extract", WORK_BARE, 1))) != NULL)
				n = add_row(rows, n, max,
					    (struct count_row){ .mode = modes[m],
								.what = "minimal",
								.r = r,
								.before = before,
								.minimal = 1 });
		}
	}
	for (int k = 0; d->has_floor_counts && k < FLOOR_COUNTED; k++)
		n = add_row(rows, n, max,
			    (struct count_row){ .mode = "floor",
						.what = k == FLOOR_C_CALL ? "C call" : "raw C->Go",
						.r = &d->floor_counts[k],
						.floor = 1 });
	return n;
}

size_t report_count_rows(const struct doc *d, struct count_row *rows, size_t max)
{
	size_t n = 0;

	if (d->options.kind == RUN_ANATOMY)
		return anatomy_rows(d, rows, max);
	for (size_t i = 0; i < d->ncells; i++) {
		const struct cell_rec *c = &d->cells[i];
		if (c->has_counts)
			n = add_row(rows, n, max,
				    (struct count_row){ .mode = c->requested,
							.what = strcmp(c->lib, "loaded") == 0 ? "C plugin" : c->lib,
							.r = &c->counts });
	}
	return n;
}

void report_counts_table_text(FILE *out, const struct doc *d)
{
	struct count_row rows[COUNT_ROWS_MAX];
	size_t n = report_count_rows(d, rows, COUNT_ROWS_MAX);
	const char *why = NULL;
	int anatomy = d->options.kind == RUN_ANATOMY;

	if (n > COUNT_ROWS_MAX)
		n = COUNT_ROWS_MAX;
	for (size_t i = 0; i < n; i++)
		if (rows[i].r->instructions_not_counted[0] && why == NULL)
			why = rows[i].r->instructions_not_counted;
	if (n == 0 || rows[0].floor)
		return;
	fprintf(out,
		"counts per extraction%s, no clock: -n %llu less -n %llu (the same warm-up) over the extractions "
		"more, median [min .. max] of %u pairs%s:\n",
		anatomy ? " (a floor: per call)" : "", (unsigned long long)rows[0].r->n_long,
		(unsigned long long)rows[0].r->n_short, rows[0].r->pairs,
		anatomy ? "; change: from the step before" : "");
	if (anatomy)
		fprintf(out, "%-6s %-12s %-30s %9s  %-27s %9s\n", "mode", "step", "instructions", "change",
			"system calls", "change");
	else
		fprintf(out, "%-6s %-12s %-30s %9s  %s\n", "mode", "cell", "instructions", "", "system calls");
	int unresolved = 0;
	for (size_t i = 0; i < n; i++) {
		table_row(out, d, &rows[i]);
		unresolved |= (d->options.count & COUNT_INSTRUCTIONS && rows[i].r->has_instructions &&
			       !twolength_resolved(rows[i].r->instructions.min)) ||
			      (d->options.count & COUNT_SYSCALLS && rows[i].r->has_syscalls &&
			       !twolength_resolved(rows[i].r->syscalls.min));
	}
	if (unresolved)
		unresolved_note(out, "  ", rows[0].r, "extraction");
	if (why)
		fprintf(out, "  instructions of the async cells: not counted, by design (%s)\n", why);
	if (anatomy && d->has_floor_counts)
		fprintf(out,
			"  the floors: this build running only that floor's loop on one thread, nothing else measured; "
			"the C call's at -n %llu and %llu, a longer loop for a call of a few instructions\n",
			(unsigned long long)d->floor_counts[FLOOR_C_CALL].n_short,
			(unsigned long long)d->floor_counts[FLOOR_C_CALL].n_long);
}
