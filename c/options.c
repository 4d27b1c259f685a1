/* options.c — getopt_long parsing with strict numbers: every bad input is a
 * one-line message naming the problem and exit status 2. */
#include "options.h"

#include "allocs.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_WORK = 256,
	OPT_FIELDS,
	OPT_WARMUP,
	OPT_EXTRA_NS,
	OPT_FLOORS,
	OPT_CPUS,
	OPT_PLUGIN_CONFIG,
	OPT_ASYNC_EXTRA_NS,
	OPT_LAUNCHES,
	OPT_FORMAT,
	OPT_COMPARE,
	OPT_AGAINST,
	OPT_BASELINE,
	OPT_SAVE_BASELINE,
	OPT_THRESHOLD,
	OPT_SEED,
	OPT_EMIT_LAUNCH,
	OPT_SCENARIO,
	OPT_POOL,
	OPT_MALLOC,
	OPT_COUNT_ALLOCS,
	OPT_ALLOCATORS,
	OPT_JUDGE,
	OPT_STALL_TIMEOUT,
};

static const struct option long_options[] = {
	{"help", no_argument, NULL, 'h'},
	{"async", no_argument, NULL, 'a'},
	{"runs", required_argument, NULL, 'r'},
	{"work", required_argument, NULL, OPT_WORK},
	{"fields", required_argument, NULL, OPT_FIELDS},
	{"warmup", required_argument, NULL, OPT_WARMUP},
	{"extra-ns", required_argument, NULL, OPT_EXTRA_NS},
	{"floors", no_argument, NULL, OPT_FLOORS},
	{"cpus", required_argument, NULL, OPT_CPUS},
	{"plugin-config", required_argument, NULL, OPT_PLUGIN_CONFIG},
	{"async-extra-ns", required_argument, NULL, OPT_ASYNC_EXTRA_NS},
	{"launches", required_argument, NULL, OPT_LAUNCHES},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"compare", no_argument, NULL, OPT_COMPARE},
	{"against", required_argument, NULL, OPT_AGAINST},
	{"baseline", required_argument, NULL, OPT_BASELINE},
	{"save-baseline", required_argument, NULL, OPT_SAVE_BASELINE},
	{"threshold", required_argument, NULL, OPT_THRESHOLD},
	{"seed", required_argument, NULL, OPT_SEED},
	{"emit-launch", no_argument, NULL, OPT_EMIT_LAUNCH},
	{"scenario", required_argument, NULL, OPT_SCENARIO},
	{"pool", required_argument, NULL, OPT_POOL},
	{"malloc", required_argument, NULL, OPT_MALLOC},
	{"count-allocs", no_argument, NULL, OPT_COUNT_ALLOCS},
	{"allocators", required_argument, NULL, OPT_ALLOCATORS},
	{"judge", required_argument, NULL, OPT_JUDGE},
	{"stall-timeout", required_argument, NULL, OPT_STALL_TIMEOUT},
	{NULL, 0, NULL, 0},
};

void options_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->n = 10000;
	o->plugins = 1;
	o->work = WORK_NOOP;
	o->fields = 1;
	o->runs = 10;
	o->warmup = 10000;
	o->launches = 1;
	o->threshold = 0.05;
	o->seed = 1;
	o->stall_timeout_s = 20;
}

