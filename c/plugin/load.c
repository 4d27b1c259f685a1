/* plugin/load.c — see load.h. */
#include "plugin/load.h"

#include <jansson.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/status.h"
#include "base/sysinfo.h"
#include "plugin/goruntime.h"

static const char *const role_names[] = { "measured", "idle", "busy", "built-in" };

/* Where the loading is, for a message when it hangs: string literals and
 * a library path that lives as long as the options, read by a signal
 * handler (session_open_step). */
static const char *_Atomic step_call;
static const char *_Atomic step_lib;

static void step(const char *lib, const char *call)
{
	atomic_store(&step_lib, lib);
	atomic_store(&step_call, call);
}

const char *session_open_step(const char **lib)
{
	*lib = atomic_load(&step_lib);
	return atomic_load(&step_call);
}

/* The event source to extract from: the first the plugin names that is
 * not "syscall" (syscall events are out of scope), or "cgocost" when it
 * names none. */
static int evtsrc_choose(struct lib_run *r, char *err, size_t errlen)
{
	const char *js = r->lib.syms.get_extract_event_sources ? r->lib.syms.get_extract_event_sources() : NULL;
	json_t *a = js ? json_loads(js, 0, NULL) : NULL, *e;
	size_t i, n = 0;
	int rc = 0;

	snprintf(r->evtsrc, sizeof(r->evtsrc), "cgocost");
	if (a == NULL)
		return 0;
	json_array_foreach (a, i, e) {
		if (!json_is_string(e))
			continue;
		n++;
		if (strcmp(json_string_value(e), "syscall") != 0) {
			snprintf(r->evtsrc, sizeof(r->evtsrc), "%s", json_string_value(e));
			json_decref(a);
			return 0;
		}
	}
	if (n > 0) {
		snprintf(
			err, errlen,
			"--plugin %s: it extracts from syscall events only; cgocost feeds plugin events (syscall events are out of scope)",
			r->lib.path);
		rc = -1;
	}
	json_decref(a);
	return rc;
}

/* With plugin_get_extract_event_types, the plugin must accept type 322. */
static int event_types_check(struct lib_run *r, ss_plugin_t *s, char *err, size_t errlen)
{
	uint32_t n = 0;
	uint16_t *types;

	if (r->lib.syms.get_extract_event_types == NULL)
		return 0;
	types = r->lib.syms.get_extract_event_types(&n, s);
	if (types == NULL || n == 0)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (types[i] == PLUGIN_EVENT_TYPE)
			return 0;
	snprintf(err, errlen,
		 "--plugin %s: plugin_get_extract_event_types lists %u types, not the plugin event (322) cgocost feeds",
		 r->lib.path, n);
	return -1;
}

/* --per-event K with a plugin that declares none of cgocost's work fields
 * and no --field: the first K fields it declares that take no argument. */
