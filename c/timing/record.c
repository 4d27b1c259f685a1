/* timing/record.c — see record.h. */
#include "timing/record.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysinfo.h"
#include "plugin/sdkslot.h"
#include "timing/allocs.h"
#include "timing/schedule.h"

const char *async_not_in_effect_reason(const struct probe *p)
{
	if (!PROBE_KNOWN(p, PROBE_GOMAXPROCS) || !PROBE_KNOWN(p, PROBE_ASYNC))
		return "the plugin does not report GOMAXPROCS or its async switch (reason unknown)";
	if (p->gomaxprocs < 2)
		return "GOMAXPROCS < 2: the SDK silently falls back to direct C->Go calls "
		       "(a CPU affinity or quota of one CPU causes this)";
	if (!p->async_configured)
		return "the SDK's async switch was off when the plugin started";
	return "the SDK did not hand the extraction to a worker (reason not reported by the SDK)";
}

/* "sync", "async", or "mixed" when the callers differ; "unknown" when the
 * plugin exposes no probe fields (never claimed either way). */
static const char *run_mode_in_effect(const struct run *r)
{
	int async = 0, sync = 0;
	for (uint32_t i = 0; i < r->nplugins; i++)
		if (!r->plugins[i].mode_known)
			return "unknown";
	for (uint32_t i = 0; i < r->nplugins; i++) {
		if (r->plugins[i].async_in_effect)
			async = 1;
		else
			sync = 1;
	}
	return async && sync ? "mixed" : async ? "async" : "sync";
}

/* NULL when async is in effect or was not asked for. */
static const char *run_async_reason(const struct run *r, const struct options *o)
{
	if (!o->async || r->plugins[0].async_in_effect || !r->plugins[0].mode_known)
		return NULL;
	return async_not_in_effect_reason(&r->plugins[0].before);
}

/* Adds v to the ascending list of distinct values a[0..*n) of at most max. */
static void distinct_add(uint64_t *a, uint32_t *n, uint32_t max, uint64_t v)
{
	uint32_t j = 0;

	while (j < *n && a[j] < v)
		j++;
	if ((j < *n && a[j] == v) || *n == max)
		return;
	memmove(&a[j + 1], &a[j], (size_t)(*n - j) * sizeof(*a));
	a[j] = v;
	(*n)++;
}

/* The SDK's workers as the async callers' two probes saw them: the
 * goroutines that ran Extract and their CPUs. A goroutine's number is its
 * runtime's: callers of the library loaded k-th (per library of o->plugins
 * callers) count apart. 0: no async caller's plugin names its goroutine. */
static int workers_seen(struct workers_seen_rec *w, const struct run *r, uint32_t per_lib)
{
	uint64_t *gor = calloc(2 * (size_t)r->nplugins + 1, sizeof(*gor));

	memset(w, 0, sizeof(*w));
	for (uint32_t i = 0; gor && i < r->nplugins; i++) {
		const struct probe *at[2] = { &r->plugins[i].before, &r->plugins[i].after };
		if (!r->plugins[i].async_in_effect || !PROBE_KNOWN(at[1], PROBE_GOROUTINE))
			continue;
		w->callers++;
		for (int k = 0; k < 2; k++) {
			if (PROBE_KNOWN(at[k], PROBE_GOROUTINE))
				distinct_add(gor, &w->goroutines, 2 * r->nplugins,
					     ((uint64_t)(i / per_lib) << 48) ^ at[k]->goroutine);
			if (PROBE_KNOWN(at[k], PROBE_CPU))
				cpu_list_add(w->cpus, &w->ncpus, WORKER_CPUS_MAX, (int)at[k]->cpu);
		}
	}
	free(gor);
	return w->callers > 0;
}

void record_machine(struct machine_rec *rec, const struct machine *m)
{
	snprintf(rec->cpu_model, sizeof(rec->cpu_model), "%s", m->cpu_model);
	snprintf(rec->kernel, sizeof(rec->kernel), "%s", m->kernel);
	snprintf(rec->arch, sizeof(rec->arch), "%s", m->arch);
	rec->online_cpus = m->online_cpus;
	rec->allowed_cpus = m->allowed_cpus;
	rec->has_worker = m->worker_cpu >= 0;
	rec->caller_cpu = m->caller_cpu;
	rec->worker_cpu = m->worker_cpu;
	snprintf(rec->worker_class, sizeof(rec->worker_class), "%s", m->worker_class);
}

