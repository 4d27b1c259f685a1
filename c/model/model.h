/* model/model.h — the model layer: what a cgocost run produced, as typed
 * records. Measurement fills them, analysis adds its statistics to them,
 * every reporter serializes them, and a saved document (a baseline, a
 * child launch's output) is parsed back into them by model/codec.c, the one
 * file that spells the JSON keys. The option table (model/options.h) lives
 * here too: options are part of every record.
 *
 * Words, as in docs/glossary.md: a batch is a timed run of consecutive
 * requests inside one caller; a launch is one fresh process; a round is one
 * launch of every cell; a cell is one executable in one mode and scenario;
 * a sample is what the statistics of a cell are taken over (a launch's
 * median batch, or with one launch its batches). */
#ifndef CGOCOST_MODEL_MODEL_H
#define CGOCOST_MODEL_MODEL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "model/options.h"
#include "model/source.h"
#include "stats/change.h"
#include "stats/latency.h"
#include "stats/sequential.h"
#include "stats/stats.h"

/* 2: the paired section; 3: the three verdicts (comparison.verdict
 * "inconclusive", need_factor, need_s, inconclusive_pass) and a paired
 * run's sequential design. Documents of versions 1 and 2 are still read. */
#define SCHEMA_VERSION 3
#define GENERATOR      "cgocost bench"

#define MODEL_NAME_MAX 256
#define MODEL_TEXT_MAX 256

/* "sync", "async" or "mixed" (callers differ). */
#define MODE_NAME_MAX 16

struct machine_rec {
	char cpu_model[128];
	int online_cpus, allowed_cpus;
	char kernel[128];
	char arch[72];
	/* --worker-cpu: the caller's CPU, the worker side's, and the worker's
	 * class relative to the caller ("same_llc", ...: base/topology.h);
	 * has_worker 0: not pinned (the key absent) */
	int has_worker;
	int caller_cpu, worker_cpu;
	char worker_class[16];
};

/* The most CPUs a launch lists for its worker side. */
#define WORKER_CPUS_MAX 64

/* --worker-cpu: where the async worker side of one launch was held, read
 * back from the kernel after the run, and where Extract ran at the probes
 * of the callers whose extraction was async. */
struct worker_side_rec {
	int cpu;			      /* asked for */
	int allowed[WORKER_CPUS_MAX];	      /* the union of its threads' masks after the run */
	int nallowed;			      /* -1: could not be read */
	int ran_on[WORKER_CPUS_MAX], nran_on; /* the probes' CPUs, distinct, ascending */
};

/* With async in effect, the SDK's workers as the callers' probes saw them:
 * the distinct goroutines that ran Extract (both probes of every async
 * caller whose plugin names it) and the CPUs they ran on. Counted, where
 * launch_rec.async_workers is the SDK's rule. */
struct workers_seen_rec {
	uint32_t callers;	   /* async callers whose probes named a goroutine */
	uint32_t goroutines;	   /* distinct ones among their probes */
	int cpus[WORKER_CPUS_MAX]; /* the probes' CPUs, distinct, ascending */
	int ncpus;
};

/* The floors with a spread, in the order of floors_rec's figures. */
enum floor_kind {
	FLOOR_C_CALL,
	FLOOR_GO_RAW,
	FLOOR_HANDOFF,
	FLOOR_REF_BARE,
	FLOOR_REF_EVENT,
	FLOOR_REF_RESULT,
	FLOOR_KINDS
};

/* The floors counted by --anatomy --count: the first two kinds, the C
 * call and the raw C->Go call (loops of calls; the others are handoffs). */
#define FLOOR_COUNTED 2
_Static_assert(FLOOR_C_CALL == 0 && FLOOR_GO_RAW == 1, "the counted floors are the first kinds");

/* The JSON key of a floor kind ("c_call", ..., "ref_result"). */
const char *floor_kind_key(enum floor_kind k);
/* The floor's name in messages ("the reference handoff +event"). */
const char *floor_kind_name(enum floor_kind k);

