/* cli/kinds.c — one row per run kind (see cli.h), and the three steps that
 * read them: measure (by the run's method), analyse, report. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyse/analysis.h"
#include "analyse/decisions.h"
#include "analyse/paired.h"
#include "analyse/verdict.h"
#include "base/selfpath.h"
#include "base/status.h"
#include "cli/cli.h"
#include "orchestrate/countgate.h"
#include "orchestrate/pairs.h"
#include "orchestrate/plan.h"
#include "orchestrate/repeat.h"
#include "orchestrate/sweep.h"
#include "report/gobench.h"
#include "report/json.h"
#include "report/markdown.h"
#include "report/text.h"
#include "timing/measure.h"
#include "timing/record.h"

static void allocators_changes(const struct options *o, struct doc *d)
{
	compare_allocators(d, o->threshold, o->seed);
}

static const struct run_row rows[RUN_KINDS] = {
	[RUN_CHILD] = { RUN_CHILD, OUTPUT_DOCUMENT, NULL, NULL, NULL },
	[RUN_SERVE_BLOCKS] = { RUN_SERVE_BLOCKS, OUTPUT_DOCUMENT, NULL, NULL, NULL },
	[RUN_REPEAT_LOAD] = { RUN_REPEAT_LOAD, OUTPUT_AS_IS, NULL, report_repeat_text, NULL },
	[RUN_SWEEP] = { RUN_SWEEP, OUTPUT_REPORT, NULL, report_sweep_text, NULL },
	[RUN_SINGLE] = { RUN_SINGLE, OUTPUT_REPORT, NULL, report_single_text, NULL },
	[RUN_LAUNCHES] = { RUN_LAUNCHES, OUTPUT_REPORT, NULL, report_launches_text, report_paired_text },
	[RUN_COMPARE] = { RUN_COMPARE, OUTPUT_REPORT, NULL, report_compare_text, report_paired_text },
	[RUN_ANATOMY] = { RUN_ANATOMY, OUTPUT_REPORT, NULL, report_anatomy_text, NULL },
	[RUN_ALLOCATORS] = { RUN_ALLOCATORS, OUTPUT_REPORT, allocators_changes, report_allocators_text, NULL },
	[RUN_INTERFERENCE] = { RUN_INTERFERENCE, OUTPUT_REPORT, NULL, report_interference_text, NULL },
	[RUN_PER_EVENT] = { RUN_PER_EVENT, OUTPUT_REPORT, NULL, report_launches_text, report_per_event_paired_text },
	[RUN_PLUGIN_COMPARE] = { RUN_PLUGIN_COMPARE, OUTPUT_REPORT, NULL, report_plugin_compare_text,
				 report_plugin_compare_text },
};

const struct run_row *run_row(const struct options *o)
{
	if (o->kind <= RUN_UNRESOLVED || o->kind >= RUN_KINDS || rows[o->kind].kind != o->kind)
		return NULL;
	return &rows[o->kind];
}

static int measure_in_process(const struct options *o, const struct machine *m, struct doc *d)
{
	char err[4096];
	int status = measure_here(o, m, d, err, sizeof(err));

	if (status == EXIT_BAD_INPUT && !run_kind_is_child(o->kind)) /* the parent adds the hint */
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
	else if (status != EXIT_OK)
		fprintf(stderr, "%s: %s\n", prog, err);
	return status;
}

static int measure_repeat(const struct options *o, const struct machine *m, struct doc *d)
{
	char err[4096];
	struct machine_rec mr;
	int status;

	record_machine(&mr, m);
	doc_begin(d, &mr, o);
	status = repeat_load_run(o, &d->repeat, err, sizeof(err));
	d->has_repeat = status != EXIT_BAD_INPUT;
	if (status == EXIT_BAD_INPUT)
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
	return status;
}

static int measure_sweep(const struct options *o, const struct machine *m, struct doc *d)
{
	char err[4096];
	struct machine_rec mr;
	int status;

	record_machine(&mr, m);
	status = sweep_run(o, &mr, d, err, sizeof(err));
	if (status != EXIT_OK)
		fprintf(stderr, "%s: %s\n", prog, err);
	return status;
}

/* The cells of a plan in child launches, round by round or in paired
 * blocks; with --against the other build's cells become the base. */
static int measure_plan(const struct options *o, const struct machine *m, struct doc *d, struct doc *base)
{
	char err[4096];
	struct machine_rec mr;
	struct paired_rec pr;
	int status;
	/* on the heap: 24 variants of two paths each are 200 KB, more than a
	 * small stack (ulimit -s 256) holds */
	struct plan *plan = calloc(1, sizeof(*plan));

	if (plan == NULL) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUN_FAILED;
	}
	if (plan_build(plan, o, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
		free(plan);
		return EXIT_BAD_INPUT;
	}
	memset(&pr, 0, sizeof(pr));
	status = o->method == METHOD_PAIRED ? pairs_run(plan, o, &pr, err, sizeof(err))
					    : plan_run(plan, o, err, sizeof(err));
	record_machine(&mr, m);
	if (status == EXIT_OK &&
	    (plan_document(plan, 0, plan->nself, &mr, o, d) != 0 ||
	     (o->base == BASE_BUILD && plan_document(plan, plan->nself, plan->nv, &mr, o, base) != 0))) {
		snprintf(err, sizeof(err), "out of memory");
		status = EXIT_RUN_FAILED;
	}
	/* d owns the paired record from here, whatever the status */
	d->paired = pr;
	d->has_paired = o->method == METHOD_PAIRED;
	if (status == EXIT_BAD_INPUT)
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
	else if (status != EXIT_OK)
		fprintf(stderr, "%s: %s\n", prog, err);
	plan_free(plan);
	free(plan);
	return status;
}

