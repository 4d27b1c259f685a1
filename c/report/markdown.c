/* report/markdown.c — see markdown.h: the report's order, its decisions,
 * and the machine and command lines. */
#include "report/markdown.h"

#include <math.h>
#include <string.h>

#include "report/format.h"
#include "report/mdtext.h"

/* The document's interval level in percent ("95"). */
static double level_pct(const struct doc *d)
{
	return 100.0 * doc_ci_level(d);
}

static void decision_row(FILE *out, const struct decision_rec *r)
{
	char e[32];

	fputs("| ", out);
	md_text(out, r->question);
	fputs(" | ", out);
	if (!r->measured) {
		fputs("not measured | - | measure it: ", out);
		md_code(out, r->command);
		fputs(" |\n", out);
		return;
	}
	fputs("**", out);
	md_text(out, r->answer);
	fputs("** | ", out);
	if (r->figure[0]) {
		md_code(out, r->figure);
		fputs(": ", out);
	} else if (!isfinite(r->estimate)) {
		fprintf(out, "- | ");
		md_text(out, r->flips_when);
		fputs(" |\n", out);
		return;
	}
	fputs(fmt_num(e, sizeof(e), r->estimate, "%.3f"), out);
	if (isfinite(r->low) && isfinite(r->high))
		fprintf(out, " [%.3f, %.3f]", r->low, r->high);
	else
		fputs(" (no interval)", out);
	fputs(" | ", out);
	md_text(out, r->flips_when);
	fputs(" |\n", out);
}

static void decisions(FILE *out, const struct doc *d)
{
	fputs("## Decisions\n\n", out);
	if (d->ndecisions == 0) {
		fputs("This document records no decisions (it was written before they existed, or by a child launch).\n\n",
		      out);
		return;
	}
	fprintf(out, "| Question | Answer | Figure: ratio [%.0f%% interval] | Flips when, or how to measure it |\n",
		level_pct(d));
	fputs("|---|---|---|---|\n", out);
	for (size_t i = 0; i < d->ndecisions; i++)
		decision_row(out, &d->decisions[i]);
	fputs("\nA ratio is the first configuration's time over the second's (lower is faster); an interval that holds 1"
	      " (an allocator's change within the threshold) answers \"no difference measured\".\n\n",
	      out);
}

static void machine(FILE *out, const struct doc *d)
{
	const struct machine_rec *m = &d->machine;
	const struct cell_rec *c = d->ncells ? &d->cells[0] : NULL;

	fprintf(out, "**Machine:** %s, %d online CPUs (%d allowed), Linux %s %s", m->cpu_model, m->online_cpus,
		m->allowed_cpus, m->kernel, m->arch);
	if (c && c->go_version[0] && strcmp(c->go_version, "none") != 0)
		fprintf(out, "; %s, plugin-sdk-go %s", c->go_version, c->sdk_version);
	fputs("\n\n", out);
	if (d->command == NULL) {
		fputs("**Command:** not recorded.\n\n", out);
		return;
	}
	fputs("**Command:**\n\n", out);
	md_command_block(out, d->command, d->ncommand);
	fputc('\n', out);
}

int report_markdown(FILE *out, const struct doc *d)
{
	decisions(out, d);
	machine(out, d);
	report_markdown_cells(out, d);
	report_markdown_ratios(out, d);
	report_markdown_verdicts(out, d);
	return ferror(out) ? -1 : 0;
}
