/* timing/schedule.h — when each request of an open-loop run is due, fixed
 * before the run starts: evenly spaced at a rate, or with exponential gaps
 * (Poisson arrivals) drawn from a seeded generator so that a printed seed
 * gives the same schedule again. */
#ifndef CGOCOST_TIMING_SCHEDULE_H
#define CGOCOST_TIMING_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "base/names.h"

struct schedule {
	uint64_t *at_ns; /* request i is due at start + at_ns[i]; at_ns[0] == 0 */
	size_t n;
	double rate; /* requested, per second */
};

/* n requests at rate per second (rate > 0): request i at i/rate, or, with
 * ARRIVAL_POISSON, after gaps drawn from an exponential distribution of
 * mean 1/rate (stats_rng seeded with seed). 0, or -1 out of memory. */
int schedule_make(struct schedule *s, size_t n, double rate, enum arrival arrival, uint64_t seed);
void schedule_free(struct schedule *s);

/* Requests served per second: requests over the time from the first
 * request's due time to the last one's end. NAN when it is undefined
 * (no request, or no time). */
double schedule_achieved_rate(uint64_t requests, uint64_t start_ns, uint64_t end_ns);

#endif
