/* analysis.h — statistics of a measurement document: per cell, the samples
 * (launch medians, or the batches of a single launch), their summary with
 * the 95% interval of the median and Tukey outliers, CPU cost, cold costs,
 * stalls and floors; and the same-run ratios between cells, per round. */
#ifndef CGOCOST_ANALYSIS_H
#define CGOCOST_ANALYSIS_H

#include <stddef.h>

#include <jansson.h>

#include "stats.h"

/* Adds "statistics", "samples" and the derived fields to every cell of doc,
 * "ratios" to doc, and "analysis" (what a sample is, the interval level).
 * Returns 0, or -1 with a message. */
int analyse_document(json_t *doc, char *err, size_t errlen);

/* A summary as JSON (null for undefined values), with its unit. */
json_t *summary_record(const stats_summary *s, const char *unit);

/* The cell of a library asked to run in mode ("sync"/"async") for a
 * scenario ("extract", "alloc", "reuse"); NULL if the document has none. */
json_t *find_cell(const json_t *cells, const char *lib, const char *mode, const char *scenario);
/* Whether the mode in effect is the one requested. */
int cell_ran_as_asked(const json_t *cell);

/* Reads a JSON array of numbers into a malloc'd array; *n its length. */
double *samples_from_json(const json_t *array, size_t *n);

/* The key that must match for absolute times to be compared: CPU model,
 * online CPUs, kernel release, Go version, library kind and the options
 * that shape the measurement (not the host name, not the injected slowdown). */
void cell_key(const json_t *doc, const json_t *cell, char *buf, size_t len);

#endif
