/* main.c — the bench driver: parse, measure, verify, report.
 * Exit status: 0 success, 2 bad input, 3 a failed run (1 is kept for a
 * detected performance regression). */
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extractor.h"
#include "floors.h"
#include "options.h"
#include "plugin.h"
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

int main(int argc, char **argv)
{
	struct plugin_info pi;
	struct options o;
	struct machine m;
	struct floors f;
	struct run r;
	struct extractor *xs;
	struct plugin_config pc;
	char err[512];
	int have_floors = 0, status = EXIT_OK;

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

	/* floors first, before any plugin instance exists: no async worker runs */
	if (o.floors) {
		int a, b;
		handoff_cpus(&o, &m, &a, &b);
		if (floors_measure(&f, o.n, o.runs, o.warmup, o.ncpus ? o.cpus[0] : -1, a, b, err,
				   sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return EXIT_RUN_FAILED;
		}
		have_floors = 1;
	}

	xs = calloc(o.plugins, sizeof(*xs));
	if (xs == NULL) {
		fprintf(stderr, "%s: out of memory for %u plugins\n", prog, o.plugins);
		return EXIT_RUN_FAILED;
	}
	pc = (struct plugin_config){
		.async = o.async, .work = o.work, .extra_ns = o.extra_ns, .raw = o.plugin_config};
	/* one at a time: the SDK does not allow concurrent plugin_init */
	for (uint32_t i = 0; i < o.plugins; i++)
		if (extractor_open(&xs[i], &pc, o.fields, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: plugin %u: %s\n", prog, i + 1, err);
			while (i-- > 0)
				extractor_close(&xs[i]);
			free(xs);
			return EXIT_RUN_FAILED;
		}
	if (run_extraction(&o, xs, &r, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		status = EXIT_RUN_FAILED;
	}
	for (uint32_t i = 0; i < o.plugins; i++)
		extractor_close(&xs[i]);
	free(xs);
	if (status != EXIT_OK)
		goto out;

	for (uint32_t i = 0; i < r.nplugins; i++)
		if (r.plugins[i].failed) {
			fprintf(stderr, "%s: %s\n", prog, r.plugins[i].error);
			status = EXIT_RUN_FAILED;
		}
	for (uint32_t i = 0; status == EXIT_OK && i < r.nplugins; i++)
		if (!o.async && r.plugins[i].async_in_effect) {
			fprintf(stderr,
				"%s: plugin %u: sync was requested but Extract ran on thread %llu, not the caller's %d: the SDK's async mode is on; refusing to report\n",
				prog, i + 1, (unsigned long long)r.plugins[i].after.tid,
				(int)r.plugins[i].caller_tid);
			status = EXIT_RUN_FAILED;
		}
	if (status == EXIT_OK) {
		struct report rep = {
			.o = &o,
			.m = &m,
			.pi = &pi,
			.r = &r,
			.f = have_floors ? &f : NULL,
			.async_workers = async_workers((int)r.plugins[0].before.gomaxprocs, o.plugins),
		};
		report_text(stdout, &rep);
		fflush(stdout);
		report_warnings(stderr, &rep);
	}
	run_free(&r);
out:
	if (have_floors)
		floors_free(&f);
	return status;
}
