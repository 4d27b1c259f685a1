/* main.c — the bench driver: parse, measure, analyse, report, compare.
 * Exit status: 0 success (no regression), 1 a detected performance
 * regression, 2 bad input, 3 a failed run. */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocs.h"
#include "analysis.h"
#include "baseline.h"
#include "extractor.h"
#include "floors.h"
#include "jsonutil.h"
#include "judge.h"
#include "launch.h"
#include "options.h"
#include "plan.h"
#include "plugin.h"
#include "pool.h"
#include "report_doc.h"
#include "report_json.h"
#include "report_text.h"
#include "runner.h"
#include "sysinfo.h"

enum { EXIT_OK = 0, EXIT_REGRESSION = 1, EXIT_BAD_INPUT = 2, EXIT_RUN_FAILED = 3 };

static const char *prog = "bench";

static int async_workers(int gomaxprocs, uint32_t plugins)
{
	int w = gomaxprocs > 1 ? (int)ceil(log2((double)gomaxprocs)) : 0;
	return (uint32_t)w > plugins ? (int)plugins : w;
}

/* The two CPUs of the cache-line round trip: the first caller's CPU when
 * pinned, and another CPU this process may use. */
static void handoff_cpus(const struct options *o, const struct machine *m, int *a, int *b)
{
	*a = o->ncpus ? o->cpus[0] : (m->allowed_cpus > 0 ? m->allowed[0] : -1);
	*b = -1;
	for (int i = 0; i < m->allowed_cpus; i++)
		if (m->allowed[i] != *a) {
			*b = m->allowed[i];
			break;
		}
}

/* Checks a finished run: failures, and a sync run that ran async. */
static int run_verified(const struct options *o, const struct run *r)
{
	int status = EXIT_OK;
	for (uint32_t i = 0; i < r->nplugins; i++)
		if (r->plugins[i].failed) {
			fprintf(stderr, "%s: %s\n", prog, r->plugins[i].error);
			status = EXIT_RUN_FAILED;
		}
	for (uint32_t i = 0; status == EXIT_OK && i < r->nplugins; i++)
		if (!o->async && r->plugins[i].async_in_effect) {
			fprintf(stderr,
				"%s: plugin %u: sync was requested but Extract ran on thread %llu, not the caller's %d: the SDK's async mode is on; refusing to report\n",
				prog, i + 1, (unsigned long long)r->plugins[i].after.tid,
				(int)r->plugins[i].caller_tid);
			status = EXIT_RUN_FAILED;
		}
	return status;
}

