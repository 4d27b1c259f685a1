/* timing/loops.h — inside the runner: what its three timed loops share with
 * the threads that run them. It owns the run's shared state (struct shared),
 * one caller's job, the scenario's step (acquire an instance, extract,
 * release it; static here and kept out of line as it was when all of this
 * was runner.c, since the lifecycle's closed loop takes one per timed
 * extraction) and the signature of a timed loop. The loops: loop_closed.c
 * (the batches), loop_open.c (--rate, --gap-us) and loop_blocks.c
 * (--serve-blocks); runner.c picks one per run and defines runner_fail.
 * Included only by runner.c and loop_*.c. */
#ifndef CGOCOST_TIMING_LOOPS_H
#define CGOCOST_TIMING_LOOPS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "base/names.h"
#include "model/options.h"
#include "plugin/extractor.h"
#include "timing/allocs.h"
#include "timing/pool.h"
#include "timing/watchdog.h"

struct plugin_run; /* runner.h, which cannot be included here: runner.c includes this */
struct job;

/* One caller's timed part, between the common start and the common end:
 * events from *evt on (advanced past the ones used), per_op the warm-up's
 * time per extraction; sets *dead (and j->pr's error) on a failure, and does
 * nothing when *dead is set already. */
typedef void loop_fn(struct job *j, uint64_t *evt, double per_op, int *dead);

loop_fn loop_closed; /* timed batches of -n / -r extractions (loop_closed.c) */
loop_fn loop_open;   /* one request at a time on a schedule or a gap (loop_open.c) */
loop_fn loop_blocks; /* a paired run's child: blocks on command (loop_blocks.c) */

/* What the process has spent at one edge of the timed window. */
struct snapshot {
	uint64_t cpu_ns, go_allocs, go_bytes;
	struct alloc_counts c;
	int64_t steal;
};

struct shared {
	const struct options *o;
	uint32_t ncallers;
	enum scenario scen;
	struct pool *pool;	 /* SCEN_REUSE */
	pthread_mutex_t init_mu; /* SCEN_ALLOC: init and destroy one at a time */
	struct plugin_config pc; /* SCEN_ALLOC: what each new instance gets */
	pthread_mutex_t gate_mu; /* start gate: main opens it once every thread exists */
	pthread_cond_t gate_cv;
	int gate;		    /* 0 closed, 1 go, -1 abort (a thread could not be created) */
	uint32_t arrived;	    /* callers that set their tid and pin (under gate_mu) */
	_Atomic uint32_t warm;	    /* callers done warming up */
	_Atomic int go;		    /* the last of them took the snapshot: time */
	pthread_barrier_t finish;   /* every caller done timing (sleeping wait) */
	pthread_barrier_t measured; /* the end snapshot is taken: probe */
	uint64_t window_start_ns, window_end_ns;
	struct snapshot start, end;
	loop_fn *loop; /* the timed loop of every caller, chosen once */
};

struct job {
	struct progress *progress; /* what the watchdog reads */
	struct shared *sh;
	struct extractor *x;
	struct plugin_run *pr;
};

/* acquire and iteration stay calls, compiled as they were when the loops
 * were one file with two callers each: GCC neither inlines, clones nor
 * specializes them (noipa: not even for their single caller's constants). */
#if defined(__GNUC__) && !defined(__clang__)
#define LOOPS_NOIPA    __attribute__((noipa, unused))
#define LOOPS_NOINLINE __attribute__((noinline, noclone, unused))
#else
#define LOOPS_NOIPA    __attribute__((noinline, unused))
#define LOOPS_NOINLINE __attribute__((noinline, unused))
#endif

/* Marks pr failed: its `what` extraction of event evtnum ended with status
 * (runner.c). */
void runner_fail(struct plugin_run *pr, const char *what, uint64_t evtnum, int status);

/* The instance one step of the scenario uses: the caller's own (extract),
 * one taken from the pool (reuse), or a new one (alloc; init serialized, as
 * the SDK requires). NULL when a new one could not be made. */
static LOOPS_NOIPA struct extractor *acquire(struct job *j, struct extractor *tmp, char *err, size_t errlen)
{
	struct shared *sh = j->sh;
	int rc;

	if (sh->scen == SCEN_EXTRACT)
		return j->x;
	if (sh->scen == SCEN_REUSE)
		return pool_take(sh->pool);
	pthread_mutex_lock(&sh->init_mu);
	rc = extractor_open(tmp, &sh->pc, sh->o->fields, err, errlen);
	pthread_mutex_unlock(&sh->init_mu);
	return rc == 0 ? tmp : NULL;
}

static inline void release(struct job *j, struct extractor *x)
{
	struct shared *sh = j->sh;

	if (sh->scen == SCEN_REUSE) {
		pool_give(sh->pool, x);
	} else if (sh->scen == SCEN_ALLOC) {
		pthread_mutex_lock(&sh->init_mu);
		extractor_close(x);
		pthread_mutex_unlock(&sh->init_mu);
	}
}

/* One untimed-loop step of event evt: acquire, one checked extraction,
 * release (for the lifecycle, this is what a timed iteration is too). */
static LOOPS_NOINLINE int iteration(struct job *j, uint64_t evt)
{
	struct extractor tmp, *x;
	char err[8];
	int st;

	x = acquire(j, &tmp, err, sizeof(err));
	if (x == NULL)
		return EXTRACT_FAILED;
	st = extractor_extract(x, evt);
	release(j, x);
	return st;
}

#endif
