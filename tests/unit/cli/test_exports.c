/* test_exports.c — --export FORMAT=FILE on the command line (the rules of
 * cli/rules.c, through options_parse as bench parses it) and the checks of
 * its files and tool before a run (cli/exports.c), in a scratch directory:
 * every refusal one line naming the export. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/args.h"
#include "cli/exports.h"

#define MAX_PLUGINS 255

static enum parse_result parse_v(struct options *o, char *err, size_t errlen, const char *const *args)
{
	char *argv[32] = { "bench" };
	int argc = 1;

	while (args[argc - 1] && argc < 31) {
		argv[argc] = (char *)args[argc - 1];
		argc++;
	}
	argv[argc] = NULL;
	return options_parse(o, argc, argv, MAX_PLUGINS, err, errlen);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void expect_refused(const char *const *args, const char *needle)
{
	struct options o;
	char err[512] = "";

	if (parse_v(&o, err, sizeof(err), args) != PARSE_BAD)
		fail_msg("accepted: %s %s ...", args[0], args[1] ? args[1] : "");
	if (strstr(err, needle) == NULL)
		fail_msg("message '%s' lacks '%s'", err, needle);
	assert_null(strchr(err, '\n'));
}

static void test_rules(void **state)
{
	struct options o;
	char err[512] = "";
	(void)state;

	assert_int_equal(parse_v(&o, err, sizeof(err),
				 ARGS("--export", "json=a", "--export", "markdown=b", "--export", "gobench=-",
				      "--export", "html=c")),
			 PARSE_OK);
	assert_int_equal(o.nexports, 4);
	assert_string_equal(o.exports[2], "gobench=-");

	expect_refused(ARGS("--export", "xml=a"), "--export: 'xml' in 'xml=a' is not one of");
	expect_refused(ARGS("--export", "json"), "'json' is not FORMAT=FILE");
	expect_refused(ARGS("--export", "json="), "names no FILE");
	expect_refused(ARGS("--export", ""), "--export: empty");
	expect_refused(ARGS("--export"), "needs an argument");
	expect_refused(ARGS("--export", "json=a", "--export", "gobench=a"),
		       "--export json=a and --export gobench=a name the same file 'a'");
	expect_refused(ARGS("--export", "json=-", "--export", "gobench=-"), "one export at most goes to stdout (-)");
	expect_refused(ARGS("--emit-launch", "--export", "json=a"), "a child launch (--emit-launch)");
	expect_refused(ARGS("--judge", "a", "b", "--export", "json=a"), "--judge measures nothing");
	expect_refused(ARGS("--plugin", "x.so", "--repeat-load", "2", "--export", "gobench=a"),
		       "--export gobench=a: --repeat-load times no extraction");
	expect_refused(ARGS("--export", "json=1", "--export", "json=2", "--export", "json=3", "--export", "json=4",
			    "--export", "json=5", "--export", "json=6", "--export", "json=7", "--export", "json=8",
			    "--export", "json=9"),
		       "--export: at most 8");
}

static char dir[] = "/tmp/cgocost-test-exports-XXXXXX";

static char *in_dir(const char *name)
{
	static char buf[8][256];
	static int k;
	char *p = buf[k++ % 8];

	snprintf(p, 256, "%s/%s", dir, name);
	return p;
}

/* exports_check on a command line: 0, or -1 with the message in err. */
static int check(const char *const *args, char *err, size_t errlen)
{
	struct options o;

	assert_int_equal(parse_v(&o, err, errlen, args), PARSE_OK);
	return exports_check(&o, err, errlen);
}

static void expect_unfit(const char *const *args, const char *needle)
{
	char err[1024] = "";

	if (check(args, err, sizeof(err)) == 0)
		fail_msg("accepted: %s %s", args[0], args[1]);
	if (strstr(err, needle) == NULL)
		fail_msg("message '%s' lacks '%s'", err, needle);
	assert_null(strchr(err, '\n'));
}

static void test_files_and_tool(void **state)
{
	char err[1024], same[300], tool[300];
	FILE *f;
	(void)state;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(mkdir(in_dir("sub"), 0755), 0);
	assert_int_equal(mkfifo(in_dir("fifo"), 0644), 0);

	assert_int_equal(check(ARGS("--export", "json=-"), err, sizeof(err)), 0);
	snprintf(same, sizeof(same), "json=%s", in_dir("a.json"));
	assert_int_equal(check(ARGS("--export", same), err, sizeof(err)), 0);

	snprintf(same, sizeof(same), "json=%s", in_dir("sub"));
	expect_unfit(ARGS("--export", same), "is a directory");
	snprintf(same, sizeof(same), "json=%s", in_dir("fifo"));
	expect_unfit(ARGS("--export", same), "a named FIFO");
	expect_unfit(ARGS("--export", "json=/dev/null"), "a device");
	snprintf(same, sizeof(same), "json=%s", in_dir("none/a.json"));
	expect_unfit(ARGS("--export", same), "No such file or directory");

	/* the same file by two spellings, or a baseline's */
	{
		char a[300], b[300];
		snprintf(a, sizeof(a), "json=%s", in_dir("x"));
		snprintf(b, sizeof(b), "markdown=%s", in_dir("sub/../x"));
		expect_unfit(ARGS("--export", a, "--export", b), "name the same file");
		expect_unfit(ARGS("--save-baseline", in_dir("x"), "--export", b), "and --save-baseline");
	}

	/* html: the tool must be there and runnable, its timeout a number */
	snprintf(same, sizeof(same), "html=%s", in_dir("p.html"));
	setenv(EXPORT_TOOL_ENV, in_dir("no-such-tool"), 1);
	expect_unfit(ARGS("--export", same), "CGOCOST_REPORT=");
	snprintf(tool, sizeof(tool), "%s", in_dir("tool"));
	f = fopen(tool, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\necho '<html></html>'\n", f);
	fclose(f);
	setenv(EXPORT_TOOL_ENV, tool, 1);
	expect_unfit(ARGS("--export", same), "not an executable file"); /* not executable yet */
	assert_int_equal(chmod(tool, 0755), 0);
	assert_int_equal(check(ARGS("--export", same), err, sizeof(err)), 0);
	setenv(EXPORT_TIMEOUT_ENV, "soon", 1);
	expect_unfit(ARGS("--export", same), "CGOCOST_REPORT_TIMEOUT: 'soon' is not a number of seconds");
	setenv(EXPORT_TIMEOUT_ENV, "0", 1);
	expect_unfit(ARGS("--export", same), "is not a number of seconds");
	setenv(EXPORT_TIMEOUT_ENV, "2.5", 1);
	assert_int_equal(check(ARGS("--export", same), err, sizeof(err)), 0);
	unsetenv(EXPORT_TIMEOUT_ENV);
	/* without the override: beside this test program there is none */
	unsetenv(EXPORT_TOOL_ENV);
	expect_unfit(ARGS("--export", same), "needs cgocost-report beside bench (make all builds it)");

	unlink(tool);
	unlink(in_dir("fifo"));
	rmdir(in_dir("sub"));
	assert_int_equal(rmdir(dir), 0); /* the checks left no file behind */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_files_and_tool),
	};
	return cmocka_run_group_tests_name("exports", tests, NULL, NULL);
}
