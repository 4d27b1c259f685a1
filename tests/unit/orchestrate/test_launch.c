/* tests/unit/orchestrate/test_launch.c — the launch protocol
 * (orchestrate/launch.h) end to end against a fake child: this test
 * program run again as "SELF --fake WHAT --emit-launch", which plays
 * bench --emit-launch: it prints a valid document (made with the codec),
 * or garbage, or nothing, or ends with a child's internal statuses and its
 * message on stderr, or crashes. Each case checks the status
 * launch_document returns, the one-line reason it gives (the child's own
 * message where it has one), the cells it parsed, and that no process is
 * left behind. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/status.h"
#include "model/codec.h"
#include "model/model.h"
#include "model_fixture.h"
#include "orchestrate/launch.h"

#define CELL "lib=archive/mode=sync/work=noop/p=1"

static char self[4096];

/* --- the fake child ----------------------------------------------------------- */

static void say(int fd, const char *s)
{
	size_t len = strlen(s);

	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, s + done, len - done);
		if (n <= 0)
			_exit(99);
		done += (size_t)n;
	}
}

/* The document one launch of one cell prints: one launch at 123 ns. */
static void good_document(struct doc *d)
{
	fixture_doc(d);
	d->options.emit_launch = 1;
	fixture_cell(d, "archive", "sync", fixture_launches(1, 123, 0, 150), 1);
}

static int print_document(int compact)
{
	struct doc d;
	char *text;

	good_document(&d);
	text = doc_dumps(&d, compact);
	doc_free(&d);
	if (text == NULL)
		return 98;
	say(1, text);
	free(text);
	return 0;
}

static int fake(const char *what, int argc, char **argv)
{
	struct rlimit none = { 0, 0 };

	/* bench's parent always ends a launch's arguments with --emit-launch */
	if (strcmp(argv[argc - 1], "--emit-launch") != 0)
		return 97;
	if (strcmp(what, "document") == 0)
		return print_document(1);
	if (strcmp(what, "document-noisy") == 0) {
		say(2, "bench: warning: the machine is busy\n");
		return print_document(0);
	}
	if (strcmp(what, "garbage") == 0) {
		say(1, "this is not JSON\n");
		return 0;
	}
	if (strcmp(what, "not-a-document") == 0) {
		say(1, "{\"schema_version\": 2}\n");
		return 0;
	}
	if (strcmp(what, "nothing") == 0)
		return 0;
	if (strcmp(what, "bad-input") == 0) {
		say(2, "bench: --plugin x.so: cannot open shared object file\n");
		return EXIT_CHILD_BAD_INPUT;
	}
	if (strcmp(what, "bad-input-silent") == 0)
		return EXIT_CHILD_BAD_INPUT;
	if (strcmp(what, "stalled") == 0) {
		say(1, "{\"half\":");
		say(2, "bench: warning: something first\nbench: caller 1 made no progress for 10 s\n");
		return EXIT_CHILD_STALLED;
	}
	if (strcmp(what, "failed") == 0) {
		say(2, "bench: the clock went backwards\n");
		return EXIT_RUN_FAILED;
	}
	if (strcmp(what, "crash") == 0) {
		setrlimit(RLIMIT_CORE, &none);
		say(1, "{\"schema_version\": 2, \"cel");
		signal(SIGSEGV, SIG_DFL); /* whatever the Go runtime installed */
		raise(SIGSEGV);
		return 96;
	}
	return 95;
}

/* --- helpers ------------------------------------------------------------------ */

