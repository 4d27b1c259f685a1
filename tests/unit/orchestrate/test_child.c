/* tests/unit/orchestrate/test_child.c — the child-process API
 * (orchestrate/child.h) against a fake child: this test program run again
 * with "--fake WHAT", which speaks the protocol and misbehaves as asked.
 * Each case checks how the child ended, what it printed, and that nothing
 * is left running: the child is reaped (kill(pid, 0) fails with ESRCH) and
 * this process has no child left. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/status.h"
#include "orchestrate/child.h"
#include "timing/blocks.h"

#define BIG_OUT (1 << 20)   /* bytes of stdout: many pipe buffers */
#define BIG_ERR (200 << 10) /* bytes of stderr, at the same time */

static char self[4096];

/* --- the fake child ----------------------------------------------------------- */

static void say(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		_exit(99);
}

static void spew(int fd, size_t n, char ch)
{
	char buf[4096];

	memset(buf, ch, sizeof(buf));
	for (size_t done = 0; done < n; done += sizeof(buf))
		if (write(fd, buf, n - done < sizeof(buf) ? n - done : sizeof(buf)) < 0)
			_exit(99);
}

/* A grandchild in the child's process group that sleeps for ever, holding
 * the child's stdout and stderr; its pid is the child's first line. */
static void grandchild(void)
{
	pid_t g = fork();
	char line[64];

	if (g == 0)
		for (;;)
			pause();
	snprintf(line, sizeof(line), "%d\n", (int)g);
	say(1, line);
}

/* An answer on fd 4 for each command on fd 3, as a paired cell gives. */
static int serve(void)
{
	struct block_cmd c;
	struct block_reply r;

	memset(&r, 0, sizeof(r));
	r.calls = 7;
	if (write(BLOCKS_REPLY_FD, &r, sizeof(r)) != (ssize_t)sizeof(r))
		return 98;
	while (read(BLOCKS_CMD_FD, &c, sizeof(c)) == (ssize_t)sizeof(c) && c.op != BLOCK_END) {
		r.ns = c.lead_in_ns + 1;
		if (write(BLOCKS_REPLY_FD, &r, sizeof(r)) != (ssize_t)sizeof(r))
			return 98;
	}
	say(1, "{\"served\":true}\n");
	return 0;
}

