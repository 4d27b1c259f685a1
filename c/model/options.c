/* model/options.c — the option table and everything made from it. getopt_long
 * with strict numbers: every bad input is a one-line message naming the
 * problem (exit status 2). */
#include "model/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum opt_type {
	T_HELP,	      /* -h: print usage */
	T_FLAG,	      /* int set to 1 */
	T_U64,	      /* uint64_t within [min, max] */
	T_U32,	      /* uint32_t within [min, max] */
	T_INSTANCES,  /* uint32_t, also bounded by the SDK's handle table */
	T_PERCENT,    /* whole percent, stored as a fraction (double) */
	T_WORK,	      /* enum work */
	T_FORMAT,     /* enum format */
	T_SCENARIO,   /* extract or lifecycle (int lifecycle) */
	T_ALLOCATOR,  /* canonical allocator name (const char *) */
	T_TEXT,	      /* const char *, at most max bytes (0: any) */
	T_CPUS,	      /* a CPU list into ncpus/cpus */
	T_ALLOCATORS, /* a list of allocator names */
	T_JUDGE,      /* two operands: BASE CUR */
	T_LIST,	      /* repeatable: const char * array at off, its count at set_off, at most max */
	T_RATE,	      /* double in (0, max], per second */
	T_SECONDS,    /* double in (0, max] */
	T_ARRIVAL,    /* enum arrival */
	T_GAPS,	      /* a list of idle gaps in us */
	T_SWEEP,      /* a list of rates, or "max" */
	T_REAL,	      /* double in (0, max] */
	T_INTERLEAVE, /* enum interleave */
};

enum { GROUP_RUN, GROUP_COMPARE, GROUP_OBJECTS, GROUP_PLUGINS };

struct optdef {
	const char *name; /* long name; NULL: short only */
	char shortname;
	const char *arg; /* argument as shown in the usage; NULL: none */
	int group;
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

#define AT(f)	 offsetof(struct options, f)
#define SETS(f)	 .has_set = 1, .set_off = AT(f)
#define COUNT(f) .set_off = AT(f)

/* one option a row, its help on the next line */
// clang-format off
static const struct optdef table[] = {
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
	 .help = "bare (nothing touched: the pure crossing or handoff), event\n(+ a new event number each call), noop (+ the result read\nback; the default), u64 or str (+ a value checked)"},
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
	{.name = "plugin-config", .arg = "<s>", .group = GROUP_RUN, .type = T_TEXT, .off = AT(plugin_config), .max = 1024, .child = 1,
	 .help = "pass this plugin_init configuration verbatim instead\nof the one -a/--extra-ns imply (testing: the mode in\neffect is still verified, never taken from it)"},
	{.name = "stall-timeout", .arg = "<s>", .group = GROUP_RUN, .type = T_U32, .off = AT(stall_timeout_s), .max = 86400, .child = 1,
	 .help = "give up (exit 3) when a caller makes no progress\nfor this long plus 20 batches at the warm-up's pace\n(default 20, 0: never)"},
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
	 .help = "repeat the measurement in L fresh processes; statistics\nare computed across launches (default 1; 10 for\n--interleave launches and baselines). In a paired run: L\ngenerations of fresh processes, each --time/L long (default:\nas many as fit in --time, each --time/25, 0.2 to 1 s)"},
	{.name = "format", .arg = "<f>", .group = GROUP_COMPARE, .type = T_FORMAT, .off = AT(format),
	 .help = "text (default), json, or gobench (Go benchmark lines)"},
	{.name = "compare", .group = GROUP_COMPARE, .type = T_FLAG, .off = AT(compare),
	 .help = "archive vs shared x sync vs async and the C plugin, in\npaired blocks (--interleave), one table with the ratios"},
	{.name = "anatomy", .group = GROUP_COMPARE, .type = T_FLAG, .off = AT(anatomy),
	 .help = "what one extraction is made of: the work steps bare,\nevent, noop, u64, str, sync and async, with the minimal\ndriver (bench-minimal) beside bare; interleaved launch\nby launch, one table with the steps' increments"},
	{.name = "against", .arg = "<exe>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(against),
	 .help = "run another build of bench beside this one, in paired\nblocks, and judge this build against it, cell by cell\nin the same order (the CI gate: the base build on the\nsame machine); --extra-ns and --async-extra-ns reach\nthis build only"},
	{.name = "save-baseline", .arg = "<file>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(save_baseline),
	 .help = "store this run (JSON, written atomically); a run that\nstores or reads a baseline runs launch by launch: a\nbaseline is from another time and cannot be paired"},
	{.name = "baseline", .arg = "<file>", .group = GROUP_COMPARE, .type = T_TEXT, .off = AT(baseline),
	 .help = "judge this run's absolute cells (under a matching machine\nkey) and ratios against a stored one, unpaired"},
	{.name = "interleave", .arg = "<i>", .group = GROUP_COMPARE, .type = T_INTERLEAVE, .off = AT(interleave),
	 .help = "pairs (the default of --compare and --against): every cell\nruns short blocks in one long-lived process each, one\nblock at a time, in rounds of random order; each ratio is\ntaken within a round. launches: fresh processes, one\nlaunch of each cell a round (--launches; always for\nbaselines, --allocators and -p > 1)"},
	{.name = "precision", .arg = "<pct>", .group = GROUP_COMPARE, .type = T_REAL, .off = AT(precision_pct), .max = 100,
	 .help = "paired: stop before --time once every ratio's 95% interval\nis this narrow (half-width, percent; default: off)"},
	{.name = "block-ms", .arg = "<ms>", .group = GROUP_COMPARE, .type = T_REAL, .off = AT(block_ms), SETS(block_set), .max = OPT_MAX_BLOCK_MS,
	 .help = "paired: the timed length of a block (default 2); -n N\ngiven: N calls a block instead"},
	{.name = "lead-in-us", .arg = "<us>", .group = GROUP_COMPARE, .type = T_U64, .off = AT(lead_in_us), SETS(lead_in_set), .max = OPT_MAX_LEAD_IN_US,
	 .help = "paired: untimed calls this long before every block, so\nthat it starts in steady state (default 1200; excluded\nand reported)"},
	{.name = "threshold", .arg = "<pct>", .group = GROUP_COMPARE, .type = T_PERCENT, .off = AT(threshold), SETS(threshold_set), .max = 1000, .judge = 1,
	 .help = "noise band of the verdict: default 2 for a paired run,\n5 for every other (baselines, --judge, launches)"},
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
	{.name = "scenario", .arg = "<s>", .group = GROUP_OBJECTS, .type = T_SCENARIO, .off = AT(lifecycle), .json = "scenario", .child = 1,
	 .help = "extract (default) or lifecycle: per iteration a new\nplugin instance (alloc: init, one extraction, destroy)\nvs one from a pool (reuse); both are measured"},
	{.name = "pool", .arg = "<N>", .group = GROUP_OBJECTS, .type = T_INSTANCES, .off = AT(pool), .json = "pool", .child = 1,
	 .help = "instances in the reuse pool (default -p)"},
	{.name = "malloc", .arg = "<a>", .group = GROUP_OBJECTS, .type = T_ALLOCATOR, .off = AT(malloc_name), .json = "malloc", .child = 1,
	 .help = "glibc, jemalloc, tcmalloc or mimalloc: re-execute with\nthat allocator preloaded (verified, named in the header)"},
	{.name = "count-allocs", .group = GROUP_OBJECTS, .type = T_FLAG, .off = AT(count_allocs), .json = "count_allocs", .child = 1,
	 .help = "count C-side mallocs and frees per iteration"},
	{.name = "allocators", .arg = "<list>", .group = GROUP_OBJECTS, .type = T_ALLOCATORS,
	 .help = "one cell per allocator (e.g. glibc,jemalloc),\ninterleaved launch by launch, each judged against glibc"},
	{.name = "judge", .arg = "<base> <cur>", .group = GROUP_OBJECTS, .type = T_JUDGE, .judge = 1,
	 .help = "judge two files of samples (one number per line,\nlower is better) with the same gates; nothing runs"},
	{.name = "plugin", .arg = "<path>", .group = GROUP_PLUGINS, .type = T_LIST, .off = AT(libs), COUNT(nlibs), .max = OPT_MAX_LIBS, .json = "plugin", .json_opt = 1, .child = 1,
	 .help = "measure this plugin library (dlopen RTLD_NOW|RTLD_LOCAL)\ninstead of the built-in one; repeat it for several, each\nwith its own -p callers; every launch runs in a child"},
	{.name = "field", .arg = "<name[arg]>", .group = GROUP_PLUGINS, .type = T_LIST, .off = AT(field_specs), COUNT(nfield_specs), .max = OPT_MAX_FIELD_SPECS, .json = "field", .json_opt = 1, .child = 1,
	 .help = "a field to extract, as the plugin declares it; repeat\nit for several per call (default: cgocost's --work fields)"},
	{.name = "events", .arg = "<file>", .group = GROUP_PLUGINS, .type = T_TEXT, .off = AT(events), .json = "events", .json_opt = 1, .child = 1,
	 .help = "one payload a line, each a plugin event (type 322),\nfed round robin"},
	{.name = "payload-size", .arg = "<B>", .group = GROUP_PLUGINS, .type = T_U32, .off = AT(payload_size), SETS(payload_size_set), .max = OPT_MAX_PAYLOAD, .json = "payload_size", .json_opt = 1, .child = 1,
	 .help = "bytes of the synthetic payload without --events\n(default 64)"},
	{.name = "plugin-id", .arg = "<id>", .group = GROUP_PLUGINS, .type = T_U32, .off = AT(plugin_id), SETS(plugin_id_set), .max = UINT32_MAX, .child = 1,
	 .help = "the plugin id in the events (default: plugin_get_id)"},
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

