/* test_ratios.c — the paired ratios a run defines (analyse/ratios.c):
 * --host-calls both pairs each batched cell with the per-field one before
 * it, in the same executable and mode, and nothing else. */
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
		{ "/b/bench", 0, HOST_CALLS_PER_FIELD },      { "/b/bench", 0, HOST_CALLS_BATCHED },
		{ "/b/bench", 1, HOST_CALLS_PER_FIELD },      { "/b/bench", 1, HOST_CALLS_BATCHED },
		{ "/b/bench-host", 0, HOST_CALLS_PER_FIELD }, { "/b/bench-host", 0, HOST_CALLS_BATCHED },
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
		{ "/b/bench", 0, HOST_CALLS_PER_FIELD },
		{ "/b/bench", 1, HOST_CALLS_BATCHED },
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
	assert_int_equal(ratios_define((const struct ratio_cell[]){ { "/b/bench", 0, HOST_CALLS_PER_FIELD },
								    { "/b/bench", 0, HOST_CALLS_BATCHED } },
				       2, 2, &o, &pr),
			 0);
	assert_int_equal(pr.nratios, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batched_over_per_field),
		cmocka_unit_test(test_no_pair_across_modes_or_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
