/* tests/unit/cli/test_runkind.c — the run kind, method and base
 * (model/runkind.h) that cli/runkind.c resolves, for a table of command
 * lines parsed as bench parses them (options_parse, then
 * run_kind_resolve); then that every kind a command line can reach has its
 * row in cli/kinds.c and that the kinds' names are distinct.
 *
 * options_parse opens no file: --plugin, --busy, --baseline and --against
 * are only kept as given (setup.c checks them later), so the paths below
 * need not exist, except --against's, which is this test program itself
 * to keep the table honest should the parser ever start checking it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/runkind.h"
#include "model/runkind.h"

#define MAX_ARGS    16
#define MAX_PLUGINS 64 /* the limit setup.c reads from the built-in plugin */
#define LIB	    "build/libcmock.so"
#define SELF	    "@self" /* replaced by this executable's path */

static char self[4096];

struct row {
	const char *args[MAX_ARGS]; /* after argv[0]; NULL-terminated */
	enum run_kind kind;
	enum run_method method;
	enum run_base base;
};

static const struct row rows[] = {
	{ { "-n", "1000", NULL }, RUN_SINGLE, METHOD_HERE, BASE_NONE },
	{ { NULL }, RUN_SINGLE, METHOD_HERE, BASE_NONE },
	{ { "-a", "--rate", "1000", "--time", "1", NULL }, RUN_SINGLE, METHOD_HERE, BASE_NONE },
	/* a --plugin library is measured in a child even alone */
	{ { "--plugin", LIB, NULL }, RUN_SINGLE, METHOD_LAUNCHES, BASE_NONE },
	{ { "--launches", "3", NULL }, RUN_LAUNCHES, METHOD_LAUNCHES, BASE_NONE },
	{ { "--launches", "3", "--plugin", LIB, NULL }, RUN_LAUNCHES, METHOD_LAUNCHES, BASE_NONE },
	{ { "--compare", NULL }, RUN_COMPARE, METHOD_PAIRED, BASE_NONE },
	{ { "--compare", "--interleave", "pairs", NULL }, RUN_COMPARE, METHOD_PAIRED, BASE_NONE },
	{ { "--compare", "--interleave", "launches", NULL }, RUN_COMPARE, METHOD_LAUNCHES, BASE_NONE },
	/* -p 2: a paired block has one caller, so launch by launch */
	{ { "--compare", "-p", "2", NULL }, RUN_COMPARE, METHOD_LAUNCHES, BASE_NONE },
	{ { "--compare", "--save-baseline", "/nonexistent/b.json", NULL }, RUN_COMPARE, METHOD_LAUNCHES, BASE_NONE },
	{ { "-a", "--against", SELF, NULL }, RUN_LAUNCHES, METHOD_PAIRED, BASE_BUILD },
	{ { "--against", SELF, "--interleave", "launches", NULL }, RUN_LAUNCHES, METHOD_LAUNCHES, BASE_BUILD },
	{ { "--against", SELF, "--compare", NULL }, RUN_COMPARE, METHOD_PAIRED, BASE_BUILD },
	/* the counting gate: counted, not paired, not timed */
	{ { "--against", SELF, "--count", "instructions", NULL }, RUN_LAUNCHES, METHOD_COUNTED, BASE_BUILD },
	/* --count syscalls is no gate: refused later (count_refusal), paired here */
	{ { "--against", SELF, "--count", "syscalls", NULL }, RUN_LAUNCHES, METHOD_PAIRED, BASE_BUILD },
	{ { "--baseline", "/nonexistent/b.json", "--launches", "2", NULL }, RUN_LAUNCHES, METHOD_LAUNCHES, BASE_SAVED },
	{ { "--baseline", "/nonexistent/b.json", NULL }, RUN_LAUNCHES, METHOD_LAUNCHES, BASE_SAVED },
	{ { "--anatomy", NULL }, RUN_ANATOMY, METHOD_LAUNCHES, BASE_NONE },
	{ { "--allocators", "glibc,jemalloc", NULL }, RUN_ALLOCATORS, METHOD_LAUNCHES, BASE_NONE },
	{ { "--sweep-rate", "100,max", NULL }, RUN_SWEEP, METHOD_SWEEP, BASE_NONE },
	{ { "--repeat-load", "3", "--plugin", LIB, NULL }, RUN_REPEAT_LOAD, METHOD_REPEAT, BASE_NONE },
	{ { "--interference", "--plugin", LIB, "--busy", LIB, NULL }, RUN_INTERFERENCE, METHOD_LAUNCHES, BASE_NONE },
	{ { "--per-event", "4", NULL }, RUN_SINGLE, METHOD_HERE, BASE_NONE },
	{ { "--per-event", "4", "--host-calls", "both", NULL }, RUN_PER_EVENT, METHOD_PAIRED, BASE_NONE },
	{ { "--per-event", "4", "--host-calls", "both", "-p", "2", NULL }, RUN_PER_EVENT, METHOD_LAUNCHES, BASE_NONE },
	{ { "--compare", "--plugin", LIB, "--sync-config", "{\"async\":false}", "--async-config", "{}", NULL },
	  RUN_PLUGIN_COMPARE,
	  METHOD_PAIRED,
	  BASE_NONE },
	{ { "--judge", "a.txt", "b.txt", NULL }, RUN_JUDGE, METHOD_NONE, BASE_NONE },
	{ { "--judge", "a.txt", "b.txt", "--threshold", "3", NULL }, RUN_JUDGE, METHOD_NONE, BASE_NONE },
	{ { "--topology", NULL }, RUN_TOPOLOGY, METHOD_NONE, BASE_NONE },
	{ { "--topology", "--cpus", "1", NULL }, RUN_TOPOLOGY, METHOD_NONE, BASE_NONE },
	{ { "--topology", "--floors", "-n", "2000", NULL }, RUN_TOPOLOGY, METHOD_NONE, BASE_NONE },
	{ { "--fit", "a.json", NULL }, RUN_FIT, METHOD_NONE, BASE_NONE },
	{ { "--fit", "a.json", "--fit", "b.json", NULL }, RUN_FIT, METHOD_NONE, BASE_NONE },
	/* the internal child flags: measured here, whatever else is asked */
	{ { "--emit-launch", NULL }, RUN_CHILD, METHOD_HERE, BASE_NONE },
	{ { "--emit-launch", "--plugin", LIB, NULL }, RUN_CHILD, METHOD_HERE, BASE_NONE },
	{ { "--emit-launch", "-a", "--serve-blocks", "2000000", NULL }, RUN_SERVE_BLOCKS, METHOD_HERE, BASE_NONE },
	{ { "--emit-launch", "--serve-blocks", "0", "--plugin", LIB, NULL }, RUN_SERVE_BLOCKS, METHOD_HERE, BASE_NONE },
};

