/* timing/openloop.h — the open-loop caller: each request is due at a time
 * fixed in advance (a schedule), or a fixed idle gap after the previous one
 * ended (--gap-us); its latency runs from that due time to its end, so a
 * request held up by a slow predecessor carries its wait (no coordinated
 * omission). The clock, the wait and the call are passed in, so that the
 * loop can be tested on a synthetic clock. */
#ifndef CGOCOST_TIMING_OPENLOOP_H
#define CGOCOST_TIMING_OPENLOOP_H

#include <stddef.h>
#include <stdint.h>

#include "timing/schedule.h"

/* The real wait sleeps on CLOCK_MONOTONIC to this much before the due time,
 * then spins on the clock; shorter waits only spin. */
#define OPENLOOP_SPIN_NS UINT64_C(50000)

struct openloop_ops {
	uint64_t (*now)(void *ctx);
	void (*wait_until)(void *ctx, uint64_t deadline_ns);
	/* request i (0-based); 0, or nonzero to stop the run */
	int (*call)(void *ctx, uint64_t i);
	/* optional: request i, due at due_ns, is about to start (the watchdog
	 * reads its due time), and it ended after service_ns of its own */
	void (*starting)(void *ctx, uint64_t i, uint64_t due_ns);
	void (*ended)(void *ctx, uint64_t i, uint64_t service_ns);
};

struct openloop_result {
	uint64_t start_ns; /* the first request's due time */
	uint64_t end_ns;   /* the last request's end */
	uint64_t served;   /* requests that ended */
	int status;	   /* the failed call's status, 0 */
};

/* Runs n requests: with s, request i is due at start + s->at_ns[i]; with
 * s NULL, at the previous one's end plus gap_ns (the first at start).
 * latencies[i] gets request i's end minus its due time. */
void openloop_run(const struct schedule *s, size_t n, uint64_t gap_ns, const struct openloop_ops *ops, void *ctx,
		  uint64_t *latencies, struct openloop_result *res);

/* The host's wait: clock_nanosleep to deadline - OPENLOOP_SPIN_NS on
 * CLOCK_MONOTONIC, then spin on the clock. */
void openloop_wait_until(void *ctx, uint64_t deadline_ns);

/* Lowers this thread's timer slack to 1 ns so that its sleeps end on time
 * (the default slack is 50 us). */
void openloop_thread_setup(void);

#endif
