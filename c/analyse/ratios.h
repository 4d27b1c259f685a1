/* analyse/ratios.h — which ratios a paired run has, and how precise each is
 * so far: the definitions (a numerator cell over a denominator cell, by
 * index), their final names, and the half-width of each one's 95%
 * interval over the generations, which the paired coordinator's stop rule
 * (orchestrate/pairs.h) reads for --precision. */
#ifndef CGOCOST_ANALYSE_RATIOS_H
#define CGOCOST_ANALYSE_RATIOS_H

#include <stddef.h>

#include "model/model.h"

/* A paired cell as the ratios see it: its executable (a path; only the
 * name after the last '/' counts) and its mode. */
struct ratio_cell {
	const char *exe;
	int async;
	int host_calls; /* enum host_calls of a --host-calls both cell; -1: none */
	int work;	/* enum work of a cell of its own work; -1: the options' */
};

/* The ratios cells[0..ncells) make, by index, appended to pr->ratios: with
 * --compare, async/sync per library, shared/archive per mode, Go over the
 * C plugin and, per mode, bench --work bare over the textbook loop
 * (bench-textbook), among this build's cells [0, nself); with --against, every
 * cell of this build over the same cell of the base, cells [nself, ncells)
 * in the same order (judged); with --host-calls both, batched over
 * per-field for each executable and mode. 0, or -1 when out of memory. */
int ratios_define(const struct ratio_cell *cells, int nself, int ncells, const struct options *o,
		  struct paired_rec *pr);

/* Once the cells' names are known (pr->cells[].name): a judged ratio is
 * named after its numerator cell. */
void ratios_name(struct paired_rec *pr);

/* The half-width (percent of the median) of ratio r's 95% interval over
 * the generations so far; NAN with too few. */
double ratios_half_width(const struct paired_rec *pr, const struct pair_ratio_rec *r);

/* Whether every ratio's half-width is at most pr->precision_pct (and there
 * is at least one ratio). */
int ratios_precise(const struct paired_rec *pr);

#endif