/* Parses args as bench's command line, then resolves the kind. */
static enum parse_result parse(const char *const *args, struct options *o, char *err, size_t errlen)
{
	char *argv[MAX_ARGS + 2];
	int argc = 0;

	argv[argc++] = (char *)"bench";
	for (int i = 0; args[i]; i++)
		argv[argc++] = strcmp(args[i], SELF) == 0 ? self : (char *)args[i];
	argv[argc] = NULL;
	memset(o, 0xa5, sizeof(*o)); /* nothing left from before */
	err[0] = '\0';
	enum parse_result r = options_parse(o, argc, argv, MAX_PLUGINS, err, errlen);
	if (r == PARSE_OK)
		run_kind_resolve(o);
	return r;
}

static void describe(const char *const *args, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; args[i] && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, " %s", args[i]);
}

static void test_kind_of_each_command_line(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct options o;
		char err[1024], line[512];

		describe(rows[i].args, line, sizeof(line));
		if (parse(rows[i].args, &o, err, sizeof(err)) != PARSE_OK)
			fail_msg("bench%s: refused: %s", line, err);
		if (o.kind != rows[i].kind || o.method != rows[i].method || o.base != rows[i].base)
			fail_msg("bench%s: kind %s (%d), method %d, base %d; want %s (%d), method %d, base %d", line,
				 run_kind_name(o.kind), (int)o.kind, (int)o.method, (int)o.base,
				 run_kind_name(rows[i].kind), (int)rows[i].kind, (int)rows[i].method,
				 (int)rows[i].base);
	}
}

