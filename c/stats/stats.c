/* stats.c - summary statistics, median interval, Mann-Whitney U, PRNG. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- ordering ---------------------------------------------------------- */

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

void stats_sort(double *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof *x, cmp_double);
}

static void swap_d(double *x, ptrdiff_t i, ptrdiff_t j)
{
	double t = x[i];
	x[i] = x[j];
	x[j] = t;
}

/* Quickselect with a median-of-three pivot and Hoare partitioning. */
double stats_select(double *x, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (hi > lo) {
		ptrdiff_t mid = lo + (hi - lo) / 2;
		if (x[mid] < x[lo])
			swap_d(x, mid, lo);
		if (x[hi] < x[lo])
			swap_d(x, hi, lo);
		if (x[hi] < x[mid])
			swap_d(x, hi, mid);
		double pivot = x[mid];
		ptrdiff_t i = lo, j = hi;
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				swap_d(x, i, j);
				i++;
				j--;
			}
		}
		/* x[lo..j] <= pivot, x[i..hi] >= pivot, x[j+1..i-1] == pivot */
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			return x[kk];
	}
	return x[kk];
}

/* ---- quantiles and summary --------------------------------------------- */

double stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	if (n == 0 || !(q >= 0.0 && q <= 1.0))
		return NAN;
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	double frac = h - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

static int has_nan(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i]))
			return 1;
	return 0;
}

double stats_median_inplace(double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double hi = stats_select(x, n, n / 2);
	if (n % 2)
		return hi;
	/* the lower middle is the largest value left of index n/2 */
	double lo = x[0];
	for (size_t i = 1; i < n / 2; i++)
		if (x[i] > lo)
			lo = x[i];
	return lo + 0.5 * (hi - lo);
}

double stats_median(const double *x, size_t n)
{
	if (n == 0 || has_nan(x, n))
		return NAN;
	double *tmp = malloc(n * sizeof *tmp);
	if (!tmp)
		return NAN;
	memcpy(tmp, x, n * sizeof *tmp);
	double m = stats_median_inplace(tmp, n);
	free(tmp);
	return m;
}

int stats_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi, double *coverage)
{
	if (n == 0 || !(level > 0.0 && level < 1.0))
		return -1;
	double tail = (1.0 - level) / 2.0;
	double logp = -(double)n * log(2.0); /* log P(B = 0) */
	double cum = 0.0, best_cum = 0.0;
	size_t best = 0;

	/* rank r = k + 1 is usable while P(B <= k) <= tail and r <= n + 1 - r */
	for (size_t k = 0; 2 * k < n; k++) {
		cum += exp(logp);
		if (cum > tail)
			break;
		best = k + 1;
		best_cum = cum;
		logp += log((double)(n - k) / (double)(k + 1));
	}
	if (best == 0)
		return -1;
	if (lo)
		*lo = best;
	if (hi)
		*hi = n + 1 - best;
	if (coverage)
		*coverage = 1.0 - 2.0 * best_cum;
	return 0;
}

static void summary_undefined(stats_summary *out, size_t n)
{
	memset(out, 0, sizeof *out);
	out->n = n;
	out->median = out->mean = out->stddev = out->min = out->max = NAN;
	out->q1 = out->q3 = NAN;
	out->ci_lo = out->ci_hi = out->ci_level = NAN;
}

static void count_outliers(const double *s, size_t n, stats_summary *out)
{
	double iqr = out->q3 - out->q1;
	double lo_mild = out->q1 - 1.5 * iqr, lo_severe = out->q1 - 3.0 * iqr;
	double hi_mild = out->q3 + 1.5 * iqr, hi_severe = out->q3 + 3.0 * iqr;

	for (size_t i = 0; i < n; i++) {
		if (s[i] < lo_severe)
			out->low_severe++;
		else if (s[i] < lo_mild)
			out->low_mild++;
		else if (s[i] > hi_severe)
			out->high_severe++;
		else if (s[i] > hi_mild)
			out->high_mild++;
	}
}

int stats_summarize(const double *x, size_t n, stats_summary *out)
{
	summary_undefined(out, n);
	if (n == 0 || has_nan(x, n))
		return 0;

	double *s = malloc(n * sizeof *s);
	if (!s) {
		summary_undefined(out, 0);
		return -1;
	}
	memcpy(s, x, n * sizeof *s);
	stats_sort(s, n);

	double sum = 0.0;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	if (n >= 2) {
		double ss = 0.0;
		for (size_t i = 0; i < n; i++)
			ss += (s[i] - out->mean) * (s[i] - out->mean);
		out->stddev = sqrt(ss / (double)(n - 1));
	}
	out->min = s[0];
	out->max = s[n - 1];
	out->median = stats_quantile_sorted(s, n, 0.5);
	out->q1 = stats_quantile_sorted(s, n, 0.25);
	out->q3 = stats_quantile_sorted(s, n, 0.75);

	size_t rlo, rhi;
	double cov;
	if (stats_median_ci_ranks(n, 0.95, &rlo, &rhi, &cov) == 0) {
		out->ci_lo = s[rlo - 1];
		out->ci_hi = s[rhi - 1];
		out->ci_level = cov;
	}
	count_outliers(s, n, out);
	free(s);
	return 0;
}

/* ---- Mann-Whitney U ---------------------------------------------------- */

typedef struct ranked {
	double v;
	int from_a;
} ranked;

