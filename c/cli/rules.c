/* cli/rules.c — the rules between options: the conflicts, the kind of run
 * they ask for (paired or launch by launch) and the defaults that depend on
 * other options. */
#include "cli/rules.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analyse/verdict.h"
#include "cli/source.h"
#include "orchestrate/countgate.h"
#include "report/export.h"

/* --against EXE --count instructions: the counting gate, judged on counts
 * (count_refusal refuses the counts it cannot take). */
static int counting_gate(const struct options *o)
{
	return o->against && (o->count & COUNT_INSTRUCTIONS);
}

/* The plugin-library options: what needs --plugin, and what makes no sense
 * with it. */
static int plugin_options_check(const struct options *o, char *err, size_t errlen)
{
	const char *needs = o->nfield_specs				  ? "--field"
			    : o->events					  ? "--events"
			    : o->plugin_id_set				  ? "--plugin-id"
			    : o->payload_size_set && o->work != WORK_JSON ? "--payload-size"
			    : o->idle					  ? "--idle"
			    : o->busy					  ? "--busy"
			    : o->repeat_load				  ? "--repeat-load"
			    : o->interference				  ? "--interference"
									  : NULL;

	if (o->nlibs == 0 && needs) {
		snprintf(err, errlen, "%s applies to a plugin library: name one with --plugin PATH", needs);
		return -1;
	}
	if (o->nlibs && o->compare && !o->sync_config) {
		snprintf(err, errlen,
			 "--compare with --plugin runs the plugin's own two configurations: give them with "
			 "--sync-config JSON --async-config JSON");
		return -1;
	}
	if (o->alloc_bytes && !o->busy) {
		snprintf(err, errlen, "--alloc-bytes applies to the --busy library");
		return -1;
	}
	if (o->idle && o->busy && !o->interference) {
		snprintf(err, errlen, "--idle and --busy: one other library at a time (--interference runs both)");
		return -1;
	}
	if (o->interference && (o->nlibs != 1 || !o->busy || o->idle)) {
		snprintf(err, errlen, "--interference needs one --plugin A and --busy B (and no --idle)");
		return -1;
	}
	if (o->interference && (o->against || o->baseline || o->save_baseline || o->nallocators || o->repeat_load)) {
		snprintf(
			err, errlen,
			"--interference runs its own cells: not with --against, baselines, --allocators or --repeat-load");
		return -1;
	}
	if (o->repeat_load && (o->against || o->baseline || o->save_baseline || o->nallocators || o->launches_set)) {
		snprintf(err, errlen,
			 "--repeat-load counts K loads: not with --launches, --against, baselines or --allocators");
		return -1;
	}
	if ((o->interference || o->repeat_load) && (options_latency(o) || o->nsweep)) {
		snprintf(err, errlen, "%s runs its own closed-loop launches: not with --rate, --gap-us or --sweep-rate",
			 o->interference ? "--interference" : "--repeat-load");
		return -1;
	}
	if (o->events && o->payload_size_set) {
		snprintf(err, errlen, "--payload-size sizes the synthetic event: not with --events FILE");
		return -1;
	}
	if (o->repeat_load && (o->format == FORMAT_GOBENCH || o->format == FORMAT_MARKDOWN)) {
		snprintf(err, errlen,
			 "--repeat-load reports text or json: it times no extraction to print as a benchmark");
		return -1;
	}
	if (o->lifecycle && o->nlibs > 1) {
		snprintf(err, errlen, "--scenario lifecycle measures one plugin library at a time");
		return -1;
	}
	return 0;
}

/* --export FORMAT=FILE: each word read, no FILE twice, stdout once, and
 * only where a report is made (a child launch prints its document for the
 * parent; --judge is refused by the parser). The files themselves are
 * checked by cli/exports.c. 0, or -1 with a message. */
