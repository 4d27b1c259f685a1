/* report_doc.h — reports made from an analysed document: the summary lines
 * of a run (time: [low median high]), the --compare table, the verdict of a
 * comparison, and the Go benchmark text format. */
#ifndef CGOCOST_REPORT_DOC_H
#define CGOCOST_REPORT_DOC_H

#include <stdio.h>

#include <jansson.h>

/* "time:   [67.95 ns 68.10 ns 68.40 ns]" and its companions for one cell;
 * brief: only the time, spread and outlier lines. */
void report_cell_summary(FILE *out, const json_t *doc, const json_t *cell, int brief);

/* A multi-launch run of one cell: seed lines (totals over launches), the
 * summary, the machine and mode, floors. */
void report_launches_text(FILE *out, const json_t *doc);

/* The same-run ratios of the document, and for the lifecycle the saving of
 * reuse in ns and %. */
void report_ratios_text(FILE *out, const json_t *doc);

/* The floors and what they explain: the C call, the raw C->Go call and the
 * cache-line round trip, then sync as crossing + dispatch and async as a
 * multiple of the round trip (NAN medians: that reading is left out).
 * Every line starts with prefix. */
void report_floors_block(FILE *out, const char *prefix, const char *title, const json_t *floors,
			 double sync_med, double async_med);

/* The --compare table: cells, ratios, floors. */
void report_compare_text(FILE *out, const json_t *doc);

/* --allocators: scenario x allocator, median and interval, change against
 * glibc with its interval and verdict. */
void report_allocators_text(FILE *out, const json_t *doc);

/* The verdict of doc["comparison"], criterion style. */
void report_comparison_text(FILE *out, const json_t *doc);

/* Go benchmark text: goos/goarch/cpu lines, then one line per sample. */
void report_gobench(FILE *out, const json_t *doc);

/* Every warning, as fixed sentences: too few samples for an interval, many
 * outliers, oversubscribed CPUs, stalled batches, async not in effect. With
 * several cells each sentence names its cell. */
void report_doc_warnings(FILE *err, const json_t *doc);

#endif
