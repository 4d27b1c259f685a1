/* test_runner.c — the runner's three timed loops with the built-in mock, on
 * their counts alone (never on how long anything took): the closed loop runs
 * -n extractions in -r batches, the open loop one latency per request, the
 * served blocks one reply per block with the block's calls, and the plugin's
 * own count of what it served matches what the loop asked for. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model/options.h"
#include "plugin/extractor.h"
#include "timing/blocks.h"
#include "timing/runner.h"
#include "timing/schedule.h"

#include "builtin_fixture.h"

static struct plugin_config sync_config(void)
{
	return (struct plugin_config){
		.lib = &builtin, .async = 0, .work = WORK_STR, .events = &events, .evtsrc = "cgocost"
	};
}

/* -n n in -r batches, warmup w, one field, one caller; no watchdog bite
 * however loaded the machine is. */
static void small_options(struct options *o, uint64_t n, uint32_t batches, uint64_t warmup)
{
	options_defaults(o);
	o->n = n;
	o->batches = batches;
	o->warmup = warmup;
	o->warmup_set = 1;
	o->fields = 1;
	o->plugins = 1;
	o->stall_timeout_s = 0;
}

/* Runs scen with ncallers callers, each its own sync instance. */
static void run_extract(const struct options *o, uint32_t ncallers, struct extractor *xs, struct run *r)
{
	struct plugin_config pc = sync_config();
	char err[256];

	for (uint32_t i = 0; i < ncallers; i++)
		assert_int_equal(extractor_open(&xs[i], &pc, o->fields, err, sizeof(err)), 0);
	assert_int_equal(run_scenario(o, SCEN_EXTRACT, ncallers, xs, NULL, NULL, NULL, r, err, sizeof(err)), 0);
}

/* The plugin served the warm-up, the timed requests and the extra calls
 * between the two probes, and the last probe's own fields: nothing else. */
static void assert_served(const struct plugin_run *p, const struct extractor *x, uint64_t warmup)
{
	assert_false(p->failed);
	assert_true(PROBE_KNOWN(&p->after, PROBE_CALLS));
	assert_int_equal(p->after.calls - p->before.calls,
			 (warmup + p->batches.total_ops + p->lead_in_extractions) * x->nfields +
				 x->probe_in.num_fields);
	assert_true(p->mode_known);
	assert_false(p->async_in_effect);
}

static void test_closed_loop_counts(void **state)
{
	struct options o;
	struct extractor xs[2];
	struct run r;
	(void)state;

	small_options(&o, 1000, 10, 50);
	o.plugins = 2;
	run_extract(&o, 2, xs, &r);
	assert_int_equal(r.scenario, SCEN_EXTRACT);
	assert_int_equal(r.nplugins, 2);
	assert_int_equal(r.requests, 2000);
	for (uint32_t i = 0; i < 2; i++) {
		const struct plugin_run *p = &r.plugins[i];
		assert_int_equal(p->index, i + 1);
		assert_int_equal(p->batches.nbatches, 10);
		assert_int_equal(p->batches.total_ops, 1000);
		for (uint32_t b = 0; b < 10; b++)
			assert_int_equal(p->batches.ops[b], 100);
		assert_int_equal(p->lead_in_extractions, 0);
		assert_null(p->latencies);
		assert_int_equal(p->nlatencies, 0);
		assert_int_equal(p->pinned_cpu, -1);
		assert_served(p, &xs[i], 50);
		extractor_close(&xs[i]);
	}
	run_free(&r);
}

/* -n not a multiple of -r: the batches still add up to -n. */
static void test_closed_loop_uneven_batches(void **state)
{
	struct options o;
	struct extractor x;
	struct run r;
	uint64_t sum = 0;
	(void)state;

	small_options(&o, 1003, 7, 0);
	run_extract(&o, 1, &x, &r);
	assert_int_equal(r.plugins[0].batches.nbatches, 7);
	for (uint32_t b = 0; b < 7; b++)
		sum += r.plugins[0].batches.ops[b];
	assert_int_equal(sum, 1003);
	assert_int_equal(r.plugins[0].batches.total_ops, 1003);
	assert_served(&r.plugins[0], &x, 0);
	extractor_close(&x);
	run_free(&r);
}

/* --slowdown-pct 10: one extra call after every 10, counted apart from the
 * timed requests, across the batches' edges. */
static void test_closed_loop_slowdown(void **state)
{
	struct options o;
	struct extractor x;
	struct run r;
	(void)state;

	small_options(&o, 1000, 3, 20);
	o.slowdown_pct = 10;
	run_extract(&o, 1, &x, &r);
	assert_int_equal(r.plugins[0].batches.total_ops, 1000);
	assert_int_equal(r.plugins[0].lead_in_extractions, 100);
	assert_served(&r.plugins[0], &x, 20);
	extractor_close(&x);
	run_free(&r);
}

/* The lifecycle: a new instance per timed iteration, -n of them in -r
 * batches; the warm-up defaults to the lifecycle's shorter one. */
static void test_closed_loop_alloc(void **state)
{
	struct options o;
	struct plugin_config pc = sync_config();
	struct run r;
	char err[256];
	(void)state;

	small_options(&o, 40, 4, 0);
	o.warmup_set = 0;
	o.warmup = 100000;
	assert_int_equal(run_warmup(&o, SCEN_ALLOC), LIFECYCLE_WARMUP);
	o.warmup = 10;
	assert_int_equal(run_warmup(&o, SCEN_ALLOC), 10);
	assert_int_equal(run_scenario(&o, SCEN_ALLOC, 1, NULL, NULL, &pc, NULL, &r, err, sizeof(err)), 0);
	assert_false(r.plugins[0].failed);
	assert_int_equal(r.scenario, SCEN_ALLOC);
	assert_int_equal(r.plugins[0].batches.nbatches, 4);
	assert_int_equal(r.plugins[0].batches.total_ops, 40);
	assert_int_equal(r.requests, 40);
	assert_null(r.plugins[0].latencies);
	run_free(&r);
}

