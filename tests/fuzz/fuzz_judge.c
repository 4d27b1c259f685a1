/* fuzz_judge.c — libFuzzer target for the --judge reader (analyse/judge.c):
 * the input is a file of samples. What the reader accepts is judged, its
 * first half against its second, with the bootstrap and with the
 * distribution-free interval: neither may fault, and each interval must be
 * ordered. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "analyse/judge.h"
#include "stats/change.h"

static void check(const change_estimate *c)
{
	char line[160];
	if (!isnan(c->lo) && !isnan(c->hi) && c->lo > c->hi)
		abort();
	if (format_change(line, sizeof(line), c) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double *x;
	size_t n, h;
	char err[512];
	change_estimate c;

	if (judge_parse((const char *)data, size, "fuzz.txt", &x, &n, err, sizeof(err)) != 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(isfinite(x[i]) && x[i] > 0))
			abort();
	h = n / 2;
	if (h >= 1 && n <= 4000) {
		if (compare_change_resamples(x, h, x + h, n - h, 0.05, VERDICT_ALPHA, 1, 100, &c) != 0)
			abort();
		check(&c);
		if (compare_change_shift(x, h, x + h, n - h, 0.05, &c) != 0)
			abort();
		check(&c);
	}
	free(x);
	return 0;
}
