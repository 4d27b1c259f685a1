/* plugin-c/cmock.c — the C plugin: cgocost's mock extractor written in C11
 * against the same plugin_api.h, with no Go. It is the no-Go baseline of
 * "what does writing this plugin in Go cost?" (docs/plugins.md).
 *
 * It declares the mock's work fields with the same names and values
 * (mock.noop.N, mock.u64.N, mock.str.N; c/plugin/plugin_fields.h is the one
 * definition of the values) and the probe fields that make sense without
 * Go: mock.calls, mock.tid, mock.cpu and, after the work fields,
 * mock.hostcalls (the plugin_extract_fields calls served, always counted
 * here: one increment a call), and mock.async. It reads the mock's JSON
 * configuration; "async":true hands every call to a worker thread of its
 * own through a spin handoff written in C (handoff.h): async with no Go,
 * whose bare work is one cache-line round trip between two CPUs.
 * Three exist for tests: corrupt_every (every n-th work value is wrong),
 * crash_after (abort() after n work extractions) and stall_at with
 * stall_ms (the n-th work extraction sleeps that long, once: a warm-up
 * with a known stall in it). */
#include <jansson.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <plugin_api.h>

#include "handoff.h"
#include "plugin/plugin_fields.h"

enum { C_TID = 0, C_CPU, C_CALLS, C_WORK_BASE };
#define C_LANES	     MOCK_MAX_LANES
#define C_HOSTCALLS  (C_WORK_BASE + MOCK_NUM_KINDS * C_LANES)
#define C_JSON	     (C_HOSTCALLS + 1)	/* mock.json.<lane>, as the Go mock lays them out */
#define C_ASYNC	     (C_JSON + C_LANES) /* mock.async: 1 when the calls go to the worker */
#define C_NUM_FIELDS (C_ASYNC + 1)
#define C_MAX_REQ    (C_NUM_FIELDS + 16)

struct cmock {
	struct handoff h; /* first: its lines are its own (aligned) */
	int async;
	char err[256];
	uint64_t calls, host_calls;
	uint64_t extra_ns, alloc_bytes, corrupt_every, crash_after, stall_at, stall_ms, work_calls;
	uint64_t u64[C_MAX_REQ];
	const char *str[C_MAX_REQ];
};

static char *fields_json;

const char *plugin_get_required_api_version(void)
{
	return PLUGIN_API_VERSION_STR;
}

const char *plugin_get_name(void)
{
	return "cgocost-cmock";
}

const char *plugin_get_description(void)
{
	return "cgocost mock extractor in C: the no-Go baseline";
}

const char *plugin_get_contact(void)
{
	return "cgocost";
}

const char *plugin_get_version(void)
{
	return "0.1.0";
}

uint32_t plugin_get_id(void)
{
	return 998;
}

const char *plugin_get_extract_event_sources(void)
{
	return "[\"cgocost\"]";
}

uint16_t *plugin_get_extract_event_types(uint32_t *numtypes, ss_plugin_t *s)
{
	static uint16_t types[] = { 322 };
	(void)s;
	*numtypes = 1;
	return types;
}

static const char *const probe_names[C_WORK_BASE] = { "mock.tid", "mock.cpu", "mock.calls" };

/* Built once, at load: the list never changes. */
__attribute__((constructor)) static void fields_build(void)
{
	size_t cap = (size_t)C_NUM_FIELDS * 96 + 64, used = 0;
	char *b = malloc(cap);

	if (b == NULL)
		return;
	used += (size_t)snprintf(b + used, cap - used, "[");
	for (int id = 0; id < C_NUM_FIELDS; id++) {
		char name[32];
		int str = 0;
		if (id < C_WORK_BASE) {
			snprintf(name, sizeof(name), "%s", probe_names[id]);
		} else if (id == C_HOSTCALLS) {
			snprintf(name, sizeof(name), "mock.hostcalls");
		} else if (id == C_ASYNC) {
			snprintf(name, sizeof(name), "mock.async");
		} else if (id >= C_JSON) {
			snprintf(name, sizeof(name), "mock.json.%d", id - C_JSON);
		} else {
			int kind = (id - C_WORK_BASE) % MOCK_NUM_KINDS;
			snprintf(name, sizeof(name), "mock.%s.%d", work_name((enum work)kind),
				 (id - C_WORK_BASE) / MOCK_NUM_KINDS);
			str = kind == WORK_STR;
		}
		used += (size_t)snprintf(b + used, cap - used,
					 "%s{\"name\":\"%s\",\"type\":\"%s\",\"desc\":\"cgocost C mock field\"}",
					 id ? "," : "", name, str ? "string" : "uint64");
	}
	snprintf(b + used, cap - used, "]");
	fields_json = b;
}