static int check_exports(const struct options *o, char *err, size_t errlen)
{
	struct export_spec e[OPT_MAX_EXPORTS];
	int to_stdout = -1;

	if (o->nexports && (o->emit_launch || o->serve_blocks)) {
		snprintf(
			err, errlen,
			"--export writes a run's report: a child launch (--emit-launch) prints only its document for its parent");
		return -1;
	}
	for (int i = 0; i < o->nexports; i++) {
		if (export_parse(o->exports[i], &e[i], err, errlen) != 0)
			return -1;
		if (e[i].format == EXPORT_GOBENCH && o->repeat_load) {
			snprintf(err, errlen, "--export %s: --repeat-load times no extraction to print as a benchmark",
				 o->exports[i]);
			return -1;
		}
		if (export_to_stdout(&e[i])) {
			if (to_stdout >= 0) {
				snprintf(err, errlen,
					 "--export %s and --export %s: one export at most goes to stdout (-)",
					 o->exports[to_stdout], o->exports[i]);
				return -1;
			}
			to_stdout = i;
			continue;
		}
		for (int j = 0; j < i; j++)
			if (strcmp(e[j].file, e[i].file) == 0) {
				snprintf(err, errlen, "--export %s and --export %s name the same file '%s'",
					 o->exports[j], o->exports[i], e[i].file);
				return -1;
			}
	}
	return 0;
}

/* An open-loop caller allocates, before it starts, its schedule and a slot
 * for every latency: OPEN_LOOP_BYTES a request. All callers' together must
 * fit in this machine's memory, or the run would fail (or swap) late;
 * refused up front instead. 1 when refused, with the message. */
static int open_loop_unfit(const struct options *o, char *err, size_t errlen)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	double need = (double)o->n * (double)o->plugins * OPEN_LOOP_BYTES;
	double have = pages > 0 && page > 0 ? (double)pages * (double)page : 0;

	if (have <= 0 || need <= have)
		return 0;
	snprintf(err, errlen,
		 "-n %llu with -p %u: an open-loop run stores a schedule entry and a latency for every request, "
		 "%.1f GiB in all, more than this machine's %.1f GiB of memory",
		 (unsigned long long)o->n, o->plugins, need / 1073741824.0, have / 1073741824.0);
	return 1;
}

/* --rate, --gap-us, --time and --sweep-rate, against each other and the
 * rest; -n from --time. 0, or -1 with a message. */
static int check_latency(struct options *o, char *err, size_t errlen)
{
	int comparing = o->compare || o->anatomy || o->against || o->baseline || o->save_baseline || o->nallocators;
	double n;

	if (o->rate > 0 && o->ngaps) {
		snprintf(err, errlen, "--rate and --gap-us: an open schedule or a fixed gap, not both");
		return -1;
	}
	if (o->nsweep && (o->rate > 0 || o->ngaps)) {
		snprintf(err, errlen, "--sweep-rate sets the rate of each launch itself: not with --rate or --gap-us");
		return -1;
	}
	if (o->nsweep && !options_latency(o))
		comparing = o->compare || o->anatomy || o->against || o->baseline ||
			    o->nallocators; /* a sweep may be saved */
	if ((options_latency(o) || o->nsweep) && (comparing || o->lifecycle || (o->launches_set && !o->nsweep))) {
		snprintf(
			err, errlen,
			"--rate, --gap-us and --sweep-rate measure latency in one run of one cell: not with --compare, --anatomy, --against, --baseline, --save-baseline, --allocators, --launches or --scenario lifecycle");
		return -1;
	}
	if (o->arrival == ARRIVAL_POISSON && o->rate <= 0 && !o->nsweep) {
		snprintf(err, errlen, "--arrival applies to --rate or --sweep-rate only");
		return -1;
	}
	if (o->time_s > 0 && o->rate <= 0 && !o->nsweep && !o->paired && !counting_gate(o)) {
		snprintf(err, errlen,
			 "--time bounds a --rate or --sweep-rate schedule, or a paired run (--compare, --against)");
		return -1;
	}
	if (o->rate > 0 && o->time_s > 0) {
		n = floor(o->rate * o->time_s + 0.5);
		if (o->n_set && (double)o->n != n) {
			/* a child launch gets both, agreeing */
			snprintf(err, errlen, "-n and --time both set the number of requests: give one");
			return -1;
		}
		if (n < 1) {
			snprintf(err, errlen, "--rate %g for --time %g s schedules no request", o->rate, o->time_s);
			return -1;
		}
		if (n > (double)OPT_MAX_SCHEDULED) {
			snprintf(err, errlen, "--rate %g for --time %g s schedules %.0f requests (at most %llu)",
				 o->rate, o->time_s, n, (unsigned long long)OPT_MAX_SCHEDULED);
			return -1;
		}
		o->n = (uint64_t)n;
	}
	if (options_latency(o) && o->n > OPT_MAX_SCHEDULED) {
		snprintf(err, errlen, "-n %llu: an open-loop run stores every latency, at most %llu requests",
			 (unsigned long long)o->n, (unsigned long long)OPT_MAX_SCHEDULED);
		return -1;
	}
	if (options_latency(o) && open_loop_unfit(o, err, errlen))
		return -1;
	if (options_latency(o) && !o->batches_set && o->batches > o->n)
		o->batches = (uint32_t)o->n;
	return 0;
}

