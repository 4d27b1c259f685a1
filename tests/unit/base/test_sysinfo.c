/* Unit tests of the thread placement of c/base/sysinfo.c that --worker-cpu
 * rests on: every thread but the kept ones pinned to one CPU, and the union
 * of their masks read back, which shows a thread that strayed (its mask
 * set after the pin, as a thread started from a caller inherits the
 * caller's). Needs CPUs 0 and 1 (skipped otherwise). */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/sysinfo.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int done;

static void *idle(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	while (!done)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int allowed_both(void)
{
	cpu_set_t set;
	return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_ISSET(0, &set) && CPU_ISSET(1, &set);
}

static void test_pin_others_and_read_back(void **state)
{
	pthread_t t[2];
	pid_t self = thread_id();
	cpu_set_t both, saved;
	int cpus[8], n;

	(void)state;
	if (!allowed_both())
		skip();
	sched_getaffinity(0, sizeof(saved), &saved);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, idle, NULL), 0);
	/* this thread kept; the two idle ones (and no other) pinned to CPU 1 */
	assert_int_equal(pin_others_to(&self, 1, 1), 2);
	n = others_allowed_cpus(&self, 1, cpus, 8);
	assert_int_equal(n, 1);
	assert_int_equal(cpus[0], 1);
	/* one thread strays to CPUs 0 and 1: the union shows it */
	CPU_ZERO(&both);
	CPU_SET(0, &both);
	CPU_SET(1, &both);
	assert_int_equal(pthread_setaffinity_np(t[1], sizeof(both), &both), 0);
	n = others_allowed_cpus(&self, 1, cpus, 8);
	assert_int_equal(n, 2);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 1);
	/* at most max CPUs are listed */
	assert_int_equal(others_allowed_cpus(&self, 1, cpus, 1), 1);
	/* no CPU: refused, nothing pinned */
	assert_int_equal(pin_others_to(&self, 1, -1), -1);
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	/* no thread but the kept one: nothing to read */
	assert_int_equal(others_allowed_cpus(&self, 1, cpus, 8), -1);
	sched_setaffinity(0, sizeof(saved), &saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pin_others_and_read_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
