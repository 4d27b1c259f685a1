/* orchestrate/sweep.h — --sweep-rate: sync and async at each rate of the list,
 * each in a fresh child launch, interleaved rate by rate (the order of the
 * two modes alternating), into one document of latency cells. */
#ifndef CGOCOST_ORCHESTRATE_SWEEP_H
#define CGOCOST_ORCHESTRATE_SWEEP_H

#include <stddef.h>

#include "model/model.h"

/* Runs the sweep; d gets one cell per rate and mode. Returns EXIT_OK, or
 * the failure's exit status with a message in err. */
int sweep_run(const struct options *o, const struct machine_rec *m, struct doc *d, char *err, size_t errlen);

/* The options of one child launch: rate (0: "max", a closed loop) and mode. */
void sweep_child_options(const struct options *o, double rate, int async, struct options *co);

#endif