struct floor_spread {
	double min_ns, max_ns; /* per operation: the fastest and the slowest batch */
};

/* At most this many rejected attempts in one launch: three groups of
 * floors (the reference handoff, the calls, the round trip), each measured
 * at most FLOOR_ATTEMPTS times (timing/floorcheck.h). */
#define FLOOR_REJECTS_MAX 9

/* One attempt of a floor that its checks rejected (and that was measured
 * again). */
struct floor_reject {
	int kind;	  /* enum floor_kind: the floor whose check failed */
	uint64_t wakeups; /* the reference handoff's wake-ups in that attempt's timed window */
	char reason[200];
};

/* The floors of one launch, or their medians over a cell's launches. NAN:
 * not measured. */
struct floors_rec {
	double c_call_ns, go_raw_ns, go_raw_cold_ns, handoff_ns;
	/* the reference C->Go spin handoff (timing/refhandoff.h): bare,
	 * +event, +result, and the wake-up of its sleeping worker; NAN in a
	 * document from before it existed */
	double ref_bare_ns, ref_event_ns, ref_result_ns, ref_wake_ns;
	int handoff_cpus[2];   /* -1, -1: no round trip measured */
	char handoff_why[160]; /* why not ("" when it was measured) */
	/* each floor's spread: its fastest and slowest batch (ns per
	 * operation) beside the median above; NAN: not measured, or a document
	 * from before spreads existed (has_spread 0). A cell's: the fastest
	 * and slowest over its launches. */
	int has_spread;
	uint32_t spread_batches;
	struct floor_spread spread[FLOOR_KINDS];
	/* the reference handoff's timed batches dropped and measured again:
	 * at a futex wake-up of its worker (one each), or with a thread off
	 * its CPU (timing/refhandoff.h; documents from before 2026-12-05
	 * counted only the first kind, with every wake-up of a batch); the
	 * figures' batches had neither; and the wake-ups; -1: not measured,
	 * or older */
	int64_t ref_dropped_batches, ref_wakeups;
	/* the round trip's timed batches in which one of its two threads lost
	 * its CPU, dropped and measured again (timing/roundtrip.h); -1: not
	 * measured, or a document from before they were counted */
	int64_t handoff_dropped_batches;
	/* attempts rejected by the floors' checks and measured again: a
	 * launch's, each with its reason; a cell's: their count over launches */
	uint32_t nrejected;
	struct floor_reject rejected[FLOOR_REJECTS_MAX];
};

/* The latency of an open-loop run (--rate, --gap-us): of one caller, or
 * of a cell (every caller's requests together). */
struct latency_rec {
	char load[8];	       /* "rate" (a schedule) or "gap" (a closed loop with an idle gap) */
	char arrival[8];       /* "even" or "poisson"; "" for a gap */
	double requested_rate; /* per second per plugin; NAN for a gap */
	double gap_us;	       /* NAN for a rate */
	uint64_t seed;	       /* of the Poisson arrivals (plugin i: seed + i - 1) */
	double achieved_rate;  /* requests per second per plugin */
	struct latency_summary s;
	double cpu_ns_per_event; /* process CPU over the run / requests (cell only; NAN per caller) */
};

struct batch_rec {
	uint64_t ns, ops;
};