/* --per-event K and --host-calls; sets fields = K. 0, or -1 with a message. */
static int check_per_event(struct options *o, char *err, size_t errlen)
{
	const char *unfit = o->lifecycle      ? "--scenario lifecycle"
			    : o->anatomy      ? "--anatomy"
			    : o->interference ? "--interference"
			    : o->repeat_load  ? "--repeat-load"
			    : o->nallocators  ? "--allocators"
			    : o->nsweep	      ? "--sweep-rate"
			    : o->rate > 0     ? "--rate"
			    : o->ngaps	      ? "--gap-us"
					      : NULL;

	if (o->host_calls_set && !o->per_event_set) {
		snprintf(err, errlen, "--host-calls applies to --per-event K (the fields each event extracts)");
		return -1;
	}
	if (!o->per_event_set)
		return 0;
	if (o->per_event == 0) {
		snprintf(err, errlen, "--per-event: '0' must be at least 1");
		return -1;
	}
	if (unfit) {
		snprintf(err, errlen, "--per-event times events of K fields in the closed loop: not with %s", unfit);
		return -1;
	}
	if (o->fields != 1 && o->fields != o->per_event) {
		snprintf(err, errlen, "--per-event %u sets the fields of a call itself: not with --fields %u",
			 o->per_event, o->fields);
		return -1;
	}
	if (o->host_calls == HOST_CALLS_BOTH && (o->compare || o->against)) {
		snprintf(err, errlen, "--host-calls both runs its own cells: not with %s",
			 o->compare ? "--compare" : "--against");
		return -1;
	}
	if (o->nfield_specs && (uint32_t)o->nfield_specs != o->per_event) {
		snprintf(err, errlen, "--per-event %u with %d --field: name K fields, or none (the first K declared)",
			 o->per_event, o->nfield_specs);
		return -1;
	}
	o->fields = o->per_event;
	return 0;
}

const char *options_unpairable(const struct options *o)
{
	if (!o->compare && !o->against && !(o->per_event && o->host_calls == HOST_CALLS_BOTH))
		return "paired blocks compare cells: they need --compare or --against (or --per-event K --host-calls both)";
	if (o->baseline || o->save_baseline)
		return "a baseline is from another time and cannot be paired: it is judged launch by launch";
	if (o->anatomy || o->nallocators || o->interference || o->lifecycle)
		return "--anatomy, --allocators, --interference and the lifecycle run launch by launch";
	if (options_latency(o) || o->nsweep)
		return "open-loop latency runs one cell at a time";
	if (o->plugins != 1 || o->nlibs > 1)
		return "a paired block has one caller: -p 1 and at most one --plugin";
	return "";
}

