/* timing/refhandoff.h — a reference spin handoff between a C caller and a
 * Go worker goroutine, written here without SDK code: how close to the
 * cache-line round trip (the floor) a C->Go handoff can get on this
 * machine. A measuring instrument, not a proposal to patch the SDK.
 *
 * The protocol: the caller posts a sequence number in the request slot (its
 * own cache line) and spins, with a pause instruction, until the worker
 * acknowledges that number in the same slot; no lock, no clock in either
 * spin. The steps of an extraction's anatomy: bare (the sequence numbers
 * only), event (the caller also writes an event number into a line of its
 * own, the worker reads it), result (the worker also writes a value into a
 * third line, the caller reads it and checks it). Idle policy: the worker
 * spins a bounded number of rounds, then blocks on a futex on the request
 * word; a caller that posts to a sleeping worker wakes it. The worker is
 * started through a raw cgo export (plugin-mock/refhandoff.go), and stopped,
 * with its stop acknowledged, before anything else is measured.
 *
 * Where it runs: when the cache-line round trip is measured, the caller is
 * pinned to its CPU a and the worker to its CPU b (floors.c), so that the
 * reference handoff runs on the same pair as the round trip it is read
 * against, and its two spinning threads never share a CPU. The SDK's async
 * worker is not pinned; on a quiet machine the scheduler puts two spinning
 * threads on two CPUs anyway, so the pin changes nothing there. Under load
 * it keeps out the one case that is no handoff at all: caller and worker
 * on one CPU, each request waiting for a time slice or a futex wake-up
 * (which the checks would reject, failing the run). */
#ifndef CGOCOST_TIMING_REFHANDOFF_H
#define CGOCOST_TIMING_REFHANDOFF_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

enum ref_step { REF_BARE = 0, REF_EVENT = 1, REF_RESULT = 2 };

/* Shared with the Go worker: plain integers, each group on its own line.
 * The Go side reads and writes them with sync/atomic. */
struct ref_handoff {
	/* the request slot: the caller writes req, stop; the worker ack, sleeping */
	uint64_t req, ack;
	uint32_t sleeping, stop, stopped, step;
	uint64_t spin_rounds; /* the worker's spins before it blocks */
	uint64_t answered;    /* requests the worker answered */
	/* the CPU the worker pins its thread to (-1: none), and its answer:
	 * 1 pinned, -1 it could not, 0 not yet */
	int32_t worker_cpu, worker_pinned;
	/* the worker's thread (a pthread_t), 0 until it says: the caller reads
	 * its CPU clock at batch boundaries */
	uint64_t worker_thread;
	alignas(64) uint64_t evtnum; /* the event line: written by the caller */
	char pad1[56];
	uint64_t value; /* the result line: written by the worker */
	char pad2[56];
} __attribute__((aligned(64)));

/* What the worker writes for an event: checked by the caller. */
static inline uint64_t ref_value(uint64_t evtnum)
{
	return evtnum * UINT64_C(0x9E3779B97F4A7C15) + 1;
}

/* The worker's spin before it blocks, in production: well under 1 ms. */
#define REF_SPIN_ROUNDS 100000

/* A batch is clean when it needed no futex wake-up of the worker (it is
 * dropped at its first one) and neither thread lost its CPU in it
 * (floorcheck.h, "Clean batches": FLOOR_MAX_N handoffs per step at most,
 * FLOOR_TRIES, FLOOR_BUDGET_NS once one batch was clean). */

struct ref_result {
	double step_ns[3];		       /* median batch per step, ns per handoff */
	double step_min_ns[3], step_max_ns[3]; /* its fastest and slowest batch */
	double wake_ns;			       /* post to acknowledgement, the worker asleep: median */
	uint64_t requests, answered;
	/* Every batch of a figure above ran without a single futex wake-up of
	 * the worker: proof that the timed loop never took the sleep path
	 * (see handoff() in refhandoff.c). A batch that needed one is dropped
	 * and measured again; per step, the wake-ups of the dropped batches
	 * and their number: */
	uint64_t wakeups[3];
	uint32_t dropped[3];
	uint32_t offcpu[3]; /* of the dropped: a thread off its CPU, no wake-up */
	uint32_t tries[3];  /* timed batches run per step, dropped ones too */
	/* -1; or the step that could not fill its batches within
	 * floor_try_again (it and the steps after it NAN), with its clean
	 * batches */
	int short_step;
	uint32_t kept;
};

/* The wake-ups and dropped batches of all steps. */
uint64_t ref_wakeups(const struct ref_result *r);
uint32_t ref_dropped(const struct ref_result *r);

/* Measures the three steps (n handoffs each in batches) and the wake-up,
 * then stops the worker and waits until it says it stopped. The worker is
 * started by start (plugin-mock/refhandoff.go's cgocost_ref_start; NULL: no
 * Go runtime in reach, nothing measured, every figure NAN) and spins
 * spin_rounds before it blocks (REF_SPIN_ROUNDS; a test gives 0 to force
 * the sleep path). 0 (check short_step: a step that could not fill its
 * batches without wake-ups has no figure), or -1 with a message (a request
 * answered twice or never, a worker that did not stop). */
int ref_measure(struct ref_result *r, void (*start)(struct ref_handoff *), uint64_t spin_rounds, uint64_t n,
		uint32_t batches, uint64_t warmup, char *err, size_t errlen);
/* ref_measure with the worker pinned to worker_cpu (-1: not pinned; the
 * caller pins its own thread): -1 with a message when the worker could not
 * pin itself, or did not start within REF_START_S. */
int ref_measure_on(struct ref_result *r, void (*start)(struct ref_handoff *), uint64_t spin_rounds, uint64_t n,
		   uint32_t batches, uint64_t warmup, int worker_cpu, char *err, size_t errlen);

/* The longest a worker may take to start and say whether it pinned itself,
 * in seconds (a loaded machine schedules a new goroutine late). */
#define REF_START_S 10

#endif
