/* analyse/judge.c — see judge.h. */
#include "analyse/judge.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomicfile.h"
#include "base/status.h"
#include "stats/change.h"

#define JUDGE_MAX_BYTES (64u << 20)

/* A decimal number as people write one: digits with an optional fraction and
 * exponent ("12", "1.5", ".5", "2e3"). No sign, no hex (0x10), no inf or
 * nan: what strtod would also take is refused, as -n 0x10 is. */
static int decimal(const char *s, const char *end)
{
	int digits = 0;

	while (s < end && *s >= '0' && *s <= '9')
		s++, digits++;
	if (s < end && *s == '.')
		for (s++; s < end && *s >= '0' && *s <= '9'; s++)
			digits++;
	if (digits == 0)
		return 0;
	if (s < end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < end && (*s == '+' || *s == '-'))
			s++;
		if (s == end || *s < '0' || *s > '9')
			return 0;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	}
	return s == end;
}

static int push(double **x, size_t *n, size_t *cap, double v)
{
	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 64;
		double *y = realloc(*x, ncap * sizeof(double));
		if (y == NULL)
			return -1;
		*x = y;
		*cap = ncap;
	}
	(*x)[(*n)++] = v;
	return 0;
}

int judge_parse(const char *text, size_t len, const char *name, double **out, size_t *nout, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	size_t n = 0, cap = 0, lineno = 0;
	double *x = NULL;

	*out = NULL;
	*nout = 0;
	if (memchr(text, '\0', len) != NULL) {
		snprintf(err, errlen, "%s: holds a NUL byte: not a text file of numbers", name);
		return -1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end, *s = p, *e = eol;
		char num[64], *stop;
		double v;

		p = nl ? nl + 1 : end;
		lineno++;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (s == e || *s == '#')
			continue;
		if (!decimal(s, e) || (size_t)(e - s) >= sizeof(num)) {
			snprintf(err, errlen, "%s: line %zu is not a positive decimal number: '%.*s'", name, lineno,
				 (int)(e - s < 40 ? e - s : 40), s);
			goto bad;
		}
		memcpy(num, s, (size_t)(e - s));
		num[e - s] = '\0';
		errno = 0;
		v = strtod(num, &stop);
		if (*stop != '\0' || !isfinite(v) || v <= 0) {
			snprintf(err, errlen, "%s: line %zu is not a positive finite number: '%s'", name, lineno, num);
			goto bad;
		}
		if (!isnormal(v)) { /* its ratios and logs would lose all precision */
			snprintf(err, errlen,
				 "%s: line %zu is too small to compute with (subnormal, below 2.2e-308): '%s'", name,
				 lineno, num);
			goto bad;
		}
		if (push(&x, &n, &cap, v) != 0) {
			snprintf(err, errlen, "out of memory");
			goto bad;
		}
	}
	if (n < JUDGE_MIN_SAMPLES) {
		snprintf(err, errlen, "%s: %zu %s, a verdict needs at least %d", name, n, n == 1 ? "sample" : "samples",
			 JUDGE_MIN_SAMPLES);
		goto bad;
	}
	*out = x;
	*nout = n;
	return 0;
bad:
	free(x);
	return -1;
}

static int read_samples(const char *path, double **x, size_t *n, char *err, size_t errlen)
{
	char *data;
	size_t len;
	int rc;

	if (read_whole_file(path, &data, &len, JUDGE_MAX_BYTES, err, errlen) != 0)
		return -1;
	rc = judge_parse(data, len, path, x, n, err, errlen);
	free(data);
	return rc;
}

int judge_files(const char *base, const char *cur, double threshold, uint64_t seed, int inconclusive_pass, FILE *out,
		const char *prog)
{
	char err[512], line[128];
	size_t nb = 0, nc = 0;
	double *xb = NULL, *xc = NULL;
	change_estimate ch;
	int rc = EXIT_BAD_INPUT;

	if (read_samples(base, &xb, &nb, err, sizeof(err)) != 0 || read_samples(cur, &xc, &nc, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --judge: %s (see %s --help)\n", prog, err, prog);
		goto out;
	}
	if (compare_change(xb, nb, xc, nc, threshold, VERDICT_ALPHA, seed, &ch) != 0) {
		fprintf(stderr, "%s: --judge: cannot compare %s and %s\n", prog, base, cur);
		rc = EXIT_RUN_FAILED;
		goto out;
	}
	if (format_change(line, sizeof(line), &ch) < 0)
		snprintf(line, sizeof(line), "change: n/a");
	fprintf(out, "%s %s\n", line, verdict_sentence(ch.verdict));
	rc = ch.verdict == VERDICT_REGRESSED		       ? EXIT_REGRESSION
	     : verdict_passes(ch.verdict) || inconclusive_pass ? EXIT_OK
							       : EXIT_INCONCLUSIVE;
out:
	free(xb);
	free(xc);
	return rc;
}
