/* plugin/extractor.h — the plugin layer's main header. The layer owns what
 * a plugin is and how one call reaches it: the symbol table (symbols.h),
 * the libraries built in or loaded with --plugin (library.h), the fields
 * and field lists (plugin_fields.h, fieldlist.h), the events (event.h), the
 * Go runtime's probes (goruntime.h), a launch's libraries with their load
 * cost (load.h), and the extractor below. It times nothing (timing/ does)
 * and starts no process (orchestrate/ does).
 *
 * One plugin instance with its request arrays, driven by one thread: the
 * timed extraction with its cheap value check, and the untimed probe that
 * tells which thread and CPU ran Extract. Every call goes through the
 * library's symbol table, built in or loaded alike. */
#ifndef CGOCOST_PLUGIN_EXTRACTOR_H
#define CGOCOST_PLUGIN_EXTRACTOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/names.h"
#include "plugin/event.h"
#include "plugin/library.h"
#include "plugin/plugin_fields.h"

struct plugin_config {
	const struct plugin_lib *lib;
	int async;		     /* ask the SDK for async extraction */
	enum work work;		     /* what each timed field returns */
	uint64_t extra_ns;	     /* calibrated slowdown inside Extract */
	uint64_t alloc_bytes;	     /* Go heap bytes the mock allocates per extraction */
	const char *raw;	     /* when set, the init string passed verbatim */
	const struct field_sel *sel; /* --field: the fields to extract; NULL: the work fields */
	uint32_t nsel;
	const struct event_set *events; /* what is extracted from, round robin */
	const char *evtsrc;
	int per_field; /* --per-event --host-calls per-field: the K fields as K calls of one */
};

/* The init configuration: raw when set; cgocost's JSON for a plugin that
 * reads it (it declares cgocost's probe fields); else "" (a foreign
 * plugin's configuration is its own business). */
int plugin_config_format(const struct plugin_config *c, char *buf, size_t len);

/* The probe fields a plugin exposes, at most PROBE_SLOTS. */
struct extractor {
	const struct plugin_lib *lib;
	ss_plugin_rc (*extract)(ss_plugin_t *s, const ss_plugin_event_input *evt,
				const ss_plugin_field_extract_input *in);
	ss_plugin_t *s;
	enum work work;
	int generic; /* --field: success, and one value at most for a non-list field */
	uint32_t nfields;
	ss_plugin_extract_field *fields;
	ss_plugin_field_extract_input in;
	ss_plugin_extract_field probe_fields[PROBE_SLOTS];
	int probe_slot[PROBE_SLOTS]; /* which probe each probe field is */
	ss_plugin_field_extract_input probe_in;
	ss_plugin_event_input evt;
	unsigned char *const *events;
	size_t nevents;
	/* --host-calls per-field (perfield.c): extract is the loop that makes
	 * one call per field, through `one`, to the plugin's own function */
	ss_plugin_rc (*plugin_extract)(ss_plugin_t *s, const ss_plugin_event_input *evt,
				       const ss_plugin_field_extract_input *in);
	ss_plugin_extract_field one;
	ss_plugin_field_extract_input one_in;
	union per_field_value {
		uint64_t u64;
		const char *str;
	} * kept; /* each field's first value, copied out after its call */
};

/* What the untimed probe extraction reports; known says which (a bit per
 * enum probe_slot). */
struct probe {
	unsigned known;
	uint64_t calls; /* Extract calls this instance served, this one included */
	uint64_t tid;	/* OS thread that ran Extract */
	uint64_t cpu;	/* CPU it ran on */
	uint64_t gomaxprocs;
	uint64_t async_configured; /* the SDK's process-wide async switch */
	uint64_t go_allocs;	   /* Go heap objects allocated since start */
	uint64_t host_calls;	   /* plugin_extract_fields calls served, this one included */
	uint64_t goroutine;	   /* the goroutine that ran Extract (with async: the SDK's worker) */
};

#define PROBE_KNOWN(p, slot) (((p)->known >> (slot)) & 1u)

/* plugin_init with the configuration; the work fields (K of them) or the
 * --field selection. Returns 0, or -1 with a message in err; after a failed
 * init plugin_destroy is never called (see extractor.c). */
int extractor_open(struct extractor *x, const struct plugin_config *c, uint32_t fields, char *err, size_t errlen);
void extractor_close(struct extractor *x);
/* Makes x's timed extraction K calls of one field each (perfield.c): what
 * libsinsp's filter check does, one request struct filled per field and
 * its value copied out after each call. 0, or -1 when out of memory. */
int extractor_per_field(struct extractor *x, char *err, size_t errlen);
/* The probe; a plugin without probe fields reports known == 0. */
int extractor_probe(struct extractor *x, struct probe *p, char *err, size_t errlen);

enum extract_status { EXTRACT_OK = 0, EXTRACT_FAILED = -1, EXTRACT_WRONG_VALUE = -2 };

/* --work json's values (out of line: the other kinds' inline check stays
 * as it was). */
int extractor_check_json(const struct extractor *x, uint64_t evtnum);

/* Checks the values the last extraction of event evtnum returned. */
static inline int extractor_check(const struct extractor *x, uint64_t evtnum)
{
	uint32_t i;

	if (x->generic) {
		for (i = 0; i < x->nfields; i++)
			if (!x->fields[i].flist && x->fields[i].res_len > 1)
				return EXTRACT_WRONG_VALUE;
		return EXTRACT_OK;
	}
	switch (x->work) {
	case WORK_NOOP:
		for (i = 0; i < x->nfields; i++)
			if (x->fields[i].res_len != 0)
				return EXTRACT_WRONG_VALUE;
		break;
	case WORK_U64:
		for (i = 0; i < x->nfields; i++)
			if (x->fields[i].res_len != 1 || x->fields[i].res.u64[0] != mock_u64_value(evtnum, i))
				return EXTRACT_WRONG_VALUE;
		break;
	case WORK_JSON:
		return extractor_check_json(x, evtnum);
	case WORK_STR:
		for (i = 0; i < x->nfields; i++)
			if (x->fields[i].res_len != 1 || x->fields[i].res.str[0] == NULL ||
			    strcmp(x->fields[i].res.str[0], mock_str_value(evtnum, i)) != 0)
				return EXTRACT_WRONG_VALUE;
		break;
	case WORK_BARE:
	case WORK_EVENT:
		break; /* nothing is returned, nothing is read back */
	default:
		return EXTRACT_WRONG_VALUE;
	}
	return EXTRACT_OK;
}

/* One timed extraction of event number evtnum. What it touches depends on
 * the work (base/names.h): bare writes nothing and reads nothing back; event
 * writes the event number; the others also read every result and check it. */
static inline int extractor_extract(struct extractor *x, uint64_t evtnum)
{
	if (x->work != WORK_BARE) {
		x->evt.evtnum = evtnum;
		if (x->nevents > 1)
			x->evt.evt = (const ss_plugin_event *)(const void *)x->events[evtnum % x->nevents];
	}
	if (x->extract(x->s, &x->evt, &x->in) != SS_PLUGIN_SUCCESS)
		return EXTRACT_FAILED;
	if (x->work == WORK_BARE || x->work == WORK_EVENT)
		return EXTRACT_OK;
	return extractor_check(x, evtnum);
}

#endif
