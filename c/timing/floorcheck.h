/* timing/floorcheck.h — when a floor is a measurement and when it is not.
 * A floor is printed only as a figure with its spread (its fastest and
 * slowest batch beside the median batch), and only once it has passed
 * these checks, each from what the floor physically is:
 *
 * - a scheduling event, not an operation: no floor here (a call, a
 *   cache-line round trip, a spin handoff of a few cache lines) costs
 *   FLOOR_SCHEDULING_NS (100 µs) per operation; a median batch over that
 *   measured a descheduled thread or a futex sleep;
 * - its own spread: the batches run the same loop on the same threads, so
 *   the fastest batch is an upper bound of the operation's cost; a median
 *   batch more than FLOOR_RATIO (20) times the fastest means most batches
 *   measured something other than the operation;
 * - its neighbours: the reference handoff is a few cache-line round trips
 *   (the request line there and back, one more line for the event, one for
 *   the result), so none of its steps can be more than FLOOR_RATIO times
 *   the round trip, nor +event or +result more than FLOOR_RATIO times bare;
 *   and it contains a round trip, so a round trip more than FLOOR_RATIO
 *   times the reference handoff's bare step is the disturbed one.
 *
 * FLOOR_RATIO is not tuned: it is generous (more than an order of
 * magnitude) so that load shows as spread, and only nonsense fails. A floor
 * that fails is measured again, at most FLOOR_ATTEMPTS times in all; one
 * that still fails fails the run (exit 3) with the reason. The reference
 * handoff is also rejected when its timed window needed a futex wake-up
 * (refhandoff.h: ref_wakeups). */
#ifndef CGOCOST_TIMING_FLOORCHECK_H
#define CGOCOST_TIMING_FLOORCHECK_H

#include <stddef.h>

#include "model/model.h"
#include "timing/series.h"

#define FLOOR_SCHEDULING_NS 100000.0
#define FLOOR_RATIO	    20.0
#define FLOOR_ATTEMPTS	    3

/* One floor: its median batch and its fastest and slowest, ns per
 * operation; NAN: not measured. */
struct floor_fig {
	double median_ns, min_ns, max_ns;
};

/* A floor's figure from its batches; every field NAN for an empty series. */
void floor_fig_of_series(struct floor_fig *f, const struct series *s);

/* 0: floor k is a figure (or not measured); 1: it is not, and why says why
 * in one clause. figs holds every floor, NAN for those not measured. */
int floor_check(const struct floor_fig figs[FLOOR_KINDS], enum floor_kind k, char *why, size_t len);

#endif
