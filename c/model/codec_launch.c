/* model/codec_launch.c — the field lists of the records one launch
 * measures: the machine, floors, batches, callers and their threads,
 * latencies, allocations, plugin libraries and the launch itself. Each
 * record's keys are spelled once, in its x_fields function. */
#include "model/codec_launch.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A list of CPU numbers, at most max; -1 in *n writes null (unknown). */
static void cpu_list(struct obj *o, const char *key, int *cpus, int *n, int max)
{
	json_t *j, *e;
	size_t k;

	if (o->c->dir == WRITE) {
		j = *n < 0 ? json_null() : json_array();
		for (int i = 0; i < *n; i++)
			json_array_append_new(j, json_integer(cpus[i]));
		codec_put(o, key, j);
		return;
	}
	if (o->c->dir != READ || (j = codec_get(o, key, 1)) == NULL)
		return;
	*n = -1;
	if (json_is_null(j))
		return;
	if (!json_is_array(j) || json_array_size(j) > (size_t)max) {
		codec_wrong(o, key, "a list of CPU numbers or null");
		return;
	}
	*n = 0;
	json_array_foreach (j, k, e) {
		if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > INT_MAX) {
			codec_wrong(o, key, "a list of CPU numbers or null");
			*n = -1;
			return;
		}
		cpus[(*n)++] = (int)json_integer_value(e);
	}
}

static void worker_topology_fields(struct obj *o, void *rec)
{
	struct machine_rec *m = rec;
	f_int(o, "caller_cpu", &m->caller_cpu);
	f_int(o, "worker_cpu", &m->worker_cpu);
	f_str(o, "class", m->worker_class);
}

static void worker_side_fields(struct obj *o, void *rec)
{
	struct worker_side_rec *w = rec;
	f_int(o, "cpu", &w->cpu);
	cpu_list(o, "allowed_cpus", w->allowed, &w->nallowed, WORKER_CPUS_MAX);
	cpu_list(o, "ran_on", w->ran_on, &w->nran_on, WORKER_CPUS_MAX);
	if (o->c->dir == READ && w->nran_on < 0)
		w->nran_on = 0;
}

static void workers_seen_fields(struct obj *o, void *rec)
{
	struct workers_seen_rec *w = rec;
	f_u32(o, "callers", &w->callers);
	f_u32(o, "goroutines", &w->goroutines);
	cpu_list(o, "cpus", w->cpus, &w->ncpus, WORKER_CPUS_MAX);
	if (o->c->dir == READ && w->ncpus < 0)
		w->ncpus = 0;
}

static void machine_fields(struct obj *o, void *rec)
{
	struct machine_rec *m = rec;
	f_str(o, "cpu_model", m->cpu_model);
	f_int(o, "online_cpus", &m->online_cpus);
	f_int(o, "allowed_cpus", &m->allowed_cpus);
	f_str(o, "kernel", m->kernel);
	f_str(o, "arch", m->arch);
	if (f_opt(o, "worker_topology", &m->has_worker))
		f_sub(o, "worker_topology", worker_topology_fields, m, NULL);
}

/* [cpu_a, cpu_b] of the round trip, or null. */
static void handoff_cpus(struct obj *o, int cpus[2])
{
	json_t *j;
	if (o->c->dir == WRITE)
		codec_put(o, "handoff_cpus", cpus[0] < 0 ? json_null() : json_pack("[i, i]", cpus[0], cpus[1]));
	else if (o->c->dir == READ && (j = codec_get(o, "handoff_cpus", 1)) != NULL) {
		cpus[0] = cpus[1] = -1;
		if (json_is_null(j))
			return;
		if (json_array_size(j) != 2 || !json_is_integer(json_array_get(j, 0)) ||
		    !json_is_integer(json_array_get(j, 1))) {
			codec_wrong(o, "handoff_cpus", "two CPU numbers or null");
			return;
		}
		cpus[0] = (int)json_integer_value(json_array_get(j, 0));
		cpus[1] = (int)json_integer_value(json_array_get(j, 1));
	}
}

/* The reference handoff's keys: absent from documents written before it
 * existed, which read back as not measured. */
static void ref_fields(struct obj *o, struct floors_rec *f)
{
	int have = 1;
	if (f_opt(o, "ref_bare_ns", &have)) {
		f_num(o, "ref_bare_ns", &f->ref_bare_ns);
		f_num(o, "ref_event_ns", &f->ref_event_ns);
		f_num(o, "ref_result_ns", &f->ref_result_ns);
		f_num(o, "ref_wake_ns", &f->ref_wake_ns);
	} else if (o->c->dir == READ) {
		f->ref_bare_ns = f->ref_event_ns = f->ref_result_ns = f->ref_wake_ns = NAN;
	}
}

