/* model/codec.c — see codec.h. Each record has one function that lists its
 * fields once; a direction says whether that list writes, reads or frees. */
#include "model/codec.h"
#include "model/codec_options.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum dir { WRITE, READ, FREE };

struct codec {
	enum dir dir;
	char *err;
	size_t errlen;
	int bad;
	char path[512]; /* where the reader is, for messages */
};

/* One JSON object being written or read. */
struct obj {
	struct codec *c;
	json_t *j;
	const char *seen[48];
	int nseen;
};

static void failf(struct codec *c, const char *fmt, ...)
{
	va_list ap;
	char msg[256];

	if (c->bad)
		return;
	c->bad = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s%s%s", c->path, c->path[0] ? ": " : "", msg);
}

/* path += ".key" or "[i]" for the duration of a nested visit. */
static size_t path_push(struct codec *c, const char *key, long index)
{
	size_t len = strlen(c->path);
	if (c->dir != READ)
		return len;
	if (index >= 0)
		snprintf(c->path + len, sizeof(c->path) - len, "[%ld]", index);
	else
		snprintf(c->path + len, sizeof(c->path) - len, "%s%s", len ? "." : "", key);
	return len;
}

static void path_pop(struct codec *c, size_t len)
{
	if (c->dir == READ && !c->bad)
		c->path[len] = '\0';
}

/* READ: the value at key (NULL and an error when absent and required). */
static json_t *get(struct obj *o, const char *key, int required)
{
	json_t *v = json_object_get(o->j, key);
	if (v == NULL) {
		if (required) {
			size_t at = path_push(o->c, key, -1);
			failf(o->c, "missing");
			path_pop(o->c, at);
		}
		return NULL;
	}
	for (int i = 0; i < o->nseen; i++)
		if (o->seen[i] == key || strcmp(o->seen[i], key) == 0)
			return v; /* an optional key, asked for twice */
	if (o->nseen < (int)(sizeof(o->seen) / sizeof(o->seen[0])))
		o->seen[o->nseen++] = key;
	return v;
}

static void put(struct obj *o, const char *key, json_t *v)
{
	json_object_set_new(o->j, key, v ? v : json_null());
}

static void wrong(struct obj *o, const char *key, const char *want)
{
	size_t at = path_push(o->c, key, -1);
	failf(o->c, "not %s", want);
	path_pop(o->c, at);
}

/* READ: every key of the object was visited. */
static void close_obj(struct obj *o)
{
	const char *key;
	json_t *v;

	if (o->c->dir != READ || o->c->bad || (int)json_object_size(o->j) == o->nseen)
		return;
	json_object_foreach (o->j, key, v) {
		int known = 0;
		for (int i = 0; i < o->nseen && !known; i++)
			known = strcmp(o->seen[i], key) == 0;
		if (!known) {
			size_t at = path_push(o->c, key, -1);
			failf(o->c, "unknown key");
			path_pop(o->c, at);
			return;
		}
	}
}

static void f_u64(struct obj *o, const char *key, uint64_t *v)
{
	json_t *j;
	if (o->c->dir == WRITE)
		put(o, key, json_integer((json_int_t)*v));
	else if (o->c->dir == READ && (j = get(o, key, 1)) != NULL) {
		if (!json_is_integer(j) || json_integer_value(j) < 0)
			wrong(o, key, "a whole number >= 0");
		else
			*v = (uint64_t)json_integer_value(j);
	}
}

static void f_u32(struct obj *o, const char *key, uint32_t *v)
{
	uint64_t x = *v;
	f_u64(o, key, &x);
	*v = (uint32_t)x;
}

static void f_int(struct obj *o, const char *key, int *v)
{
	json_t *j;
	if (o->c->dir == WRITE)
		put(o, key, json_integer(*v));
	else if (o->c->dir == READ && (j = get(o, key, 1)) != NULL) {
		if (!json_is_integer(j))
			wrong(o, key, "a whole number");
		else
			*v = (int)json_integer_value(j);
	}
}

