/* model/options.h — what the driver is asked to do: struct options, its
 * defaults, and the one table that defines every option (name, argument,
 * help, where it lands in struct options, its key in the JSON record, and
 * whether a child launch gets it). The command line (cli/args.c), the
 * usage text (cli/usage.c), the options record (model/codec_options.c) and
 * a child launch's arguments (orchestrate/childargs.c) are all made from
 * that table. */
#ifndef CGOCOST_MODEL_OPTIONS_H
#define CGOCOST_MODEL_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "base/names.h"
#include "model/runkind.h"

#define OPT_MAX_N		     UINT64_C(10000000000) /* 1e10 extractions per plugin */
#define OPT_MAX_PLUGINS		     4096		   /* before the SDK's own, lower limit */
#define OPT_MAX_FIELDS		     256
#define OPT_MAX_BATCHES		     100000
#define OPT_MAX_WARMUP		     UINT64_C(1000000000)
#define OPT_MAX_EXTRA_NS	     UINT64_C(1000000000)
#define OPT_MAX_CPUS		     1024
#define OPT_MAX_LAUNCHES	     1000
#define OPT_MAX_ALLOCATORS	     4
#define OPT_DEFAULT_COMPARE_LAUNCHES 10
#define OPT_MAX_LIBS		     8	     /* --plugin libraries in one process */
#define OPT_MAX_FIT		     64	     /* --fit documents */
#define OPT_MAX_FIELD_SPECS	     64	     /* --field selections */
#define OPT_MAX_EXPORTS		     8	     /* --export FORMAT=FILE */
#define OPT_MAX_PAYLOAD		     1048576 /* --payload-size bytes */
#define OPT_MAX_ALLOC_BYTES	     UINT64_C(1073741824)
#define OPT_MAX_REPEAT_LOAD	     10000
#define OPT_DEFAULT_PAYLOAD	     64
#define OPT_MIN_POSITIVE	     0.001		/* --rate and --time: less is absurd */
#define OPT_MAX_RATE		     10000000.0		/* requests per second per plugin */
#define OPT_MAX_TIME_S		     86400.0		/* --time: one day */
#define OPT_MAX_SCHEDULED	     UINT64_C(20000000) /* stored latencies per plugin */
/* an open-loop request holds 8 bytes of schedule and 8 of latency while it
 * runs, then 8 + 8 as its latency is copied into the record */
#define OPEN_LOOP_BYTES		     16
#define OPT_MAX_GAP_US		     UINT64_C(10000000) /* --gap-us: 10 s */
#define OPT_MAX_LIST		     16			/* --gap-us and --sweep-rate entries */
#define OPT_SWEEP_TIME_S	     4.0		/* --sweep-rate: seconds per rate */
#define OPT_SWEEP_MAX_N		     UINT64_C(200000)	/* --sweep-rate: requests at "max" */
/* Paired runs (--compare, --against): blocks of one cell then another, in
 * adjacent slots, judged by the ratio within each pair (docs/methodology.md). */
#define OPT_DEFAULT_PAIRED_TIME_S    10.0 /* --time of a paired --compare */
#define OPT_DEFAULT_AGAINST_TIME_S   30.0 /* --time of a paired --against: make power's curve */
#define OPT_GENERATION_MIN_S	     0.2  /* a paired run's generation: a 25th of --time, within these */
#define OPT_GENERATION_MAX_S	     1.0
#define OPT_DEFAULT_BLOCK_MS	     2.0  /* --block-ms */
#define OPT_DEFAULT_LEAD_IN_US	     1200 /* --lead-in-us: given, a fixed lead-in; else sent to old children */
#define OPT_DEFAULT_BLOCKS_PER_VISIT 4	  /* --blocks-per-visit: timed blocks in a row after one lead-in */
#define OPT_MAX_BLOCKS_PER_VISIT     64
#define OPT_LEAD_IN_STEADY_MAX_US    5000 /* else a lead-in runs until steady, this long at most after its first call */
#define OPT_MAX_LEAD_IN_US	     1000000
#define OPT_MAX_BLOCK_MS	     1000
#define OPT_PAIRED_THRESHOLD	     0.02 /* the noise band of a paired verdict */
#define OPT_UNPAIRED_THRESHOLD	     0.05 /* of every other verdict */
/* The counting gate (--against EXE --count instructions): -n when not
 * given (a pair's difference over 100000 extractions repeats to ~0.2%),
 * and the threshold (docs/methodology.md, "The counting gate"). */