static void min_max_fields(struct obj *o, void *rec)
{
	struct floor_spread *sp = rec;
	f_num(o, "min_ns", &sp->min_ns);
	f_num(o, "max_ns", &sp->max_ns);
}

/* "spread": {"batches": B, "c_call": {"min_ns", "max_ns"} or null, ...}. */
static void spread_fields(struct obj *o, void *rec)
{
	struct floors_rec *f = rec;
	f_u32(o, "batches", &f->spread_batches);
	for (int k = 0; k < FLOOR_KINDS; k++) {
		int present = !isnan(f->spread[k].min_ns);
		f_sub(o, floor_kind_key((enum floor_kind)k), min_max_fields, &f->spread[k], &present);
		if (o->c->dir == READ && !present)
			f->spread[k].min_ns = f->spread[k].max_ns = NAN;
	}
}

/* The checks' keys (spread, ref_wakeups, and the rejected attempts):
 * absent from documents written before them, which read back as no spread
 * and an unknown wake-up count. */
static void spread_keys(struct obj *o, struct floors_rec *f)
{
	if (f_opt(o, "spread", &f->has_spread)) {
		f_sub(o, "spread", spread_fields, f, NULL);
		f_i64n(o, "ref_dropped_batches", &f->ref_dropped_batches);
		f_i64n(o, "ref_wakeups", &f->ref_wakeups);
		int has_rt = 1; /* always written; absent from older documents */
		if (f_opt(o, "handoff_dropped_batches", &has_rt))
			f_i64n(o, "handoff_dropped_batches", &f->handoff_dropped_batches);
		else if (o->c->dir == READ)
			f->handoff_dropped_batches = -1;
	} else if (o->c->dir == READ) {
		for (int k = 0; k < FLOOR_KINDS; k++)
			f->spread[k].min_ns = f->spread[k].max_ns = NAN;
		f->spread_batches = 0;
		f->ref_dropped_batches = f->ref_wakeups = f->handoff_dropped_batches = -1;
	}
}

static void reject_fields(struct obj *o, void *rec)
{
	struct floor_reject *r = rec;
	char key[16];

	snprintf(key, sizeof(key), "%s", floor_kind_key((enum floor_kind)r->kind));
	f_str(o, "floor", key);
	if (o->c->dir == READ) {
		r->kind = -1;
		for (int k = 0; k < FLOOR_KINDS; k++)
			if (strcmp(key, floor_kind_key((enum floor_kind)k)) == 0)
				r->kind = k;
		if (r->kind < 0 && !o->c->bad)
			codec_wrong(o, "floor", "the name of a floor");
	}
	f_u64(o, "wakeups", &r->wakeups);
	f_str(o, "reason", r->reason);
}

/* A launch's rejected attempts: a fixed array, at most FLOOR_REJECTS_MAX. */
static void rejected_list(struct obj *o, struct floors_rec *f)
{
	json_t *a;
	size_t at;

	if (o->c->dir == WRITE) {
		a = json_array();
		for (uint32_t i = 0; i < f->nrejected; i++) {
			json_t *j = json_object();
			codec_visit(o->c, j, reject_fields, &f->rejected[i]);
			json_array_append_new(a, j);
		}
		codec_put(o, "rejected", a);
		return;
	}
	if (o->c->dir != READ || (a = codec_get(o, "rejected", 1)) == NULL)
		return;
	if (!json_is_array(a) || json_array_size(a) > FLOOR_REJECTS_MAX) {
		codec_wrong(o, "rejected", "an array of at most 9 rejected attempts");
		return;
	}
	f->nrejected = (uint32_t)json_array_size(a);
	for (size_t i = 0; i < json_array_size(a) && !o->c->bad; i++) {
		json_t *j = json_array_get(a, i);
		at = codec_path_push(o->c, "rejected", -1);
		size_t at2 = codec_path_push(o->c, NULL, (long)i);
		if (!json_is_object(j))
			codec_failf(o->c, "not an object");
		else
			codec_visit(o->c, j, reject_fields, &f->rejected[i]);
		codec_path_pop(o->c, at2);
		codec_path_pop(o->c, at);
	}
}

static void floors_common(struct obj *o, struct floors_rec *f, int launch)
{
	f_num(o, "c_call_ns", &f->c_call_ns);
	f_num(o, "go_raw_ns", &f->go_raw_ns);
	f_real(o, "go_raw_cold_ns", &f->go_raw_cold_ns, launch);
	f_num(o, "handoff_ns", &f->handoff_ns);
	handoff_cpus(o, f->handoff_cpus);
	ref_fields(o, f);
	spread_keys(o, f);
}

/* A launch's floors say why the round trip was not measured, and which
 * attempts their checks rejected. */
