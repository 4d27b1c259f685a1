/* cli/setup.c — see cli.h: the command line read, the run kind resolved,
 * and what the run needs of the process checked before anything is
 * measured (bad input is found here, never after a measurement). */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyse/expect.h"
#include "base/atomicfile.h"
#include "base/status.h"
#include "base/topology.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/exports.h"
#include "cli/runkind.h"
#include "cli/usage.h"
#include "orchestrate/count.h"
#include "orchestrate/reexec.h"
#include "plugin/library.h"
#include "plugin/sdkslot.h"
#include "plugin/symbols.h"
#include "store/baseline.h"
#include "timing/allocs.h"

const char *prog = "bench";

/* The largest --events input a pipe may bring (a file is read as it is). */
#define EVENTS_MAX_BYTES ((size_t)1 << 30)

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

/* Why path is no executable file, as the message's parenthesis ("" for a
 * file that is not executable); NULL when it is one. */
static const char *not_executable(const char *path, char *buf, size_t len)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		if (errno == ENOENT)
			return " (it does not exist)";
		snprintf(buf, len, " (%s)", strerror(errno));
		return buf;
	}
	if (S_ISREG(st.st_mode) && access(path, X_OK) == 0)
		return NULL;
	return S_ISDIR(st.st_mode) ? " (a directory)" : "";
}

/* The paths the run will use, checked before anything is measured: an
 * --against that can be run, a --save-baseline and every --export file
 * that can be written, the tool of an html export. (An
 * --events file is refused by its loader, plugin/event.c, at once.) */
