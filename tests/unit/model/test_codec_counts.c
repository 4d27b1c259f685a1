/* test_codec_counts.c — a cell's counts (--count) in the JSON codec
 * (model/codec_counts.c): written and read back the same, a count not
 * taken is null (never 0), and a document from before counts (no key)
 * reads as a cell with none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "model/codec.h"
#include "model/model.h"
#include "model_fixture.h"

static void fig(struct count_fig *f, double a, double b, double c)
{
	f->per_pair[0] = a, f->per_pair[1] = b, f->per_pair[2] = c;
	f->npairs = 3;
	f->median = b, f->min = a, f->max = c;
}

static struct cell_rec *counted_cell(struct doc *d)
{
	struct cell_rec *c;

	fixture_doc(d);
	c = fixture_cell(d, "archive", "sync", fixture_launches(1, 70, 1, 140), 1);
	c->has_counts = 1;
	c->counts = (struct counts_rec){ .n_short = 100000, .n_long = 200000, .ops = 100000, .pairs = 3 };
	c->counts.has_instructions = 1;
	fig(&c->counts.instructions, 1076.5, 1077.25, 1078);
	snprintf(c->counts.instructions_tool, sizeof(c->counts.instructions_tool), "Valgrind-3.19.0 cachegrind");
	c->counts.instructions_s = 14.5;
	return c;
}

/* Instructions taken, system calls not: the one an object, the other null;
 * read back the same. */
static void test_counts_round_trip(void **state)
{
	struct doc d, back;
	char err[512] = "", *one, *two;

	(void)state;
	counted_cell(&d);
	one = doc_dumps(&d, 0);
	assert_non_null(one);
	assert_non_null(strstr(one, "\"syscalls\": null"));
	assert_non_null(strstr(one, "\"pairs\": [\n"));
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	two = doc_dumps(&back, 0);
	assert_string_equal(one, two);
	assert_int_equal(back.cells[0].has_counts, 1);
	assert_int_equal(back.cells[0].counts.has_instructions, 1);
	assert_int_equal(back.cells[0].counts.has_syscalls, 0);
	assert_int_equal(back.cells[0].counts.instructions.npairs, 3);
	assert_true(back.cells[0].counts.instructions.per_pair[2] == 1078);
	assert_true(back.cells[0].counts.instructions.median == 1077.25);
	assert_true(back.cells[0].counts.ops == 100000);
	free(one);
	free(two);
	doc_free(&d);
	doc_free(&back);
}

/* The system calls with their names: the list comes back in order. */
static void test_syscalls_by_name(void **state)
{
	struct doc d, back;
	struct cell_rec *c;
	char err[512] = "", *one;

	(void)state;
	c = counted_cell(&d);
	c->counts.has_syscalls = 1;
	fig(&c->counts.syscalls, 8.9, 9.0, 9.1);
	fig(&c->counts.context_switches, 0, 0.001, 0.002);
	fig(&c->counts.page_faults, -0.001, 0, 0);
	c->counts.nnames = 2;
	snprintf(c->counts.by_name[0].name, COUNT_NAME_LEN, "rt_sigprocmask");
	fig(&c->counts.by_name[0].per_op, 3.9, 4, 4.1);
	snprintf(c->counts.by_name[1].name, COUNT_NAME_LEN, "other");
	fig(&c->counts.by_name[1].per_op, 4.9, 5, 5.1);
	one = doc_dumps(&d, 0);
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	assert_int_equal(back.cells[0].counts.nnames, 2);
	assert_string_equal(back.cells[0].counts.by_name[1].name, "other");
	assert_true(back.cells[0].counts.by_name[0].per_op.max == 4.1);
	assert_true(back.cells[0].counts.page_faults.min == -0.001);
	free(one);
	doc_free(&d);
	doc_free(&back);
}

/* A cell without counts writes no key, and such a document (every one from
 * before --count) reads back as a cell with none. */
static void test_document_without_counts(void **state)
{
	struct doc d, back;
	char err[512] = "", *one;

	(void)state;
	fixture_doc(&d);
	fixture_cell(&d, "archive", "sync", fixture_launches(1, 70, 1, 140), 1);
	one = doc_dumps(&d, 0);
	assert_null(strstr(one, "\"counts\""));
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	assert_int_equal(back.cells[0].has_counts, 0);
	free(one);
	doc_free(&d);
	doc_free(&back);
}

/* A counted anatomy: an async cell's instructions left out with the
 * reason (the key only then), and the floors' counts at the top level;
 * both read back the same. A document without them writes neither key. */
static void test_anatomy_counts(void **state)
{
	struct doc d, back;
	struct cell_rec *c;
	char err[512] = "", *one, *two;

	(void)state;
	c = counted_cell(&d);
	one = doc_dumps(&d, 0);
	assert_null(strstr(one, "instructions_not_counted"));
	assert_null(strstr(one, "floor_counts"));
	free(one);
	c->counts.has_instructions = 0;
	snprintf(c->counts.instructions_not_counted, sizeof(c->counts.instructions_not_counted),
		 "async: its worker spins");
	d.has_floor_counts = 1;
	d.floor_counts[FLOOR_C_CALL] = (struct counts_rec){
		.n_short = 500000, .n_long = 1000000, .ops = 500000, .pairs = 3, .has_instructions = 1
	};
	fig(&d.floor_counts[FLOOR_C_CALL].instructions, 3.99, 4, 4.01);
	d.floor_counts[FLOOR_GO_RAW] = (struct counts_rec){ .n_short = 5000, .n_long = 10000, .ops = 5000, .pairs = 3 };
	one = doc_dumps(&d, 0);
	assert_non_null(strstr(one, "\"instructions_not_counted\": \"async: its worker spins\""));
	assert_non_null(strstr(one, "\"floor_counts\": {"));
	assert_non_null(strstr(one, "\"go_raw\": {"));
	if (doc_loads(&back, one, strlen(one), err, sizeof(err)) != 0)
		fail_msg("read back: %s", err);
	two = doc_dumps(&back, 0);
	assert_string_equal(one, two);
	assert_string_equal(back.cells[0].counts.instructions_not_counted, "async: its worker spins");
	assert_int_equal(back.has_floor_counts, 1);
	assert_true(back.floor_counts[FLOOR_C_CALL].n_long == 1000000);
	assert_true(back.floor_counts[FLOOR_C_CALL].instructions.median == 4);
	assert_int_equal(back.floor_counts[FLOOR_GO_RAW].has_instructions, 0);
	free(one);
	free(two);
	doc_free(&d);
	doc_free(&back);
}

/* More pairs than the record holds is refused, naming where. */
static void test_too_many_pairs(void **state)
{
	struct doc d, back;
	char err[512] = "", *one, *at, *text;
	const char *more = "[1, 2, 3, 4, 5, 6, 7, 8, 9]";

	(void)state;
	counted_cell(&d);
	one = doc_dumps(&d, 1);
	at = strstr(one, "\"pairs\":[");
	assert_non_null(at);
	text = malloc(strlen(one) + 64);
	snprintf(text, strlen(one) + 64, "%.*s\"pairs\":%s%s", (int)(at - one), one, more, strchr(at, ']') + 1);
	assert_int_equal(doc_loads(&back, text, strlen(text), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "more than 8 pairs"));
	free(text);
	free(one);
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_round_trip),	cmocka_unit_test(test_syscalls_by_name),
		cmocka_unit_test(test_document_without_counts), cmocka_unit_test(test_too_many_pairs),
		cmocka_unit_test(test_anatomy_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
