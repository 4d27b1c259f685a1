/* orchestrate/pairs.h — a paired run: one long-lived child per cell (blocks.h),
 * all alive at once, and this coordinator letting exactly one run a block
 * while the others wait asleep. A round gives every cell one block, in a
 * random order (seeded, recorded); a ratio of two cells takes one sample a
 * round, from two blocks a few milliseconds apart, so that the machine's
 * slow and fast states, which last hundreds of milliseconds, fall on both.
 * The run ends when --time is spent, or earlier: with --against when its
 * sequential design can tell (regressed, or a regression ruled out); with
 * --compare when every ratio's 95% interval is as narrow as --precision
 * asks. */
#ifndef CGOCOST_ORCHESTRATE_PAIRS_H
#define CGOCOST_ORCHESTRATE_PAIRS_H

#include <stddef.h>

#include "model/model.h"
#include "orchestrate/plan.h"
#include "stats/stats.h"

/* Fewest generations for an interval (the median's, from order statistics). */
#define PAIRS_MIN_GENERATIONS  6
/* the rounds of a generation, at least, even past its time or the budget:
 * a generation's ratio is the median of its rounds, and one round (a single
 * pair of blocks, as the last generations of a budget spent on start-ups
 * had) is one preemption away from any value (0.2 on a threefold slowdown) */
#define PAIRS_MIN_ROUNDS       5
/* A generation's length: a 25th of the budget, within these bounds
 * (options_generation_s, model/options.h). */
#define PAIRS_GENERATION_MIN_S OPT_GENERATION_MIN_S
#define PAIRS_GENERATION_MAX_S OPT_GENERATION_MAX_S

/* A random order of n cells (Fisher-Yates, from rng): each round's, and
 * each generation's order of start-up. */
void pairs_order(int *order, int n, stats_rng *rng);

/* Whether a paired run ends after the generations so far, elapsed_s into
 * it: "verdict" (--against: a look of its sequential design, pr->seq, at a
 * scheduled generation count found the change regressed or ruled out;
 * the look is taken, its alpha recorded in pr->verdict_alpha), "launches"
 * (with --launches L: L generations done), "time" (--time spent; with
 * --against the final look is taken first, spending the alpha left),
 * "precision" (--compare: every ratio's interval half-width at most
 * --precision, from PAIRS_MIN_GENERATIONS generations on: analyse/ratios.h),
 * or NULL to go on. */
const char *pairs_stop(struct paired_rec *pr, const struct options *o, double elapsed_s);

/* Runs the plan's cells in paired blocks until the budget is spent: fills
 * every variant's cells (one launch each, a batch per block) and pr.
 * Returns EXIT_OK, or EXIT_BAD_INPUT / EXIT_RUN_FAILED with a one-line
 * reason; no child outlives it. */
int pairs_run(struct plan *p, const struct options *o, struct paired_rec *pr, char *err, size_t errlen);

#endif