/* The first option given that sizes or stops a paired run's blocks, or
 * NULL: named alone in the message that refuses it elsewhere. */
static const char *paired_only_option(const struct options *o)
{
	if (o->precision_pct > 0)
		return "--precision";
	if (o->block_set)
		return "--block-ms";
	if (o->async_block_set)
		return "--async-block-ms";
	if (o->lead_in_set)
		return "--lead-in-us";
	if (o->blocks_per_visit_set)
		return "--blocks-per-visit";
	return NULL;
}

/* The options the counting gate would otherwise ignore, or turn into a
 * document that says what it is not: refused. Its runs are counted under
 * valgrind, reading no clock worth a verdict, so it has no blocks to pair
 * or to size, no launches to interleave, no floors to time, and its
 * document's times (valgrind's, tens of times slower) must never become a
 * baseline that a later timed run would be judged against. 0, or -1 with
 * a message. */
static int check_count_gate(const struct options *o, char *err, size_t errlen)
{
	const char *gate = "--against with --count instructions counts child runs of the two builds in turn, "
			   "reading no clock";

	if (!counting_gate(o))
		return 0;
	if (o->interleave != INTERLEAVE_AUTO)
		snprintf(err, errlen, "--interleave %s: %s: there are %s",
			 o->interleave == INTERLEAVE_PAIRS ? "pairs" : "launches", gate,
			 o->interleave == INTERLEAVE_PAIRS ? "no blocks to pair" : "no launches to interleave");
	else if (paired_only_option(o))
		snprintf(err, errlen, "%s applies to a paired run: %s, in pairs of counted runs (--time bounds it)",
			 paired_only_option(o), gate);
	else if (o->floors)
		snprintf(err, errlen, "--floors: %s: there is no timed run to measure floors beside (bench --floors)",
			 gate);
	else if (o->save_baseline)
		snprintf(err, errlen,
			 "--save-baseline: %s: the times in its document are valgrind's, and a timed run judged "
			 "against them would hide any regression: save a baseline from a timed run",
			 gate);
	else
		return 0;
	return -1;
}

/* Whether the run pairs its blocks, and the options that only apply to one
 * kind of run. 0, or -1 with a message. */
static int check_paired(struct options *o, char *err, size_t errlen)
{
	const char *why = options_unpairable(o);

	if (check_count_gate(o, err, errlen) != 0)
		return -1;
	if (o->interleave == INTERLEAVE_PAIRS && why[0]) {
		snprintf(err, errlen, "--interleave pairs: %s", why);
		return -1;
	}
	o->paired = !counting_gate(o) && o->interleave != INTERLEAVE_LAUNCHES && why[0] == '\0';
	if (o->paired && o->batches_set) {
		snprintf(err, errlen,
			 "-r splits -n into batches: a paired run's batches are its blocks (--block-ms, "
			 "or -n calls a block); --interleave launches runs launch by launch");
		return -1;
	}
	if (!o->paired && paired_only_option(o)) {
		snprintf(err, errlen, "%s applies to a paired run (%s)", paired_only_option(o),
			 o->interleave == INTERLEAVE_LAUNCHES ? "--interleave launches was given" : why);
		return -1;
	}
	if (o->paired && o->against && o->precision_pct > 0) {
		snprintf(err, errlen,
			 "--precision: --against stops by its own sequential rule, at the first look whose verdict "
			 "is sure (docs/methodology.md); --precision ends a --compare");
		return -1;
	}
	if (o->inconclusive_set && !o->against && !o->baseline && !o->judge[0]) {
		snprintf(err, errlen, "--inconclusive: there is no verdict without --against, --baseline or --judge");
		return -1;
	}
	if (o->serve_blocks && (o->compare || o->against || !o->emit_launch)) {
		snprintf(err, errlen, "--serve-blocks is internal: a paired run's child launch");
		return -1;
	}
	if (o->paired && o->floors) {
		snprintf(
			err, errlen,
			"--floors in a paired run would be measured in every process of every generation: measure them in a run of their own (bench --floors)");
		return -1;
	}
	if (o->paired && o->time_s <= 0)
		o->time_s = o->against ? OPT_DEFAULT_AGAINST_TIME_S : OPT_DEFAULT_PAIRED_TIME_S;
	if (!o->threshold_set)
		o->threshold = counting_gate(o) ? OPT_COUNT_THRESHOLD
			       : o->paired	? OPT_PAIRED_THRESHOLD
						: OPT_UNPAIRED_THRESHOLD;
	return 0;
}

