/* analyse/verdict.h — the verdict of a run against a base run (a baseline,
 * or another build measured interleaved with this one), and of every
 * allocator against glibc. Two gates, as everywhere: p < alpha and the whole
 * interval of the change beyond the threshold. */
#ifndef CGOCOST_ANALYSE_VERDICT_H
#define CGOCOST_ANALYSE_VERDICT_H

#include <stdint.h>

#include "model/model.h"

/* Judges cur against base: every cell present in both (absolute times,
 * gated only when the cell keys match, or always when same_time is set:
 * interleaved runs of two builds), and every same-run ratio (always gated:
 * ratios survive a change of machine). Fills cur's comparison; returns 0,
 * or -1 when out of memory. */
int compare_documents(const struct doc *base, struct doc *cur, const char *against, int same_time, double threshold,
		      uint64_t seed);

/* --allocators: judges every cell named .../malloc=X against the same cell
 * with malloc=glibc (same run, interleaved): fills its vs_glibc. */
void compare_allocators(struct doc *d, double threshold, uint64_t seed);

#endif
