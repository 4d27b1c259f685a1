/* cli/main.c — the cli layer: the bench driver, composed of the layers
 * below it and reading as the pipeline it runs:
 * parse -> measure (here, or in child launches) -> analyse -> compare ->
 * save -> report. Exit statuses: base/status.h. */
#include <dlfcn.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyse/analysis.h"
#include "analyse/expect.h"
#include "analyse/judge.h"
#include "analyse/paired.h"
#include "analyse/verdict.h"
#include "base/atomicfile.h"
#include "base/interrupt.h"
#include "base/status.h"
#include "base/sysinfo.h"
#include "cli/args.h"
#include "cli/usage.h"
#include "model/options.h"
#include "orchestrate/pairs.h"
#include "orchestrate/plan.h"
#include "orchestrate/reexec.h"
#include "orchestrate/repeat.h"
#include "orchestrate/sweep.h"
#include "plugin/library.h"
#include "plugin/symbols.h"
#include "report/gobench.h"
#include "report/json.h"
#include "report/output.h"
#include "report/text.h"
#include "store/baseline.h"
#include "timing/allocs.h"
#include "timing/measure.h"
#include "timing/record.h"

static const char *prog = "bench";

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

/* A plugin library given with --plugin is measured in child launches, even
 * a single one: a crash of a foreign plugin or of several Go runtimes is
 * then a reported result (exit 3), never a crash of cgocost. */
static int in_process(const struct options *o)
{
	return o->emit_launch || (o->launches == 1 && !o->compare && !o->against && o->nlibs == 0 && !o->nsweep);
}

/* One launch of one cell: reported in full, as the seed's run was. */
static int single_launch(const struct options *o)
{
	return o->launches == 1 && !o->compare && !o->against && !o->nallocators && !o->interference && !o->nsweep;
}

/* "archive" or "shared": where the built-in plugin lives, this executable
 * or a library beside it; NULL without one. */
static const char *self_lib(const struct plugin_syms *b, int has_builtin)
{
	Dl_info dl;
	char exe[PATH_MAX], lib[PATH_MAX];

	if (!has_builtin || dladdr((void *)(uintptr_t)b->init, &dl) == 0 || dl.dli_fname == NULL ||
	    realpath("/proc/self/exe", exe) == NULL)
		return NULL;
	if (realpath(dl.dli_fname, lib) == NULL)
		return "archive"; /* the main program can appear under its argv[0] */
	return strcmp(exe, lib) == 0 ? "archive" : "shared";
}

/* The paths the run will use, checked before anything is measured: an
 * --against that can be run, a --save-baseline that can be written. */
