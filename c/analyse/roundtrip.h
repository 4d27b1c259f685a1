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

#endif
