/* test_ratios.c — the paired ratios a run defines (analyse/ratios.c):
 * --host-calls both pairs each batched cell with the per-field one before
 * it, in the same executable and mode, and nothing else; --compare's
 * bench/textbook takes bench's bare cells, its other ratios the rest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyse/ratios.h"

static void test_batched_over_per_field(void **state)
{
	const struct ratio_cell cells[] = {
		{ "/b/bench", 0, HOST_CALLS_PER_FIELD, -1 },	  { "/b/bench", 0, HOST_CALLS_BATCHED, -1 },
		{ "/b/bench", 1, HOST_CALLS_PER_FIELD, -1 },	  { "/b/bench", 1, HOST_CALLS_BATCHED, -1 },
		{ "/b/bench-host", 0, HOST_CALLS_PER_FIELD, -1 }, { "/b/bench-host", 0, HOST_CALLS_BATCHED, -1 },
	};
	struct options o;
	struct paired_rec pr;
	(void)state;

	options_defaults(&o);
	o.kind = RUN_PER_EVENT;
	memset(&pr, 0, sizeof(pr));
	assert_int_equal(ratios_define(cells, 6, 6, &o, &pr), 0);
	assert_int_equal(pr.nratios, 3);
	assert_string_equal(pr.ratios[0].name, "batched/per-field bench sync wall");
	assert_int_equal(pr.ratios[0].num, 1);
	assert_int_equal(pr.ratios[0].den, 0);
	assert_string_equal(pr.ratios[1].name, "batched/per-field bench async wall");
	assert_int_equal(pr.ratios[1].num, 3);
	assert_int_equal(pr.ratios[1].den, 2);
	assert_string_equal(pr.ratios[2].name, "batched/per-field bench-host sync wall");
	assert_false(pr.ratios[2].judged);
	free(pr.ratios);
}

static void test_no_pair_across_modes_or_kinds(void **state)
{
	/* a per-field sync cell next to a batched async one: no ratio */
	const struct ratio_cell cells[] = {
		{ "/b/bench", 0, HOST_CALLS_PER_FIELD, -1 },
		{ "/b/bench", 1, HOST_CALLS_BATCHED, -1 },
	};
	struct options o;
	struct paired_rec pr;
	(void)state;

	options_defaults(&o);
	o.kind = RUN_PER_EVENT;
	memset(&pr, 0, sizeof(pr));
	assert_int_equal(ratios_define(cells, 2, 2, &o, &pr), 0);
	assert_int_equal(pr.nratios, 0);
	/* the same cells in another kind of run: not per-event ratios */
	o.kind = RUN_LAUNCHES;
	assert_int_equal(ratios_define((const struct ratio_cell[]){ { "/b/bench", 0, HOST_CALLS_PER_FIELD, -1 },
								    { "/b/bench", 0, HOST_CALLS_BATCHED, -1 } },
				       2, 2, &o, &pr),
			 0);
	assert_int_equal(pr.nratios, 0);
}

/* --compare: bench/textbook divides bench's bare cell by the textbook
 * loop's, per mode, and the other ratios keep to the cells of the run's
 * own work, wherever the bare cells stand. */
static void test_bench_over_textbook(void **state)
{
	const struct ratio_cell cells[] = {
		{ "/b/bench", 0, -1, WORK_BARE },   { "/b/bench", 0, -1, -1 },
		{ "/b/bench", 1, -1, -1 },	    { "/b/bench-shared", 0, -1, -1 },
		{ "/b/bench-shared", 1, -1, -1 },   { "/b/bench-host", 0, -1, -1 },
		{ "/b/bench-textbook", 0, -1, -1 }, { "/b/bench", 1, -1, WORK_BARE },
		{ "/b/bench-textbook", 1, -1, -1 },
	};
	struct options o;
	struct paired_rec pr;
	(void)state;

	options_defaults(&o);
	o.kind = RUN_COMPARE;
	memset(&pr, 0, sizeof(pr));
	assert_int_equal(ratios_define(cells, 9, 9, &o, &pr), 0);
	assert_int_equal(pr.nratios, 8);
	assert_string_equal(pr.ratios[0].name, "async/sync lib=archive wall");
	assert_int_equal(pr.ratios[0].num, 2);
	assert_int_equal(pr.ratios[0].den, 1);
	assert_string_equal(pr.ratios[4].name, "go sync/c lib=archive wall");
	assert_int_equal(pr.ratios[4].num, 1);
	assert_string_equal(pr.ratios[6].name, "bench/textbook mode=sync wall");
	assert_int_equal(pr.ratios[6].num, 0);
	assert_int_equal(pr.ratios[6].den, 6);
	assert_string_equal(pr.ratios[7].name, "bench/textbook mode=async wall");
	assert_int_equal(pr.ratios[7].num, 7);
	assert_int_equal(pr.ratios[7].den, 8);
	free(pr.ratios);
	/* no textbook cells built: no bench/textbook ratio */
	memset(&pr, 0, sizeof(pr));
	assert_int_equal(ratios_define(cells + 1, 5, 5, &o, &pr), 0);
	assert_int_equal(pr.nratios, 6);
	free(pr.ratios);
}

/* --compare: async in round trips divides each library's async cell by
 * the C plugin's async cell with bare work (the round trip), and by no
 * other bench-host cell. */
static void test_async_over_round_trip(void **state)
{
	const struct ratio_cell cells[] = {
		{ "/b/bench", 0, -1, -1 },	  { "/b/bench", 1, -1, -1 },	  { "/b/bench-shared", 0, -1, -1 },
		{ "/b/bench-shared", 1, -1, -1 }, { "/b/bench-host", 0, -1, -1 }, { "/b/bench-host", 1, -1, WORK_BARE },
	};
	struct options o;
	struct paired_rec pr;
	(void)state;

	options_defaults(&o);
	o.kind = RUN_COMPARE;
	memset(&pr, 0, sizeof(pr));
	assert_int_equal(ratios_define(cells, 6, 6, &o, &pr), 0);
	assert_int_equal(pr.nratios, 8);
	assert_string_equal(pr.ratios[6].name, "async/roundtrip lib=archive wall");
	assert_int_equal(pr.ratios[6].num, 1);
	assert_int_equal(pr.ratios[6].den, 5);
	assert_string_equal(pr.ratios[7].name, "async/roundtrip lib=shared wall");
	assert_int_equal(pr.ratios[7].num, 3);
	assert_int_equal(pr.ratios[7].den, 5);
	free(pr.ratios);
	/* the C plugin's async of the run's own work is not the round trip */
	const struct ratio_cell noop[] = {
		{ "/b/bench", 1, -1, -1 },
		{ "/b/bench-host", 1, -1, -1 },
	};
	memset(&pr, 0, sizeof(pr));
	assert_int_equal(ratios_define(noop, 2, 2, &o, &pr), 0);
	for (size_t k = 0; k < pr.nratios; k++)
		assert_null(strstr(pr.ratios[k].name, "roundtrip"));
	free(pr.ratios);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batched_over_per_field),
		cmocka_unit_test(test_no_pair_across_modes_or_kinds),
		cmocka_unit_test(test_bench_over_textbook),
		cmocka_unit_test(test_async_over_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
