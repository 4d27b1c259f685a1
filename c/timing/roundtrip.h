/* timing/roundtrip.h — the cache-line round trip between two C threads,
 * one pinned to CPU a (ping: it posts an odd sequence number and spins
 * until it reads the next even one), one to CPU b (pong: it answers each):
 * the floor of any spin handoff. No lock, no clock in either spin; the
 * clock is read at batch boundaries only, as in every timed loop.
 *
 * A batch in which either thread lost its CPU is no round trip: while one
 * of them waits for a time slice the other spins on a line nobody writes,
 * and the batch measures the scheduler. Such a batch is found by the two
 * threads' CPU clocks, read at its boundaries beside the wall clock (ping's
 * own, and pong's through pthread_getcpuclockid): a thread that ran through
 * the whole batch accrued at least its wall time, less RT_LOST_NS. It is
 * dropped, counted, and measured again, RT_TRIES times the batches at
 * least and for up to RT_BUDGET_NS; and its batches are short (RT_MAX_N
 * round trips in all, a few hundred µs a batch), for a clean one to fit
 * between two time slices of a loaded machine. Beside
 * three busy loops (AMD EPYC guest, 2 vCPUs, 2026-12-05) every batch of the
 * round trip had lost a CPU, and its median came out 5.8 times the quiet
 * one, under the reference handoff it is the floor of. */
#ifndef CGOCOST_TIMING_ROUNDTRIP_H
#define CGOCOST_TIMING_ROUNDTRIP_H

#include <stddef.h>
#include <stdint.h>

#include "timing/series.h"

/* CPU time a thread may miss in a clean batch: the clock reads' own cost,
 * far below a time slice (a thread that loses its CPU loses a slice). */
#define RT_LOST_NS   50000ull
/* Round trips per measurement at most (the floors' n above it): at 10
 * batches, 1,000 round trips, 0.4 ms a batch on the AMD EPYC guest. */
#define RT_MAX_N     10000
#define RT_TRIES     3
#define RT_BUDGET_NS 1500000000ull

struct rt_result {
	uint32_t tries;	  /* timed batches run, dropped ones too */
	uint32_t dropped; /* batches in which a thread lost its CPU */
	uint32_t kept;	  /* clean batches: the series' batches when all are */
};

/* Measures warmup round trips, then s's batches (s from series_init), on
 * CPUs a and b. 0 with r filled: r->kept < s->nbatches when the batches
 * could not be filled with clean ones (s then holds no figure); -1 with a
 * message when a thread cannot be started or pinned. */
int rt_measure(struct series *s, uint64_t warmup, int cpu_a, int cpu_b, struct rt_result *r, char *err, size_t errlen);

#endif