#define OPT_COUNT_GATE_N	     UINT64_C(100000)
#define OPT_COUNT_THRESHOLD	     0.005

enum parse_result { PARSE_OK = 0, PARSE_HELP = 1, PARSE_BAD = 2 };
enum format { FORMAT_TEXT = 0, FORMAT_JSON, FORMAT_GOBENCH, FORMAT_MARKDOWN };
enum interleave { INTERLEAVE_AUTO = 0, INTERLEAVE_PAIRS, INTERLEAVE_LAUNCHES };
/* --host-calls: how an event's --per-event K fields reach the plugin */
enum host_calls { HOST_CALLS_PER_FIELD = 0, HOST_CALLS_BATCHED, HOST_CALLS_BOTH };
/* --count: what is counted per extraction, a bit each (orchestrate/count.h) */
enum count_what { COUNT_INSTRUCTIONS = 1, COUNT_SYSCALLS = 2, COUNT_ALL = 3 };

struct options {
	uint64_t n;	  /* -n: timed extraction requests per plugin */
	uint32_t plugins; /* -p: plugins running in parallel, a thread each */
	int async;	  /* -a: ask the SDK for async extraction */
	enum work work;	  /* --work */
	uint32_t fields;  /* --fields: fields per extraction call */
	uint32_t batches; /* -r/--runs: timed batches the n requests are split into */
	uint64_t warmup;  /* --warmup: untimed extractions right before timing */
	int warmup_set;
	uint64_t extra_ns;	   /* --extra-ns: calibrated slowdown inside Extract */
	int floors;		   /* --floors: measure the floors in the same run */
	const char *plugin_config; /* --plugin-config: init string passed verbatim */
	/* --compare --plugin: the plugin's own configurations of its two
	 * cells, each passed verbatim, each cell's mode verified */
	const char *sync_config, *async_config;
	/* --against-plugin: the base build of the one --plugin library, judged
	 * in this driver (o->against is then this executable) */
	const char *against_plugin;
	uint32_t stall_timeout_s; /* --stall-timeout: give up when a caller is stuck */
	uint32_t launches;	  /* --launches: fresh processes the measurement repeats in */
	int launches_set;
	enum format format;		      /* --format */
	const char *exports[OPT_MAX_EXPORTS]; /* --export FORMAT=FILE, repeatable (report/export.h) */
	int nexports;
	int verbose;		   /* --verbose: the warnings per cell, not summarised */
	int progress;		   /* --progress: the progress line on stderr even when it is no terminal */
	int no_progress;	   /* --no-progress: no progress line, even on a terminal */
	int compare;		   /* --compare: archive/shared x sync/async, interleaved */
	int anatomy;		   /* --anatomy: the work steps x sync/async, and the minimal driver */
	const char *against;	   /* --against: another bench build, interleaved */
	const char *save_baseline; /* --save-baseline: store this run */
	const char *baseline;	   /* --baseline: judge against a saved run */
	double threshold;	   /* --threshold: noise band of the verdict, a fraction */
	int inconclusive_pass;	   /* --inconclusive pass: a verdict that cannot tell exits 0, not 4 */
	int inconclusive_set;
	int threshold_set;
	uint64_t seed;		 /* --seed: bootstrap seed of the analysis */
	uint64_t async_extra_ns; /* --async-extra-ns: slowdown for async cells only */
	uint32_t slowdown_pct;	 /* --slowdown-pct: a paired block repeats this share of its calls */
	int lifecycle;		 /* --scenario lifecycle: alloc vs reuse of instances */
	uint32_t pool;		 /* --pool: instances in the reuse pool (default -p) */
	const char *malloc_name; /* --malloc: the allocator to preload (canonical name) */
	int count_allocs;	 /* --count-allocs: count C-side allocations */
	int nallocators;	 /* --allocators: one cell per allocator, interleaved */
	const char *allocators[OPT_MAX_ALLOCATORS];
	const char *judge[2]; /* --judge BASE CUR: verdict on two sample files */
	int emit_launch;      /* internal: a child launch printing its JSON document */
	double rate;	      /* --rate: open-loop requests per second per plugin; 0: closed loop */
	enum arrival arrival; /* --arrival: even (default) or poisson */
	double time_s;	      /* --time: length of the schedule in seconds; 0: from -n */
	int n_set, batches_set;
	int ngaps; /* --gap-us: closed loop with these idle gaps, one cell each */
	uint64_t gaps_us[OPT_MAX_LIST];
	int nsweep; /* --sweep-rate: rates, 0 standing for "max" */
	double sweep[OPT_MAX_LIST];
	int ncpus; /* --cpus: how many CPUs were listed (0: no pinning) */
	int cpus[OPT_MAX_CPUS];
	int worker_cpu;	 /* --worker-cpu: the async worker side's one CPU; -1: not pinned */
	int slot_offset; /* --slot-offset: where the SDK's async slots start in a line; -1: the allocator's */
	int topology;	 /* --topology: list the CPU classes relative to the caller, measure nothing */
	const char *fit[OPT_MAX_FIT]; /* --fit FILE, repeatable: saved --compare documents */
	int nfit;
	/* plugin libraries (docs/plugins.md) */
	const char *libs[OPT_MAX_LIBS]; /* --plugin PATH, repeatable: measured, -p callers each */
	int nlibs;
	const char *field_specs[OPT_MAX_FIELD_SPECS]; /* --field NAME[arg], repeatable */
	int nfield_specs;
	const char *events; /* --events FILE: one payload a line */
	uint32_t plugin_id; /* --plugin-id: the plugin id of the events */
	int plugin_id_set;
	uint32_t payload_size; /* --payload-size: the synthetic payload's bytes */
	int payload_size_set;
	const char *idle;     /* --idle PATH: loaded and started, never called while timing */
	const char *busy;     /* --busy PATH: extracting on a thread of its own while timing */
	uint64_t alloc_bytes; /* --alloc-bytes: Go heap bytes the --busy mock allocates per call */
	uint32_t repeat_load; /* --repeat-load K: K fresh processes load, extract, exit */
	int interference;     /* --interference: alone, with --busy's library idle, busy; sync, async */
	uint32_t per_event;   /* --per-event K: fields each event extracts (0: off; sets fields = K) */
	int per_event_set;
	enum host_calls host_calls; /* --host-calls: K calls of one field, or one call of K */
	int host_calls_set;
	uint32_t count; /* --count: enum count_what bits; 0: nothing counted */
	/* where the run comes from (model/source.h): given, or read from the
	 * CI's variables by the command line (cli/source.c); NULL: unknown */
	const char *commit, *commit_time, *label;
	/* paired runs */
	enum interleave interleave; /* --interleave: pairs or launches (auto: pairs where they apply) */
	int paired;		    /* derived: this run compares in paired blocks */
	double precision_pct;	    /* --precision: stop when every ratio's half-width is this small; 0: off */
	double block_ms;	    /* --block-ms: the length of a block */
	double async_block_ms;	    /* --async-block-ms: an async cell's block; 0: --block-ms */
	int async_block_set;
	uint64_t lead_in_us;	   /* --lead-in-us: untimed calls before each block */
	uint32_t blocks_per_visit; /* --blocks-per-visit: blocks a cell runs in a row after one lead-in */
	int blocks_per_visit_set;
	int lead_in_set, block_set;
	uint64_t serve_blocks_ns; /* internal: a paired run's child; blocks of this length (0: -n calls) */
	int serve_blocks;
	uint32_t count_floor; /* internal: a counted floor's child (orchestrate/count.h): 1 + enum floor_kind
			       * of the one floor loop it runs -n times, nothing measured; 0: off */
	/* the command line as given (options_parse), for the report's
	 * command; never recorded as an option, never passed to a child */
	int argc;
	const char *const *argv;
	/* resolved once from the rest (cli/runkind.c); never parsed, never
	 * recorded: the options above say it */
	enum run_kind kind;
	enum run_method method;
	enum run_base base;
};

