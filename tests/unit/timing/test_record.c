/* test_record.c — a finished run as the model's records: the launch holds
 * each caller's counts and batches, the cell the names of what ran, the
 * latency record one latency per request and the load in the cell's name;
 * a bench-minimal launch is read from its seed and "# mode:" lines, and
 * refused without either. Counts and names only, never timings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/names.h"
#include "model/options.h"
#include "plugin/load.h"
#include "timing/record.h"
#include "timing/runner.h"

static struct session session; /* the built-in mock, as bench measures it */

static int setup(void **state)
{
	char err[512];
	(void)state;
	memset(&session, 0, sizeof(session));
	if (library_open_builtin(&session.builtin.lib, err, sizeof(err)) != 0)
		return -1;
	if (event_set_synthetic(&session.builtin.events, 64, 999, err, sizeof(err)) != 0)
		return -1;
	session.has_builtin = 1;
	session.libs = &session.builtin;
	session.nlibs = 1;
	session.builtin.pc = (struct plugin_config){ .lib = &session.builtin.lib,
						     .async = 0,
						     .work = WORK_STR,
						     .events = &session.builtin.events,
						     .evtsrc = "cgocost" };
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	event_set_free(&session.builtin.events);
	library_close(&session.builtin.lib);
	return 0;
}

/* A closed-loop (or, with gap_us, an open-loop) run of ncallers callers,
 * -n n in -r batches each. */
static void run_small(struct options *o, struct run *r, uint32_t ncallers, uint64_t n, uint32_t batches,
		      uint64_t gap_us)
{
	struct extractor xs[4];
	char err[256];

	options_defaults(o);
	o->n = n;
	o->batches = batches;
	o->warmup = 10;
	o->warmup_set = 1;
	o->fields = 1;
	o->plugins = ncallers;
	o->stall_timeout_s = 0;
	o->work = WORK_STR;
	if (gap_us) {
		o->ngaps = 1;
		o->gaps_us[0] = gap_us;
	}
	for (uint32_t i = 0; i < ncallers; i++)
		assert_int_equal(extractor_open(&xs[i], &session.builtin.pc, o->fields, err, sizeof(err)), 0);
	assert_int_equal(run_scenario(o, SCEN_EXTRACT, ncallers, xs, NULL, NULL, NULL, r, err, sizeof(err)), 0);
	for (uint32_t i = 0; i < ncallers; i++) {
		assert_false(r->plugins[i].failed);
		extractor_close(&xs[i]);
	}
}

static void launch_free(struct launch_rec *l)
{
	for (uint32_t i = 0; i < l->ncallers; i++)
		free(l->callers[i].batches);
	free(l->callers);
}

static void test_launch_counts(void **state)
{
	struct options o;
	struct run r;
	struct launch_rec l;
	(void)state;

	run_small(&o, &r, 2, 600, 6, 0);
	assert_int_equal(record_launch(&l, &r, &o, NULL), 0);
	assert_int_equal(l.ncallers, 2);
	for (uint32_t i = 0; i < 2; i++) {
		const struct caller_rec *c = &l.callers[i];
		uint64_t ns = 0, ops = 0;
		assert_int_equal(c->index, i + 1);
		assert_int_equal(c->extractions, 600);
		assert_int_equal(c->nbatches, 6);
		for (uint32_t b = 0; b < 6; b++) {
			assert_int_equal(c->batches[b].ops, 100);
			assert_int_equal(c->batches[b].ns, r.plugins[i].batches.ns[b]);
			ns += c->batches[b].ns;
			ops += c->batches[b].ops;
		}
		assert_int_equal(ops, 600);
		assert_int_equal(ns, c->elapsed_ns);
		assert_int_equal(c->tid, r.plugins[i].caller_tid);
		assert_int_equal(c->pinned_cpu, -1);
		assert_false(c->async_in_effect);
		assert_false(c->has_latency);
	}
	assert_int_equal(l.wall_ns, r.wall_ns);
	assert_string_equal(l.mode_in_effect, "sync");
	assert_string_equal(l.async_reason, "");
	assert_false(l.has_floors);
	assert_int_equal(l.pool_waits, -1); /* no pool in the extract scenario */
	assert_int_equal(l.go_runtimes, -1);
	launch_free(&l);
	run_free(&r);
}

static void test_cell_names(void **state)
{
	struct options o;
	struct run r;
	struct cell_rec c;
	char want[MODEL_NAME_MAX];
	(void)state;

	run_small(&o, &r, 1, 100, 2, 0);
	memset(&c, 0, sizeof(c));
	record_cell(&c, &r, &o, &session, "/some/bench");
	snprintf(want, sizeof(want), "lib=archive/mode=sync/work=%s/p=1", work_name(WORK_STR));
	assert_string_equal(c.name, want);
	assert_string_equal(c.scenario, "extract");
	assert_string_equal(c.lib, "archive");
	assert_string_equal(c.executable, "/some/bench");
	assert_string_equal(c.requested, "sync");
	assert_string_equal(c.in_effect, "sync");
	assert_string_equal(c.reason, "");
	assert_true(c.mode_verified);
	assert_int_equal(c.stalled_launches_rerun, -1);
	run_free(&r);
}