/* One caller (plugin thread) of one launch. */
struct caller_rec {
	uint32_t index; /* 1-based, as printed */
	uint64_t elapsed_ns, extractions;
	double ns_per_extraction, median_batch_ns, slowest_batch_ns;
	uint32_t stalled_batches;
	struct batch_rec *batches;
	size_t nbatches;
	uint64_t cold_ns;
	int64_t tid;
	int cpu_first, cpu_last;
	int64_t pinned_cpu;		   /* -1: not pinned */
	uint64_t extract_tid, extract_cpu; /* where the last probe's Extract ran */
	int has_goroutine;		   /* the plugin names the goroutine that ran Extract */
	uint64_t extract_goroutine;	   /* its number at the last probe */
	int async_in_effect;
	/* async in effect: where the SDK's request slot of the instance lay
	 * (plugin/sdkslot.h); line_bytes 0: not found, why says why */
	int has_async_slot;
	uint32_t slot_line_bytes, slot_line_offset, slot_lines;
	char slot_why[160];
	uint64_t thread_cpu_ns, vol_switches, invol_switches;
	int64_t migrations; /* -1: unknown */
	int has_latency;
	struct latency_rec latency;
};

struct c_allocs_rec {
	int counted; /* the counter was in the process; else null in JSON */
	uint64_t mallocs, frees;
	double mallocs_per_iteration, frees_per_iteration;
};

/* One plugin library in the measuring process (--plugin, --idle, --busy,
 * or the built-in mock): what it is and what loading it cost. */
struct library_rec {
	char path[PATH_MAX];
	char role[16];	      /* "measured", "idle", "busy" or "built-in" (loaded, not measured) */
	int go_runtime;	      /* the library's file holds a Go runtime of its own */
	char go_version[64];  /* "": not stated by the plugin */
	char api_version[32]; /* plugin_get_required_api_version */
	uint32_t plugin_id;
	char event_source[64];
	uint32_t fields_declared;
	int max_instances, max_from_plugin; /* -p limit, and whether the plugin stated it */
	int probe_fields;		    /* exposes cgocost's probe fields: the mode is verifiable */
	int has_load;			    /* loaded by this process: the load cost was measured */
	uint64_t load_ns;		    /* dlopen to the first successful extraction */
	int64_t rss_before_kb, rss_after_kb, threads_before, threads_after; /* -1: unknown */
	uint64_t extractions;						    /* --busy: while timing */
};

/* --per-event K: what one event cost the host, as it asked (--host-calls). */
struct per_event_rec {
	uint32_t fields;		   /* K */
	char host_calls[12];		   /* "per-field" (K calls of one field) or "batched" (one call of K) */
	double ns_per_event, ns_per_field; /* the launch's median batch, per event and over K */
	double calls_per_event;		   /* plugin_extract_fields calls counted by the plugin; NAN: not counted */
};

/* Everything measured in one launch. */
struct launch_rec {
	struct caller_rec *callers;
	size_t ncallers;
	double ns_per_extraction; /* median of the callers' median batches */
	uint64_t wall_ns, process_cpu_ns;
	double cpu_ns_per_extraction, callers_cpu_ns_per_extraction, other_cpu_ns_per_extraction;
	double steal_ns; /* NAN: unknown */
	double switches_per_1000;
	uint64_t go_allocs, go_alloc_bytes, async_workers;
	char mode_in_effect[MODE_NAME_MAX];
	char async_reason[MODEL_TEXT_MAX]; /* "": none */
	int has_floors;
	struct floors_rec floors;
	struct c_allocs_rec c_allocs;
	int64_t pool_waits; /* reuse only; -1 otherwise */
	int go_runtimes;    /* Go runtimes in the process; -1: not recorded (older documents) */
	struct library_rec *libraries;
	size_t nlibraries;
	int has_per_event; /* --per-event; absent from older documents */
	struct per_event_rec per_event;
	int has_worker_side; /* --worker-cpu; absent otherwise */
	struct worker_side_rec worker_side;
	int has_workers_seen; /* async in effect and a plugin that names its goroutines */
	struct workers_seen_rec workers_seen;
};

struct summary_rec {
	char unit[24];
	stats_summary s;
};

/* The most pairs of counted runs a count takes (--count, the counting gate). */
#define COUNT_PAIRS_MAX 8