static int fields_first(struct lib_run *r, const struct options *o, char *err, size_t errlen)
{
	const struct field_list *l = &r->lib.fields;
	uint32_t n = 0;

	if ((r->sel = calloc(o->per_event, sizeof(*r->sel))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t id = 0; id < l->n && n < o->per_event; id++) {
		struct field_sel *s = &r->sel[n];
		if (l->fields[id].arg_required)
			continue;
		s->id = id;
		s->ftype = l->fields[id].ftype;
		s->is_list = l->fields[id].is_list;
		snprintf(s->name, sizeof(s->name), "%s", l->fields[id].name);
		n++;
	}
	if (n < o->per_event) {
		snprintf(
			err, errlen,
			"--per-event %u: --plugin %s declares %u fields that take no argument, fewer than K (name them with --field)",
			o->per_event, r->lib.path, n);
		return -1;
	}
	r->nsel = n;
	return 0;
}

/* --host-calls batched: one call keys its results by field id (the Go
 * SDK), so a field named twice would overwrite its own value. */
static int fields_distinct(const struct lib_run *r, const struct options *o, char *err, size_t errlen)
{
	if (!o->per_event || o->host_calls != HOST_CALLS_BATCHED)
		return 0;
	for (uint32_t i = 0; i < r->nsel; i++)
		for (uint32_t k = 0; k < i; k++)
			if (r->sel[i].id == r->sel[k].id) {
				snprintf(
					err, errlen,
					"--host-calls batched: --field %s is named twice; one call of K fields needs K distinct fields",
					r->sel[i].name);
				return -1;
			}
	return 0;
}

/* The fields: --field resolved, or cgocost's work fields (declared?). */
static int fields_choose(struct lib_run *r, const struct options *o, char *err, size_t errlen)
{
	char want[64], near[512];

	if (o->nfield_specs == 0 || r->role != ROLE_MEASURED) {
		snprintf(want, sizeof(want), "mock.%s.0", work_name(o->work));
		if (fieldlist_find(&r->lib.fields, want) >= 0)
			return 0;
		if (o->per_event && r->role == ROLE_MEASURED)
			return fields_first(r, o, err, errlen);
		fieldlist_closest(&r->lib.fields, want, 5, near, sizeof(near));
		snprintf(
			err, errlen,
			"--plugin %s: it declares none of cgocost's work fields (%s): name fields with --field (it declares %u: %s, ...)",
			r->lib.path, want, r->lib.fields.n, near);
		return -1;
	}
	r->sel = calloc((size_t)o->nfield_specs, sizeof(*r->sel));
	if (r->sel == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < o->nfield_specs; i++) {
		char msg[700];
		if (fieldlist_resolve(&r->lib.fields, o->field_specs[i], &r->sel[i], msg, sizeof(msg)) != 0) {
			snprintf(err, errlen, "--plugin %s: %s", r->lib.path, msg);
			return -1;
		}
	}
	r->nsel = (uint32_t)o->nfield_specs;
	return fields_distinct(r, o, err, errlen);
}

/* Everything about a library that is bad input, before it is started. */
static int lib_check(struct lib_run *r, const struct options *o, char *err, size_t errlen)
{
	if (r->role == ROLE_MEASURED && o->plugins > (uint32_t)r->lib.max_instances) {
		snprintf(err, errlen, "-p %u: --plugin %s allows at most %d live instances (%s)", o->plugins,
			 r->lib.path, r->lib.max_instances,
			 r->lib.max_from_plugin ? "the plugin's own limit"
						: "cgocost's cap for a plugin that states none");
		return -1;
	}
	if (o->async && r->lib.probe_ids[PROBE_ASYNC] < 0) {
		snprintf(
			err, errlen,
			"-a: --plugin %s does not read cgocost's configuration (no mock.async field): its async mode, if any, is its own configuration's business (--plugin-config)",
			r->lib.path);
		return -1;
	}
	if (fields_choose(r, o, err, errlen) != 0 || evtsrc_choose(r, err, errlen) != 0)
		return -1;
	r->plugin_id = o->plugin_id_set ? o->plugin_id : r->lib.syms.get_id ? r->lib.syms.get_id() : 0;
	if (o->events		   ? event_set_load(&r->events, o->events, r->plugin_id, err, errlen)
	    : o->work == WORK_JSON ? event_set_json(&r->events, o->payload_size, r->plugin_id, err, errlen)
				   : event_set_synthetic(&r->events, o->payload_size, r->plugin_id, err, errlen))
		return -1;
	r->pc = (struct plugin_config){ .lib = &r->lib,
					.async = o->async,
					.work = o->work,
					.extra_ns = o->extra_ns,
					.alloc_bytes = r->role == ROLE_BUSY ? o->alloc_bytes : 0,
					.raw = o->plugin_config,
					.sel = r->sel,
					.nsel = r->nsel,
					.events = &r->events,
					.evtsrc = r->evtsrc,
					.per_field = o->per_event && o->host_calls == HOST_CALLS_PER_FIELD };
	return 0;
}

/* plugin_init and the first extraction; the instance is kept for idle and
 * busy libraries, closed for measured ones (their callers open their own). */
static int lib_start(struct lib_run *r, const struct options *o, char *err, size_t errlen)
{
	char msg[1500];
	int st;

	step(r->lib.path, "plugin_init of its first instance");
	if (extractor_open(&r->first, &r->pc, o->fields, msg, sizeof(msg)) != 0) {
		snprintf(err, errlen, "--plugin %s: %s", r->lib.path, msg);
		return EXIT_RUN_FAILED;
	}
	if (event_types_check(r, r->first.s, err, errlen) != 0) {
		extractor_close(&r->first);
		return EXIT_BAD_INPUT;
	}
	step(r->lib.path, "the first extraction");
	if ((st = extractor_extract(&r->first, 0)) != EXTRACT_OK) {
		const char *e = r->lib.syms.get_last_error(r->first.s);
		snprintf(err, errlen, "--plugin %s: the first extraction %s: %s", r->lib.path,
			 st == EXTRACT_WRONG_VALUE ? "returned a wrong or missing value" : "failed",
			 e && *e ? e : "no error message");
		return EXIT_RUN_FAILED;
	}
	r->has_first = 1;
	return EXIT_OK;
}

static int lib_load(struct lib_run *r, const char *path, enum lib_role role, const struct options *o, char *err,
		    size_t errlen)
{
	uint64_t t0;
	int st;

	r->role = role;
	proc_rss_threads(&r->rss_before_kb, &r->threads_before);
	t0 = now_ns();
	step(path, "dlopen, plugin_get_required_api_version or plugin_get_fields");
	if (library_open(&r->lib, path, err, errlen) != 0)
		return EXIT_BAD_INPUT;
	step(path, "reading its --events or checking its fields");
	if (lib_check(r, o, err, errlen) != 0)
		return EXIT_BAD_INPUT;
	goruntime_register(&r->lib.syms);
	if ((st = lib_start(r, o, err, errlen)) != EXIT_OK)
		return st;
	r->load_ns = now_ns() - t0;
	r->has_load = 1;
	proc_rss_threads(&r->rss_after_kb, &r->threads_after);
	if (role == ROLE_MEASURED) {
		step(path, "plugin_destroy of its first instance");
		extractor_close(&r->first);
		r->has_first = 0;
	}
	step(path, "");
	return EXIT_OK;
}

static int builtin_open(struct session *s, const struct options *o, char *err, size_t errlen)
{
	struct lib_run *b = &s->builtin;
	int st;

	if (library_open_builtin(&b->lib, err, errlen) != 0) {
		if (o->nlibs)
			return EXIT_OK; /* bench-host: no built-in, nothing to count */
		return EXIT_BAD_INPUT;
	}
	s->has_builtin = 1;
	goruntime_register(&b->lib.syms);
	b->role = o->nlibs ? ROLE_BUILTIN : ROLE_MEASURED;
	if (b->role == ROLE_BUILTIN)
		return EXIT_OK;
	if (lib_check(b, o, err, errlen) != 0)
		return EXIT_BAD_INPUT;
	s->libs = b;
	s->nlibs = 1;
	(void)st;
	return EXIT_OK;
}

/* A library loaded twice (the same file again, or through a symlink) is one
 * library with one handle table: the instances of all its loads count
 * against its limit together (the SDK panics past it). Bad input, found
 * before anything is measured. */
static int shared_handles(const struct session *s, const struct options *o, char *err, size_t errlen)
{
	for (int i = 0; i < s->nlibs; i++) {
		const struct plugin_lib *l = &s->libs[i].lib;
		uint64_t live = 0;
		int loads = 0;
		for (int k = 0; k < s->nlibs; k++)
			if (s->libs[k].lib.handle == l->handle) {
				live += o->plugins;
				loads++;
			}
		if (s->other && s->other->lib.handle == l->handle) {
			live += 1; /* the idle or busy library's one instance */
			loads++;
		}
		if (loads > 1 && live > (uint64_t)l->max_instances) {
			snprintf(
				err, errlen,
				"-p %u: %s is loaded %d times, one library with one handle table: %llu live instances, "
				"at most %d",
				o->plugins, l->path, loads, (unsigned long long)live, l->max_instances);
			return -1;
		}
	}
	return 0;
}

int session_open(struct session *s, const struct options *o, char *err, size_t errlen)
{
	int st;

	memset(s, 0, sizeof(*s));
	if ((st = builtin_open(s, o, err, errlen)) != EXIT_OK)
		return st;
	if (o->nlibs) {
		if ((s->libs = calloc((size_t)o->nlibs, sizeof(*s->libs))) == NULL) {
			snprintf(err, errlen, "out of memory");
			return EXIT_RUN_FAILED;
		}
		for (; s->nlibs < o->nlibs; s->nlibs++)
			if ((st = lib_load(&s->libs[s->nlibs], o->libs[s->nlibs], ROLE_MEASURED, o, err, errlen)) !=
			    EXIT_OK) {
				s->nlibs++; /* session_close frees what the failed load holds */
				return st;
			}
	}
	if (o->idle || o->busy) {
		if ((s->other = calloc(1, sizeof(*s->other))) == NULL) {
			snprintf(err, errlen, "out of memory");
			return EXIT_RUN_FAILED;
		}
		st = lib_load(s->other, o->idle ? o->idle : o->busy, o->idle ? ROLE_IDLE : ROLE_BUSY, o, err, errlen);
		if (st != EXIT_OK)
			return st;
	}
	if (shared_handles(s, o, err, errlen) != 0)
		return EXIT_BAD_INPUT;
	{
		struct plugin_lib all[OPT_MAX_LIBS + 1];
		int n = 0;
		for (int i = 0; i < s->nlibs && s->libs != &s->builtin; i++)
			all[n++] = s->libs[i].lib;
		if (s->other)
			all[n++] = s->other->lib;
		s->go_runtimes = go_runtimes_count(s->has_builtin ? &s->builtin.lib : NULL, all, n);
	}
	return EXIT_OK;
}

static void lib_run_free(struct lib_run *r)
{
	if (r->has_first)
		extractor_close(&r->first);
	event_set_free(&r->events);
	free(r->sel);
	library_close(&r->lib);
}

void session_close(struct session *s)
{
	if (s->libs && s->libs != &s->builtin) {
		for (int i = 0; i < s->nlibs; i++)
			lib_run_free(&s->libs[i]);
		free(s->libs);
	}
	if (s->other) {
		lib_run_free(s->other);
		free(s->other);
	}
	if (s->has_builtin)
		lib_run_free(&s->builtin);
	memset(s, 0, sizeof(*s));
}

static void record_one(struct library_rec *rec, const struct lib_run *r)
{
	memset(rec, 0, sizeof(*rec));
	snprintf(rec->path, sizeof(rec->path), "%s", r->lib.path);
	snprintf(rec->role, sizeof(rec->role), "%s", role_names[r->role]);
	rec->go_runtime = r->lib.runtime_file[0] != '\0';
	snprintf(rec->go_version, sizeof(rec->go_version), "%s", r->lib.go_version);
	snprintf(rec->api_version, sizeof(rec->api_version), "%s", r->lib.api_version);
	rec->plugin_id = r->plugin_id;
	snprintf(rec->event_source, sizeof(rec->event_source), "%s", r->evtsrc[0] ? r->evtsrc : "none");
	rec->fields_declared = r->lib.fields.n;
	rec->max_instances = r->lib.max_instances;
	rec->max_from_plugin = r->lib.max_from_plugin;
	rec->probe_fields = r->lib.probe_ids[PROBE_TID] >= 0;
	rec->has_load = r->has_load;
	rec->load_ns = r->load_ns;
	rec->rss_before_kb = r->rss_before_kb;
	rec->rss_after_kb = r->rss_after_kb;
	rec->threads_before = r->threads_before;
	rec->threads_after = r->threads_after;
	rec->extractions = r->extractions;
}

int session_records(const struct session *s, struct library_rec **recs, size_t *n)
{
	size_t k = 0;

	*recs = calloc((size_t)s->nlibs + 2, sizeof(**recs));
	*n = 0;
	if (*recs == NULL)
		return -1;
	if (s->has_builtin && s->libs != &s->builtin)
		record_one(&(*recs)[k++], &s->builtin);
	for (int i = 0; i < s->nlibs; i++)
		record_one(&(*recs)[k++], &s->libs[i]);
	if (s->other)
		record_one(&(*recs)[k++], s->other);
	*n = k;
	return 0;
}
