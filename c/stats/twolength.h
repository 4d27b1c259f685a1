/* stats/twolength.h — a count per operation from two runs of different
 * lengths: what the longer run did more, over the operations it made more.
 * Whatever both runs do alike (start-up, warm-up, the exit) cancels out;
 * what is left is the work of the extra operations. Pure arithmetic, for
 * --count (orchestrate/count.h). */
#ifndef CGOCOST_STATS_TWOLENGTH_H
#define CGOCOST_STATS_TWOLENGTH_H

#include <stddef.h>
#include <stdint.h>

/* (long_total - short_total) / ops: may be negative when what is counted
 * does not grow with the length (noise); NAN when ops is 0. */
double twolength_per_op(uint64_t short_total, uint64_t long_total, uint64_t ops);

/* The median, the smallest and the largest of x[0..n) (NAN-free,
 * unsorted, not modified), as stats_summarize has them: the figure of
 * several pairs and their spread. All NAN when n is 0. */
void twolength_spread(const double *x, size_t n, double *median, double *min, double *max);

/* The range as a percent of the median's magnitude: 100 (max - min) /
 * |median|; NAN when the median is 0 or undefined. */
double twolength_range_pct(double median, double min, double max);

/* Whether the two lengths resolve a count of pairs whose smallest figure
 * is min: no pair's longer run counted less than its shorter one (a
 * negative figure is the runs' own noise exceeding what the extra
 * operations add: start-up, the exit and the scheduler vary by more; a
 * count cannot be negative). 0 for min < 0 or NAN, else 1: a count that
 * is 0 in every pair is resolved, and is 0. */
int twolength_resolved(double min);

#endif
