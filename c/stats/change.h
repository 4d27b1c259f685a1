/* stats/change.h - the two-gate verdict on a change between two sample sets
 * (criterion style). Pure: no I/O. Lower values are better (ns per op). */
#ifndef CGOCOST_STATS_CHANGE_H
#define CGOCOST_STATS_CHANGE_H

#include <stddef.h>

#define COMPARE_RESAMPLES     10000 /* bootstrap resamples of compare_change */
/* fewer on a side: VERDICT_UNDEFINED, no interval. Below 5 + 5 the
 * bootstrap interval of a change of medians covers the true change far
 * less often than 95% (simulated: 66-67% at 2 + 2, 89-91% at 3 + 3, 92% at
 * 4 + 4, 95% from 5 + 5 on), so none is printed there. */
#define COMPARE_MIN_SAMPLES   5
/* Above this many samples (both sides together) the bootstrap, which costs
 * COMPARE_RESAMPLES x n, gives way to the distribution-free interval of the
 * shift of log values (stats/shift.h), which costs O(n log n). */
#define COMPARE_BOOTSTRAP_MAX 10000
#define VERDICT_ALPHA	      0.05 /* the significance gate of every cgocost verdict */

/* Three answers a gate acts on: regressed (the whole interval above
 * +threshold), no regression (the whole interval below +threshold: a
 * regression as large as the threshold is ruled out; NO_CHANGE,
 * WITHIN_NOISE and IMPROVED are its kinds), inconclusive (the interval
 * reaches +threshold without lying above it: neither shown nor ruled out);
 * and UNDEFINED, too few samples for an interval, which a gate treats as
 * inconclusive. */
typedef enum {
	VERDICT_UNDEFINED,
	VERDICT_NO_CHANGE,
	VERDICT_WITHIN_NOISE,
	VERDICT_IMPROVED,
	VERDICT_REGRESSED,
	VERDICT_INCONCLUSIVE
} verdict_t;

/* Whether v rules a regression out: NO_CHANGE, WITHIN_NOISE or IMPROVED. */
int verdict_passes(verdict_t v);

typedef struct change_estimate {
	double lo, point,
		hi; /* relative change of the median, cur/base - 1, as a fraction (0.05 = +5%); 95% interval */
	double p;   /* Mann-Whitney U two-sided p-value on the raw samples */
	double alpha, threshold; /* gates used */
	unsigned long long seed; /* bootstrap seed used, printed so the analysis is reproducible */
	int resamples;
	verdict_t verdict;
} change_estimate;

/* Estimates the change from base[0..nb) to cur[0..nc): point = median(cur) /
 * median(base) - 1; [lo, hi] = 2.5% and 97.5% percentiles of that ratio over
 * COMPARE_RESAMPLES bootstrap resamples (both sides resampled independently,
 * with stats_rng seeded by seed, so equal inputs and seed give identical
 * intervals); p = stats_mann_whitney_p(base, cur); then compare_verdict.
 * With fewer than COMPARE_MIN_SAMPLES on a side the verdict is
 * VERDICT_UNDEFINED and lo, hi, p are NAN (point is set when both sides have
 * a sample). Samples must be finite and > 0.
 * Returns 0; or -1 with errno EINVAL (a NULL pointer with n > 0, a sample
 * that is not finite and > 0, threshold not finite and >= 0, alpha not in
 * (0, 1)) or ENOMEM; out, if not NULL, then holds an undefined estimate. */
int compare_change(const double *base, size_t nb, const double *cur, size_t nc, double threshold, double alpha,
		   unsigned long long seed, change_estimate *out);

/* Above COMPARE_BOOTSTRAP_MAX samples [lo, hi] is instead
 * compare_change_shift's interval, and resamples is 0. */

/* The same with an explicit number of resamples (>= 100): always the
 * bootstrap. */
int compare_change_resamples(const double *base, size_t nb, const double *cur, size_t nc, double threshold,
			     double alpha, unsigned long long seed, int resamples, change_estimate *out);

/* The same with the distribution-free interval at the 95% level: [lo, hi]
 * = exp of Hodges-Lehmann/Bauer's interval for the shift of log(cur) over
 * log(base), minus 1; the point is still the change of the median, p the
 * same rank test. O((nb + nc) log); no seed. resamples is 0. */
int compare_change_shift(const double *base, size_t nb, const double *cur, size_t nc, double threshold,
			 change_estimate *out);

/* The gates alone: any NAN input -> UNDEFINED; p < alpha and lo >
 * +threshold -> REGRESSED; otherwise hi >= +threshold -> INCONCLUSIVE;
 * otherwise (hi < +threshold, a regression of the threshold ruled out)
 * p < alpha and hi < -threshold -> IMPROVED, p < alpha -> WITHIN_NOISE,
 * p >= alpha -> NO_CHANGE. */
verdict_t compare_verdict(double lo, double hi, double p, double alpha, double threshold);

/* An inconclusive change's distance from a decision: about how many times
 * its samples it would need for its interval to leave +threshold, were the
 * interval to shrink as 1/sqrt(n) around the same point: (hi - point) /
 * (threshold - point), squared, when the point lies below the threshold;
 * (point - lo) / (point - threshold), squared, above it. NAN when the point
 * is on the threshold or an input is NAN. */
double change_need_factor(const change_estimate *c);

/* "Performance has regressed." / "Performance has improved." /
 * "No change in performance detected." / "Change within noise threshold." /
 * "Inconclusive: a change as large as the threshold is neither shown nor
 * ruled out." / for VERDICT_UNDEFINED: "Too few samples to detect a change
 * (need at least 5 on each side)." */
const char *verdict_sentence(verdict_t v);

/* Short ASCII name for machine formats: "undefined", "no_change",
 * "within_noise", "improved", "regressed", "inconclusive". */
const char *verdict_name(verdict_t v);
/* The verdict of a name verdict_name gives; 0, or -1 for an unknown name. */
int verdict_parse(const char *name, verdict_t *v);

/* criterion's line, e.g. "change: [-3.37% -3.34% -3.32%] (p = 0.00 < 0.05)"
 * or "change: [1.95% +2.00% 2.05%] (p = 0.42 > 0.05)": percentages with two
 * decimals, the point always signed (as criterion), "<" when p < alpha else
 * ">", p and alpha with two decimals (more if alpha needs them, e.g. 0.001;
 * p with more, up to six, when it would round to alpha without being it:
 * "p = 0.0496 < 0.05");
 * a NAN or infinite value prints as "n/a". No newline. Returns the length
 * written, or -1 if c or buf is NULL or the line does not fit in len bytes
 * (80 bytes always suffice: a |change| of 1e6% or more prints in exponent
 * form, "+1.11e+163%"). */
int format_change(char *buf, size_t len, const change_estimate *c);

#endif
