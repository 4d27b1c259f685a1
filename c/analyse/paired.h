/* analyse/paired.h — the statistics of a paired run: per ratio, one sample a
 * round (the numerator's block over the denominator's, a few milliseconds
 * apart); the median with its distribution-free 95% interval, the same for
 * CPU time, and the Wilcoxon signed-rank test of the log ratios against 0.
 * The judged ratios (this build over the --against base, cell by cell) get
 * the two gates of every verdict: p < alpha and the whole interval beyond
 * the threshold. */
#ifndef CGOCOST_ANALYSE_PAIRED_H
#define CGOCOST_ANALYSE_PAIRED_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "stats/change.h"

/* Fills the statistics of every ratio of d->paired. 0, or -1 with a message. */
int analyse_paired(struct doc *d, double threshold, char *err, size_t errlen);

/* --against in pairs: d's comparison from the judged ratios (kind "pair").
 * 0, or -1 when out of memory. */
int compare_paired(struct doc *d, const char *against, double threshold);

/* One look of a sequential --against (orchestrate/pairs.c): every judged
 * ratio over the generations so far, its interval at 1 - alpha / (the
 * judged ratios) (Bonferroni over the ratios, as over the looks). Returns
 * VERDICT_REGRESSED when one regressed; VERDICT_NO_CHANGE when every one
 * rules a regression out (verdict_passes); else VERDICT_INCONCLUSIVE;
 * VERDICT_UNDEFINED with no judged ratio. Out of memory: inconclusive. */
verdict_t paired_look(const struct paired_rec *pr, double alpha, double threshold);

#endif
