/* model/options.c — the option table, the defaults, the words each named
 * option takes (read alike from argv and from a JSON record), and the one
 * predicate on options that layers below the command line need
 * (options_latency). */
#include "model/options.h"

#include "model/source.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define AT(f)	 offsetof(struct options, f)
#define SETS(f)	 .has_set = 1, .set_off = AT(f)
#define COUNT(f) .set_off = AT(f)

/* one option a row, its help on the next line */
// clang-format off
const struct optdef options_table[] = {
	{.name = "help", .shortname = 'h', .group = GROUP_RUN, .type = T_HELP, .judge = 1,
	 .help = "this help"},
	{.name = "async", .shortname = 'a', .group = GROUP_RUN, .type = T_FLAG, .off = AT(async), .child = 1,
	 .help = "ask the SDK for async extraction (default: sync)"},
	{.shortname = 'n', .arg = "<number>", .group = GROUP_RUN, .type = T_U64, .off = AT(n), SETS(n_set), .min = 1, .max = OPT_MAX_N, .json = "n", .child = 1,
	 .help = "timed extraction requests per plugin (default 10000); in a\npaired run, when given: the requests of one block"},
	{.shortname = 'p', .arg = "<number>", .group = GROUP_RUN, .type = T_INSTANCES, .off = AT(plugins), .json = "plugins", .child = 1,
	 .help = "plugins running in parallel, one thread each (default 1)"},
	{.name = "runs", .shortname = 'r', .arg = "<R>", .group = GROUP_RUN, .type = T_U32, .off = AT(batches), SETS(batches_set), .min = 1, .max = OPT_MAX_BATCHES, .json = "runs", .child = 1,
	 .help = "timed batches the -n requests are split into (default 10);\nnot in a paired run, whose batches are its blocks"},
	{.name = "work", .arg = "<w>", .group = GROUP_RUN, .type = T_WORK, .off = AT(work), .json = "work", .child = 1,
	 .help = "bare (nothing touched: the pure crossing or handoff), event\n(+ a new event number each call), noop (+ the result read\nback; the default), u64 or str (+ a value checked), json\n(+ the payload, a JSON document of --payload-size bytes,\ndecoded by the plugin: a realistic field)"},
	{.name = "fields", .arg = "<K>", .group = GROUP_RUN, .type = T_U32, .off = AT(fields), .min = 1, .max = OPT_MAX_FIELDS, .json = "fields", .child = 1,
	 .help = "fields per extraction call (default 1)"},
	{.name = "warmup", .arg = "<N>", .group = GROUP_RUN, .type = T_U64, .off = AT(warmup), SETS(warmup_set), .max = OPT_MAX_WARMUP, .json = "warmup", .child = 1,
	 .help = "untimed extractions right before timing (default 10000)"},
	{.name = "extra-ns", .arg = "<ns>", .group = GROUP_RUN, .type = T_U64, .off = AT(extra_ns), .max = OPT_MAX_EXTRA_NS, .json = "extra_ns", .child = 1,
	 .help = "busy-loop this long inside each Extract (regression demo)"},
	{.name = "floors", .group = GROUP_RUN, .type = T_FLAG, .off = AT(floors), .json = "floors", .child = 1,
	 .help = "also measure the floors: a C call, the raw C->Go call,\na cache-line round trip between two CPUs"},
	{.name = "cpus", .arg = "<list>", .group = GROUP_RUN, .type = T_CPUS, .json = "cpus", .child = 1,
	 .help = "pin the calling threads, one CPU each (e.g. 0,1 or 0-1)"},
	{.name = "worker-cpu", .arg = "<N>", .group = GROUP_RUN, .type = T_CPU, .off = AT(worker_cpu), .max = OPT_MAX_CPUS - 1, .json = "worker_cpu", .json_opt = 1, .child = 1,
	 .help = "with -a: pin the async worker side (every thread but the\ncallers: the SDK's worker, the Go runtime's threads) to\nCPU N, and the caller (without --cpus) to the first other\nCPU allowed; verified after the run, and N's topology class\nrelative to the caller's is in the JSON machine record"},
	{.name = "topology", .group = GROUP_RUN, .type = T_FLAG, .off = AT(topology),
	 .help = "list the CPUs this process may use by their class relative\nto the caller's (--cpus's first, or the first allowed):\nSMT sibling, same last-level cache, other one, other\npackage; one CPU of each, for --worker-cpu; measures nothing.\nWith --floors, the sweep: per class, async noop with the\nworker side on its CPU and the round trip to it, beside\nsync (one launch each, -n calls)"},
	{.name = "fit", .arg = "<file>", .group = GROUP_RUN, .type = T_LIST, .off = AT(fit), COUNT(nfit), .max = OPT_MAX_FIT,
	 .help = "repeatable: saved JSON documents of --compare; fits async\nagainst the round trip through all their generations\n(async = slope x round trip + intercept, per library) and\nprints each document's round trip and async in round trips;\nmeasures nothing, takes no other option"},
	{.name = "plugin-config", .arg = "<s>", .group = GROUP_RUN, .type = T_TEXT, .off = AT(plugin_config), .max = 1024, .child = 1,
	 .help = "pass this plugin_init configuration verbatim instead\nof the one -a/--extra-ns imply (testing: the mode in\neffect is still verified, never taken from it)"},
	{.name = "stall-timeout", .arg = "<s>", .group = GROUP_RUN, .type = T_U32, .off = AT(stall_timeout_s), .max = 86400, .child = 1,
	 .help = "give up (exit 3) when a caller makes no progress\nfor this long plus 20 batches at the warm-up's pace\n(default 20, 0: never)"},
	{.name = "count", .arg = "<what>", .group = GROUP_RUN, .type = T_COUNT, .off = AT(count),
	 .help = "count per extraction, no clock: instructions (valgrind's\ncachegrind; sync, -p 1 only), syscalls (perf stat: system\ncalls in all and by name, context switches, page faults)\nor all; 3 pairs of child runs at -n N and 2N, differenced\nover N: median and range, printed after the times. A cost\nof its own, after the timed run: at -n 100000 a sync cell\ntakes about 10 s under valgrind and 4 s under perf on\na 2-CPU VM (12 child runs); a slower one (Go 1.19) 17, 9 s.\nWith --compare or --anatomy: every cell (an async one's\ninstructions left out, said: its worker spins), and the\nanatomy's C call and raw C->Go floors; on a 2-CPU VM\nshared with other work (load 3 to 18), at -n 10000:\n--compare --count all counted for 25 to 64 s after its\n12 to 24 s run, --anatomy --count instructions 68 to 88 s\n(8 cells, 3 to 20 s each) after its 60 to 205 s.\nWith --against EXE, instructions: the counting gate, both\nbuilds' cell counted in turn, 5 pairs a build (-n 100000\nunless given), judged at 0.5% (--threshold); 20 runs:\n30-100 s on a loaded 2-CPU VM"},
	{.name = "rate", .arg = "<R>", .group = GROUP_RUN, .type = T_RATE, .off = AT(rate), .child = 1,
	 .help = "open loop: R requests per second per plugin on a schedule\nfixed before the run; latency percentiles measured from\neach request's due time (-n requests, or --time)"},
	{.name = "arrival", .arg = "<a>", .group = GROUP_RUN, .type = T_ARRIVAL, .off = AT(arrival), .child = 1,
	 .help = "even (default) or poisson: exponential gaps drawn from\n--seed (printed)"},
	{.name = "time", .arg = "<S>", .group = GROUP_RUN, .type = T_SECONDS, .off = AT(time_s), .child = 1,
	 .help = "with --rate or --sweep-rate: the schedule lasts S seconds\n(-n = R x S); in a paired run: its time budget\n(default 10 s for --compare, --against default 30 s)"},
	{.name = "gap-us", .arg = "<list>", .group = GROUP_RUN, .type = T_GAPS, .child = 1,
	 .help = "closed loop with a fixed idle gap between calls, one cell\nper gap (e.g. 10,100,1000,5000): latency percentiles and\nthe smallest gap at which latency jumps"},
	{.name = "sweep-rate", .arg = "<list>", .group = GROUP_COMPARE, .type = T_SWEEP,
	 .help = "sync and async at each rate (e.g. 100,1000,max), one\nfresh launch each, interleaved: one latency table\n(-n: the requests of max, default 200000; --save-baseline\nFILE keeps its JSON for make latency's chart)"},
	{.name = "launches", .arg = "<L>", .group = GROUP_COMPARE, .type = T_U32, .off = AT(launches), SETS(launches_set), .min = 1, .max = OPT_MAX_LAUNCHES, .json = "launches",
	 .help = "repeat the measurement in L fresh processes; statistics\nare computed across launches (default 1; 10 for\n--interleave launches and baselines, 12 with\n--against). In a paired run: L\ngenerations of fresh processes, each --time/L long (default:\nas many as fit in --time, each --time/25, 0.2 to 1 s)"},
	{.name = "format", .arg = "<f>", .group = GROUP_COMPARE, .type = T_FORMAT, .off = AT(format),
	 .help = "text (default), json, gobench (Go benchmark lines), or\nmarkdown (GitHub-flavoured: the decisions, cells, ratios\nand verdicts as tables, e.g. for a job summary)"},
	{.name = "export", .arg = "<fmt=file>", .group = GROUP_COMPARE, .type = T_LIST, .off = AT(exports), COUNT(nexports), .max = OPT_MAX_EXPORTS,
	 .help = "also write this run's report as json, gobench, markdown\nor html (by cgocost-report beside bench) to FILE, or to\nstdout after the report with -; repeatable, one run for\nall; each file written atomically after the report, a\nfailed one is exit 3 (a regression's 1 too: data lost)"},
	{.name = "verbose", .group = GROUP_COMPARE, .type = T_FLAG, .off = AT(verbose),
	 .help = "print the noise warnings (too few samples, outliers,\nstalled blocks, more threads than CPUs) per cell;\nwithout it they are summarised across cells in at most\nthree lines (every figure is in the JSON either way)"},
	{.name = "progress", .group = GROUP_COMPARE, .type = T_FLAG, .off = AT(progress),
	 .help = "show the progress line of a run of more than about a\nsecond (elapsed of the budget, generations or launches\ndone, the main figure so far) on stderr even when it is\nno terminal (default: only on a terminal)"},
	{.name = "no-progress", .group = GROUP_COMPARE, .type = T_FLAG, .off = AT(no_progress),
	 .help = "no progress line, even on a terminal"},
	{.name = "compare", .group = GROUP_COMPARE, .type = T_FLAG, .off = AT(compare),
	 .help = "archive vs shared x sync vs async and the C plugin, in\npaired blocks (--interleave), one table with the ratios"},
	{.name = "anatomy", .group = GROUP_COMPARE, .type = T_FLAG, .off = AT(anatomy),
	 .help = "what one extraction is made of: the work steps bare,\nevent, noop, u64, str, sync and async, with the minimal\ndriver (bench-minimal) beside bare; interleaved launch\nby launch, one table with the steps' increments"},
	{.name = "against", .arg = "<exe>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(against),
	 .help = "run another build of bench beside this one, in paired\nblocks, and judge this build against it, cell by cell\nin the same order (the CI gate: the base build on the\nsame machine); --extra-ns and --async-extra-ns reach\nthis build only; a verdict needs at least 12 generations\n(or launches) a side: fewer is exit 3, and a budget that\ncannot hold them is refused; paired, or async, it needs\n2 allowed CPUs (on 1 it is refused)"},
	{.name = "against-plugin", .arg = "<path>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(against_plugin),
	 .help = "your plugin's gate: with one --plugin HEAD.so, judge it\nagainst BASE.so (the base build, the same file name) in\nthis driver, paired, as --against judges a build: exit 0\nno regression, 1 regression, 4 inconclusive"},
	{.name = "save-baseline", .arg = "<file>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(save_baseline),
	 .help = "store this run (JSON, written atomically); a run that\nstores or reads a baseline runs launch by launch: a\nbaseline is from another time and cannot be paired"},
	{.name = "baseline", .arg = "<file>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(baseline),
	 .help = "judge this run's absolute cells (under a matching machine\nkey) and ratios against a stored one, unpaired"},
	{.name = "commit", .arg = "<sha>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(commit), .max = SOURCE_COMMIT_MAX,
	 .help = "the commit measured (4 to 64 hex digits), in the JSON's\nsource section for cgocost-history (default:\n$CGOCOST_COMMIT, $GITHUB_SHA or $CI_COMMIT_SHA)"},
	{.name = "commit-time", .arg = "<time>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(commit_time), .max = SOURCE_TIME_MAX,
	 .help = "that commit's time, RFC 3339 (git show -s --format=%cI;\ndefault: $CGOCOST_COMMIT_TIME or $CI_COMMIT_TIMESTAMP)"},
	{.name = "label", .arg = "<name>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(label), .max = SOURCE_LABEL_MAX,
	 .help = "a branch or series name for the source section (default:\n$CGOCOST_LABEL, $GITHUB_REF_NAME or $CI_COMMIT_REF_NAME)"},
	{.name = "interleave", .arg = "<i>", .group = GROUP_COMPARE, .type = T_INTERLEAVE, .off = AT(interleave),
	 .help = "pairs (the default of --compare and --against): every cell\nruns short blocks in one long-lived process each, one\nblock at a time, in rounds of random order; each ratio is\ntaken within a round. launches: fresh processes, one\nlaunch of each cell a round (--launches; always for\nbaselines, --allocators and -p > 1)"},
	{.name = "precision", .arg = "<pct>", .group = GROUP_COMPARE, .type = T_REAL, .off = AT(precision_pct), .max = 100,
	 .help = "paired: stop before --time once every ratio's 95% interval\nis this narrow (half-width, percent; default: off)"},
	{.name = "block-ms", .arg = "<ms>", .group = GROUP_COMPARE, .type = T_REAL, .off = AT(block_ms), SETS(block_set), .max = OPT_MAX_BLOCK_MS,
	 .help = "paired: the timed length of a block (default 2); -n N\ngiven: N calls a block instead"},
	{.name = "async-block-ms", .arg = "<ms>", .group = GROUP_COMPARE, .type = T_REAL, .off = AT(async_block_ms), SETS(async_block_set), .max = OPT_MAX_BLOCK_MS,
	 .help = "paired: the timed length of an async cell's block (default:\n--block-ms): longer blocks spread the worker's wake-up\nbefore each over more timed calls"},
	{.name = "lead-in-us", .arg = "<us>", .group = GROUP_COMPARE, .type = T_U64, .off = AT(lead_in_us), SETS(lead_in_set), .max = OPT_MAX_LEAD_IN_US,
	 .help = "paired: untimed calls this long before every block\n(fixed); default: until steady (4 groups of 16 calls\nwithin 25%), 1200 us at least after an async block, 5 ms\nat most (excluded and reported)"},
	{.name = "blocks-per-visit", .arg = "<k>", .group = GROUP_COMPARE, .type = T_U32, .off = AT(blocks_per_visit), SETS(blocks_per_visit_set), .min = 1, .max = OPT_MAX_BLOCKS_PER_VISIT,
	 .help = "paired: timed blocks a cell runs in a row after one lead-in\n(default 4): the lead-in, mostly an async worker waking,\nis paid once a visit; block j of a visit is paired with\nblock j of the other cell's visit in the same round"},
	{.name = "threshold", .arg = "<pct>", .group = GROUP_COMPARE, .type = T_PERCENT, .off = AT(threshold), SETS(threshold_set), .max = 1000, .judge = 1,
	 .help = "noise band of the verdict: default 2 for a paired run,\n5 for every other (baselines, --judge, launches)"},
	{.name = "inconclusive", .arg = "<what>", .group = GROUP_COMPARE, .type = T_INCONCLUSIVE, .off = AT(inconclusive_pass), SETS(inconclusive_set), .judge = 1,
	 .help = "what a verdict that cannot tell does (its interval reaches\nthe threshold without lying above it, or too few samples):\nfail, exit 4 (the default), or pass, exit 0"},
	{.name = "seed", .arg = "<n>", .group = GROUP_COMPARE, .type = T_U64, .off = AT(seed), .max = UINT64_MAX, .judge = 1,
	 .help = "seed of the bootstrap intervals and of a paired run's\nrandom order (default 1)"},
	{.name = "slowdown-pct", .arg = "<P>", .group = GROUP_COMPARE, .type = T_U32, .off = AT(slowdown_pct), .max = 100, .child = 1,
	 .help = "one more extraction of the same event after every 100/P\ntimed ones: a slowdown of P% whatever a call costs\n(regression demo, this build only under --against; make\npower, make regress)"},
	{.name = "async-extra-ns", .arg = "<ns>", .group = GROUP_COMPARE, .type = T_U64, .off = AT(async_extra_ns), .max = OPT_MAX_EXTRA_NS, .json = "async_extra_ns",
	 .help = "--extra-ns for async cells only"},
	{.name = "emit-launch", .group = GROUP_COMPARE, .type = T_FLAG, .off = AT(emit_launch),
	 .help = NULL /* internal */},
	{.name = "serve-blocks", .arg = "<ns>", .group = GROUP_COMPARE, .type = T_U64, .off = AT(serve_blocks_ns), SETS(serve_blocks), .max = UINT64_C(1000000000),
	 .help = NULL /* internal: a paired run's child, blocks on command */},
	{.name = "count-floor", .arg = "<k>", .group = GROUP_COMPARE, .type = T_U32, .off = AT(count_floor), .min = 1, .max = 2,
	 .help = NULL /* internal: a counted floor's child, one floor loop -n times (1 the C call, 2 the raw C->Go call) */},
	{.name = "scenario", .arg = "<s>", .group = GROUP_OBJECTS, .type = T_SCENARIO, .off = AT(lifecycle), .json = "scenario", .child = 1,
	 .help = "extract (default) or lifecycle: per iteration a new\nplugin instance (alloc: init, one extraction, destroy)\nvs one from a pool (reuse); both are measured"},
	{.name = "pool", .arg = "<N>", .group = GROUP_OBJECTS, .type = T_INSTANCES, .off = AT(pool), .json = "pool", .child = 1,
	 .help = "instances in the reuse pool (default -p)"},
	{.name = "malloc", .arg = "<a>", .group = GROUP_OBJECTS, .type = T_ALLOCATOR, .off = AT(malloc_name), .json = "malloc", .child = 1,
	 .help = "glibc, jemalloc, tcmalloc or mimalloc: re-execute with\nthat allocator preloaded (verified, named in the header)"},
	{.name = "count-allocs", .group = GROUP_OBJECTS, .type = T_FLAG, .off = AT(count_allocs), .json = "count_allocs", .child = 1,
	 .help = "count C-side mallocs and frees per iteration"},
	{.name = "slot-offset", .arg = "<B>", .group = GROUP_OBJECTS, .type = T_CPU /* an int, -1 unset */, .off = AT(slot_offset), .max = 56, .json = "slot_offset", .json_opt = 1,
	 .help = "place the Go SDK's async slot array B bytes (0 to 56, a\nmultiple of 8) past a 64-byte line, with a preload, in\nevery process of the run; each async slot found is\nchecked to lie there (default: where the allocator puts\nit, reported per caller)"},
	{.name = "allocators", .arg = "<list>", .group = GROUP_OBJECTS, .type = T_ALLOCATORS,
	 .help = "one cell per allocator (e.g. glibc,jemalloc),\ninterleaved launch by launch, each judged against glibc"},
	{.name = "judge", .arg = "<base> <cur>", .group = GROUP_OBJECTS, .type = T_JUDGE, .judge = 1,
	 .help = "judge two files of samples (one number per line,\nlower is better) with the same gates; nothing runs"},
	{.name = "plugin", .arg = "<path>", .group = GROUP_PLUGINS, .type = T_LIST, .off = AT(libs), COUNT(nlibs), .max = OPT_MAX_LIBS, .json = "plugin", .json_opt = 1, .child = 1,
	 .help = "measure this plugin library (dlopen RTLD_NOW|RTLD_LOCAL)\ninstead of the built-in one; repeat it for several, each\nwith its own -p callers; every launch runs in a child"},
	{.name = "field", .arg = "<name[arg]>", .group = GROUP_PLUGINS, .type = T_LIST, .off = AT(field_specs), COUNT(nfield_specs), .max = OPT_MAX_FIELD_SPECS, .json = "field", .json_opt = 1, .child = 1,
	 .help = "a field to extract, as the plugin declares it; repeat\nit for several per call (default: cgocost's --work fields)"},
	{.name = "per-event", .arg = "<K>", .group = GROUP_PLUGINS, .type = T_U32, .off = AT(per_event), SETS(per_event_set), .max = OPT_MAX_FIELDS, .json = "per_event", .json_opt = 1, .child = 1,
	 .help = "the host's view: each event extracts K fields (1 to 256),\nas --host-calls says; -n counts events, and ns per event\nand per field are reported. The fields: the mock's lanes\nof --work, the K --field given, or the first K a foreign\nplugin declares that take no argument"},
	{.name = "host-calls", .arg = "<h>", .group = GROUP_PLUGINS, .type = T_HOSTCALLS, .off = AT(host_calls), SETS(host_calls_set), .json = "host_calls", .json_opt = 1, .child = 1,
	 .help = "with --per-event: per-field (the default; K calls of one\nfield each, as libsinsp's filter check makes them),\nbatched (one call of K fields), or both: per-field and\nbatched, sync and async (and the C plugin), in paired\nblocks, with batched/per-field per mode (--time)"},
	{.name = "events", .arg = "<file>", .group = GROUP_PLUGINS, .type = T_TEXT, .off = AT(events), .json = "events", .json_opt = 1, .child = 1,
	 .help = "one payload a line, each a plugin event (type 322),\nfed round robin"},
	{.name = "payload-size", .arg = "<B>", .group = GROUP_PLUGINS, .type = T_U32, .off = AT(payload_size), SETS(payload_size_set), .max = OPT_MAX_PAYLOAD, .json = "payload_size", .json_opt = 1, .child = 1,
	 .help = "bytes of the synthetic payload without --events\n(default 64); with --work json, of the JSON document\n(at least 410), also without --plugin"},
	{.name = "plugin-id", .arg = "<id>", .group = GROUP_PLUGINS, .type = T_U32, .off = AT(plugin_id), SETS(plugin_id_set), .max = UINT32_MAX, .child = 1,
	 .help = "the plugin id in the events (default: plugin_get_id)"},
	{.name = "sync-config", .arg = "<json>", .group = GROUP_PLUGINS, .type = T_TEXT, .off = AT(sync_config), .max = 1024,
	 .help = "with --compare and one --plugin: the plugin's own\nconfiguration that runs it sync, passed verbatim to\nplugin_init (the sync cell; its mode verified)"},
	{.name = "async-config", .arg = "<json>", .group = GROUP_PLUGINS, .type = T_TEXT, .off = AT(async_config), .max = 1024,
	 .help = "with --compare and one --plugin: its configuration that\nruns it async (the async cell): the two cells in\npaired blocks, async/sync and the async decision for\nthis plugin"},
	{.name = "idle", .arg = "<path>", .group = GROUP_PLUGINS, .type = T_TEXT, .off = AT(idle), .json = "idle", .json_opt = 1, .child = 1,
	 .help = "also load this library, start it (init, one extraction)\nand leave it idle while timing"},
	{.name = "busy", .arg = "<path>", .group = GROUP_PLUGINS, .type = T_TEXT, .off = AT(busy), .json = "busy", .json_opt = 1, .child = 1,
	 .help = "also load this library and keep it extracting on a thread\nof its own while timing"},
	{.name = "alloc-bytes", .arg = "<B>", .group = GROUP_PLUGINS, .type = T_U64, .off = AT(alloc_bytes), .max = OPT_MAX_ALLOC_BYTES, .json = "alloc_bytes", .json_opt = 1, .child = 1,
	 .help = "the --busy mock allocates this many Go heap bytes per\nextraction, so that its GC runs"},
	{.name = "interference", .group = GROUP_PLUGINS, .type = T_FLAG, .off = AT(interference),
	 .help = "the --plugin alone, with the --busy library idle, and\nbusy; sync and async; interleaved launch by launch"},
	{.name = "repeat-load", .arg = "<K>", .group = GROUP_PLUGINS, .type = T_U32, .off = AT(repeat_load), .min = 1, .max = OPT_MAX_REPEAT_LOAD,
	 .help = "K fresh processes load every library, extract -n, exit;\ncrashes, panics and hangs counted by kind"},
};
// clang-format on

