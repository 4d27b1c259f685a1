/* test_refhandoff.c — the reference C->Go spin handoff answers every request
 * exactly once, carries the event and the result, wakes its worker from a
 * futex sleep, and stops when asked; a timed batch that needed a wake-up is
 * never part of a figure. No timing is asserted (the machine may be
 * loaded: a step may legitimately fail to fill its batches). */
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "plugin/goruntime.h"
#include "timing/floorcheck.h"
#include "timing/refhandoff.h"

static void test_every_request_answered_once(void **state)
{
	struct ref_result r;
	char err[256] = "";
	struct plugin_syms syms;
	void (*start)(struct ref_handoff *);
	(void)state;

	assert_int_equal(plugin_syms_builtin(&syms), 0);
	goruntime_register(&syms);
	start = goruntime_ref_start();
	assert_non_null(start);
	/* without a Go runtime: nothing measured, every figure undefined */
	assert_int_equal(ref_measure(&r, NULL, REF_SPIN_ROUNDS, 3000, 3, 100, err, sizeof(err)), 0);
	assert_true(isnan(r.step_ns[REF_BARE]) && isnan(r.wake_ns));

	for (int round = 0; round < 3; round++) { /* a new worker each time, the last one stopped */
		assert_int_equal(ref_measure(&r, start, REF_SPIN_ROUNDS, 3000, 3, 100, err, sizeof(err)), 0);
		assert_int_equal(r.answered, r.requests);
		if (r.short_step >= 0) { /* a loaded machine: that step and those after it are no figures */
			assert_true(r.wakeups[r.short_step] > 0 && r.dropped[r.short_step] > 0);
			for (int s = r.short_step; s <= REF_RESULT; s++)
				assert_true(isnan(r.step_ns[s]) && isnan(r.step_min_ns[s]));
			continue;
		}
		/* three steps of warm-up and timed handoffs, then the wake-ups */
		assert_true(r.requests >= 3 * (3000 + 100));
		for (int s = REF_BARE; s <= REF_RESULT; s++) {
			assert_true(isfinite(r.step_ns[s]) && r.step_ns[s] > 0);
			assert_true(r.step_min_ns[s] <= r.step_ns[s] && r.step_ns[s] <= r.step_max_ns[s]);
			assert_true(r.tries[s] >= 3 && r.dropped[s] == r.tries[s] - 3); /* every try kept or dropped */
			/* a batch is dropped at its first wake-up, or off CPU */
			assert_true(r.offcpu[s] <= r.dropped[s] && r.wakeups[s] == r.dropped[s] - r.offcpu[s]);
		}
		assert_true(isfinite(r.wake_ns) && r.wake_ns > 0);
	}
}

/* A worker that never spins (spin 0) takes its sleep path between almost
 * every two requests: no timed batch is free of wake-ups, so no step gets a
 * figure, and every dropped batch is counted with its wake-ups. */
static void test_sleep_path_is_no_figure(void **state)
{
	struct ref_result r;
	char err[256] = "";
	struct plugin_syms syms;
	void (*start)(struct ref_handoff *);
	(void)state;

	assert_int_equal(plugin_syms_builtin(&syms), 0);
	goruntime_register(&syms);
	start = goruntime_ref_start();
	assert_non_null(start);
	assert_int_equal(ref_measure(&r, start, 0, 2000, 10, 100, err, sizeof(err)), 0);
	assert_int_equal(r.short_step, REF_BARE);
	assert_true(r.kept < 10);
	/* no clean batch in FLOOR_TRIES times the batches: given up then, not
	 * after FLOOR_BUDGET_NS (a worker that sleeps between requests) */
	assert_int_equal(r.kept, 0);
	assert_int_equal(r.tries[REF_BARE], FLOOR_TRIES * 10);
	assert_true(r.dropped[REF_BARE] == r.tries[REF_BARE] - r.kept);
	assert_true(r.wakeups[REF_BARE] >= r.dropped[REF_BARE]);
	assert_int_equal(ref_wakeups(&r), r.wakeups[REF_BARE]);
	for (int s = REF_BARE; s <= REF_RESULT; s++)
		assert_true(isnan(r.step_ns[s]) && isnan(r.step_min_ns[s]) && isnan(r.step_max_ns[s]));
	assert_true(isnan(r.wake_ns));
	assert_int_equal(r.answered, r.requests); /* and the worker stopped: ref_measure returned 0 */
}

/* The first CPU this process may run on. */
static int allowed_cpu(void)
{
	cpu_set_t set;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	fail();
	return -1;
}

/* A worker asked to pin itself to an allowed CPU does so before the first
 * request, and one asked
 * for a CPU that cannot be had says so: no figure, a message naming the
 * CPU, and the worker stopped (no "did not stop" in its place). */
static void test_worker_pins_itself(void **state)
{
	struct ref_result r;
	char err[256] = "";
	struct plugin_syms syms;
	void (*start)(struct ref_handoff *);
	(void)state;

	assert_int_equal(plugin_syms_builtin(&syms), 0);
	goruntime_register(&syms);
	start = goruntime_ref_start();
	assert_non_null(start);
	assert_int_equal(ref_measure_on(&r, start, REF_SPIN_ROUNDS, 2000, 2, 100, allowed_cpu(), err, sizeof(err)), 0);
	assert_int_equal(r.answered, r.requests);
	assert_true(r.requests > 0);
	err[0] = '\0';
	assert_int_equal(ref_measure_on(&r, start, REF_SPIN_ROUNDS, 2000, 2, 100, 4000, err, sizeof(err)), -1);
	assert_string_equal(err, "reference handoff: its worker cannot pin itself to CPU 4000");
	assert_int_equal(r.requests, 0);
	assert_true(isnan(r.step_ns[REF_BARE]));
}

/* Caller and worker on one CPU, the worker never blocking: each request
 * waits for the other thread's time slice, so every batch has a thread
 * off its CPU, without a single wake-up: no figure, every try dropped as
 * off CPU (the check that keeps a loaded machine's batches out). */
static void test_one_cpu_is_off_cpu(void **state)
{
	struct ref_result r;
	char err[256] = "";
	struct plugin_syms syms;
	void (*start)(struct ref_handoff *);
	cpu_set_t all, one;
	int cpu = allowed_cpu();
	(void)state;

	assert_int_equal(plugin_syms_builtin(&syms), 0);
	goruntime_register(&syms);
	start = goruntime_ref_start();
	assert_non_null(start);
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	int rc = ref_measure_on(&r, start, UINT64_MAX, 30, 3, 0, cpu, err, sizeof(err));
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	assert_int_equal(rc, 0);
	assert_int_equal(r.short_step, REF_BARE);
	assert_int_equal(r.kept, 0);
	assert_int_equal(r.tries[REF_BARE], FLOOR_TRIES * 3);
	assert_int_equal(r.offcpu[REF_BARE], r.tries[REF_BARE]);
	assert_int_equal(r.dropped[REF_BARE], r.tries[REF_BARE]);
	assert_true(r.wakeups[REF_BARE] == 0);
	assert_true(isnan(r.step_ns[REF_BARE]));
	assert_int_equal(r.answered, r.requests);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_request_answered_once),
		cmocka_unit_test(test_sleep_path_is_no_figure),
		cmocka_unit_test(test_worker_pins_itself),
		cmocka_unit_test(test_one_cpu_is_off_cpu),
	};
	return cmocka_run_group_tests_name("refhandoff", tests, NULL, NULL);
}
