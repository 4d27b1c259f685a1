/* baseline.h — saved runs and the verdict of a run against a base run
 * (a baseline file, or another build measured interleaved with this one). */
#ifndef CGOCOST_BASELINE_H
#define CGOCOST_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define BASELINE_MAX_BYTES (64u << 20)

/* Writes the document atomically (temporary file, fsync, rename). */
int baseline_save(const char *path, const json_t *doc, char *err, size_t errlen);

/* Reads and validates a saved document: JSON, this schema version, cells
 * with samples. A corrupt, truncated or foreign file is an error (bad input). */
json_t *baseline_load(const char *path, char *err, size_t errlen);

/* Judges cur against base, scenario by scenario: every cell present in both
 * (absolute ns, gated only when the cell keys match, or always when
 * same_time is set: interleaved runs of two builds), and every same-run ratio
 * (always gated: ratios survive a change of machine). Returns the
 * "comparison" object; *regressed is set when a gated scenario regressed. */
json_t *compare_documents(const json_t *base, const json_t *cur, const char *against, int same_time,
			  double threshold, uint64_t seed, int *regressed);

/* --allocators: judges every cell named .../malloc=X against the same cell
 * with malloc=glibc (same run, interleaved), adding "vs_glibc" to it. */
void compare_allocators(json_t *doc, double threshold, uint64_t seed);

#endif
