/* model/options.h — the driver's command line: one table defines every
 * option (name, argument, help, parser, where it lands in struct options,
 * its key in the JSON record, and whether a child launch gets it); the
 * usage text, the JSON record and a child launch's arguments are all made
 * from that table. Conflicts between options are checked in one function. */
#ifndef CGOCOST_MODEL_OPTIONS_H
#define CGOCOST_MODEL_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

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
#define OPT_MAX_FIELD_SPECS	     64	     /* --field selections */
#define OPT_MAX_PAYLOAD		     1048576 /* --payload-size bytes */
#define OPT_MAX_ALLOC_BYTES	     UINT64_C(1073741824)
#define OPT_MAX_REPEAT_LOAD	     10000
#define OPT_DEFAULT_PAYLOAD	     64
#define OPT_MIN_POSITIVE	     0.001		/* --rate and --time: less is absurd */
#define OPT_MAX_RATE		     10000000.0		/* requests per second per plugin */
#define OPT_MAX_TIME_S		     86400.0		/* --time: one day */
#define OPT_MAX_SCHEDULED	     UINT64_C(20000000) /* stored latencies per plugin */
#define OPT_MAX_GAP_US		     UINT64_C(10000000) /* --gap-us: 10 s */
#define OPT_MAX_LIST		     16			/* --gap-us and --sweep-rate entries */
#define OPT_SWEEP_TIME_S	     4.0		/* --sweep-rate: seconds per rate */
#define OPT_SWEEP_MAX_N		     UINT64_C(200000)	/* --sweep-rate: requests at "max" */
/* Paired runs (--compare, --against): blocks of one cell then another, in
 * adjacent slots, judged by the ratio within each pair (docs/methodology.md). */
#define OPT_DEFAULT_PAIRED_TIME_S    10.0 /* --time of a paired --compare */
#define OPT_DEFAULT_AGAINST_TIME_S   30.0 /* --time of a paired --against: make power's curve */
#define OPT_DEFAULT_BLOCK_MS	     2.0  /* --block-ms */
#define OPT_DEFAULT_LEAD_IN_US	     1200 /* --lead-in-us */
#define OPT_MAX_LEAD_IN_US	     1000000
#define OPT_MAX_BLOCK_MS	     1000
#define OPT_PAIRED_THRESHOLD	     0.02 /* the noise band of a paired verdict */
#define OPT_UNPAIRED_THRESHOLD	     0.05 /* of every other verdict */

enum parse_result { PARSE_OK = 0, PARSE_HELP = 1, PARSE_BAD = 2 };
enum format { FORMAT_TEXT = 0, FORMAT_JSON, FORMAT_GOBENCH };
enum interleave { INTERLEAVE_AUTO = 0, INTERLEAVE_PAIRS, INTERLEAVE_LAUNCHES };

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
	uint32_t stall_timeout_s;  /* --stall-timeout: give up when a caller is stuck */
	uint32_t launches;	   /* --launches: fresh processes the measurement repeats in */
	int launches_set;
	enum format format;	   /* --format */
	int compare;		   /* --compare: archive/shared x sync/async, interleaved */
	int anatomy;		   /* --anatomy: the work steps x sync/async, and the minimal driver */
	const char *against;	   /* --against: another bench build, interleaved */
	const char *save_baseline; /* --save-baseline: store this run */
	const char *baseline;	   /* --baseline: judge against a saved run */
	double threshold;	   /* --threshold: noise band of the verdict, a fraction */
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
	/* paired runs */
	enum interleave interleave; /* --interleave: pairs or launches (auto: pairs where they apply) */
	int paired;		    /* derived: this run compares in paired blocks */
	double precision_pct;	    /* --precision: stop when every ratio's half-width is this small; 0: off */
	double block_ms;	    /* --block-ms: the length of a block */
	uint64_t lead_in_us;	    /* --lead-in-us: untimed calls before each block */
	int lead_in_set, block_set;
	uint64_t serve_blocks_ns; /* internal: a paired run's child; blocks of this length (0: -n calls) */
	int serve_blocks;
	/* resolved once from the rest (cli/runkind.c); never parsed, never
	 * recorded: the options above say it */
	enum run_kind kind;
	enum run_method method;
	enum run_base base;
};

/* Why this run cannot pair its blocks ("" when it can): the reason given
 * when --interleave pairs is asked for and refused. */
const char *options_unpairable(const struct options *o);

void options_defaults(struct options *o);

/* Parses argv, then checks the options together (options_check).
 * PARSE_HELP: --help was asked (print usage, exit 0). PARSE_BAD: err holds a
 * one-line message naming the problem. max_plugins is the SDK's limit of
 * live plugin instances (read from the plugin). */
enum parse_result options_parse(struct options *o, int argc, char **argv, uint32_t max_plugins, char *err,
				size_t errlen);

/* The conflicts between options, and the defaults that depend on others.
 * 0, or -1 with a message. */
int options_check(struct options *o, char *err, size_t errlen);

/* The options ask for an open-loop latency run (--rate or --gap-us). */
int options_latency(const struct options *o);

/* Parses "0,2-3" into cpus; returns the count, or -1 with a message. */
int parse_cpu_list(const char *s, int *cpus, int max, char *err, size_t errlen);

void options_usage(const char *prog, FILE *out);

/* The options record of a document (the options that shape a measurement). */
json_t *options_to_json(const struct options *o);
/* Reads an options record back; every key checked. 0, or -1 with a message. */
int options_from_json(struct options *o, const json_t *rec, char *err, size_t errlen);

/* The arguments a child launch of these options gets (after argv[0], before
 * --emit-launch; strings in store). Returns the count, or -1 if they do not
 * fit. */
int options_child_args(const struct options *o, char **argv, int max, char *store, size_t storelen);

#endif
