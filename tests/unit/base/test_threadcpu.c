/* Unit tests of base/threadcpu.c: every thread's CPU time, read from its
 * own clock, up to the read. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/clock.h"
#include "base/threadcpu.h"

static atomic_int started, marked, spun, stop, spinner_tid;

/* Spins; once the window is marked, until its own CPU clock has moved
 * 0.5 ms past the mark, says so, and spins on until told to stop: still
 * running when the window is read. */
static void *spinner(void *arg)
{
	uint64_t t0;

	(void)arg;
	atomic_store(&spinner_tid, (int)gettid());
	atomic_store(&started, 1);
	while (!atomic_load(&marked) && !atomic_load(&stop))
		;
	t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < 500000 && !atomic_load(&stop))
		;
	atomic_store(&spun, 1);
	while (!atomic_load(&stop))
		;
	return NULL;
}

static void start_spinner(pthread_t *th)
{
	atomic_store(&started, 0);
	atomic_store(&marked, 0);
	atomic_store(&spun, 0);
	atomic_store(&stop, 0);
	assert_int_equal(pthread_create(th, NULL, spinner, NULL), 0);
}

static void nap(void)
{
	struct timespec d = { 0, 100000 };
	nanosleep(&d, NULL);
}

/* The per-thread clock of this thread is the one CLOCK_THREAD_CPUTIME_ID
 * reads: between two reads of the latter, a read of the former. */
static void test_the_clock_is_the_threads(void **state)
{
	uint64_t a, b, c;

	(void)state;
	a = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	b = clock_ns(threadcpu_clock(gettid()));
	c = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	assert_true(a <= b && b <= c);
}

/* A thread that spent 0.5 ms of CPU since the mark and is still running
 * counts at least that, whatever the scheduler tick (the process clock
 * adds a running thread's time only at a tick or a switch). The caller
 * naps meanwhile: under load the spinner takes longer, never less. */
static void test_a_running_thread_counts_to_the_read(void **state)
{
	struct threadcpu t;
	pthread_t th;
	uint64_t got;

	(void)state;
	start_spinner(&th);
	while (!atomic_load(&started))
		nap();
	assert_int_equal(threadcpu_list(&t), 0);
	assert_true(t.n >= 2);
	threadcpu_mark(&t);
	atomic_store(&marked, 1);
	while (!atomic_load(&spun))
		nap();
	got = threadcpu_since(&t);
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	assert_true(got >= 500000);
}

/* A thread started after the list is not counted: the window holds only
 * this thread's time, though the spinner spent 0.5 ms in it. */
static void test_a_thread_not_listed_is_not_counted(void **state)
{
	struct threadcpu t;
	pthread_t th;
	uint64_t got, mine0, mine;

	(void)state;
	assert_int_equal(threadcpu_list(&t), 0);
	start_spinner(&th);
	while (!atomic_load(&started))
		nap();
	for (int i = 0; i < t.n; i++) /* an earlier test's joined thread may linger in the list */
		assert_int_not_equal(t.tid[i], atomic_load(&spinner_tid));
	mine0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	threadcpu_mark(&t);
	atomic_store(&marked, 1);
	while (!atomic_load(&spun))
		nap();
	got = threadcpu_since(&t);
	mine = clock_ns(CLOCK_THREAD_CPUTIME_ID) - mine0;
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	assert_true(got <= mine);
}

/* A thread that ended between the mark and the read counts at most what
 * it ran in the window: its last clock while the kernel still holds it
 * (right after pthread_join it may), nothing once its clock is gone. Never
 * a wrapped-around sum: no more than this thread's own time plus the
 * window's wall time (the spinner cannot have run longer than that). */
static void test_an_ended_thread_counts_at_most_its_time(void **state)
{
	struct threadcpu t;
	pthread_t th;
	uint64_t got, mine0, mine, w0, w;

	(void)state;
	start_spinner(&th);
	while (!atomic_load(&started))
		nap();
	assert_int_equal(threadcpu_list(&t), 0);
	w0 = now_ns();
	mine0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	threadcpu_mark(&t);
	atomic_store(&marked, 1);
	while (!atomic_load(&spun))
		nap();
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	got = threadcpu_since(&t);
	mine = clock_ns(CLOCK_THREAD_CPUTIME_ID) - mine0;
	w = now_ns() - w0;
	assert_true(got <= mine + w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_clock_is_the_threads),
		cmocka_unit_test(test_a_running_thread_counts_to_the_read),
		cmocka_unit_test(test_a_thread_not_listed_is_not_counted),
		cmocka_unit_test(test_an_ended_thread_counts_at_most_its_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