#define NOPTS (sizeof(table) / sizeof(table[0]))

static const char *const group_titles[] = { NULL, "Samples, comparisons and verdicts:", "Objects and allocators:",
					    "Plugin libraries (plugin events only; syscall events are out of scope):" };
static const char *const format_names[] = { "text", "json", "gobench" };

typedef const char *cstr; /* a text option's field */

#define FIELD(o, d, type)  ((type *)(void *)((char *)(o) + (d)->off))
#define CFIELD(o, d, type) ((const type *)(const void *)((const char *)(o) + (d)->off))

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
	o->seed = 1;
	o->stall_timeout_s = 20;
	o->payload_size = OPT_DEFAULT_PAYLOAD;
}

/* "-a, --async", "-n <number>", "    --work <w>". */
static void option_label(const struct optdef *d, char *buf, size_t len)
{
	const char *arg = d->arg ? d->arg : "";
	const char *sp = d->arg ? " " : "";

	if (d->shortname && d->name)
		snprintf(buf, len, "-%c, --%s%s%s", d->shortname, d->name, sp, arg);
	else if (d->shortname)
		snprintf(buf, len, "-%c%s%s", d->shortname, sp, arg);
	else
		snprintf(buf, len, "    --%s%s%s", d->name, sp, arg);
}

