/* Unit tests of c/base/interrupt.c: a signal that lands while another
 * thread is starting a child still kills that child. The handler exits the
 * process, so each case runs in a process of its own (the "driver"), and
 * this test, its parent, looks at what is left afterwards. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/interrupt.h"

static int report[2], started[2];

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* In the driver: a thread that forks a child the way orchestrate/child.c
 * does, slow between the fork and the slot (where the handler once looked
 * past it), and writes the child's pid to report. */
static void *spawner(void *arg)
{
	sigset_t old;
	pid_t pid;
	char go = 1;

	(void)arg;
	interrupt_fork_begin(&old);
	if (write(started[1], &go, 1) != 1)
		_exit(90);
	sleep_ms(300); /* the signal arrives here, on the main thread */
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	interrupt_child_slot(0, pid);
	if (write(report[1], &pid, sizeof(pid)) != (ssize_t)sizeof(pid))
		_exit(91);
	interrupt_fork_end(&old);
	for (;;)
		pause();
	return NULL;
}

static void driver(void)
{
	pthread_t t;
	char go;

	int null = open("/dev/null", O_WRONLY);

	if (null >= 0)
		dup2(null, 2); /* its one line ("interrupted by SIGTERM") is not ours */
	interrupt_install("test_interrupt");
	if (pthread_create(&t, NULL, spawner, NULL) != 0)
		_exit(92);
	if (read(started[0], &go, 1) != 1)
		_exit(93);
	kill(getpid(), SIGTERM);
	for (;;)
		pause();
}

static void test_signal_during_a_fork_kills_its_child(void **state)
{
	pid_t drv, child = 0;
	int status = 0;

	(void)state;
	assert_int_equal(pipe(report), 0);
	assert_int_equal(pipe(started), 0);
	drv = fork();
	assert_true(drv >= 0);
	if (drv == 0)
		driver();
	close(report[1]);
	close(started[1]);
	assert_int_equal(waitpid(drv, &status, 0), drv);
	assert_int_equal(read(report[0], &child, sizeof(child)), (ssize_t)sizeof(child));
	close(report[0]);
	close(started[0]);
	/* the handler waited for the fork, killed its child, then exited */
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 128 + SIGTERM);
	assert_true(child > 0);
	for (int i = 0; i < 100 && kill(child, 0) == 0; i++)
		sleep_ms(10); /* a zombie for a moment, until init reaps it */
	if (kill(child, 0) == 0) {
		kill(child, SIGKILL);
		fail_msg("the child started during the signal, pid %d, is still running", (int)child);
	}
	assert_int_equal(errno, ESRCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_during_a_fork_kills_its_child),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