void options_usage(const char *prog, FILE *out)
{
	fprintf(out,
		"usage: %s [options]\n"
		"Measures what a C host pays to call plugin_extract_fields of a Go plugin\n"
		"built with the Falco plugin SDK for Go, sync or async.\n"
		"\n"
		"  -h, --help          this help\n"
		"  -a, --async         ask the SDK for async extraction (default: sync)\n"
		"  -n <number>         timed extraction requests per plugin (default 10000)\n"
		"  -p <number>         plugins running in parallel, one thread each (default 1)\n"
		"  -r, --runs <R>      timed batches the -n requests are split into (default 10)\n"
		"      --work <w>      noop (the pure crossing), u64 or str (checked values)\n"
		"      --fields <K>    fields per extraction call (default 1)\n"
		"      --warmup <N>    untimed extractions right before timing (default 10000)\n"
		"      --extra-ns <ns> busy-loop this long inside each Extract (regression demo)\n"
		"      --floors        also measure the floors: a C call, the raw C->Go call,\n"
		"                      a cache-line round trip between two CPUs\n"
		"      --cpus <list>   pin the calling threads, one CPU each (e.g. 0,1 or 0-1)\n"
		"      --plugin-config <s>  pass this plugin_init configuration verbatim instead\n"
		"                      of the one -a/--extra-ns imply (testing: the mode in\n"
		"                      effect is still verified, never taken from it)\n"
		"      --stall-timeout <s>  give up (exit 3) when a caller makes no progress\n"
		"                      for this long plus 20 batches at the warm-up's pace\n"
		"                      (default 20, 0: never)\n"
		"\n"
		"Samples, comparisons and verdicts:\n"
		"      --launches <L>  repeat the measurement in L fresh processes; statistics\n"
		"                      are computed across launches (default 1; 10 for\n"
		"                      --compare, --against and baselines)\n"
		"      --format <f>    text (default), json, or gobench (Go benchmark lines)\n"
		"      --compare       archive vs shared x sync vs async, interleaved launch by\n"
		"                      launch, one table with the ratios\n"
		"      --against <exe> run another build of bench interleaved with this one and\n"
		"                      judge this build against it\n"
		"      --save-baseline <file>  store this run (JSON, written atomically)\n"
		"      --baseline <file>       judge this run against a stored one\n"
		"      --threshold <pct>       noise band of the verdict (default 5)\n"
		"      --seed <n>      bootstrap seed of the change intervals (default 1)\n"
		"      --async-extra-ns <ns>   --extra-ns for async cells only\n"
		"\n"
		"Objects and allocators:\n"
		"      --scenario <s>  extract (default) or lifecycle: per iteration a new\n"
		"                      plugin instance (alloc: init, one extraction, destroy)\n"
		"                      vs one from a pool (reuse); both are measured\n"
		"      --pool <N>      instances in the reuse pool (default -p)\n"
		"      --malloc <a>    glibc, jemalloc, tcmalloc or mimalloc: re-execute with\n"
		"                      that allocator preloaded (verified, named in the header)\n"
		"      --count-allocs  count C-side mallocs and frees per iteration\n"
		"      --allocators <list>  one cell per allocator (e.g. glibc,jemalloc),\n"
		"                      interleaved launch by launch, each judged against glibc\n"
		"      --judge <base> <cur>  judge two files of samples (one number per line,\n"
		"                      lower is better) with the same gates; nothing runs\n"
		"\n"
		"Output: one line per plugin on stdout,\n"
		"  plugin 1: 251.21 ns/extraction (elapsed time 25121098ns, extractions 100000)\n"
		"then '#' lines: the aggregate, the machine, the mode in effect (verified),\n"
		"cold costs, batches, stalls and floors. Warnings go to stderr.\n"
		"Exit status: 0 success (no regression), 1 a detected performance regression,\n"
		"2 bad input, 3 a failed run.\n",
		prog);
}