void options_usage(const char *prog, FILE *out)
{
	fprintf(out,
		"usage: %s [options]\n"
		"Measures what a C host pays to call plugin_extract_fields of a Go plugin\n"
		"built with the Falco plugin SDK for Go, sync or async, or of any plugin\n"
		"library given with --plugin (field extraction from plugin events; syscall\n"
		"events are out of scope).\n",
		prog);
	for (int g = GROUP_RUN; g <= GROUP_PLUGINS; g++) {
		fprintf(out, "\n%s%s", group_titles[g] ? group_titles[g] : "", group_titles[g] ? "\n" : "");
		for (size_t i = 0; i < NOPTS; i++) {
			const struct optdef *d = &table[i];
			char label[64];
			const char *h = d->help, *nl;
			if (d->group != g || h == NULL)
				continue;
			option_label(d, label, sizeof(label));
			if (strlen(label) <= 18)
				fprintf(out, "  %-18s  ", label);
			else
				fprintf(out, "  %s  ", label);
			for (; (nl = strchr(h, '\n')) != NULL; h = nl + 1)
				fprintf(out, "%.*s\n%22s", (int)(nl - h), h, "");
			fprintf(out, "%s\n", h);
		}
	}
	fprintf(out, "\nOutput: one line per plugin on stdout,\n"
		     "  plugin 1: 251.21 ns/extraction (elapsed time 25121098ns, extractions 100000)\n"
		     "then '#' lines: the aggregate, the machine, the mode in effect (verified),\n"
		     "cold costs, batches, stalls and floors. Warnings go to stderr.\n"
		     "Exit status: 0 success (no regression), 1 a detected performance regression,\n"
		     "2 bad input, 3 a failed run.\n");
}

/* Strict unsigned decimal: digits only, no sign, no overflow, within [min, max]. */
static int parse_u64(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err,
		     size_t errlen)
{
	unsigned long long v;

	if (s == NULL || *s == '\0') {
		snprintf(err, errlen, "%s: missing number", name);
		return -1;
	}
	for (const char *c = s; *c; c++)
		if (*c < '0' || *c > '9') {
			if (*c == '-' && c == s)
				snprintf(err, errlen, "%s: '%s' is negative", name, s);
			else
				snprintf(err, errlen, "%s: '%s' is not a whole number", name, s);
			return -1;
		}
	errno = 0;
	v = strtoull(s, NULL, 10);
	if (errno == ERANGE) {
		snprintf(err, errlen, "%s: '%s' is too large", name, s);
		return -1;
	}
	if (v < min) {
		snprintf(err, errlen, "%s: '%s' must be at least %llu", name, s, (unsigned long long)min);
		return -1;
	}
	if (v > max) {
		snprintf(err, errlen, "%s: '%s' is too large (at most %llu)", name, s, (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

int parse_cpu_list(const char *s, int *cpus, int max, char *err, size_t errlen)
{
	int count = 0;
	const char *p = s;

	if (s == NULL || *s == '\0') {
		snprintf(err, errlen, "--cpus: empty CPU list");
		return -1;
	}
	while (*p) {
		char *end;
		long a, b;

		if (*p < '0' || *p > '9')
			goto bad;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				goto bad;
			b = strtol(p, &end, 10);
			p = end;
		}
		if (a > b || b >= OPT_MAX_CPUS)
			goto bad;
		for (long c = a; c <= b; c++) {
			for (int i = 0; i < count; i++)
				if (cpus[i] == c) {
					snprintf(err, errlen, "--cpus: CPU %ld listed twice in '%s'", c, s);
					return -1;
				}
			if (count >= max)
				goto bad;
			cpus[count++] = (int)c;
		}
		if (*p == ',') {
			p++;
			if (*p == '\0')
				goto bad;
		} else if (*p != '\0') {
			goto bad;
		}
	}
	return count;
bad:
	snprintf(err, errlen, "--cpus: '%s' is not a CPU list such as 0,1 or 0-3", s);
	return -1;
}

static int parse_allocators(struct options *o, const char *arg, char *err, size_t errlen)
{
	const char *p = arg;

	o->nallocators = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		char name[32];
		const char *canon;

		snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) - 1 ? len : sizeof(name) - 1), p);
		p += len + (p[len] == ',');
		if (len == 0 || (p[-1] == ',' && *p == '\0')) {
			snprintf(err, errlen, "--allocators: '%s' has an empty name: list names such as glibc,jemalloc",
				 arg);
			return -1;
		}
		if ((canon = allocator_name(name)) == NULL) {
			snprintf(err, errlen, "--allocators: '%s' is not one of %s", name, allocator_names());
			return -1;
		}
		for (int k = 0; k < o->nallocators; k++)
			if (o->allocators[k] == canon) {
				snprintf(err, errlen, "--allocators: '%s' listed twice", name);
				return -1;
			}
		if (o->nallocators == OPT_MAX_ALLOCATORS) {
			snprintf(err, errlen, "--allocators: at most %d", OPT_MAX_ALLOCATORS);
			return -1;
		}
		o->allocators[o->nallocators++] = canon;
	}
	if (o->nallocators == 0) {
		snprintf(err, errlen, "--allocators: empty list");
		return -1;
	}
	return 0;
}

/* A strict positive decimal number (digits, one optional point) within
 * (0, max]: no sign, exponent, "inf" or "nan". */
static int parse_positive(const char *name, const char *s, double max, const char *unit, double *out, char *err,
			  size_t errlen)
{
	int digits = 0, points = 0;
	double v;

	if (s == NULL || *s == '\0') {
		snprintf(err, errlen, "%s: missing number", name);
		return -1;
	}
	for (const char *c = s; *c; c++) {
		if (*c >= '0' && *c <= '9') {
			digits++;
		} else if (*c == '.' && points++ == 0) {
		} else {
			if (*c == '-' && c == s)
				snprintf(err, errlen, "%s: '%s' is negative", name, s);
			else
				snprintf(err, errlen, "%s: '%s' is not a number", name, s);
			return -1;
		}
	}
	if (digits == 0 || digits > 30) {
		snprintf(err, errlen, "%s: '%s' is not a number", name, s);
		return -1;
	}
	v = strtod(s, NULL);
	if (!(v > 0.0)) {
		snprintf(err, errlen, "%s: '%s' must be more than 0", name, s);
		return -1;
	}
	if (v < OPT_MIN_POSITIVE) {
		/* absurd, and a child launch could not be given it without an
		 * exponent, which the parser refuses (found by fuzzing) */
		snprintf(err, errlen, "%s: '%s' is too small (at least %g%s)", name, s, OPT_MIN_POSITIVE, unit);
		return -1;
	}
	if (v > max) {
		snprintf(err, errlen, "%s: '%s' is too large (at most %.0f%s)", name, s, max, unit);
		return -1;
	}
	*out = v;
	return 0;
}