enum opt_type {
	T_HELP,		/* -h: print usage */
	T_FLAG,		/* int set to 1 */
	T_U64,		/* uint64_t within [min, max] */
	T_U32,		/* uint32_t within [min, max] */
	T_INSTANCES,	/* uint32_t, also bounded by the SDK's handle table */
	T_PERCENT,	/* whole percent, stored as a fraction (double) */
	T_WORK,		/* enum work */
	T_FORMAT,	/* enum format */
	T_SCENARIO,	/* extract or lifecycle (int lifecycle) */
	T_ALLOCATOR,	/* canonical allocator name (const char *) */
	T_TEXT,		/* const char *, at most max bytes (0: any) */
	T_CPUS,		/* a CPU list into ncpus/cpus */
	T_CPU,		/* one CPU number into an int, -1 when not given (JSON null) */
	T_ALLOCATORS,	/* a list of allocator names */
	T_JUDGE,	/* two operands: BASE CUR */
	T_LIST,		/* repeatable: const char * array at off, its count at set_off, at most max */
	T_RATE,		/* double in (0, max], per second */
	T_SECONDS,	/* double in (0, max] */
	T_ARRIVAL,	/* enum arrival */
	T_GAPS,		/* a list of idle gaps in us */
	T_SWEEP,	/* a list of rates, or "max" */
	T_REAL,		/* double in (0, max] */
	T_INTERLEAVE,	/* enum interleave */
	T_HOSTCALLS,	/* enum host_calls */
	T_COUNT,	/* enum count_what, as uint32_t */
	T_INCONCLUSIVE, /* int: 1 "pass", 0 "fail" */
};