/* Strict unsigned decimal: digits only, no sign, no overflow, within [min, max]. */
static int parse_u64(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		     char *err, size_t errlen)
{
	char *end;
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
	v = strtoull(s, &end, 10);
	if (errno == ERANGE) {
		snprintf(err, errlen, "%s: '%s' is too large", name, s);
		return -1;
	}
	if (v < min) {
		snprintf(err, errlen, "%s: '%s' must be at least %llu", name, s, (unsigned long long)min);
		return -1;
	}
	if (v > max) {
		snprintf(err, errlen, "%s: '%s' is too large (at most %llu)", name, s,
			 (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

/* A count of plugin instances alive at once: bounded by the SDK's handle
 * table (max), which the plugin reports. */
static int parse_instances(const char *name, const char *what, const char *s, uint32_t max, uint32_t *out,
			   char *err, size_t errlen)
{
	uint64_t v;

	if (parse_u64(name, s, 1, OPT_MAX_PLUGINS, &v, err, errlen))
		return -1;
	if (v > max) {
		snprintf(err, errlen, "%s: %llu %s exceed the plugin SDK's handle table (at most %u live instances)",
			 name, (unsigned long long)v, what, max);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

/* An allocator name allocs.c knows. */
static int parse_allocator(const char *name, const char *s, char *err, size_t errlen)
{
	const char *soname;

	if (allocator_soname(s, &soname) != 0) {
		snprintf(err, errlen, "%s: '%s' is not one of glibc, jemalloc, tcmalloc, mimalloc", name, s);
		return -1;
	}
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

enum parse_result options_parse(struct options *o, int argc, char **argv, uint32_t max_plugins,
				char *err, size_t errlen)
{
	uint64_t v;
	int c;
	const char *cpus = NULL;

	options_defaults(o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":han:p:r:", long_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			return PARSE_HELP;
		case 'a':
			o->async = 1;
			break;
		case 'n':
			if (parse_u64("-n", optarg, 1, OPT_MAX_N, &o->n, err, errlen))
				return PARSE_BAD;
			break;
		case 'p':
			if (parse_instances("-p", "plugins", optarg, max_plugins, &o->plugins, err, errlen))
				return PARSE_BAD;
			break;
		case 'r':
			if (parse_u64("--runs", optarg, 1, OPT_MAX_RUNS, &v, err, errlen))
				return PARSE_BAD;
			o->runs = (uint32_t)v;
			break;
		case OPT_WORK:
			if (work_parse(optarg, &o->work) != 0) {
				snprintf(err, errlen, "--work: '%s' is not one of noop, u64, str", optarg);
				return PARSE_BAD;
			}
			break;
		case OPT_FIELDS:
			if (parse_u64("--fields", optarg, 1, OPT_MAX_FIELDS, &v, err, errlen))
				return PARSE_BAD;
			o->fields = (uint32_t)v;
			break;
		case OPT_WARMUP:
			if (parse_u64("--warmup", optarg, 0, OPT_MAX_WARMUP, &o->warmup, err, errlen))
				return PARSE_BAD;
			o->warmup_set = 1;
			break;
		case OPT_EXTRA_NS:
			if (parse_u64("--extra-ns", optarg, 0, OPT_MAX_EXTRA_NS, &o->extra_ns, err, errlen))
				return PARSE_BAD;
			break;
		case OPT_FLOORS:
			o->floors = 1;
			break;
		case OPT_CPUS:
			cpus = optarg;
			break;
		case OPT_ASYNC_EXTRA_NS:
			if (parse_u64("--async-extra-ns", optarg, 0, OPT_MAX_EXTRA_NS, &o->async_extra_ns, err, errlen))
				return PARSE_BAD;
			break;
		case OPT_LAUNCHES:
			if (parse_u64("--launches", optarg, 1, OPT_MAX_LAUNCHES, &v, err, errlen))
				return PARSE_BAD;
			o->launches = (uint32_t)v;
			o->launches_set = 1;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->format = FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				o->format = FORMAT_JSON;
			else if (strcmp(optarg, "gobench") == 0)
				o->format = FORMAT_GOBENCH;
			else {
				snprintf(err, errlen, "--format: '%s' is not one of text, json, gobench", optarg);
				return PARSE_BAD;
			}
			break;
		case OPT_COMPARE:
			o->compare = 1;
			break;
		case OPT_AGAINST:
			o->against = optarg;
			break;
		case OPT_BASELINE:
			o->baseline = optarg;
			break;
		case OPT_SAVE_BASELINE:
			o->save_baseline = optarg;
			break;
		case OPT_THRESHOLD:
			if (parse_u64("--threshold", optarg, 0, 1000, &v, err, errlen))
				return PARSE_BAD;
			o->threshold = (double)v / 100.0;
			break;
		case OPT_SEED:
			if (parse_u64("--seed", optarg, 0, UINT64_MAX, &o->seed, err, errlen))
				return PARSE_BAD;
			break;
		case OPT_EMIT_LAUNCH:
			o->emit_launch = 1;
			break;
		case OPT_SCENARIO:
			if (strcmp(optarg, "extract") == 0)
				o->lifecycle = 0;
			else if (strcmp(optarg, "lifecycle") == 0)
				o->lifecycle = 1;
			else {
				snprintf(err, errlen, "--scenario: '%s' is not one of extract, lifecycle", optarg);
				return PARSE_BAD;
			}
			break;
		case OPT_POOL:
			if (parse_instances("--pool", "instances", optarg, max_plugins, &o->pool, err, errlen))
				return PARSE_BAD;
			break;
		case OPT_MALLOC:
			if (parse_allocator("--malloc", optarg, err, errlen))
				return PARSE_BAD;
			o->malloc_name = optarg;
			break;
		case OPT_COUNT_ALLOCS:
			o->count_allocs = 1;
			break;
		case OPT_STALL_TIMEOUT:
			if (parse_u64("--stall-timeout", optarg, 0, 86400, &v, err, errlen))
				return PARSE_BAD;
			o->stall_timeout_s = (uint32_t)v;
			break;
		case OPT_JUDGE:
			/* two operands: the base file here, the current one next */
			if (optind >= argc || argv[optind][0] == '-') {
				snprintf(err, errlen, "--judge needs two files: BASE CURRENT");
				return PARSE_BAD;
			}
			o->judge[0] = optarg;
			o->judge[1] = argv[optind++];
			break;
		case OPT_ALLOCATORS: {
			char *save = NULL, *tok;
			if (strlen(optarg) >= sizeof(o->allocators_buf)) {
				snprintf(err, errlen, "--allocators: list too long");
				return PARSE_BAD;
			}
			snprintf(o->allocators_buf, sizeof(o->allocators_buf), "%s", optarg);
			o->nallocators = 0;
			for (tok = strtok_r(o->allocators_buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (parse_allocator("--allocators", tok, err, errlen))
					return PARSE_BAD;
				for (int k = 0; k < o->nallocators; k++)
					if (strcmp(o->allocators[k], tok) == 0) {
						snprintf(err, errlen, "--allocators: '%s' listed twice", tok);
						return PARSE_BAD;
					}
				if (o->nallocators == 4) {
					snprintf(err, errlen, "--allocators: at most 4");
					return PARSE_BAD;
				}
				o->allocators[o->nallocators++] = tok;
			}
			if (o->nallocators == 0) {
				snprintf(err, errlen, "--allocators: empty list");
				return PARSE_BAD;
			}
			break;
		}
		case OPT_PLUGIN_CONFIG:
			if (strlen(optarg) > 1024) {
				snprintf(err, errlen, "--plugin-config: longer than 1024 bytes");
				return PARSE_BAD;
			}
			o->plugin_config = optarg;
			break;
		case ':':
			snprintf(err, errlen, "option %s needs an argument", argv[optind - 1]);
			return PARSE_BAD;
		default:
			if (optopt)
				snprintf(err, errlen, "unknown option -%c", optopt);
			else
				snprintf(err, errlen, "unknown option %s", argv[optind - 1]);
			return PARSE_BAD;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return PARSE_BAD;
	}
	if (o->runs > o->n) {
		snprintf(err, errlen, "-n %llu is smaller than --runs %u: each batch needs a request",
			 (unsigned long long)o->n, o->runs);
		return PARSE_BAD;
	}
	if (o->pool && !o->lifecycle) {
		snprintf(err, errlen, "--pool applies to --scenario lifecycle only");
		return PARSE_BAD;
	}
	if (o->lifecycle && o->pool == 0)
		o->pool = o->plugins;
	if (o->nallocators && (o->malloc_name || o->compare || o->against)) {
		snprintf(err, errlen, "--allocators runs one cell per allocator: not with --malloc, --compare or --against");
		return PARSE_BAD;
	}
	if (!o->launches_set && (o->compare || o->against || o->baseline || o->save_baseline || o->nallocators))
		o->launches = OPT_DEFAULT_COMPARE_LAUNCHES;
	if (o->emit_launch && (o->compare || o->against || o->baseline || o->save_baseline ||
			       o->launches_set || o->nallocators)) {
		snprintf(err, errlen, "--emit-launch is internal and takes no comparison options");
		return PARSE_BAD;
	}
	if (o->baseline && o->save_baseline && strcmp(o->baseline, o->save_baseline) == 0) {
		snprintf(err, errlen, "--baseline and --save-baseline name the same file '%s'", o->baseline);
		return PARSE_BAD;
	}
	if (cpus) {
		o->ncpus = parse_cpu_list(cpus, o->cpus, OPT_MAX_CPUS, err, errlen);
		if (o->ncpus < 0)
			return PARSE_BAD;
		if ((uint32_t)o->ncpus < o->plugins) {
			snprintf(err, errlen, "--cpus: %d CPUs listed for %u calling threads (one CPU each)",
				 o->ncpus, o->plugins);
			return PARSE_BAD;
		}
	}
	return PARSE_OK;
}
