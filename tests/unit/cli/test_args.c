/* test_args.c — the command line (cli/args.c over the table of
 * model/options.c): defaults, every bad input, CPU lists, usage, the open
 * loop's options, a child launch's arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/args.h"
#include "cli/parsers.h"
#include "cli/usage.h"
#include "model/codec_options.h"
#include "model/options.h"
#include "orchestrate/childargs.h"

#define MAX_PLUGINS 255

static enum parse_result parse(struct options *o, char *err, size_t errlen, int argc, ...)
{
	char *argv[32];
	va_list ap;

	argv[0] = "bench";
	va_start(ap, argc);
	for (int i = 1; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	return options_parse(o, argc, argv, MAX_PLUGINS, err, errlen);
}

static void test_defaults(void **state)
{
	struct options o;
	char err[256] = "";
	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 1), PARSE_OK);
	assert_int_equal(o.n, 10000);
	assert_int_equal(o.plugins, 1);
	assert_int_equal(o.async, 0);
	assert_int_equal(o.work, WORK_NOOP);
	assert_int_equal(o.fields, 1);
	assert_int_equal(o.batches, 10);
	assert_int_equal(o.ncpus, 0);
	assert_null(o.plugin_config);
}

static void test_seed_options(void **state)
{
	struct options o;
	char err[256] = "";
	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 7, "-n", "100000", "-a", "-p", "2", "--floors"), PARSE_OK);
	assert_int_equal(o.n, 100000);
	assert_int_equal(o.async, 1);
	assert_int_equal(o.plugins, 2);
	assert_int_equal(o.floors, 1);
	assert_int_equal(parse(&o, err, sizeof(err), 6, "--async", "--work", "str", "--fields", "8"), PARSE_OK);
	assert_int_equal(o.async, 1);
	assert_int_equal(o.work, WORK_STR);
	assert_int_equal(o.fields, 8);
	assert_int_equal(parse(&o, err, sizeof(err), 2, "-h"), PARSE_HELP);
	assert_int_equal(parse(&o, err, sizeof(err), 2, "--help"), PARSE_HELP);
	assert_int_equal(parse(&o, err, sizeof(err), 3, "-p", "255"), PARSE_OK);
}

struct bad_case {
	const char *args[4];
	const char *needle; /* the message must name the problem */
};

static void test_bad_inputs(void **state)
{
	static const struct bad_case cases[] = {
		{ { "-n", "abc" }, "-n: 'abc' is not a whole number" },
		{ { "-n", "12x" }, "not a whole number" },
		{ { "-n", "0" }, "-n: '0' must be at least 1" },
		{ { "-n", "-5" }, "-n: '-5' is negative" },
		{ { "-n", "+5" }, "not a whole number" },
		{ { "-n", "" }, "-n: missing number" },
		{ { "-n", "18446744073709551616" }, "too large" },
		{ { "-n", "10000000001" }, "too large (at most 10000000000)" },
		{ { "-p", "0" }, "-p: '0' must be at least 1" },
		{ { "-p", "-1" }, "negative" },
		{ { "-p", "256" }, "handle table (at most 255" },
		{ { "-p", "99999999" }, "too large" },
		{ { "--fields", "0" }, "--fields" },
		{ { "--fields", "257" }, "--fields: '257' is too large" },
		{ { "--work", "sleep" }, "--work: 'sleep'" },
		{ { "-r", "0" }, "--runs" },
		{ { "-r", "20", "-n", "10" }, "smaller than --runs" },
		{ { "-x" }, "unknown option -x" },
		{ { "--bogus" }, "unknown option --bogus" },
		{ { "--asy" }, "option --asy is ambiguous: --async, --async-block-ms, ..." },
		{ { "--rate", "1e-300" }, "--rate: '1e-300' is not a plain decimal number" },
		{ { "-n" }, "needs an argument" },
		{ { "--fields" }, "needs an argument" },
		{ { "stray" }, "unexpected argument 'stray'" },
		{ { "--cpus", "0", "-p", "2" }, "1 CPUs listed for 2 calling threads" },
		{ { "--cpus", "a" }, "not a CPU list" },
		{ { "--cpus", "1," }, "not a CPU list" },
		{ { "--cpus", "3-1" }, "not a CPU list" },
		{ { "--cpus", "0,0" }, "listed twice" },
		{ { "--extra-ns", "1000000001" }, "--extra-ns" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct options o;
		char err[256] = "";
		char *argv[8] = { "bench" };
		int argc = 1;
		for (int k = 0; k < 4 && cases[i].args[k]; k++)
			argv[argc++] = (char *)cases[i].args[k];
		argv[argc] = NULL;
		if (options_parse(&o, argc, argv, MAX_PLUGINS, err, sizeof(err)) != PARSE_BAD)
			fail_msg("case %zu (%s) was accepted", i, cases[i].args[0]);
		if (strstr(err, cases[i].needle) == NULL)
			fail_msg("case %zu: message '%s' lacks '%s'", i, err, cases[i].needle);
		assert_null(strchr(err, '\n'));
	}
}

static void expect_bad(const char *why, int argc, ...)
{
	char *argv[32], err[256] = "";
	struct options o;
	va_list ap;

	argv[0] = "bench";
	va_start(ap, argc);
	for (int i = 1; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[argc] = NULL;
	assert_int_equal(options_parse(&o, argc, argv, MAX_PLUGINS, err, sizeof(err)), PARSE_BAD);
	if (strstr(err, why) == NULL)
		fail_msg("message '%s' lacks '%s'", err, why);
}

/* --judge measures nothing: a measurement option with it is refused, not
 * silently ignored; the list of allocators has no empty name; --help=foo
 * names --help. */
static void test_judge_allocators_help(void **state)
{
	struct options o;
	char err[256] = "";
	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 8, "--judge", "a", "b", "--threshold", "3", "--seed", "9"),
			 PARSE_OK);
	assert_string_equal(o.judge[1], "b");
	expect_bad("--judge measures nothing: it takes --threshold, --seed and --inconclusive only, not -a, --async", 5,
		   "--judge", "a", "b", "-a");
	expect_bad("not --compare", 5, "--judge", "a", "b", "--compare");
	expect_bad("not -n", 6, "-n", "5", "--judge", "a", "b");
	expect_bad("not --save-baseline", 6, "--judge", "a", "b", "--save-baseline", "x");
	expect_bad("--allocators: 'glibc,,jemalloc' has an empty name", 3, "--allocators", "glibc,,jemalloc");
	expect_bad("has an empty name", 3, "--allocators", ",glibc");
	expect_bad("has an empty name", 3, "--allocators", "glibc,");
	expect_bad("--allocators: empty list", 3, "--allocators", "");
	expect_bad("option --help takes no argument ('--help=foo')", 2, "--help=foo");
	expect_bad("option --async takes no argument", 2, "--async=1");
	expect_bad("unknown option --bogus", 2, "--bogus");
	expect_bad("unknown option -z", 2, "-z");
}