static int fake(const char *what)
{
	struct rlimit none = { 0, 0 };

	if (strcmp(what, "ok") == 0) {
		say(1, "the document\n");
		say(2, "a remark\n");
		return 0;
	}
	if (strcmp(what, "status") == 0) {
		say(2, "fake: something went wrong\nfake: the last word\n");
		return 9;
	}
	if (strcmp(what, "bad-input") == 0) {
		say(2, "bench: --plugin x.so: no such library\n");
		return EXIT_CHILD_BAD_INPUT;
	}
	if (strcmp(what, "stalled") == 0) {
		say(2, "bench: caller 0 made no progress for 1 s\n");
		return EXIT_CHILD_STALLED;
	}
	if (strcmp(what, "crash") == 0) {
		setrlimit(RLIMIT_CORE, &none);
		say(1, "half a docu");
		signal(SIGSEGV, SIG_DFL); /* whatever runtime is linked in */
		raise(SIGSEGV);
		return 97;
	}
	if (strcmp(what, "panic") == 0) {
		say(2, "some output\npanic: runtime error: index out of range [3] with length 3\n\n"
		       "goroutine 1 [running]:\nmain.main()\n\t/x/main.go:5 +0x1d\nexit status 2\n");
		return 2;
	}
	if (strcmp(what, "usage") == 0) { /* a program that is no bench */
		say(2, "x: invalid option -- '-'\nusage: x [-a] [-n count >= 1]\n");
		return 2;
	}
	if (strcmp(what, "hang") == 0) {
		grandchild(); /* holding the pipes open too */
		for (;;)
			pause();
	}
	if (strcmp(what, "big") == 0) {
		spew(1, BIG_OUT, 'o');
		spew(2, BIG_ERR, 'e');
		return 0;
	}
	if (strcmp(what, "leaves") == 0) {
		grandchild(); /* a wrapper's `sleep 1000 &`; the child itself done */
		return 0;
	}
	if (strcmp(what, "escapes") == 0) {
		/* a wrapper's `setsid sleep 1000 &`: out of the child's group */
		pid_t g = fork();
		char line[64];
		if (g == 0) {
			setsid();
			for (;;)
				pause();
		}
		snprintf(line, sizeof(line), "%d\n", (int)g);
		say(1, line);
		return 0;
	}
	if (strcmp(what, "flood") == 0) /* like `yes`: until something stops it */
		for (;;)
			spew(1, 1 << 20, 'y');
	if (strcmp(what, "serve") == 0)
		return serve();
	if (strcmp(what, "burn") == 0 || strcmp(what, "burn-forever") == 0) {
		/* a child slowed by a loaded machine: it works (spins) for 2.5 s
		 * of wall time, then answers; or for ever */
		struct timespec t0, t;
		volatile uint64_t spins = 0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			for (int i = 0; i < 100000; i++)
				spins++;
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while (what[4] == '-' || (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < 2500);
		say(1, "burnt\n");
		return 0;
	}
	if (strcmp(what, "chatter") == 0) { /* a line every 20 ms for ever: little CPU */
		struct timespec nap = { 0, 20000000 };
		for (;;) {
			say(2, "still here\n");
			nanosleep(&nap, NULL);
		}
	}
	return 96;
}

/* --- helpers ---------------------------------------------------------------- */

static void no_child_left(pid_t pid)
{
	assert_true(pid > 0);
	errno = 0;
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(errno, ESRCH);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* The grandchild, adopted by this process (a subreaper) when the child
 * ended, was killed and reaped by child_reap itself: nothing is left for
 * this test to reap, and it no longer exists. */
static void adopted_and_reaped(pid_t grandchild, int *status)
{
	errno = 0;
	assert_int_equal(waitpid(grandchild, status, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	errno = 0;
	assert_int_equal(kill(grandchild, 0), -1);
	assert_int_equal(errno, ESRCH);
}

/* The child's output names its grandchild; once the child is closed, the
 * grandchild was adopted by this process (a subreaper), killed and reaped
 * by child_reap, and neither is left. */
static void child_closed_and_grandchild_gone(struct child *c, pid_t pid)
{
	pid_t grandchild = (pid_t)atoi(c->output);
	int status;

	assert_true(grandchild > 0);
	child_close(c);
	adopted_and_reaped(grandchild, &status);
	no_child_left(pid);
	no_child_left(grandchild);
}

/* Runs the fake child as asked with its output in pipes, ended within
 * timeout_ms; its pid in *pid. */
static enum child_kind run_fake(struct child *c, const char *what, int timeout_ms, char *why, size_t len, pid_t *pid)
{
	char *argv[] = { self, (char *)"--fake", (char *)what, NULL }, err[256];

	child_init(c, 0);
	assert_int_equal(child_spawn(c, CHILD_PIPES, argv, err, sizeof(err)), 0);
	*pid = c->pid;
	assert_true(*pid > 0);
	return child_end(c, timeout_ms, why, len);
}

/* --- the cases ---------------------------------------------------------------- */

static void test_exit_zero_with_output(void **state)
{
	struct child c;
	char why[600] = "x";
	pid_t pid;

	(void)state;
	assert_int_equal(run_fake(&c, "ok", -1, why, sizeof(why), &pid), CHILD_OK);
	assert_string_equal(why, "");
	assert_int_equal(c.rc, 0);
	assert_int_equal(c.signo, 0);
	assert_false(c.timed_out);
	assert_string_equal(c.output, "the document\n");
	assert_string_equal(c.errors, "a remark\n");
	assert_int_equal(c.pid, 0);
	child_close(&c);
	assert_null(c.output);
	no_child_left(pid);
}

static void test_exit_statuses(void **state)
{
	struct child c;
	char why[600];
	pid_t pid;

	(void)state;
	assert_int_equal(run_fake(&c, "status", -1, why, sizeof(why), &pid), CHILD_FAILED);
	assert_int_equal(c.rc, 9);
	assert_string_equal(why, "exit 9: fake: the last word");
	assert_string_equal(c.output, "");
	child_close(&c);
	no_child_left(pid);

	assert_int_equal(run_fake(&c, "bad-input", -1, why, sizeof(why), &pid), CHILD_BAD_INPUT);
	assert_string_equal(why, "--plugin x.so: no such library");
	child_close(&c);
	no_child_left(pid);

	assert_int_equal(run_fake(&c, "stalled", -1, why, sizeof(why), &pid), CHILD_STALLED);
	assert_string_equal(why, "bench: caller 0 made no progress for 1 s");
	child_close(&c);
	no_child_left(pid);
}

/* A child's bad-input message loses its program name and its hint (the
 * parent adds its own: the hint came twice); a parenthesis that is no hint
 * stays. */
static void test_bad_input_message_without_its_hint(void **state)
{
	char why[600];

	(void)state;
	assert_int_equal(child_classify(EXIT_CHILD_BAD_INPUT, 0, "bench: unknown option --bogus (see bench --help)\n",
					why, sizeof(why)),
			 CHILD_BAD_INPUT);
	assert_string_equal(why, "unknown option --bogus");
	assert_int_equal(
		child_classify(EXIT_CHILD_BAD_INPUT, 0, "bench: -p 9: too many (see the limit)\n", why, sizeof(why)),
		CHILD_BAD_INPUT);
	assert_string_equal(why, "-p 9: too many (see the limit)");
	/* only a hint (found by fuzz_childerr): kept, never an empty reason */
	assert_int_equal(child_classify(EXIT_CHILD_BAD_INPUT, 0, "bench: x\n (see bench --help)\n", why, sizeof(why)),
			 CHILD_BAD_INPUT);
	assert_string_equal(why, " (see bench --help)");
}

static void test_crash_by_signal(void **state)
{
	struct child c;
	char why[600], want[200];
	pid_t pid;

	(void)state;
	assert_int_equal(run_fake(&c, "crash", -1, why, sizeof(why), &pid), CHILD_CRASHED);
	assert_int_equal(c.rc, -1);
	assert_int_equal(c.signo, SIGSEGV);
	snprintf(want, sizeof(want), "killed by signal %d (%s)", SIGSEGV, strsignal(SIGSEGV));
	assert_string_equal(why, want);
	assert_string_equal(c.output, "half a docu");
	child_close(&c);
	no_child_left(pid);
}

static void test_go_panic(void **state)
{
	struct child c;
	char why[600];
	pid_t pid;

	(void)state;
	assert_int_equal(run_fake(&c, "panic", -1, why, sizeof(why), &pid), CHILD_PANICKED);
	assert_int_equal(c.rc, 2);
	assert_string_equal(why, "the Go runtime ended the process (exit 2): "
				 "panic: runtime error: index out of range [3] with length 3 | "
				 "goroutine 1 [running]: | main.main()");
	child_close(&c);
	no_child_left(pid);
}

/* Exit 2 without a Go runtime's panic or fatal error is a program that
 * refused its arguments, not a crash (issue 36: --against bench-minimal
 * was said to have crashed). */
static void test_usage_error_is_no_crash(void **state)
{
	struct child c;
	char why[600];
	pid_t pid;

	(void)state;
	assert_int_equal(run_fake(&c, "usage", -1, why, sizeof(why), &pid), CHILD_FAILED);
	assert_int_equal(c.rc, 2);
	assert_string_equal(why,
			    "it refused its arguments (exit 2, no Go runtime error): usage: x [-a] [-n count >= 1]");
	child_close(&c);
	no_child_left(pid);
}

/* A child that hangs is killed at the timeout, its whole group with it
 * (the grandchild comes to this process, a subreaper, to be reaped). */
static void test_hang_is_killed_by_the_timeout(void **state)
{
	struct child c;
	char why[600], want[200];
	pid_t pid;
	struct timespec t0, t1;
	double s;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run_fake(&c, "hang", 300, why, sizeof(why), &pid), CHILD_CRASHED);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_true(s >= 0.29 && s < 5.0);
	assert_true(c.timed_out);
	assert_int_equal(c.signo, SIGKILL);
	snprintf(want, sizeof(want), "killed by signal %d (%s)", SIGKILL, strsignal(SIGKILL));
	assert_string_equal(why, want);
	child_closed_and_grandchild_gone(&c, pid);
}

static double since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A child that works past its timeout (a loaded machine slows it: here it
 * spins 2.5 s against a timeout of 1 s; 6 s at most, time enough for a
 * start on a loaded machine) is waited for while its group uses CPU: it
 * ends as it would have, not killed. */
static void test_slow_child_that_works_is_waited_for(void **state)
{
	struct child c;
	char why[600];
	pid_t pid;
	struct timespec t0;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run_fake(&c, "burn", 1000, why, sizeof(why), &pid), CHILD_OK);
	assert_true(since(&t0) >= 2.45);
	assert_false(c.timed_out);
	assert_string_equal(c.output, "burnt\n");
	child_close(&c);
	no_child_left(pid);
}

/* One that works for ever is killed at the most the deadline allows,
 * CHILD_BUSY_MAX_FACTOR times its timeout (1.8 s for 0.3 s), and says it
 * was busy; one that only prints, every 20 ms (which kept every poll
 * busy: it was never killed), is killed within its deadline all the same
 * (at its timeout of 1 s; on a loaded machine its waits for a CPU between
 * two lines may count as work, and it ends by 6 s). */
static void test_deadline_of_a_busy_and_of_a_chatty_child(void **state)
{
	struct child c;
	char why[600];
	pid_t pid;
	struct timespec t0;
	double s;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run_fake(&c, "burn-forever", 300, why, sizeof(why), &pid), CHILD_CRASHED);
	s = since(&t0);
	assert_true(c.timed_out && c.busy);
	assert_true(c.waited_ms >= CHILD_BUSY_MAX_FACTOR * 300 && s >= 1.75 && s < 10.0);
	assert_int_equal(c.signo, SIGKILL);
	child_close(&c);
	no_child_left(pid);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run_fake(&c, "chatter", 1000, why, sizeof(why), &pid), CHILD_CRASHED);
	s = since(&t0);
	assert_true(c.timed_out);
	assert_true(c.waited_ms >= 1000 && s >= 0.99 && s < 6.0 + 5.0);
	assert_non_null(strstr(c.errors, "still here\n"));
	child_close(&c);
	no_child_left(pid);
}