/* A change between a base and a current sample set, with its verdict. */
struct change_rec {
	char scenario[MODEL_NAME_MAX]; /* the cell or ratio it judges */
	char kind[8];		       /* "cell" or "ratio" */
	int gated;
	change_estimate ch;
	size_t base_n, n;
	char line[128];
	char not_gated_because[MODEL_TEXT_MAX]; /* "": gated */
	/* the fewest samples a side needs for a verdict (the comparison's
	 * min_samples); 0: COMPARE_MIN_SAMPLES alone */
	size_t min_n;
	/* what the samples are: "" a time (ns per extraction, or a ratio of
	 * times); "instructions": instructions per extraction, counted (the
	 * counting gate, one sample a pair of counted runs) */
	char metric[16];
	/* with a metric: the samples judged, base_n and n of them */
	double base_samples[COUNT_PAIRS_MAX], samples[COUNT_PAIRS_MAX];
};

/* The sentence of a change's verdict: verdict_sentence's, or, when a side
 * has fewer samples than min_n, "Too few generations for a verdict (N of
 * M)."; in buf (128 bytes suffice). */
const char *change_sentence(const struct change_rec *r, char *buf, size_t len);

/* --count: what one extraction costs in counted work, no clock read
 * (orchestrate/count.h): child runs of the cell at two lengths, -n N and
 * -n 2N with the same warm-up, their totals differenced and divided by the
 * extractions the longer one made more. One such figure a pair of runs;
 * the figure is their median, with their range. NAN: not taken. */
#define COUNT_NAMES_MAX 24
#define COUNT_NAME_LEN	32

struct count_fig {
	double median, min, max;
	double per_pair[COUNT_PAIRS_MAX];
	size_t npairs;
};

struct count_syscall {
	char name[COUNT_NAME_LEN]; /* a system call, or "other": the total less those named */
	struct count_fig per_op;
};

struct counts_rec {
	uint64_t n_short, n_long; /* -n of the two lengths */
	uint64_t ops;		  /* extractions (events with --per-event) the long run made more */
	uint32_t pairs;		  /* pairs of runs asked for */
	int has_instructions;	  /* 0: not asked, or could not be taken (null in JSON) */
	struct count_fig instructions;
	char instructions_tool[64]; /* "valgrind-3.19.0 cachegrind" */
	/* why a cell of a counted --compare or --anatomy run had its
	 * instructions left out, by design (an async cell: its worker's
	 * spinning); "": not left out */
	char instructions_not_counted[MODEL_TEXT_MAX];
	double instructions_s; /* wall time of its child runs */
	int has_syscalls;
	struct count_fig syscalls, context_switches, page_faults;
	struct count_syscall by_name[COUNT_NAMES_MAX];
	size_t nnames;
	char syscalls_tool[64]; /* "perf stat" */
	double syscalls_s;
};

/* The cell's statistics, once analysed. */
struct cell_stats {
	struct summary_rec time, cpu;
	double *samples, *cpu_samples;
	size_t nsamples, ncpu_samples;
	double cold_ns_median;
	uint64_t stalled_batches, batches;
	double slowest_batch_ns, other_cpu_ns_median, switches_per_1000_median, steal_ns_median;
	double go_allocs_per_extraction, go_alloc_bytes_per_extraction;
	double c_mallocs_per_iteration, c_frees_per_iteration; /* NAN: not counted */
	int has_floors;
	struct floors_rec floors; /* medians over launches */
	char key[1024];
};

