/* tests/unit/test_pairs.c — the pure parts of a paired run: the random order
 * of each round, the stop rule of the time budget, and the ratios taken over
 * generations. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyse/ratios.h"
#include "analyse/verdict.h"
#include "model/options.h"
#include "orchestrate/pairs.h"

/* Every round's order is a permutation; over many rounds each cell takes
 * each slot about equally often; the same seed gives the same rounds. */
static void test_order_is_a_fair_permutation(void **state)
{
	enum { N = 5, ROUNDS = 20000 };
	int count[N][N] = { { 0 } }, order[N], again[N];
	stats_rng rng, rng2, other;
	int differ = 0;

	(void)state;
	stats_rng_seed(&rng, 7);
	stats_rng_seed(&rng2, 7);
	stats_rng_seed(&other, 8);
	for (int r = 0; r < ROUNDS; r++) {
		int seen[N] = { 0 };
		pairs_order(order, N, &rng);
		for (int i = 0; i < N; i++) {
			assert_true(order[i] >= 0 && order[i] < N);
			assert_int_equal(seen[order[i]]++, 0);
			count[order[i]][i]++;
		}
		pairs_order(again, N, &rng2);
		assert_memory_equal(order, again, sizeof(order));
		pairs_order(again, N, &other);
		differ |= memcmp(order, again, sizeof(order)) != 0;
	}
	assert_true(differ);
	/* expected ROUNDS / N = 4000 per cell and slot, sd about 57: 6 sd */
	for (int c = 0; c < N; c++)
		for (int s = 0; s < N; s++)
			assert_true(abs(count[c][s] - ROUNDS / N) < 350);
}

/* One cell of n blocks, all of value v except those given. */
static void fill(struct pair_cell_rec *c, size_t n, double v)
{
	c->block_ns = calloc(n, sizeof(double));
	c->block_cpu_ns = calloc(n, sizeof(double));
	assert_non_null(c->block_ns);
	assert_non_null(c->block_cpu_ns);
	for (size_t i = 0; i < n; i++)
		c->block_ns[i] = c->block_cpu_ns[i] = v;
	c->nblocks = c->ncpu = n;
}

static void unfill(struct paired_rec *p)
{
	for (size_t i = 0; i < p->ncells; i++) {
		free(p->cells[i].block_ns);
		free(p->cells[i].block_cpu_ns);
	}
	free(p->generation_rounds);
}

/* Two cells, G generations of R rounds; in generation g the numerator is
 * 1 + 0.01 g times the denominator, and one wild pair per generation does
 * not move the generation's ratio (a median). */
static void make_run(struct paired_rec *p, struct pair_cell_rec cells[2], struct pair_ratio_rec *r, size_t g,
		     size_t rounds)
{
	memset(p, 0, sizeof(*p));
	memset(cells, 0, 2 * sizeof(*cells));
	memset(r, 0, sizeof(*r));
	fill(&cells[0], g * rounds, 100.0);
	fill(&cells[1], g * rounds, 100.0);
	p->generation_rounds = calloc(g, sizeof(double));
	assert_non_null(p->generation_rounds);
	for (size_t k = 0; k < g; k++) {
		p->generation_rounds[k] = (double)rounds;
		for (size_t i = 0; i < rounds; i++)
			cells[0].block_ns[k * rounds + i] = 100.0 * (1.0 + 0.01 * (double)k);
		cells[0].block_ns[k * rounds] = 1e6; /* a wild pair */
	}
	p->ngenerations = g;
	p->cells = cells;
	p->ncells = 2;
	p->ratios = r;
	p->nratios = 1;
	r->num = 0;
	r->den = 1;
}

static void test_generation_ratios_are_medians_of_their_rounds(void **state)
{
	struct paired_rec p;
	struct pair_cell_rec cells[2];
	struct pair_ratio_rec r;
	double x[8];

	(void)state;
	make_run(&p, cells, &r, 8, 9);
	assert_int_equal(paired_generation_ratios(&p, &r, cells[0].block_ns, cells[1].block_ns, x), 0);
	for (int k = 0; k < 8; k++)
		assert_float_equal(x[k], 1.0 + 0.01 * k, 1e-12);
	/* the interval over generations: from ratios 1.00 .. 1.07 */
	assert_true(ratios_half_width(&p, &r) > 0.5 && ratios_half_width(&p, &r) < 4.0);
	unfill(&p);
	/* too few generations for an interval */
	make_run(&p, cells, &r, 5, 9);
	assert_true(isnan(ratios_half_width(&p, &r)));
	unfill(&p);
}

