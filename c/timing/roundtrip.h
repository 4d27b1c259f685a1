/* timing/roundtrip.h — the cache-line round trip between two C threads,
 * one pinned to CPU a (ping: it posts an odd sequence number and spins
 * until it reads the next even one), one to CPU b (pong: it answers each):
 * the floor of any spin handoff. No lock, no clock in either spin; the
 * clock is read at batch boundaries only, as in every timed loop.
 *
 * Only clean batches make its figure (floorcheck.h, "Clean batches"): the
 * two threads' CPU clocks, ping's own and pong's (which pong reads for
 * itself and hands over), are read at each batch's boundaries beside the
 * wall clock; the budget always applies. Beside
 * three busy loops (AMD EPYC guest, 2 vCPUs, 2026-12-05) every batch of the
 * round trip had lost a CPU, and its median came out 5.8 times the quiet
 * one, under the reference handoff it is the floor of. */
#ifndef CGOCOST_TIMING_ROUNDTRIP_H
#define CGOCOST_TIMING_ROUNDTRIP_H

#include <stddef.h>
#include <stdint.h>

#include "timing/floorcheck.h"
#include "timing/series.h"

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
