/* analyse/analysis.h — the analyse layer: it reads the records a run
 * produced and adds what statistics say about them (per-cell summaries and
 * intervals, same-run ratios, verdicts against a base, --judge). It knows
 * the model and the statistics, never how a number was measured.
 *
 * The statistics of a document: per cell, the samples (launch medians, or
 * the batches of a single launch), their summary with the 95% interval of
 * the median and Tukey outliers, CPU cost, cold costs, stalls and floors;
 * and the same-run ratios between cells, one per round. */
#ifndef CGOCOST_ANALYSE_ANALYSIS_H
#define CGOCOST_ANALYSE_ANALYSIS_H

#include <stddef.h>

#include "model/model.h"

/* Adds the statistics to every cell of d, the ratios and the analysis note
 * to d. Returns 0, or -1 with a message. */
int analyse_document(struct doc *d, char *err, size_t errlen);

/* The key that must match for absolute times to be compared: CPU model,
 * online CPUs, kernel release, Go version, library kind and the options
 * that shape the measurement (not the host name, not the injected slowdown). */
void cell_key(const struct doc *d, const struct cell_rec *c, char *buf, size_t len);

#endif