static void test_stop_rule(void **state)
{
	struct paired_rec p;
	struct pair_cell_rec cells[2];
	struct pair_ratio_rec r;
	struct options o;

	(void)state;
	options_defaults(&o);
	o.time_s = 10;
	make_run(&p, cells, &r, 8, 9);
	/* the budget, and nothing else, with no --precision nor --launches */
	assert_null(pairs_stop(&p, &o, 9.99));
	assert_string_equal(pairs_stop(&p, &o, 10.0), "time");
	/* --launches L: L generations, whatever the time */
	o.launches = 8;
	o.launches_set = 1;
	assert_string_equal(pairs_stop(&p, &o, 1.0), "launches");
	o.launches = 9;
	assert_null(pairs_stop(&p, &o, 1.0));
	assert_null(pairs_stop(&p, &o, 100.0));
	o.launches_set = 0;
	/* --precision: met when every half-width is at most it */
	p.precision_pct = 10;
	assert_string_equal(pairs_stop(&p, &o, 1.0), "precision");
	p.precision_pct = 0.1;
	assert_null(pairs_stop(&p, &o, 1.0));
	unfill(&p);
	/* never before PAIRS_MIN_GENERATIONS, however precise */
	make_run(&p, cells, &r, PAIRS_MIN_GENERATIONS - 1, 9);
	for (size_t i = 0; i < cells[0].nblocks; i++)
		cells[0].block_ns[i] = 100.0;
	p.precision_pct = 50;
	assert_null(pairs_stop(&p, &o, 1.0));
	unfill(&p);
	/* under --against's sequential design --precision is no stop rule */
	make_run(&p, cells, &r, VERDICT_MIN_GENERATIONS - 1, 9);
	for (size_t i = 0; i < cells[0].nblocks; i++)
		cells[0].block_ns[i] = 100.0;
	p.precision_pct = 50;
	assert_string_equal(pairs_stop(&p, &o, 1.0), "precision");
	p.has_sequential = 1;
	seq_init(&p.seq, VERDICT_MIN_GENERATIONS, 30, 0.05);
	assert_null(pairs_stop(&p, &o, 1.0));
	unfill(&p);
}

/* --against: a look at each scheduled generation count, spending alpha / K,
 * ends the run when its verdict is sure; between looks nothing is judged;
 * at the end of the budget the final look spends what is left. */
static void test_sequential_stop(void **state)
{
	struct paired_rec p;
	struct pair_cell_rec cells[2];
	struct pair_ratio_rec r;
	struct options o;

	(void)state;
	options_defaults(&o);
	o.time_s = 30;
	o.threshold = 0.02;
	/* ratios 1.05 x (1.00 .. 1.11) over 12 generations: regressed at the
	 * first look (its 99% interval from 1.07) */
	make_run(&p, cells, &r, 12, 9);
	for (size_t i = 0; i < cells[0].nblocks; i++)
		cells[0].block_ns[i] *= 1.05;
	r.judged = 1;
	p.has_sequential = 1;
	seq_init(&p.seq, 12, 30, 0.05); /* looks 12, 15, 19, 24, and the final: K = 5 */
	assert_string_equal(pairs_stop(&p, &o, 14.0), "verdict");
	assert_int_equal(p.seq.taken, 1);
	assert_float_equal(p.verdict_alpha, 0.01, 1e-12);
	assert_float_equal(paired_judged_level(&p), 0.99, 1e-12);
	unfill(&p);
	/* every ratio 1: a regression of 2% ruled out at the first look */
	make_run(&p, cells, &r, 12, 9);
	for (size_t i = 0; i < cells[0].nblocks; i++)
		cells[0].block_ns[i] = 100.0;
	r.judged = 1;
	p.has_sequential = 1;
	seq_init(&p.seq, 12, 30, 0.05);
	assert_string_equal(pairs_stop(&p, &o, 14.0), "verdict");
	unfill(&p);
	/* 13 generations is no look: nothing judged, nothing spent */
	make_run(&p, cells, &r, 13, 9);
	r.judged = 1;
	p.has_sequential = 1;
	seq_init(&p.seq, 12, 30, 0.05);
	assert_null(pairs_stop(&p, &o, 15.0));
	assert_int_equal(p.seq.taken, 0);
	/* the budget spent: the final look takes all the alpha left */
	assert_string_equal(pairs_stop(&p, &o, 30.0), "verdict");
	assert_float_equal(p.verdict_alpha, 0.05, 1e-12);
	unfill(&p);
}

/* The most generations a budget holds: L with --launches L; else --time
 * over the longer of a generation's length and one round. */
static void test_max_generations(void **state)
{
	struct options o;
	double least;

	(void)state;
	options_defaults(&o);
	o.time_s = 1; /* generations of 0.2 s */
	assert_int_equal(options_max_generations(&o, 2, &least), 5);
	assert_float_equal(least, 0.2, 1e-12);
	o.time_s = 2.4;
	assert_int_equal(options_max_generations(&o, 2, &least), 12);
	o.time_s = 2.0;
	assert_int_equal(options_max_generations(&o, 2, &least), 10);
	o.time_s = 30; /* generations of 1 s (a 25th, at most 1 s) */
	assert_int_equal(options_max_generations(&o, 2, &least), 30);
	/* a lead-in of 1 s: a round of two blocks lasts more than 2 s */
	o.time_s = 1;
	o.lead_in_us = 1000000;
	assert_int_equal(options_max_generations(&o, 2, &least), 1);
	assert_true(least > 2.0);
	o.time_s = 30;
	assert_int_equal(options_max_generations(&o, 2, &least), 15);
	o.launches = 6;
	o.launches_set = 1;
	assert_int_equal(options_max_generations(&o, 2, &least), 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_is_a_fair_permutation),
		cmocka_unit_test(test_generation_ratios_are_medians_of_their_rounds),
		cmocka_unit_test(test_stop_rule),
		cmocka_unit_test(test_sequential_stop),
		cmocka_unit_test(test_max_generations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