static void launch_floors_fields(struct obj *o, void *rec)
{
	struct floors_rec *f = rec;
	floors_common(o, f, 1);
	f_strn(o, "handoff_why", f->handoff_why);
	int have = f->has_spread;
	if (f_opt(o, "rejected", &have))
		rejected_list(o, f);
	else if (o->c->dir == READ)
		f->nrejected = 0;
}

/* A cell's floors count the rejected attempts of its launches. */
static void cell_floors_fields(struct obj *o, void *rec)
{
	struct floors_rec *f = rec;
	floors_common(o, f, 0);
	int have = f->has_spread;
	if (f_opt(o, "rejected_attempts", &have))
		f_u32(o, "rejected_attempts", &f->nrejected);
	else if (o->c->dir == READ)
		f->nrejected = 0;
}

static void batch_fields(struct obj *o, void *rec)
{
	struct batch_rec *b = rec;
	f_u64(o, "ns", &b->ns);
	f_u64(o, "ops", &b->ops);
}

static void caller_thread_fields(struct obj *o, void *rec)
{
	struct caller_rec *p = rec;
	int64_t tid = p->tid;
	f_i64n(o, "tid", &tid);
	p->tid = tid;
	f_int(o, "cpu_first", &p->cpu_first);
	f_int(o, "cpu_last", &p->cpu_last);
	f_i64n(o, "pinned_cpu", &p->pinned_cpu);
}

static void extract_thread_fields(struct obj *o, void *rec)
{
	struct caller_rec *p = rec;
	f_u64(o, "tid", &p->extract_tid);
	f_u64(o, "cpu", &p->extract_cpu);
	if (f_opt(o, "goroutine", &p->has_goroutine))
		f_u64(o, "goroutine", &p->extract_goroutine);
}

static void noise_fields(struct obj *o, void *rec)
{
	struct caller_rec *p = rec;
	f_u64(o, "thread_cpu_ns", &p->thread_cpu_ns);
	f_u64(o, "voluntary_switches", &p->vol_switches);
	f_u64(o, "involuntary_switches", &p->invol_switches);
	f_i64n(o, "migrations", &p->migrations);
}

static void latency_fields(struct obj *o, void *rec)
{
	struct latency_rec *l = rec;
	f_str(o, "load", l->load);
	f_strn(o, "arrival", l->arrival);
	f_num(o, "requested_rate", &l->requested_rate);
	f_num(o, "gap_us", &l->gap_us);
	f_u64(o, "seed", &l->seed);
	f_num(o, "achieved_rate", &l->achieved_rate);
	f_u64(o, "requests", &l->s.n);
	f_num(o, "p50_ns", &l->s.p50);
	f_num(o, "p90_ns", &l->s.p90);
	f_num(o, "p99_ns", &l->s.p99);
	f_num(o, "p99_9_ns", &l->s.p999);
	f_num(o, "max_ns", &l->s.max);
	f_num(o, "mean_ns", &l->s.mean);
	f_u64(o, "over_1ms", &l->s.over_1ms);
	f_num(o, "cpu_ns_per_event", &l->cpu_ns_per_event);
}

/* The SDK's async slot: where it lay, or why that is unknown. */
static void async_slot_fields(struct obj *o, void *rec)
{
	struct caller_rec *p = rec;
	f_u32(o, "line_bytes", &p->slot_line_bytes);
	f_u32(o, "line_offset", &p->slot_line_offset);
	f_u32(o, "lines", &p->slot_lines);
	f_text(o, "why", p->slot_why, sizeof(p->slot_why), 1);
}

static void caller_fields(struct obj *o, void *rec)
{
	struct caller_rec *p = rec;
	f_u32(o, "index", &p->index);
	f_u64(o, "elapsed_ns", &p->elapsed_ns);
	f_u64(o, "extractions", &p->extractions);
	f_num(o, "ns_per_extraction", &p->ns_per_extraction);
	f_num(o, "median_batch_ns_per_extraction", &p->median_batch_ns);
	f_num(o, "slowest_batch_ns_per_extraction", &p->slowest_batch_ns);
	f_u32(o, "stalled_batches", &p->stalled_batches);
	f_list(o, "batches", &p->batches, &p->nbatches, batch_fields);
	f_u64(o, "cold_ns", &p->cold_ns);
	f_sub(o, "caller", caller_thread_fields, p, NULL);
	f_sub(o, "extract_thread", extract_thread_fields, p, NULL);
	f_bool(o, "async_in_effect", &p->async_in_effect);
	if (f_opt(o, "async_slot", &p->has_async_slot))
		f_sub(o, "async_slot", async_slot_fields, p, NULL);
	f_sub(o, "noise", noise_fields, p, NULL);
	if (f_opt(o, "latency", &p->has_latency))
		f_sub(o, "latency", latency_fields, &p->latency, NULL);
}

