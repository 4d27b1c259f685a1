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
 * signs, zero, a NUL byte, and fewer than JUDGE_MIN_SAMPLES numbers, with a
 * one-line message that starts with name. 0 with *x malloc'd, or -1. From
 * 2 to COMPARE_MIN_SAMPLES - 1 numbers the verdict is inconclusive: too few
 * for an interval that holds its level. */
#define JUDGE_MIN_SAMPLES 2
int judge_parse(const char *text, size_t len, const char *name, double **x, size_t *n, char *err, size_t errlen);

/* Returns the exit status: 0 no regression, 1 regressed, 2 bad input, 4
 * inconclusive (0 with inconclusive_pass). */
int judge_files(const char *base, const char *cur, double threshold, uint64_t seed, int inconclusive_pass, FILE *out,
		const char *prog);

#endif