/* "10,100,1000" into gaps (us), or rates with "max" as 0. */
static int parse_list(const char *name, const char *arg, int rates, struct options *o, char *err, size_t errlen)
{
	const char *p = arg;
	int n = 0;

	while (*p) {
		size_t len = strcspn(p, ",");
		char item[40];
		uint64_t g;
		double r;

		snprintf(item, sizeof(item), "%.*s", (int)(len < sizeof(item) - 1 ? len : sizeof(item) - 1), p);
		p += len + (p[len] == ',');
		if (n == OPT_MAX_LIST) {
			snprintf(err, errlen, "%s: at most %d entries", name, OPT_MAX_LIST);
			return -1;
		}
		if (rates && strcmp(item, "max") == 0) {
			o->sweep[n++] = 0;
		} else if (rates) {
			if (parse_positive(name, item, OPT_MAX_RATE, " per second", &r, err, errlen))
				return -1;
			o->sweep[n++] = r;
		} else {
			if (parse_u64(name, item, 0, OPT_MAX_GAP_US, &g, err, errlen))
				return -1;
			o->gaps_us[n++] = g;
		}
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: empty list", name);
		return -1;
	}
	if (rates)
		o->nsweep = n;
	else
		o->ngaps = n;
	return 0;
}

/* Applies one option's argument. 0, or -1 with a message. */
static int apply(const struct optdef *d, struct options *o, const char *arg, uint32_t max_plugins, char *err,
		 size_t errlen)
{
	char name[40];
	uint64_t v;

	if (d->name)
		snprintf(name, sizeof(name), "--%s", d->name);
	else
		snprintf(name, sizeof(name), "-%c", d->shortname);
	if (d->has_set)
		*(int *)(void *)((char *)o + d->set_off) = 1;
	if (arg == NULL && d->arg) {
		snprintf(err, errlen, "%s: missing value", name);
		return -1;
	}
	switch (d->type) {
	case T_HELP:
	case T_JUDGE:
		return 0;
	case T_FLAG:
		*FIELD(o, d, int) = 1;
		return 0;
	case T_U64:
		return parse_u64(name, arg, d->min, d->max, FIELD(o, d, uint64_t), err, errlen);
	case T_U32:
		if (parse_u64(name, arg, d->min, d->max, &v, err, errlen))
			return -1;
		*FIELD(o, d, uint32_t) = (uint32_t)v;
		return 0;
	case T_INSTANCES:
		if (parse_u64(name, arg, 1, OPT_MAX_PLUGINS, &v, err, errlen))
			return -1;
		if (v > max_plugins) {
			snprintf(err, errlen,
				 "%s: %llu %s exceed the plugin SDK's handle table (at most %u live instances)", name,
				 (unsigned long long)v, d->shortname == 'p' ? "plugins" : "instances", max_plugins);
			return -1;
		}
		*FIELD(o, d, uint32_t) = (uint32_t)v;
		return 0;
	case T_PERCENT:
		if (parse_u64(name, arg, d->min, d->max, &v, err, errlen))
			return -1;
		*FIELD(o, d, double) = (double)v / 100.0;
		return 0;
	case T_WORK:
		if (work_parse(arg, FIELD(o, d, enum work)) == 0)
			return 0;
		snprintf(err, errlen, "%s: '%s' is not one of bare, event, noop, u64, str", name, arg);
		return -1;
	case T_FORMAT:
		for (int i = 0; i < 3; i++)
			if (strcmp(arg, format_names[i]) == 0) {
				*FIELD(o, d, enum format) = (enum format)i;
				return 0;
			}
		snprintf(err, errlen, "%s: '%s' is not one of text, json, gobench", name, arg);
		return -1;
	case T_SCENARIO:
		if (strcmp(arg, "extract") == 0 || strcmp(arg, "lifecycle") == 0) {
			*FIELD(o, d, int) = strcmp(arg, "lifecycle") == 0;
			return 0;
		}
		snprintf(err, errlen, "%s: '%s' is not one of extract, lifecycle", name, arg);
		return -1;
	case T_ALLOCATOR:
		if ((*FIELD(o, d, const char *) = allocator_name(arg)) != NULL)
			return 0;
		snprintf(err, errlen, "%s: '%s' is not one of %s", name, arg, allocator_names());
		return -1;
	case T_TEXT:
		if (d->max && strlen(arg) > d->max) {
			snprintf(err, errlen, "%s: longer than %llu bytes", name, (unsigned long long)d->max);
			return -1;
		}
		*FIELD(o, d, const char *) = arg;
		return 0;
	case T_CPUS:
		o->ncpus = parse_cpu_list(arg, o->cpus, OPT_MAX_CPUS, err, errlen);
		return o->ncpus < 0 ? -1 : 0;
	case T_ALLOCATORS:
		return parse_allocators(o, arg, err, errlen);
	case T_LIST: {
		int *count = (int *)(void *)((char *)o + d->set_off);
		if (*count >= (int)d->max) {
			snprintf(err, errlen, "%s: at most %llu", name, (unsigned long long)d->max);
			return -1;
		}
		if (arg[0] == '\0') {
			snprintf(err, errlen, "%s: empty", name);
			return -1;
		}
		FIELD(o, d, const char *)[(*count)++] = arg;
		return 0;
	}
	case T_RATE:
		return parse_positive(name, arg, OPT_MAX_RATE, " per second", FIELD(o, d, double), err, errlen);
	case T_SECONDS:
		return parse_positive(name, arg, OPT_MAX_TIME_S, " s", FIELD(o, d, double), err, errlen);
	case T_REAL:
		return parse_positive(name, arg, (double)d->max, "", FIELD(o, d, double), err, errlen);
	case T_INTERLEAVE:
		if (strcmp(arg, "pairs") == 0 || strcmp(arg, "launches") == 0) {
			*FIELD(o, d, enum interleave) = arg[0] == 'p' ? INTERLEAVE_PAIRS : INTERLEAVE_LAUNCHES;
			return 0;
		}
		snprintf(err, errlen, "%s: '%s' is not one of pairs, launches", name, arg);
		return -1;
	case T_ARRIVAL:
		if (strcmp(arg, "even") == 0 || strcmp(arg, "poisson") == 0) {
			*FIELD(o, d, enum arrival) = strcmp(arg, "poisson") == 0 ? ARRIVAL_POISSON : ARRIVAL_EVEN;
			return 0;
		}
		snprintf(err, errlen, "%s: '%s' is not one of even, poisson", name, arg);
		return -1;
	case T_GAPS:
		return parse_list(name, arg, 0, o, err, errlen);
	case T_SWEEP:
		return parse_list(name, arg, 1, o, err, errlen);
	}
	return 0;
}

