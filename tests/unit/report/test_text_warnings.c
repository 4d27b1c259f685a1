/* Unit tests of the warnings (report/text_warnings.c) on hand-made
 * documents: noise summarised across cells in at most three lines, per cell
 * under --verbose, a run of one cell in its own sentences, and a mode that
 * differed on a line of its own either way. Deterministic: no run is
 * measured. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/text.h"

/* A cell of n samples, out of them outliers, stalled of 40 blocks. */
static struct cell_rec *add_cell(struct doc *d, const char *name, size_t n, size_t outliers, uint64_t stalled)
{
	struct cell_rec *c = model_append((void **)&d->cells, &d->ncells, sizeof(*d->cells));
	assert_non_null(c);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->st.time.s.n = n;
	c->st.time.s.high_mild = outliers;
	c->st.stalled_batches = stalled;
	c->st.batches = 40;
	return c;
}

static char *render(const struct doc *d, int verbose)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	report_warnings(f, d, verbose);
	fclose(f);
	return buf;
}

static int count(const char *s, const char *what)
{
	int k = 0;
	for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
		k++;
	return k;
}

static void paired_doc(struct doc *d)
{
	memset(d, 0, sizeof(*d));
	d->has_paired = 1;
	d->machine.online_cpus = 2;
}

/* Ten cells, six of them stalled, three with outliers (seven noisy), two with too few
 * samples: three lines in all, each naming its cells, range and worst. */
static void test_summary(void **state)
{
	struct doc d;
	char *out;
	(void)state;
	paired_doc(&d);
	add_cell(&d, "c0", 16, 0, 1);
	add_cell(&d, "c1", 16, 4, 2);
	add_cell(&d, "c2", 16, 0, 4);
	add_cell(&d, "c3", 16, 2, 1);
	add_cell(&d, "c4", 16, 0, 1);
	add_cell(&d, "c5", 16, 0, 1);
	add_cell(&d, "c6", 16, 0, 0);
	add_cell(&d, "c7", 16, 3, 0);
	add_cell(&d, "c8", 3, 0, 0);
	add_cell(&d, "c9", 4, 0, 0);
	out = render(&d, 0);
	assert_int_equal(count(out, "\n"), 2);
	assert_int_equal(count(out, "warning: "), 2);
	assert_non_null(strstr(out,
			       "warning: the samples of 2 of 10 cells are too few for a 95% interval of the median "
			       "(need >= 6; fewest 3, c8)"));
	assert_non_null(strstr(out, "warning: noise in 7 of 10 cells: blocks stalled in 6 (2.5% to 10.0% of their "
				    "blocks; worst c2, 4 of 40), outliers in 3 (12.5% to 25.0% of their samples; "
				    "worst c1, 4 of 16)"));
	assert_non_null(strstr(out, "--verbose"));
	free(out);

	/* --verbose: a sentence a cell and kind, the figures of each */
	out = render(&d, 1);
	assert_int_equal(count(out, " stalled (1 ms or more"), 6);
	assert_int_equal(count(out, " samples are outliers"), 3);
	assert_int_equal(count(out, " samples are too few"), 2);
	assert_non_null(strstr(out, "warning: c2: 4 of 40 blocks stalled"));
	free(out);
	free(d.cells);
}

/* A mode that differed changes what a figure means: a line for each cell
 * it concerns, beside the summary. Threads beyond the CPUs: one line. */
static void test_meaning_lines(void **state)
{
	struct doc d;
	char *out;
	(void)state;
	paired_doc(&d);
	for (int i = 0; i < 4; i++) {
		char name[16];
		snprintf(name, sizeof(name), "c%d", i);
		struct cell_rec *c = add_cell(&d, name, 16, 0, 2);
		if (i >= 2)
			snprintf(c->reason, sizeof(c->reason), "GOMAXPROCS < 2");
	}
	struct launch_rec *l = calloc(1, sizeof(*l));
	assert_non_null(l);
	l->ncallers = 3;
	snprintf(l->mode_in_effect, sizeof(l->mode_in_effect), "sync");
	d.cells[1].launches = l;
	d.cells[1].nlaunches = 1;
	out = render(&d, 0);
	assert_int_equal(count(out, "\n"), 4);
	assert_non_null(strstr(out,
			       "warning: noise in 4 of 4 cells: blocks stalled in 4 (5.0% of their blocks; worst c0, "
			       "2 of 40):"));
	assert_non_null(strstr(out,
			       "warning: this run spins up to 3 threads (3 callers, c1) on 2 online CPUs, more than "
			       "the CPUs in 1 of 4 cells"));
	assert_non_null(strstr(out, "warning: c2: async was requested but is not in effect: GOMAXPROCS < 2\n"));
	assert_non_null(strstr(out, "warning: c3: async was requested but is not in effect: GOMAXPROCS < 2\n"));
	free(out);
	d.cells[1].launches = NULL;
	d.cells[1].nlaunches = 0;
	free(l);
	free(d.cells);
}

/* A run of one cell says it in its own sentences, naming no cell. */
static void test_one_cell(void **state)
{
	struct doc d;
	char *out;
	(void)state;
	paired_doc(&d);
	d.has_paired = 0;
	add_cell(&d, "c0", 16, 4, 3);
	out = render(&d, 0);
	assert_string_equal(
		out,
		"warning: 4 of 16 samples are outliers: the machine was noisy; rerun, or use more --launches\n"
		"warning: 3 of 40 batches stalled (1 ms or more slower than the median batch): an async worker slept, the "
		"Go GC ran, or a thread was descheduled; compare the slowest batch with the median\n");
	free(out);
	free(d.cells);
}

/* Quiet cells: nothing at all. */
static void test_quiet(void **state)
{
	struct doc d;
	char *out;
	(void)state;
	paired_doc(&d);
	add_cell(&d, "c0", 16, 0, 0);
	add_cell(&d, "c1", 16, 1, 0);
	out = render(&d, 0);
	assert_string_equal(out, "");
	free(out);
	free(d.cells);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_meaning_lines),
		cmocka_unit_test(test_one_cell),
		cmocka_unit_test(test_quiet),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
