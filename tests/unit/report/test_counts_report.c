/* test_counts_report.c — a counted cell in the reports: the text's counts:
 * block (report/text_counts.c) and the extra gobench units (report/
 * gobench.c), on a synthetic document. No timing, no tool. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "model_fixture.h"
#include "report/gobench.h"
#include "report/text.h"

static void fig(struct count_fig *f, double a, double b, double c)
{
	f->per_pair[0] = a, f->per_pair[1] = b, f->per_pair[2] = c;
	f->npairs = 3;
	f->median = b, f->min = a, f->max = c;
}

/* One launch of four batches, counted: instructions, and system calls with
 * one name above the text's least and one below. */
static struct cell_rec *counted(struct doc *d)
{
	double b[4] = { 50, 52, 54, 56 };
	struct launch_rec *l = calloc(1, sizeof(*l));
	struct cell_rec *c;
	struct counts_rec *r;

	fixture_doc(d);
	d->options.count = COUNT_ALL;
	*l = fixture_launch(53, 60, b, 4);
	c = fixture_cell(d, "archive", "sync", l, 1);
	c->has_counts = 1;
	r = &c->counts;
	*r = (struct counts_rec){ .n_short = 1000, .n_long = 2000, .ops = 1000, .pairs = 3 };
	r->has_instructions = 1;
	fig(&r->instructions, 1076, 1077.5, 1078);
	snprintf(r->instructions_tool, sizeof(r->instructions_tool), "Valgrind-3.19.0 cachegrind");
	r->has_syscalls = 1;
	fig(&r->syscalls, 9.01, 9.02, 9.03);
	fig(&r->context_switches, 0, 0.00002, 0.01);
	fig(&r->page_faults, 0, 0, 0);
	r->nnames = 2;
	snprintf(r->by_name[0].name, COUNT_NAME_LEN, "rt_sigprocmask");
	fig(&r->by_name[0].per_op, 5, 5, 5);
	snprintf(r->by_name[1].name, COUNT_NAME_LEN, "futex");
	fig(&r->by_name[1].per_op, 0, 0.0002, 0.0004);
	snprintf(r->syscalls_tool, sizeof(r->syscalls_tool), "perf stat");
	return c;
}

static char *text_of(const struct doc *d, const struct cell_rec *c, int gobench)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (gobench)
		report_gobench(f, d);
	else
		report_counts_text(f, d, c);
	fclose(f);
	return buf;
}

/* The block: the lengths, each count with its range, the names above one
 * in a thousand, what rounds to zero printed as 0 (not -0). */
static void test_counts_block(void **state)
{
	struct doc d;
	struct cell_rec *c;
	char *t;

	(void)state;
	c = counted(&d);
	t = text_of(&d, c, 0);
	assert_non_null(strstr(t, "# counts: per extraction, no clock: -n 2000 less -n 1000 (the same warm-up, 10) "
				  "over the 1000 extractions more; median [min .. max] of 3 pairs\n"));
	assert_non_null(strstr(t, "#   instructions      1077.50 [1076.00 .. 1078.00] (range 0.19%)  Valgrind-3.19.0 "
				  "cachegrind, 6 runs in 0.0 s\n"));
	assert_non_null(strstr(t, "#   system calls      9.0200 [9.0100 .. 9.0300]  perf stat, 6 runs in 0.0 s\n"));
	assert_non_null(strstr(t, "#     rt_sigprocmask  5.0000 [5.0000 .. 5.0000]\n"));
	assert_null(strstr(t, "futex"));
	assert_non_null(strstr(t, "(1 more by name: less than 0.001 each)"));
	assert_non_null(strstr(t, "#   context switches  0.0000 [0.0000 .. 0.0100]\n"));
	free(t);
	/* a count asked for and not taken says so, never a zero */
	c->counts.has_instructions = 0;
	t = text_of(&d, c, 0);
	assert_non_null(strstr(t, "#   instructions      not counted (why: on stderr)\n"));
	free(t);
	/* a cell not counted has no block */
	c->has_counts = 0;
	t = text_of(&d, c, 0);
	assert_string_equal(t, "");
	free(t);
	doc_free(&d);
}

/* Counts the two lengths do not resolve (a pair counted less in its longer
 * run: noise, issue 36 defect 11) give no figure, only their range, and
 * the block says why; a resolved block says nothing of it. */
static void test_counts_unresolved(void **state)
{
	struct doc d;
	struct cell_rec *c;
	char *t;

	(void)state;
	c = counted(&d);
	t = text_of(&d, c, 0);
	assert_null(strstr(t, "unresolved"));
	free(t);
	/* -n 2000 -a -p 2 --count syscalls, as the issue saw it */
	fig(&c->counts.syscalls, -0.1540, -0.1363, 1.9363);
	fig(&c->counts.context_switches, -1.0052, -0.0238, 0.7705);
	fig(&c->counts.by_name[0].per_op, -0.0030, -0.0015, 0.0043);
	t = text_of(&d, c, 0);
	assert_non_null(
		strstr(t, "#   system calls      unresolved [-0.1540 .. 1.9363]  perf stat, 6 runs in 0.0 s\n"));
	assert_non_null(strstr(t, "#     rt_sigprocmask  unresolved [-0.0030 .. 0.0043]\n"));
	assert_non_null(strstr(t, "#   context switches  unresolved [-1.0052 .. 0.7705]\n"));
	assert_non_null(strstr(t, "#   unresolved: a pair's run of -n 2000 counted fewer than its run of -n 1000"));
	assert_non_null(strstr(t, "a larger -n resolves it\n"));
	assert_null(strstr(t, "-0.1363"));
	assert_null(strstr(t, "-0.0238"));
	free(t);
	doc_free(&d);
}

/* gobench: pair k's counts on the cell's k-th line, the fourth line
 * without (benchstat takes each line's units as that line's samples). */
static void test_gobench_units(void **state)
{
	struct doc d;
	struct cell_rec *c;
	char *t;
	const char *fourth = "p=1-2\t100\t56.00 ns/op\n";

	(void)state;
	c = counted(&d);
	t = text_of(&d, c, 1);
	assert_non_null(strstr(t, "p=1-2\t100\t50.00 ns/op\t1076.00 instr/op\t9.0100 syscalls/op\n"));
	assert_non_null(strstr(t, "p=1-2\t100\t54.00 ns/op\t1078.00 instr/op\t9.0300 syscalls/op\n"));
	assert_non_null(strstr(t, fourth));
	free(t);
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_block),
		cmocka_unit_test(test_counts_unresolved),
		cmocka_unit_test(test_gobench_units),
	};
	return cmocka_run_group_tests_name("counts report", tests, NULL, NULL);
}
