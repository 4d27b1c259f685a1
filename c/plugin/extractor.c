/* plugin/extractor.c — plugin instance set-up, tear-down and the probe. */
#include "plugin/extractor.h"

#include <stdio.h>
#include <stdlib.h>

int extractor_check_json(const struct extractor *x, uint64_t evtnum)
{
	for (uint32_t i = 0; i < x->nfields; i++)
		if (x->fields[i].res_len != 1 || x->fields[i].res.u64[0] != mock_json_value(evtnum, i, MOCK_JSON_KEY))
			return EXTRACT_WRONG_VALUE;
	return EXTRACT_OK;
}

int plugin_config_format(const struct plugin_config *c, char *buf, size_t len)
{
	int n;

	if (c->raw)
		n = snprintf(buf, len, "%s", c->raw);
	else if (c->lib && !c->lib->cgocost_config)
		n = snprintf(buf, len, "%s", "");
	else if (c->alloc_bytes)
		n = snprintf(buf, len, "{\"async\":%s,\"work\":\"%s\",\"extra_ns\":%llu,\"alloc_bytes\":%llu}",
			     c->async ? "true" : "false", work_name(c->work), (unsigned long long)c->extra_ns,
			     (unsigned long long)c->alloc_bytes);
	else
		n = snprintf(buf, len, "{\"async\":%s,\"work\":\"%s\",\"extra_ns\":%llu}", c->async ? "true" : "false",
			     work_name(c->work), (unsigned long long)c->extra_ns);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static void field_set(ss_plugin_extract_field *f, const struct field_decl *d, uint32_t id)
{
	memset(f, 0, sizeof(*f));
	f->field_id = id;
	f->field = d->name;
	f->ftype = d->ftype;
	f->flist = d->is_list;
}

/* The request array: the --field selection, or K work fields of the mock
 * (mock.<work>.<lane>), found by name in what the plugin declares. */
static int requests_build(struct extractor *x, const struct plugin_config *c, uint32_t nfields, char *err,
			  size_t errlen)
{
	const struct field_list *l = &c->lib->fields;
	char name[64];

	if (c->sel) {
		nfields = c->nsel;
		x->generic = 1;
	}
	if (nfields == 0 || nfields > MOCK_MAX_LANES) {
		snprintf(err, errlen, "%u fields per call: 1 to %d", nfields, MOCK_MAX_LANES);
		return -1;
	}
	if ((x->fields = calloc(nfields, sizeof(*x->fields))) == NULL) {
		snprintf(err, errlen, "out of memory for %u fields", nfields);
		return -1;
	}
	x->nfields = nfields;
	for (uint32_t i = 0; i < nfields; i++) {
		int id;
		if (c->sel) {
			const struct field_sel *s = &c->sel[i];
			field_set(&x->fields[i], &l->fields[s->id], s->id);
			x->fields[i].arg_present = s->arg_present;
			x->fields[i].arg_key = s->arg_present ? s->arg_key : NULL;
			x->fields[i].arg_index = s->arg_index;
			continue;
		}
		snprintf(name, sizeof(name), "mock.%s.%u", work_name(c->work), i);
		if ((id = fieldlist_find(l, name)) < 0) {
			snprintf(err, errlen, "the plugin declares no field %s: name the fields with --field", name);
			return -1;
		}
		field_set(&x->fields[i], &l->fields[id], (uint32_t)id);
	}
	x->in.num_fields = nfields;
	x->in.fields = x->fields;
	return 0;
}

/* The probe fields the plugin declares. */
static void probes_build(struct extractor *x, const struct plugin_lib *lib)
{
	uint32_t n = 0;

	for (int slot = 0; slot < PROBE_SLOTS; slot++) {
		int id = lib->probe_ids[slot];
		if (id < 0)
			continue;
		field_set(&x->probe_fields[n], &lib->fields.fields[id], (uint32_t)id);
		x->probe_slot[n++] = slot;
	}
	x->probe_in.num_fields = n;
	x->probe_in.fields = x->probe_fields;
}

int extractor_open(struct extractor *x, const struct plugin_config *c, uint32_t nfields, char *err, size_t errlen)
{
	char config[1200];
	ss_plugin_init_input init;
	ss_plugin_rc rc = SS_PLUGIN_FAILURE;

	memset(x, 0, sizeof(*x));
	x->lib = c->lib;
	x->extract = c->lib->syms.extract_fields;
	x->work = c->work;
	if (plugin_config_format(c, config, sizeof(config)) != 0) {
		snprintf(err, errlen, "plugin configuration too long");
		return -1;
	}
	if (requests_build(x, c, nfields, err, errlen) != 0) {
		free(x->fields);
		memset(x, 0, sizeof(*x));
		return -1;
	}
	probes_build(x, c->lib);
	x->events = c->events->events;
	x->nevents = c->events->n;
	x->evt.evt = (const ss_plugin_event *)(const void *)x->events[0];
	x->evt.evtsrc = c->evtsrc;

	memset(&init, 0, sizeof(init));
	init.config = config;
	x->s = c->lib->syms.init(&init, &rc);
	if (rc != SS_PLUGIN_SUCCESS) {
		const char *e = x->s ? c->lib->syms.get_last_error(x->s) : NULL;
		snprintf(err, errlen, "plugin_init(%s) failed: %s", config, e ? e : "no error message");
		/* The plugin API lets a host destroy a failed state, but SDK v0.8.3
		 * then runs its async stop hook for a handle that never started
		 * async and panics once any earlier init succeeded. The failed
		 * handle is left alone: one of 255 slots, and the run ends here. */
		x->s = NULL;
		free(x->fields);
		x->fields = NULL;
		return -1;
	}
	if (c->per_field && extractor_per_field(x, err, errlen) != 0) {
		extractor_close(x);
		return -1;
	}
	return 0;
}

void extractor_close(struct extractor *x)
{
	if (x->s)
		x->lib->syms.destroy(x->s);
	x->s = NULL;
	free(x->fields);
	x->fields = NULL;
	free(x->kept);
	x->kept = NULL;
}

int extractor_probe(struct extractor *x, struct probe *p, char *err, size_t errlen)
{
	uint64_t *slots[PROBE_SLOTS] = {
		&p->calls,     &p->tid,	       &p->cpu,	     &p->gomaxprocs, &p->async_configured,
		&p->go_allocs, &p->host_calls, &p->goroutine
	};

	memset(p, 0, sizeof(*p));
	if (x->probe_in.num_fields == 0)
		return 0;
	/* one call of the probe fields, whatever --host-calls says */
	if ((x->plugin_extract ? x->plugin_extract : x->extract)(x->s, &x->evt, &x->probe_in) != SS_PLUGIN_SUCCESS) {
		const char *e = x->lib->syms.get_last_error(x->s);
		snprintf(err, errlen, "probe extraction failed: %s", e ? e : "no error message");
		return -1;
	}
	for (uint32_t i = 0; i < x->probe_in.num_fields; i++) {
		if (x->probe_fields[i].res_len != 1) {
			snprintf(err, errlen, "probe field %s returned %llu values, want 1", x->probe_fields[i].field,
				 (unsigned long long)x->probe_fields[i].res_len);
			return -1;
		}
		*slots[x->probe_slot[i]] = x->probe_fields[i].res.u64[0];
		p->known |= 1u << x->probe_slot[i];
	}
	return 0;
}
