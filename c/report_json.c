/* report_json.c — see report_json.h. */
#include "report_json.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocs.h"
#include "jsonutil.h"
#include "stats.h"

const char *run_mode_in_effect(const struct run *r)
{
	int async = 0, sync = 0;
	for (uint32_t i = 0; i < r->nplugins; i++) {
		if (r->plugins[i].async_in_effect)
			async = 1;
		else
			sync = 1;
	}
	return async && sync ? "mixed" : async ? "async" : "sync";
}

void cell_name(char *buf, size_t len, const char *lib, int async_requested, const char *in_effect,
	       const char *scenario, const char *work, unsigned plugins, unsigned fields,
	       const char *malloc_name)
{
	const char *mode = in_effect;
	char scen[40] = "", flds[32] = "", alloc[40] = "";
	if (async_requested && strcmp(in_effect, "sync") == 0)
		mode = "sync-fallback";
	if (scenario && strcmp(scenario, "extract") != 0)
		snprintf(scen, sizeof(scen), "/scenario=%s", scenario);
	if (fields != 1)
		snprintf(flds, sizeof(flds), "/fields=%u", fields);
	if (malloc_name)
		snprintf(alloc, sizeof(alloc), "/malloc=%s", malloc_name);
	snprintf(buf, len, "lib=%s/mode=%s%s/work=%s%s/p=%u%s", lib, mode, scen, work, flds, plugins, alloc);
}

json_t *machine_record(const struct machine *m)
{
	return json_pack("{s:s, s:i, s:i, s:s, s:s}", "cpu_model", m->cpu_model, "online_cpus",
			 m->online_cpus, "allowed_cpus", m->allowed_cpus, "kernel", m->kernel, "arch",
			 m->arch);
}

json_t *options_record(const struct options *o)
{
	json_t *cpus = json_array();
	for (int i = 0; i < o->ncpus; i++)
		json_array_append_new(cpus, json_integer(o->cpus[i]));
	return json_pack("{s:o, s:i, s:i, s:s, s:i, s:o, s:o, s:o, s:i, s:b, s:o, s:s, s:i, s:s, s:b}",
			 "n", jint(o->n), "runs", (int)o->runs, "plugins", (int)o->plugins, "work",
			 work_name(o->work), "fields", (int)o->fields, "warmup", jint(o->warmup), "extra_ns",
			 jint(o->extra_ns), "async_extra_ns", jint(o->async_extra_ns), "launches",
			 (int)o->launches, "floors", o->floors, "cpus", cpus, "scenario",
			 o->lifecycle ? "lifecycle" : "extract", "pool", (int)o->pool, "malloc",
			 o->malloc_name ? o->malloc_name : "glibc", "count_allocs", o->count_allocs);
}

static json_t *series_record(const struct series *s)
{
	json_t *a = json_array();
	for (uint32_t i = 0; i < s->nbatches; i++)
		json_array_append_new(a, json_pack("{s:o, s:o}", "ns", jint(s->ns[i]), "ops", jint(s->ops[i])));
	return a;
}

static json_t *plugin_record(const struct plugin_run *p)
{
	return json_pack(
		"{s:i, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o, s:{s:i, s:i, s:i, s:o}, s:{s:o, s:o}, s:b, s:{s:o, s:o, s:o, s:o}}",
		"index", (int)p->index, "elapsed_ns", jint(p->batches.total_ns), "extractions",
		jint(p->batches.total_ops), "ns_per_extraction", jnum(series_per_op(&p->batches)),
		"median_batch_ns_per_extraction", jnum(p->median_per_op), "slowest_batch_ns_per_extraction",
		jnum(p->slowest_per_op), "stalled_batches", (int)p->stalls, "batches", series_record(&p->batches),
		"cold_ns", jint(p->cold_ns), "caller", "tid", (int)p->caller_tid, "cpu_first",
		p->caller_cpu_first, "cpu_last", p->caller_cpu_last, "pinned_cpu",
		jint_or_null(p->pinned_cpu), "extract_thread", "tid", jint(p->after.tid), "cpu",
		jint(p->after.cpu), "async_in_effect", p->async_in_effect, "noise", "thread_cpu_ns",
		jint(p->noise.thread_cpu_ns), "voluntary_switches", jint(p->noise.vol_switches),
		"involuntary_switches", jint(p->noise.invol_switches), "migrations",
		jint_or_null(p->noise.migrations));
}