_Static_assert(sizeof(options_table) / sizeof(options_table[0]) == OPT_COUNT, "OPT_COUNT is the table's length");

void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->n = 10000;
	o->plugins = 1;
	o->work = WORK_NOOP;
	o->fields = 1;
	o->batches = 10;
	o->warmup = 10000;
	o->launches = 1;
	o->threshold = OPT_UNPAIRED_THRESHOLD;
	o->block_ms = OPT_DEFAULT_BLOCK_MS;
	o->lead_in_us = OPT_DEFAULT_LEAD_IN_US;
	o->blocks_per_visit = OPT_DEFAULT_BLOCKS_PER_VISIT;
	o->seed = 1;
	o->stall_timeout_s = 20;
	o->payload_size = OPT_DEFAULT_PAYLOAD;
	o->worker_cpu = -1;
	o->slot_offset = -1;
}

const char *host_calls_name(enum host_calls h)
{
	return h == HOST_CALLS_BOTH ? "both" : h == HOST_CALLS_BATCHED ? "batched" : "per-field";
}

int options_latency(const struct options *o)
{
	return o->rate > 0 || o->ngaps > 0;
}

int option_in_bounds(const char *name, const char *shown, uint64_t v, uint64_t min, uint64_t max, char *err,
		     size_t errlen)
{
	if (v < min) {
		snprintf(err, errlen, "%s: '%s' must be at least %llu", name, shown, (unsigned long long)min);
		return -1;
	}
	if (v > max) {
		snprintf(err, errlen, "%s: '%s' is too large (at most %llu)", name, shown, (unsigned long long)max);
		return -1;
	}
	return 0;
}

