/* stats/change.c - bootstrap interval of the change of the median, rank test,
 * two-gate verdict and its report line. */
#include "stats/change.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/shift.h"
#include "stats/stats.h"

verdict_t compare_verdict(double lo, double hi, double p, double alpha, double threshold)
{
	if (isnan(lo) || isnan(hi) || isnan(p) || isnan(alpha) || isnan(threshold))
		return VERDICT_UNDEFINED;
	if (p < alpha && lo > threshold)
		return VERDICT_REGRESSED;
	if (!(hi < threshold))
		return VERDICT_INCONCLUSIVE;
	if (!(p < alpha))
		return VERDICT_NO_CHANGE;
	if (hi < -threshold)
		return VERDICT_IMPROVED;
	return VERDICT_WITHIN_NOISE;
}

double change_need_factor(const change_estimate *c)
{
	double f = NAN;

	if (c->point < c->threshold)
		f = (c->hi - c->point) / (c->threshold - c->point);
	else if (c->point > c->threshold)
		f = (c->point - c->lo) / (c->point - c->threshold);
	return isfinite(f) ? f * f : NAN;
}

int verdict_passes(verdict_t v)
{
	return v == VERDICT_NO_CHANGE || v == VERDICT_WITHIN_NOISE || v == VERDICT_IMPROVED;
}

const char *verdict_sentence(verdict_t v)
{
	switch (v) {
	case VERDICT_REGRESSED:
		return "Performance has regressed.";
	case VERDICT_IMPROVED:
		return "Performance has improved.";
	case VERDICT_NO_CHANGE:
		return "No change in performance detected.";
	case VERDICT_WITHIN_NOISE:
		return "Change within noise threshold.";
	case VERDICT_INCONCLUSIVE:
		return "Inconclusive: a change as large as the threshold is neither shown nor ruled out.";
	case VERDICT_UNDEFINED:
		break;
	}
	return "Too few samples to detect a change (need at least 5 on each side).";
}

const char *verdict_name(verdict_t v)
{
	switch (v) {
	case VERDICT_REGRESSED:
		return "regressed";
	case VERDICT_IMPROVED:
		return "improved";
	case VERDICT_NO_CHANGE:
		return "no_change";
	case VERDICT_WITHIN_NOISE:
		return "within_noise";
	case VERDICT_INCONCLUSIVE:
		return "inconclusive";
	case VERDICT_UNDEFINED:
		break;
	}
	return "undefined";
}

int verdict_parse(const char *name, verdict_t *v)
{
	for (int i = VERDICT_UNDEFINED; i <= VERDICT_INCONCLUSIVE; i++)
		if (strcmp(name, verdict_name((verdict_t)i)) == 0) {
			*v = (verdict_t)i;
			return 0;
		}
	return -1;
}

static int valid_samples(const double *x, size_t n)
{
	if (n > 0 && !x)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(isfinite(x[i]) && x[i] > 0.0))
			return 0;
	return 1;
}

/* Median of n draws with replacement from sorted[0..n). The draw is kept as a
 * histogram of indices into the sorted array, so the order statistics of the
 * resample are found by walking cumulative counts (O(n), no comparisons). */
static double resample_median(stats_rng *r, const double *sorted, size_t n, size_t *count)
{
	for (size_t i = 0; i < n; i++)
		count[i] = 0;
	for (size_t i = 0; i < n; i++)
		count[stats_rng_below(r, n)]++;
	size_t want_lo = (n - 1) / 2, want_hi = n / 2, cum = 0, i = 0;
	while (cum + count[i] <= want_lo)
		cum += count[i++];
	double lo = sorted[i];
	while (cum + count[i] <= want_hi)
		cum += count[i++];
	return lo + 0.5 * (sorted[i] - lo);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof *s);
	if (s) {
		for (size_t i = 0; i < n; i++)
			s[i] = x[i];
		stats_sort(s, n);
	}
	return s;
}

