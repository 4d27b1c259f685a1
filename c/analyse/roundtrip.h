/* analyse/roundtrip.h — async in the machine's units. --compare's round-trip
 * cell (the C plugin's spin handoff with bare work: one cache-line round
 * trip between the caller's CPU and the worker's per extraction, in the same
 * rounds as the async cells) gives every round its own floor. Per library:
 * - async in round trips: the paired ratio "async/roundtrip lib=L wall"
 *   (analyse/ratios.c), copied here beside the rest;
 * - a line async = slope x round trip + intercept through the generations
 *   (Theil-Sen), when the round trip moved by at least ROUNDTRIP_FIT_SPREAD
 *   (largest over smallest generation) over at least ROUNDTRIP_FIT_MIN
 *   generations; else not fitted, with why;
 * - the crossover: per round, round trip x sync / async, the round trip at
 *   which async, costing as many round trips as it does here, would cost
 *   what sync costs; its Hodges-Lehmann estimate and signed-rank interval
 *   over the generations. Async beats sync only below it. */
#ifndef CGOCOST_ANALYSE_ROUNDTRIP_H
#define CGOCOST_ANALYSE_ROUNDTRIP_H

#include "model/model.h"

#define ROUNDTRIP_FIT_SPREAD 1.2
#define ROUNDTRIP_FIT_MIN    6

/* The name of --compare's round-trip cell. */
#define ROUNDTRIP_CELL "lib=libcmock/mode=async/work=bare/p=1"

/* Fills d->paired.roundtrip when d is a paired --compare with the
 * round-trip cell (has_roundtrip). 0, or -1 when out of memory. */
int roundtrip_analyse(struct doc *d);

/* For a line across documents (--fit): the generations of a paired
 * --compare document as points, rt[g] the round-trip cell's median in
 * generation g and async[g] lib's async cell's, both ns per extraction (each
 * array p->ngenerations long). The number of points; 0 when the document has
 * no round-trip cell or no such library. */
int roundtrip_points(const struct paired_rec *p, const char *lib, double *rt, double *async);

/* The line async = slope x rt + intercept through n points, under the
 * rules of roundtrip_analyse's (ROUNDTRIP_FIT_MIN points, the round trip
 * spread by ROUNDTRIP_FIT_SPREAD): l's fitted, slope, interval and
 * intercept, or why not. */
void roundtrip_fit(struct roundtrip_lib_rec *l, const double *rt, const double *async, size_t n);

#endif