/* An integer that may be unknown: -1 <-> null. */
static void f_i64n(struct obj *o, const char *key, int64_t *v)
{
	json_t *j;
	if (o->c->dir == WRITE)
		put(o, key, *v < 0 ? json_null() : json_integer((json_int_t)*v));
	else if (o->c->dir == READ && (j = get(o, key, 1)) != NULL) {
		if (json_is_null(j))
			*v = -1;
		else if (!json_is_integer(j) || json_integer_value(j) < 0)
			wrong(o, key, "a whole number >= 0 or null");
		else
			*v = (int64_t)json_integer_value(j);
	}
}

/* A real; undefined (NAN) <-> null. as_int writes a whole number. */
static void num(struct obj *o, const char *key, double *v, int as_int)
{
	json_t *j;
	if (o->c->dir == WRITE)
		put(o, key, !isfinite(*v) ? json_null() : as_int ? json_integer((json_int_t)*v) : json_real(*v));
	else if (o->c->dir == READ && (j = get(o, key, 1)) != NULL) {
		if (json_is_null(j))
			*v = NAN;
		else if (!json_is_number(j))
			wrong(o, key, "a number or null");
		else
			*v = json_number_value(j);
	}
}

static void f_num(struct obj *o, const char *key, double *v)
{
	num(o, key, v, 0);
}

static void f_bool(struct obj *o, const char *key, int *v)
{
	json_t *j;
	if (o->c->dir == WRITE)
		put(o, key, json_boolean(*v));
	else if (o->c->dir == READ && (j = get(o, key, 1)) != NULL) {
		if (!json_is_boolean(j))
			wrong(o, key, "true or false");
		else
			*v = json_is_true(j);
	}
}

/* A string into a buffer; nullable: "" <-> null. */
static void str(struct obj *o, const char *key, char *buf, size_t len, int nullable)
{
	json_t *j;
	if (o->c->dir == WRITE)
		put(o, key, nullable && buf[0] == '\0' ? json_null() : json_string(buf));
	else if (o->c->dir == READ && (j = get(o, key, 1)) != NULL) {
		if (nullable && json_is_null(j))
			buf[0] = '\0';
		else if (!json_is_string(j))
			wrong(o, key, nullable ? "a string or null" : "a string");
		else if (json_string_length(j) >= len)
			wrong(o, key, "a string of a sensible length");
		else
			snprintf(buf, len, "%s", json_string_value(j));
	}
}

#define f_str(o, key, buf)  str(o, key, buf, sizeof(buf), 0)
#define f_strn(o, key, buf) str(o, key, buf, sizeof(buf), 1)

/* A key that only some records have. WRITE: whether to write it (*present);
 * READ: whether it is there (sets *present). FREE: *present. */
static int f_opt(struct obj *o, const char *key, int *present)
{
	if (o->c->dir == READ)
		*present = get(o, key, 0) != NULL;
	return *present;
}

typedef void (*visit_fn)(struct obj *o, void *rec);

static void visit(struct codec *c, json_t *j, visit_fn fn, void *rec)
{
	struct obj o = { .c = c, .j = j };
	fn(&o, rec);
	close_obj(&o);
}

/* A nested object; nullable: *present 0 <-> null. */
static void sub(struct obj *o, const char *key, visit_fn fn, void *rec, int *present)
{
	json_t *j;
	size_t at;

	if (o->c->dir == FREE) {
		if (present == NULL || *present)
			visit(o->c, NULL, fn, rec);
		return;
	}
	if (o->c->dir == WRITE) {
		if (present && !*present) {
			put(o, key, json_null());
			return;
		}
		j = json_object();
		visit(o->c, j, fn, rec);
		put(o, key, j);
		return;
	}
	if ((j = get(o, key, 1)) == NULL)
		return;
	if (present && json_is_null(j)) {
		*present = 0;
		return;
	}
	if (!json_is_object(j)) {
		wrong(o, key, present ? "an object or null" : "an object");
		return;
	}
	if (present)
		*present = 1;
	at = path_push(o->c, key, -1);
	visit(o->c, j, fn, rec);
	path_pop(o->c, at);
}