/* One executable in one mode and scenario, with its launches. */
struct cell_rec {
	char name[MODEL_NAME_MAX];
	char scenario[16];
	char allocator[16], allocator_path[PATH_MAX];
	char lib[16];
	/* The file that holds plugin_init, as this process found it; not part
	 * of the saved document (schema version 1 has no key for it), so empty
	 * in a cell read back from JSON. */
	char library[PATH_MAX];
	char executable[PATH_MAX];
	char go_version[64], sdk_version[64];
	int gomaxprocs, max_handle;
	char requested[MODE_NAME_MAX], in_effect[MODE_NAME_MAX];
	char reason[MODEL_TEXT_MAX]; /* why async is not in effect; "" */
	int mode_verified;	     /* 0: the plugin exposes no probe fields; in_effect "unknown" */
	/* how the mode was verified: "probes" (the plugin's probe fields),
	 * "sdk-state" (the SDK's async state of each instance, read from
	 * outside); "": not verified, or a document before them */
	char verified_by[16];
	char unverifiable[MODEL_TEXT_MAX]; /* not verified: why ("stripped: no symbol table", ...); "" */
	int by_plugin_config;		   /* --plugin-config given: the plugin's own configuration set the mode */
	struct launch_rec *launches;
	size_t nlaunches;
	int64_t stalled_launches_rerun; /* multi-launch runs; -1 otherwise */
	int analysed;
	struct cell_stats st;
	int has_vs_glibc;
	struct change_rec vs_glibc;
	int has_latency; /* an open-loop run: the latency of its (one) launch */
	struct latency_rec latency;
	int has_counts; /* --count: absent from documents before it */
	struct counts_rec counts;
};

struct ratio_rec {
	char name[80];
	char numerator[MODEL_NAME_MAX], denominator[MODEL_NAME_MAX];
	char metric[8]; /* "wall" or "cpu" */
	struct summary_rec st;
	double *samples;
	size_t nsamples;
};

struct comparison_rec {
	char against[PATH_MAX];
	int same_time, machine_key_matches;
	double threshold, alpha;
	uint64_t seed, resamples;
	struct change_rec *changes;
	size_t nchanges;
	int regressed;
	/* --against: the fewest samples (generations, launches) a side needs
	 * for a verdict, 0 when only COMPARE_MIN_SAMPLES applies; and why the
	 * verdict is undefined ("": it is not), e.g. "too few generations for a
	 * verdict: 5 of 12" */
	uint64_t min_samples;
	char undefined_because[MODEL_TEXT_MAX];
	/* no gated change regressed and at least one could not tell (its
	 * interval reaches +threshold, or too few samples for one) */
	int inconclusive;
	int inconclusive_pass; /* --inconclusive pass: an inconclusive run exits 0 */
	/* inconclusive: about how many times its samples the least decided
	 * change needs (its interval shrinking as 1/sqrt(n)); NAN when no
	 * length would tell (a change on the threshold) or not known; and, in
	 * a paired run, about how many seconds more (NAN: not known) */
	double need_factor, need_s;
};

/* The run's verdict in one word: "regressed", "inconclusive" or
 * "no_regression". */
const char *comparison_verdict_name(const struct comparison_rec *c);

/* The exit status the comparison gives: EXIT_REGRESSION, EXIT_INCONCLUSIVE
 * (EXIT_OK with inconclusive_pass) or EXIT_OK. */
int comparison_status(const struct comparison_rec *c);

/* The verdict as a report line says it, without "verdict: " and the exit
 * status: "regression detected", "no regression", or "inconclusive: " with
 * why and what would tell ("the interval of lib=... reaches +2%: about 2.1x
 * the generations, ~19 s more, would tell"). In buf; returns buf. */
const char *comparison_sentence(const struct comparison_rec *c, char *buf, size_t len);

/* --repeat-load: K fresh processes, each loading every library, extracting
 * and exiting; outcomes counted by kind, the first message of each kept. */
struct repeat_rec {
	uint32_t loads, ok, crashed, panicked, hung, failed;
	char crash[MODEL_TEXT_MAX], panic[MODEL_TEXT_MAX], hang[MODEL_TEXT_MAX], failure[MODEL_TEXT_MAX];
	int go_runtimes;	       /* in the loads that finished; -1: none did */
	struct library_rec *libraries; /* of the first load that finished; load_ns: median over them */
	size_t nlibraries;
};

