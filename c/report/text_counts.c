/* report/text_counts.c — the counts: block of a counted cell (--count):
 * each count per extraction with the range of its pairs, after the times. */
#include <math.h>
#include <string.h>

#include "report/format.h"
#include "report/text.h"
#include "stats/twolength.h"

/* "1077.31 [1076.92 .. 1077.80]": two decimals from 10 up, four below. */
static const char *fig(char *buf, size_t len, const struct count_fig *f)
{
	const char *fmt = fabs(f->median) >= 10 ? "%.2f [%.2f .. %.2f]" : "%.4f [%.4f .. %.4f]";
	double least = fabs(f->median) >= 10 ? 0.005 : 0.00005, v[3] = { f->median, f->min, f->max };

	/* what rounds to zero is printed as 0, not -0 */
	for (int i = 0; i < 3; i++)
		if (fabs(v[i]) < least)
			v[i] = 0;
	snprintf(buf, len, fmt, v[0], v[1], v[2]);
	return buf;
}

/* A system call named below this many per extraction is left out of the
 * text (it is in the JSON): less than one call a thousand extractions is
 * what the runs' own differences leave. */
#define COUNT_TEXT_LEAST 0.001

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
