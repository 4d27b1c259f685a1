/* cli/main.c — the cli layer: the bench driver, composed of the layers
 * below it and reading as the pipeline it runs:
 * parse -> measure (here, or in child launches) -> analyse -> compare ->
 * save -> report. Exit statuses: base/status.h. */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/analysis.h"
#include "analyse/judge.h"
#include "analyse/verdict.h"
#include "base/status.h"
#include "measure/allocs.h"
#include "measure/measure.h"
#include "measure/plan.h"
#include "measure/plugin.h"
#include "measure/record.h"
#include "measure/sweep.h"
#include "measure/sysinfo.h"
#include "model/options.h"
#include "report/gobench.h"
#include "report/json.h"
#include "report/text.h"
#include "store/baseline.h"

static const char *prog = "bench";

/* parse: the options, and what they need of the process before anything
 * is measured (the allocator preloads, the CPUs, the baseline). */
static int parse(int argc, char **argv, struct options *o, struct plugin_info *pi, struct machine *m, struct doc *base)
{
	char err[1024], path[PATH_MAX];
	const char *in_effect;
	int rc;

	if (plugin_info_read(pi) != 0) {
		fprintf(stderr, "%s: cannot tell which plugin library is linked\n", prog);
		return EXIT_RUN_FAILED;
	}
	switch (options_parse(o, argc, argv, (uint32_t)pi->max_handle, err, sizeof(err))) {
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
	if (o->malloc_name || o->count_allocs || getenv("CGOCOST_PRELOADED")) {
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
	}
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
	/* a bad baseline is bad input, found before anything runs */
	if (o->baseline && baseline_load(o->baseline, base, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --baseline: %s\n", prog, err);
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

static int in_process(const struct options *o)
{
	return o->emit_launch || (o->launches == 1 && !o->compare && !o->against && !o->nsweep);
}

/* measure: in this process, or launch by launch in children, interleaved.
 * With --against, the other build's cells become the base. */
static int measure(const struct options *o, const struct machine *m, const struct plugin_info *pi, struct doc *d,
		   struct doc *base)
{
	char err[4096];
	struct machine_rec mr;
	struct plan plan;
	int status;

	if (in_process(o)) {
		status = measure_here(o, m, pi, d, err, sizeof(err));
		if (status != EXIT_OK)
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
	status = plan_run(&plan, o, err, sizeof(err));
	record_machine(&mr, m);
	if (status == EXIT_OK && (plan_document(&plan, 0, plan.nself, &mr, o, d) != 0 ||
				  (o->against && plan_document(&plan, plan.nself, plan.nv, &mr, o, base) != 0))) {
		snprintf(err, sizeof(err), "out of memory");
		status = EXIT_RUN_FAILED;
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
	    (o->against && analyse_document(base, err, sizeof(err)) != 0)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return EXIT_RUN_FAILED;
	}
	if (o->nallocators)
		compare_allocators(d, o->threshold, o->seed);
	if ((o->against || o->baseline) && compare_documents(base, d, o->against ? o->against : o->baseline,
							     o->against != NULL, o->threshold, o->seed) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

static void report(const struct options *o, const struct doc *d)
{
	switch (o->format) {
	case FORMAT_JSON:
		report_json(stdout, d, 0);
		break;
	case FORMAT_GOBENCH:
		report_gobench(stdout, d);
		break;
	case FORMAT_TEXT:
		if (in_process(o)) {
			for (size_t i = 0; i < d->ncells; i++)
				report_run_text(stdout, d, &d->cells[i]);
			for (size_t i = 0; i < d->ncells; i++)
				report_cell_summary(stdout, d, &d->cells[i], 1);
			report_ratios_text(stdout, d);
			report_gap_policy_text(stdout, d);
		} else if (o->nsweep) {
			report_sweep_text(stdout, d);
		} else if (o->compare) {
			report_compare_text(stdout, d);
		} else if (o->anatomy) {
			report_anatomy_text(stdout, d);
		} else if (o->nallocators) {
			report_allocators_text(stdout, d);
		} else {
			report_launches_text(stdout, d);
		}
		report_comparison_text(stdout, d);
		break;
	}
	fflush(stdout);
	report_warnings(stderr, d);
}

int main(int argc, char **argv)
{
	struct plugin_info pi;
	struct options o;
	struct machine m;
	struct doc d, base;
	char err[1024];
	int status;

	memset(&d, 0, sizeof(d));
	memset(&base, 0, sizeof(base));
	if (argc > 0 && argv[0])
		prog = basename(argv[0]);
	status = parse(argc, argv, &o, &pi, &m, &base);
	if (status != EXIT_OK)
		return status < 0 ? EXIT_OK : status;
	if (o.judge[0])
		return judge_files(o.judge[0], o.judge[1], o.threshold, o.seed, stdout, prog);
	status = measure(&o, &m, &pi, &d, &base);
	if (status == EXIT_OK && o.emit_launch) {
		status = report_json(stdout, &d, 1) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
		goto out;
	}
	if (status == EXIT_OK)
		status = analyse(&o, &d, &base);
	if (status != EXIT_OK)
		goto out;
	if (o.save_baseline && baseline_save(o.save_baseline, &d, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --save-baseline: %s\n", prog, err);
		status = EXIT_RUN_FAILED;
		goto out;
	}
	report(&o, &d);
	if (o.save_baseline)
		fprintf(stderr, "%s: saved the run to %s\n", prog, o.save_baseline);
	status = d.has_comparison && d.comparison.regressed ? EXIT_REGRESSION : EXIT_OK;
out:
	doc_free(&d);
	doc_free(&base);
	return status;
}
