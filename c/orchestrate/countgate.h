/* orchestrate/countgate.h — the counting gate: --against EXE --count
 * instructions. The cell of this build's options is counted in both
 * builds the same way (orchestrate/count.h: the same two lengths, each
 * build as the child executable, valgrind's cachegrind), pair after pair,
 * the builds alternating (this, other; then other, this; ...), so that
 * nothing that drifts during the run (the page cache, a file, the
 * machine's load, which a count does not see anyway) falls on one build
 * only. --slowdown-pct and --extra-ns reach this build only. Each pair is
 * one sample per build, the instructions per extraction of that pair; the
 * verdict on them is analyse/verdict.h's (compare_counts).
 *
 * Pairs: COUNT_GATE_PAIRS a build by default. Why five: the rank test's
 * smallest two-sided p with four a side is 0.029, so one pair out of
 * order already costs the verdict (0.057 > 0.05); with five one or two
 * out of order still pass (0.016, 0.032); and a pair of one build's runs
 * at -n 100000 and 200000 took 2.6 s under valgrind on the 2-CPU VM at a
 * load of 0.5, so five pairs of two builds should take ~26 s there, within
 * the 30 s of a verdict (a loaded machine stretches it: 32-98 s at 4-6).
 * With --time S: as many pairs as fit in S (up to COUNT_PAIRS_MAX), the
 * next pair begun only when the last one's length still fits; fewer than
 * COUNT_GATE_MIN_PAIRS leave the verdict undefined (exit 3). */
#ifndef CGOCOST_ORCHESTRATE_COUNTGATE_H
#define CGOCOST_ORCHESTRATE_COUNTGATE_H

#include <stddef.h>

#include "model/model.h"

#define COUNT_GATE_PAIRS     5
#define COUNT_GATE_MIN_PAIRS 5
/* The least a counted run lasts: valgrind's start-up and the Go runtime's
 * under it (0.9 s measured at -n 20000; this is a floor, for refusing a
 * --time that surely cannot hold the gate before anything runs). */
#define COUNT_RUN_LEAST_S    0.5

/* Counts this build's cell (self, o's options) and the --against build's
 * (other, without the injected slowdowns) into d's and base's one cell
 * each (doc_begin'd with m and o here; the cells as the first counted run
 * of each build described them, that run as their one launch: its times
 * are valgrind's, 50x slower, and judge nothing).
 * EXIT_OK, or EXIT_RUN_FAILED (a run failed, a tool is missing) with one
 * line in err. */
int count_gate_run(const struct options *o, const char *self, const char *other, const struct machine_rec *m,
		   struct doc *d, struct doc *base, char *err, size_t errlen);

#endif
