/* timing/hostcalls.h — the plugin's own count of plugin_extract_fields
 * calls (the probe field mock.hostcalls) against the calls the driver made:
 * how --per-event's per-field and batched are told apart by the plugin
 * rather than assumed by the host. */
#ifndef CGOCOST_TIMING_HOSTCALLS_H
#define CGOCOST_TIMING_HOSTCALLS_H

#include <stddef.h>
#include <stdint.h>

#include "plugin/extractor.h"

/* Between the probes before and after, the driver extracted `events`
 * events of calls_per_event calls each, then made the after probe's one
 * call. Returns 0 with *counted the plugin's calls per event (NAN when the
 * plugin does not count: a probe missing or PROBE_NOT_COUNTED), or -1 with
 * a message naming both counts when they differ. */
int hostcalls_check(const struct probe *before, const struct probe *after, uint64_t events, uint32_t calls_per_event,
		    double *counted, char *err, size_t errlen);

#endif