/* getopt_long's tables, made from the option table once. */
static struct option long_options[NOPTS + 1];
static char short_options[2 * NOPTS + 3];

static void getopt_tables(void)
{
	size_t k = 0, s = 0;

	if (short_options[0])
		return;
	short_options[s++] = ':';
	for (size_t i = 0; i < NOPTS; i++) {
		const struct optdef *d = &table[i];
		int has_arg = d->arg ? required_argument : no_argument;
		if (d->name)
			long_options[k++] = (struct option){ d->name, has_arg, NULL, 256 + (int)i };
		if (d->shortname) {
			short_options[s++] = d->shortname;
			if (d->arg)
				short_options[s++] = ':';
		}
	}
	long_options[k] = (struct option){ NULL, 0, NULL, 0 };
}

static const struct optdef *by_short(int c)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (table[i].shortname == c)
			return &table[i];
	return NULL;
}

/* The message for what getopt_long did not take: an unknown option, or a
 * long option that takes no argument given one (--help=foo). */
static void unknown(char **argv, int argc, char *err, size_t errlen)
{
	const char *arg = optind >= 1 && optind <= argc ? argv[optind - 1] : "";
	const char *eq = strchr(arg, '=');

	if (strncmp(arg, "--", 2) == 0 && eq) {
		for (size_t i = 0; i < NOPTS; i++)
			if (table[i].name && !table[i].arg && strlen(table[i].name) == (size_t)(eq - arg - 2) &&
			    strncmp(table[i].name, arg + 2, (size_t)(eq - arg - 2)) == 0) {
				snprintf(err, errlen, "option --%s takes no argument ('%.40s')", table[i].name, arg);
				return;
			}
	}
	if (strncmp(arg, "--", 2) == 0)
		snprintf(err, errlen, "unknown option %.60s", arg);
	else if (optopt > 0 && optopt < 256)
		snprintf(err, errlen, "unknown option -%c", optopt);
	else
		snprintf(err, errlen, "unknown option %.60s", arg);
}

enum parse_result options_parse(struct options *o, int argc, char **argv, uint32_t max_plugins, char *err,
				size_t errlen)
{
	int c;
	char given[NOPTS] = { 0 };

	options_defaults(o);
	getopt_tables();
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then rescans from scratch */
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		const struct optdef *d = c >= 256 && c < 256 + (int)NOPTS ? &table[c - 256] : by_short(c);
		if (c == ':') {
			snprintf(err, errlen, "option %s needs an argument", argv[optind - 1]);
			return PARSE_BAD;
		}
		if (d == NULL) {
			unknown(argv, argc, err, errlen);
			return PARSE_BAD;
		}
		given[d - table] = 1;
		if (d->type == T_HELP)
			return PARSE_HELP;
		if (d->type == T_JUDGE) {
			/* two operands: the base file here, the current one next */
			if (optind >= argc || argv[optind][0] == '-') {
				snprintf(err, errlen, "--judge needs two files: BASE CURRENT");
				return PARSE_BAD;
			}
			o->judge[0] = optarg;
			o->judge[1] = argv[optind++];
			continue;
		}
		if (apply(d, o, optarg, max_plugins, err, errlen) != 0)
			return PARSE_BAD;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return PARSE_BAD;
	}
	if (o->judge[0])
		for (size_t i = 0; i < NOPTS; i++)
			if (given[i] && !table[i].judge) {
				char label[64];
				option_label(&table[i], label, sizeof(label));
				snprintf(err, errlen,
					 "--judge measures nothing: it takes --threshold and --seed only, not %s",
					 label + strspn(label, " "));
				return PARSE_BAD;
			}
	return options_check(o, err, errlen) == 0 ? PARSE_OK : PARSE_BAD;
}

/* The plugin-library options: what needs --plugin, and what makes no sense
 * with it. */
static int plugin_options_check(const struct options *o, char *err, size_t errlen)
{
	const char *needs = o->nfield_specs	  ? "--field"
			    : o->events		  ? "--events"
			    : o->plugin_id_set	  ? "--plugin-id"
			    : o->payload_size_set ? "--payload-size"
			    : o->idle		  ? "--idle"
			    : o->busy		  ? "--busy"
			    : o->repeat_load	  ? "--repeat-load"
			    : o->interference	  ? "--interference"
						  : NULL;

	if (o->nlibs == 0 && needs) {
		snprintf(err, errlen, "%s applies to a plugin library: name one with --plugin PATH", needs);
		return -1;
	}
	if (o->nlibs && o->compare) {
		snprintf(err, errlen,
			 "--compare (archive/shared x sync/async of the built-in mock) has no meaning with --plugin");
		return -1;
	}
	if (o->alloc_bytes && !o->busy) {
		snprintf(err, errlen, "--alloc-bytes applies to the --busy library");
		return -1;
	}
	if (o->idle && o->busy && !o->interference) {
		snprintf(err, errlen, "--idle and --busy: one other library at a time (--interference runs both)");
		return -1;
	}
	if (o->interference && (o->nlibs != 1 || !o->busy || o->idle)) {
		snprintf(err, errlen, "--interference needs one --plugin A and --busy B (and no --idle)");
		return -1;
	}
	if (o->interference && (o->against || o->baseline || o->save_baseline || o->nallocators || o->repeat_load)) {
		snprintf(
			err, errlen,
			"--interference runs its own cells: not with --against, baselines, --allocators or --repeat-load");
		return -1;
	}
	if (o->repeat_load && (o->against || o->baseline || o->save_baseline || o->nallocators || o->launches_set)) {
		snprintf(err, errlen,
			 "--repeat-load counts K loads: not with --launches, --against, baselines or --allocators");
		return -1;
	}
	if (o->repeat_load && o->format != FORMAT_TEXT) {
		snprintf(err, errlen, "--repeat-load reports text only");
		return -1;
	}
	if (o->lifecycle && o->nlibs > 1) {
		snprintf(err, errlen, "--scenario lifecycle measures one plugin library at a time");
		return -1;
	}
	return 0;
}

