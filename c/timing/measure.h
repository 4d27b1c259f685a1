/* timing/measure.h — the timing layer's main header. The layer owns what
 * happens inside one launch: the callers' threads and the timed loops
 * (runner.h; loops.h: closed, open, served blocks), batches and series,
 * schedules and idle gaps, the reuse pool, the floors and the reference
 * handoff, the watchdog, allocation counts, and the records a run fills
 * (record.h). It never starts a process (orchestrate/ does).
 *
 * measure_here is one launch in this process: the plugin libraries opened
 * and checked (plugin/load.h), the floors (when asked), then the scenario
 * or scenarios, each verified and recorded as a cell with this one launch. */
#ifndef CGOCOST_TIMING_MEASURE_H
#define CGOCOST_TIMING_MEASURE_H

#include <stddef.h>

#include "base/sysinfo.h"
#include "model/model.h"

/* Fills d (machine, options, cells). Returns EXIT_OK, EXIT_BAD_INPUT (a
 * library or its options, found before anything is measured) or
 * EXIT_RUN_FAILED, with the failures, one per line, in err. */
int measure_here(const struct options *o, const struct machine *m, struct doc *d, char *err, size_t errlen);

#endif