void record_floors(struct floors_rec *rec, const struct floors *f)
{
	rec->c_call_ns = series_median_per_op(&f->c_call);
	rec->go_raw_ns = f->go_raw_measured ? series_median_per_op(&f->go_raw) : NAN;
	rec->go_raw_cold_ns = f->go_raw_measured ? (double)f->go_raw_cold_ns : NAN;
	rec->handoff_ns = f->handoff_measured ? f->fig[FLOOR_HANDOFF].median_ns : NAN;
	rec->handoff_cpus[0] = f->handoff_measured ? f->cpu_a : -1;
	rec->handoff_cpus[1] = f->handoff_measured ? f->cpu_b : -1;
	snprintf(rec->handoff_why, sizeof(rec->handoff_why), "%s", f->handoff_measured ? "" : f->handoff_why);
	rec->ref_bare_ns = f->ref.step_ns[REF_BARE];
	rec->ref_event_ns = f->ref.step_ns[REF_EVENT];
	rec->ref_result_ns = f->ref.step_ns[REF_RESULT];
	rec->ref_wake_ns = f->ref.wake_ns;
	rec->has_spread = 1;
	rec->spread_batches = f->c_call.nbatches;
	for (int k = 0; k < FLOOR_KINDS; k++)
		rec->spread[k] = (struct floor_spread){ f->fig[k].min_ns, f->fig[k].max_ns };
	/* the figures above passed the checks; their batches needed no wake-up */
	rec->ref_wakeups = isnan(f->ref.step_ns[REF_BARE]) ? -1 : (int64_t)ref_wakeups(&f->ref);
	rec->ref_dropped_batches = isnan(f->ref.step_ns[REF_BARE]) ? -1 : (int64_t)ref_dropped(&f->ref);
	/* the round trip's batches in which a thread lost its CPU */
	rec->handoff_dropped_batches = f->handoff_measured ? (int64_t)f->rt.dropped : -1;
	rec->nrejected = f->nrejected;
	memcpy(rec->rejected, f->rejected, sizeof(rec->rejected));
}

static int record_caller(struct caller_rec *c, const struct plugin_run *p)
{
	c->index = p->index;
	c->elapsed_ns = p->batches.total_ns;
	c->extractions = p->batches.total_ops;
	c->ns_per_extraction = series_per_op(&p->batches);
	c->median_batch_ns = p->median_per_op;
	c->slowest_batch_ns = p->slowest_per_op;
	c->stalled_batches = p->stalls;
	c->batches = calloc(p->batches.nbatches + 1, sizeof(*c->batches));
	if (c->batches == NULL)
		return -1;
	c->nbatches = p->batches.nbatches;
	for (uint32_t b = 0; b < p->batches.nbatches; b++)
		c->batches[b] = (struct batch_rec){ p->batches.ns[b], p->batches.ops[b] };
	c->cold_ns = p->cold_ns;
	c->tid = p->caller_tid;
	c->cpu_first = p->caller_cpu_first;
	c->cpu_last = p->caller_cpu_last;
	c->pinned_cpu = p->pinned_cpu;
	c->extract_tid = p->after.tid;
	c->extract_cpu = p->after.cpu;
	c->has_goroutine = PROBE_KNOWN(&p->after, PROBE_GOROUTINE);
	c->extract_goroutine = p->after.goroutine;
	c->async_in_effect = p->async_in_effect;
	c->has_async_slot = p->slot_looked;
	c->slot_line_bytes = p->slot.line_bytes;
	c->slot_line_offset = p->slot.line_offset;
	c->slot_lines = p->slot.lines;
	snprintf(c->slot_why, sizeof(c->slot_why), "%s", p->slot.line_bytes ? "" : p->slot_why);
	c->thread_cpu_ns = p->noise.thread_cpu_ns;
	c->vol_switches = p->noise.vol_switches;
	c->invol_switches = p->noise.invol_switches;
	c->migrations = p->noise.migrations;
	return 0;
}