/* --against with --count instructions: the counting gate
 * (orchestrate/countgate.h). Its -n (when not given) and the refusals of
 * what it cannot honour: --launches (it runs pairs of counted runs), and a
 * --time that cannot hold COUNT_GATE_MIN_PAIRS pairs a build, each of two
 * runs at least COUNT_RUN_LEAST_S long (valgrind's and the Go runtime's
 * start-up alone). 0, or -1 with a message. */
static int check_count_budget(const struct options *o, char *err, size_t errlen)
{
	double least = 2.0 * 2.0 * COUNT_GATE_MIN_PAIRS * COUNT_RUN_LEAST_S;

	if (o->launches_set) {
		snprintf(err, errlen,
			 "--launches: --against with --count instructions runs pairs of counted runs of each build, "
			 "not launches (--time bounds it)");
		return -1;
	}
	if (o->time_s > 0 && o->time_s < least) {
		snprintf(err, errlen,
			 "--time %g cannot hold the counting gate's %d pairs of runs a build (2 builds x 2 lengths x "
			 "%d pairs, each run at least %.1f s under valgrind: %.0f s): give --time %.0f or more, or "
			 "none (%d pairs)",
			 o->time_s, COUNT_GATE_MIN_PAIRS, COUNT_GATE_MIN_PAIRS, COUNT_RUN_LEAST_S, least, least,
			 COUNT_GATE_PAIRS);
		return -1;
	}
	return 0;
}

/* --against: a budget that cannot give VERDICT_MIN_GENERATIONS generations
 * (paired) or launches is refused before anything runs. A paired run has
 * at least two cells (one a side), so a round lasts at least two blocks
 * with their lead-ins; start-ups are not counted, so what is refused here
 * surely cannot reach the minimum, and a run that could but did not ends
 * with exit 3 after it. 0, or -1 with a message. */
static int check_verdict_budget(const struct options *o, char *err, size_t errlen)
{
	size_t most;
	double least_s;

	if (!o->against)
		return 0;
	if (counting_gate(o))
		return check_count_budget(o, err, errlen);
	if (!o->paired) {
		if (o->launches >= VERDICT_MIN_GENERATIONS)
			return 0;
		snprintf(err, errlen,
			 "--launches %u: a verdict against another build needs at least %d launches a side: give "
			 "--launches %d or more",
			 o->launches, VERDICT_MIN_GENERATIONS, VERDICT_MIN_GENERATIONS);
		return -1;
	}
	if ((most = options_max_generations(o, 2, &least_s)) >= VERDICT_MIN_GENERATIONS)
		return 0;
	if (o->launches_set)
		snprintf(err, errlen,
			 "--launches %u: a verdict against another build needs at least %d generations: give "
			 "--launches %d or more",
			 o->launches, VERDICT_MIN_GENERATIONS, VERDICT_MIN_GENERATIONS);
	else
		snprintf(
			err, errlen,
			"--time %g fits at most %zu generations of fresh processes (each at least %.3g s: its length or "
			"one round of two blocks with --lead-in-us %llu), fewer than the %d a verdict against another "
			"build needs: give more --time, or --launches %d",
			o->time_s, most, least_s, (unsigned long long)o->lead_in_us, VERDICT_MIN_GENERATIONS,
			VERDICT_MIN_GENERATIONS);
	return -1;
}