const char *plugin_get_fields(void)
{
	return fields_json;
}

static int config_read(struct cmock *m, const char *config)
{
	json_error_t jerr;
	json_t *c, *v;
	const char *key;

	if (config == NULL || config[0] == '\0')
		return 0;
	if ((c = json_loads(config, 0, &jerr)) == NULL || !json_is_object(c)) {
		snprintf(m->err, sizeof(m->err), "cgocost C mock: bad config %s: not a JSON object", config);
		json_decref(c);
		return -1;
	}
	json_object_foreach (c, key, v) {
		uint64_t *slot = strcmp(key, "extra_ns") == 0	     ? &m->extra_ns
				 : strcmp(key, "alloc_bytes") == 0   ? &m->alloc_bytes
				 : strcmp(key, "corrupt_every") == 0 ? &m->corrupt_every
				 : strcmp(key, "crash_after") == 0   ? &m->crash_after
				 : strcmp(key, "stall_at") == 0	     ? &m->stall_at
				 : strcmp(key, "stall_ms") == 0	     ? &m->stall_ms
								     : NULL;
		if (strcmp(key, "async") == 0 && json_is_boolean(v)) {
			m->async = json_is_true(v);
		} else if (strcmp(key, "count_calls") == 0 && json_is_boolean(v)) {
			/* mock.hostcalls is always counted here */
		} else if (strcmp(key, "work") == 0 && json_is_string(v)) {
			/* every work kind is declared; the request names the fields */
		} else if (slot && json_is_integer(v) && json_integer_value(v) >= 0) {
			*slot = (uint64_t)json_integer_value(v);
		} else {
			snprintf(m->err, sizeof(m->err), "cgocost C mock: bad config key %s", key);
			json_decref(c);
			return -1;
		}
	}
	json_decref(c);
	return 0;
}

static int extract_here(void *ctx, const void *evt, const void *in);

ss_plugin_t *plugin_init(const ss_plugin_init_input *in, ss_plugin_rc *rc)
{
	struct cmock *m = aligned_alloc(_Alignof(struct cmock), sizeof(struct cmock));
	int e;

	*rc = SS_PLUGIN_FAILURE;
	if (m == NULL)
		return NULL;
	memset(m, 0, sizeof(*m));
	if (config_read(m, in ? in->config : NULL) != 0)
		return (ss_plugin_t *)m; /* the host reads the error, never destroys it */
	if (m->async && (e = handoff_start(&m->h, extract_here, m)) != 0) {
		snprintf(m->err, sizeof(m->err), "cgocost C mock: cannot start the async worker: %s", strerror(e));
		return (ss_plugin_t *)m;
	}
	*rc = SS_PLUGIN_SUCCESS;
	return (ss_plugin_t *)m;
}

void plugin_destroy(ss_plugin_t *s)
{
	if (s)
		handoff_stop(&((struct cmock *)s)->h);
	free(s);
}

const char *plugin_get_last_error(ss_plugin_t *s)
{
	return s ? ((struct cmock *)s)->err : "cgocost C mock: no instance";
}

static uint64_t now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The optional work of a work field: a busy loop, an allocation. */
static void extra_work(struct cmock *m)
{
	if (m->extra_ns) {
		uint64_t until = now() + m->extra_ns;
		while (now() < until)
			;
	}
	if (m->alloc_bytes) {
		volatile char *p = malloc(m->alloc_bytes);
		if (p)
			p[0] = 1;
		free((void *)p);
	}
}

/* mock.json: the payload decoded with jansson, its "key" read (0 when the
 * document is not one: the value is then wrong, and the driver says so). */
