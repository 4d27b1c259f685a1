/* cli/args.c — the command line: getopt_long over the option table, each
 * option's argument applied to struct options by its type, then the rules
 * between options (cli/rules.c). */
#include "cli/args.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/parsers.h"
#include "cli/rules.h"
#include "cli/usage.h"

/* The numbers: counts, sizes, percents. */
static int apply_number(const struct optdef *d, struct options *o, const char *name, const char *arg,
			uint32_t max_plugins, char *err, size_t errlen)
{
	uint64_t v;

	switch (d->type) {
	case T_U64:
		return parse_u64(name, arg, d->min, d->max, (uint64_t *)option_field(o, d), err, errlen);
	case T_U32:
		if (parse_u64(name, arg, d->min, d->max, &v, err, errlen))
			return -1;
		*(uint32_t *)option_field(o, d) = (uint32_t)v;
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
		*(uint32_t *)option_field(o, d) = (uint32_t)v;
		return 0;
	case T_CPU:
		if (parse_u64(name, arg, d->min, d->max, &v, err, errlen))
			return -1;
		*(int *)option_field(o, d) = (int)v;
		return 0;
	case T_PERCENT:
		if (parse_u64(name, arg, d->min, d->max, &v, err, errlen))
			return -1;
		*(double *)option_field(o, d) = (double)v / 100.0;
		return 0;
	case T_RATE:
		return parse_positive(name, arg, OPT_MAX_RATE, " per second", (double *)option_field(o, d), err,
				      errlen);
	case T_SECONDS:
		return parse_positive(name, arg, OPT_MAX_TIME_S, " s", (double *)option_field(o, d), err, errlen);
	default: /* T_REAL */
		return parse_positive(name, arg, (double)d->max, "", (double *)option_field(o, d), err, errlen);
	}
}

/* The texts kept as given: one (T_TEXT) or one more of a repeatable
 * option (T_LIST). */
static int apply_text(const struct optdef *d, struct options *o, const char *name, const char *arg, char *err,
		      size_t errlen)
{
	int *count = option_set(o, d);

	if (d->type == T_TEXT) {
		if (d->max && strlen(arg) > d->max) {
			snprintf(err, errlen, "%s: longer than %llu bytes", name, (unsigned long long)d->max);
			return -1;
		}
		*(const char **)option_field(o, d) = arg;
		return 0;
	}
	if (*count >= (int)d->max) {
		snprintf(err, errlen, "%s: at most %llu", name, (unsigned long long)d->max);
		return -1;
	}
	if (arg[0] == '\0') {
		snprintf(err, errlen, "%s: empty", name);
		return -1;
	}
	((const char **)option_field(o, d))[(*count)++] = arg;
	return 0;
}

/* The comma-separated lists: CPUs, allocators, gaps, rates. */
static int apply_list(const struct optdef *d, struct options *o, const char *name, const char *arg, char *err,
		      size_t errlen)
{
	switch (d->type) {
	case T_CPUS:
		o->ncpus = parse_cpu_list(arg, o->cpus, OPT_MAX_CPUS, err, errlen);
		return o->ncpus < 0 ? -1 : 0;
	case T_ALLOCATORS:
		return parse_allocators(o, arg, err, errlen);
	case T_GAPS:
		return parse_list(name, arg, 0, o, err, errlen);
	default: /* T_SWEEP */
		return parse_list(name, arg, 1, o, err, errlen);
	}
}

/* Applies one option's argument. 0, or -1 with a message. */
static int apply(const struct optdef *d, struct options *o, const char *arg, uint32_t max_plugins, char *err,
		 size_t errlen)
{
	char name[40];

	option_name(d, name, sizeof(name));
	if (d->has_set)
		*option_set(o, d) = 1;
	if (arg == NULL && d->arg) {
		snprintf(err, errlen, "%s: missing value", name);
		return -1;
	}
	switch (d->type) {
	case T_HELP:
	case T_JUDGE:
		return 0;
	case T_FLAG:
		*(int *)option_field(o, d) = 1;
		return 0;
	case T_U64:
	case T_U32:
	case T_INSTANCES:
	case T_CPU:
	case T_PERCENT:
	case T_RATE:
	case T_SECONDS:
	case T_REAL:
		return apply_number(d, o, name, arg, max_plugins, err, errlen);
	case T_WORK:
	case T_FORMAT:
	case T_SCENARIO:
	case T_ALLOCATOR:
	case T_INTERLEAVE:
	case T_ARRIVAL:
	case T_HOSTCALLS:
	case T_COUNT:
	case T_INCONCLUSIVE:
		return option_set_choice(d, o, name, arg, err, errlen);
	case T_TEXT:
	case T_LIST:
		return apply_text(d, o, name, arg, err, errlen);
	case T_CPUS:
	case T_ALLOCATORS:
	case T_GAPS:
	case T_SWEEP:
		return apply_list(d, o, name, arg, err, errlen);
	}
	return 0;
}

