/* analyse/judge.h — the verdict on two plain sample files (one number per line,
 * lower is better): the same two gates as every cgocost comparison, for
 * numbers measured by something else (a Go benchmark, a script). */
#ifndef CGOCOST_ANALYSE_JUDGE_H
#define CGOCOST_ANALYSE_JUDGE_H

#include <stdint.h>
#include <stdio.h>

/* Returns the exit status: 0 no regression, 1 regressed, 2 bad input. */
int judge_files(const char *base, const char *cur, double threshold, uint64_t seed, FILE *out, const char *prog);

#endif
