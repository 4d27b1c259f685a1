/* Unit tests of the latency text (report/text_latency.c) on hand-made
 * documents: the sweep's crossover and the CPU below it, and the idle
 * policy line of a list of gaps. Deterministic: no run is measured. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/text.h"

static struct cell_rec *add_cell(struct doc *d, const char *mode, double rate, double gap_us, double p50, double p99,
				 double cpu)
{
	struct cell_rec *c = model_append((void **)&d->cells, &d->ncells, sizeof(*d->cells));
	assert_non_null(c);
	snprintf(c->requested, sizeof(c->requested), "%s", mode);
	snprintf(c->in_effect, sizeof(c->in_effect), "%s", mode);
	c->has_latency = 1;
	snprintf(c->latency.load, sizeof(c->latency.load), "%s", rate > 0 ? "rate" : "gap");
	c->latency.requested_rate = rate > 0 ? rate : NAN;
	c->latency.gap_us = rate > 0 ? NAN : gap_us;
	c->latency.s.p50 = p50;
	c->latency.s.p90 = c->latency.s.p99 = p99;
	c->latency.s.p999 = c->latency.s.max = p99 * 2;
	c->latency.s.n = 100;
	c->latency.cpu_ns_per_event = cpu;
	return c;
}

static char *render(void (*fn)(FILE *, const struct doc *), const struct doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f, d);
	fclose(f);
	return buf;
}

/* Async worse at 100 and 1000/s, no worse from 10000/s up: the crossover
 * is 10000/s, and below it async spent what it spent at 1000/s. */
static void test_sweep_crossover(void **state)
{
	struct doc d;
	char *out;
	(void)state;
	memset(&d, 0, sizeof(d));
	d.options.nsweep = 4;
	d.options.sweep[0] = 100;
	d.options.sweep[1] = 1000;
	d.options.sweep[2] = 10000;
	d.options.sweep[3] = 0; /* max */
	add_cell(&d, "sync", 100, 0, 1000, 5000, 20000);
	add_cell(&d, "async", 100, 0, 9e6, 1e7, 4e6);
	add_cell(&d, "sync", 1000, 0, 900, 4000, 9000);
	add_cell(&d, "async", 1000, 0, 2000, 6000, 700000);
	add_cell(&d, "sync", 10000, 0, 800, 3000, 2000);
	add_cell(&d, "async", 10000, 0, 500, 2500, 90000);
	add_cell(&d, "sync", 0, 0, 100, 200, 100);
	add_cell(&d, "async", 0, 0, 250, 400, 500);
	out = render(report_sweep_text, &d);
	assert_non_null(strstr(out, "# max "));
	assert_non_null(strstr(out, "# crossover: from 10000 requests/s up"));
	assert_non_null(strstr(out, "below it async spends 700000 cpu-ns/event"));
	free(out);
	/* async worse everywhere: no crossover */
	d.cells[5].latency.s.p99 = 9000;
	out = render(report_sweep_text, &d);
	assert_non_null(strstr(out, "# crossover: none on this machine"));
	free(out);
	/* async fell back to sync at one rate (one CPU allowed): the sweep is
	 * not judged at all, whatever the numbers say */
	d.cells[5].latency.s.p99 = 2500;
	snprintf(d.cells[5].in_effect, sizeof(d.cells[5].in_effect), "sync");
	out = render(report_sweep_text, &d);
	assert_non_null(strstr(out, "# crossover: not judged: at 1 of 4 rates a cell did not run in the mode asked"));
	assert_null(strstr(out, "from 10000 requests/s up"));
	free(out);
	doc_free(&d);
}

/* p50 flat up to 900 us, then ten milliseconds: the jump is named between
 * 900 and 1200 us, with its size. */
static void test_gap_policy(void **state)
{
	struct doc d;
	char *out;
	(void)state;
	memset(&d, 0, sizeof(d));
	add_cell(&d, "async", 0, 10, 1200, 2000, 1000);
	add_cell(&d, "async", 0, 900, 23000, 50000, 1000);
	add_cell(&d, "async", 0, 1200, 10023000, 2e7, 1000);
	add_cell(&d, "async", 0, 5000, 6e6, 1e7, 1000);
	out = render(report_gap_policy_text, &d);
	assert_non_null(strstr(out, "latency jumps between a gap of 900 us and 1200 us"));
	assert_non_null(strstr(out, "+10.000 ms"));
	free(out);
	d.cells[2].latency.s.p50 = 30000;
	d.cells[3].latency.s.p50 = 40000;
	out = render(report_gap_policy_text, &d);
	assert_non_null(strstr(out, "no jump of the p50 latency"));
	free(out);
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_crossover),
		cmocka_unit_test(test_gap_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