/* The counting gate: this build's cell and the --against build's, counted
 * in turn (orchestrate/countgate.h); nothing timed. */
static int measure_counted(const struct options *o, const struct machine *m, struct doc *d, struct doc *base)
{
	char err[4096], self[PATH_MAX], other[PATH_MAX];
	struct machine_rec mr;
	int status;

	if (self_path(self, sizeof(self)) != 0) {
		fprintf(stderr, "%s: cannot find this executable\n", prog);
		return EXIT_RUN_FAILED;
	}
	if (realpath(o->against, other) == NULL || access(other, X_OK) != 0) {
		fprintf(stderr, "%s: --against: cannot find '%s' (see %s --help)\n", prog, o->against, prog);
		return EXIT_BAD_INPUT;
	}
	record_machine(&mr, m);
	status = count_gate_run(o, self, other, &mr, d, base, err, sizeof(err));
	if (status == EXIT_BAD_INPUT) /* a build refused its arguments */
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
	else if (status != EXIT_OK)
		fprintf(stderr, "%s: %s\n", prog, err);
	return status;
}

int run_measure(const struct options *o, const struct machine *m, struct doc *d, struct doc *base)
{
	switch (o->method) {
	case METHOD_HERE:
		return measure_in_process(o, m, d);
	case METHOD_REPEAT:
		return measure_repeat(o, m, d);
	case METHOD_SWEEP:
		return measure_sweep(o, m, d);
	case METHOD_LAUNCHES:
	case METHOD_PAIRED:
		return measure_plan(o, m, d, base);
	case METHOD_COUNTED:
		return measure_counted(o, m, d, base);
	case METHOD_NONE:
		break;
	}
	fprintf(stderr, "%s: this run measures nothing\n", prog);
	return EXIT_RUN_FAILED;
}

/* The counting gate's analysis: its verdict is on the counts alone (the
 * cells' one launch each, the first counted run, is analysed for the
 * document). */
static int analyse_counted(const struct options *o, struct doc *d, struct doc *base)
{
	char err[512];

	if (analyse_document(d, err, sizeof(err)) != 0 || analyse_document(base, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EXIT_RUN_FAILED;
	}
	if (compare_counts(base, d, o->against, o->threshold, o->seed, COUNT_GATE_MIN_PAIRS) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

/* Every other method's: the timed statistics, the row's own, and the
 * comparison against the other build or the baseline. */
static int analyse_timed(const struct options *o, const struct run_row *row, struct doc *d, struct doc *base)
{
	char err[512];
	int against = o->base == BASE_BUILD;

	if (analyse_document(d, err, sizeof(err)) != 0 || (against && analyse_document(base, err, sizeof(err)) != 0) ||
	    analyse_paired(d, o->threshold, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EXIT_RUN_FAILED;
	}
	if (row->analyse)
		row->analyse(o, d);
	if (against && o->method == METHOD_PAIRED) {
		if (compare_paired(d, o->against_plugin ? o->against_plugin : o->against, o->threshold) != 0) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return EXIT_RUN_FAILED;
		}
	} else if (o->base != BASE_NONE &&
		   compare_documents(base, d,
				     against ? (o->against_plugin ? o->against_plugin : o->against) : o->baseline,
				     against, o->threshold, o->seed) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

int run_analyse(const struct options *o, const struct run_row *row, struct doc *d, struct doc *base)
{
	int status = o->method == METHOD_COUNTED ? analyse_counted(o, d, base) : analyse_timed(o, row, d, base);

	if (status != EXIT_OK)
		return status;
	d->comparison.inconclusive_pass = o->inconclusive_pass;
	/* a report's own: the command as given and what it decides */
	if (doc_set_command(d, o->argc, o->argv) != 0 || decide(d) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

/* A run that compares cells, or judges them against a base, opens its
 * console report with its answers; one cell alone keeps its seed's text. */
static int compares_cells(const struct options *o)
{
	switch (o->kind) {
	case RUN_COMPARE:
	case RUN_ANATOMY:
	case RUN_ALLOCATORS:
	case RUN_INTERFERENCE:
	case RUN_PER_EVENT:
	case RUN_SWEEP:
		return 1;
	default:
		return o->base != BASE_NONE;
	}
}

void run_report(FILE *out, const struct options *o, const struct run_row *row, const struct doc *d)
{
	switch (o->format) {
	case FORMAT_JSON:
		report_json(out, d, 0);
		break;
	case FORMAT_GOBENCH:
		report_gobench(out, d);
		break;
	case FORMAT_MARKDOWN:
		report_markdown(out, d);
		break;
	case FORMAT_TEXT:
		if (compares_cells(o))
			report_answers_text(out, d);
		if (o->method == METHOD_COUNTED)
			report_count_gate_text(out, d);
		else if (o->method == METHOD_PAIRED && row->paired_text)
			row->paired_text(out, d);
		else if (row->text)
			row->text(out, d);
		report_comparison_text(out, d);
		break;
	}
}
