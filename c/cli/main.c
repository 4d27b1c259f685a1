/* cli/main.c — the cli layer: the bench driver, composed of the layers
 * below it and reading as the pipeline it runs:
 * parse -> resolve the run kind -> measure (here, or in child launches) ->
 * analyse -> compare -> save -> report -> export. What differs between kinds of run
 * is a row of cli/kinds.c, chosen once. Exit statuses: base/status.h. */
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/judge.h"
#include "base/interrupt.h"
#include "base/status.h"
#include "cli/cli.h"
#include "cli/exports.h"
#include "report/json.h"
#include "report/output.h"
#include "report/text.h"
#include "store/baseline.h"

/* Whether stdout was closed when the process started, looked at before any
 * other initializer (the Go runtime's among them) can open a file that
 * would take its number; the number is then held by /dev/null, so that no
 * file opened later receives the report. */
static int stdout_closed;

__attribute__((constructor(101))) static void note_stdout(void)
{
	if (output_open(1) != 0) {
		stdout_closed = 1;
		if (open("/dev/null", O_WRONLY | O_CLOEXEC) != 1)
			stdout_closed = 2; /* fd 1 taken meanwhile: refuse anyway */
	}
}

/* The report is composed in memory and written to stdout in one piece, so
 * that a failed write is seen with its reason (output_close says it). */
static void report(const struct options *o, const struct run_row *row, const struct doc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (mem == NULL) {
		run_report(stdout, o, row, d);
	} else {
		run_report(mem, o, row, d);
		if (fclose(mem) == 0)
			output_write(stdout, text, len);
		free(text);
	}
	output_flush(stdout);
	report_warnings(stderr, d, o->verbose);
}

/* The end of every run that wrote to stdout: what was written must have
 * arrived, or the run failed. */
static int finish(int status, const char *what)
{
	char err[256];

	if (output_close(stdout, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: cannot write %s to stdout: %s: it is lost\n", prog, what, err);
		return EXIT_RUN_FAILED;
	}
	return status;
}

/* A comparison that compared nothing: bad input, though found late. */
static int compared_nothing(const struct options *o, const struct doc *d)
{
	if (!d->has_comparison || d->comparison.nchanges > 0)
		return 0;
	if (o->base == BASE_BUILD)
		fprintf(stderr, "%s: --against: %s: none of its cells is one of this build's: nothing was compared\n",
			prog, o->against);
	else
		fprintf(stderr,
			"%s: --baseline: %s: none of its cells or ratios is one of this run's: nothing was compared\n",
			prog, o->baseline);
	return 1;
}

/* The report, then the exports made from the same document (--export):
 * 0, or -1 when an export failed (said). */
static int report_and_export(const struct options *o, const struct run_row *row, const struct doc *d)
{
	report(o, row, d);
	if (o->nexports == 0)
		return 0;
	interrupt_doing("the exports, after the report");
	return exports_write(o, d);
}

/* A failed export is lost data: a run that would have ended 0 or 1 (a
 * regression found, its evidence not all written) ends 3. */
static int export_status(int status, int exported)
{
	return !exported && (status == EXIT_OK || status == EXIT_REGRESSION || status == EXIT_INCONCLUSIVE)
		       ? EXIT_RUN_FAILED
		       : status;
}

/* save, then report and export: a failed save keeps the report (the
 * measurement is not thrown away); the status says what became of all. */
static int save_and_report(const struct options *o, const struct run_row *row, struct doc *d)
{
	char err[1024];
	int saved = 0, exported, nothing = compared_nothing(o, d);

	/* a comparison of nothing has no verdict to print: its line would
	 * name a status (0) this run does not return */
	if (nothing)
		d->has_comparison = 0;
	if (o->save_baseline) {
		interrupt_doing("the save of the baseline, after the measurement");
		if (baseline_save(o->save_baseline, d, err, sizeof(err)) != 0)
			fprintf(stderr, "%s: --save-baseline: %s\n", prog, err);
		else
			saved = 1;
	}
	interrupt_doing(saved ? "the report, after the baseline was saved" : "the report, after the measurement");
	exported = report_and_export(o, row, d) == 0;
	if (saved)
		fprintf(stderr, "%s: saved the run to %s\n", prog, o->save_baseline);
	if (nothing)
		return EXIT_BAD_INPUT;
	if (o->save_baseline && !saved)
		return EXIT_RUN_FAILED;
	/* regressed 1; a verdict that could not tell 4 (0 with --inconclusive
	 * pass): never "no regression" without the evidence */
	return export_status(d->has_comparison ? comparison_status(&d->comparison) : EXIT_OK, exported);
}

/* A child launch (--emit-launch) tells its parent bad input apart from the
 * Go runtime's own exit status 2. */
static int exit_status(int argc, char **argv, int status)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--emit-launch") == 0)
			return status == EXIT_BAD_INPUT ? EXIT_CHILD_BAD_INPUT : status;
	return status;
}