/* An array of records of size bytes each, malloc'd. */
static void list(struct obj *o, const char *key, void **items, size_t *n, size_t size, visit_fn fn)
{
	json_t *j, *a;
	size_t i, at;

	if (o->c->dir == FREE) {
		for (i = 0; i < *n; i++)
			visit(o->c, NULL, fn, (char *)*items + i * size);
		free(*items);
		*items = NULL;
		*n = 0;
		return;
	}
	if (o->c->dir == WRITE) {
		a = json_array();
		for (i = 0; i < *n; i++) {
			j = json_object();
			visit(o->c, j, fn, (char *)*items + i * size);
			json_array_append_new(a, j);
		}
		put(o, key, a);
		return;
	}
	if ((a = get(o, key, 1)) == NULL)
		return;
	if (!json_is_array(a)) {
		wrong(o, key, "an array");
		return;
	}
	*items = calloc(json_array_size(a) + 1, size);
	if (*items == NULL) {
		failf(o->c, "out of memory");
		return;
	}
	at = path_push(o->c, key, -1);
	json_array_foreach (a, i, j) {
		size_t at2 = path_push(o->c, "", (long)i);
		*n = i + 1;
		if (!json_is_object(j))
			failf(o->c, "not an object");
		else
			visit(o->c, j, fn, (char *)*items + i * size);
		path_pop(o->c, at2);
		if (o->c->bad)
			break;
	}
	path_pop(o->c, at);
}

#define f_list(o, key, items, n, fn) list(o, key, (void **)(items), n, sizeof(**(items)), fn)

/* An array of numbers (null for an undefined one), malloc'd. */
static void f_nums(struct obj *o, const char *key, double **x, size_t *n)
{
	json_t *a, *v;
	size_t i;

	if (o->c->dir == FREE) {
		free(*x);
		*x = NULL;
		*n = 0;
	} else if (o->c->dir == WRITE) {
		a = json_array();
		for (i = 0; i < *n; i++)
			json_array_append_new(a, isfinite((*x)[i]) ? json_real((*x)[i]) : json_null());
		put(o, key, a);
	} else if ((a = get(o, key, 1)) != NULL) {
		if (!json_is_array(a)) {
			wrong(o, key, "an array of numbers");
			return;
		}
		*x = malloc((json_array_size(a) + 1) * sizeof(double));
		if (*x == NULL) {
			failf(o->c, "out of memory");
			return;
		}
		json_array_foreach (a, i, v) {
			if (!json_is_number(v) && !json_is_null(v)) {
				wrong(o, key, "an array of numbers");
				return;
			}
			(*x)[i] = json_is_null(v) ? NAN : json_number_value(v);
			*n = i + 1;
		}
	}
}

/* --- the records ------------------------------------------------------- */

static void machine_fields(struct obj *o, void *rec)
{
	struct machine_rec *m = rec;
	f_str(o, "cpu_model", m->cpu_model);
	f_int(o, "online_cpus", &m->online_cpus);
	f_int(o, "allowed_cpus", &m->allowed_cpus);
	f_str(o, "kernel", m->kernel);
	f_str(o, "arch", m->arch);
}

static void options_field(struct obj *o, const char *key, struct options *opt)
{
	json_t *j;
	size_t at;

	if (o->c->dir == WRITE)
		put(o, key, options_to_json(opt));
	else if (o->c->dir == READ && (j = get(o, key, 1)) != NULL) {
		char msg[256];
		if (options_from_json(opt, j, msg, sizeof(msg)) != 0) {
			at = path_push(o->c, "", -1);
			failf(o->c, "%s", msg);
			path_pop(o->c, at);
		}
	}
}

