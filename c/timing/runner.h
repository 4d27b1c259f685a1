/* timing/runner.h — the extraction loop: -p plugin threads started together, each
 * timing its -n requests in batches, with the cold call, the warm-up, the
 * probes that verify which thread ran Extract, and the noise it suffered.
 * The timed loops themselves, one chosen per run, are loop_closed.c,
 * loop_open.c and loop_blocks.c (loops.h, internal to the runner). */
#ifndef CGOCOST_TIMING_RUNNER_H
#define CGOCOST_TIMING_RUNNER_H

#include <stdint.h>
#include <sys/types.h>

#include "base/names.h"
#include "model/model.h"
#include "model/options.h"
#include "plugin/extractor.h"
#include "plugin/sdkslot.h"
#include "timing/pool.h"
#include "timing/series.h"

struct noise {
	uint64_t thread_cpu_ns;	 /* CPU time of the caller over its timed batches */
	uint64_t vol_switches;	 /* voluntary context switches of the caller */
	uint64_t invol_switches; /* involuntary context switches of the caller */
	int64_t migrations;	 /* CPU migrations of the caller, -1 if unknown */
};

struct plugin_run {
	uint32_t index; /* 1-based, as printed */
	struct series batches;
	uint64_t cold_ns; /* the first extraction of this thread, alone */
	pid_t caller_tid;
	int caller_cpu_first, caller_cpu_last;
	int pinned_cpu;		    /* -1 when not pinned */
	struct probe before, after; /* untimed probes around warm-up and batches */
	int async_in_effect;	    /* Extract ran on another thread than the caller */
	int mode_known;		    /* the plugin told which thread ran Extract (mock.tid), or the SDK's state did */
	int mode_by_slot;	    /* known from the SDK's async state of the instance (no probe fields) */
	char mode_why[160];	    /* not known: why (stripped, not built with the SDK, ...) */
	int slot_looked;	    /* async in effect: the SDK's slot was looked for */
	struct sdk_slot slot;	    /* found: line_bytes > 0; else slot_why */
	char slot_why[160];
	struct noise noise;
	double median_per_op, slowest_per_op; /* of its batches */
	uint32_t stalls;		      /* batches 1 ms or more above the median */
	/* a paired run's child (--serve-blocks): each batch is a block */
	uint64_t lead_in_extractions; /* untimed, before the blocks; and --slowdown-pct's extra calls */
	uint64_t blocks_cpu_ns;	      /* process CPU time over the timed blocks */
	/* open loop (--rate, --gap-us): each request's latency from its due
	 * time, in request order; the batches then hold the calls' own time */
	uint64_t *latencies, nlatencies;
	uint64_t open_start_ns, open_end_ns; /* first due time, last end */
	double calls_per_event; /* plugin_extract_fields calls per event, counted by the plugin; NAN: not */
	int failed;
	char error[256];
};

#define LIFECYCLE_WARMUP 500

struct run {
	enum scenario scenario;
	uint32_t nplugins;
	struct plugin_run *plugins;
	uint64_t wall_ns;	       /* from the common start of timing to the last end */
	uint64_t process_cpu_ns;       /* process CPU time over the same window */
	uint64_t go_allocs;	       /* Go heap objects allocated process-wide over the window */
	uint64_t go_alloc_bytes;       /* and their bytes */
	int c_counted;		       /* C-side malloc counting was active (--count-allocs) */
	uint64_t c_mallocs, c_frees;   /* C-side allocations over the window, all threads */
	unsigned long long pool_waits; /* reuse: takes that found the pool empty */
	int64_t steal_ticks;	       /* machine-wide steal time over the window, -1 if unknown */
	long clock_ticks;	       /* USER_HZ, to turn ticks into time */
	/* sums over the callers */
	uint64_t requests, callers_cpu_ns, vol_switches, invol_switches;
	int64_t migrations;	   /* -1 if unknown for any caller */
	uint64_t busy_extractions; /* by the --busy library's thread over the run */
	/* --worker-cpu: the worker side as the kernel held it (nallowed -1:
	 * unread), and the CPUs Extract ran on at the async callers' probes */
	int has_worker_side;
	struct worker_side_rec worker_side;
};

/* Runs one scenario with ncallers callers: xs[0..ncallers) for
 * SCEN_EXTRACT, pool for SCEN_REUSE, pc (the configuration of every new
 * instance) for SCEN_ALLOC. busy, when set, extracts on a thread of its own
 * from before the callers start until they are done. Returns 0, or -1 when
 * a thread could not even start (error in err). Per-plugin failures are in
 * r->plugins[i].failed. */
int run_scenario(const struct options *o, enum scenario scen, uint32_t ncallers, struct extractor *xs,
		 struct pool *pool, const struct plugin_config *pc, struct extractor *busy, struct run *r, char *err,
		 size_t errlen);
void run_free(struct run *r);

/* Warm-up extractions the options imply (explicit, or the default). */
uint64_t run_warmup(const struct options *o, enum scenario scen);

#endif