/* --worker-cpu N: the async worker side of one async cell on CPU N, the
 * caller on another (the machine's own checks, N allowed and another CPU
 * left for the caller, are cli/setup.c's). 0, or -1 with a message. */
/* --slot-offset: the SDK's slots exist only where a cell is async; a base
 * build of --against may predate the option (its children inherit the
 * preload, and their slots are not checked) */
static int check_slot_offset(const struct options *o, char *err, size_t errlen)
{
	if (o->slot_offset < 0)
		return 0;
	if (o->slot_offset % 8 != 0) {
		snprintf(err, errlen, "--slot-offset %d: the SDK's slots are 8-byte aligned: 0, 8, ..., 56",
			 o->slot_offset);
		return -1;
	}
	if (!o->async && !o->compare && !o->anatomy) {
		snprintf(err, errlen,
			 "--slot-offset places the SDK's async slots: it needs -a, --compare or --anatomy");
		return -1;
	}
	if (o->against || o->nallocators) {
		snprintf(err, errlen,
			 "--slot-offset: not with --against or --allocators (every process of the run gets "
			 "the preload, and their builds or allocators differ)");
		return -1;
	}
	return 0;
}

static int check_worker_cpu(const struct options *o, char *err, size_t errlen)
{
	if (o->worker_cpu < 0)
		return 0;
	if (!o->async) {
		snprintf(err, errlen, "--worker-cpu %d pins the async worker: it needs -a", o->worker_cpu);
		return -1;
	}
	/* --against's build may predate the option: its children would refuse it */
	if (o->compare || o->anatomy || o->against || o->interference || o->nsweep ||
	    (o->per_event && o->host_calls == HOST_CALLS_BOTH)) {
		snprintf(err, errlen,
			 "--worker-cpu pins the worker of one async cell: not with --compare, --anatomy, --against, "
			 "--interference, --sweep-rate or --host-calls both (their cells choose their own mode, or "
			 "run another build)");
		return -1;
	}
	/* measured: every lifecycle run so pinned ended with worker-side
	 * threads allowed the caller's CPU too (plugin_init on the caller's
	 * thread starts Go threads, which inherit its mask) */
	if (o->lifecycle) {
		snprintf(err, errlen,
			 "--worker-cpu with --scenario lifecycle: each iteration's plugin_init on the caller's thread "
			 "starts Go threads with the caller's CPU: the worker side cannot be held on CPU %d",
			 o->worker_cpu);
		return -1;
	}
	for (int i = 0; i < o->ncpus; i++)
		if (o->cpus[i] == o->worker_cpu) {
			snprintf(err, errlen,
				 "--worker-cpu %d is a caller's own CPU (--cpus): the worker needs a CPU of its own",
				 o->worker_cpu);
			return -1;
		}
	if (o->ncpus == 0 && o->plugins * (o->nlibs > 1 ? (uint32_t)o->nlibs : 1) > 1) {
		snprintf(err, errlen, "--worker-cpu with %u calling threads needs --cpus (one CPU each, not %d)",
			 o->plugins * (o->nlibs > 1 ? (uint32_t)o->nlibs : 1), o->worker_cpu);
		return -1;
	}
	return 0;
}

/* --topology reads sysfs and measures nothing: only the caller's CPU
 * (--cpus) shapes it; with --floors, the sweep (-n, -r: each launch's
 * calls and batches; the mode and the worker's CPU are its own). 0, or -1
 * with a message. */