static void test_cpu_list(void **state)
{
	int cpus[16];
	char err[256];
	(void)state;
	assert_int_equal(parse_cpu_list("0", cpus, 16, err, sizeof(err)), 1);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(parse_cpu_list("0,2-4,7", cpus, 16, err, sizeof(err)), 5);
	assert_int_equal(cpus[1], 2);
	assert_int_equal(cpus[3], 4);
	assert_int_equal(cpus[4], 7);
	assert_int_equal(parse_cpu_list("0-20", cpus, 16, err, sizeof(err)), -1);
	assert_int_equal(parse_cpu_list("", cpus, 16, err, sizeof(err)), -1);
	assert_int_equal(parse_cpu_list("5000", cpus, 16, err, sizeof(err)), -1);
}

static void test_pinning_accepts_enough_cpus(void **state)
{
	struct options o;
	char err[256] = "";
	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 5, "--cpus", "0-1", "-p", "2"), PARSE_OK);
	assert_int_equal(o.ncpus, 2);
	assert_int_equal(o.cpus[1], 1);
}

/* Every option of the usage text is one the parser takes, and the other
 * way round: both come from the one table. */
static void test_usage_names_every_option(void **state)
{
	static const char *const longs[] = { "--async",		"--runs",	   "--work",	       "--fields",
					     "--warmup",	"--extra-ns",	   "--floors",	       "--cpus",
					     "--plugin-config", "--stall-timeout", "--launches",       "--format",
					     "--compare",	"--against",	   "--save-baseline",  "--baseline",
					     "--threshold",	"--seed",	   "--async-extra-ns", "--scenario",
					     "--pool",		"--malloc",	   "--count-allocs",   "--allocators",
					     "--judge" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	(void)state;
	assert_non_null(f);
	options_usage("bench", f);
	fclose(f);
	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++)
		if (strstr(buf, longs[i]) == NULL)
			fail_msg("usage lacks %s", longs[i]);
	assert_non_null(strstr(buf, "-n <number>"));
	assert_non_null(strstr(buf, "-p <number>"));
	assert_null(strstr(buf, "--emit-launch")); /* internal: not shown */
	free(buf);
}

/* The options record reads back to the options that made it. */
static void test_record_round_trip(void **state)
{
	struct options o, back;
	char err[256] = "";
	json_t *rec;
	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 16, "-n", "5000", "-p", "2", "-r", "5", "--work", "u64", "--cpus",
			       "0-1", "--scenario", "lifecycle", "--malloc", "jemalloc", "--count-allocs"),
			 PARSE_OK);
	rec = options_to_json(&o);
	assert_non_null(rec);
	assert_int_equal(json_integer_value(json_object_get(rec, "runs")), 5);
	assert_string_equal(json_string_value(json_object_get(rec, "scenario")), "lifecycle");
	assert_int_equal(options_from_json(&back, rec, err, sizeof(err)), 0);
	assert_int_equal(back.n, 5000);
	assert_int_equal(back.plugins, 2);
	assert_int_equal(back.batches, 5);
	assert_int_equal(back.work, WORK_U64);
	assert_int_equal(back.ncpus, 2);
	assert_int_equal(back.lifecycle, 1);
	assert_int_equal(back.pool, 2);
	assert_string_equal(back.malloc_name, "jemalloc");
	assert_int_equal(back.count_allocs, 1);
	/* a missing, a mistyped and an unknown key are errors, never defaults */
	json_object_del(rec, "warmup");
	assert_int_equal(options_from_json(&back, rec, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "options.warmup: missing"));
	json_object_set_new(rec, "warmup", json_string("10000"));
	assert_int_equal(options_from_json(&back, rec, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "options.warmup"));
	json_object_set_new(rec, "warmup", json_integer(10000));
	json_object_set_new(rec, "wramup", json_integer(10000));
	assert_int_equal(options_from_json(&back, rec, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "options.wramup: unknown key"));
	json_decref(rec);
}

