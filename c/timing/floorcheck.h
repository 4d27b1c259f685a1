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
 * (refhandoff.h: ref_wakeups).
 *
 * Clean batches. The two spin floors (the cache-line round trip and the
 * reference handoff) keep only batches in which neither of their two
 * threads lost its CPU: each accrued its wall time in CPU time, less
 * FLOOR_LOST_NS (base/clock.h off_cpu_ns; while one waits for a time slice
 * the other spins for nothing, and the batch measures the scheduler). A
 * batch that is not clean is dropped, counted and measured again: the
 * batches are tried at least FLOOR_TRIES times over, then for as long as
 * FLOOR_BUDGET_NS after the first timed batch (floor_try_again), before
 * the floor is given up. Their batches are short, FLOOR_MAX_N operations
 * at most over all of them (1,000 a batch at 10 batches, a fraction of a
 * ms), so that a clean one fits between two time slices of a loaded
 * machine. Beside three busy loops (AMD EPYC guest, 2 vCPUs, 2026-12-05)
 * 3 tries of 10 batches of 5,000 handoffs gave 0 to 9 clean ones, and the
 * round trip, without the check, read 5.8 times its quiet figure; the
 * clean batches that remain are the undisturbed windows a floor is made
 * of, and the report says how many were dropped. */
#ifndef CGOCOST_TIMING_FLOORCHECK_H
#define CGOCOST_TIMING_FLOORCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "timing/series.h"

#define FLOOR_SCHEDULING_NS 100000.0
#define FLOOR_RATIO	    20.0
#define FLOOR_ATTEMPTS	    3

/* The clean batches' rule (above). FLOOR_LOST_NS: CPU time a thread may
 * miss in a clean batch, the clock reads' own cost, far below a time
 * slice (a thread that loses its CPU loses a slice). */
#define FLOOR_LOST_NS	50000ull
#define FLOOR_MAX_N	10000
#define FLOOR_TRIES	3
#define FLOOR_BUDGET_NS 1500000000ull

/* Whether a spin floor with kept of its nbatches clean after tries timed
 * batches, since_ns after its first one, tries another batch; open: whether
 * the budget applies (the reference handoff opens it only once one batch
 * was clean: a worker that sleeps between requests never gives one). */
static inline int floor_try_again(uint32_t kept, uint32_t nbatches, uint32_t tries, uint64_t since_ns, int open)
{
	return kept < nbatches && (tries < FLOOR_TRIES * nbatches || (open && since_ns < FLOOR_BUDGET_NS));
}

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
