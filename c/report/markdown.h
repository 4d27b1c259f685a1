/* report/markdown.h — the GitHub-flavoured markdown report (a job summary,
 * a pull request comment): the decisions first, as a table; the machine
 * and the command; then the cells, the ratios and the verdicts against a
 * base, each a table. Every table cell escapes '|' and holds no line
 * break, so the tables render as tables; UTF-8 (µ) where the text report
 * uses it. */
#ifndef CGOCOST_REPORT_MARKDOWN_H
#define CGOCOST_REPORT_MARKDOWN_H

#include <stdio.h>

#include "model/model.h"

/* The whole report of d. 0, or -1 when out writes failed. */
int report_markdown(FILE *out, const struct doc *d);

/* The parts, in the report's order (markdown_tables.c): the cells, the
 * ratios (a paired run's estimates when paired), and the comparison with
 * its overall verdict (nothing without one). */
void report_markdown_cells(FILE *out, const struct doc *d);
void report_markdown_ratios(FILE *out, const struct doc *d);
void report_markdown_verdicts(FILE *out, const struct doc *d);
/* --count: the counted cells (an anatomy's steps and floors), after the
 * cells (markdown_counts.c); nothing when none was counted. */
void report_markdown_counts(FILE *out, const struct doc *d);

#endif