static void no_child_left(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* Runs the fake child as a parent runs a launch; its status, its reason in
 * err (checked to be one line), the document in d. */
static int launch(const char *what, struct doc *d, char *err, size_t errlen)
{
	char *argv[] = { self, (char *)"--fake", (char *)what, (char *)"--emit-launch", NULL };
	int rc;

	memset(d, 0, sizeof(*d));
	snprintf(err, errlen, "untouched");
	rc = launch_document(argv, d, err, errlen);
	no_child_left();
	if (rc != EXIT_OK) {
		assert_null(strchr(err, '\n'));
		assert_true(err[0] != '\0');
	}
	return rc;
}

/* err is "launch of SELF " how rest */
static void want_reason(const char *err, const char *how, const char *rest)
{
	char want[8192];

	snprintf(want, sizeof(want), "launch of %s %s%s", self, how, rest);
	assert_string_equal(err, want);
}

/* err starts "launch of SELF printed no valid document (" and ends ")" */
static void want_no_document(const char *err)
{
	char want[8192];

	snprintf(want, sizeof(want), "launch of %s printed no valid document (", self);
	if (strncmp(err, want, strlen(want)) != 0 || err[strlen(err) - 1] != ')')
		fail_msg("'%s' is not '%s...)'", err, want);
}

/* --- the cases ---------------------------------------------------------------- */

static void check_good(struct doc *d)
{
	struct doc expect;

	good_document(&expect);
	assert_int_equal(d->schema_version, SCHEMA_VERSION);
	assert_string_equal(d->machine.cpu_model, "Test CPU");
	assert_int_equal(d->options.n, 1000);
	assert_int_equal(d->ncells, 1);
	assert_string_equal(d->cells[0].name, CELL);
	assert_string_equal(d->cells[0].in_effect, "sync");
	assert_int_equal(d->cells[0].nlaunches, 1);
	assert_int_equal(d->cells[0].launches[0].ncallers, 1);
	assert_true(d->cells[0].launches[0].ns_per_extraction == 123.0);
	assert_int_equal(d->cells[0].launches[0].callers[0].nbatches, expect.cells[0].launches[0].callers[0].nbatches);
	assert_int_equal(d->cells[0].launches[0].callers[0].batches[1].ns,
			 expect.cells[0].launches[0].callers[0].batches[1].ns);
	doc_free(&expect);
}

static void test_good_document(void **state)
{
	struct doc d;
	char err[1024];

	(void)state;
	assert_int_equal(launch("document", &d, err, sizeof(err)), EXIT_OK);
	check_good(&d);
	doc_free(&d);

	/* indented, with a warning on stderr: still a launch */
	assert_int_equal(launch("document-noisy", &d, err, sizeof(err)), EXIT_OK);
	check_good(&d);
	doc_free(&d);
}

static void test_output_that_is_no_document(void **state)
{
	struct doc d;
	char err[1024];

	(void)state;
	assert_int_equal(launch("garbage", &d, err, sizeof(err)), EXIT_RUN_FAILED);
	want_no_document(err);
	assert_non_null(strstr(err, "JSON error at line 1"));
	assert_int_equal(d.ncells, 0);
	assert_null(d.cells);

	assert_int_equal(launch("nothing", &d, err, sizeof(err)), EXIT_RUN_FAILED);
	want_no_document(err);
	assert_int_equal(d.ncells, 0);

	/* JSON, but not the document's shape: the codec names what is wrong */
	assert_int_equal(launch("not-a-document", &d, err, sizeof(err)), EXIT_RUN_FAILED);
	want_no_document(err);
	assert_null(strstr(err, "JSON error"));
	assert_int_equal(d.ncells, 0);
}

static void test_child_statuses(void **state)
{
	struct doc d;
	char err[1024];

	(void)state;
	/* bad input: the child's message alone, the parent adds its hint */
	assert_int_equal(launch("bad-input", &d, err, sizeof(err)), EXIT_BAD_INPUT);
	assert_string_equal(err, "--plugin x.so: cannot open shared object file");
	assert_int_equal(d.ncells, 0);

	/* the bad-input status with no word: no bench ends so, a failed run
	 * whose message names the launch, never an empty line */
	assert_int_equal(launch("bad-input-silent", &d, err, sizeof(err)), EXIT_RUN_FAILED);
	want_reason(err, "failed: ", "exit 5 (bad input) with no message");
	assert_int_equal(d.ncells, 0);

	/* a stall: its last word, the parent runs the launch again */
	assert_int_equal(launch("stalled", &d, err, sizeof(err)), EXIT_CHILD_STALLED);
	want_reason(err, "failed: ", "bench: caller 1 made no progress for 10 s");
	assert_int_equal(d.ncells, 0);

	assert_int_equal(launch("failed", &d, err, sizeof(err)), EXIT_RUN_FAILED);
	want_reason(err, "failed: ", "exit 3: bench: the clock went backwards");
	assert_int_equal(d.ncells, 0);
}

static void test_crash(void **state)
{
	struct doc d;
	char err[1024], rest[256];

	(void)state;
	assert_int_equal(launch("crash", &d, err, sizeof(err)), EXIT_RUN_FAILED);
	snprintf(rest, sizeof(rest), "killed by signal %d (%s)", SIGSEGV, strsignal(SIGSEGV));
	want_reason(err, "crashed: ", rest);
	assert_int_equal(d.ncells, 0);
}

static void test_cannot_run(void **state)
{
	char *argv[] = { (char *)"/nonexistent/bench", (char *)"--emit-launch", NULL }, err[1024];
	struct doc d;

	(void)state;
	memset(&d, 0, sizeof(d));
	assert_int_equal(launch_document(argv, &d, err, sizeof(err)), EXIT_RUN_FAILED);
	assert_string_equal(err, "launch of /nonexistent/bench failed: exit 127: "
				 "cannot run /nonexistent/bench: No such file or directory");
	no_child_left();
}

/* A reason longer than err is cut, not overrun. */
static void test_small_err(void **state)
{
	struct doc d;
	char err[16 + 1];

	(void)state;
	memset(err, 'x', sizeof(err));
	assert_int_equal(launch("failed", &d, err, sizeof(err) - 1), EXIT_RUN_FAILED);
	assert_int_equal(strlen(err), sizeof(err) - 2);
	assert_int_equal(err[sizeof(err) - 1], 'x');
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_document),  cmocka_unit_test(test_output_that_is_no_document),
		cmocka_unit_test(test_child_statuses), cmocka_unit_test(test_crash),
		cmocka_unit_test(test_cannot_run),     cmocka_unit_test(test_small_err),
	};
	ssize_t n;

	if (argc >= 3 && strcmp(argv[1], "--fake") == 0)
		return fake(argv[2], argc, argv);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