int record_launch(struct launch_rec *l, const struct run *r, const struct options *o, const struct floors *f)
{
	double requests = (double)r->requests, *medians;
	const char *reason = run_async_reason(r, o);

	memset(l, 0, sizeof(*l));
	l->callers = calloc(r->nplugins, sizeof(*l->callers));
	medians = calloc(r->nplugins, sizeof(double));
	if (l->callers == NULL || medians == NULL) {
		free(medians);
		return -1;
	}
	l->ncallers = r->nplugins;
	for (uint32_t i = 0; i < r->nplugins; i++) {
		if (record_caller(&l->callers[i], &r->plugins[i]) != 0) {
			free(medians);
			return -1;
		}
		medians[i] = r->plugins[i].median_per_op;
	}
	/* a launch is summarized by the median of its callers' median batches */
	l->ns_per_extraction = stats_median(medians, r->nplugins);
	free(medians);
	l->wall_ns = r->wall_ns;
	l->process_cpu_ns = r->process_cpu_ns;
	l->cpu_ns_per_extraction = (double)r->process_cpu_ns / requests;
	l->callers_cpu_ns_per_extraction = (double)r->callers_cpu_ns / requests;
	l->other_cpu_ns_per_extraction = ((double)r->process_cpu_ns - (double)r->callers_cpu_ns) / requests;
	l->steal_ns = r->steal_ticks < 0 ? NAN : (double)r->steal_ticks * 1e9 / (double)r->clock_ticks;
	l->switches_per_1000 = 1000.0 * (double)(r->vol_switches + r->invol_switches) / requests;
	l->go_allocs = r->go_allocs;
	l->go_alloc_bytes = r->go_alloc_bytes;
	l->async_workers = sdk_async_workers((int)r->plugins[0].before.gomaxprocs, o->plugins);
	l->has_workers_seen = workers_seen(&l->workers_seen, r, o->plugins ? o->plugins : 1);
	snprintf(l->mode_in_effect, sizeof(l->mode_in_effect), "%s", run_mode_in_effect(r));
	snprintf(l->async_reason, sizeof(l->async_reason), "%s", reason ? reason : "");
	l->has_floors = f != NULL;
	if (f)
		record_floors(&l->floors, f);
	l->c_allocs = (struct c_allocs_rec){ .counted = r->c_counted,
					     .mallocs = r->c_mallocs,
					     .frees = r->c_frees,
					     .mallocs_per_iteration = (double)r->c_mallocs / requests,
					     .frees_per_iteration = (double)r->c_frees / requests };
	l->pool_waits = r->scenario == SCEN_REUSE ? (int64_t)r->pool_waits : -1;
	l->go_runtimes = -1;
	if (o->per_event) {
		l->has_per_event = 1;
		l->per_event = (struct per_event_rec){ .fields = o->per_event,
						       .ns_per_event = l->ns_per_extraction,
						       .ns_per_field = l->ns_per_extraction / o->per_event,
						       .calls_per_event = r->plugins[0].calls_per_event };
		snprintf(l->per_event.host_calls, sizeof(l->per_event.host_calls), "%s",
			 host_calls_name(o->host_calls));
	}
	l->has_worker_side = r->has_worker_side;
	l->worker_side = r->worker_side;
	return 0;
}

void session_lib_name(const struct session *s, char *buf, size_t len)
{
	size_t used = 0;
	char exe[PATH_MAX];

	buf[0] = '\0';
	if (s->libs == &s->builtin) {
		if (realpath("/proc/self/exe", exe) == NULL)
			exe[0] = '\0';
		snprintf(buf, len, "%s", strcmp(exe, s->builtin.lib.file) == 0 ? "archive" : "shared");
		return;
	}
	for (int i = 0; i < s->nlibs && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "+" : "", s->libs[i].lib.label);
}