static uint64_t json_key(const ss_plugin_event_input *evt)
{
	const unsigned char *e = (const unsigned char *)evt->evt;
	uint32_t len;
	json_t *doc, *key;
	uint64_t v = 0;

	memcpy(&len, e + sizeof(ss_plugin_event) + sizeof(uint32_t), sizeof(len));
	doc = json_loadb((const char *)e + sizeof(ss_plugin_event) + 3 * sizeof(uint32_t), len, 0, NULL);
	if ((key = json_object_get(doc, "key")) != NULL && json_is_integer(key))
		v = (uint64_t)json_integer_value(key);
	json_decref(doc);
	return v;
}

/* One work field; like the Go mock, bare touches neither the event nor a
 * result, every other kind reads the event number. */
static int work_field(struct cmock *m, ss_plugin_extract_field *f, uint32_t i, const ss_plugin_event_input *evt)
{
	uint32_t id = f->field_id, kind = id >= C_JSON ? WORK_JSON : (id - C_WORK_BASE) % MOCK_NUM_KINDS,
		 lane = id >= C_JSON ? id - C_JSON : (id - C_WORK_BASE) / MOCK_NUM_KINDS;
	uint64_t evtnum;

	m->work_calls++;
	if (m->crash_after && m->work_calls > m->crash_after)
		abort();
	if (m->stall_at && m->work_calls == m->stall_at) {
		struct timespec d = { .tv_sec = (time_t)(m->stall_ms / 1000),
				      .tv_nsec = (long)(m->stall_ms % 1000) * 1000000 };
		nanosleep(&d, NULL);
	}
	extra_work(m);
	if (kind == WORK_BARE)
		return 0;
	evtnum = evt->evtnum;
	if (m->corrupt_every && m->work_calls % m->corrupt_every == 0)
		evtnum++;
	switch (kind) {
	case WORK_NOOP:
	case WORK_EVENT:
		f->res_len = 0;
		break;
	case WORK_U64:
		m->u64[i] = mock_u64_value(evtnum, lane);
		f->res.u64 = &m->u64[i];
		f->res_len = 1;
		break;
	case WORK_JSON:
		m->u64[i] = mock_json_value(evtnum, lane, json_key(evt));
		f->res.u64 = &m->u64[i];
		f->res_len = 1;
		break;
	default:
		m->str[i] = mock_str_value(evtnum, lane);
		f->res.str = &m->str[i];
		f->res_len = 1;
		break;
	}
	return 0;
}

/* The extraction itself: on the calling thread, or the worker's (async). */
static int extract_here(void *ctx, const void *event, const void *input)
{
	struct cmock *m = ctx;
	const ss_plugin_event_input *evt = event;
	const ss_plugin_field_extract_input *in = input;

	if (in->num_fields > C_MAX_REQ) {
		snprintf(m->err, sizeof(m->err), "cgocost C mock: %u fields in one call, at most %d", in->num_fields,
			 C_MAX_REQ);
		return SS_PLUGIN_FAILURE;
	}
	m->host_calls++;
	for (uint32_t i = 0; i < in->num_fields; i++) {
		ss_plugin_extract_field *f = &in->fields[i];
		m->calls++;
		switch (f->field_id) {
		case C_TID:
			m->u64[i] = (uint64_t)syscall(SYS_gettid);
			break;
		case C_CPU:
			m->u64[i] = (uint64_t)sched_getcpu();
			break;
		case C_CALLS:
			m->u64[i] = m->calls;
			break;
		case C_HOSTCALLS:
			m->u64[i] = m->host_calls;
			break;
		case C_ASYNC:
			m->u64[i] = (uint64_t)m->async;
			break;
		default:
			if (f->field_id >= C_NUM_FIELDS) {
				snprintf(m->err, sizeof(m->err), "cgocost C mock: unknown field id %u", f->field_id);
				return SS_PLUGIN_FAILURE;
			}
			work_field(m, f, i, evt);
			continue;
		}
		f->res.u64 = &m->u64[i];
		f->res_len = 1;
	}
	return SS_PLUGIN_SUCCESS;
}

ss_plugin_rc plugin_extract_fields(ss_plugin_t *s, const ss_plugin_event_input *evt,
				   const ss_plugin_field_extract_input *in)
{
	struct cmock *m = (struct cmock *)s;

	/* h.started is on the caller's own line: before the request slot, an
	 * async call reads no line that the worker writes */
	return (ss_plugin_rc)(m->h.started ? handoff_call(&m->h, evt, in) : extract_here(m, evt, in));
}