/* Percentile bootstrap of median(cur)/median(base) - 1. */
static int bootstrap(const double *base, size_t nb, const double *cur, size_t nc, unsigned long long seed,
		     int resamples, double *lo, double *hi)
{
	double *ratios = malloc((size_t)resamples * sizeof *ratios);
	size_t *count = malloc((nb > nc ? nb : nc) * sizeof *count);
	double *sb = sorted_copy(base, nb), *sc = sorted_copy(cur, nc);
	int rc = -1;
	if (ratios && count && sb && sc) {
		stats_rng r;
		stats_rng_seed(&r, (uint64_t)seed);
		for (int i = 0; i < resamples; i++) {
			double mb = resample_median(&r, sb, nb, count);
			double mc = resample_median(&r, sc, nc, count);
			ratios[i] = mc / mb - 1.0;
		}
		stats_sort(ratios, (size_t)resamples);
		*lo = stats_quantile_sorted(ratios, (size_t)resamples, 0.025);
		*hi = stats_quantile_sorted(ratios, (size_t)resamples, 0.975);
		rc = 0;
	}
	free(ratios);
	free(count);
	free(sb);
	free(sc);
	return rc;
}

/* The distribution-free interval of the shift of log values, as a change:
 * exp(shift) - 1. */
static int shift_of_logs(const double *base, size_t nb, const double *cur, size_t nc, double *lo, double *hi)
{
	double *lb = malloc(nb * sizeof *lb), *lc = malloc(nc * sizeof *lc);
	int rc = -1;

	if (lb && lc) {
		for (size_t i = 0; i < nb; i++)
			lb[i] = log(base[i]);
		for (size_t i = 0; i < nc; i++)
			lc[i] = log(cur[i]);
		stats_sort(lb, nb);
		stats_sort(lc, nc);
		rc = shift_interval(lb, nb, lc, nc, SHIFT_Z95, lo, hi);
		if (rc == 0) {
			*lo = expm1(*lo);
			*hi = expm1(*hi);
		} else {
			*lo = *hi = NAN; /* too few samples for the level */
			rc = 0;
		}
	}
	free(lb);
	free(lc);
	return rc;
}

/* resamples > 0: the bootstrap with that many resamples; 0: the shift
 * interval. */
static int change_with(const double *base, size_t nb, const double *cur, size_t nc, double threshold, double alpha,
		       unsigned long long seed, int resamples, change_estimate *out)
{
	if (!out) {
		errno = EINVAL;
		return -1;
	}
	*out = (change_estimate){ NAN, NAN, NAN, NAN, alpha, threshold, seed, resamples, VERDICT_UNDEFINED };
	if (!valid_samples(base, nb) || !valid_samples(cur, nc) || !(isfinite(threshold) && threshold >= 0.0) ||
	    !(alpha > 0.0 && alpha < 1.0) || (resamples != 0 && resamples < 100)) {
		errno = EINVAL;
		return -1;
	}
	if (nb == 0 || nc == 0)
		return 0;
	double mb = stats_median(base, nb), mc = stats_median(cur, nc);
	if (isnan(mb) || isnan(mc)) {
		errno = ENOMEM;
		return -1;
	}
	out->point = mc / mb - 1.0;
	if (nb < COMPARE_MIN_SAMPLES || nc < COMPARE_MIN_SAMPLES)
		return 0;

	double p = stats_mann_whitney_p(base, nb, cur, nc);
	double lo, hi;
	if (isnan(p) || (resamples > 0 ? bootstrap(base, nb, cur, nc, seed, resamples, &lo, &hi)
				       : shift_of_logs(base, nb, cur, nc, &lo, &hi)) != 0) {
		out->point = NAN;
		errno = ENOMEM;
		return -1;
	}
	out->lo = lo;
	out->hi = hi;
	out->p = p;
	out->verdict = compare_verdict(lo, hi, p, alpha, threshold);
	return 0;
}