static int check_topology(const struct options *o, char *err, size_t errlen)
{
	if (!o->topology)
		return 0;
	if (o->async || o->worker_cpu >= 0 || o->compare || o->anatomy || o->against || o->baseline ||
	    o->save_baseline || o->nallocators || o->interference || o->nsweep || o->repeat_load || o->nexports ||
	    o->format != FORMAT_TEXT || o->count || options_latency(o) || o->lifecycle || o->launches_set ||
	    (o->n_set && !o->floors) || o->nlibs || o->per_event || o->emit_launch || o->ncpus > 1) {
		snprintf(err, errlen,
			 "--topology lists the CPUs by class and measures nothing (with --floors, the sweep measures "
			 "each class): it takes --cpus (the caller's one CPU), and with --floors -n and -r, and no "
			 "other option that measures, judges or exports");
		return -1;
	}
	return 0;
}

int options_check(struct options *o, char *err, size_t errlen)
{
	int comparing;

	/* first: --against-plugin stands for an --against of this build */
	if (own_plugin_check(o, err, errlen) != 0)
		return -1;
	comparing = o->compare || o->anatomy || o->against || o->baseline || o->save_baseline || o->nallocators ||
		    o->interference || (o->per_event && o->host_calls == HOST_CALLS_BOTH);
	if (check_topology(o, err, errlen) != 0)
		return -1;
	if (counting_gate(o) && !o->n_set)
		o->n = OPT_COUNT_GATE_N;
	if (check_paired(o, err, errlen) != 0 || check_latency(o, err, errlen) != 0 ||
	    check_per_event(o, err, errlen) != 0)
		return -1;

	if (o->progress && o->no_progress) {
		snprintf(err, errlen, "--progress and --no-progress: give one");
		return -1;
	}
	if (o->batches > o->n) {
		snprintf(err, errlen, "-n %llu is smaller than --runs %u: each batch needs a request",
			 (unsigned long long)o->n, o->batches);
		return -1;
	}
	if (o->pool && !o->lifecycle) {
		snprintf(err, errlen, "--pool applies to --scenario lifecycle only");
		return -1;
	}
	if (o->lifecycle && o->pool == 0)
		o->pool = o->plugins;
	if (o->anatomy && (o->compare || o->against || o->nallocators || o->lifecycle || o->fields != 1)) {
		snprintf(
			err, errlen,
			"--anatomy runs its own cells (one field of each work, sync and async): not with --compare, --against, --allocators, --scenario lifecycle or --fields");
		return -1;
	}
	if (o->nallocators && (o->malloc_name || o->compare || o->against)) {
		snprintf(err, errlen,
			 "--allocators runs one cell per allocator: not with --malloc, --compare or --against");
		return -1;
	}
	if (o->against && o->baseline) {
		snprintf(err, errlen, "--against and --baseline: judge against one base at a time");
		return -1;
	}
	if (!o->launches_set && comparing && !o->paired)
		o->launches = o->against ? VERDICT_MIN_GENERATIONS : OPT_DEFAULT_COMPARE_LAUNCHES;
	if (check_verdict_budget(o, err, errlen) != 0)
		return -1;
	if (o->emit_launch && (comparing || o->launches_set)) {
		snprintf(err, errlen, "--emit-launch is internal and takes no comparison options");
		return -1;
	}
	if (o->baseline && o->save_baseline && strcmp(o->baseline, o->save_baseline) == 0) {
		snprintf(err, errlen, "--baseline and --save-baseline name the same file '%s'", o->baseline);
		return -1;
	}
	if (plugin_options_check(o, err, errlen) != 0 || check_exports(o, err, errlen) != 0 ||
	    check_worker_cpu(o, err, errlen) != 0 || check_slot_offset(o, err, errlen) != 0 ||
	    source_resolve(o, err, errlen) != 0)
		return -1;
	if (o->ncpus && (uint32_t)o->ncpus < o->plugins * (o->nlibs > 1 ? (uint32_t)o->nlibs : 1)) {
		snprintf(err, errlen, "--cpus: %d CPUs listed for %u calling threads (one CPU each)", o->ncpus,
			 o->plugins * (o->nlibs > 1 ? (uint32_t)o->nlibs : 1));
		return -1;
	}
	return 0;
}