/* More than a pipe buffer on both stdout and stderr at once: read while it
 * runs, none lost, no deadlock. */
static void test_big_output(void **state)
{
	struct child c;
	char why[600];
	pid_t pid;

	(void)state;
	assert_int_equal(run_fake(&c, "big", 10000, why, sizeof(why), &pid), CHILD_OK);
	assert_int_equal(strlen(c.output), BIG_OUT);
	assert_int_equal(strlen(c.errors), BIG_ERR);
	assert_int_equal(strspn(c.output, "o"), BIG_OUT);
	assert_int_equal(strspn(c.errors, "e"), BIG_ERR);
	child_close(&c);
	no_child_left(pid);
}

/* A child that never stops printing is killed at the cap, not read until
 * the parent's memory is gone; with its output in files (a paired cell) the
 * file-size limit set in it stops it at the same cap. */
static void test_flood_is_capped(void **state)
{
	const size_t cap = 1 << 20;
	char *argv[] = { self, (char *)"--fake", (char *)"flood", NULL }, err[256], why[600];
	struct child c;
	pid_t pid;

	(void)state;
	child_output_limit(cap);
	assert_int_equal(run_fake(&c, "flood", -1, why, sizeof(why), &pid), CHILD_FAILED);
	assert_string_equal(why, "printed more than 1048576 bytes (the cap on a child's output): killed");
	assert_true(c.flooded);
	assert_true(strlen(c.output) > cap && strlen(c.output) < 2 * cap + 65536);
	child_close(&c);
	no_child_left(pid);

	child_init(&c, 0);
	assert_int_equal(child_spawn(&c, CHILD_SERVER, argv, err, sizeof(err)), 0);
	pid = c.pid;
	assert_int_equal(child_end(&c, 10000, why, sizeof(why)), CHILD_FAILED);
	assert_false(c.timed_out); /* it was stopped by the limit, not by the timeout */
	/* a file at the cap is a flood: said so, and not read into memory */
	assert_true(c.flooded);
	assert_string_equal(why, "printed more than 1048576 bytes (the cap on a child's output): killed");
	assert_non_null(c.output);
	assert_int_equal(strlen(c.output), 0);
	child_close(&c);
	no_child_left(pid);
	child_output_limit(CHILD_OUTPUT_MAX);
}

