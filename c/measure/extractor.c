/* measure/extractor.c — plugin instance set-up, tear-down and the probe. */
#include "measure/extractor.h"

#include <stdio.h>
#include <stdlib.h>

#define PPME_PLUGINEVENT_E 322

int plugin_config_format(const struct plugin_config *c, char *buf, size_t len)
{
	int n;

	if (c->raw) {
		n = snprintf(buf, len, "%s", c->raw);
		return n < 0 || (size_t)n >= len ? -1 : 0;
	}
	n = snprintf(buf, len, "{\"async\":%s,\"work\":\"%s\",\"extra_ns\":%llu}", c->async ? "true" : "false",
		     work_name(c->work), (unsigned long long)c->extra_ns);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static uint32_t field_type(uint32_t id)
{
	return mock_field_kind(id) == WORK_STR ? 9 /* FTYPE_STRING */
					       : 8 /* FTYPE_UINT64 */;
}

static int field_set(ss_plugin_extract_field *f, char *name, size_t namelen, uint32_t id)
{
	memset(f, 0, sizeof(*f));
	if (mock_field_name(id, name, namelen) != 0)
		return -1;
	f->field_id = id;
	f->field = name;
	f->ftype = field_type(id);
	return 0;
}

/* A well-formed plugin event: header, two parameter lengths (plugin id, data),
 * the plugin id and a small payload. The mock never reads it, but the
 * extraction gets what a real host would pass. */
static void event_build(unsigned char *buf, size_t cap)
{
	static const char payload[] = "cgocost";
	ss_plugin_event hdr;
	uint32_t lens[2] = { 4, sizeof(payload) };
	uint32_t plugin_id = 999;
	size_t len = sizeof(hdr) + sizeof(lens) + sizeof(plugin_id) + sizeof(payload);

	memset(buf, 0, cap);
	memset(&hdr, 0, sizeof(hdr));
	hdr.len = (uint32_t)len;
	hdr.type = PPME_PLUGINEVENT_E;
	hdr.nparams = 2;
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), lens, sizeof(lens));
	memcpy(buf + sizeof(hdr) + sizeof(lens), &plugin_id, sizeof(plugin_id));
	memcpy(buf + sizeof(hdr) + sizeof(lens) + sizeof(plugin_id), payload, sizeof(payload));
}

int extractor_open(struct extractor *x, const struct plugin_config *c, uint32_t nfields, char *err, size_t errlen)
{
	char config[1100];
	ss_plugin_init_input init;
	ss_plugin_rc rc = SS_PLUGIN_FAILURE;
	static const enum mock_field probe_ids[PROBE_FIELDS] = {
		FIELD_CALLS, FIELD_TID, FIELD_CPU, FIELD_GOMAXPROCS, FIELD_ASYNC_CONFIGURED, FIELD_GO_ALLOCS,
	};

	memset(x, 0, sizeof(*x));
	if (plugin_config_format(c, config, sizeof(config)) != 0) {
		snprintf(err, errlen, "plugin configuration too long");
		return -1;
	}
	if (nfields == 0 || nfields > MOCK_MAX_LANES) {
		snprintf(err, errlen, "%u fields per call: the mock declares 1 to %d", nfields, MOCK_MAX_LANES);
		return -1;
	}
	x->fields = calloc(nfields, sizeof(*x->fields));
	x->names = calloc(nfields + PROBE_FIELDS, FIELD_NAME_MAX);
	if (x->fields == NULL || x->names == NULL) {
		snprintf(err, errlen, "out of memory for %u fields", nfields);
		free(x->fields);
		free(x->names);
		memset(x, 0, sizeof(*x));
		return -1;
	}
	x->work = c->work;
	x->nfields = nfields;
	for (uint32_t i = 0; i < nfields; i++)
		field_set(&x->fields[i], x->names + (size_t)i * FIELD_NAME_MAX, FIELD_NAME_MAX,
			  mock_work_field(c->work, i));
	x->in.num_fields = nfields;
	x->in.fields = x->fields;
	for (int i = 0; i < PROBE_FIELDS; i++)
		field_set(&x->probe_fields[i], x->names + (size_t)(nfields + (uint32_t)i) * FIELD_NAME_MAX,
			  FIELD_NAME_MAX, probe_ids[i]);
	x->probe_in.num_fields = PROBE_FIELDS;
	x->probe_in.fields = x->probe_fields;
	event_build(x->event, sizeof(x->event));
	x->evt.evt = (const ss_plugin_event *)(void *)x->event;
	x->evt.evtsrc = "cgocost";

	memset(&init, 0, sizeof(init));
	init.config = config;
	x->s = plugin_init(&init, &rc);
	if (rc != SS_PLUGIN_SUCCESS) {
		const char *e = x->s ? plugin_get_last_error(x->s) : NULL;
		snprintf(err, errlen, "plugin_init(%s) failed: %s", config, e ? e : "no error message");
		/* The plugin API lets a host destroy a failed state, but SDK v0.8.3
		 * then runs its async stop hook for a handle that never started
		 * async and panics once any earlier init succeeded. The failed
		 * handle is left alone: one of 255 slots, and the run ends here. */
		x->s = NULL;
		free(x->fields);
		free(x->names);
		x->fields = NULL;
		x->names = NULL;
		return -1;
	}
	return 0;
}

void extractor_close(struct extractor *x)
{
	if (x->s)
		plugin_destroy(x->s);
	x->s = NULL;
	free(x->fields);
	free(x->names);
	x->fields = NULL;
	x->names = NULL;
}

int extractor_probe(struct extractor *x, struct probe *p, char *err, size_t errlen)
{
	uint64_t v[PROBE_FIELDS];

	if (plugin_extract_fields(x->s, &x->evt, &x->probe_in) != SS_PLUGIN_SUCCESS) {
		const char *e = plugin_get_last_error(x->s);
		snprintf(err, errlen, "probe extraction failed: %s", e ? e : "no error message");
		return -1;
	}
	for (int i = 0; i < PROBE_FIELDS; i++) {
		if (x->probe_fields[i].res_len != 1) {
			snprintf(err, errlen, "probe field %s returned %llu values, want 1", x->probe_fields[i].field,
				 (unsigned long long)x->probe_fields[i].res_len);
			return -1;
		}
		v[i] = x->probe_fields[i].res.u64[0];
	}
	p->calls = v[0];
	p->tid = v[1];
	p->cpu = v[2];
	p->gomaxprocs = v[3];
	p->async_configured = v[4];
	p->go_allocs = v[5];
	return 0;
}