static void c_allocs_fields(struct obj *o, void *rec)
{
	struct c_allocs_rec *a = rec;
	f_u64(o, "mallocs", &a->mallocs);
	f_u64(o, "frees", &a->frees);
	f_num(o, "mallocs_per_iteration", &a->mallocs_per_iteration);
	f_num(o, "frees_per_iteration", &a->frees_per_iteration);
}

static void load_fields(struct obj *o, void *rec)
{
	struct library_rec *l = rec;
	f_u64(o, "ns", &l->load_ns);
	f_i64n(o, "rss_before_kb", &l->rss_before_kb);
	f_i64n(o, "rss_after_kb", &l->rss_after_kb);
	f_i64n(o, "threads_before", &l->threads_before);
	f_i64n(o, "threads_after", &l->threads_after);
}

static void library_fields(struct obj *o, void *rec)
{
	struct library_rec *l = rec;
	f_str(o, "path", l->path);
	f_str(o, "role", l->role);
	f_bool(o, "go_runtime", &l->go_runtime);
	f_strn(o, "go_version", l->go_version);
	f_str(o, "api_version", l->api_version);
	f_u32(o, "plugin_id", &l->plugin_id);
	f_str(o, "event_source", l->event_source);
	f_u32(o, "fields_declared", &l->fields_declared);
	f_int(o, "max_instances", &l->max_instances);
	f_bool(o, "max_instances_from_plugin", &l->max_from_plugin);
	f_bool(o, "probe_fields", &l->probe_fields);
	f_sub(o, "load", load_fields, l, &l->has_load);
	f_u64(o, "extractions", &l->extractions);
}

static void per_event_fields(struct obj *o, void *rec)
{
	struct per_event_rec *p = rec;
	f_u32(o, "fields", &p->fields);
	f_str(o, "host_calls", p->host_calls);
	f_num(o, "ns_per_event", &p->ns_per_event);
	f_num(o, "ns_per_field", &p->ns_per_field);
	f_num(o, "calls_per_event", &p->calls_per_event);
}

static void launch_fields(struct obj *o, void *rec)
{
	struct launch_rec *l = rec;
	int reuse = l->pool_waits >= 0, runtimes = l->go_runtimes >= 0, libs = l->libraries != NULL;

	f_list(o, "plugins", &l->callers, &l->ncallers, caller_fields);
	f_num(o, "ns_per_extraction", &l->ns_per_extraction);
	f_u64(o, "wall_ns", &l->wall_ns);
	f_u64(o, "process_cpu_ns", &l->process_cpu_ns);
	f_num(o, "cpu_ns_per_extraction", &l->cpu_ns_per_extraction);
	f_num(o, "callers_cpu_ns_per_extraction", &l->callers_cpu_ns_per_extraction);
	f_num(o, "other_cpu_ns_per_extraction", &l->other_cpu_ns_per_extraction);
	f_num(o, "steal_ns", &l->steal_ns);
	f_num(o, "switches_per_1000", &l->switches_per_1000);
	f_u64(o, "go_allocs", &l->go_allocs);
	f_u64(o, "go_alloc_bytes", &l->go_alloc_bytes);
	f_u64(o, "async_workers", &l->async_workers);
	f_str(o, "mode_in_effect", l->mode_in_effect);
	f_strn(o, "async_reason", l->async_reason);
	f_sub(o, "floors", launch_floors_fields, &l->floors, &l->has_floors);
	f_sub(o, "c_allocs", c_allocs_fields, &l->c_allocs, &l->c_allocs.counted);
	if (f_opt(o, "pool_waits", &reuse))
		f_i64n(o, "pool_waits", &l->pool_waits);
	else if (o->c->dir == READ)
		l->pool_waits = -1;
	if (f_opt(o, "go_runtimes", &runtimes))
		f_int(o, "go_runtimes", &l->go_runtimes);
	else if (o->c->dir == READ)
		l->go_runtimes = -1;
	if (f_opt(o, "libraries", &libs))
		f_list(o, "libraries", &l->libraries, &l->nlibraries, library_fields);
	if (f_opt(o, "per_event", &l->has_per_event))
		f_sub(o, "per_event", per_event_fields, &l->per_event, NULL);
	if (f_opt(o, "worker_side", &l->has_worker_side))
		f_sub(o, "worker_side", worker_side_fields, &l->worker_side, NULL);
	if (f_opt(o, "async_workers_seen", &l->has_workers_seen))
		f_sub(o, "async_workers_seen", workers_seen_fields, &l->workers_seen, NULL);
}

/* The field lists the document's other records nest. */
const visit_fn codec_machine_fields = machine_fields;
const visit_fn codec_cell_floors_fields = cell_floors_fields;
const visit_fn codec_latency_fields = latency_fields;
const visit_fn codec_library_fields = library_fields;
const visit_fn codec_launch_fields = launch_fields;