/* Runs one scenario in this process and appends its cell to cells. */
static int measure_scenario(const struct options *o, enum scenario scen, const struct machine *m,
			    const struct plugin_info *pi, const struct floors *f, FILE *text_out, json_t *cells)
{
	struct run r;
	struct extractor *xs = NULL;
	struct pool pool;
	struct plugin_config pc;
	char err[512], self[4096];
	int status = EXIT_OK, have_pool = 0;

	pc = (struct plugin_config){
		.async = o->async, .work = o->work, .extra_ns = o->extra_ns, .raw = o->plugin_config};
	if (scen == SCEN_EXTRACT) {
		xs = calloc(o->plugins, sizeof(*xs));
		if (xs == NULL) {
			fprintf(stderr, "%s: out of memory for %u plugins\n", prog, o->plugins);
			return EXIT_RUN_FAILED;
		}
		/* one at a time: the SDK does not allow concurrent plugin_init */
		for (uint32_t i = 0; i < o->plugins; i++)
			if (extractor_open(&xs[i], &pc, o->fields, err, sizeof(err)) != 0) {
				fprintf(stderr, "%s: plugin %u: %s\n", prog, i + 1, err);
				while (i-- > 0)
					extractor_close(&xs[i]);
				free(xs);
				return EXIT_RUN_FAILED;
			}
	} else if (scen == SCEN_REUSE) {
		if (pool_open(&pool, (int)o->pool, &pc, o->fields, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: reuse pool: %s\n", prog, err);
			return EXIT_RUN_FAILED;
		}
		have_pool = 1;
	} else {
		/* alloc: an instance must be possible before timing its creation */
		struct extractor probe;
		if (extractor_open(&probe, &pc, o->fields, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return EXIT_RUN_FAILED;
		}
		extractor_close(&probe);
	}
	if (run_scenario(o, scen, xs, have_pool ? &pool : NULL, &pc, &r, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		status = EXIT_RUN_FAILED;
	}
	if (xs) {
		for (uint32_t i = 0; i < o->plugins; i++)
			extractor_close(&xs[i]);
		free(xs);
	}
	if (have_pool)
		pool_close(&pool);
	if (status != EXIT_OK)
		return status;
	status = run_verified(o, &r);
	if (status == EXIT_OK) {
		struct report rep = {
			.o = o,
			.m = m,
			.pi = pi,
			.r = &r,
			.f = f,
			.async_workers = async_workers((int)r.plugins[0].before.gomaxprocs, o->plugins),
		};
		json_t *cell;

		if (self_path(self, sizeof(self)) != 0)
			snprintf(self, sizeof(self), "%s", prog);
		cell = cell_record(&rep, self);
		json_object_set_new(cell, "launches", json_pack("[o]", launch_record(&rep)));
		json_array_append_new(cells, cell);
		if (text_out) {
			if (scen == SCEN_EXTRACT)
				report_text(text_out, &rep);
			else
				report_lifecycle_text(text_out, &rep);
			fflush(text_out);
		}
	}
	run_free(&r);
	return status;
}

/* One launch, in this process: floors, then the scenario(s). Prints the
 * detailed text when text_out is set, and returns the document in *doc_out. */
static int measure_here(const struct options *o, const struct machine *m, const struct plugin_info *pi,
			FILE *text_out, json_t **doc_out)
{
	struct floors f;
	char err[512];
	int have_floors = 0, status;
	json_t *cells = json_array();

	*doc_out = NULL;
	/* floors first, before any plugin instance exists: no async worker runs */
	if (o->floors) {
		int a, b;
		handoff_cpus(o, m, &a, &b);
		if (floors_measure(&f, o->n, o->runs, o->warmup, o->ncpus ? o->cpus[0] : -1, a, b, err,
				   sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			json_decref(cells);
			return EXIT_RUN_FAILED;
		}
		have_floors = 1;
	}
	if (o->lifecycle) {
		status = measure_scenario(o, SCEN_ALLOC, m, pi, have_floors ? &f : NULL, text_out, cells);
		if (status == EXIT_OK)
			status = measure_scenario(o, SCEN_REUSE, m, pi, have_floors ? &f : NULL, text_out, cells);
	} else {
		status = measure_scenario(o, SCEN_EXTRACT, m, pi, have_floors ? &f : NULL, text_out, cells);
	}
	if (have_floors)
		floors_free(&f);
	if (status != EXIT_OK) {
		json_decref(cells);
		return status;
	}
	*doc_out = json_pack("{s:i, s:s, s:o, s:o, s:o, s:n}", "schema_version", SCHEMA_VERSION, "generator",
			     "cgocost bench", "machine", machine_record(m), "options", options_record(o),
			     "cells", cells, "comparison");
	return EXIT_OK;
}

static int print_json(FILE *out, const json_t *doc, size_t flags)
{
	char *s = json_dumps(doc, flags | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
	if (s == NULL)
		return -1;
	fputs(s, out);
	fputc('\n', out);
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	struct plugin_info pi;
	struct options o;
	struct machine m;
	struct plan plan;
	char err[1024];
	json_t *doc = NULL, *base = NULL;
	int status, regressed = 0, in_process;

	if (argc > 0 && argv[0])
		prog = basename(argv[0]);
	if (plugin_info_read(&pi) != 0) {
		fprintf(stderr, "%s: cannot tell which plugin library is linked\n", prog);
		return EXIT_RUN_FAILED;
	}
	switch (options_parse(&o, argc, argv, (uint32_t)pi.max_handle, err, sizeof(err))) {
	case PARSE_HELP:
		options_usage(prog, stdout);
		return EXIT_OK;
	case PARSE_BAD:
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
		return EXIT_BAD_INPUT;
	case PARSE_OK:
		break;
	}
	if (o.judge[0])
		return judge_files(o.judge[0], o.judge[1], o.threshold, o.seed, stdout, prog);
	if (o.malloc_name || o.count_allocs || getenv("CGOCOST_PRELOADED")) {
		int rc = preload_reexec(o.malloc_name, o.count_allocs, argv, err, sizeof(err));
		char path[PATH_MAX];
		const char *in_effect;
		if (rc != 0) {
			fprintf(stderr, "%s: %s%s\n", prog, err, rc == 2 ? " (see --help)" : "");
			return rc == 2 ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
		}
		/* verified, not assumed: which library serves malloc now */
		allocator_in_effect(path, sizeof(path), &in_effect);
		if (o.malloc_name && strcmp(in_effect, o.malloc_name) != 0) {
			fprintf(stderr, "%s: --malloc %s was asked for, but malloc is served by %s (%s): the preload did not take\n",
				prog, o.malloc_name, in_effect, path);
			return EXIT_RUN_FAILED;
		}
		if (o.count_allocs && dlsym(RTLD_DEFAULT, "cgocost_alloc_counts") == NULL) {
			fprintf(stderr, "%s: --count-allocs: the counter library is not in the process\n", prog);
			return EXIT_RUN_FAILED;
		}
	}
	if (machine_read(&m) != 0) {
		fprintf(stderr, "%s: cannot read this process's CPU affinity\n", prog);
		return EXIT_RUN_FAILED;
	}
	for (int i = 0; i < o.ncpus; i++)
		if (!machine_cpu_allowed(&m, o.cpus[i])) {
			fprintf(stderr, "%s: --cpus: CPU %d is not available to this process (%d CPUs allowed) (see %s --help)\n",
				prog, o.cpus[i], m.allowed_cpus, prog);
			return EXIT_BAD_INPUT;
		}
	if (o.against && o.baseline) {
		fprintf(stderr, "%s: --against and --baseline: judge against one base at a time (see %s --help)\n",
			prog, prog);
		return EXIT_BAD_INPUT;
	}
	/* a bad baseline is bad input, found before anything runs */
	if (o.baseline && (base = baseline_load(o.baseline, err, sizeof(err))) == NULL) {
		fprintf(stderr, "%s: --baseline: %s\n", prog, err);
		return EXIT_BAD_INPUT;
	}

	in_process = o.emit_launch || (o.launches == 1 && !o.compare && !o.against);
	if (in_process) {
		status = measure_here(&o, &m, &pi, o.format == FORMAT_TEXT && !o.emit_launch ? stdout : NULL, &doc);
		if (status != EXIT_OK)
			goto out;
		if (o.emit_launch) {
			status = print_json(stdout, doc, JSON_COMPACT) == 0 ? EXIT_OK : EXIT_RUN_FAILED;
			goto out;
		}
	} else {
		if (plan_build(&plan, &o, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
			status = EXIT_BAD_INPUT;
			goto out;
		}
		status = plan_run(&plan, &o, err, sizeof(err));
		if (status != EXIT_OK) {
			fprintf(stderr, "%s: %s\n", prog, err);
			plan_free(&plan);
			goto out;
		}
		{
			json_t *mr = machine_record(&m), *or = options_record(&o);
			doc = plan_document(&plan, 0, plan.nself, mr, or);
			if (o.against) {
				json_t *other = plan_document(&plan, plan.nself, plan.nv, mr, or);
				if (analyse_document(other, err, sizeof(err)) != 0) {
					fprintf(stderr, "%s: %s\n", prog, err);
					status = EXIT_RUN_FAILED;
				}
				base = other;
			}
			json_decref(mr);
			json_decref(or);
		}
		plan_free(&plan);
		if (status != EXIT_OK)
			goto out;
	}
	if (analyse_document(doc, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		status = EXIT_RUN_FAILED;
		goto out;
	}
	if (o.nallocators)
		compare_allocators(doc, o.threshold, o.seed);
	if (base) {
		json_object_set_new(doc, "comparison",
				    compare_documents(base, doc, o.against ? o.against : o.baseline,
						      o.against != NULL, o.threshold, o.seed, &regressed));
	}
	if (o.save_baseline && baseline_save(o.save_baseline, doc, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --save-baseline: %s\n", prog, err);
		status = EXIT_RUN_FAILED;
		goto out;
	}
	switch (o.format) {
	case FORMAT_JSON:
		print_json(stdout, doc, JSON_INDENT(1));
		break;
	case FORMAT_GOBENCH:
		report_gobench(stdout, doc);
		break;
	case FORMAT_TEXT:
		if (in_process) {
			size_t k;
			json_t *c;
			json_array_foreach(json_object_get(doc, "cells"), k, c) report_cell_summary(stdout, doc, c, 1);
			report_ratios_text(stdout, doc);
		}
		else if (o.compare)
			report_compare_text(stdout, doc);
		else if (o.nallocators)
			report_allocators_text(stdout, doc);
		else
			report_launches_text(stdout, doc);
		report_comparison_text(stdout, doc);
		break;
	}
	fflush(stdout);
	report_doc_warnings(stderr, doc);
	if (o.save_baseline)
		fprintf(stderr, "%s: saved the run to %s\n", prog, o.save_baseline);
	status = regressed ? EXIT_REGRESSION : EXIT_OK;
out:
	json_decref(doc);
	json_decref(base);
	return status;
}