/* The fields a plugin declares (its plugin_get_fields JSON, parsed by
 * codec.c's fieldlist_parse); the field id is the index. */
#define FIELD_DECL_NAME_MAX 128

struct field_decl {
	char name[FIELD_DECL_NAME_MAX];
	uint32_t ftype; /* ss_plugin_field_type: 8 uint64, 9 string, ... */
	int is_list;
	int arg_required, arg_index, arg_key; /* the "arg" object's flags */
};

struct field_list {
	struct field_decl *fields;
	uint32_t n;
};

/* The whole document. */
/* A paired run (--compare, --against): every cell's blocks, in round
 * order, from one long-lived process per cell. */
struct pair_cell_rec {
	char name[MODEL_NAME_MAX]; /* the cell, as in the document's cells (or the base's) */
	char side[8];		   /* "this", or "against": the --against build */
	uint64_t per_block;	   /* extractions in each block */
	double block_ms;	   /* the block length it was asked to fill (0: -n calls; -1: older document) */
	double *block_ns;	   /* ns per extraction of each block, one a round */
	double *block_cpu_ns;	   /* process CPU ns per extraction of each block */
	double *lead_ns;	   /* the untimed lead-in before each block */
	double *lead_calls;	   /* its extractions */
	double *first_call_ns;	   /* its first extraction (the wake-up) */
	double *after;		   /* the cell whose block ran just before, in the round (-1: none) */
	size_t nblocks, ncpu, nlead, nleadcalls, nfirst, nafter;
};

/* A ratio of two cells, one sample a round (numerator block / denominator
 * block of the same round). */
struct pair_ratio_rec {
	char name[MODEL_NAME_MAX];
	int num, den;		    /* indexes into the paired cells */
	int judged;		    /* --against: this build's cell over the base's, with a verdict */
	struct summary_rec st, cpu; /* over generations: the inference */
	struct summary_rec pairs;   /* over every round of every generation: within-process only */
	double *samples;	    /* the generations' ratios */
	size_t nsamples;
	/* the estimate: Hodges-Lehmann over the generations' log ratios, with
	 * the signed-rank test's 95% interval (exp'ed back to a ratio) */
	double estimate, low, high, coverage;
	double half_width_pct; /* (high - low) / 2 over the estimate, percent */
	double p, w_plus;      /* Wilcoxon signed-rank on log ratios, two-sided */
	int exact;
	change_estimate ch; /* judged: the change, its interval and verdict */
};

/* --compare's round trip (analyse/roundtrip.h), per library: async in
 * round trips and where async would beat sync. */
struct roundtrip_lib_rec {
	char lib[16];		       /* "archive" or "shared" */
	double sync_ns, async_ns;      /* medians over the generations */
	double rts, rts_low, rts_high; /* async in round trips: the paired ratio */
	/* async = slope x round trip + intercept over the generations
	 * (Theil-Sen), when the round trip moved enough to fit one */
	int fitted;
	char why[200]; /* why not */
	double slope, slope_low, slope_high, intercept_ns;
	/* the round trip below which async would cost less than sync: per
	 * round, round trip x sync / async; over the generations */
	double crossover_ns, crossover_low, crossover_high;
};

struct roundtrip_rec {
	char cell[MODEL_NAME_MAX]; /* the round-trip cell */
	double *gen_ns;		   /* ns per round trip, each generation's median */
	size_t ngen;
	double ns, ns_min, ns_max; /* their median, smallest and largest */
	struct roundtrip_lib_rec *libs;
	size_t nlibs;
};