int compare_change_resamples(const double *base, size_t nb, const double *cur, size_t nc, double threshold,
			     double alpha, unsigned long long seed, int resamples, change_estimate *out)
{
	if (resamples < 100) {
		if (out)
			*out = (change_estimate){ NAN,	NAN,	   NAN,
						  NAN,	alpha,	   threshold,
						  seed, resamples, VERDICT_UNDEFINED };
		errno = EINVAL;
		return -1;
	}
	return change_with(base, nb, cur, nc, threshold, alpha, seed, resamples, out);
}

int compare_change_shift(const double *base, size_t nb, const double *cur, size_t nc, double threshold,
			 change_estimate *out)
{
	return change_with(base, nb, cur, nc, threshold, VERDICT_ALPHA, 0, 0, out);
}

int compare_change(const double *base, size_t nb, const double *cur, size_t nc, double threshold, double alpha,
		   unsigned long long seed, change_estimate *out)
{
	if (nb + nc > COMPARE_BOOTSTRAP_MAX)
		return change_with(base, nb, cur, nc, threshold, alpha, seed, 0, out);
	return compare_change_resamples(base, nb, cur, nc, threshold, alpha, seed, COMPARE_RESAMPLES, out);
}

/* ---- the report line ----------------------------------------------------- */

/* Appends one percentage ("n/a" if not finite); signed adds '+' to positives.
 * Values that round to zero print without a minus sign. */
static void put_pct(char *s, size_t cap, double frac, int sign)
{
	if (!isfinite(frac)) {
		snprintf(s, cap, "n/a");
		return;
	}
	double pct = frac * 100.0;
	if (!isfinite(pct)) { /* a finite change beyond DBL_MAX / 100 */
		snprintf(s, cap, "n/a");
		return;
	}
	if (fabs(pct) < 0.005)
		pct = 0.0;
	/* a change of a million percent or more (samples of 1e-200 against
	 * 1, say) in exponent form: %.2f of it would print hundreds of digits */
	if (fabs(pct) >= 1e6)
		snprintf(s, cap, sign ? "%+.2e%%" : "%.2e%%", pct);
	else
		snprintf(s, cap, sign ? "%+.2f%%" : "%.2f%%", pct);
}

/* Digits for p and alpha: 2, or as many as alpha needs (0.001 -> 3), max 6. */
static int alpha_digits(double alpha)
{
	int d = 2;
	if (!isfinite(alpha))
		return d;
	while (d < 6) {
		double scaled = alpha * pow(10.0, d);
		if (fabs(scaled - round(scaled)) < 1e-9 * (scaled > 1.0 ? scaled : 1.0) && round(scaled) >= 1.0)
			break;
		d++;
	}
	return d;
}

static void put_prob(char *s, size_t cap, double v, int digits)
{
	if (isfinite(v))
		snprintf(s, cap, "%.*f", digits, v);
	else
		snprintf(s, cap, "n/a");
}

int format_change(char *buf, size_t len, const change_estimate *c)
{
	if (!buf || !c)
		return -1;
	char lo[48], pt[48], hi[48], p[32], a[32];
	int d = alpha_digits(c->alpha), dp = d;
	/* a p that differs from alpha gets the digits that show it: never
	 * "p = 0.05 < 0.05" for a p of 0.0496 (at most 6) */
	while (dp < 6 && isfinite(c->p) && c->p != c->alpha &&
	       fabs(round(c->p * pow(10.0, dp)) - c->alpha * pow(10.0, dp)) < 1e-9)
		dp++;
	put_pct(lo, sizeof lo, c->lo, 0);
	put_pct(pt, sizeof pt, c->point, 1);
	put_pct(hi, sizeof hi, c->hi, 0);
	put_prob(p, sizeof p, c->p, dp);
	put_prob(a, sizeof a, c->alpha, d);
	int significant = c->p < c->alpha; /* false when either is NAN */
	int n = snprintf(buf, len, "change: [%s %s %s] (p = %s %s %s)", lo, pt, hi, p, significant ? "<" : ">", a);
	if (n < 0 || (size_t)n >= len)
		return -1;
	return n;
}
