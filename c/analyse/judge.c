/* analyse/judge.c — see judge.h. */
#include "analyse/judge.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomicfile.h"
#include "base/status.h"
#include "stats/change.h"

#define JUDGE_MAX_BYTES (16u << 20)

/* Reads one positive number per line; blank lines and '#' comments skipped. */
static double *read_samples(const char *path, size_t *n, char *err, size_t errlen)
{
	char *data, *line, *save = NULL;
	size_t len, cap = 64, k = 0, lineno = 0;
	double *x = malloc(cap * sizeof(double));

	*n = 0;
	if (x == NULL || read_whole_file(path, &data, &len, JUDGE_MAX_BYTES, err, errlen) != 0) {
		free(x);
		return NULL;
	}
	for (line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end;
		double v;
		lineno++;
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line == '\0' || *line == '#')
			continue;
		errno = 0;
		v = strtod(line, &end);
		while (*end == ' ' || *end == '\t' || *end == '\r')
			end++;
		if (errno || end == line || *end != '\0' || !isfinite(v) || v <= 0) {
			snprintf(err, errlen, "%s: line %zu is not a positive number: '%.40s'", path, lineno, line);
			free(data);
			free(x);
			return NULL;
		}
		if (k == cap) {
			double *y = realloc(x, 2 * cap * sizeof(double));
			if (y == NULL) {
				free(data);
				free(x);
				snprintf(err, errlen, "out of memory");
				return NULL;
			}
			x = y;
			cap *= 2;
		}
		x[k++] = v;
	}
	free(data);
	*n = k;
	return x;
}

int judge_files(const char *base, const char *cur, double threshold, uint64_t seed, FILE *out, const char *prog)
{
	char err[512], line[128];
	size_t nb, nc;
	double *xb = read_samples(base, &nb, err, sizeof(err)), *xc = NULL;
	change_estimate ch;
	int rc = EXIT_BAD_INPUT;

	if (xb == NULL) {
		fprintf(stderr, "%s: --judge: %s\n", prog, err);
		return EXIT_BAD_INPUT;
	}
	xc = read_samples(cur, &nc, err, sizeof(err));
	if (xc == NULL) {
		fprintf(stderr, "%s: --judge: %s\n", prog, err);
		goto out;
	}
	if (compare_change(xb, nb, xc, nc, threshold, VERDICT_ALPHA, seed, &ch) != 0) {
		fprintf(stderr, "%s: --judge: cannot compare %s and %s\n", prog, base, cur);
		goto out;
	}
	format_change(line, sizeof(line), &ch);
	fprintf(out, "%s %s\n", line, verdict_sentence(ch.verdict));
	rc = ch.verdict == VERDICT_REGRESSED ? EXIT_REGRESSION : EXIT_OK;
out:
	free(xb);
	free(xc);
	return rc;
}