json_t *floors_record(const struct floors *f)
{
	if (f == NULL)
		return json_null();
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "c_call_ns", jnum(series_median_per_op(&f->c_call)),
			 "go_raw_ns", jnum(series_median_per_op(&f->go_raw)), "go_raw_cold_ns",
			 jint(f->go_raw_cold_ns), "handoff_ns",
			 f->handoff_measured ? jnum(series_median_per_op(&f->handoff)) : json_null(),
			 "handoff_cpus",
			 f->handoff_measured ? json_pack("[i, i]", f->cpu_a, f->cpu_b) : json_null(),
			 "handoff_why", f->handoff_measured ? json_null() : json_string(f->handoff_why));
}

/* Why async was asked for and is not in effect; NULL when it is, or when
 * it was not asked for. */
static const char *run_async_reason(const struct report *rep)
{
	if (!rep->o->async || rep->r->plugins[0].async_in_effect)
		return NULL;
	return async_not_in_effect_reason(&rep->r->plugins[0].before);
}

json_t *launch_record(const struct report *rep)
{
	const struct run *r = rep->r;
	json_t *plugins = json_array();
	double *medians = calloc(r->nplugins, sizeof(double));
	double requests = (double)r->requests;
	const char *reason = run_async_reason(rep);
	double summary;
	json_t *l;

	for (uint32_t i = 0; i < r->nplugins; i++) {
		json_array_append_new(plugins, plugin_record(&r->plugins[i]));
		if (medians)
			medians[i] = r->plugins[i].median_per_op;
	}
	/* a launch is summarized by the median of its batches (across plugins,
	 * the median of the plugins' medians) */
	summary = medians ? stats_median(medians, r->nplugins) : NAN;
	free(medians);
	l = json_pack(
		"{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:o, s:o}", "plugins",
		plugins, "ns_per_extraction", jnum(summary), "wall_ns", jint(r->wall_ns),
		"process_cpu_ns", jint(r->process_cpu_ns), "cpu_ns_per_extraction",
		jnum((double)r->process_cpu_ns / requests), "callers_cpu_ns_per_extraction",
		jnum((double)r->callers_cpu_ns / requests), "other_cpu_ns_per_extraction",
		jnum(((double)r->process_cpu_ns - (double)r->callers_cpu_ns) / requests), "steal_ns",
		r->steal_ticks < 0 ? json_null()
				   : jnum((double)r->steal_ticks * 1e9 / (double)r->clock_ticks),
		"switches_per_1000", jnum(1000.0 * (double)(r->vol_switches + r->invol_switches) / requests),
		"go_allocs", jint(r->go_allocs), "go_alloc_bytes", jint(r->go_alloc_bytes), "async_workers",
		jint((uint64_t)rep->async_workers), "mode_in_effect", run_mode_in_effect(r), "async_reason",
		reason ? json_string(reason) : json_null(), "floors", floors_record(rep->f));
	if (l == NULL)
		return NULL;
	/* what only some runs have: C-side allocation counts, pool waits */
	json_object_set_new(l, "c_allocs",
			    r->c_counted ? json_pack("{s:o, s:o, s:o, s:o}", "mallocs", jint(r->c_mallocs), "frees",
						     jint(r->c_frees), "mallocs_per_iteration",
						     jnum((double)r->c_mallocs / requests), "frees_per_iteration",
						     jnum((double)r->c_frees / requests))
					 : json_null());
	if (r->scenario == SCEN_REUSE)
		json_object_set_new(l, "pool_waits", json_integer((json_int_t)r->pool_waits));
	return l;
}

json_t *cell_record(const struct report *rep, const char *executable)
{
	char name[160];
	const char *effect = run_mode_in_effect(rep->r);

	char alloc_path[PATH_MAX];
	const char *alloc_name;

	allocator_in_effect(alloc_path, sizeof(alloc_path), &alloc_name);
	cell_name(name, sizeof(name), rep->pi->lib_kind, rep->o->async, effect,
		  scenario_name(rep->r->scenario), work_name(rep->o->work), rep->o->plugins, rep->o->fields,
		  rep->o->malloc_name);
	return json_pack("{s:s, s:s, s:{s:s, s:s}, s:s, s:s, s:s, s:s, s:i, s:i, s:{s:s, s:s, s:b, s:o}}", "name", name,
			 "scenario", scenario_name(rep->r->scenario), "allocator", "name", alloc_name,
			 "path", alloc_path, "lib", rep->pi->lib_kind, "executable", executable, "go_version",
			 rep->pi->go_version, "sdk_version", rep->pi->sdk_version, "gomaxprocs",
			 (int)rep->r->plugins[0].before.gomaxprocs, "max_handle", rep->pi->max_handle,
			 "mode", "requested", rep->o->async ? "async" : "sync", "in_effect", effect,
			 "verified", 1, "reason",
			 run_async_reason(rep) ? json_string(run_async_reason(rep)) : json_null());
}