int options_latency(const struct options *o)
{
	return o->rate > 0 || o->ngaps > 0;
}

/* --rate, --gap-us, --time and --sweep-rate, against each other and the
 * rest; -n from --time. 0, or -1 with a message. */
static int check_latency(struct options *o, char *err, size_t errlen)
{
	int comparing = o->compare || o->anatomy || o->against || o->baseline || o->save_baseline || o->nallocators;
	double n;

	if (o->rate > 0 && o->ngaps) {
		snprintf(err, errlen, "--rate and --gap-us: an open schedule or a fixed gap, not both");
		return -1;
	}
	if (o->nsweep && (o->rate > 0 || o->ngaps)) {
		snprintf(err, errlen, "--sweep-rate sets the rate of each launch itself: not with --rate or --gap-us");
		return -1;
	}
	if (o->nsweep && !options_latency(o))
		comparing = o->compare || o->anatomy || o->against || o->baseline ||
			    o->nallocators; /* a sweep may be saved */
	if ((options_latency(o) || o->nsweep) && (comparing || o->lifecycle || (o->launches_set && !o->nsweep))) {
		snprintf(
			err, errlen,
			"--rate, --gap-us and --sweep-rate measure latency in one run of one cell: not with --compare, --anatomy, --against, --baseline, --save-baseline, --allocators, --launches or --scenario lifecycle");
		return -1;
	}
	if (o->arrival == ARRIVAL_POISSON && o->rate <= 0 && !o->nsweep) {
		snprintf(err, errlen, "--arrival applies to --rate or --sweep-rate only");
		return -1;
	}
	if (o->time_s > 0 && o->rate <= 0 && !o->nsweep && !o->paired) {
		snprintf(err, errlen,
			 "--time bounds a --rate or --sweep-rate schedule, or a paired run (--compare, --against)");
		return -1;
	}
	if (o->rate > 0 && o->time_s > 0) {
		n = floor(o->rate * o->time_s + 0.5);
		if (o->n_set && (double)o->n != n) {
			/* a child launch gets both, agreeing */
			snprintf(err, errlen, "-n and --time both set the number of requests: give one");
			return -1;
		}
		if (n < 1) {
			snprintf(err, errlen, "--rate %g for --time %g s schedules no request", o->rate, o->time_s);
			return -1;
		}
		if (n > (double)OPT_MAX_SCHEDULED) {
			snprintf(err, errlen, "--rate %g for --time %g s schedules %.0f requests (at most %llu)",
				 o->rate, o->time_s, n, (unsigned long long)OPT_MAX_SCHEDULED);
			return -1;
		}
		o->n = (uint64_t)n;
	}
	if (options_latency(o) && o->n > OPT_MAX_SCHEDULED) {
		snprintf(err, errlen, "-n %llu: an open-loop run stores every latency, at most %llu requests",
			 (unsigned long long)o->n, (unsigned long long)OPT_MAX_SCHEDULED);
		return -1;
	}
	if (options_latency(o) && !o->batches_set && o->batches > o->n)
		o->batches = (uint32_t)o->n;
	return 0;
}

const char *options_unpairable(const struct options *o)
{
	if (!o->compare && !o->against)
		return "paired blocks compare cells: they need --compare or --against";
	if (o->baseline || o->save_baseline)
		return "a baseline is from another time and cannot be paired: it is judged launch by launch";
	if (o->anatomy || o->nallocators || o->interference || o->lifecycle)
		return "--anatomy, --allocators, --interference and the lifecycle run launch by launch";
	if (options_latency(o) || o->nsweep)
		return "open-loop latency runs one cell at a time";
	if (o->plugins != 1 || o->nlibs > 1)
		return "a paired block has one caller: -p 1 and at most one --plugin";
	return "";
}

/* Whether the run pairs its blocks, and the options that only apply to one
 * kind of run. 0, or -1 with a message. */
static int check_paired(struct options *o, char *err, size_t errlen)
{
	const char *why = options_unpairable(o);

	if (o->interleave == INTERLEAVE_PAIRS && why[0]) {
		snprintf(err, errlen, "--interleave pairs: %s", why);
		return -1;
	}
	o->paired = o->interleave != INTERLEAVE_LAUNCHES && why[0] == '\0';
	if (o->paired && o->batches_set) {
		snprintf(err, errlen,
			 "-r splits -n into batches: a paired run's batches are its blocks (--block-ms, "
			 "or -n calls a block); --interleave launches runs launch by launch");
		return -1;
	}
	if (!o->paired && (o->precision_pct > 0 || o->block_set || o->lead_in_set)) {
		snprintf(err, errlen, "--precision, --block-ms and --lead-in-us apply to a paired run (%s)",
			 o->interleave == INTERLEAVE_LAUNCHES ? "--interleave launches was given" : why);
		return -1;
	}
	if (o->serve_blocks && (o->compare || o->against || !o->emit_launch)) {
		snprintf(err, errlen, "--serve-blocks is internal: a paired run's child launch");
		return -1;
	}
	if (o->paired && o->floors) {
		snprintf(
			err, errlen,
			"--floors in a paired run would be measured in every process of every generation: measure them in a run of their own (bench --floors)");
		return -1;
	}
	if (o->paired && o->time_s <= 0)
		o->time_s = o->against ? OPT_DEFAULT_AGAINST_TIME_S : OPT_DEFAULT_PAIRED_TIME_S;
	if (!o->threshold_set)
		o->threshold = o->paired ? OPT_PAIRED_THRESHOLD : OPT_UNPAIRED_THRESHOLD;
	return 0;
}