/* The usage text's groups, in order. */
enum opt_group { GROUP_RUN, GROUP_COMPARE, GROUP_OBJECTS, GROUP_PLUGINS };

/* One option. */
struct optdef {
	const char *name; /* long name; NULL: short only */
	char shortname;
	const char *arg;  /* argument as shown in the usage; NULL: none */
	int group;	  /* enum opt_group */
	const char *help; /* '\n' starts a continuation line */
	enum opt_type type;
	size_t off;  /* where it lands in struct options */
	int has_set; /* also sets the int at set_off */
	size_t set_off;
	uint64_t min, max;
	const char *json; /* key in the options record; NULL: not recorded */
	int json_opt;	  /* the key may be missing (documents older than it) */
	int child;	  /* a child launch gets it */
	int judge;	  /* allowed with --judge (which measures nothing) */
};

/* The option table, in the usage text's order: OPT_COUNT rows. */
#define OPT_COUNT 72
extern const struct optdef options_table[OPT_COUNT];

/* Where option d lands in o, and the int at its set_off (its "given" flag,
 * or a T_LIST's count). */
static inline void *option_field(struct options *o, const struct optdef *d)
{
	return (char *)o + d->off;
}

static inline const void *option_cfield(const struct options *o, const struct optdef *d)
{
	return (const char *)o + d->off;
}

static inline int *option_set(struct options *o, const struct optdef *d)
{
	return (int *)(void *)((char *)o + d->set_off);
}

static inline int option_cset(const struct options *o, const struct optdef *d)
{
	return *(const int *)(const void *)((const char *)o + d->set_off);
}

void options_defaults(struct options *o);

/* A count within an option's bounds, for the command line and the JSON
 * record alike: 0, or -1 with "NAME: 'SHOWN' must be at least MIN" or
 * "... is too large (at most MAX)" in err (shown: the value as given). */
int option_in_bounds(const char *name, const char *shown, uint64_t v, uint64_t min, uint64_t max, char *err,
		     size_t errlen);

/* "--name", or "-c" for a short option only: how messages name option d. */
void option_name(const struct optdef *d, char *buf, size_t len);

/* Sets a named choice (a work, a format, a scenario, an allocator, an
 * interleaving, an arrival, a count) from its word: the command line's and the JSON
 * record's one reading of it. 0, or -1 with "NAME: 'x' is not one of ..."
 * in err. */
int option_set_choice(const struct optdef *d, struct options *o, const char *name, const char *arg, char *err,
		      size_t errlen);

/* "per-field", "batched" or "both". */
const char *host_calls_name(enum host_calls h);

/* The options ask for an open-loop latency run (--rate or --gap-us). */
int options_latency(const struct options *o);

/* The timed length of a block of a paired cell, ms: --async-block-ms for an
 * async one when given, else --block-ms. */
double options_block_ms(const struct options *o, int async);

/* A paired run's generation length in seconds: --time / --launches, or
 * else a 25th of --time within OPT_GENERATION_MIN_S and _MAX_S. */
double options_generation_s(const struct options *o);

/* The most generations a paired run of ncells cells can hold: L with
 * --launches L; else ceil(--time / d), where d, the least a generation
 * lasts, is the longer of its length and one round (ncells blocks, each
 * --lead-in-us and --block-ms long; start-ups not counted), put in
 * *least_s. */
size_t options_max_generations(const struct options *o, int ncells, double *least_s);

#endif