/* Every request's latency in the cell, each caller's in its record, and the
 * load in the cell's name. */
static void test_latency_records(void **state)
{
	struct options o;
	struct run r;
	struct launch_rec l;
	struct cell_rec c;
	(void)state;

	run_small(&o, &r, 2, 150, 3, 2);
	assert_int_equal(record_launch(&l, &r, &o, NULL), 0);
	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), "lib=archive/mode=sync/work=str/p=2");
	assert_int_equal(record_latency(&c, &l, &r, &o), 0);
	assert_string_equal(c.name, "lib=archive/mode=sync/work=str/p=2/gap-us=2");
	assert_true(c.has_latency);
	assert_string_equal(c.latency.load, "gap");
	assert_int_equal(c.latency.s.n, 300);
	for (uint32_t i = 0; i < 2; i++) {
		assert_true(l.callers[i].has_latency);
		assert_string_equal(l.callers[i].latency.load, "gap");
		assert_int_equal(l.callers[i].latency.s.n, 150);
	}
	launch_free(&l);
	run_free(&r);
}

/* --rate names the cell by its rate, the arrival in the record. */
static void test_latency_rate_name(void **state)
{
	struct options o;
	struct run r = { 0 };
	struct plugin_run p = { .index = 1 };
	struct caller_rec cr = { 0 };
	struct launch_rec l = { .callers = &cr, .ncallers = 1 };
	struct cell_rec c;
	uint64_t lat[3] = { 10, 30, 20 };
	(void)state;

	options_defaults(&o);
	o.rate = 2500;
	o.arrival = ARRIVAL_POISSON;
	p.latencies = lat;
	p.nlatencies = 3;
	r.nplugins = 1;
	r.plugins = &p;
	memset(&c, 0, sizeof(c));
	snprintf(c.name, sizeof(c.name), "cell");
	assert_int_equal(record_latency(&c, &l, &r, &o), 0);
	assert_string_equal(c.name, "cell/rate=2500");
	assert_string_equal(c.latency.load, "rate");
	assert_string_equal(c.latency.arrival, "poisson");
	assert_int_equal(c.latency.s.n, 3);
	assert_int_equal(cr.latency.s.n, 3);
}

static const char minimal_out[] = "plugin 1: 12.5 ns/extraction (elapsed time 12500ns, extractions 1000)\n"
				  "# mode: async requested, sync in effect\n";

static void test_minimal_parses(void **state)
{
	struct options o;
	struct doc d;
	const struct cell_rec *c;
	const struct caller_rec *p;
	(void)state;

	options_defaults(&o);
	assert_int_equal(record_minimal(&d, minimal_out, &o, 1, "/x/bench-minimal"), 0);
	assert_int_equal(d.ncells, 1);
	c = &d.cells[0];
	assert_string_equal(c->name, "lib=archive/mode=sync-fallback/work=bare/p=1/driver=minimal");
	assert_string_equal(c->requested, "async");
	assert_string_equal(c->in_effect, "sync");
	assert_string_equal(c->executable, "/x/bench-minimal");
	assert_int_equal(c->nlaunches, 1);
	assert_int_equal(c->launches[0].ncallers, 1);
	p = &c->launches[0].callers[0];
	assert_int_equal(p->extractions, 1000);
	assert_int_equal(p->elapsed_ns, 12500);
	assert_int_equal(p->nbatches, 1);
	assert_int_equal(p->batches[0].ns, 12500);
	assert_int_equal(p->batches[0].ops, 1000);
	assert_false(p->async_in_effect);
	assert_string_equal(c->launches[0].mode_in_effect, "sync");
	/* a driver that printed no "# built:" line: the versions are unknown */
	assert_string_equal(c->go_version, "unknown");
	assert_string_equal(c->sdk_version, "unknown");
	doc_free(&d);
}

/* The mock's toolchain and SDK, as the drivers print them; a line that is
 * no Go version leaves them unknown. */
static void test_minimal_reads_the_versions(void **state)
{
	struct options o;
	struct doc d;
	char out[512];
	(void)state;

	options_defaults(&o);
	snprintf(out, sizeof(out), "%s# built: go1.27.3, plugin-sdk-go v0.8.3\n", minimal_out);
	assert_int_equal(record_minimal(&d, out, &o, 0, "/x/bench-textbook"), 0);
	assert_string_equal(d.cells[0].go_version, "go1.27.3");
	assert_string_equal(d.cells[0].sdk_version, "v0.8.3");
	assert_non_null(strstr(d.cells[0].name, "/driver=textbook"));
	doc_free(&d);
	snprintf(out, sizeof(out), "%s# built: nonsense, plugin-sdk-go v0.8.3\n", minimal_out);
	assert_int_equal(record_minimal(&d, out, &o, 0, "/x/bench-minimal"), 0);
	assert_string_equal(d.cells[0].go_version, "unknown");
	assert_string_equal(d.cells[0].sdk_version, "unknown");
	doc_free(&d);
}