/* getopt_long's tables, made from the option table once. */
static struct option long_options[OPT_COUNT + 1];
static char short_options[2 * OPT_COUNT + 3];

static void getopt_tables(void)
{
	size_t k = 0, s = 0;

	if (short_options[0])
		return;
	short_options[s++] = ':';
	for (size_t i = 0; i < OPT_COUNT; i++) {
		const struct optdef *d = &options_table[i];
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
	for (size_t i = 0; i < OPT_COUNT; i++)
		if (options_table[i].shortname == c)
			return &options_table[i];
	return NULL;
}

/* Whether the len bytes of name begin more than one long option (getopt_long
 * refuses such a prefix): the message names two of them. */
static int ambiguous(const char *name, size_t len, char *err, size_t errlen)
{
	const char *first = NULL;

	for (size_t i = 0; len > 0 && i < OPT_COUNT; i++) {
		const char *n = options_table[i].name;
		if (n == NULL || strncmp(n, name, len) != 0)
			continue;
		if (strlen(n) == len)
			return 0; /* an exact name is never ambiguous */
		if (first == NULL) {
			first = n;
			continue;
		}
		snprintf(err, errlen, "option --%.*s is ambiguous: --%s, --%s, ...", (int)(len > 60 ? 60 : len), name,
			 first, n);
		return 1;
	}
	return 0;
}

/* The message for what getopt_long did not take: an unknown option, an
 * ambiguous prefix, or a long option that takes no argument given one
 * (--help=foo). */
static void unknown(char **argv, int argc, char *err, size_t errlen)
{
	const char *arg = optind >= 1 && optind <= argc ? argv[optind - 1] : "";
	const char *eq = strchr(arg, '=');

	if (strncmp(arg, "--", 2) == 0 && eq) {
		for (size_t i = 0; i < OPT_COUNT; i++)
			if (options_table[i].name && !options_table[i].arg &&
			    strlen(options_table[i].name) == (size_t)(eq - arg - 2) &&
			    strncmp(options_table[i].name, arg + 2, (size_t)(eq - arg - 2)) == 0) {
				snprintf(err, errlen, "option --%s takes no argument ('%.40s')", options_table[i].name,
					 arg);
				return;
			}
	}
	if (strncmp(arg, "--", 2) == 0 &&
	    ambiguous(arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2), err, errlen))
		return;
	if (strncmp(arg, "--", 2) == 0)
		snprintf(err, errlen, "unknown option %.60s", arg);
	else if (optopt > 0 && optopt < 256)
		snprintf(err, errlen, "unknown option -%c", optopt);
	else
		snprintf(err, errlen, "unknown option %.60s", arg);
}

/* What a run that reads files and measures nothing takes: --judge its
 * options marked judge, --fit itself alone. */
static int judge_takes(const struct optdef *d)
{
	return d->judge;
}

static int fit_takes(const struct optdef *d)
{
	return d->name != NULL && strcmp(d->name, "fit") == 0;
}

/* The label (in label) of the first option given that takes refuses, or
 * NULL. */
static const char *stray_option(const char *given, int (*takes)(const struct optdef *), char *label, size_t len)
{
	for (size_t i = 0; i < OPT_COUNT; i++)
		if (given[i] && !takes(&options_table[i])) {
			option_label(&options_table[i], label, len);
			return label + strspn(label, " ");
		}
	return NULL;
}

enum parse_result options_parse(struct options *o, int argc, char **argv, uint32_t max_plugins, char *err,
				size_t errlen)
{
	int c;
	char given[OPT_COUNT] = { 0 }, label[64];
	const char *stray;

	options_defaults(o);
	o->argc = argc;
	o->argv = (const char *const *)argv;
	getopt_tables();
	opterr = 0;
	optind = 0; /* 0, not 1: glibc then rescans from scratch */
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		const struct optdef *d = c >= 256 && c < 256 + (int)OPT_COUNT ? &options_table[c - 256] : by_short(c);
		if (c == ':') {
			snprintf(err, errlen, "option %s needs an argument", argv[optind - 1]);
			return PARSE_BAD;
		}
		if (d == NULL) {
			unknown(argv, argc, err, errlen);
			return PARSE_BAD;
		}
		given[d - options_table] = 1;
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
	if (o->judge[0] && (stray = stray_option(given, judge_takes, label, sizeof(label))) != NULL) {
		snprintf(err, errlen,
			 "--judge measures nothing: it takes --threshold, --seed and --inconclusive only, not %s",
			 stray);
		return PARSE_BAD;
	}
	if (o->nfit && (stray = stray_option(given, fit_takes, label, sizeof(label))) != NULL) {
		snprintf(err, errlen, "--fit reads saved documents and measures nothing: it takes no %s", stray);
		return PARSE_BAD;
	}
	return options_check(o, err, errlen) == 0 ? PARSE_OK : PARSE_BAD;
}