/* A child launch's arguments parse back to the options they came from. */
static void test_child_args_round_trip(void **state)
{
	struct options o, child;
	char err[256] = "", store[4096];
	char *argv[64] = { "bench" };
	int argc;
	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 18, "-n", "3000", "-p", "2", "--warmup", "7", "--extra-ns", "40",
			       "--cpus", "0,1", "--floors", "--work", "str", "--plugin-config", "async", "--launches",
			       "3", "--compare"),
			 PARSE_OK);
	argc = options_child_args(&o, argv + 1, 60, store, sizeof(store));
	assert_true(argc > 0);
	argv[argc + 1] = "--emit-launch";
	argv[argc + 2] = NULL;
	for (int i = 1; i <= argc; i++) /* comparisons stay with the parent */
		if (strcmp(argv[i], "--launches") == 0 || strcmp(argv[i], "--compare") == 0)
			fail_msg("a child got %s", argv[i]);
	assert_int_equal(options_parse(&child, argc + 2, argv, MAX_PLUGINS, err, sizeof(err)), PARSE_OK);
	assert_int_equal(child.n, 3000);
	assert_int_equal(child.plugins, 2);
	assert_int_equal(child.warmup, 7);
	assert_int_equal(child.extra_ns, 40);
	assert_int_equal(child.ncpus, 2);
	assert_int_equal(child.floors, 1);
	assert_int_equal(child.work, WORK_STR);
	assert_string_equal(child.plugin_config, "async");
	assert_int_equal(child.emit_launch, 1);
	assert_int_equal(child.async, 0);
}

/* Bad input of the open loop is refused by the options (exit 2). */
static void test_latency_options(void **state)
{
	struct options o;
	char err[512];
	(void)state;
	char *ok[] = { "bench", "--rate", "2000", "--time", "1.5", NULL };
	assert_int_equal(options_parse(&o, 5, ok, 255, err, sizeof(err)), PARSE_OK);
	assert_int_equal(o.n, 3000);
	assert_true(options_latency(&o));
	char *gaps[] = { "bench", "--gap-us", "0,10,5000", NULL };
	assert_int_equal(options_parse(&o, 3, gaps, 255, err, sizeof(err)), PARSE_OK);
	assert_int_equal(o.ngaps, 3);
	assert_int_equal(o.gaps_us[2], 5000);
	char *sweep[] = { "bench", "--sweep-rate", "100,max", NULL };
	assert_int_equal(options_parse(&o, 3, sweep, 255, err, sizeof(err)), PARSE_OK);
	assert_int_equal(o.nsweep, 2);
	assert_true(o.sweep[1] == 0);
	char *big[] = { "bench", "--rate", "1000", "-n", "20000000", NULL };
	assert_int_equal(options_parse(&o, 5, big, 255, err, sizeof(err)), PARSE_OK);
	char *huge[] = { "bench", "--rate", "1000", "-n", "20000000", "-p", "255", NULL };
	assert_int_equal(options_parse(&o, 7, huge, 255, err, sizeof(err)), PARSE_BAD);
	assert_non_null(strstr(err, "more than this machine's"));
	const char *bad[][8] = {
		{ "bench", "--rate", "0" },
		{ "bench", "--rate", "-1" },
		{ "bench", "--rate", "1e99" },
		{ "bench", "--rate", "nan" },
		{ "bench", "--rate", "99999999" },
		{ "bench", "--rate", "10", "--gap-us", "5" },
		{ "bench", "--rate", "10", "--time", "0" },
		{ "bench", "--time", "1" },
		{ "bench", "--rate", "10", "--compare" },
		{ "bench", "--rate", "10", "--anatomy" },
		/* 255 callers x 20M requests x 16 bytes: 76 GiB, more than any
		 * machine this runs on; one caller's 320 MB is accepted above */
		{ "bench", "--rate", "1000", "-n", "20000000", "-p", "255" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int argc = 0;
		while (argc < 8 && bad[i][argc])
			argc++;
		assert_int_equal(options_parse(&o, argc, (char **)bad[i], 255, err, sizeof(err)), PARSE_BAD);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_options),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_seed_options),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_judge_allocators_help),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_pinning_accepts_enough_cpus),
		cmocka_unit_test(test_usage_names_every_option),
		cmocka_unit_test(test_record_round_trip),
		cmocka_unit_test(test_child_args_round_trip),
	};
	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