static int cmp_ranked(const void *pa, const void *pb)
{
	const ranked *a = pa, *b = pb;
	return (a->v > b->v) - (a->v < b->v);
}

/* U of sample a, and the tie term sum(t^3 - t) over groups of equal values. */
static int mw_u(const double *a, size_t na, const double *b, size_t nb, double *u, double *ties)
{
	size_t n = na + nb;
	ranked *r = malloc(n * sizeof *r);
	if (!r)
		return -1;
	for (size_t i = 0; i < na; i++)
		r[i] = (ranked){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		r[na + i] = (ranked){ b[i], 0 };
	qsort(r, n, sizeof *r, cmp_ranked);

	double rank_sum_a = 0.0, tie_term = 0.0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && r[j].v == r[i].v)
			j++;
		double t = (double)(j - i);
		double midrank = ((double)(i + 1) + (double)j) / 2.0; /* ranks i+1 .. j */
		for (size_t k = i; k < j; k++)
			if (r[k].from_a)
				rank_sum_a += midrank;
		tie_term += t * t * t - t;
		i = j;
	}
	free(r);
	*u = rank_sum_a - (double)na * (double)(na + 1) / 2.0;
	*ties = tie_term;
	return 0;
}

double stats_mann_whitney_u(const double *a, size_t na, const double *b, size_t nb)
{
	double u, ties;
	if (na == 0 || nb == 0 || mw_u(a, na, b, nb, &u, &ties) != 0)
		return NAN;
	return u;
}

/* Exact P(U <= u) and P(U >= u) without ties, from the recurrence
 * p(m, n, u) = m/(m+n) p(m-1, n, u-n) + n/(m+n) p(m, n-1, u)
 * (the largest value comes from a with probability m/(m+n) and then beats all
 * n values of b). Layers over m, each holding rows n' = 0..nb. */
static double mw_exact_p(size_t na, size_t nb, double u_obs)
{
	size_t w = na * nb + 1;
	double *prev = calloc((nb + 1) * w, sizeof *prev);
	double *cur = calloc((nb + 1) * w, sizeof *cur);
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NAN;
	}
	for (size_t j = 0; j <= nb; j++)
		prev[j * w] = 1.0; /* m = 0: U = 0 surely */
	for (size_t i = 1; i <= na; i++) {
		for (size_t j = 0; j <= nb; j++) {
			double *row = cur + j * w;
			double pa = (double)i / (double)(i + j), pb = (double)j / (double)(i + j);
			for (size_t u = 0; u <= i * j; u++) {
				double v = 0.0;
				if (u >= j && u - j <= (i - 1) * j)
					v += pa * prev[j * w + (u - j)];
				if (j > 0 && u <= i * (j - 1))
					v += pb * cur[(j - 1) * w + u];
				row[u] = v;
			}
		}
		double *t = prev;
		prev = cur;
		cur = t;
	}
	const double *dist = prev + nb * w;
	size_t uo = (size_t)u_obs;
	double le = 0.0, ge = 0.0;
	for (size_t u = 0; u < w; u++) {
		if (u <= uo)
			le += dist[u];
		if (u >= uo)
			ge += dist[u];
	}
	free(prev);
	free(cur);
	double p = 2.0 * (le < ge ? le : ge);
	return p > 1.0 ? 1.0 : p;
}

double stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	double u, ties;
	if (na == 0 || nb == 0 || has_nan(a, na) || has_nan(b, nb))
		return NAN;
	if (mw_u(a, na, b, nb, &u, &ties) != 0)
		return NAN;
	if (ties == 0.0 && na < 50 && nb < 50)
		return mw_exact_p(na, nb, u);

	double n = (double)(na + nb), m = (double)na * (double)nb;
	double var = m / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
	if (!(var > 0.0))
		return 1.0; /* all values equal: every arrangement gives U = m/2 */
	double d = fabs(u - m / 2.0) - 0.5;
	if (d < 0.0)
		d = 0.0;
	double p = erfc(d / sqrt(var) / sqrt(2.0));
	return p > 1.0 ? 1.0 : p;
}

/* ---- PRNG: splitmix64 seeding, xoshiro256** ---------------------------- */

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void stats_rng_seed(stats_rng *r, uint64_t seed)
{
	uint64_t st = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&st);
}

uint64_t stats_rng_next(stats_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return result;
}

double stats_rng_uniform(stats_rng *r)
{
	return (double)(stats_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Lemire's multiply-shift: the high word of x * n is uniform in [0, n) once
 * the low words below 2^64 mod n are rejected; the division that computes
 * that bound only runs when a low word falls below n. */
size_t stats_rng_below(stats_rng *r, size_t n)
{
	if (n == 0)
		return 0;
	uint64_t m = (uint64_t)n;
	unsigned __int128 prod = (unsigned __int128)stats_rng_next(r) * m;
	uint64_t low = (uint64_t)prod;
	if (low < m) {
		uint64_t bound = (0 - m) % m; /* 2^64 mod m */
		while (low < bound) {
			prod = (unsigned __int128)stats_rng_next(r) * m;
			low = (uint64_t)prod;
		}
	}
	return (size_t)(prod >> 64);
}

double stats_z_two_sided(double level)
{
	double lo = 0, hi = 10, tail = (1.0 - level) / 2.0;

	for (int i = 0; i < 80; i++) {
		double z = (lo + hi) / 2;
		if (0.5 * erfc(z / sqrt(2.0)) > tail)
			lo = z;
		else
			hi = z;
	}
	return (lo + hi) / 2;
}
