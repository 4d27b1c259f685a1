/* floors.h — the machine's floors, measured with the same loop shape and the
 * same clock as the extractions: a plain C call through a pointer, the raw
 * C->Go call (no SDK), and a cache-line round trip between two CPUs (the
 * floor of any spin handoff, which is what the SDK's async mode is). */
#ifndef CGOCOST_TIMING_FLOORS_H
#define CGOCOST_TIMING_FLOORS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "timing/floorcheck.h"
#include "timing/refhandoff.h"
#include "timing/roundtrip.h"
#include "timing/series.h"

void cgocost_c_noop(void);

struct floors {
	struct series c_call;	 /* C -> C no-op through a volatile pointer */
	struct series go_raw;	 /* C -> Go raw //export no-op */
	uint64_t go_raw_cold_ns; /* the first C->Go call on a new C thread */
	int go_raw_measured;	 /* 0: no Go runtime with cgocost's raw export */
	struct series handoff;	 /* C thread <-> C thread cache-line round trip */
	int handoff_measured;
	struct rt_result rt;   /* its tries, and the batches dropped (roundtrip.h) */
	int cpu_a, cpu_b;      /* CPUs of the round trip */
	struct ref_result ref; /* the reference C->Go spin handoff */
	char handoff_why[160]; /* why the round trip was not measured */
	/* each floor's median, fastest and slowest batch, checked
	 * (floorcheck.h); NAN: not measured */
	struct floor_fig fig[FLOOR_KINDS];
	uint32_t handoff_batches; /* the batches of every floor */
	uint32_t nrejected;	  /* attempts rejected by the checks, measured again */
	struct floor_reject rejected[FLOOR_REJECTS_MAX];
};

/* The environment variable that sets the reference handoff worker's spin
 * before it blocks (default REF_SPIN_ROUNDS): a test hook that forces the
 * sleep path with 0. Read once, before anything is timed. */
#define FLOORS_SPIN_ENV "CGOCOST_TEST_REF_SPIN_ROUNDS"

/* cpu_a/cpu_b: the CPUs for the round trip (-1: cannot measure it), and
 * of the reference handoff's caller and worker (refhandoff.h: unpinned
 * without a round trip);
 * caller_cpu: pin the call floors there (-1: no pinning). Every floor is
 * checked (floorcheck.h) and measured again when it fails, at most
 * FLOOR_ATTEMPTS times; -1 with the reason when one still fails (the run's
 * status is then 3). */
int floors_measure(struct floors *f, uint64_t n, uint32_t batches, uint64_t warmup, int caller_cpu, int cpu_a,
		   int cpu_b, char *err, size_t errlen);
void floors_free(struct floors *f);

/* --count-floor: only the loop of floor k (FLOOR_C_CALL or FLOOR_GO_RAW),
 * warmup + n calls on a new C thread as floors_measure makes them, no
 * clock read: what a counted floor's child runs at two lengths
 * (orchestrate/count.h). 0, or -1 with the reason (no Go runtime with
 * cgocost's raw export for FLOOR_GO_RAW). */
int floors_loop(enum floor_kind k, uint64_t n, uint64_t warmup, char *err, size_t errlen);

#endif