struct paired_rec {
	double block_ms;	      /* asked for; -n given: 0 (fixed calls) */
	double async_block_ms;	      /* an async cell's: block_ms unless --async-block-ms; 0 in older documents */
	double lead_in_us;	      /* before every block: fixed (has_steady 0), else only sent to old children */
	int has_steady;		      /* lead-ins ran until steady (stats/steady.h), capped: */
	double lead_in_steady_max_us; /* the cap, after the first call */
	uint32_t lead_ins_capped;     /* lead-ins that reached it before a steady state */
	double budget_s;	      /* --time */
	double precision_pct;	      /* --precision; 0: off */
	double elapsed_s;	      /* from the first block to the last */
	double lead_s, timed_s;	      /* lead-ins and timed blocks, summed over cells */
	uint64_t order_seed;	      /* the rounds' random order */
	uint32_t
		blocks_per_visit; /* a cell's blocks in a row after one lead-in, each its own round; 1 in older documents */
	uint32_t rounds;	  /* complete rounds (every cell one block) */
	int caller_cpu;		  /* every caller ran on this CPU, the other threads elsewhere */
	char stopped_by[16];	  /* "time", "precision" or "launches" (--launches generations done) */
	double generation_s;	  /* rounds of one generation of children last this long */
	double *generation_rounds; /* the rounds of each generation (fresh processes) */
	size_t ngenerations;
	double startup_s; /* starting and ending the children, summed */
	struct pair_cell_rec *cells;
	size_t ncells;
	struct pair_ratio_rec *ratios;
	size_t nratios;
	int has_roundtrip;
	struct roundtrip_rec roundtrip;
	/* --against: the group-sequential design its stop rule followed
	 * (stats/sequential.h): looks at fixed generation counts, alpha spent
	 * at each; verdict_alpha is what the look the verdict was drawn at
	 * spent (split evenly over the judged ratios, whose intervals are at
	 * 1 - verdict_alpha / judged) */
	int has_sequential;
	struct seq_design seq;
	double verdict_alpha;
};

/* The sequential design of a paired --against in one clause, e.g.
 * "sequential: verdict at look 3 of 5 planned (19 generations), alpha
 * 0.0100 of 0.05 spent there, Bonferroni over looks and judged ratios;
 * judged intervals at 99.00%"; "" without one. In buf; returns buf. */
const char *paired_sequential_text(const struct paired_rec *p, char *buf, size_t len);

/* The level of the judged ratios' intervals: 1 - verdict_alpha / (the
 * judged ratios) under a sequential design, else 0.95. */
double paired_judged_level(const struct paired_rec *p);

/* The six questions a run can answer (analyse/decisions.h), in the
 * document's order. */
enum decision_key {
	DECISION_ASYNC,
	DECISION_LINK,
	DECISION_LANGUAGE,
	DECISION_POOLING,
	DECISION_MALLOC,
	DECISION_TOOLCHAIN,
	DECISION_KEYS
};

/* The JSON key of a decision ("async", ..., "toolchain"); "?" beyond. */
const char *decision_key_name(enum decision_key k);
/* Its question ("Turn async on or leave it off?"). */
const char *decision_question(enum decision_key k);

#define DECISION_TEXT_MAX 512

/* One decision: what the run measured that answers it, or the command that
 * would measure it. "": null in JSON; NAN: null. */
struct decision_rec {
	char key[16];
	char question[64];
	int measured;
	char answer[96];		    /* "": not measured */
	char figure[MODEL_NAME_MAX + 16];   /* the ratio or change it rests on */
	double estimate, low, high;	    /* the ratio and its interval at the document's ci_level */
	char flips_when[DECISION_TEXT_MAX]; /* the condition, with numbers, that would flip the answer */
	char command[MODEL_TEXT_MAX];	    /* not measured: what would measure it */
};