int options_check(struct options *o, char *err, size_t errlen)
{
	int comparing = o->compare || o->anatomy || o->against || o->baseline || o->save_baseline || o->nallocators ||
			o->interference;

	if (check_paired(o, err, errlen) != 0 || check_latency(o, err, errlen) != 0)
		return -1;

	if (o->batches > o->n) {
		snprintf(err, errlen, "-n %llu is smaller than --runs %u: each batch needs a request",
			 (unsigned long long)o->n, o->batches);
		return -1;
	}
	if (o->pool && !o->lifecycle) {
		snprintf(err, errlen, "--pool applies to --scenario lifecycle only");
		return -1;
	}
	if (o->lifecycle && o->pool == 0)
		o->pool = o->plugins;
	if (o->anatomy && (o->compare || o->against || o->nallocators || o->lifecycle || o->fields != 1)) {
		snprintf(
			err, errlen,
			"--anatomy runs its own cells (one field of each work, sync and async): not with --compare, --against, --allocators, --scenario lifecycle or --fields");
		return -1;
	}
	if (o->nallocators && (o->malloc_name || o->compare || o->against)) {
		snprintf(err, errlen,
			 "--allocators runs one cell per allocator: not with --malloc, --compare or --against");
		return -1;
	}
	if (o->against && o->baseline) {
		snprintf(err, errlen, "--against and --baseline: judge against one base at a time");
		return -1;
	}
	if (!o->launches_set && comparing && !o->paired)
		o->launches = OPT_DEFAULT_COMPARE_LAUNCHES;
	if (o->emit_launch && (comparing || o->launches_set)) {
		snprintf(err, errlen, "--emit-launch is internal and takes no comparison options");
		return -1;
	}
	if (o->baseline && o->save_baseline && strcmp(o->baseline, o->save_baseline) == 0) {
		snprintf(err, errlen, "--baseline and --save-baseline name the same file '%s'", o->baseline);
		return -1;
	}
	if (plugin_options_check(o, err, errlen) != 0)
		return -1;
	if (o->ncpus && (uint32_t)o->ncpus < o->plugins * (o->nlibs > 1 ? (uint32_t)o->nlibs : 1)) {
		snprintf(err, errlen, "--cpus: %d CPUs listed for %u calling threads (one CPU each)", o->ncpus,
			 o->plugins * (o->nlibs > 1 ? (uint32_t)o->nlibs : 1));
		return -1;
	}
	return 0;
}

static json_t *field_to_json(const struct optdef *d, const struct options *o)
{
	switch (d->type) {
	case T_FLAG:
		return json_boolean(*CFIELD(o, d, int));
	case T_U64:
		return json_integer((json_int_t)*CFIELD(o, d, uint64_t));
	case T_U32:
	case T_INSTANCES:
		return json_integer((json_int_t)*CFIELD(o, d, uint32_t));
	case T_WORK:
		return json_string(work_name(*CFIELD(o, d, enum work)));
	case T_SCENARIO:
		return json_string(*CFIELD(o, d, int) ? "lifecycle" : "extract");
	case T_ALLOCATOR:
		return json_string(*CFIELD(o, d, cstr) ? *CFIELD(o, d, cstr) : "glibc");
	case T_CPUS: {
		json_t *a = json_array();
		for (int i = 0; i < o->ncpus; i++)
			json_array_append_new(a, json_integer(o->cpus[i]));
		return a;
	}
	case T_TEXT:
		return *CFIELD(o, d, char *) ? json_string(*CFIELD(o, d, char *)) : json_null();
	case T_LIST: {
		json_t *a = json_array();
		int n = *(const int *)(const void *)((const char *)o + d->set_off);
		for (int i = 0; i < n; i++)
			json_array_append_new(a, json_string(CFIELD(o, d, char *)[i]));
		return a;
	}
	default:
		return json_null();
	}
}

json_t *options_to_json(const struct options *o)
{
	json_t *rec = json_object();
	for (size_t i = 0; i < NOPTS; i++)
		if (table[i].json)
			json_object_set_new(rec, table[i].json, field_to_json(&table[i], o));
	return rec;
}

static int field_from_json(const struct optdef *d, struct options *o, const json_t *v, char *err, size_t errlen)
{
	char text[64];
	size_t k;
	json_t *e;

	switch (d->type) {
	case T_FLAG:
		if (!json_is_boolean(v))
			break;
		*FIELD(o, d, int) = json_is_true(v);
		return 0;
	case T_U64:
	case T_U32:
	case T_INSTANCES:
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			break;
		if (d->type == T_INSTANCES && json_integer_value(v) == 0) {
			*FIELD(o, d, uint32_t) = 0; /* --pool without the lifecycle */
			return 0;
		}
		snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(v));
		return apply(d, o, text, OPT_MAX_PLUGINS, err, errlen);
	case T_WORK:
	case T_SCENARIO:
	case T_ALLOCATOR:
		if (!json_is_string(v))
			break;
		return apply(d, o, json_string_value(v), OPT_MAX_PLUGINS, err, errlen);
	case T_CPUS:
		if (!json_is_array(v) || json_array_size(v) > OPT_MAX_CPUS)
			break;
		o->ncpus = 0;
		json_array_foreach (v, k, e) {
			if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) >= OPT_MAX_CPUS)
				goto bad;
			o->cpus[o->ncpus++] = (int)json_integer_value(e);
		}
		return 0;
	case T_TEXT:
		/* the text stays in the document (its owner): checked, not kept */
		if (!json_is_string(v) && !json_is_null(v))
			break;
		return 0;
	case T_LIST:
		if (!json_is_array(v) || json_array_size(v) > d->max)
			break;
		json_array_foreach (v, k, e)
			if (!json_is_string(e))
				goto bad;
		return 0;
	default:
		return 0;
	}