static int check_paths(const struct options *o)
{
	char err[PATH_MAX + 256];
	struct stat st;

	if (o->against && (stat(o->against, &st) != 0 || !S_ISREG(st.st_mode) || access(o->against, X_OK) != 0)) {
		fprintf(stderr, "%s: --against: '%s' is not an executable file%s (see %s --help)\n", prog, o->against,
			stat(o->against, &st) != 0 ? " (it does not exist)"
			: S_ISDIR(st.st_mode)	   ? " (a directory)"
						   : "",
			prog);
		return EXIT_BAD_INPUT;
	}
	if (o->save_baseline && atomic_write_check(o->save_baseline, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --save-baseline: %s (see %s --help)\n", prog, err, prog);
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

/* The preloads: this process re-executes itself with them when it measures;
 * a parent of child launches only checks them (each child preloads for
 * itself, so --count-allocs goes with every allocator of --allocators). */
static int preloads(const struct options *o, char **argv)
{
	char err[1024], path[PATH_MAX];
	const char *in_effect;
	int rc = 0;

	if (!in_process(o)) {
		for (int i = 0; rc == 0 && i < o->nallocators; i++)
			rc = preload_check(o->allocators[i], o->count_allocs, err, sizeof(err));
		if (rc == 0)
			rc = preload_check(o->malloc_name, o->count_allocs, err, sizeof(err));
		if (rc != 0) {
			fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
			return EXIT_BAD_INPUT;
		}
		return EXIT_OK;
	}
	if (!(o->malloc_name || o->count_allocs || getenv("CGOCOST_PRELOADED")))
		return EXIT_OK;
	if ((rc = preload_reexec(o->malloc_name, o->count_allocs, argv, err, sizeof(err))) != 0) {
		fprintf(stderr, "%s: %s%s\n", prog, err, rc == 2 ? " (see --help)" : "");
		return rc == 2 ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	}
	/* verified, not assumed: which library serves malloc now */
	allocator_in_effect(path, sizeof(path), &in_effect);
	if (o->malloc_name && strcmp(in_effect, o->malloc_name) != 0) {
		fprintf(stderr,
			"%s: --malloc %s was asked for, but malloc is served by %s (%s): the preload did not take\n",
			prog, o->malloc_name, in_effect, path);
		return EXIT_RUN_FAILED;
	}
	if (o->count_allocs && dlsym(RTLD_DEFAULT, "cgocost_alloc_counts") == NULL) {
		fprintf(stderr, "%s: --count-allocs: the counter library is not in the process\n", prog);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

/* parse: the options, and what they need of the process before anything
 * is measured (the allocator preloads, the CPUs, the baseline). */
static int parse(int argc, char **argv, struct options *o, struct machine *m, struct doc *base)
{
	char err[1024], path[PATH_MAX];
	struct plugin_syms builtin;
	int rc, has_builtin = plugin_syms_builtin(&builtin) == 0;
	/* -p is bounded by the built-in plugin's handle limit; a --plugin
	 * library's own limit is checked when it is loaded */
	uint32_t max_plugins =
		has_builtin && builtin.max_handle ? (uint32_t)builtin.max_handle() : LIB_DEFAULT_MAX_INSTANCES;
	const char *lib;

	switch (options_parse(o, argc, argv, max_plugins, err, sizeof(err))) {
	case PARSE_HELP:
		options_usage(prog, stdout);
		return -1;
	case PARSE_BAD:
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
		return EXIT_BAD_INPUT;
	case PARSE_OK:
		break;
	}
	if (o->judge[0])
		return EXIT_OK;
	if (!has_builtin && o->nlibs == 0) {
		fprintf(stderr,
			"%s: this executable has no built-in plugin: name one with --plugin PATH (see %s --help)\n",
			prog, prog);
		return EXIT_BAD_INPUT;
	}
	if ((rc = check_paths(o)) != EXIT_OK || (rc = preloads(o, argv)) != EXIT_OK)
		return rc;
	if (machine_read(m) != 0) {
		fprintf(stderr, "%s: cannot read this process's CPU affinity\n", prog);
		return EXIT_RUN_FAILED;
	}
	for (int i = 0; i < o->ncpus; i++)
		if (!machine_cpu_allowed(m, o->cpus[i])) {
			fprintf(stderr,
				"%s: --cpus: CPU %d is not available to this process (%d CPUs allowed) (see %s --help)\n",
				prog, o->cpus[i], m->allowed_cpus, prog);
			return EXIT_BAD_INPUT;
		}
	/* a bad baseline is bad input, found before anything runs; so is one
	 * this run could not be compared with */
	if (o->baseline && baseline_load(o->baseline, base, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --baseline: %s (see %s --help)\n", prog, err, prog);
		return EXIT_BAD_INPUT;
	}
	/* with the built-in plugin the run's cells are known now; a --plugin
	 * run's are checked after the measurement (compared_nothing) */
	lib = o->nlibs == 0 ? self_lib(&builtin, has_builtin) : NULL;
	if (o->baseline && lib && !run_meets_baseline(o, lib, base, path, sizeof(path))) {
		fprintf(stderr,
			"%s: --baseline: %s: none of its cells or ratios is one this run measures (such as %s): "
			"nothing would be compared (see %s --help)\n",
			prog, o->baseline, path, prog);
		doc_free(base);
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

/* measure: in this process, or launch by launch in children, interleaved.
 * With --against, the other build's cells become the base. */
static int measure(const struct options *o, const struct machine *m, struct doc *d, struct doc *base)
{
	char err[4096];
	struct machine_rec mr;
	struct plan plan;
	struct paired_rec pr;
	int status;

	if (o->repeat_load) {
		memset(d, 0, sizeof(*d));
		d->schema_version = SCHEMA_VERSION;
		record_machine(&d->machine, m);
		d->options = *o;
		status = repeat_load_run(o, &d->repeat, err, sizeof(err));
		d->has_repeat = status != EXIT_BAD_INPUT;
		if (status == EXIT_BAD_INPUT)
			fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
		return status;
	}
	if (in_process(o)) {
		status = measure_here(o, m, d, err, sizeof(err));
		if (status == EXIT_BAD_INPUT && !o->emit_launch)
			fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
		else if (status == EXIT_BAD_INPUT) /* the parent adds the hint */
			fprintf(stderr, "%s: %s\n", prog, err);
		else if (status != EXIT_OK)
			fprintf(stderr, "%s: %s\n", prog, err);
		return status;
	}
	if (o->nsweep) {
		record_machine(&mr, m);
		status = sweep_run(o, &mr, d, err, sizeof(err));
		if (status != EXIT_OK)
			fprintf(stderr, "%s: %s\n", prog, err);
		return status;
	}
	if (plan_build(&plan, o, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
		return EXIT_BAD_INPUT;
	}
	memset(&pr, 0, sizeof(pr));
	status = o->paired ? pairs_run(&plan, o, &pr, err, sizeof(err)) : plan_run(&plan, o, err, sizeof(err));
	record_machine(&mr, m);
	if (status == EXIT_OK && (plan_document(&plan, 0, plan.nself, &mr, o, d) != 0 ||
				  (o->against && plan_document(&plan, plan.nself, plan.nv, &mr, o, base) != 0))) {
		snprintf(err, sizeof(err), "out of memory");
		status = EXIT_RUN_FAILED;
	}
	/* d owns the paired record from here, whatever the status */
	d->paired = pr;
	d->has_paired = o->paired;
	if (status == EXIT_BAD_INPUT) {
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
		plan_free(&plan);
		return status;
	}
	if (status != EXIT_OK)
		fprintf(stderr, "%s: %s\n", prog, err);
	plan_free(&plan);
	return status;
}

/* analyse and compare: statistics, then the verdicts. */
static int analyse(const struct options *o, struct doc *d, struct doc *base)
{
	char err[512];

	if (analyse_document(d, err, sizeof(err)) != 0 ||
	    (o->against && analyse_document(base, err, sizeof(err)) != 0) ||
	    analyse_paired(d, o->threshold, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EXIT_RUN_FAILED;
	}
	if (o->nallocators)
		compare_allocators(d, o->threshold, o->seed);
	if (o->paired && o->against) {
		if (compare_paired(d, o->against, o->threshold) != 0) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return EXIT_RUN_FAILED;
		}
	} else if ((o->against || o->baseline) && compare_documents(base, d, o->against ? o->against : o->baseline,
								    o->against != NULL, o->threshold, o->seed) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

static void write_report(FILE *out, const struct options *o, const struct doc *d)
{
	switch (o->format) {
	case FORMAT_JSON:
		report_json(out, d, 0);
		break;
	case FORMAT_GOBENCH:
		report_gobench(out, d);
		break;
	case FORMAT_TEXT:
		if (o->repeat_load) {
			report_repeat_text(out, d);
		} else if (single_launch(o)) {
			for (size_t i = 0; i < d->ncells; i++)
				report_run_text(out, d, &d->cells[i]);
			for (size_t i = 0; i < d->ncells; i++)
				report_cell_summary(out, d, &d->cells[i], 1);
			report_ratios_text(out, d);
			report_gap_policy_text(out, d);
		} else if (d->has_paired) {
			report_paired_text(out, d);
		} else if (o->nsweep) {
			report_sweep_text(out, d);
		} else if (o->compare || o->interference) {
			report_compare_text(out, d);
		} else if (o->anatomy) {
			report_anatomy_text(out, d);
		} else if (o->nallocators) {
			report_allocators_text(out, d);
		} else {
			report_launches_text(out, d);
		}
		report_comparison_text(out, d);
		break;
	}
}

/* The report is composed in memory and written to stdout in one piece, so
 * that a failed write is seen with its reason (output_close says it). */
static void report(const struct options *o, const struct doc *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (mem == NULL) {
		write_report(stdout, o, d);
	} else {
		write_report(mem, o, d);
		if (fclose(mem) == 0)
			output_write(stdout, text, len);
		free(text);
	}
	output_flush(stdout);
	report_warnings(stderr, d);
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
	if (o->against)
		fprintf(stderr, "%s: --against: %s: none of its cells is one of this build's: nothing was compared\n",
			prog, o->against);
	else
		fprintf(stderr,
			"%s: --baseline: %s: none of its cells or ratios is one of this run's: nothing was compared\n",
			prog, o->baseline);
	return 1;
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

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
	return exit_status(argc, argv, run(argc, argv));
}

static int run(int argc, char **argv)
{
	struct options o;
	struct machine m;
	struct doc d, base;
	char err[1024];
	int status, saved = 0;

	memset(&d, 0, sizeof(d));
	memset(&base, 0, sizeof(base));
	if (argc > 0 && argv[0])
		prog = basename(argv[0]);
	if (stdout_closed || output_open(1) != 0) {
		fprintf(stderr, "%s: stdout is closed: nothing could be reported\n", prog);
		return EXIT_RUN_FAILED;
	}
	status = parse(argc, argv, &o, &m, &base);
	if (status < 0)
		return finish(EXIT_OK, "the help");
	if (status != EXIT_OK)
		return status;
	if (!o.emit_launch)
		interrupt_install(prog);
	if (o.judge[0])
		return finish(judge_files(o.judge[0], o.judge[1], o.threshold, o.seed, stdout, prog), "the verdict");
	interrupt_doing(in_process(&o) ? "the measurement" : "the start of the measurement");
	status = measure(&o, &m, &d, &base);
	if (o.repeat_load) {
		if (d.has_repeat)
			report(&o, &d);
		status = finish(status, "the report");
		goto out;
	}
	if (status == EXIT_OK && o.emit_launch) {
		status = report_json(stdout, &d, 1) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
		status = finish(status, "the launch's document");
		goto out;
	}
	interrupt_doing("the analysis, after the measurement");
	if (status == EXIT_OK)
		status = analyse(&o, &d, &base);
	if (status != EXIT_OK)
		goto out;
	/* a failed save keeps the report: the measurement is not thrown away */
	if (o.save_baseline) {
		interrupt_doing("the save of the baseline, after the measurement");
		if (baseline_save(o.save_baseline, &d, err, sizeof(err)) != 0)
			fprintf(stderr, "%s: --save-baseline: %s\n", prog, err);
		else
			saved = 1;
	}
	interrupt_doing(saved ? "the report, after the baseline was saved" : "the report, after the measurement");
	report(&o, &d);
	if (saved)
		fprintf(stderr, "%s: saved the run to %s\n", prog, o.save_baseline);
	if (compared_nothing(&o, &d))
		status = EXIT_BAD_INPUT;
	else if (o.save_baseline && !saved)
		status = EXIT_RUN_FAILED;
	else
		status = d.has_comparison && d.comparison.regressed ? EXIT_REGRESSION : EXIT_OK;
	status = finish(status, "the report");
out:
	doc_free(&d);
	doc_free(&base);
	return status;
}
