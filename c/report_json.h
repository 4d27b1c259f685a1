/* report_json.h — the measurement record of one launch, and the metadata of
 * a cell (one executable in one mode), as JSON. The document that carries
 * them is described in the README ("JSON output"). */
#ifndef CGOCOST_REPORT_JSON_H
#define CGOCOST_REPORT_JSON_H

#include <jansson.h>

#include "report_text.h"

#define SCHEMA_VERSION 1

/* Mode in effect of a run: "sync", "async", or "mixed" (plugins differ). */
const char *run_mode_in_effect(const struct run *r);

/* The cell name used everywhere (text, JSON, Go benchmark lines):
 * lib=archive/mode=async/work=noop/p=1, with /scenario=, /fields= and
 * /malloc= (an allocator asked for by name) when they apply. A run that
 * asked for async and did not get it is named mode=sync-fallback, never
 * mode=async. */
void cell_name(char *buf, size_t len, const char *lib, int async_requested, const char *in_effect,
	       const char *scenario, const char *work, unsigned plugins, unsigned fields,
	       const char *malloc_name);

json_t *machine_record(const struct machine *m);
json_t *options_record(const struct options *o);
/* The floors' medians as JSON; null when they were not measured. */
json_t *floors_record(const struct floors *f);
/* Everything measured in one launch (one process). */
json_t *launch_record(const struct report *rep);
/* The cell this launch belongs to: executable, library, versions, mode. */
json_t *cell_record(const struct report *rep, const char *executable);

#endif