bad:
	snprintf(err, errlen, "options.%s: not a valid value", d->json);
	return -1;
}

int options_from_json(struct options *o, const json_t *rec, char *err, size_t errlen)
{
	size_t known = 0;

	options_defaults(o);
	if (!json_is_object(rec)) {
		snprintf(err, errlen, "options: not an object");
		return -1;
	}
	for (size_t i = 0; i < NOPTS; i++) {
		const json_t *v;
		if (table[i].json == NULL)
			continue;
		v = json_object_get(rec, table[i].json);
		if (v == NULL && table[i].json_opt)
			continue;
		if (v == NULL) {
			snprintf(err, errlen, "options.%s: missing", table[i].json);
			return -1;
		}
		if (field_from_json(&table[i], o, v, err, errlen) != 0)
			return -1;
		known++;
	}
	if (json_object_size(rec) != known) {
		const char *key;
		json_t *v;
		json_object_foreach ((json_t *)rec, key, v) {
			size_t i;
			for (i = 0; i < NOPTS && !(table[i].json && strcmp(table[i].json, key) == 0); i++)
				;
			if (i == NOPTS) {
				snprintf(err, errlen, "options.%s: unknown key", key);
				return -1;
			}
		}
	}
	return 0;
}

/* The argument of one option as a child gets it; 0: leave it out. */
static int child_value(const struct optdef *d, const struct options *o, char *buf, size_t len)
{
	/* a plugin option the user did not give stays out (it needs --plugin) */
	if (d->group == GROUP_PLUGINS && d->has_set && !*(const int *)(const void *)((const char *)o + d->set_off))
		return 0;
	switch (d->type) {
	case T_FLAG:
		return *CFIELD(o, d, int);
	case T_U64:
		snprintf(buf, len, "%llu", (unsigned long long)*CFIELD(o, d, uint64_t));
		return 1;
	case T_U32:
	case T_INSTANCES:
		if (d->type == T_INSTANCES && *CFIELD(o, d, uint32_t) == 0)
			return 0; /* --pool without the lifecycle */
		snprintf(buf, len, "%u", *CFIELD(o, d, uint32_t));
		return 1;
	case T_WORK:
		snprintf(buf, len, "%s", work_name(*CFIELD(o, d, enum work)));
		return 1;
	case T_SCENARIO:
		snprintf(buf, len, "lifecycle");
		return *CFIELD(o, d, int);
	case T_ALLOCATOR:
	case T_TEXT:
		if (*CFIELD(o, d, cstr) == NULL)
			return 0;
		snprintf(buf, len, "%s", *CFIELD(o, d, cstr));
		return 1;
	case T_RATE:
	case T_SECONDS:
		snprintf(buf, len, "%.17g", *CFIELD(o, d, double));
		/* --time and --arrival shape a --rate schedule: a sweep's
		 * children get their own (found by fuzzing) */
		return *CFIELD(o, d, double) > 0 && (d->type == T_RATE || o->rate > 0);
	case T_ARRIVAL:
		snprintf(buf, len, "poisson");
		return *CFIELD(o, d, enum arrival) == ARRIVAL_POISSON && o->rate > 0;
	case T_GAPS: {
		size_t k = 0;
		buf[0] = '\0';
		for (int i = 0; i < o->ngaps && k < len; i++)
			k += (size_t)snprintf(buf + k, len - k, "%s%llu", i ? "," : "",
					      (unsigned long long)o->gaps_us[i]);
		return o->ngaps > 0 && k < len;
	}
	case T_CPUS: {
		size_t k = 0;
		buf[0] = '\0';
		for (int i = 0; i < o->ncpus && k < len; i++)
			k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", o->cpus[i]);
		return o->ncpus > 0 && k < len;
	}
	default:
		return 0;
	}
}

int options_child_args(const struct options *o, char **argv, int max, char *store, size_t storelen)
{
	int argc = 0;
	size_t used = 0;

	for (size_t i = 0; i < NOPTS; i++) {
		const struct optdef *d = &table[i];
		char value[8192];
		int n;

		if (d->child && d->type == T_LIST) {
			int cnt = *(const int *)(const void *)((const char *)o + d->set_off);
			for (int k = 0; k < cnt; k++) {
				n = snprintf(store + used, storelen - used, "--%s", d->name);
				if (n < 0 || (size_t)n >= storelen - used || argc + 1 >= max)
					return -1;
				argv[argc++] = store + used;
				used += (size_t)n + 1;
				n = snprintf(store + used, storelen - used, "%s", CFIELD(o, d, char *)[k]);
				if (n < 0 || (size_t)n >= storelen - used)
					return -1;
				argv[argc++] = store + used;
				used += (size_t)n + 1;
			}
			continue;
		}
		if (!d->child || !child_value(d, o, value, sizeof(value)))
			continue;
		n = d->name ? snprintf(store + used, storelen - used, "--%s", d->name)
			    : snprintf(store + used, storelen - used, "-%c", d->shortname);
		if (n < 0 || (size_t)n >= storelen - used || argc >= max)
			return -1;
		argv[argc++] = store + used;
		used += (size_t)n + 1;
		if (!d->arg)
			continue;
		n = snprintf(store + used, storelen - used, "%s", value);
		if (n < 0 || (size_t)n >= storelen - used || argc >= max)
			return -1;
		argv[argc++] = store + used;
		used += (size_t)n + 1;
	}
	return argc;
}
