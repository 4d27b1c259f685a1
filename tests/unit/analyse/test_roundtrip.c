/* test_roundtrip.c — async in round trips (analyse/roundtrip.c) on a
 * synthetic paired run: the crossover is round trip x sync / async of each
 * round, a line is fitted through the generations only when the round trip
 * moved, and a run without the round-trip cell gets nothing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyse/roundtrip.h"

#define GENS   8
#define ROUNDS 5

static double *values(size_t n)
{
	double *v = calloc(n, sizeof(double));
	assert_non_null(v);
	return v;
}

static void add_cell(struct paired_rec *p, const char *name)
{
	struct pair_cell_rec *c = &p->cells[p->ncells++];

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->block_ns = values(GENS * ROUNDS);
	c->nblocks = GENS * ROUNDS;
}

static void add_ratio(struct paired_rec *p, const char *name, int num, int den, double est)
{
	struct pair_ratio_rec *r = &p->ratios[p->nratios++];

	snprintf(r->name, sizeof(r->name), "%s", name);
	r->num = num;
	r->den = den;
	r->estimate = est;
	r->low = est * 0.9;
	r->high = est * 1.1;
}

/* Generation g's round trip: rt(g); async costs slope round trips plus
 * intercept; sync is flat. */
static void make_run(struct doc *d, double (*rt)(size_t g), double slope, double intercept, double sync)
{
	struct paired_rec *p = &d->paired;

	memset(d, 0, sizeof(*d));
	d->has_paired = 1;
	p->cells = calloc(3, sizeof(*p->cells));
	p->ratios = calloc(2, sizeof(*p->ratios));
	p->generation_rounds = values(GENS);
	assert_non_null(p->cells);
	assert_non_null(p->ratios);
	p->ngenerations = GENS;
	add_cell(p, "lib=archive/mode=async/work=noop/p=1");
	add_cell(p, "lib=archive/mode=sync/work=noop/p=1");
	add_cell(p, ROUNDTRIP_CELL);
	for (size_t g = 0; g < GENS; g++) {
		p->generation_rounds[g] = ROUNDS;
		for (size_t i = 0; i < ROUNDS; i++) {
			size_t k = g * ROUNDS + i;
			/* the rounds of a generation differ a little */
			double r = rt(g) * (1.0 + 0.01 * (double)i);
			p->cells[2].block_ns[k] = r;
			p->cells[0].block_ns[k] = slope * r + intercept;
			p->cells[1].block_ns[k] = sync;
		}
	}
	add_ratio(p, "async/sync lib=archive wall", 0, 1, 2.5);
	add_ratio(p, "async/roundtrip lib=archive wall", 0, 2, 2.7);
}

static double moving(size_t g)
{
	return 80.0 + 12.0 * (double)g; /* 80 .. 164 ns: x2.05 */
}

static double steady(size_t g)
{
	return 100.0 + 0.5 * (double)(g % 2);
}

static void test_line_when_the_round_trip_moves(void **state)
{
	struct doc d;
	const struct roundtrip_lib_rec *l;

	(void)state;
	make_run(&d, moving, 2.0, 40.0, 100.0);
	assert_int_equal(roundtrip_analyse(&d), 0);
	assert_true(d.paired.has_roundtrip);
	assert_string_equal(d.paired.roundtrip.cell, ROUNDTRIP_CELL);
	assert_int_equal(d.paired.roundtrip.ngen, GENS);
	assert_int_equal(d.paired.roundtrip.nlibs, 1); /* no shared cells */
	/* each generation's median round: its third, x1.02 */
	assert_true(fabs(d.paired.roundtrip.ns_min - 80.0 * 1.02) < 1e-9);
	assert_true(fabs(d.paired.roundtrip.ns_max - 164.0 * 1.02) < 1e-9);
	l = &d.paired.roundtrip.libs[0];
	assert_string_equal(l->lib, "archive");
	/* the ratio's figures are copied, not recomputed */
	assert_true(l->rts == 2.7 && l->rts_low == 2.7 * 0.9 && l->rts_high == 2.7 * 1.1);
	/* the points lie on async = 2 rt + 40 */
	assert_true(l->fitted);
	assert_true(fabs(l->slope - 2.0) < 1e-9);
	assert_true(fabs(l->intercept_ns - 40.0) < 1e-6);
	assert_true(l->slope_low <= l->slope && l->slope <= l->slope_high);
	/* crossover of a round: rt * 100 / (2 rt + 40), from 25 (rt 80) to
	 * 44.7 (rt 170): its estimate lies inside, with an interval */
	assert_true(l->crossover_ns > 25.0 && l->crossover_ns < 45.0);
	assert_true(l->crossover_low < l->crossover_ns && l->crossover_ns < l->crossover_high);
	assert_true(fabs(l->sync_ns - 100.0) < 1e-9);
	doc_free(&d);
}

static void test_no_line_when_it_stays(void **state)
{
	struct doc d;
	const struct roundtrip_lib_rec *l;

	(void)state;
	make_run(&d, steady, 3.0, 0.0, 110.0);
	assert_int_equal(roundtrip_analyse(&d), 0);
	l = &d.paired.roundtrip.libs[0];
	assert_false(l->fitted);
	assert_non_null(strstr(l->why, "too little for a slope"));
	assert_true(isnan(l->slope));
	/* async is 3 round trips here: async beats sync below 110 / 3 ns */
	assert_true(fabs(l->crossover_ns - 110.0 / 3.0) < 0.01);
	doc_free(&d);
}

static void test_no_round_trip_cell(void **state)
{
	struct doc d;

	(void)state;
	make_run(&d, moving, 2.0, 40.0, 100.0);
	snprintf(d.paired.ratios[1].name, sizeof(d.paired.ratios[1].name), "go sync/c lib=archive wall");
	assert_int_equal(roundtrip_analyse(&d), 0);
	assert_false(d.paired.has_roundtrip);
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_when_the_round_trip_moves),
		cmocka_unit_test(test_no_line_when_it_stays),
		cmocka_unit_test(test_no_round_trip_cell),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