/* measure -> analyse -> compare -> save -> report -> export, as the row says. */
static int pipeline(const struct options *o, const struct run_row *row, const struct machine *m, struct doc *d,
		    struct doc *base)
{
	int status, counted = EXIT_OK;

	interrupt_doing(o->method == METHOD_HERE ? "the measurement" : "the start of the measurement");
	status = run_measure(o, m, d, base);
	/* the counting gate's counts are its measurement */
	if (status == EXIT_OK && o->count && o->method != METHOD_COUNTED)
		counted = run_count(o, d);
	switch (row->output) {
	case OUTPUT_AS_IS:
		if (d->has_repeat)
			status = export_status(status, report_and_export(o, row, d) == 0);
		return finish(status, "the report");
	case OUTPUT_DOCUMENT:
		if (status != EXIT_OK)
			return status;
		status = report_json(stdout, d, 1) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
		return finish(status, "the launch's document");
	case OUTPUT_REPORT:
		break;
	}
	interrupt_doing("the analysis, after the measurement");
	if (status == EXIT_OK)
		status = run_analyse(o, row, d, base);
	if (status != EXIT_OK)
		return status;
	status = save_and_report(o, row, d);
	return finish(status == EXIT_OK ? counted : status, "the report");
}

static int run(int argc, char **argv)
{
	struct options o;
	struct machine m;
	struct doc d, base;
	const struct run_row *row;
	int status;

	memset(&d, 0, sizeof(d));
	memset(&base, 0, sizeof(base));
	if (argc > 0 && argv[0])
		prog = basename(argv[0]);
	/* a file-size limit (ulimit -f) must fail a write with EFBIG, said and
	 * cleaned up, not kill the process halfway through a save */
	signal(SIGXFSZ, SIG_IGN);
	if (stdout_closed || output_open(1) != 0) {
		fprintf(stderr, "%s: stdout is closed: nothing could be reported\n", prog);
		return EXIT_RUN_FAILED;
	}
	status = setup(argc, argv, &o, &m, &base);
	if (status < 0)
		return finish(EXIT_OK, "the help");
	if (status != EXIT_OK)
		return status;
	if (!run_kind_is_child(o.kind))
		interrupt_install(prog);
	if (o.kind == RUN_JUDGE)
		return finish(
			judge_files(o.judge[0], o.judge[1], o.threshold, o.seed, o.inconclusive_pass, stdout, prog),
			"the verdict");
	if (o.kind == RUN_TOPOLOGY)
		return finish(run_topology(&o, &m), "the topology");
	if (o.kind == RUN_FIT)
		return finish(run_fit(&o), "the fit");
	if ((row = run_row(&o)) == NULL) {
		fprintf(stderr, "%s: no run of kind %s\n", prog, run_kind_name(o.kind));
		status = EXIT_RUN_FAILED;
	} else {
		status = pipeline(&o, row, &m, &d, &base);
	}
	doc_free(&d);
	doc_free(&base);
	return status;
}

int main(int argc, char **argv)
{
	return exit_status(argc, argv, run(argc, argv));
}