static int check_paths(const struct options *o)
{
	char err[PATH_MAX + 256];
	const char *why;

	if (o->base == BASE_BUILD && (why = not_executable(o->against, err, sizeof(err))) != NULL) {
		fprintf(stderr, "%s: --against: '%s' is not an executable file%s (see %s --help)\n", prog, o->against,
			why, prog);
		return EXIT_BAD_INPUT;
	}
	if (o->save_baseline && atomic_write_check(o->save_baseline, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --save-baseline: %s (see %s --help)\n", prog, err, prog);
		return EXIT_BAD_INPUT;
	}
	if (exports_check(o, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
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

	if (o->method != METHOD_HERE) {
		for (int i = 0; rc == 0 && i < o->nallocators; i++)
			rc = preload_check(o->allocators[i], o->count_allocs, o->slot_offset, err, sizeof(err));
		if (rc == 0)
			rc = preload_check(o->malloc_name, o->count_allocs, o->slot_offset, err, sizeof(err));
		if (rc == 0) /* the children, the textbook loop's too, inherit the placer */
			rc = preload_export_slot(o->slot_offset, err, sizeof(err));
		if (rc != 0) {
			fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
			return EXIT_BAD_INPUT;
		}
		return EXIT_OK;
	}
	if (!(o->malloc_name || o->count_allocs || o->slot_offset >= 0 || getenv("CGOCOST_PRELOADED")))
		return EXIT_OK;
	if ((rc = preload_reexec(o->malloc_name, o->count_allocs, o->slot_offset, argv, err, sizeof(err))) != 0) {
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
	if (o->slot_offset >= 0 && dlsym(RTLD_DEFAULT, "cgocost_slot_place") == NULL) {
		fprintf(stderr, "%s: --slot-offset: the slot placer is not in the process\n", prog);
		return EXIT_RUN_FAILED;
	}
	if (o->count_allocs && dlsym(RTLD_DEFAULT, "cgocost_alloc_counts") == NULL) {
		fprintf(stderr, "%s: --count-allocs: the counter library is not in the process\n", prog);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}

/* This run judges async cells (against another build or a baseline): -a,
 * or the async cells of --compare and of --per-event --host-calls both. A
 * paired run's child judges nothing. */
static int judges_async(const struct options *o)
{
	if (o->base == BASE_NONE || run_kind_is_child(o->kind))
		return 0;
	return o->async || o->kind == RUN_COMPARE || (o->kind == RUN_PER_EVENT && o->host_calls == HOST_CALLS_BOTH);
}

/* The callers of an async run of o, and the threads it spins: they and the
 * SDK's workers of each library (plugin/sdkslot.h's rule), GOMAXPROCS
 * being the environment's if set, else the CPUs allowed (Go's own
 * default); a --busy library's thread and its worker too. */
static int async_spinners(const struct options *o, const struct machine *m, uint32_t *callers)
{
	const char *env = getenv("GOMAXPROCS");
	char *end = NULL;
	long g = env && *env ? strtol(env, &end, 10) : 0;
	uint32_t libs = o->nlibs > 0 ? (uint32_t)o->nlibs : 1;

	if (g <= 0 || !end || *end || g > INT_MAX)
		g = m->allowed_cpus;
	*callers = libs * o->plugins;
	return (int)(libs * (o->plugins + sdk_async_workers((int)g, o->plugins)) +
		     (o->busy ? 1 + sdk_async_workers((int)g, 1) : 0));
}

/* --worker-cpu N: a CPU this process may use, and another for the caller
 * (--cpus's first, or the first other CPU allowed); the two and N's class
 * relative to the caller's go to the machine record. */
static int check_worker_cpu(const struct options *o, struct machine *m)
{
	int caller = o->ncpus ? o->cpus[0] : -1;

	if (o->worker_cpu < 0)
		return EXIT_OK;
	if (!machine_cpu_allowed(m, o->worker_cpu)) {
		fprintf(stderr,
			"%s: --worker-cpu: CPU %d is not available to this process (%d CPUs allowed) (see %s --help)\n",
			prog, o->worker_cpu, m->allowed_cpus, prog);
		return EXIT_BAD_INPUT;
	}
	for (int i = 0; caller < 0 && i < m->allowed_cpus; i++)
		if (m->allowed[i] != o->worker_cpu)
			caller = m->allowed[i];
	if (caller < 0) {
		fprintf(stderr,
			"%s: --worker-cpu %d is the one CPU this process may use: the caller needs another (see %s "
			"--help)\n",
			prog, o->worker_cpu, prog);
		return EXIT_BAD_INPUT;
	}
	m->caller_cpu = caller;
	m->worker_cpu = o->worker_cpu;
	snprintf(m->worker_class, sizeof(m->worker_class), "%s",
		 cpu_class_name(topology_classify("/", caller, o->worker_cpu)));
	return EXIT_OK;
}

/* The machine, and the CPUs --cpus and --worker-cpu name in it. */
static int check_machine(const struct options *o, struct machine *m)
{
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
	if (check_worker_cpu(o, m) != EXIT_OK)
		return EXIT_BAD_INPUT;
	/* launch by launch, a sync cell measures the same crossing on one CPU
	 * (noisier: the Go runtime's threads share the caller's CPU, as much in
	 * both builds); an async one cannot be had there: the SDK falls back to
	 * direct calls when GOMAXPROCS < 2, and with GOMAXPROCS forced up its
	 * worker would share the caller's CPU, every handoff a context switch.
	 * Judged, either would pass a sync (or scheduler) figure off as async.
	 * Before the paired rule: --interleave launches would not help. */
	if (judges_async(o) && m->allowed_cpus < 2) {
		fprintf(stderr,
			"%s: a verdict on async cells needs 2 CPUs (the SDK's worker beside the caller; on one the SDK "
			"falls back to sync calls); this process may use %d: allow more (taskset) (see %s --help)\n",
			prog, m->allowed_cpus, prog);
		return EXIT_BAD_INPUT;
	}
	/* a verdict on a run that spins more threads than it may use CPUs
	 * would judge the scheduler: refused, where the warning only warns */
	uint32_t callers;
	int spin;
	if (judges_async(o) && o->async && (spin = async_spinners(o, m, &callers)) > m->allowed_cpus) {
		fprintf(stderr,
			"%s: a verdict on this async run would judge the scheduler: it spins %d threads (%u caller%s and "
			"the SDK's workers) on %d allowed CPUs; use fewer plugins (-p), fewer libraries, or sync (see %s "
			"--help)\n",
			prog, spin, callers, callers == 1 ? "" : "s", m->allowed_cpus, prog);
		return EXIT_BAD_INPUT;
	}
	/* a paired block's caller runs alone on its CPU, every other thread of
	 * its process (the async worker among them) on the others */
	if (o->method == METHOD_PAIRED && m->allowed_cpus < 2) {
		fprintf(stderr,
			"%s: a paired run needs 2 CPUs (the caller alone on one, the other threads on the rest); this "
			"process may use %d: allow more (taskset), or --interleave launches (see %s --help)\n",
			prog, m->allowed_cpus, prog);
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

/* --events from a pipe (a shell's <(cmd)) is read once, here, into a file
 * every launch and every library of the run can read again: the second
 * launch used to find the pipe spent ("the file is empty"). */
static int keep_events(struct options *o)
{
	static char kept[32];
	char err[1024];
	int k = o->events ? input_keep_pipe(o->events, kept, sizeof(kept), EVENTS_MAX_BYTES, err, sizeof(err)) : 0;

	if (k < 0) {
		fprintf(stderr, "%s: --events %s (see %s --help)\n", prog, err, prog);
		return EXIT_BAD_INPUT;
	}
	if (k > 0)
		o->events = kept;
	return EXIT_OK;
}

/* A bad baseline is bad input, found before anything runs; so is one this
 * run could not be compared with. With the built-in plugin the run's cells
 * are known now; a --plugin run's are checked after the measurement. */
static int load_baseline(const struct options *o, const char *lib, struct doc *base)
{
	char err[1024], path[PATH_MAX];

	if (o->base != BASE_SAVED)
		return EXIT_OK;
	if (baseline_load(o->baseline, base, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --baseline: %s (see %s --help)\n", prog, err, prog);
		return EXIT_BAD_INPUT;
	}
	if (lib && !run_meets_baseline(o, lib, base, path, sizeof(path))) {
		fprintf(stderr,
			"%s: --baseline: %s: none of its cells or ratios is one this run measures (such as %s): "
			"nothing would be compared (see %s --help)\n",
			prog, o->baseline, path, prog);
		doc_free(base);
		return EXIT_BAD_INPUT;
	}
	return EXIT_OK;
}

int setup(int argc, char **argv, struct options *o, struct machine *m, struct doc *base)
{
	char err[1024];
	struct plugin_syms builtin;
	int rc, has_builtin = plugin_syms_builtin(&builtin) == 0;
	/* -p is bounded by the built-in plugin's handle limit; a --plugin
	 * library's own limit is checked when it is loaded */
	uint32_t max_plugins =
		has_builtin && builtin.max_handle ? (uint32_t)builtin.max_handle() : LIB_DEFAULT_MAX_INSTANCES;

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
	run_kind_resolve(o);
	if (o->kind == RUN_JUDGE || o->kind == RUN_FIT)
		return EXIT_OK;
	if (count_refusal(o, err, sizeof(err)) != NULL) {
		fprintf(stderr, "%s: %s (see %s --help)\n", prog, err, prog);
		return EXIT_BAD_INPUT;
	}
	if (!has_builtin && o->nlibs == 0) {
		fprintf(stderr,
			"%s: this executable has no built-in plugin: name one with --plugin PATH (see %s --help)\n",
			prog, prog);
		return EXIT_BAD_INPUT;
	}
	if ((rc = check_paths(o)) != EXIT_OK || (rc = preloads(o, argv)) != EXIT_OK ||
	    (rc = check_machine(o, m)) != EXIT_OK || (rc = keep_events(o)) != EXIT_OK)
		return rc;
	if ((rc = load_baseline(o, o->nlibs == 0 ? self_lib(&builtin, has_builtin) : NULL, base)) != EXIT_OK)
		return rc;
	/* after every check of the input: a missing tool is no bad input */
	if (count_tool_missing(o, err, sizeof(err)) != NULL) {
		fprintf(stderr, "%s: %s\n", prog, err);
		doc_free(base);
		return EXIT_RUN_FAILED;
	}
	return EXIT_OK;
}
