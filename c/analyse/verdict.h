/* analyse/verdict.h — the verdict of a run against a base run (a baseline,
 * or another build measured interleaved with this one), and of every
 * allocator against glibc. Two gates, as everywhere: p < alpha and the whole
 * interval of the change beyond the threshold. */
#ifndef CGOCOST_ANALYSE_VERDICT_H
#define CGOCOST_ANALYSE_VERDICT_H

#include <stdint.h>

#include "model/model.h"

/* The fewest generations (paired blocks) or launches (--interleave
 * launches) on each side for a verdict against another build: with fewer,
 * a build judged against itself was found "regressed" or "improved" too
 * often (measured at small budgets on a loaded 2-CPU machine: the signed-
 * rank interval of six values is the extremes of their Walsh averages;
 * docs/methodology.md). Below it the verdict is undefined, never "no
 * regression". */
#define VERDICT_MIN_GENERATIONS 12

/* Judges cur against base: every cell present in both (absolute times,
 * gated only when the cell keys match, or always when same_time is set:
 * interleaved runs of two builds), and every same-run ratio (always gated:
 * ratios survive a change of machine). Fills cur's comparison; returns 0,
 * or -1 when out of memory. */
int compare_documents(const struct doc *base, struct doc *cur, const char *against, int same_time, double threshold,
		      uint64_t seed);

/* The counting gate (--against EXE --count instructions): judges the
 * instructions per extraction of every cell of cur counted in both, one
 * sample a pair of counted runs, with the same two gates (p < alpha, the
 * whole interval beyond threshold) as every other change; the changes'
 * metric is "instructions". A verdict needs min pairs a side (below it:
 * undefined, "too few pairs of counted runs for a verdict: N of M").
 * Fills cur's comparison (same_time: both builds counted in this run);
 * 0, or -1 when out of memory. */
int compare_counts(const struct doc *base, struct doc *cur, const char *against, double threshold, uint64_t seed,
		   size_t min);

/* Requires min samples on each side of every change of cmp: a change with
 * fewer is made VERDICT_UNDEFINED (its figures kept), and cmp records the
 * minimum, the fewest samples it saw, whether it regressed (on the changes
 * that have enough) and, when some change had too few, why the verdict is
 * undefined ("too few generations for a verdict: N of M"). */
void verdict_require(struct comparison_rec *cmp, size_t min);

/* --allocators: judges every cell named .../malloc=X against the same cell
 * with malloc=glibc (same run, interleaved): fills its vs_glibc. */
void compare_allocators(struct doc *d, double threshold, uint64_t seed);

#endif