struct doc {
	int schema_version;
	struct machine_rec machine;
	struct options options;
	struct cell_rec *cells;
	size_t ncells;
	int has_comparison;
	struct comparison_rec comparison;
	int analysed;
	struct ratio_rec *ratios;
	size_t nratios;
	double ci_level;
	int samples_are_batches; /* one launch: its batches are the samples */
	int has_repeat;
	struct repeat_rec repeat;
	int has_paired;
	struct paired_rec paired;
	/* a report's (not a child launch's): the argv of the run as given, and
	 * its DECISION_KEYS decisions (ndecisions 0: none, an older document
	 * or a child's) */
	char **command;
	size_t ncommand;
	struct decision_rec *decisions;
	size_t ndecisions;
	/* --anatomy --count: the floors that can be counted, each a loop of
	 * calls counted like a cell ([FLOOR_C_CALL], [FLOOR_GO_RAW]); absent
	 * from documents before them */
	int has_floor_counts;
	struct counts_rec floor_counts[FLOOR_COUNTED];
	/* where the run comes from (--commit, --commit-time, --label or the CI's
	 * variables, cli/source.c); absent from documents before it and from
	 * runs that were told nothing */
	int has_source;
	struct source_rec source;
};

/* Records argv[0..argc) as the document's command (copies); 0, or -1 when
 * out of memory. */
int doc_set_command(struct doc *d, int argc, const char *const *argv);

/* The header of every document a run makes, in one place: d zeroed, the
 * schema version, the machine (if m is not NULL) and the options, whose
 * resolved kind the reporters read. */
void doc_begin(struct doc *d, const struct machine_rec *m, const struct options *o);

/* Frees what the document owns (arrays of cells, launches, samples, ...). */
void doc_free(struct doc *d);

/* Appends a zeroed element to an array (*items, *n); NULL when out of memory. */
void *model_append(void **items, size_t *n, size_t size);

/* The cell named name; NULL if none. */
struct cell_rec *doc_find_cell(const struct doc *d, const char *name);
/* The ratio over launches named name; NULL if none. */
const struct ratio_rec *doc_find_ratio(const struct doc *d, const char *name);
/* The paired ratio named name that is not judged (a --compare ratio, not
 * this build over the base); NULL if none. */
const struct pair_ratio_rec *paired_find_ratio(const struct paired_rec *p, const char *name);
/* The level of the document's intervals: its ci_level, or 0.95 (the
 * analysis's) in one that has none. */
double doc_ci_level(const struct doc *d);
/* The cell of lib asked to run in mode for scenario with the options' work,
 * measured by the bench driver; NULL if none. */
struct cell_rec *doc_find_mode(const struct doc *d, const char *lib, const char *mode, const char *scenario);
/* The same with a given work, by the bench driver (minimal 0) or by
 * a textbook loop (minimal 1: a .../driver=minimal cell of
 * build/bench-minimal, or .../driver=textbook of build/bench-textbook). */
struct cell_rec *doc_find_work(const struct doc *d, const char *lib, const char *mode, const char *scenario,
			       enum work work, int minimal);
/* The extract cell in mode beside another library in role ("idle",
 * "busy": its name has /with=<role>:), or with none (role NULL). */
struct cell_rec *doc_find_beside(const struct doc *d, const char *mode, const char *role);
/* The mode in effect is the one requested. */
int cell_ran_as_asked(const struct cell_rec *c);
/* "extraction" or "iteration": what the cell's unit counts. */
const char *cell_unit_noun(const struct cell_rec *c);
/* Extractions of a launch, summed over its callers. */
uint64_t launch_requests(const struct launch_rec *l);

/* A paired run's ratio r, generation by generation: x[g] is the median over
 * generation g's rounds of num[i] / den[i] (per-block arrays of the
 * ratio's cells: wall or CPU time). x holds pr->ngenerations values.
 * 0, or -1 when out of memory. */
/* The same for any per-round values v[0..n) (a paired cell's rounds, or
 * values made from several cells' blocks of the same round). */
int paired_generation_medians(const struct paired_rec *pr, const double *v, size_t n, double *x);
int paired_generation_ratios(const struct paired_rec *pr, const struct pair_ratio_rec *r, const double *num,
			     const double *den, double *x);

#endif