/* [cpu_a, cpu_b] of the round trip, or null. */
static void handoff_cpus(struct obj *o, int cpus[2])
{
	json_t *j;
	if (o->c->dir == WRITE)
		put(o, "handoff_cpus", cpus[0] < 0 ? json_null() : json_pack("[i, i]", cpus[0], cpus[1]));
	else if (o->c->dir == READ && (j = get(o, "handoff_cpus", 1)) != NULL) {
		cpus[0] = cpus[1] = -1;
		if (json_is_null(j))
			return;
		if (json_array_size(j) != 2 || !json_is_integer(json_array_get(j, 0)) ||
		    !json_is_integer(json_array_get(j, 1))) {
			wrong(o, "handoff_cpus", "two CPU numbers or null");
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

static void floors_common(struct obj *o, struct floors_rec *f, int launch)
{
	f_num(o, "c_call_ns", &f->c_call_ns);
	f_num(o, "go_raw_ns", &f->go_raw_ns);
	num(o, "go_raw_cold_ns", &f->go_raw_cold_ns, launch);
	f_num(o, "handoff_ns", &f->handoff_ns);
	handoff_cpus(o, f->handoff_cpus);
	ref_fields(o, f);
}

/* A launch's floors say why the round trip was not measured. */
static void launch_floors_fields(struct obj *o, void *rec)
{
	struct floors_rec *f = rec;
	floors_common(o, f, 1);
	f_strn(o, "handoff_why", f->handoff_why);
}

static void cell_floors_fields(struct obj *o, void *rec)
{
	floors_common(o, rec, 0);
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
	sub(o, "caller", caller_thread_fields, p, NULL);
	sub(o, "extract_thread", extract_thread_fields, p, NULL);
	f_bool(o, "async_in_effect", &p->async_in_effect);
	sub(o, "noise", noise_fields, p, NULL);
	if (f_opt(o, "latency", &p->has_latency))
		sub(o, "latency", latency_fields, &p->latency, NULL);
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
	sub(o, "load", load_fields, l, &l->has_load);
	f_u64(o, "extractions", &l->extractions);
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
	sub(o, "floors", launch_floors_fields, &l->floors, &l->has_floors);
	sub(o, "c_allocs", c_allocs_fields, &l->c_allocs, &l->c_allocs.counted);
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
}

static void outlier_fields(struct obj *o, void *rec)
{
	stats_summary *s = rec;
	uint64_t v[4] = { s->low_severe, s->low_mild, s->high_mild, s->high_severe };
	f_u64(o, "low_severe", &v[0]);
	f_u64(o, "low_mild", &v[1]);
	f_u64(o, "high_mild", &v[2]);
	f_u64(o, "high_severe", &v[3]);
	s->low_severe = v[0], s->low_mild = v[1], s->high_mild = v[2], s->high_severe = v[3];
}

static void summary_fields(struct obj *o, void *rec)
{
	struct summary_rec *r = rec;
	stats_summary *s = &r->s;
	uint64_t n = s->n;

	f_str(o, "unit", r->unit);
	f_u64(o, "n", &n);
	s->n = n;
	f_num(o, "median", &s->median);
	f_num(o, "mean", &s->mean);
	f_num(o, "stddev", &s->stddev);
	f_num(o, "min", &s->min);
	f_num(o, "max", &s->max);
	f_num(o, "q1", &s->q1);
	f_num(o, "q3", &s->q3);
	f_num(o, "ci_low", &s->ci_lo);
	f_num(o, "ci_high", &s->ci_hi);
	f_num(o, "ci_level", &s->ci_level);
	sub(o, "outliers", outlier_fields, s, NULL);
}

static void change_fields(struct obj *o, void *rec)
{
	struct change_rec *r = rec;
	uint64_t nb = r->base_n, n = r->n;
	char verdict[24], sentence[128];
	int has_why = r->not_gated_because[0] != '\0';

	snprintf(verdict, sizeof(verdict), "%s", verdict_name(r->ch.verdict));
	snprintf(sentence, sizeof(sentence), "%s", verdict_sentence(r->ch.verdict));
	f_str(o, "scenario", r->scenario);
	f_str(o, "kind", r->kind);
	f_bool(o, "gated", &r->gated);
	f_num(o, "low", &r->ch.lo);
	f_num(o, "point", &r->ch.point);
	f_num(o, "high", &r->ch.hi);
	f_num(o, "p", &r->ch.p);
	f_num(o, "alpha", &r->ch.alpha);
	f_u64(o, "base_n", &nb);
	f_u64(o, "n", &n);
	r->base_n = nb, r->n = n;
	f_str(o, "verdict", verdict);
	f_str(o, "sentence", sentence); /* derived from the verdict */
	f_str(o, "line", r->line);
	if (f_opt(o, "not_gated_because", &has_why))
		f_str(o, "not_gated_because", r->not_gated_because);
	if (o->c->dir == READ && !o->c->bad && verdict_parse(verdict, &r->ch.verdict) != 0)
		wrong(o, "verdict", "a verdict name");
}

static void allocator_fields(struct obj *o, void *rec)
{
	struct cell_rec *c = rec;
	f_str(o, "name", c->allocator);
	f_str(o, "path", c->allocator_path);
}

static void mode_fields(struct obj *o, void *rec)
{
	struct cell_rec *c = rec;
	f_str(o, "requested", c->requested);
	f_str(o, "in_effect", c->in_effect);
	f_bool(o, "verified", &c->mode_verified);
	f_strn(o, "reason", c->reason);
}

static void cell_stats_fields(struct obj *o, struct cell_stats *s)
{
	sub(o, "statistics", summary_fields, &s->time, NULL);
	f_nums(o, "samples", &s->samples, &s->nsamples);
	sub(o, "cpu_statistics", summary_fields, &s->cpu, NULL);
	f_nums(o, "cpu_samples", &s->cpu_samples, &s->ncpu_samples);
	f_num(o, "cold_ns_median", &s->cold_ns_median);
	f_u64(o, "stalled_batches", &s->stalled_batches);
	f_u64(o, "batches", &s->batches);
	f_num(o, "slowest_batch_ns_per_extraction", &s->slowest_batch_ns);
	f_num(o, "other_cpu_ns_per_extraction_median", &s->other_cpu_ns_median);
	f_num(o, "switches_per_1000_median", &s->switches_per_1000_median);
	f_num(o, "steal_ns_median", &s->steal_ns_median);
	f_num(o, "go_allocs_per_extraction", &s->go_allocs_per_extraction);
	f_num(o, "c_mallocs_per_iteration", &s->c_mallocs_per_iteration);
	f_num(o, "c_frees_per_iteration", &s->c_frees_per_iteration);
	f_num(o, "go_alloc_bytes_per_extraction", &s->go_alloc_bytes_per_extraction);
	sub(o, "floors", cell_floors_fields, &s->floors, &s->has_floors);
	f_str(o, "key", s->key);
}

static void cell_fields(struct obj *o, void *rec)
{
	struct cell_rec *c = rec;
	int rerun = c->stalled_launches_rerun >= 0;

	f_str(o, "name", c->name);
	f_str(o, "scenario", c->scenario);
	sub(o, "allocator", allocator_fields, c, NULL);
	f_str(o, "lib", c->lib);
	f_str(o, "executable", c->executable);
	f_str(o, "go_version", c->go_version);
	f_str(o, "sdk_version", c->sdk_version);
	f_int(o, "gomaxprocs", &c->gomaxprocs);
	f_int(o, "max_handle", &c->max_handle);
	sub(o, "mode", mode_fields, c, NULL);
	f_list(o, "launches", &c->launches, &c->nlaunches, launch_fields);
	if (f_opt(o, "stalled_launches_rerun", &rerun))
		f_i64n(o, "stalled_launches_rerun", &c->stalled_launches_rerun);
	else if (o->c->dir == READ)
		c->stalled_launches_rerun = -1;
	if (o->c->dir == READ)
		c->analysed = json_object_get(o->j, "statistics") != NULL;
	if (c->analysed)
		cell_stats_fields(o, &c->st);
	if (f_opt(o, "vs_glibc", &c->has_vs_glibc))
		sub(o, "vs_glibc", change_fields, &c->vs_glibc, NULL);
	if (f_opt(o, "latency", &c->has_latency))
		sub(o, "latency", latency_fields, &c->latency, NULL);
}

static void ratio_fields(struct obj *o, void *rec)
{
	struct ratio_rec *r = rec;
	f_str(o, "name", r->name);
	f_str(o, "numerator", r->numerator);
	f_str(o, "denominator", r->denominator);
	f_str(o, "metric", r->metric);
	sub(o, "statistics", summary_fields, &r->st, NULL);
	f_nums(o, "samples", &r->samples, &r->nsamples);
}

static void comparison_fields(struct obj *o, void *rec)
{
	struct comparison_rec *c = rec;
	f_str(o, "against", c->against);
	f_bool(o, "same_time", &c->same_time);
	f_bool(o, "machine_key_matches", &c->machine_key_matches);
	f_num(o, "threshold", &c->threshold);
	f_num(o, "alpha", &c->alpha);
	f_u64(o, "bootstrap_seed", &c->seed);
	f_u64(o, "resamples", &c->resamples);
	f_list(o, "changes", &c->changes, &c->nchanges, change_fields);
	f_bool(o, "regressed", &c->regressed);
}

static void pair_cell_fields(struct obj *o, void *rec)
{
	struct pair_cell_rec *c = rec;
	f_str(o, "name", c->name);
	f_str(o, "side", c->side);
	f_u64(o, "extractions_per_block", &c->per_block);
	f_nums(o, "block_ns_per_extraction", &c->block_ns, &c->nblocks);
	f_nums(o, "block_cpu_ns_per_extraction", &c->block_cpu_ns, &c->ncpu);
	f_nums(o, "lead_in_ns", &c->lead_ns, &c->nlead);
	f_nums(o, "lead_in_extractions", &c->lead_calls, &c->nleadcalls);
	f_nums(o, "lead_in_first_call_ns", &c->first_call_ns, &c->nfirst);
	f_nums(o, "after_cell", &c->after, &c->nafter);
	if (o->c->dir == READ && !o->c->bad &&
	    (c->ncpu != c->nblocks || c->nlead != c->nblocks || c->nleadcalls != c->nblocks ||
	     c->nfirst != c->nblocks || c->nafter != c->nblocks))
		failf(o->c, "the per-block arrays of %s differ in length", c->name);
}

static void pair_change_fields(struct obj *o, void *rec)
{
	change_estimate *ch = rec;
	char verdict[24];

	snprintf(verdict, sizeof(verdict), "%s", verdict_name(ch->verdict));
	f_num(o, "low", &ch->lo);
	f_num(o, "point", &ch->point);
	f_num(o, "high", &ch->hi);
	f_num(o, "p", &ch->p);
	f_num(o, "alpha", &ch->alpha);
	f_num(o, "threshold", &ch->threshold);
	f_str(o, "verdict", verdict);
	if (o->c->dir == READ && !o->c->bad && verdict_parse(verdict, &ch->verdict) != 0)
		failf(o->c, "verdict '%s' is not one cgocost gives", verdict);
}

static void pair_ratio_fields(struct obj *o, void *rec)
{
	struct pair_ratio_rec *r = rec;
	int has_change = r->judged;

	f_str(o, "name", r->name);
	f_int(o, "numerator", &r->num);
	f_int(o, "denominator", &r->den);
	f_bool(o, "judged", &r->judged);
	sub(o, "statistics", summary_fields, &r->st, NULL);
	sub(o, "cpu_statistics", summary_fields, &r->cpu, NULL);
	sub(o, "pair_statistics", summary_fields, &r->pairs, NULL);
	f_num(o, "estimate", &r->estimate);
	f_num(o, "low", &r->low);
	f_num(o, "high", &r->high);
	f_num(o, "coverage", &r->coverage);
	f_num(o, "half_width_pct", &r->half_width_pct);
	f_num(o, "signed_rank_p", &r->p);
	f_num(o, "signed_rank_w_plus", &r->w_plus);
	f_bool(o, "signed_rank_exact", &r->exact);
	f_nums(o, "samples", &r->samples, &r->nsamples);
	if (f_opt(o, "change", &has_change))
		sub(o, "change", pair_change_fields, &r->ch, NULL);
}

static void paired_fields(struct obj *o, void *rec)
{
	struct paired_rec *p = rec;
	f_num(o, "block_ms", &p->block_ms);
	f_num(o, "lead_in_us", &p->lead_in_us);
	f_num(o, "budget_s", &p->budget_s);
	f_num(o, "precision_pct", &p->precision_pct);
	f_num(o, "elapsed_s", &p->elapsed_s);
	f_num(o, "lead_in_s", &p->lead_s);
	f_num(o, "timed_s", &p->timed_s);
	f_u64(o, "order_seed", &p->order_seed);
	f_u32(o, "rounds", &p->rounds);
	f_int(o, "caller_cpu", &p->caller_cpu);
	f_str(o, "stopped_by", p->stopped_by);
	f_num(o, "generation_s", &p->generation_s);
	f_nums(o, "generation_rounds", &p->generation_rounds, &p->ngenerations);
	f_num(o, "startup_s", &p->startup_s);
	f_list(o, "cells", &p->cells, &p->ncells, pair_cell_fields);
	f_list(o, "ratios", &p->ratios, &p->nratios, pair_ratio_fields);
}

#define SAMPLES_BATCHES	 "batches of one launch (not independent: use --launches)"
#define SAMPLES_LAUNCHES "launch medians (one per fresh process)"

static void analysis_fields(struct obj *o, void *rec)
{
	struct doc *d = rec;
	char samples[80], interval[64] = "distribution-free, from order statistics";

	snprintf(samples, sizeof(samples), "%s", d->samples_are_batches ? SAMPLES_BATCHES : SAMPLES_LAUNCHES);
	f_num(o, "ci_level", &d->ci_level);
	f_str(o, "samples", samples);
	f_str(o, "interval", interval);
	if (o->c->dir == READ)
		d->samples_are_batches = strcmp(samples, SAMPLES_BATCHES) == 0;
}

static void repeat_fields(struct obj *o, void *rec)
{
	struct repeat_rec *r = rec;
	int libs = r->libraries != NULL;
	f_u32(o, "loads", &r->loads);
	f_u32(o, "ok", &r->ok);
	f_u32(o, "crashed", &r->crashed);
	f_u32(o, "panicked", &r->panicked);
	f_u32(o, "hung", &r->hung);
	f_u32(o, "failed", &r->failed);
	f_strn(o, "first_crash", r->crash);
	f_strn(o, "first_panic", r->panic);
	f_strn(o, "first_hang", r->hang);
	f_strn(o, "first_failure", r->failure);
	f_int(o, "go_runtimes", &r->go_runtimes);
	if (f_opt(o, "libraries", &libs))
		f_list(o, "libraries", &r->libraries, &r->nlibraries, library_fields);
}

/* The version, and what was found when it is not this one: "schema_version
 * 1.5, this cgocost reads 1", never a rounded or converted value. */
static void schema_version_field(struct obj *o, int *v)
{
	json_t *j;
	char *found;

	if (o->c->dir != READ) {
		f_int(o, "schema_version", v);
		return;
	}
	if ((j = get(o, "schema_version", 1)) == NULL)
		return;
	if (json_is_integer(j) && json_integer_value(j) >= 1 && json_integer_value(j) <= SCHEMA_VERSION) {
		*v = (int)json_integer_value(j);
		return;
	}
	found = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_ENSURE_ASCII);
	failf(o->c, "schema_version %.40s, this cgocost reads 1 to %d", found ? found : "?", SCHEMA_VERSION);
	free(found);
}

static void doc_fields(struct obj *o, void *rec)
{
	struct doc *d = rec;
	char generator[32] = GENERATOR;

	schema_version_field(o, &d->schema_version);
	if (o->c->bad)
		return;
	f_str(o, "generator", generator);
	if (o->c->dir == READ && !o->c->bad && strcmp(generator, GENERATOR) != 0) {
		failf(o->c, "generator '%s', not '%s'", generator, GENERATOR);
		return;
	}
	sub(o, "machine", machine_fields, &d->machine, NULL);
	options_field(o, "options", &d->options);
	f_list(o, "cells", &d->cells, &d->ncells, cell_fields);
	sub(o, "comparison", comparison_fields, &d->comparison, &d->has_comparison);
	if (f_opt(o, "ratios", &d->analysed)) {
		f_list(o, "ratios", &d->ratios, &d->nratios, ratio_fields);
		sub(o, "analysis", analysis_fields, d, NULL);
	}
	if (f_opt(o, "repeat_load", &d->has_repeat))
		sub(o, "repeat_load", repeat_fields, &d->repeat, NULL);
	if (f_opt(o, "paired", &d->has_paired))
		sub(o, "paired", paired_fields, &d->paired, NULL);
}

json_t *doc_to_json(const struct doc *d)
{
	struct codec c = { .dir = WRITE };
	json_t *j = json_object();
	visit(&c, j, doc_fields, (void *)d);
	return j;
}

int doc_from_json(struct doc *d, const json_t *j, char *err, size_t errlen)
{
	struct codec c = { .dir = READ, .err = err, .errlen = errlen };

	memset(d, 0, sizeof(*d));
	if (!json_is_object(j)) {
		snprintf(err, errlen, "not a JSON object");
		return -1;
	}
	visit(&c, (json_t *)j, doc_fields, d);
	if (c.bad) {
		doc_free(d);
		return -1;
	}
	return 0;
}

void doc_free(struct doc *d)
{
	struct codec c = { .dir = FREE };
	visit(&c, NULL, doc_fields, d);
	memset(d, 0, sizeof(*d));
}

char *doc_dumps(const struct doc *d, int compact)
{
	json_t *j = doc_to_json(d);
	char *s = json_dumps(j, (compact ? JSON_COMPACT : JSON_INDENT(1)) | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER);
	size_t len;
	char *t;

	json_decref(j);
	if (s == NULL)
		return NULL;
	len = strlen(s);
	t = realloc(s, len + 2);
	if (t == NULL) {
		free(s);
		return NULL;
	}
	t[len] = '\n';
	t[len + 1] = '\0';
	return t;
}

int doc_loads(struct doc *d, const char *text, size_t len, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *j = json_loadb(text, len, 0, &jerr);
	int rc;

	memset(d, 0, sizeof(*d));
	if (j == NULL) {
		snprintf(err, errlen, "JSON error at line %d: %s", jerr.line, jerr.text);
		return -1;
	}
	rc = doc_from_json(d, j, err, errlen);
	json_decref(j);
	return rc;
}

/* --- a plugin's field list (plugin_get_fields) --------------------------- */

static const struct {
	const char *name;
	uint32_t type;
} types[] = {
	{ "uint64", 8 }, { "string", 9 },  { "reltime", 20 }, { "abstime", 21 },
	{ "bool", 25 },	 { "ipaddr", 40 }, { "ipnet", 41 },
};

uint32_t field_type_parse(const char *name)
{
	for (size_t i = 0; name && i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(name, types[i].name) == 0)
			return types[i].type;
	return 0;
}

static int flag(const json_t *obj, const char *key)
{
	return json_is_true(json_object_get(obj, key));
}

static int entry_parse(const json_t *e, size_t i, struct field_decl *f, char *err, size_t errlen)
{
	const json_t *name = json_object_get(e, "name"), *type = json_object_get(e, "type");
	const json_t *arg = json_object_get(e, "arg");

	if (!json_is_object(e)) {
		snprintf(err, errlen, "plugin_get_fields: entry %zu is not an object", i);
		return -1;
	}
	if (!json_is_string(name) || json_string_length(name) == 0 || json_string_length(name) >= FIELD_DECL_NAME_MAX) {
		snprintf(err, errlen, "plugin_get_fields: entry %zu has no usable \"name\"", i);
		return -1;
	}
	snprintf(f->name, sizeof(f->name), "%s", json_string_value(name));
	if (!json_is_string(type) || (f->ftype = field_type_parse(json_string_value(type))) == 0) {
		snprintf(err, errlen, "plugin_get_fields: field %s has no known \"type\"", f->name);
		return -1;
	}
	f->is_list = flag(e, "isList");
	if (arg != NULL && !json_is_object(arg)) {
		snprintf(err, errlen, "plugin_get_fields: field %s: \"arg\" is not an object", f->name);
		return -1;
	}
	f->arg_required = arg ? flag(arg, "isRequired") : 0;
	f->arg_index = arg ? flag(arg, "isIndex") : 0;
	f->arg_key = arg ? flag(arg, "isKey") : 0;
	return 0;
}

int fieldlist_parse(const char *json, struct field_list *l, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *a, *e;
	size_t i;

	memset(l, 0, sizeof(*l));
	if (json == NULL) {
		snprintf(err, errlen, "plugin_get_fields returned NULL");
		return -1;
	}
	a = json_loads(json, 0, &jerr);
	if (a == NULL) {
		snprintf(err, errlen, "plugin_get_fields: not JSON (line %d: %s)", jerr.line, jerr.text);
		return -1;
	}
	if (!json_is_array(a) || json_array_size(a) == 0) {
		snprintf(err, errlen, "plugin_get_fields: not a non-empty JSON array");
		json_decref(a);
		return -1;
	}
	l->fields = calloc(json_array_size(a), sizeof(*l->fields));
	if (l->fields == NULL) {
		snprintf(err, errlen, "out of memory");
		json_decref(a);
		return -1;
	}
	json_array_foreach (a, i, e) {
		if (entry_parse(e, i, &l->fields[i], err, errlen) != 0) {
			json_decref(a);
			fieldlist_free(l);
			return -1;
		}
		l->n = (uint32_t)i + 1;
	}
	json_decref(a);
	return 0;
}

void fieldlist_free(struct field_list *l)
{
	free(l->fields);
	memset(l, 0, sizeof(*l));
}
