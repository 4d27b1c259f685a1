/* report/text_answers.c — the answers block that opens a console report
 * comparing cells: a line per decision the run measured, in the words the
 * markdown and HTML exports use (the document's decision records, filled
 * once by analyse/decisions.c), then the verdict against a base. */
#include <math.h>
#include <string.h>

#include "report/text.h"

static void decision_line(FILE *out, const struct decision_rec *r)
{
	fprintf(out, "  %s %s", r->question, r->answer);
	if (r->figure[0]) {
		fprintf(out, ": %s %.3f", r->figure, r->estimate);
		if (isfinite(r->low) && isfinite(r->high))
			fprintf(out, " [%.3f, %.3f]", r->low, r->high);
		else
			fputs(" (no interval)", out);
	}
	fprintf(out, "; flips when: %s\n", r->flips_when);
}

size_t report_answers_text(FILE *out, const struct doc *d)
{
	size_t lines = 0;

	fputs("answers (what this run decides; the tables follow):\n", out);
	for (size_t i = 0; i < d->ndecisions; i++)
		if (d->decisions[i].measured) {
			decision_line(out, &d->decisions[i]);
			lines++;
		}
	if (d->has_comparison) {
		char said[MODEL_TEXT_MAX + MODEL_NAME_MAX + 256];
		const struct comparison_rec *c = &d->comparison;
		fprintf(out, "  Slower than %s? %s (exit status %d%s)\n", c->against,
			comparison_sentence(c, said, sizeof(said)), comparison_status(c),
			c->inconclusive && c->inconclusive_pass ? ", --inconclusive pass" : "");
		lines++;
	}
	if (lines == 0)
		fputs("  none of the six decisions: this run measures none of their figures (bench --compare measures "
		      "async, link and language; the markdown export names a command for each)\n",
		      out);
	fputc('\n', out);
	return lines;
}