void option_name(const struct optdef *d, char *buf, size_t len)
{
	if (d->name)
		snprintf(buf, len, "--%s", d->name);
	else
		snprintf(buf, len, "-%c", d->shortname);
}

/* One of two words: 0 for the first, 1 for the second, -1 for neither. */
static int word_of(const char *arg, const char *first, const char *second)
{
	return strcmp(arg, first) == 0 ? 0 : strcmp(arg, second) == 0 ? 1 : -1;
}

int option_set_choice(const struct optdef *d, struct options *o, const char *name, const char *arg, char *err,
		      size_t errlen)
{
	int w;

	switch (d->type) {
	case T_WORK:
		if (work_parse(arg, (enum work *)option_field(o, d)) == 0)
			return 0;
		snprintf(err, errlen, "%s: '%s' is not one of bare, event, noop, u64, str, json", name, arg);
		return -1;
	case T_FORMAT:
		for (int i = 0; i < 4; i++)
			if (strcmp(arg, (const char *const[]){ "text", "json", "gobench", "markdown" }[i]) == 0) {
				*(enum format *)option_field(o, d) = (enum format)i;
				return 0;
			}
		snprintf(err, errlen, "%s: '%s' is not one of text, json, gobench, markdown", name, arg);
		return -1;
	case T_SCENARIO:
		if ((w = word_of(arg, "extract", "lifecycle")) >= 0) {
			*(int *)option_field(o, d) = w;
			return 0;
		}
		snprintf(err, errlen, "%s: '%s' is not one of extract, lifecycle", name, arg);
		return -1;
	case T_ALLOCATOR:
		if ((*(const char **)option_field(o, d) = allocator_name(arg)) != NULL)
			return 0;
		snprintf(err, errlen, "%s: '%s' is not one of %s", name, arg, allocator_names());
		return -1;
	case T_INTERLEAVE:
		if ((w = word_of(arg, "pairs", "launches")) >= 0) {
			*(enum interleave *)option_field(o, d) = w == 0 ? INTERLEAVE_PAIRS : INTERLEAVE_LAUNCHES;
			return 0;
		}
		snprintf(err, errlen, "%s: '%s' is not one of pairs, launches", name, arg);
		return -1;
	case T_INCONCLUSIVE:
		if ((w = word_of(arg, "fail", "pass")) >= 0) {
			*(int *)option_field(o, d) = w;
			return 0;
		}
		snprintf(err, errlen, "%s: '%s' is not one of fail, pass", name, arg);
		return -1;
	case T_HOSTCALLS:
		if ((w = word_of(arg, "per-field", "batched")) >= 0 || strcmp(arg, "both") == 0) {
			*(enum host_calls *)option_field(o, d) = w == 1	  ? HOST_CALLS_BATCHED
								 : w == 0 ? HOST_CALLS_PER_FIELD
									  : HOST_CALLS_BOTH;
			return 0;
		}
		snprintf(err, errlen, "%s: '%s' is not one of per-field, batched, both", name, arg);
		return -1;
	case T_COUNT:
		for (uint32_t i = 1; i <= COUNT_ALL; i++)
			if (strcmp(arg, (const char *const[]){ "", "instructions", "syscalls", "all" }[i]) == 0) {
				*(uint32_t *)option_field(o, d) = i;
				return 0;
			}
		snprintf(err, errlen, "%s: '%s' is not one of instructions, syscalls, all", name, arg);
		return -1;
	default: /* T_ARRIVAL */
		if ((w = word_of(arg, "even", "poisson")) >= 0) {
			*(enum arrival *)option_field(o, d) = w == 1 ? ARRIVAL_POISSON : ARRIVAL_EVEN;
			return 0;
		}
		snprintf(err, errlen, "%s: '%s' is not one of even, poisson", name, arg);
		return -1;
	}
}

double options_block_ms(const struct options *o, int async)
{
	return async && o->async_block_ms > 0 ? o->async_block_ms : o->block_ms;
}

double options_generation_s(const struct options *o)
{
	double g = o->time_s / 25.0;

	if (o->launches_set) /* --launches L: L generations share the budget */
		return o->time_s / o->launches;
	return g < OPT_GENERATION_MIN_S ? OPT_GENERATION_MIN_S : g > OPT_GENERATION_MAX_S ? OPT_GENERATION_MAX_S : g;
}

size_t options_max_generations(const struct options *o, int ncells, double *least_s)
{
	/* the longer of the two block lengths: a bound for every cell */
	double block_s = o->n_set ? 0 : fmax(o->block_ms, options_block_ms(o, 1)) / 1e3,
	       round_s = ncells * ((double)o->lead_in_us / 1e6 + block_s);
	double d = options_generation_s(o);

	if (round_s > d)
		d = round_s;
	*least_s = d;
	if (o->launches_set)
		return o->launches;
	return (size_t)ceil(o->time_s / d - 1e-9);
}
