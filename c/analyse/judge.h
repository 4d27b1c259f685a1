/* analyse/judge.h — the verdict on two plain sample files (one number per line,
 * lower is better): the same two gates as every cgocost comparison, for
 * numbers measured by something else (a Go benchmark, a script). */
#ifndef CGOCOST_ANALYSE_JUDGE_H
#define CGOCOST_ANALYSE_JUDGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Parses text[0..len) (not NUL-terminated), one positive decimal number a
 * line; blank lines and '#' comments are skipped. Refuses hex, inf, nan,
 * signs, zero, a NUL byte, and fewer than COMPARE_MIN_SAMPLES numbers, with a
 * one-line message that starts with name. 0 with *x malloc'd, or -1. */
int judge_parse(const char *text, size_t len, const char *name, double **x, size_t *n, char *err, size_t errlen);

/* Returns the exit status: 0 no regression, 1 regressed, 2 bad input. */
int judge_files(const char *base, const char *cur, double threshold, uint64_t seed, FILE *out, const char *prog);

#endif