/* --gap-us: one latency per request, no more and no fewer, and the calls'
 * own time summed into every batch. */
static void test_open_loop_gap(void **state)
{
	struct options o;
	struct extractor x;
	struct run r;
	const struct plugin_run *p;
	(void)state;

	small_options(&o, 300, 3, 10);
	o.ngaps = 1;
	o.gaps_us[0] = 1;
	run_extract(&o, 1, &x, &r);
	p = &r.plugins[0];
	assert_non_null(p->latencies);
	assert_int_equal(p->nlatencies, 300);
	assert_int_equal(p->batches.nbatches, 3);
	assert_int_equal(p->batches.total_ops, 300);
	assert_true(p->open_end_ns >= p->open_start_ns);
	assert_served(p, &x, 10);
	extractor_close(&x);
	run_free(&r);
}

/* --rate: the requests follow the schedule of the caller's seed; the last
 * cannot end before it was due, so the run spans at least the schedule. */
static void test_open_loop_rate(void **state)
{
	struct options o;
	struct extractor x;
	struct run r;
	struct schedule s = { 0 };
	const struct plugin_run *p;
	(void)state;

	small_options(&o, 200, 2, 10);
	o.rate = 50000;
	o.arrival = ARRIVAL_POISSON;
	run_extract(&o, 1, &x, &r);
	p = &r.plugins[0];
	assert_int_equal(p->nlatencies, 200);
	assert_int_equal(p->batches.total_ops, 200);
	assert_int_equal(schedule_make(&s, o.n, o.rate, o.arrival, o.seed), 0);
	assert_true(p->open_end_ns - p->open_start_ns >= s.at_ns[o.n - 1]);
	schedule_free(&s);
	assert_served(p, &x, 10);
	extractor_close(&x);
	run_free(&r);
}

/* fd moved to at least 10, out of the way of the blocks' fds 3 and 4. */
static int high_fd(int fd)
{
	int h = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	assert_true(h >= 10);
	close(fd);
	return h;
}

/* --serve-blocks: ready with the block's calls, then one reply per BLOCK_RUN
 * (a lead-in of one call, then -n timed), one batch each, until BLOCK_END. */
static void test_served_blocks(void **state)
{
	struct options o;
	struct extractor x;
	struct run r;
	int cmd[2], reply[2];
	struct block_cmd c = { .op = BLOCK_RUN, .lead_in_ns = 0 };
	struct block_reply rep;
	const struct plugin_run *p;
	(void)state;

	assert_int_equal(pipe(cmd), 0);
	assert_int_equal(pipe(reply), 0);
	cmd[0] = high_fd(cmd[0]), cmd[1] = high_fd(cmd[1]);
	reply[0] = high_fd(reply[0]), reply[1] = high_fd(reply[1]);
	assert_int_equal(dup2(cmd[0], BLOCKS_CMD_FD), BLOCKS_CMD_FD);
	assert_int_equal(dup2(reply[1], BLOCKS_REPLY_FD), BLOCKS_REPLY_FD);
	close(cmd[0]);
	close(reply[1]);
	for (int b = 0; b < 3; b++)
		assert_int_equal(write(cmd[1], &c, sizeof(c)), (ssize_t)sizeof(c));
	c.op = BLOCK_END;
	assert_int_equal(write(cmd[1], &c, sizeof(c)), (ssize_t)sizeof(c));

	small_options(&o, 500, 1, 10);
	o.serve_blocks = 1;
	o.emit_launch = 1;
	o.kind = RUN_SERVE_BLOCKS; /* what cli/runkind.c resolves these two to */
	run_extract(&o, 1, &x, &r);
	close(BLOCKS_CMD_FD);
	close(BLOCKS_REPLY_FD);
	close(cmd[1]);

	assert_int_equal(read(reply[0], &rep, sizeof(rep)), (ssize_t)sizeof(rep));
	assert_int_equal(rep.status, 0);
	assert_int_equal(rep.calls, 500);
	assert_int_equal(rep.async_in_effect, 0);
	for (int b = 0; b < 3; b++) {
		assert_int_equal(read(reply[0], &rep, sizeof(rep)), (ssize_t)sizeof(rep));
		assert_int_equal(rep.status, 0);
		assert_int_equal(rep.calls, 500);
		assert_int_equal(rep.lead_calls, 1);
	}
	assert_int_equal(read(reply[0], &rep, sizeof(rep)), 0); /* nothing more */
	close(reply[0]);

	p = &r.plugins[0];
	assert_int_equal(p->batches.nbatches, 3);
	assert_int_equal(p->batches.total_ops, 1500);
	assert_int_equal(p->lead_in_extractions, 3);
	assert_int_equal(r.wall_ns, p->batches.total_ns);
	assert_int_equal(r.process_cpu_ns, p->blocks_cpu_ns);
	assert_null(p->latencies);
	assert_served(p, &x, 10);
	extractor_close(&x);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closed_loop_counts),   cmocka_unit_test(test_closed_loop_uneven_batches),
		cmocka_unit_test(test_closed_loop_slowdown), cmocka_unit_test(test_closed_loop_alloc),
		cmocka_unit_test(test_open_loop_gap),	     cmocka_unit_test(test_open_loop_rate),
		cmocka_unit_test(test_served_blocks),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