/* The textbook loop's async slot line, found or not; none in sync, and
 * none when the line is missing (a driver built before it). */
static void test_minimal_reads_the_slot(void **state)
{
	static const char async_out[] =
		"plugin 1: 200.00 ns/extraction (elapsed time 2000ns, extractions 10)\n"
		"# mode: async requested, async in effect (verified: Extract ran on thread 2, the caller is 1, a pthread)\n";
	static const struct {
		const char *out, *line; /* the driver's output, then its slot line */
		int async, has;
		unsigned offset, bytes, lines;
		const char *why;
	} cases[] = {
		{ async_out, "# async slot: 32 bytes into a 64-byte cache line, 2 lines\n", 1, 1, 32, 64, 2, "" },
		{ async_out, "# async slot: 0 bytes into a 64-byte cache line, 1 line\n", 1, 1, 0, 64, 1, "" },
		{ async_out, "# async slot: not found: no symbol table (stripped)\n", 1, 1, 0, 0, 0,
		  "no symbol table (stripped)" },
		{ async_out, "", 1, 0, 0, 0, 0, "" },
		/* a sync run's line (none is printed) is not read as a slot */
		{ minimal_out, "# async slot: 0 bytes into a 64-byte cache line, 1 line\n", 0, 0, 0, 0, 0, "" },
	};
	struct options o;
	struct doc d;
	char out[1024];
	(void)state;

	options_defaults(&o);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct caller_rec *p;
		snprintf(out, sizeof(out), "%s%s", cases[i].out, cases[i].line);
		assert_int_equal(record_minimal(&d, out, &o, cases[i].async, "/x/bench-textbook"), 0);
		p = &d.cells[0].launches[0].callers[0];
		assert_int_equal(p->has_async_slot, cases[i].has);
		assert_int_equal(p->slot_line_offset, cases[i].offset);
		assert_int_equal(p->slot_line_bytes, cases[i].bytes);
		assert_int_equal(p->slot_lines, cases[i].lines);
		assert_string_equal(p->slot_why, cases[i].why);
		doc_free(&d);
	}
}

static void test_minimal_refuses(void **state)
{
	struct options o;
	struct doc d;
	(void)state;

	options_defaults(&o);
	/* no seed line */
	assert_int_equal(record_minimal(&d, "# mode: sync requested, sync in effect\n", &o, 0, "m"), -1);
	/* no mode line */
	assert_int_equal(
		record_minimal(&d, "plugin 1: 1 ns/extraction (elapsed time 10ns, extractions 10)\n", &o, 0, "m"), -1);
	/* a mode line without its two modes */
	assert_int_equal(record_minimal(&d,
					"plugin 1: 1 ns/extraction (elapsed time 10ns, extractions 10)\n# mode: sync\n",
					&o, 0, "m"),
			 -1);
	/* no extractions */
	assert_int_equal(record_minimal(&d,
					"plugin 1: 0 ns/extraction (elapsed time 0ns, extractions 0)\n"
					"# mode: sync requested, sync in effect\n",
					&o, 0, "m"),
			 -1);
	assert_int_equal(record_minimal(&d, "", &o, 0, "m"), -1);
}

/* The reason async was not in effect: a plugin that reports neither
 * GOMAXPROCS nor its async switch gets no made-up reason. */
static void test_async_reason(void **state)
{
	struct probe p = { .known = (1u << PROBE_SLOTS) - 1, .gomaxprocs = 1, .async_configured = 1 };
	struct probe silent = { .known = 1u << PROBE_TID };
	(void)state;
	assert_non_null(strstr(async_not_in_effect_reason(&silent), "reason unknown"));
	assert_non_null(strstr(async_not_in_effect_reason(&p), "GOMAXPROCS < 2"));
	p.gomaxprocs = 2;
	p.async_configured = 0;
	assert_non_null(strstr(async_not_in_effect_reason(&p), "switch was off"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_launch_counts),	       cmocka_unit_test(test_cell_names),
		cmocka_unit_test(test_latency_records),	       cmocka_unit_test(test_latency_rate_name),
		cmocka_unit_test(test_minimal_parses),	       cmocka_unit_test(test_minimal_reads_the_versions),
		cmocka_unit_test(test_minimal_reads_the_slot), cmocka_unit_test(test_minimal_refuses),
		cmocka_unit_test(test_async_reason),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