void record_cell(struct cell_rec *c, const struct run *r, const struct options *o, const struct session *s,
		 const char *executable)
{
	const char *effect = run_mode_in_effect(r), *alloc_name, *reason = run_async_reason(r, o);
	const struct plugin_lib *lib = &s->libs[0].lib;
	char libname[MODEL_NAME_MAX];

	session_lib_name(s, libname, sizeof(libname));
	allocator_in_effect(c->allocator_path, sizeof(c->allocator_path), &alloc_name);
	snprintf(c->allocator, sizeof(c->allocator), "%s", alloc_name);
	cell_name(c->name, sizeof(c->name), libname, o->async, effect, scenario_name(r->scenario), work_name(o->work),
		  o->plugins, o->nfield_specs ? (unsigned)o->nfield_specs : o->fields, o->malloc_name);
	if (s->other)
		cell_name_with(c->name, sizeof(c->name), s->other->role == ROLE_IDLE ? "idle" : "busy",
			       s->other->lib.label);
	if (o->per_event) /* the fields= above are the event's K */
		snprintf(c->name + strlen(c->name), sizeof(c->name) - strlen(c->name), "/host-calls=%s",
			 host_calls_name(o->host_calls));
	snprintf(c->scenario, sizeof(c->scenario), "%s", scenario_name(r->scenario));
	/* the kind of library; the cell's name says which files */
	snprintf(c->lib, sizeof(c->lib), "%.15s", s->libs == &s->builtin ? libname : "loaded");
	snprintf(c->library, sizeof(c->library), "%s", lib->file[0] ? lib->file : lib->path);
	snprintf(c->executable, sizeof(c->executable), "%s", executable);
	snprintf(c->go_version, sizeof(c->go_version), "%s", lib->go_version[0] ? lib->go_version : "none");
	snprintf(c->sdk_version, sizeof(c->sdk_version), "%s", lib->sdk_version[0] ? lib->sdk_version : "none");
	c->gomaxprocs = PROBE_KNOWN(&r->plugins[0].before, PROBE_GOMAXPROCS) ? (int)r->plugins[0].before.gomaxprocs : 0;
	c->max_handle = lib->max_instances;
	c->mode_verified = strcmp(effect, "unknown") != 0;
	snprintf(c->verified_by, sizeof(c->verified_by), "%s",
		 !c->mode_verified	      ? ""
		 : r->plugins[0].mode_by_slot ? "sdk-state"
					      : "probes");
	snprintf(c->unverifiable, sizeof(c->unverifiable), "%s", c->mode_verified ? "" : r->plugins[0].mode_why);
	c->by_plugin_config = o->plugin_config != NULL && r->plugins[0].mode_by_slot;
	snprintf(c->requested, sizeof(c->requested), "%s", o->async ? "async" : "sync");
	snprintf(c->in_effect, sizeof(c->in_effect), "%s", effect);
	snprintf(c->reason, sizeof(c->reason), "%s", reason ? reason : "");
	c->stalled_launches_rerun = -1;
}

int record_minimal(struct doc *d, const char *out, const struct options *o, int async, const char *exe)
{
	unsigned long long ns, n;
	double per;
	char requested[MODE_NAME_MAX], effect[MODE_NAME_MAX];
	const char *mode = strstr(out, "\n# mode: "), *built = strstr(out, "\n# built: "), *base = strrchr(exe, '/'),
		   *slot = strstr(out, "\n# async slot: ");
	char go[64], sdk[64];
	/* bench-textbook's cell is its own (paired, on a pthread); the rest are bench-minimal's */
	const char *driver = strcmp(base ? base + 1 : exe, "bench-textbook") == 0 ? "textbook" : "minimal";
	struct cell_rec *c;
	struct launch_rec *l;
	struct caller_rec *p;

	doc_begin(d, NULL, o);
	if (sscanf(out, "plugin 1: %lf ns/extraction (elapsed time %lluns, extractions %llu)", &per, &ns, &n) != 3 ||
	    mode == NULL || sscanf(mode, "\n# mode: %15s requested, %15s in effect", requested, effect) != 2 || n == 0)
		return -1;
	c = model_append((void **)&d->cells, &d->ncells, sizeof(*d->cells));
	if (c == NULL || (c->launches = l = calloc(1, sizeof(*l))) == NULL ||
	    (l->callers = p = calloc(1, sizeof(*p))) == NULL || (p->batches = calloc(1, sizeof(*p->batches))) == NULL) {
		doc_free(d);
		return -1;
	}
	c->nlaunches = l->ncallers = p->nbatches = 1;
	cell_name(c->name, sizeof(c->name), "archive", async, effect, "extract", "bare", 1, 1, NULL);
	snprintf(c->name + strlen(c->name), sizeof(c->name) - strlen(c->name), "/driver=%s", driver);
	snprintf(c->scenario, sizeof(c->scenario), "extract");
	snprintf(c->allocator, sizeof(c->allocator), "unknown");
	snprintf(c->allocator_path, sizeof(c->allocator_path), "not measured by the minimal driver");
	snprintf(c->lib, sizeof(c->lib), "archive");
	snprintf(c->executable, sizeof(c->executable), "%s", exe);
	/* "# built: go1.26.8, plugin-sdk-go v0.8.3": the mock's own report
	 * (a driver built before it printed none) */
	snprintf(c->go_version, sizeof(c->go_version), "unknown");
	snprintf(c->sdk_version, sizeof(c->sdk_version), "unknown");
	if (built != NULL && sscanf(built, "\n# built: %63[^,\n], plugin-sdk-go %63[^ \n]", go, sdk) == 2 &&
	    strncmp(go, "go", 2) == 0) {
		snprintf(c->go_version, sizeof(c->go_version), "%s", go);
		snprintf(c->sdk_version, sizeof(c->sdk_version), "%s", sdk);
	}
	snprintf(c->requested, sizeof(c->requested), "%s", async ? "async" : "sync");
	snprintf(c->in_effect, sizeof(c->in_effect), "%s", effect);
	c->stalled_launches_rerun = -1;
	*p = (struct caller_rec){ .index = 1,
				  .elapsed_ns = ns,
				  .extractions = n,
				  .ns_per_extraction = (double)ns / (double)n,
				  .median_batch_ns = (double)ns / (double)n,
				  .slowest_batch_ns = (double)ns / (double)n,
				  .batches = p->batches,
				  .nbatches = 1,
				  .pinned_cpu = -1,
				  .migrations = -1,
				  .async_in_effect = strcmp(effect, "async") == 0 };
	p->batches[0] = (struct batch_rec){ ns, n };
	/* "# async slot: 32 bytes into a 64-byte cache line, 2 lines", or
	 * "not found: why" (bench-textbook's; a driver built before it, none) */
	if (slot != NULL && p->async_in_effect) {
		p->has_async_slot = 1;
		if (sscanf(slot, "\n# async slot: %u bytes into a %u-byte cache line, %u line", &p->slot_line_offset,
			   &p->slot_line_bytes, &p->slot_lines) != 3 ||
		    p->slot_line_bytes == 0) {
			p->slot_line_bytes = p->slot_line_offset = p->slot_lines = 0;
			sscanf(slot, "\n# async slot: not found: %159[^\n]", p->slot_why);
			if (p->slot_why[0] == '\0')
				snprintf(p->slot_why, sizeof(p->slot_why), "the textbook loop said nothing readable");
		}
	}
	l->ns_per_extraction = p->ns_per_extraction;
	l->wall_ns = ns;
	l->cpu_ns_per_extraction = l->callers_cpu_ns_per_extraction = l->other_cpu_ns_per_extraction = NAN;
	l->steal_ns = l->switches_per_1000 = NAN;
	l->pool_waits = -1;
	snprintf(l->mode_in_effect, sizeof(l->mode_in_effect), "%s", effect);
	return 0;
}

