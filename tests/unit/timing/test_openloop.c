/* Unit tests of the open loop: the schedule (even and Poisson gaps, the
 * seeded sequence, the achieved rate), latency from the due time on a
 * synthetic clock (a slow call pushes its successors' latencies up), and
 * the open loop's options. Nothing here reads a real clock. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/options.h"
#include "timing/openloop.h"
#include "timing/schedule.h"

static void test_schedule_even(void **state)
{
	struct schedule s;
	(void)state;
	assert_int_equal(schedule_make(&s, 5, 1000.0, ARRIVAL_EVEN, 1), 0);
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(s.at_ns[i], i * 1000000);
	schedule_free(&s);
	assert_int_equal(schedule_make(&s, 4, 3.0, ARRIVAL_EVEN, 1), 0);
	assert_int_equal(s.at_ns[1], 333333333);
	assert_int_equal(s.at_ns[3], 1000000000);
	schedule_free(&s);
}

/* Exponential gaps: the same seed gives the same schedule, another seed
 * another one; the mean gap is 1/rate within a few percent over 100000
 * draws (deterministic: the seed is fixed), and gaps are not all equal. */
static void test_schedule_poisson(void **state)
{
	struct schedule a, b, c;
	size_t n = 100000, distinct = 0;
	double mean;
	(void)state;
	assert_int_equal(schedule_make(&a, n, 1000.0, ARRIVAL_POISSON, 42), 0);
	assert_int_equal(schedule_make(&b, n, 1000.0, ARRIVAL_POISSON, 42), 0);
	assert_int_equal(schedule_make(&c, n, 1000.0, ARRIVAL_POISSON, 43), 0);
	assert_memory_equal(a.at_ns, b.at_ns, n * sizeof(*a.at_ns));
	assert_true(memcmp(a.at_ns, c.at_ns, n * sizeof(*a.at_ns)) != 0);
	assert_int_equal(a.at_ns[0], 0);
	for (size_t i = 1; i < n; i++) {
		assert_true(a.at_ns[i] >= a.at_ns[i - 1]);
		distinct += a.at_ns[i] - a.at_ns[i - 1] != 1000000;
	}
	mean = (double)a.at_ns[n - 1] / (double)(n - 1);
	assert_true(fabs(mean - 1e6) < 0.02 * 1e6);
	assert_true(distinct > n / 2);
	schedule_free(&a);
	schedule_free(&b);
	schedule_free(&c);
}

static void test_achieved_rate(void **state)
{
	(void)state;
	assert_true(schedule_achieved_rate(1000, 5000000000, 6000000000) == 1000.0);
	assert_true(schedule_achieved_rate(500, 0, 2000000000) == 250.0);
	assert_true(isnan(schedule_achieved_rate(0, 0, 10)));
	assert_true(isnan(schedule_achieved_rate(10, 10, 10)));
}

/* A synthetic clock: waiting jumps to the deadline, a call costs 100 ns,
 * and call number slow costs 5 ms. */
struct fake {
	uint64_t t;
	uint64_t slow;
	uint64_t services[16];
};

static uint64_t fake_now(void *ctx)
{
	return ((struct fake *)ctx)->t;
}

static void fake_wait(void *ctx, uint64_t deadline)
{
	struct fake *f = ctx;
	if (f->t < deadline)
		f->t = deadline;
}

static int fake_call(void *ctx, uint64_t i)
{
	struct fake *f = ctx;
	f->t += i == f->slow ? 5000000 : 100;
	return 0;
}

static void fake_ended(void *ctx, uint64_t i, uint64_t service_ns)
{
	((struct fake *)ctx)->services[i] = service_ns;
}

/* At 1000/s, request 2 takes 5 ms: requests 3..6 were due while it ran and
 * carry their wait (4 ms, 3 ms, 2 ms, 1 ms behind, plus their own 100 ns
 * each); request 7 is on time again. Their own service stays 100 ns. */
static void test_latency_from_due_time(void **state)
{
	struct fake f = { .t = 1000000000, .slow = 2 };
	const struct openloop_ops ops = {
		.now = fake_now, .wait_until = fake_wait, .call = fake_call, .ended = fake_ended
	};
	struct schedule s;
	struct openloop_result r;
	uint64_t lat[10];
	(void)state;
	assert_int_equal(schedule_make(&s, 10, 1000.0, ARRIVAL_EVEN, 1), 0);
	openloop_run(&s, 10, 0, &ops, &f, lat, &r);
	assert_int_equal(r.served, 10);
	assert_int_equal(r.start_ns, 1000000000);
	assert_int_equal(lat[0], 100);
	assert_int_equal(lat[1], 100);
	assert_int_equal(lat[2], 5000000);
	assert_int_equal(lat[3], 4000000 + 100);
	assert_int_equal(lat[4], 3000000 + 200);
	assert_int_equal(lat[5], 2000000 + 300);
	assert_int_equal(lat[6], 1000000 + 400);
	assert_int_equal(lat[7], 500); /* due at 7 ms, started at 7.0004 ms */
	assert_int_equal(lat[8], 100);
	assert_int_equal(f.services[4], 100);
	assert_int_equal(r.end_ns, 1000000000 + 9000000 + 100);
	schedule_free(&s);
}

/* The fixed gap: each call is due gap after the previous one's end, so a
 * slow call delays the next due time and adds to no other latency. */
static void test_gap_loop(void **state)
{
	struct fake f = { .t = 0, .slow = 1 };
	const struct openloop_ops ops = { .now = fake_now, .wait_until = fake_wait, .call = fake_call };
	struct openloop_result r;
	uint64_t lat[4];
	(void)state;
	openloop_run(NULL, 4, 1000, &ops, &f, lat, &r);
	assert_int_equal(lat[0], 100);
	assert_int_equal(lat[1], 5000000);
	assert_int_equal(lat[2], 100);
	assert_int_equal(r.end_ns, 100 + 1000 + 5000000 + 1000 + 100 + 1000 + 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule_even), cmocka_unit_test(test_schedule_poisson),
		cmocka_unit_test(test_achieved_rate), cmocka_unit_test(test_latency_from_due_time),
		cmocka_unit_test(test_gap_loop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
