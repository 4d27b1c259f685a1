/* orchestrate/sweep.h — --sweep-rate: sync and async at each rate of the list,
 * each in a fresh child launch, interleaved rate by rate (the order of the
 * two modes alternating), into one document of latency cells. */
#ifndef CGOCOST_ORCHESTRATE_SWEEP_H
#define CGOCOST_ORCHESTRATE_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Runs the sweep; d gets one cell per rate and mode. Returns EXIT_OK, or
 * the failure's exit status with a message in err. */
int sweep_run(const struct options *o, const struct machine_rec *m, struct doc *d, char *err, size_t errlen);

/* The options of one child launch: rate (0: "max", a closed loop) and mode. */
void sweep_child_options(const struct options *o, double rate, int async, struct options *co);

/* The seed of the child launch of rate k (its index in --sweep-rate) in a
 * mode: each launch its own, derived from --seed (a mix of the two, so
 * that plugin i's seed + i - 1 of one launch is no other's), recorded in
 * its cell's latency; below 2^53. */
uint64_t sweep_child_seed(uint64_t seed, int k, int async);

#endif