/* What a caller's and a cell's latency records share. */
static void latency_head(struct latency_rec *l, const struct options *o)
{
	int gap = o->rate <= 0;

	snprintf(l->load, sizeof(l->load), "%s", gap ? "gap" : "rate");
	snprintf(l->arrival, sizeof(l->arrival), "%s", gap ? "" : o->arrival == ARRIVAL_POISSON ? "poisson" : "even");
	l->requested_rate = gap ? NAN : o->rate;
	l->gap_us = gap ? (double)o->gaps_us[0] : NAN;
	l->seed = o->seed;
	l->cpu_ns_per_event = NAN;
}

int record_latency(struct cell_rec *c, struct launch_rec *l, const struct run *r, const struct options *o)
{
	uint64_t total = 0, at = 0, first = UINT64_MAX, last = 0, *all;
	size_t len = strlen(c->name);

	for (uint32_t i = 0; i < r->nplugins; i++)
		total += r->plugins[i].nlatencies;
	if ((all = malloc((total ? total : 1) * sizeof(*all))) == NULL)
		return -1;
	for (uint32_t i = 0; i < r->nplugins; i++) {
		const struct plugin_run *p = &r->plugins[i];
		struct caller_rec *cr = &l->callers[i];
		memcpy(all + at, p->latencies, p->nlatencies * sizeof(*all));
		cr->has_latency = 1;
		latency_head(&cr->latency, o);
		cr->latency.achieved_rate = schedule_achieved_rate(p->nlatencies, p->open_start_ns, p->open_end_ns);
		latency_summarize(all + at, p->nlatencies, &cr->latency.s);
		at += p->nlatencies;
		if (p->open_start_ns < first)
			first = p->open_start_ns;
		if (p->open_end_ns > last)
			last = p->open_end_ns;
	}
	c->has_latency = 1;
	latency_head(&c->latency, o);
	c->latency.achieved_rate = schedule_achieved_rate(total, first, last) / (double)r->nplugins;
	latency_summarize(all, total, &c->latency.s);
	c->latency.cpu_ns_per_event = l->cpu_ns_per_extraction;
	free(all);
	if (o->rate > 0)
		snprintf(c->name + len, sizeof(c->name) - len, "/rate=%g", o->rate);
	else
		snprintf(c->name + len, sizeof(c->name) - len, "/gap-us=%llu", (unsigned long long)o->gaps_us[0]);
	return 0;
}
