/* stats/sequential.h — a group-sequential design for a verdict looked at
 * while its samples arrive (a paired run's generations): a fixed schedule
 * of looks, and at each look a share of alpha spent on an interval at the
 * level that share leaves (Bonferroni over the looks: the chance that any
 * look's interval misses the true value is at most the sum of the shares,
 * whatever the dependence between looks, so a run may stop at the first
 * decisive look and keep its error rates). Jennison & Turnbull, "Group
 * Sequential Methods with Applications to Clinical Trials" (2000), ch. 1
 * and 7: the Bonferroni bound is the simplest valid spending of alpha over
 * looks; it is conservative, never anti-conservative.
 *
 * The schedule: the first look at `first` samples, each next one at
 * max(n + 1, ceil(SEQ_GROWTH x n)), none at or past nmax (the most samples
 * the run can reach); K = the looks before nmax, plus one: the final look,
 * taken when the run ends (time spent, or nmax reached), whatever its n.
 * Every look before the final spends alpha / K; the final spends what is
 * left, so at least alpha / K. Pure: no I/O. */
#ifndef CGOCOST_STATS_SEQUENTIAL_H
#define CGOCOST_STATS_SEQUENTIAL_H

#include <stddef.h>

#define SEQ_GROWTH 1.25 /* each look at 25% more samples than the one before */

struct seq_design {
	size_t first, nmax; /* the first look's samples; the most samples the run can reach */
	double alpha;	    /* spent over all looks together */
	unsigned nlooks;    /* K: the looks before nmax, plus the final */
	unsigned taken;	    /* looks taken so far (the final among them, once taken) */
	double spent;	    /* alpha spent so far */
};

/* A design of looks from first samples (>= 1) up to nmax, spending alpha
 * (in (0, 1)). nmax < first gives one look, the final. */
void seq_init(struct seq_design *d, size_t first, size_t nmax, double alpha);

/* Whether n samples is a scheduled look before the final. */
int seq_is_look(const struct seq_design *d, size_t n);

/* Takes a look: the alpha it may spend, alpha / K for a scheduled look,
 * everything left for the final (final != 0). Returns that alpha; the
 * design records it as spent. A scheduled look past the (K - 1)th spends
 * nothing (0): the schedule allowed no more. */
double seq_take(struct seq_design *d, int final);

#endif