/* The combinations the rules refuse get no kind at all. */
static void test_refused_combinations(void **state)
{
	static const char *const refused[][MAX_ARGS] = {
		{ "--against", SELF, "--baseline", "/nonexistent/b.json", NULL },
		{ "--compare", "--anatomy", NULL },
		{ "--compare", "--plugin", LIB, NULL },
		/* your plugin's two configurations: both, one --plugin, --compare, nothing that sets the mode */
		{ "--compare", "--plugin", LIB, "--sync-config", "{}", NULL },
		{ "--compare", "--plugin", LIB, "--async-config", "{}", NULL },
		{ "--compare", "--sync-config", "{}", "--async-config", "{}", NULL },
		{ "--plugin", LIB, "--sync-config", "{}", "--async-config", "{}", NULL },
		{ "--compare", "--plugin", LIB, "--plugin", LIB, "--sync-config", "{}", "--async-config", "{}", NULL },
		{ "--compare", "--plugin", LIB, "--sync-config", "{}", "--async-config", "{}", "--plugin-config", "{}",
		  NULL },
		{ "--compare", "--plugin", LIB, "--sync-config", "{}", "--async-config", "{}", "-a", NULL },
		{ "--compare", "--plugin", LIB, "--sync-config", "{}", "--async-config", "{}", "--against", SELF,
		  NULL },
		/* your plugin's gate: one --plugin, a readable base of the same name, no other base */
		{ "--against-plugin", LIB, NULL },
		{ "--plugin", LIB, "--plugin", LIB, "--against-plugin", LIB, NULL },
		{ "--plugin", LIB, "--against-plugin", "/nonexistent/x.so", NULL },
		{ "--plugin", LIB, "--against-plugin", LIB, "--against", SELF, NULL },
		{ "--plugin", LIB, "--against-plugin", LIB, "--compare", NULL },
		{ "--emit-launch", "--compare", NULL },
		{ "--emit-launch", "--launches", "2", NULL },
		{ "--serve-blocks", "1000", NULL },
		{ "--repeat-load", "3", NULL },
		{ "--interference", "--plugin", LIB, NULL },
		{ "--interference", "--plugin", LIB, "--busy", LIB, "--rate", "100", NULL },
		{ "--interference", "--plugin", LIB, "--busy", LIB, "--gap-us", "10", NULL },
		{ "--repeat-load", "3", "--plugin", LIB, "--rate", "100", NULL },
		{ "--repeat-load", "3", "--plugin", LIB, "--sweep-rate", "100", NULL },
		{ "--plugin", LIB, "--events", "/nonexistent/events", "--payload-size", "32", NULL },
		{ "--sweep-rate", "100", "--compare", NULL },
		{ "--judge", "a.txt", "b.txt", "-n", "10", NULL },
		{ "--judge", "a.txt", NULL },
		/* the counting gate has no launches to interleave, no floors
		 * to time, and no times to save as a baseline */
		{ "--against", SELF, "--count", "instructions", "--interleave", "launches", NULL },
		{ "--against", SELF, "--count", "instructions", "--floors", NULL },
		{ "--against", SELF, "--count", "instructions", "--save-baseline", "/nonexistent/b.json", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct options o;
		char err[1024], line[512];

		describe(refused[i], line, sizeof(line));
		if (parse(refused[i], &o, err, sizeof(err)) != PARSE_BAD)
			fail_msg("bench%s: accepted, resolved to %s", line, run_kind_name(o.kind));
		if (err[0] == '\0' || strchr(err, '\n'))
			fail_msg("bench%s: refused without a one-line message: '%s'", line, err);
	}
}

/* Every kind a command line reaches has its row (but --judge and
 * --topology, which measure nothing and report their own), and the table above reaches every kind. */
static void test_every_kind_has_a_row(void **state)
{
	int reached[RUN_KINDS] = { 0 };
	struct options o;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct run_row *r;
		char err[1024];

		assert_int_equal(parse(rows[i].args, &o, err, sizeof(err)), PARSE_OK);
		assert_true(o.kind > RUN_UNRESOLVED && o.kind < RUN_KINDS);
		reached[o.kind] = 1;
		r = run_row(&o);
		if (o.kind == RUN_JUDGE || o.kind == RUN_TOPOLOGY || o.kind == RUN_FIT) {
			assert_null(r);
			continue;
		}
		if (r == NULL)
			fail_msg("kind %s has no row in cli/kinds.c", run_kind_name(o.kind));
		assert_int_equal(r->kind, o.kind);
		/* a child launch prints its document for the parent */
		assert_int_equal(r->output == OUTPUT_DOCUMENT, o.kind == RUN_CHILD || o.kind == RUN_SERVE_BLOCKS);
		assert_true(r->output == OUTPUT_DOCUMENT || r->text != NULL);
	}
	for (int k = RUN_UNRESOLVED + 1; k < RUN_KINDS; k++)
		if (!reached[k])
			fail_msg("no command line of the table resolves to %s", run_kind_name((enum run_kind)k));
	/* an unresolved options struct has no row */
	options_defaults(&o);
	o.kind = RUN_UNRESOLVED;
	assert_null(run_row(&o));
	o.kind = RUN_KINDS;
	assert_null(run_row(&o));
}

static void test_kind_names_are_distinct(void **state)
{
	(void)state;
	for (int a = 0; a < RUN_KINDS; a++) {
		const char *na = run_kind_name((enum run_kind)a);
		assert_non_null(na);
		assert_true(na[0] != '\0');
		for (int b = a + 1; b < RUN_KINDS; b++)
			if (strcmp(na, run_kind_name((enum run_kind)b)) == 0)
				fail_msg("kinds %d and %d are both named '%s'", a, b, na);
	}
	assert_string_equal(run_kind_name(RUN_UNRESOLVED), "unresolved");
	assert_string_equal(run_kind_name(RUN_KINDS), "unresolved");
	assert_string_equal(run_kind_name((enum run_kind) - 1), "unresolved");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_of_each_command_line),
		cmocka_unit_test(test_refused_combinations),
		cmocka_unit_test(test_every_kind_has_a_row),
		cmocka_unit_test(test_kind_names_are_distinct),
	};
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return 1;
	self[n] = '\0';
	return cmocka_run_group_tests(tests, NULL, NULL);
}