/* A child that exits leaving a grandchild that holds its stdout: the run
 * does not wait for the grandchild (no timeout is given), and the
 * grandchild is killed, not left to init. */
static void test_leftovers_are_killed(void **state)
{
	struct child c;
	char why[600];
	pid_t pid;

	(void)state;
	assert_int_equal(run_fake(&c, "leaves", -1, why, sizeof(why), &pid), CHILD_OK);
	assert_false(c.timed_out);
	child_closed_and_grandchild_gone(&c, pid);
}

/* A grandchild that left the child's process group (setsid) is out of
 * reach of the group's kill; it is adopted when the child ends (the
 * driver is a subreaper) and killed and reaped with the child, not left to
 * init. */
static void test_escaped_grandchild_is_killed(void **state)
{
	struct child c;
	char why[600];
	pid_t pid;

	(void)state;
	assert_int_equal(run_fake(&c, "escapes", -1, why, sizeof(why), &pid), CHILD_OK);
	child_closed_and_grandchild_gone(&c, pid);
}

/* A program that cannot be executed: it says so and ends with 127. */
static void test_cannot_run(void **state)
{
	struct child c;
	char *argv[] = { (char *)"/nonexistent/bench", NULL }, why[600];

	(void)state;
	assert_int_equal(child_run(&c, argv, why, sizeof(why)), CHILD_FAILED);
	assert_string_equal(why, "exit 127: cannot run /nonexistent/bench: No such file or directory");
	assert_int_equal(c.rc, 127);
	assert_int_equal(c.pid, 0);
	child_close(&c);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* A paired cell: commands on fd 3, replies on fd 4, output in files; then
 * one that is still running when closed is killed and reaped. */
static void test_server_pipes(void **state)
{
	char *argv[] = { self, (char *)"--fake", (char *)"serve", NULL }, err[256], why[600];
	struct child c;
	struct block_cmd cmd = { .op = BLOCK_RUN, .lead_in_ns = 41 };
	struct block_reply r;
	pid_t pid;

	(void)state;
	child_init(&c, 3);
	assert_int_equal(child_spawn(&c, CHILD_SERVER, argv, err, sizeof(err)), 0);
	pid = c.pid;
	assert_int_equal(read(c.reply, &r, sizeof(r)), sizeof(r));
	assert_int_equal(r.calls, 7);
	assert_int_equal(write(c.cmd, &cmd, sizeof(cmd)), sizeof(cmd));
	assert_int_equal(read(c.reply, &r, sizeof(r)), sizeof(r));
	assert_int_equal(r.ns, 42);
	cmd.op = BLOCK_END;
	assert_int_equal(write(c.cmd, &cmd, sizeof(cmd)), sizeof(cmd));
	assert_int_equal(child_end(&c, 10000, why, sizeof(why)), CHILD_OK);
	assert_string_equal(c.output, "{\"served\":true}\n");
	assert_string_equal(c.errors, "");
	child_close(&c);
	no_child_left(pid);

	/* never told to end: child_close kills it */
	child_init(&c, 3);
	assert_int_equal(child_spawn(&c, CHILD_SERVER, argv, err, sizeof(err)), 0);
	pid = c.pid;
	assert_int_equal(read(c.reply, &r, sizeof(r)), sizeof(r));
	child_close(&c);
	assert_int_equal(c.pid, 0);
	assert_int_equal(c.cmd, -1);
	assert_int_equal(c.reply, -1);
	no_child_left(pid);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_zero_with_output),
		cmocka_unit_test(test_exit_statuses),
		cmocka_unit_test(test_bad_input_message_without_its_hint),
		cmocka_unit_test(test_crash_by_signal),
		cmocka_unit_test(test_go_panic),
		cmocka_unit_test(test_usage_error_is_no_crash),
		cmocka_unit_test(test_hang_is_killed_by_the_timeout),
		cmocka_unit_test(test_slow_child_that_works_is_waited_for),
		cmocka_unit_test(test_deadline_of_a_busy_and_of_a_chatty_child),
		cmocka_unit_test(test_big_output),
		cmocka_unit_test(test_flood_is_capped),
		cmocka_unit_test(test_leftovers_are_killed),
		cmocka_unit_test(test_escaped_grandchild_is_killed),
		cmocka_unit_test(test_cannot_run),
		cmocka_unit_test(test_server_pipes),
	};
	ssize_t n;

	if (argc == 3 && strcmp(argv[1], "--fake") == 0)
		return fake(argv[2]);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	/* orphans of the fake children come here, to be reaped and checked */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
